#!/usr/bin/python3
"""The memory estimate per rank (docs/memory.md).

usage: check_memory.py MPIEXEC GALE WORKDIR
- against the measured peak resident size of the largest rank, for runs with
  and without output, cg and gcr, 1 and 2 ranks: 0.75 <= estimate / peak <= 1.6
- gale partition --json gives the same estimate as gale run (no output)
- a mesh that cannot fit (C256, 4096 levels) is refused before set-up on every
  rank (exit 2), naming the estimate and the limit; a run over a stated
  limit (GALE_MEM_AVAILABLE) is refused, and runs with [run] allow_overcommit
"""
import json
import os
import subprocess
import sys

import ranks

mpiexec, gale, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
ENV = dict(os.environ, OMP_NUM_THREADS="1")
ENV.pop("GALE_MEM_AVAILABLE", None)


def fail(msg, r=None):
    ranks.fail("check_memory", msg, r)


def run(np, args, env=ENV, timeout=120):
    return ranks.run_ranks(mpiexec, np, [gale, "run", "--logging.progress_every=0", *args],
                           timeout, env=env, cwd=work)


def report(np, args):
    path = os.path.join(work, "report.json")
    r, codes = run(np, args + [f"--report={path}"])
    if set(codes.values()) != {0}:
        fail(f"{args} on {np} ranks failed: {codes}", r)
    return json.load(open(path))["memory"]


out = [f"--io.dir={work}/out", "--diagnostics.fields=p,w,b,u", "--diagnostics.period=2"]
cases = [(1, ["--mesh.name=C48", "--extrusion.levels=40", "--timestepping.steps=2",
              "--diagnostics.fields="]),
         (2, ["--mesh.name=C24", "--extrusion.levels=120", "--solver.method=gcr",
              "--timestepping.steps=2", "--diagnostics.fields="]),
         (2, ["--mesh.name=C48", "--extrusion.levels=30", "--timestepping.steps=4", *out]),
         (2, ["--mesh.name=C96", "--extrusion.levels=4", "--timestepping.steps=2",
              "--diagnostics.fields="])]
for np, args in cases:
    m = report(np, args)
    est, peak = m["estimate_bytes_per_rank"], m["peak_resident_bytes_max_rank"]
    ratio = est / peak
    if not 0.75 <= ratio <= 1.6:
        fail(f"{np} ranks {args}: estimate {est / 2**20:.1f} MiB, peak {peak / 2**20:.1f} MiB "
             f"(ratio {ratio:.2f}, want 0.75-1.6)")
    print(f"check_memory: {np} ranks {' '.join(args[:3])}: estimate {est / 2**20:.1f} MiB, "
          f"peak {peak / 2**20:.1f} MiB, ratio {ratio:.2f}")

# the same estimate from gale partition
p = subprocess.run([gale, "partition", "--mesh", "C24", "--levels", "10", "--ranks", "2", "--json"],
                   capture_output=True, text=True, timeout=60)
if p.returncode != 0:
    fail(f"gale partition failed: {p.stderr}")
pe = json.loads(p.stdout)["memory_estimate_bytes_per_rank"]
re_ = report(2, ["--mesh.name=C24", "--extrusion.levels=10", "--timestepping.steps=1",
                 "--diagnostics.fields="])["estimate_bytes_per_rank"]
if abs(pe - re_) > 1:
    fail(f"gale partition estimates {pe} B, gale run {re_} B")

# a mesh that cannot fit: refused before anything is allocated (an
# allocation of its 440 GiB per rank would fail with another message) and
# before the set-up prints its header
r, codes = run(2, ["--mesh.name=C256", "--extrusion.levels=4096", "--timestepping.steps=1"],
               timeout=60)
errs = [l for l in r.stderr.splitlines() if l.startswith("gale: error")]
if codes != {0: 2, 1: 2} or len(errs) != 1 or "needs about" not in errs[0] or \
        "GiB available to each" not in errs[0] or "allow_overcommit" not in errs[0]:
    fail(f"C256 L4096: want exit 2 on both ranks and one message with the estimate and the "
         f"limit, got {codes}", r)
if r.stdout.strip():
    fail("C256 L4096: the set-up printed before the refusal", r)
print(f"check_memory: {errs[0]}")

# over a stated limit: refused; [run] allow_overcommit runs it with a warning
lim = dict(ENV, GALE_MEM_AVAILABLE=str(20 * 2**20))
small = ["--mesh.name=C24", "--extrusion.levels=10", "--timestepping.steps=2",
         "--diagnostics.fields="]
r, codes = run(2, small, env=lim)
if codes != {0: 2, 1: 2} or "more than the 0.01 GiB available to each" not in r.stderr:
    fail(f"over GALE_MEM_AVAILABLE: want exit 2 naming the limit, got {codes}", r)
r, codes = run(2, small + ["--run.allow_overcommit=true"], env=lim)
if codes != {0: 0, 1: 0} or "allow_overcommit = true: carrying on" not in r.stderr + r.stdout:
    fail(f"allow_overcommit: want a warning and a run to the end, got {codes}", r)
print("check_memory: a stated limit refuses the run; [run] allow_overcommit runs it with a warning")
