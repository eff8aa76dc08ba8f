#!/usr/bin/python3
"""Bad numbers, lists and syntax refused before any work (issue 40), and the
docs' claims about the configuration checked against the code.

usage: check_bad_numbers.py MPIEXEC GALE SOURCE WORKDIR

Each refusal must end every rank with exit 2 before the run's header (so
before set-up and the first step), in one message naming the input (file and
line, or the command line) and what is wrong:
- [diagnostics] fields: a NaN, inf, negative or non-whole output period, an
  unknown field; [io] dir = "" (where it was set);
- a relative tolerance of 0 without an absolute one ([solver],
  [mixed_solver]);
- [io] buffers x buffer_mib over 1 TiB, and an output ring larger than the
  memory available to each rank;
- a non-zero number that underflows (INI, command line, namelist with its d
  exponent); zero in any spelling runs;
- namelist values of any key, used by gale or not: '= = 1', '-1*5', '1.0q3',
  an unbalanced quote, '0*1.0'; '3*', '2*1.0', "'it''s'" read;
- a leading UTF-8 byte-order mark is skipped, in an INI file and a namelist;
- a string with a control character or both quote characters (the resolved
  configuration could not store it as a value that reads back);
- docs/configuration.md: the string limit it states is the parser's, and the
  override syntax it states (`--` required; `gale run mesh.name=C4` asks
  "did you mean --mesh.name=C4?").
"""
import os
import re
import shutil
import subprocess
import sys

import ranks

mpiexec, gale, src, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
ENV = dict(os.environ, OMP_NUM_THREADS="1")
ENV.pop("GALE_MEM_AVAILABLE", None)
TINY = ["--mesh.name=C2", "--extrusion.levels=4", "--timestepping.steps=1",
        "--logging.progress_every=0"]
count = 0


def fail(msg, r=None):
    ranks.fail("check_bad_numbers", msg, r)


def put(name, text, mode="w"):
    path = os.path.join(work, name)
    with open(path, mode) as f:
        f.write(text)
    return path


def refused(args, words, np=1, env=ENV):
    """gale run ARGS: every rank exits 2 before the header, and the one
    message has every word."""
    global count
    r, codes = ranks.run_ranks(mpiexec, np, [gale, "run", *args], 60, env=env, cwd=work)
    errs = [l for l in r.stderr.splitlines() if l.startswith("gale: error")]
    if codes != {i: 2 for i in range(np)} or len(errs) != 1:
        fail(f"{args}: want exit 2 on {np} rank(s) and one message, got {codes}", r)
    missing = [w for w in words if w not in errs[0]]
    if missing:
        fail(f"{args}: the message lacks {missing}: {errs[0]}", r)
    if "mesh:" in r.stdout or re.search(r"^step ", r.stdout, re.M):
        fail(f"{args}: refused only after the set-up began", r)
    count += 1
    print(f"check_bad_numbers: {errs[0]}")


def runs(args):
    r, codes = ranks.run_ranks(mpiexec, 1, [gale, "run", *args], 60, env=ENV, cwd=work)
    if codes != {0: 0}:
        fail(f"{args}: want a run, got {codes}", r)


def config(path, *over):
    """gale partition --config: the configuration reader alone."""
    return subprocess.run([gale, "partition", "--config", path, *over, "--ranks", "1", "--json"],
                          capture_output=True, text=True, cwd=work, timeout=60, env=ENV)


def config_refused(path, words, *over):
    global count
    r = config(path, *over)
    if r.returncode != 2 or r.stdout or not all(w in r.stderr for w in words):
        fail(f"{path} {over}: want exit 2 naming {words}, got {r.returncode}", r)
    count += 1
    print(f"check_bad_numbers: {r.stderr.strip().splitlines()[-1]}")


# item 3: output periods and names, checked as the configuration is read
out = os.path.join(work, "out")
shutil.rmtree(out, ignore_errors=True)
for period, why in (("nanh", "bad period '@nanh'"), ("infh", "bad period '@infh'"),
                    ("-2", "bad period '@-2'"), ("0", "bad period '@0'"),
                    ("150s", "not a whole number of time steps")):
    refused([*TINY, f"--diagnostics.fields=p@{period}", f"--io.dir={out}"],
            ["command line", "[diagnostics] fields", f"p@{period}", why])
ini = put("fields.ini", "[io]\ndir = out\n[diagnostics]\nfields = p, w@nanh\n")
refused([ini, *TINY], [f"{ini}:4: [diagnostics] fields", "bad period '@nanh' of 'w'"], np=2)
ini = put("unknown.ini", "[diagnostics]\n\nfields = p, pp\n")
refused([ini, *TINY], [f"{ini}:3: [diagnostics] fields", "unknown field 'pp'", "valid: u, w"])
if os.path.exists(out):
    fail(f"{out} was made for a refused run")
