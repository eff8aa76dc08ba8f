#!/usr/bin/python3
"""Output on a real full disk (docs/output.md): a 3 MiB tmpfs that fills
during the run, for every [io] mode, asynchronous and synchronous, with
[io] on_error = abort and continue. Every rank must end (abort: status 9 on
each rank) or carry on to the last step (continue: status 0, the warning
once) within seconds, naming the lack of space, and no .tmp file is left.
Needs root to mount the tmpfs: skipped (77) with the reason otherwise.

usage: check_fulldisk.py MPIEXEC GALE WORKDIR
"""
import os
import subprocess
import sys
import time

import ranks

mpiexec, gale, work = sys.argv[1:4]
LIMIT = 30  # s per run; a full disk hung the job until killed before
if os.geteuid() != 0:
    print("SKIPPED: mounting a small tmpfs needs root (the suite runs as root on CI)")
    sys.exit(77)
mnt = os.path.join(work, "fulldisk")
os.makedirs(mnt, exist_ok=True)
if subprocess.run(["mountpoint", "-q", mnt]).returncode == 0:
    subprocess.run(["umount", "-l", mnt])
r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", mnt],
                   capture_output=True, text=True)
if r.returncode != 0:
    print(f"SKIPPED: cannot mount a tmpfs here ({r.stderr.strip()}): no small file system to fill")
    sys.exit(77)


def fail(msg, res=None):
    subprocess.run(["umount", "-l", mnt])
    ranks.fail("check_fulldisk", msg, res)


try:
    for sync in ("false", "true"):
        for mode in ("shared", "per_rank", "aggregated"):
            for on_error in ("abort", "continue"):
                case = f"{mode} sync={sync} on_error={on_error}"
                for f in os.listdir(mnt):
                    subprocess.run(["rm", "-rf", os.path.join(mnt, f)])
                cmd = [gale, "run", "--dynamics.mass_matrix=lumped", "--mesh.name=C12", "--extrusion.levels=10",
                       "--timestepping.steps=200", "--diagnostics.fields=p,w,b,u",
                       "--diagnostics.period=2", f"--io.dir={mnt}/o", f"--io.mode={mode}",
                       f"--io.synchronous={sync}", f"--io.on_error={on_error}",
                       "--logging.progress_every=0"]
                t0 = time.time()
                try:
                    res, codes = ranks.run_ranks(mpiexec, 2, cmd, LIMIT,
                                                 env=dict(os.environ, OMP_NUM_THREADS="1"))
                except subprocess.TimeoutExpired:
                    fail(f"{case}: the run did not end within {LIMIT} s (a hang)")
                dt = time.time() - t0
                want = {0: 9, 1: 9} if on_error == "abort" else {0: 0, 1: 0}
                if codes != want:
                    fail(f"{case}: exit status per rank {codes}, want {want}", res)
                if "not enough space" not in res.stderr and "No space left" not in res.stderr:
                    fail(f"{case}: no message names the lack of space", res)
                if on_error == "continue" and res.stderr.count("the run carries on without output") != 1:
                    fail(f"{case}: want the carry-on warning once", res)
                left = [os.path.join(d, f) for d, _, fs in os.walk(mnt) for f in fs
                        if f.endswith(".tmp")]
                if left:
                    fail(f"{case}: temporary files left: {left}", res)
                print(f"check_fulldisk {case}: status {codes[0]} on both ranks in {dt:.1f} s, "
                      "no .tmp left")
finally:
    subprocess.run(["umount", "-l", mnt])
