#!/usr/bin/python3
"""gale under Slurm, on a private local Slurm (tests/slurm_local.py,
docs/slurm.md). Exit 0 when every check holds, 77 (SKIPPED) where no local
Slurm can run (not root, packages missing), 1 otherwise.

check_slurm.py launch --gale GALE --gale-mpiexec GALE_MPIEXEC --mpiexec MPIEXEC --source DIR --work DIR
    The default case (configs/default.ini, 6 steps, output off), run first
    with the build's own launcher (gale-mpiexec -n 2) as the reference, then
    on the local Slurm:
    - `srun --mpi=pmi2 -n 2 gale run`: ONE job of 2 tasks (scontrol: its
      tasks, state COMPLETED, exit 0:0) whose report has ranks 2 and the
      reference's checksums, bit for bit;
    - `srun -n 2` without --mpi=pmi2 (MpiDefault=none): two 1-rank runs,
      each report ranks 1 (why the option is needed with Debian's MPICH);
    - Hydra's mpiexec inside an `sbatch` allocation (nodes 1, ntasks 2): its
      ranks run as a step of the batch job (SLURM_STEP_ID set, PMI_RANK 0
      and 1), the report has ranks 2 and the reference's checksums.

check_slurm.py ctest --source DIR --build DIR --work DIR
    A second build tree of the same source and the same compiler, flags and
    options as --build, configured with -DMPIEXEC_EXECUTABLE=srun
    -DMPIEXEC_PREFLAGS=--mpi=pmi2 (so its gale-mpiexec is srun), building
    only what the chosen MPI tests need; then `ctest -L mpi -R ...` of that
    tree inside a `salloc` allocation of the local Slurm (SLURM_OVERCOMMIT=1:
    3-rank tests on a 2-core node). Every chosen test must run and pass.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slurm_local  # noqa: E402
import benchlib  # noqa: E402  (slurm_local puts bench/ on the path)

WHO = "check_slurm"
STEPS = 6
# The MPI tests run under srun: 1, 2 and 3 ranks, gale and unit programs,
# every rank's exit code read from SLURM_PROCID (tests/ranks.py), restart on
# another rank count (restart_2to3 brings its fixture restart_straight_2)
CTEST_TESTS = ["base_mpi_np1", "base_mpi_np3", "halo_np2", "fault_nan", "bad_report_path",
               "restart_2to3", "restart_atomic_fault"]
CTEST_FIXTURES = ["restart_straight_2"]
CTEST_TARGETS = ["gale", "test_base_mpi", "test_halo", "test_model_nan"]
# what the second tree keeps of the first one's cache: compiler, flags, options
CACHE_KEYS = ["CMAKE_BUILD_TYPE", "CMAKE_C_COMPILER", "CMAKE_C_FLAGS", "CMAKE_C_FLAGS_RELEASE",
              "CMAKE_C_FLAGS_DEBUG", "CMAKE_EXE_LINKER_FLAGS", "MPI_C_COMPILER", "GALE_ISA_FLAGS",
              "GALE_ISA_NAME", "GALE_OFFLOAD", "GALE_OFFLOAD_FLAGS", "GALE_NOVEC"]


def fail(msg, r=None):
    if r is not None:
        msg += ("\n--- command: " + " ".join(shlex.quote(x) for x in r.args)
                + f"\n--- exit {r.returncode}\n--- stdout ---\n" + (r.stdout or "")[-4000:]
                + "\n--- stderr ---\n" + (r.stderr or "")[-4000:])
    print(f"{WHO}: FAIL: {msg}", flush=True)
    raise SystemExit(1)


def log(msg):
    print(f"{WHO}: {msg}", flush=True)


def case_args(report):
    return ["run", "configs/default.ini", f"--timestepping.steps={STEPS}", "--diagnostics.fields=",
            "--logging.progress_every=0", "--report", report]


def report(path, r=None):
    if not os.path.exists(path):
        fail(f"no report {path}", r)
    with open(path) as f:
        return json.load(f)


def same_bits(what, rep, ref):
    if rep["checksums"] != ref["checksums"]:
        fail(f"{what}: checksums {rep['checksums']} differ from the reference's {ref['checksums']} "
             "(gale-mpiexec -n 2)")
    log(f"{what}: checksums bit-identical to gale-mpiexec's ({', '.join(f'{k} {v}' for k, v in rep['checksums'].items())})")


def job_by_name(slurm, name):
    """The record of the (only) job called name, once it has left the queue:
    srun and salloc return while slurmctld may still show the job
    COMPLETING, which is not its final state."""
    r = slurm.run(["scontrol", "show", "job", "-o"])
    found = [j for j in benchlib.slurm_jobs(r.stdout, "scontrol").values() if j["name"] == name]
    if len(found) != 1:
        fail(f"expected one job named {name}, scontrol shows {len(found)}:\n{r.stdout}")
    return slurm.wait_jobs([found[0]["id"]], timeout=60)[found[0]["id"]]


def launch(a):
    work = os.path.join(a.work, "launch")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    ref_path = os.path.join(work, "ref.json")
    t0 = time.time()
    r = subprocess.run([a.gale_mpiexec, "-n", "2", a.gale, *case_args(ref_path)], cwd=a.source,
                       env=env, capture_output=True, text=True, timeout=120)
    if r.returncode:
        fail("the reference run with gale-mpiexec failed", r)
    ref = report(ref_path, r)
    if ref["ranks"] != 2:
        fail(f"the reference run has ranks {ref['ranks']}, not 2")
    log(f"reference: gale-mpiexec -n 2 ({open(a.gale_mpiexec).read().splitlines()[-1].strip()}), "
        f"{time.time() - t0:.1f} s")

    with slurm_local.LocalSlurm(deadline=a.deadline, log=log) as slurm:
        senv = slurm.env(env)

        # srun --mpi=pmi2 -n 2: one job, 2 tasks, one MPI world
        p = os.path.join(work, "srun.json")
        r = subprocess.run(["srun", "--mpi=pmi2", "-n", "2", "--job-name=gale-srun-pmi2", a.gale,
                            *case_args(p)], cwd=a.source, env=senv, capture_output=True, text=True,
                           timeout=120)
        if r.returncode:
            fail("srun --mpi=pmi2 -n 2 gale run failed", r)
        rep = report(p, r)
        job = job_by_name(slurm, "gale-srun-pmi2")
        if job.get("tasks") != "2" or job.get("state") != "COMPLETED" or job.get("exit_code") != "0:0":
            fail(f"srun's job {job.get('id')}: {job.get('tasks')} tasks, state {job.get('state')}, exit "
                 f"{job.get('exit_code')} (want 2, COMPLETED, 0:0)")
        if rep["ranks"] != 2:
            fail(f"srun --mpi=pmi2 -n 2: the report has ranks {rep['ranks']}, not 2 (not one MPI job)")
        log(f"srun --mpi=pmi2 -n 2: job {job['id']}, 2 tasks, one run of {rep['ranks']} ranks")
        same_bits("srun --mpi=pmi2 -n 2", rep, ref)

        # without --mpi=pmi2 (MpiDefault=none) the same line starts singletons
        base = os.path.join(work, "nompi")
        r = subprocess.run(["srun", "-n", "2", "--job-name=gale-srun-nompi", "sh", "-c",
                            'exec "$0" run configs/default.ini --timestepping.steps=1 '
                            '--diagnostics.fields= --logging.progress_every=0 '
                            '--report "$1.$SLURM_PROCID.json"', a.gale, base],
                           cwd=a.source, env=senv, capture_output=True, text=True, timeout=120)
        if r.returncode:
            fail("srun -n 2 (no --mpi) gale run failed", r)
        ranks = [report(f"{base}.{i}.json", r)["ranks"] for i in (0, 1)]
        if ranks != [1, 1]:
            fail(f"srun -n 2 without --mpi=pmi2: reports have ranks {ranks}; expected two singletons [1, 1]")
        log("srun -n 2 without --mpi=pmi2: two separate 1-rank runs (ranks 1 and 1), as expected "
            "with MpiDefault=none")

        # Hydra's mpiexec inside an sbatch allocation
        p = os.path.join(work, "sbatch.json")
        out = os.path.join(work, "sbatch.out")
        script = os.path.join(work, "mpiexec.sbatch")
        mpiexec = a.mpiexec
        if os.path.basename(mpiexec).startswith("srun"):
            mpiexec = shutil.which("mpiexec.mpich") or "mpiexec"
        with open(script, "w") as f:
            f.write(f"""#!/bin/sh
