"""gale_kbench kernels on a small mesh with short timings: every described
kernel (gale_kbench --list: the rows of kernels/gale_kdesc.h) is measured in
each of its precisions, none is missing, and each measurement has positive
bytes and time. The committed results say what the code has: the results
of every kernel (bench/results/kernels_c96l96.json) name each described
kernel and precision and no other, and the studies of chosen kernels
(bench/results/kernels.json, kernels_multigrid.json: bench/kernels) name
only described kernels (name_d, name_f) or bench/kernels' own host loop
tri_stream_d.

usage: check_kbench.py GALE_KBENCH OUT.json [SOURCE_DIR]"""
import json
import os
import subprocess
import sys

kb, out = sys.argv[1:3]
src = sys.argv[3] if len(sys.argv) > 3 else None
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
if src:
    res = os.path.join(src, "bench", "results")
    with open(os.path.join(res, "kernels_c96l96.json")) as f:
        every = {(k["name"], k["precision"]) for k in json.load(f)["kernels"]}
    for w in sorted(want - every):
        bad.append(f"bench/results/kernels_c96l96.json lacks {w[0]} ({w[1]}): regenerate it")
    for w in sorted(every - want):
        bad.append(f"bench/results/kernels_c96l96.json names {w[0]} ({w[1]}), which no row describes")
    # a study's name: the kernel, its precision's suffix for a kernel of two,
    # the dot products' two sums (dots_repro, dots_plain)
    two = {n for n, p in want if p == "single"}
    named = {n if n not in two else f"{n}_{p[0] if p == 'double' else 'f'}" for n, p in want}
    named |= {f"dots_{s}_{q}" for s in ("repro", "plain") for q in "df"} | {"tri_stream_d"}
    for study in ("kernels.json", "kernels_multigrid.json"):
        with open(os.path.join(res, study)) as f:
            for k in sorted({row["kernel"] for row in json.load(f)["rows"]} - named):
                bad.append(f"bench/results/{study} names {k}, not a described kernel")
if bad:
    sys.exit("FAIL:\n  " + "\n  ".join(bad))
print(f"gale_kbench kernels: {len(got)} kernels x precisions measured, every row of the table")
