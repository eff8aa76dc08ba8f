"""bench/speedup checked on numbers it must compute, not on a build against
itself (docs/benchmarks.md, "bench/speedup").

1. Two real runs (this build as base and as new, --no-build, C12 L5, one
   step, 1x1) with --new-args and --name: the option reaches the new side's
   runs only, the resolved configurations differ in that key and nowhere
   else, and the results go to the named files. The base side's report is
   kept as the template of part 2.
2. Two fixture builds (a CMakeCache.txt naming this tree, a gale-mpiexec
   and a gale that copy the template report with a time_per_step_s from a
   table, one per build, layout and repeat; the new build's gale also flips
   one checksum on 2x1): layouts 1x1,2x1, three repeats, and
   --require-equal-checksums. The speed-ups, medians and pairwise ratios are
   then known exactly (below), and so are the layout whose checksums differ,
   the field that differs, the exit status 1, the interleaved order (base
   first on even repeats, new first on odd ones), the markdown table's rows
   and speedup.json's and speedup.csv's contents.

usage: check_speedup.py ROOT BUILD OUT"""
import csv
import json
import os
import shutil
import stat
import subprocess
import sys

root, build, out = sys.argv[1:4]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
SPEEDUP = [sys.executable, os.path.join(root, "bench", "speedup")]
CASE = ["--no-build", "--mesh", "C12", "--levels", "5", "--steps", "1"]
bad = []


def run(args):
    r = subprocess.run(SPEEDUP + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=100)
    return r.returncode, r.stdout


# ---- 1: real runs, --new-args and --name ----
rc, txt = run(["--base-build", build, "--new-build", build, *CASE, "--repeats", "1",
               "--layouts", "1x1", "--new-args=--mixed_solver.tolerance=0.01", "--name", "sp2",
               "--out", out, "--raw-dir", os.path.join(out, "raw")])
template = None
if rc != 0 or not os.path.exists(os.path.join(out, "sp2.csv")):
    bad.append(f"bench/speedup --new-args --name sp2 failed ({rc}) or wrote no sp2.csv:\n"
               f"{txt[-2000:]}")
else:
    d2 = json.load(open(os.path.join(out, "sp2.json")))
    for r in d2.get("runs", []):
        has = "--mixed_solver.tolerance=0.01" in r.get("command", "")
        if has != (r.get("side") == "new"):
            bad.append(f"--new-args on the {r.get('side')} side: {has}")
        if r.get("side") == "base":
            template = json.load(open(r["report"]))
    diff = d2["summary"][0].get("config_differences", {})
    if set(diff) != {"mixed_solver.tolerance"} or diff["mixed_solver.tolerance"][1] != 0.01 \
            or diff["mixed_solver.tolerance"][0] == 0.01:
        bad.append(f"config_differences: {diff} (expected the tolerance alone, -> 0.01)")
    if d2.get("case", {}).get("new_args") != ["--mixed_solver.tolerance=0.01"]:
        bad.append(f"case.new_args {d2.get('case', {}).get('new_args')}")
if template is None:
    sys.exit("FAIL:\n  " + "\n  ".join(bad + ["no base report to use as the fixture's template"]))

# ---- 2: fixture builds with known times ----
# time_per_step_s per layout and repeat; the expected summary follows by hand:
# 1x1: medians 0.44 and 0.20, speed-up 2.2, pairwise 0.40/0.20, 0.60/0.20,
#      0.44/0.22 = 2, 3, 2; 2x1: medians 0.30 and 0.15, speed-up 2.0,
#      pairwise 0.30/0.10, 0.30/0.15, 0.30/0.30 = 3, 2, 1.
TIMES = {"base": {"1x1": [0.40, 0.60, 0.44], "2x1": [0.30, 0.30, 0.30]},
         "new": {"1x1": [0.20, 0.20, 0.22], "2x1": [0.10, 0.15, 0.30]}}
EXPECT = {"1x1": dict(base_median_s=0.44, new_median_s=0.20, speedup=2.2, pairwise_min=2.0,
                      pairwise_max=3.0, pairwise_ratios=[2.0, 3.0, 2.0], checksums_equal=True),
          "2x1": dict(base_median_s=0.30, new_median_s=0.15, speedup=2.0, pairwise_min=1.0,
                      pairwise_max=3.0, pairwise_ratios=[3.0, 2.0, 1.0], checksums_equal=False)}
field = sorted(template["checksums"])[0]
cc = None
for line in open(os.path.join(build, "CMakeCache.txt")):
    if line.startswith("CMAKE_C_COMPILER:"):
        cc = line.split("=", 1)[1].strip()
FAKE_GALE = r'''#!/usr/bin/python3
"""A fixture gale: writes the template report with this build's time."""
import json, os, re, sys
here = os.path.dirname(os.path.abspath(__file__))
t = json.load(open(os.path.join(here, "times.json")))
js = sys.argv[sys.argv.index("--report") + 1]
ranks, threads = int(os.environ["GALE_FAKE_RANKS"]), int(os.environ.get("OMP_NUM_THREADS", "1"))
lay = f"{ranks}x{threads}"
rep = json.load(open(os.path.join(here, "template.json")))
rep.update(ranks=ranks, threads=threads,
           time_per_step_s=t["times"][lay][int(re.search(r"_r(\d+)\.json$", js).group(1))])
if lay in t.get("flip", {}):
    k = t["flip"][lay]
    rep["checksums"][k] = "0" + rep["checksums"][k][1:] if rep["checksums"][k][0] != "0" \
        else "1" + rep["checksums"][k][1:]
json.dump(rep, open(js, "w"))
'''
FAKE_MPIEXEC = '#!/bin/sh\n# a fixture launcher: -n N, then the command\nGALE_FAKE_RANKS=$2\n' \
               'export GALE_FAKE_RANKS\nshift 2\nexec "$@"\n'