#SBATCH --job-name=gale-sbatch-mpiexec
#SBATCH --nodes=1
#SBATCH --ntasks=2
#SBATCH --output={out}
#SBATCH --chdir={a.source}
export OMP_NUM_THREADS=1
{shlex.quote(mpiexec)} -n 2 sh -c 'echo "hydra rank $PMI_RANK step $SLURM_JOB_ID.$SLURM_STEP_ID"'
exec {shlex.quote(mpiexec)} -n 2 {shlex.quote(a.gale)} {' '.join(shlex.quote(x) for x in case_args(p))}
""")
        r = slurm.run(["sbatch", "--parsable", script])
        if r.returncode:
            fail("sbatch refused the script", r)
        jid = r.stdout.strip().split(";")[0]
        info = slurm.wait_jobs([jid], timeout=90)[jid]
        text = open(out).read() if os.path.exists(out) else ""
        if info.get("state") != "COMPLETED" or info.get("exit_code") != "0:0":
            fail(f"sbatch job {jid}: state {info.get('state')}, exit {info.get('exit_code')}\n{text[-3000:]}")
        steps = sorted(re.findall(r"hydra rank (\d+) step (\d+)\.(\d+)", text))
        if [s[0] for s in steps] != ["0", "1"] or any(s[1] != jid for s in steps):
            fail(f"mpiexec inside sbatch job {jid}: expected ranks 0 and 1 in a step of job {jid}, got "
                 f"{steps}\n{text[-3000:]}")
        rep = report(p)
        if rep["ranks"] != 2:
            fail(f"mpiexec inside sbatch: the report has ranks {rep['ranks']}, not 2")
        log(f"mpiexec inside sbatch: job {jid} COMPLETED, Hydra's ranks ran as step {jid}.{steps[0][2]} "
            f"(Hydra launches its proxy with srun), report ranks {rep['ranks']}")
        same_bits("mpiexec in sbatch", rep, ref)


def cache_args(build):
    vals = {}
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            m = re.match(r"^([A-Za-z_][\w]*):(\w+)=(.*)$", line.rstrip("\n"))
            if m and m.group(1) in CACHE_KEYS:
                vals[m.group(1)] = m.group(3)
    return [f"-D{k}={v}" for k, v in vals.items()]


def ctest_srun(a):
    srun = shutil.which("srun")
    if not srun:
        print("SKIPPED: no srun")
        return slurm_local.SKIP
    tree = os.path.join(a.work, "srun-tree")
    os.makedirs(tree, exist_ok=True)
    t0 = time.time()
    cfg = ["cmake", "-S", a.source, "-B", tree, *cache_args(a.build),
           f"-DMPIEXEC_EXECUTABLE={srun}", "-DMPIEXEC_PREFLAGS=--mpi=pmi2"]
    r = subprocess.run(cfg, capture_output=True, text=True, timeout=300)
    if r.returncode:
        fail("configuring the srun tree failed", r)
    line = open(os.path.join(tree, "gale-mpiexec")).read().splitlines()[-1].strip()
    if line != f'exec "{srun}" -n "$n" --mpi=pmi2 "$@"':
        fail(f"the srun tree's gale-mpiexec runs '{line}', not srun --mpi=pmi2")
    log(f"srun tree {tree}: gale-mpiexec is '{line}' (configured in {time.time() - t0:.1f} s)")
    t1 = time.time()
    jobs = str(min(2, os.cpu_count() or 1))
    r = subprocess.run(["cmake", "--build", tree, "-j", jobs, "--target", *CTEST_TARGETS],
                       capture_output=True, text=True, timeout=900)
    if r.returncode:
        fail("building the srun tree failed", r)
    log(f"built {', '.join(CTEST_TARGETS)} in {time.time() - t1:.1f} s")

    regex = "^(" + "|".join(CTEST_TESTS) + ")$"
    want = set(CTEST_TESTS + CTEST_FIXTURES)
    with slurm_local.LocalSlurm(deadline=a.deadline, log=log) as slurm:
        env = slurm.env()
        env["SLURM_OVERCOMMIT"] = "1"  # srun -O: 3 ranks on a 2-core node
        cmd = ["salloc", "--nodes=1", "--ntasks=2", "--job-name=gale-ctest-srun",
               "ctest", "--test-dir", tree, "-L", "mpi", "-R", regex, "--output-on-failure",
               "--timeout", "120"]
        t2 = time.time()
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=a.deadline)
        out = r.stdout + r.stderr
        passed = set(re.findall(r"Test +#\d+: (\S+) \.+ +Passed", out))
        ran = set(re.findall(r"Test +#\d+: (\S+) \.+", out))
        if r.returncode or passed != want or ran != want:
            fail(f"ctest under srun: exit {r.returncode}, ran {sorted(ran)}, passed {sorted(passed)}; "
                 f"want all of {sorted(want)}", r)
        job = job_by_name(slurm, "gale-ctest-srun")
        if job.get("state") != "COMPLETED":
            fail(f"salloc job {job.get('id')}: state {job.get('state')}")
        # every test launched its ranks as job steps of the allocation (slurmd
        # logs each step it starts): at least one step per test
        with open(os.path.join(slurm.dir, "log", "slurmd.log")) as f:
            steps = set(re.findall(rf"launch task StepId={job['id']}\.(\d+)", f.read()))
        if len(steps) < len(want):
            fail(f"slurmd started {len(steps)} steps in job {job['id']}, fewer than the "
                 f"{len(want)} tests: the tests did not launch through srun")
        log(f"ctest -L mpi under salloc (job {job['id']}), {len(steps)} srun steps: {len(passed)} "
            f"of {len(want)} tests passed in {time.time() - t2:.1f} s: {', '.join(sorted(passed))}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=["launch", "ctest"])
    p.add_argument("--gale")
    p.add_argument("--gale-mpiexec")
    p.add_argument("--mpiexec", default="mpiexec.mpich")
    p.add_argument("--source", required=True)
    p.add_argument("--build")
    p.add_argument("--work", required=True)
    p.add_argument("--deadline", type=int, default=100,
                   help="seconds from the cluster's start until the watchdog stops everything")
    a = p.parse_args()
    reason = slurm_local.why_not()
    if reason:
        print(f"SKIPPED: no local Slurm here: {reason}")
        return slurm_local.SKIP
    os.makedirs(a.work, exist_ok=True)
    t0 = time.time()
    try:
        rc = launch(a) if a.mode == "launch" else ctest_srun(a)
    except slurm_local.Interrupted as e:
        fail(f"interrupted: {e}")
    except slurm_local.SlurmError as e:
        fail(str(e))
    log(f"{a.mode}: all checks passed in {time.time() - t0:.1f} s")
    return rc or 0


if __name__ == "__main__":
    sys.exit(main())
