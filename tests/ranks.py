"""Runs a command under mpiexec with every rank's exit status reported: a
shell wrapper prints it, so a test sees each rank, not only mpiexec's
summary (a fault must end every rank with the right code). The wrapper exits
with the program's status, so mpiexec's own status stays meaningful. The
rank comes from the launcher's environment: MPICH's Hydra (PMI_RANK), Open
MPI (OMPI_COMM_WORLD_RANK) or Slurm's srun (SLURM_PROCID).

As a command, for a test of a program that is not `gale run` (gale_case.py
runs those):

  ranks.py MPIEXEC NP [--rc N] [--stdout RX] [--stderr RX]
           [--count-stderr RX N] [--timeout S] -- PROGRAM ARGS...

passes only when every one of the NP ranks exits N (default 0) and the
output matches: CTest's PASS_REGULAR_EXPRESSION alone would ignore the exit
status."""
import argparse
import re
import subprocess
import sys


def run_ranks(mpiexec, np, argv, timeout, env=None, cwd=None):
    """Returns (CompletedProcess, {rank: exit status})."""
    cmd = [mpiexec, "-n", str(np), "sh", "-c",
           '"$@"; s=$?; echo "gale-exit ${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:-0}}} $s" >&2; exit $s',
           "sh", *argv]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
    codes = {}
    for line in r.stderr.splitlines():
        if line.startswith("gale-exit "):
            _, rank, code = line.split()
            codes[int(rank)] = int(code)
    return r, codes


def fail(who, msg, r=None):
    """Ends the test with msg and, given a run, the tail of its output."""
    if r is not None:
        msg += "\n--- stdout ---\n" + r.stdout[-4000:] + "\n--- stderr ---\n" + r.stderr[-4000:]
    sys.exit(who + ": " + msg)


def main():
    p = argparse.ArgumentParser(prog="ranks.py", description="every rank's exit status and the output")
    p.add_argument("mpiexec")
    p.add_argument("np", type=int)
    p.add_argument("--rc", type=int, default=0, help="the exit status every rank must have")
    p.add_argument("--stdout", action="append", default=[], help="a regex stdout must match")
    p.add_argument("--stderr", action="append", default=[], help="a regex stderr must match")
    p.add_argument("--count-stderr", nargs=2, action="append", default=[], metavar=("RX", "N"),
                   help="stderr has exactly N lines matching RX")
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("argv", nargs="+", help="the program and its arguments (after --)")
    a = p.parse_args()
    try:
        r, codes = run_ranks(a.mpiexec, a.np, a.argv, a.timeout)
    except subprocess.TimeoutExpired:
        sys.exit(f"ranks.py: {a.argv[0]} did not end within {a.timeout:g} s (a hang)")
    want = {i: a.rc for i in range(a.np)}
    if codes != want:
        fail("ranks.py", f"exit status per rank {codes}, want {want} (mpiexec {r.returncode})", r)
    for name, text, rxs in (("stdout", r.stdout, a.stdout), ("stderr", r.stderr, a.stderr)):
        for rx in rxs:
            if not re.search(rx, text, re.M):
                fail("ranks.py", f"{name} does not match {rx!r}", r)
    for rx, n in a.count_stderr:
        got = len(re.findall(rx, r.stderr, re.M))
        if got != int(n):
            fail("ranks.py", f"stderr has {got} lines matching {rx!r}, want {n}", r)
    print(f"ranks.py: every one of {a.np} ranks exited {a.rc}; output as expected")


if __name__ == "__main__":
    main()
