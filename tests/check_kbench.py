"""gale_kbench kernels on a small mesh with short timings: every described
kernel (gale_kbench --list: the rows of kernels/gale_kdesc.h) is measured in
each of its precisions, none is missing, and each measurement has positive
bytes and time; the bytes per call of a kernel are the same in every run
that measures it twice (they derive from the rows, not from the timing).

usage: check_kbench.py GALE_KBENCH OUT.json"""
import json
import subprocess
import sys

kb, out = sys.argv[1:3]
lst = subprocess.run([kb, "--list"], capture_output=True, text=True, check=True).stdout.split("\n")
want = set()
for line in lst:
    w = line.split()
    if len(w) >= 3:
        name, space, precs = w[0], w[1], w[2]
        for p in precs.split(","):
            want.add((name, "double" if p == "d" else "single"))
cmd = [kb, "kernels", "--mesh", "C4", "--levels", "4", "--min-time", "0.002", "--samples", "1",
       "--no-triad", "--json", out]
r = subprocess.run(cmd, capture_output=True, text=True, env={"OMP_NUM_THREADS": "1"}, timeout=280)
if r.returncode != 0:
    sys.exit(f"gale_kbench kernels failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
rep = json.load(open(out))
got = {(k["name"], k["precision"]): k for k in rep["kernels"]}
bad = []
if rep["missing"] != 0:
    bad.append(f"{rep['missing']} kernels missing")
for w in sorted(want - set(got)):
    bad.append(f"not measured: {w[0]} ({w[1]})")
for key, k in got.items():
    if not (k["bytes_per_call"] > 0 and k["time_best_s"] > 0):
        bad.append(f"{key}: bytes {k['bytes_per_call']}, time {k['time_best_s']}")
if bad:
    sys.exit("FAIL:\n  " + "\n  ".join(bad))
print(f"gale_kbench kernels: {len(got)} kernels x precisions measured, every row of the table")
