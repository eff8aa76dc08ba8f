"""gale_kbench kernels on a small mesh with short timings: every described
kernel (gale_kbench --list: the rows of kernels/gale_kdesc.h) is measured in
each of its precisions, none is missing, and each measurement has positive
bytes and time. Each kernel's bytes and flops per point are the same in
every run: three more runs (C4 L8, C8 L4, C8 L8) beside C4 L4 give, per
kernel and precision, bytes per call = N * (A * L + B) with N the points of
its space (cells or edges; cells for the flat, column, batch and reduction
spaces, which scale with them on one rank; prolong: the cells of the
multigrid level its first launch writes, C4's in every run), L the levels, A the bytes per
point and B the bytes per column: A and B fitted from C4 L4 and C4 L8 must
predict C8 L4 and C8 L8 to 1e-9 (the byte and flop counts are sums of
integers per point; only rounding of the division separates them), and the
same for the flops. The committed results say what the code has: the results
of every kernel (bench/results/kernels_c96l96.json) name each described
kernel and precision and no other, and the studies of chosen kernels
(bench/results/kernels.json, kernels_multigrid.json: bench/kernels) name
only described kernels (name_d, name_f) or bench/kernels' own host loop
tri_stream_d.

usage: check_kbench.py GALE_KBENCH OUT.json [SOURCE_DIR]
(the runs at other sizes write OUT-C4L8.json and so on beside OUT.json)"""
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


def measure(mesh, levels, js):
    cmd = [kb, "kernels", "--mesh", mesh, "--levels", str(levels), "--min-time", "0.002",
           "--samples", "1", "--no-triad", "--json", js]
    r = subprocess.run(cmd, capture_output=True, text=True, env={"OMP_NUM_THREADS": "1"},
                       timeout=70)
    if r.returncode != 0:
        sys.exit(f"gale_kbench kernels {mesh} L{levels} failed ({r.returncode}):\n"
                 f"{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    return json.load(open(js))


rep = measure("C4", 4, out)
got = {(k["name"], k["precision"]): k for k in rep["kernels"]}
bad = []
if rep["missing"] != 0:
    bad.append(f"{rep['missing']} kernels missing")
for w in sorted(want - set(got)):
    bad.append(f"not measured: {w[0]} ({w[1]})")
for key, k in got.items():
    if not (k["bytes_per_call"] > 0 and k["time_best_s"] > 0):
        bad.append(f"{key}: bytes {k['bytes_per_call']}, time {k['time_best_s']}")

# bytes and flops per point equal across runs of other sizes
runs = {("C4", 4): rep}
stem = os.path.splitext(out)[0]
for mesh, lev in (("C4", 8), ("C8", 4), ("C8", 8)):
    runs[(mesh, lev)] = measure(mesh, lev, f"{stem}-{mesh}L{lev}.json")


# prolong's first recorded launch is the multigrid's coarsest pair (C2 to C4
# at both C4 and C8): its points are C4's cells in every run
FIXED_LEVEL = {"prolong": 6 * 4 * 4}


def per_call(run, key, what):
    """(bytes or flops per call, N points of the kernel's space, levels)"""
    for k in run["kernels"]:
        if (k["name"], k["precision"]) == key:
            n = FIXED_LEVEL.get(key[0]) or run["edges" if k["space"] == "edges" else "cells"]
            return k[what], n, run["levels"]
    return None


for key in sorted(got):
    for what in ("bytes_per_call", "flops_per_call"):
        (b1, n1, l1), (b2, n2, l2) = (per_call(runs[x], key, what) for x in (("C4", 4), ("C4", 8)))
        a = (b2 / n2 - b1 / n1) / (l2 - l1)
        b = b1 / n1 - a * l1
        for size in (("C8", 4), ("C8", 8)):
            pc = per_call(runs[size], key, what)
            if pc is None:
                bad.append(f"{key[0]} ({key[1]}) not measured at {size[0]} L{size[1]}")
                continue
            v, n, lev = pc
            pred = n * (a * lev + b)
            if abs(v - pred) > 1e-9 * max(abs(pred), 1.0):
                bad.append(f"{key[0]} ({key[1]}): {what} {v:g} at {size[0]} L{size[1]}, but "
                           f"{a:g} per point and {b:g} per column at C4 give {pred:g}")
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
print(f"gale_kbench kernels: {len(got)} kernels x precisions measured, every row of the table, "
      "each with the same bytes and flops per point at C4 and C8, L4 and L8")
