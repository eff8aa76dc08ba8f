"""The tests that did not run, and why: read from CTest's JUnit file (ctest
--output-junit FILE, which `make test` writes to
build/<preset>/Testing/Temporary/junit.xml), one line per test: its name and
the reason it printed (its "SKIPPED: ..." line, else its last line of
output, else CTest's own message: a skip return code, disabled, a fixture
that failed). CTest's "The following tests did not run" names them without
the reason; LastTest.log cannot tell a skip from a pass.

--fail exits 1 when a test that did not run is not allowed by an --allow
NAME=REGEX (the test NAME may skip when its reason matches REGEX); .ci/run
uses it: on CI's machine (root, Lmod, Slurm, clang-19) the one allowed skip
is offload_nvptx_build without the CUDA toolkit's ptxas.

usage: report_skips.py JUNIT.xml [--fail] [--allow NAME=REGEX ...]"""
import argparse
import re
import sys
import xml.etree.ElementTree as ET

p = argparse.ArgumentParser(description=__doc__,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("junit")
p.add_argument("--fail", action="store_true",
               help="exit 1 when a test that did not run is not allowed")
p.add_argument("--allow", action="append", default=[], metavar="NAME=REGEX",
               help="test NAME may skip when its reason matches REGEX")
a = p.parse_args()
allow = {}
for x in a.allow:
    name, sep, rx = x.partition("=")
    if not sep:
        sys.exit(f"report_skips: --allow {x!r} is not NAME=REGEX")
    allow[name] = re.compile(rx)
try:
    root = ET.parse(a.junit).getroot()
except (OSError, ET.ParseError) as e:
    sys.exit(f"report_skips: cannot read {a.junit}: {e}")

skipped = []
for tc in root.iter("testcase"):
    # run and fail are tests that ran; notrun (a skip return code, a missing
    # fixture) and disabled are not
    if tc.get("status") in ("run", "fail") and tc.find("skipped") is None:
        continue
    out = (tc.findtext("system-out") or "").strip().splitlines()
    said = [line.strip() for line in out if line.strip().startswith("SKIPPED")]
    sk = tc.find("skipped")
    why = said[-1] if said else out[-1].strip() if out else \
        (sk.get("message") if sk is not None else tc.get("status"))
    skipped.append((tc.get("name"), why))

if not skipped:
    print("report_skips: every test ran")
    sys.exit(0)
print(f"report_skips: {len(skipped)} test(s) did not run:")
bad = []
for name, why in skipped:
    ok = name in allow and allow[name].search(why)
    print(f"  {name}: {why}" + ("" if ok or not a.fail else "   <- not allowed here"))
    if not ok:
        bad.append(name)
if a.fail and bad:
    sys.exit(f"report_skips: {len(bad)} test(s) that this machine can run did not run: "
             + ", ".join(bad))
