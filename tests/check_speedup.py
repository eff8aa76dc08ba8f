"""bench/speedup compares a build with itself (--base-build and --new-build
the same, --no-build: nothing is configured or built) on a tiny mesh: it
exits 0, the checksums of base and new are equal on every layout (the same
binary, the same bits), and speedup.json and speedup.csv hold what the
docs say (docs/benchmarks.md, "bench/speedup"). Then --new-args and --name:
the option reaches the new side's runs only, the resolved configurations
differ in that key, and the results go to the named files. Timings are not
judged.

usage: check_speedup.py ROOT BUILD OUT"""
import csv
import json
import os
import shutil
import subprocess
import sys

root, build, out = sys.argv[1:4]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
cmd = ["/usr/bin/python3", os.path.join(root, "bench", "speedup"), "--base-build", build,
       "--new-build", build, "--no-build", "--mesh", "C12", "--levels", "5", "--steps", "1",
       "--repeats", "1", "--layouts", "1x1,2x1", "--require-equal-checksums",
       "--out", out, "--raw-dir", os.path.join(out, "raw")]
r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=100)
print(r.stdout[-3000:])
if r.returncode != 0:
    sys.exit(f"bench/speedup failed ({r.returncode})")

bad = []
d = json.load(open(os.path.join(out, "speedup.json")))
for k in ("date", "command", "case", "layouts", "repeats", "base", "new", "machine", "load",
          "summary", "runs", "failed_runs"):
    if k not in d:
        bad.append(f"speedup.json has no {k}")
for side in ("base", "new"):
    for k in ("commit", "build", "exe", "config", "launcher", "compiler"):
        if not d.get(side, {}).get(k):
            bad.append(f"speedup.json: {side}.{k} missing")
for k in ("cpu_model", "cores"):
    if not d.get("machine", {}).get(k):
        bad.append(f"speedup.json: machine.{k} missing")
if d.get("layouts") != ["1x1", "2x1"] or len(d.get("summary", [])) != 2:
    bad.append(f"layouts {d.get('layouts')}, {len(d.get('summary', []))} summary rows")
if len(d.get("runs", [])) != 4 or d.get("failed_runs") != 0:
    bad.append(f"{len(d.get('runs', []))} runs (expected 4), {d.get('failed_runs')} failed")
for run in d.get("runs", []):
    if not (isinstance(run.get("time_per_step_s"), float) and run["time_per_step_s"] > 0):
        bad.append(f"run {run.get('side')} {run.get('layout')}: time_per_step_s "
                   f"{run.get('time_per_step_s')}")
    if "--mesh.name=C12" not in run.get("command", "") or "OMP_NUM_THREADS=" not in run.get(
            "command", ""):
        bad.append(f"run command not recorded: {run.get('command')}")
for s in d.get("summary", []):
    if s.get("checksums_equal") is not True or not s.get("checksums", {}).get("base"):
        bad.append(f"{s.get('layout')}: checksums equal {s.get('checksums_equal')}")
    for k in ("base_median_s", "new_median_s", "speedup", "pairwise_min", "pairwise_max"):
        if not (isinstance(s.get(k), float) and s[k] > 0):
            bad.append(f"{s.get('layout')}: {k} = {s.get(k)}")
rows = list(csv.DictReader(open(os.path.join(out, "speedup.csv"))))
if len(rows) != 4 or {r["side"] for r in rows} != {"base", "new"}:
    bad.append(f"speedup.csv: {len(rows)} rows")
if "| layout (ranks x threads) | base s/step | new s/step | speed-up |" not in r.stdout:
    bad.append("no markdown table printed")

# --new-args: the new side alone gets the option, and the report says so
cmd2 = cmd[:cmd.index("--layouts")] + ["--layouts", "1x1",
                                       "--new-args=--mixed_solver.tolerance=0.01", "--name", "sp2",
                                       "--out", out, "--raw-dir", os.path.join(out, "raw")]
r2 = subprocess.run(cmd2, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=100)
if r2.returncode != 0:
    bad.append(f"bench/speedup --new-args failed ({r2.returncode}): {r2.stdout[-1500:]}")
elif not os.path.exists(os.path.join(out, "sp2.csv")):
    bad.append("--name sp2 wrote no sp2.csv")
else:
    d2 = json.load(open(os.path.join(out, "sp2.json")))
    for run in d2.get("runs", []):
        has = "--mixed_solver.tolerance=0.01" in run.get("command", "")
        if has != (run.get("side") == "new"):
            bad.append(f"--new-args on the {run.get('side')} side: {has}")
    diff = d2["summary"][0].get("config_differences", {}).get("mixed_solver.tolerance")
    if not diff or diff[1] != 0.01 or diff[0] == 0.01:
        bad.append(f"config_differences for the tolerance: {diff}")
    if d2.get("case", {}).get("new_args") != ["--mixed_solver.tolerance=0.01"]:
        bad.append(f"case.new_args {d2.get('case', {}).get('new_args')}")
if bad:
    sys.exit("FAIL:\n  " + "\n  ".join(bad))
print("bench/speedup: a build against itself, equal checksums, JSON and CSV complete")
