#!/usr/bin/python3
"""`gale iobench --ior-proxy` against what runs of the same configuration
write (docs/iobench.md, "IOR proxies"): for each [io] mode, on 2 ranks, a
C8 L5 run of 4 steps with u and surface_pressure every step and theta every
second one, and a checkpoint every 2 steps; and with one I/O server on 3
ranks ([io] servers = 1: the proxy's `servers` layout). The proxy's output phases of the
run's layout must add up to the run's io.data_bytes and name as many files as
the run wrote; IOR's bytes (tasks x block) equal them here (the blocks divide
evenly); each checkpoint file is the proxy's field bytes plus a header of
whole 4 KiB pages and the 32-byte trailer. Bad arguments: exit 2, one message.

usage: check_ior_proxy.py MPIEXEC GALE WORKDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

mpiexec, gale, work = sys.argv[1:4]
src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
config = os.path.join(src, "configs", "baroclinic_wave.ini")
case = ["--mesh.name=C8", "--extrusion.levels=5", "--timestepping.steps=4",
        "--diagnostics.fields=u,theta@2,surface_pressure", "--diagnostics.period=1",
        "--checkpoint.period=2", "--logging.progress_every=0"]
# the run's layout: its overrides and ranks (the job's: a server is one of them)
modes = {"shared": ([], 2), "per_rank": ([], 2), "aggregated": (["--io.aggregators=1"], 2),
         "servers": (["--io.servers=1"], 3)}
names = {"shared": r"gale_\d+\.nc$", "per_rank": r"gale_\d+_r\d+\.nc$",
         "aggregated": r"gale_\d+_g\d+\.nc$", "servers": r"gale_\d+\.nc$"}
failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
for mode, (extra, np) in modes.items():
    d = os.path.join(work, mode)
    os.makedirs(d)
    args = case + [f"--io.mode={'shared' if mode == 'servers' else mode}", f"--io.dir={d}/out",
                   f"--checkpoint.dir={d}/ckpt"] + extra
    os.makedirs(f"{d}/out")
    os.makedirs(f"{d}/ckpt")
    r = subprocess.run([mpiexec, "-n", str(np), gale, "run", config, *args, "--report", f"{d}/run.json"],
                       capture_output=True, text=True, timeout=300, cwd=d)
    if r.returncode != 0:
        sys.exit(f"check_ior_proxy: the {mode} run exited {r.returncode}:\n{r.stderr[-3000:]}")
    io = json.load(open(f"{d}/run.json"))["io"]
    p = subprocess.run([gale, "iobench", "--ior-proxy", config, "--ranks", str(np), "--json", *args],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"check_ior_proxy: the proxy exited {p.returncode}:\n{p.stderr}")
    prox = json.loads(p.stdout)
    out = [ph for ph in prox["phases"] if ph["phase"].startswith("output") and ph["layout"] == mode]
    data = sum(ph["data_bytes"] for ph in out)
    files = sum(ph["files"] for ph in out)
    written = [f for f in io["files"] if re.search(names[mode], os.path.basename(f))]
    check(data == io["data_bytes"] > 0,
          f"{mode}: the proxy's output phases {data} bytes, the run's io.data_bytes {io['data_bytes']}")
    check(files == len(written) > 0, f"{mode}: the proxy's {files} files, the run wrote {len(written)}")
    check(all(ph["ior_bytes"] == ph["data_bytes"] for ph in out),
          f"{mode}: IOR writes the phases' bytes: {[(ph['ior_bytes'], ph['data_bytes']) for ph in out]}")
    check([ph["fields"] for ph in out] == ["u,surface_pressure", "u,theta,surface_pressure"]
          and [ph["times"] for ph in out] == [2, 2],
          f"{mode}: two phases, u and surface_pressure at steps 1 and 3, with theta at 2 and 4: "
          f"{[(ph['fields'], ph['times']) for ph in out]}")
    ck = [ph for ph in prox["phases"] if ph["phase"] == "checkpoint"]
    cf = sorted(f for f in os.listdir(f"{d}/ckpt") if f.endswith(".ckpt"))
    check(len(ck) == 1 and ck[0]["times"] == len(cf) == 2,
          f"{mode}: {ck[0]['times'] if ck else None} checkpoints in the proxy, {len(cf)} written")
    for f in cf:
        rest = os.path.getsize(f"{d}/ckpt/{f}") - ck[0]["data_bytes_per_time"] - 32
        check(0 < rest < 65536 and rest % 4096 == 0,
              f"{mode}: {f} holds the proxy's fields, a header of {rest} bytes (whole 4 KiB pages) "
              "and the trailer")

# refused: no --ranks, a bad count, an unknown option, a bad configuration key
for args, want in (([], "needs --ranks"), (["--ranks", "0"], "--ranks"),
                   (["--ranks", "2", "--frobnicate", "1"], "frobnicate"),
                   (["--ranks", "2", "--io.no_such_key=1"], "no_such_key"),
                   (["--ranks", "2", "--io.servers=2"], "more than [io] servers")):
    r = subprocess.run([gale, "iobench", "--ior-proxy", config, *args], capture_output=True,
                       text=True, timeout=60)
    check(r.returncode == 2 and want in r.stderr and r.stderr.count("\n") <= 2,
          f"refused {args}: exit {r.returncode}, {r.stderr.strip()[:160]!r}")

if failures:
    sys.exit("check_ior_proxy: %d check(s) failed" % len(failures))
print("check_ior_proxy: all checks passed")
