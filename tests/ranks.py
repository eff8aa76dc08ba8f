"""Runs a command under mpiexec with every rank's exit status reported: a
shell wrapper prints it, so a test sees each rank, not only mpiexec's
summary (a fault must end every rank with the right code). The rank comes
from the launcher's environment: MPICH's Hydra (PMI_RANK), Open MPI
(OMPI_COMM_WORLD_RANK) or Slurm's srun (SLURM_PROCID)."""
import subprocess
import sys


def run_ranks(mpiexec, np, argv, timeout, env=None, cwd=None):
    """Returns (CompletedProcess, {rank: exit status})."""
    cmd = [mpiexec, "-n", str(np), "sh", "-c", '"$@"; echo "gale-exit ${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:-0}}} $?" >&2',
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
