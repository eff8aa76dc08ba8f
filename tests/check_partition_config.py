#!/usr/bin/python3
"""gale partition --config FILE [--section.key=value ...]: the memory
estimate, halo depth and multigrid levels of that configuration are what
gale run of the same configuration uses (bench/campaign plans with it).

usage: check_partition_config.py GALE_MPIEXEC GALE SOURCE_DIR WORK_DIR

- the nonlinear core (configs/baroclinic_wave.ini at C8, 6 levels): the
  estimate equals the run report's memory.estimate_bytes_per_rank (2 ranks),
  the halo depth is 2 (the core's stencils) and the multigrid levels are the
  report's solve_levels 'multigrid C<n>' entries;
- the linear core with output on (configs/default.ini at C8): the estimate
  counts the output ring, equals the run's and exceeds the estimate without
  output (--diagnostics.fields=);
- the mesh and levels come from the configuration when not given;
- a missing file and an unknown key are refused (status 2) with a message
  naming them.
"""
import json
import os
import shutil
import subprocess
import sys

mpiexec, gale, src, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def fail(msg, r=None):
    if r is not None:
        msg += f"\n--- {' '.join(r.args)}: exit {r.returncode}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    sys.exit("check_partition_config: FAIL: " + msg)


def partition(*args):
    r = subprocess.run([gale, "partition", *args, "--json"], capture_output=True, text=True,
                       cwd=src, timeout=60)
    if r.returncode:
        fail("gale partition failed", r)
    return json.loads(r.stdout)


def run(config, overrides, tag):
    rep = os.path.join(work, tag + ".json")
    r = subprocess.run([mpiexec, "-n", "2", gale, "run", config, *overrides,
                        "--logging.progress_every=0", "--report", rep], capture_output=True,
                       text=True, cwd=src, timeout=120, env=dict(os.environ, OMP_NUM_THREADS="1"))
    if r.returncode:
        fail(f"gale run {config} failed", r)
    with open(rep) as f:
        return json.load(f)


# the nonlinear core
nl = ["--mesh.name=C8", "--extrusion.levels=6", "--timestepping.steps=1", "--timestepping.dt=900"]
p = partition("--config", "configs/baroclinic_wave.ini", "--ranks", "2", *nl)
r = run("configs/baroclinic_wave.ini", nl, "nonlinear")
want = r["memory"]["estimate_bytes_per_rank"]
if abs(p["memory_estimate_bytes_per_rank"] - want) > 1:
    fail(f"nonlinear C8 L6 on 2 ranks: gale partition estimates {p['memory_estimate_bytes_per_rank']} B, "
         f"gale run {want} B")
if p["memory_estimate_of"] != "configs/baroclinic_wave.ini":
    fail(f"memory_estimate_of is '{p['memory_estimate_of']}'")
mg = [x["level"] for x in r["solve_levels"] if x["level"].startswith("multigrid")]
if p["halo_depth"] != 2 or p["multigrid_levels"] != len(mg) or (p["mesh"], p["levels"]) != ("C8", 6):
    fail(f"nonlinear: partition has halo depth {p['halo_depth']}, {p['multigrid_levels']} multigrid "
         f"levels, {p['mesh']} L{p['levels']}; the run had depth 2, {len(mg)} ({mg}), C8 L6")
print(f"nonlinear C8 L6, 2 ranks: estimate {want / 2**20:.2f} MiB per rank from both; halo depth 2, "
      f"{len(mg)} multigrid levels")
# the mesh and levels of the file itself (C24, 30 levels), without overrides
q = partition("--config", "configs/baroclinic_wave.ini", "--ranks", "4")
if (q["mesh"], q["levels"], q["ranks"]) != ("C24", 30, 4):
    fail(f"baroclinic_wave.ini without --mesh/--levels: {q['mesh']} L{q['levels']} on {q['ranks']}")
if not q["memory_estimate_bytes_per_rank"] > p["memory_estimate_bytes_per_rank"]:
    fail("C24 L30 on 4 ranks is not estimated above C8 L6 on 2")

# the linear core with output on
od = os.path.join(work, "out")
lin = ["--mesh.name=C8", "--timestepping.steps=2", f"--io.dir={od}"]
p = partition("--config", "configs/default.ini", "--ranks", "2", *lin)
p0 = partition("--config", "configs/default.ini", "--ranks", "2", *lin, "--diagnostics.fields=")
r = run("configs/default.ini", lin, "linear")
want = r["memory"]["estimate_bytes_per_rank"]
if abs(p["memory_estimate_bytes_per_rank"] - want) > 1:
    fail(f"linear C8 with output: gale partition estimates {p['memory_estimate_bytes_per_rank']} B, "
         f"gale run {want} B")
if not p["memory_estimate_bytes_per_rank"] > p0["memory_estimate_bytes_per_rank"] + 8 * 2**20:
    fail(f"output on ({p['memory_estimate_bytes_per_rank']} B) is not above output off "
         f"({p0['memory_estimate_bytes_per_rank']} B) by the HDF5 buffers")
print(f"linear C8 with output, 2 ranks: estimate {want / 2**20:.2f} MiB per rank from both "
      f"({p0['memory_estimate_bytes_per_rank'] / 2**20:.2f} MiB without output)")

# bad input
for args, words in ((["--config", "/nonexistent/x.ini"], ["/nonexistent/x.ini"]),
                    (["--config", "configs/default.ini", "--solver.bogus=1"], ["bogus", "[solver]"]),
                    (["--config", "configs/default.ini", "--mesh.name=D3"], ["mesh", "D3"])):
    r = subprocess.run([gale, "partition", *args, "--ranks", "2", "--json"], capture_output=True,
                       text=True, cwd=src, timeout=60)
    if r.returncode != 2 or not all(w in r.stderr for w in words) or r.stdout:
        fail(f"{' '.join(args)}: want status 2 and a message naming {words}, no output", r)
print("bad input: a missing file, an unknown key and a bad mesh are refused with status 2")
print("check_partition_config: all checks passed")