fx = os.path.join(out, "fixture")
for side in ("base", "new"):
    d = os.path.join(fx, side)
    os.makedirs(d)
    with open(os.path.join(d, "CMakeCache.txt"), "w") as f:
        f.write(f"CMAKE_HOME_DIRECTORY:INTERNAL={root}\nCMAKE_C_COMPILER:FILEPATH={cc}\n")
    json.dump(template, open(os.path.join(d, "template.json"), "w"))
    json.dump({"times": TIMES[side], "flip": {"2x1": field} if side == "new" else {}},
              open(os.path.join(d, "times.json"), "w"))
    for name, body in (("gale", FAKE_GALE), ("gale-mpiexec", FAKE_MPIEXEC)):
        p = os.path.join(d, name)
        with open(p, "w") as f:
            f.write(body)
        os.chmod(p, os.stat(p).st_mode | stat.S_IXUSR)
rc, txt = run(["--base-build", os.path.join(fx, "base"), "--new-build", os.path.join(fx, "new"),
               *CASE, "--repeats", "3", "--layouts", "1x1,2x1", "--require-equal-checksums",
               "--out", out, "--raw-dir", os.path.join(out, "raw")])
print(txt[-3000:])
if rc != 1 or "checksums differ on 2x1" not in txt:
    bad.append(f"--require-equal-checksums with a flipped checksum on 2x1: exit {rc}, expected 1 "
               "and 'checksums differ on 2x1'")
d = json.load(open(os.path.join(out, "speedup.json")))
for k in ("date", "command", "case", "layouts", "repeats", "base", "new", "machine", "load",
          "summary", "runs", "failed_runs"):
    if k not in d:
        bad.append(f"speedup.json has no {k}")
for side in ("base", "new"):
    for k in ("commit", "build", "exe", "config", "launcher", "compiler"):
        if not d.get(side, {}).get(k):
            bad.append(f"speedup.json: {side}.{k} missing")
    if d.get(side, {}).get("build") != os.path.join(fx, side):
        bad.append(f"speedup.json: {side}.build {d.get(side, {}).get('build')}")
for k in ("cpu_model", "cores"):
    if not d.get("machine", {}).get(k):
        bad.append(f"speedup.json: machine.{k} missing")
if len(d.get("runs", [])) != 12 or d.get("failed_runs") != 0:
    bad.append(f"{len(d.get('runs', []))} runs (expected 12), {d.get('failed_runs')} failed")
# interleaved: on each layout base first on repeats 0 and 2, new first on 1
for rep in range(3):
    for lay in ("1x1", "2x1"):
        order = [r["side"] for r in d.get("runs", []) if r["repeat"] == rep and r["layout"] == lay]
        want = ["new", "base"] if rep % 2 else ["base", "new"]
        if order != want:
            bad.append(f"repeat {rep} {lay}: order {order}, expected {want}")
summ = {s["layout"]: s for s in d.get("summary", [])}
if list(summ) != ["1x1", "2x1"]:
    bad.append(f"summary layouts {list(summ)}")
for lay, want in EXPECT.items():
    s = summ.get(lay, {})
    for k, v in want.items():
        got = s.get(k)
        same = got == v if isinstance(v, bool) else (
            [round(x, 12) for x in got] == v if isinstance(v, list) and got else
            isinstance(got, float) and abs(got - v) < 1e-12)
        if not same:
            bad.append(f"{lay}: {k} = {got}, expected {v}")
    diff = [field] if lay == "2x1" else []
    if s.get("checksum_fields_differing") != diff:
        bad.append(f"{lay}: fields differing {s.get('checksum_fields_differing')}, expected {diff}")
    if s.get("checksums_repeatable") != {"base": True, "new": True}:
        bad.append(f"{lay}: checksums_repeatable {s.get('checksums_repeatable')}")
rows = list(csv.DictReader(open(os.path.join(out, "speedup.csv"))))
got = sorted((r["side"], r["layout"], r["repeat"], float(r["time_per_step_s"])) for r in rows)
want = sorted((side, lay, str(i), t) for side, x in TIMES.items() for lay, ts in x.items()
              for i, t in enumerate(ts))
if got != want:
    bad.append(f"speedup.csv rows {got}, expected {want}")
for line in ("| 1x1 | 0.4400 | 0.2000 | 2.20 | 2.00-3.00 | equal |",
             f"| 2x1 | 0.3000 | 0.1500 | 2.00 | 1.00-3.00 | differ: {field} |"):
    if line not in txt:
        bad.append(f"the markdown table lacks {line}")
if bad:
    sys.exit("FAIL:\n  " + "\n  ".join(bad))
print("bench/speedup: speed-ups 2.2 and 2.0, pairwise 2-3 and 1-3 from known times, the "
      f"flipped checksum {field} found on 2x1 alone, --new-args on the new side alone")
