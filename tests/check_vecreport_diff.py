#!/usr/bin/python3
"""`tools/vecreport diff` finds the changes that are there, and only those
(docs/vecreport.md). Runs the command as a user does, on reports that need
no compiler: the committed gcc AVX2 and AVX-512 reports of one commit
(docs/vecreport/), an identical pair, and copies of the AVX2 report with
one loop changed by hand.

usage: check_vecreport_diff.py WORKDIR
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "vecreport")
REPORTS = os.path.join(ROOT, "docs", "vecreport")
AVX2 = os.path.join(REPORTS, "gcc-avx2.json")
AVX512 = os.path.join(REPORTS, "gcc-avx512.json")
work = sys.argv[1]
os.makedirs(work, exist_ok=True)
failures = []


def line_of(rel, text):
    """file:line of the (only) source line holding text: the rows name loops by it."""
    hits = [i + 1 for i, l in enumerate(open(os.path.join(ROOT, rel))) if text in l]
    if len(hits) != 1:
        sys.exit(f"check_vecreport_diff: {len(hits)} lines of {rel} hold {text!r}: update this test")
    return f"{rel}:{hits[0]}"


GRAD_H = ("gale_kb_grad_h_in_d", line_of("kernels/gale_kbodies_mixed.h", "o[k] = a[k] - (deep ? f * hl[k] : f)"))
AXPBY = line_of("kernels/gale_kbodies.h", "K(axpby, FLAT")


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def diff(a, b, name):
    """Runs the diff; returns (the count it prints, {(function, loop file:line): (A, B, change)},
    its text, the change of every table row: a loop inlined into two callers has a row
    for each, one key here)."""
    out = os.path.join(work, name + ".md")
    r = subprocess.run([sys.executable, TOOL, "diff", a, b, "-o", out],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        sys.exit(f"check_vecreport_diff: {name}: exit {r.returncode}\n{r.stdout}{r.stderr}")
    m = re.search(r"vecreport: (\d+) change\(s\)", r.stdout)
    if not m:
        sys.exit(f"check_vecreport_diff: {name}: no change count in {r.stdout!r}")
    rows, kinds = {}, []
    for line in open(out):
        # | function | `source` (file:line) | caller | A | B | change |
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 6 or cells[0] in ("function", "---"):
            continue
        where = re.search(r"\(([^()]+:\d+)\)$", cells[1])
        rows[(cells[0], where.group(1) if where else cells[1])] = (cells[3], cells[4], cells[5])
        kinds.append(cells[5])
    return int(m.group(1)), rows, open(out).read(), kinds


# AVX2 against AVX-512 (gcc, one commit): 113 loops change width, and three
# single-precision copies through the solver's scratch only AVX-512 vectorises
# (116 in all: the reductions' rows took the old dots launch's byte-counting
# loop away, lincomb's start from a second vector added one, the mixed
# solve's single-precision bodies 20)
n, rows, _, kinds = diff(AVX2, AVX512, "avx2-avx512")
check(n == 116 and len(kinds) == 116, f"AVX2 -> AVX-512: 116 loops changed (tool says {n}, table has {len(kinds)})")
check(kinds.count("width") == 113, f"113 of them change width (got {kinds.count('width')})")
check(rows.get(GRAD_H) == ("yes 4 x 256 b", "yes 8 x 512 b", "width"),
      f"grad_h's loop {GRAD_H}: 4 x 256 b -> 8 x 512 b (got {rows.get(GRAD_H)})")
nv = sorted(k for k, v in rows.items() if v[2] == "now vectorised")
SOLVER = "kernels/gale_kbodies_solver.h"
want = [("gale_kb_smooth_batch_f", line_of(SOLVER, "xn[o + k] = GALE_FMA(rho, t[k * L + l], x[o + k]);")),
        ("gale_kb_smooth_batch_f", line_of(SOLVER, "xn[o + k] = rho * t[k * L + l];")),
        ("gale_kb_tridiag_batch_f", line_of(SOLVER, "for (int k = 0; k < nl; k++) zb[(size_t)l * sc + k] = t[k * L + l];"))]
check(nv == want and all(rows[k][1] == "yes 16 x 512 b" for k in nv),
      f"three loops vectorised by AVX-512 only, 16 x 512 b: {want} (got {nv})")
# the kernel guard's launch loops have rows of their own: axpby's (FLAT)
ax = {k: v for k, v in rows.items() if k[1] == AXPBY}
check(ax.get(("gale_kb_axpby_d", AXPBY)) == ("yes 4 x 256 b", "yes 8 x 512 b", "width"),
      f"axpby's launch loop (its row, {AXPBY}), double: 4 x 256 b -> 8 x 512 b (got {ax})")
# the other way round, the same loops with the opposite change
n, back, _, kinds = diff(AVX512, AVX2, "avx512-avx2")
check(n == 116 and nv and all(back.get(k, ("",) * 3)[2] == "no longer vectorised" for k in nv),
      f"AVX-512 -> AVX2: 116 changes, the same three loops no longer vectorised (got {n})")

# an identical pair: nothing
n, rows, text, kinds = diff(AVX2, AVX2, "same")
check(n == 0 and not rows and "No loop changed." in text, f"a report against itself: 0 changes (got {n})")

# one loop changed by hand, in a copy: exactly that loop, with that change
rep = json.load(open(AVX2))
for field, value, want in (("vectorized", False, ("yes 4 x 256 b", "no", "no longer vectorised")),
                           ("vf", 2, ("yes 4 x 256 b", "yes 2 x 256 b", "width"))):
    mod = json.loads(json.dumps(rep))
    hit = [r for r in mod["loops"] if r["function"] == GRAD_H[0] and r.get("simd")]
    if len(hit) != 1:
        sys.exit(f"check_vecreport_diff: {AVX2} has {len(hit)} {GRAD_H[0]} loops, want 1")
    hit[0][field] = value
    path = os.path.join(work, f"avx2-{field}.json")
    with open(path, "w") as f:
        json.dump(mod, f)
    n, rows, _, kinds = diff(AVX2, path, f"avx2-{field}")
    got = rows.get(GRAD_H, ("",) * 3)
    check(n == 1 and len(rows) == 1 and got[0] == want[0] and got[1].startswith(want[1])
          and got[2] == want[2], f"grad_h's {field} set to {value}: one change, {want} (got {n}: {rows})")

if failures:
    sys.exit(f"check_vecreport_diff: {len(failures)} check(s) failed: " + "; ".join(failures))
print("check_vecreport_diff: all checks passed")