refused([*TINY, "--diagnostics.fields=p", "--io.dir="], ["command line: [io] dir", "empty"])
ini = put("dir.ini", "[io]\ndir =\n[diagnostics]\nfields = p\n")
refused([ini, *TINY], [f"{ini}:2: [io] dir", "empty"])

# item 5: a relative tolerance of 0 alone is never met
refused([*TINY, "--mixed_solver.tolerance=0"],
        ["command line: [mixed_solver] tolerance = 0", "abs_tolerance", "never met"])
ini = put("tol.ini", "[solver]\nmethod = gcr\ntolerance = 0.0\n")
refused([ini, *TINY], [f"{ini}:3: [solver] tolerance = 0", "[solver] abs_tolerance = 0"])

# item 7: the writer's ring, limited and compared with the node
refused([*TINY, "--diagnostics.fields=p", f"--io.dir={out}", "--io.buffers=1024",
         "--io.buffer_mib=1048576"], ["[io] buffers = 1024", "buffer_mib = 1048576", "1 TiB"])
refused([*TINY, "--diagnostics.fields=p", f"--io.dir={out}", "--io.buffers=64",
         "--io.buffer_mib=1024"], ["[io] buffers = 64", "output ring of 64.00 GiB", "available"],
        env=dict(ENV, GALE_MEM_AVAILABLE=str(8 * 2**30)))

# item 8: underflow, from every reader; zero in any spelling is fine
ini = put("tiny.ini", "[initial]\ncase = baroclinic_wave\nperturbation = 1e-400\n")
refused([ini, *TINY], [f"{ini}:3: [initial] perturbation = '1e-400'", "underflows"])
refused([*TINY, "--initial.amplitude=1e-310"], ["--initial.amplitude=1e-310", "underflows"])
nml = put("tiny.nml", "&gravity_wave_constants\n\n speed_of_sound = 3.4d-400\n/\n")
refused([nml], [f"{nml}:3: &gravity_wave_constants speed_of_sound", "underflows"])
runs([*TINY, "--initial.dtheta=-0", "--initial.amplitude=0e5", "--transport.u0=0.0"])

# item 10: namelist values, whatever the key
for value, why in (("= 1", "'=': not a value"), ("-1*5", "repeat count"),
                   ("1.0q3", "'1.0q3': not a number"), ("abc'", "unbalanced quote"),
                   ("0*1.0", "repeat count r* needs r >= 1"), ("1.0d-400", "underflows")):
    nml = put("syntax.nml", f"&transport\n min_val_method = {value}\n/\n")
    config_refused(nml, [f"{nml}:2: &transport min_val_method", why])
nml = put("nulls.nml", "&transport\n min_value = 3*, enforce_min_value = 2*1.0, 1, , 2\n"
                       " min_val_method = 'it''s'\n/\n")
r = config(nml)
if r.returncode != 0:
    fail("repeat counts 3* and 2*1.0, a null value and a doubled quote: refused", r)

# item 11: a leading UTF-8 byte-order mark is skipped
for name, text in (("bom.ini", "[mesh]\nname = C12\n"),
                   ("bom.nml", "&base_mesh\n prime_mesh_name = 'C12'\n/\n")):
    r = config(put(name, b"\xef\xbb\xbf" + text.encode(), "wb"))
    if r.returncode != 0 or '"mesh": "C12"' not in r.stdout:
        fail(f"{name} with a byte-order mark: not read as C12", r)

# item 13: the docs say what the code does
doc = open(os.path.join(src, "docs", "configuration.md")).read()
m = re.search(r"\| string \| text \| up to (\d+) characters", doc)
if not m:
    fail("docs/configuration.md states no string limit in its table of types")
limit = int(m.group(1))
ok = config(os.path.join(src, "configs", "default.ini"), "--checkpoint.dir=" + "d" * limit)
if ok.returncode != 0:
    fail(f"a string of {limit} characters (the documented limit) is refused", ok)
config_refused(os.path.join(src, "configs", "default.ini"),
               [f"longer than {limit} characters"], "--checkpoint.dir=" + "d" * (limit + 1))
if "The leading `--` is required" not in doc or "`--` is\noptional" in doc:
    fail("docs/configuration.md does not say that overrides need their leading --")
refused(["mesh.name=C4"], ["'mesh.name=C4'", "did you mean --mesh.name=C4?"])
# strings the resolved configuration (reports, output files, checkpoints)
# could not store as one INI value that reads back
refused([*TINY, "--io.dir=o\nx"], ["--io.dir=o?x", "a control character (byte 0x0a) at position 2"])
refused([*TINY, "--io.dir=a'b\"c"], ["--io.dir=a'b\"c", "both quote characters"])
print(f"check_bad_numbers: {count} refusals, each exit 2 before set-up naming its input; "
      f"repeat counts, nulls and byte-order marks read; the documented string limit is {limit}")
