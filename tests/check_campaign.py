#!/usr/bin/python3
"""bench/campaign, planned for ARCHER2 and Setonix and run end to end on the
local Slurm (docs/benchmarks.md "bench/campaign").

check_campaign.py plan --gale GALE --source DIR --work DIR
    No Slurm needed. The LFRic paper's study (bench/studies/lfric_paper.json)
    for bench/sites/archer2.json and setonix.json with --no-submit:
    - the runs: 40, Fig. 2's node counts from the local area (C512 at 256
      columns per core: 48 nodes of 128 cores), ranks x threads = 128;
    - one script's #SBATCH lines, environment, module lines and srun line
      from the profile (ARCHER2: qos, exclusive; Setonix: no qos);
    - memory: each run's estimate is `gale partition --config` of the case
      (asked here independently) x ranks per node; with a 40 GiB node exactly
      the runs above 36 GiB per node are skipped, with the numbers in the
      reason, among them the paper's failure (C1024, 192 nodes, 1 thread);
    - bad input: each exits 2 with a message that names the key or file.

check_campaign.py local --gale GALE --source DIR --work DIR
    The scaled-down study (bench/studies/local.json: C8, C12, C16, 8 levels)
    through sbatch on a private local Slurm (tests/slurm_local.py) with
    bench/sites/local.json, whose memory per node is set between the two
    largest estimates per node so that exactly one run (C16, 2 ranks) does
    not fit: it is skipped with its reason and the 7 others run. Checked:
    the scripts' #SBATCH lines and srun options; every job COMPLETED; the
    CSV and JSON rows equal the numbers of the run reports (ranks, threads,
    time per step, seconds per step by category, global sums, the build) and
    name this machine's CPU; the runs of one mesh have bit-identical
    checksums whatever the ranks x threads; the four figures are non-trivial
    PNGs; --compare gives ratio 1 against itself and 0.5 against a copy
    whose reports are twice as slow.
Exit 77 (SKIPPED) where no local Slurm can run.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slurm_local  # noqa: E402

WHO = "check_campaign"


def fail(msg, r=None):
    if r is not None:
        msg += (f"\n--- {' '.join(r.args)}: exit {r.returncode}\n--- stdout ---\n{r.stdout[-5000:]}"
                f"\n--- stderr ---\n{r.stderr[-3000:]}")
    print(f"{WHO}: FAIL: {msg}", flush=True)
    raise SystemExit(1)


def log(msg):
    print(f"{WHO}: {msg}", flush=True)


def campaign(a, *args, env=None, timeout=300):
    return subprocess.run([os.path.join(a.source, "bench", "campaign"), *args], capture_output=True,
                          text=True, cwd=a.source, env=env, timeout=timeout)


def load(path):
    with open(path) as f:
        return json.load(f)


def estimate(a, config, n, levels, ranks, extra):
    r = subprocess.run([a.gale, "partition", "--config", config, "--mesh", f"C{n}", "--levels",
                        str(levels), "--ranks", str(ranks), "--json", *extra],
                       capture_output=True, text=True, cwd=a.source, timeout=120)
    if r.returncode:
        fail("gale partition failed", r)
    return json.loads(r.stdout)["memory_estimate_bytes_per_rank"]


def expect_lines(path, want, absent=()):
    text = open(path).read()
    for w in want:
        if w not in text.splitlines() and not any(line.startswith(w) for line in text.splitlines()):
            fail(f"{path}: no line '{w}'\n{text}")
    for w in absent:
        if w in text:
            fail(f"{path}: has '{w}', which the profile does not ask for\n{text}")
    return text


# ---------------------------------------------------------------- plan

def plan(a):
    work = os.path.join(a.work, "plan")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    study = "bench/studies/lfric_paper.json"
    base = ["--study", study, "--no-submit", "--estimate-with", a.gale]
    out = os.path.join(work, "archer2")
    r = campaign(a, "--site", "bench/sites/archer2.json", "--out", out, "--account", "n02-test", *base)
    if r.returncode:
        fail("archer2 --no-submit failed", r)
    m = load(os.path.join(out, "manifest.json"))
    runs = {x["id"]: x for x in m["runs"]}
    if len(runs) != 40 or any(x["status"] != "not_submitted" for x in runs.values()):
        fail(f"archer2: {len(runs)} runs, statuses {sorted({x['status'] for x in runs.values()})}; want 40 "
             "not_submitted (16 strong, 30 weak, 5 + 3 breakdown, shared runs once)")
    weak = [x for x in runs.values() if "fig2_weak" in x["experiments"]]
    for x in weak:
        if x["ranks_per_node"] * x["threads_per_rank"] != 128:
            fail(f"{x['id']}: {x['ranks_per_node']} x {x['threads_per_rank']} per node, not 128")
        cpc = 6 * x["n"] ** 2 / (x["nodes"] * 128)
        if cpc not in (256, 128):
            fail(f"{x['id']}: {cpc} columns per core in Fig. 2 (want 256 or 128)")
    if len(weak) != 30 or "C512_n48_32x4" not in runs or not set(runs["C512_n48_32x4"]["experiments"]) >= {
            "fig1_strong", "fig2_weak", "fig3_breakdown", "fig4_local_area"}:
        fail("archer2: Fig. 2 should have 30 runs and C512 on 48 nodes x 32 x 4 be in all four figures")
    sb = os.path.join(out, runs["C512_n48_32x4"]["script"])
    expect_lines(sb, ["#SBATCH --nodes=48", "#SBATCH --ntasks-per-node=32", "#SBATCH --cpus-per-task=4",
                      "#SBATCH --time=00:20:00", "#SBATCH --account=n02-test", "#SBATCH --partition=standard",
                      "#SBATCH --qos=standard", "#SBATCH --exclusive", "module load PrgEnv-gnu",
                      "module load cray-hdf5-parallel", "export OMP_NUM_THREADS=4", "export OMP_PLACES=cores",
                      "export OMP_PROC_BIND=close",
                      "srun --nodes=48 --ntasks=1536 --ntasks-per-node=32 --cpus-per-task=4 "
                      "--hint=nomultithread --distribution=block:block "],
                 absent=["--mpi="])
    text = open(sb).read()
    for w in ("--mesh.name=C512", "--extrusion.levels=120", "--timestepping.steps=96",
              "--timestepping.dt=168.75", "--diagnostics.fields=", "configs/baroclinic_wave.ini"):
        if w not in text:
            fail(f"{sb}: the gale command lacks {w}\n{text}")
    log("archer2: 40 runs, Fig. 2 at 256 and 128 columns per core (C512: 48 and 96 nodes), the "
        "script's #SBATCH lines, modules, OMP_* and srun options from the profile")
    # --override: one more option on every run's gale command (the pipelined
    # solve's comparison, docs/benchmarks.md); not of the form: refused, 2
    out = os.path.join(work, "archer2-pipelined")
    r = campaign(a, "--site", "bench/sites/archer2.json", "--out", out, "--account", "n02-test", *base,
                 "--only", "fig4_local_area", "--override=--mixed_solver.method=pipelined_gcr")
    if r.returncode:
        fail("archer2 --override --no-submit failed", r)
    else:
        m = load(os.path.join(out, "manifest.json"))
        for x in m["runs"]:
            text = open(os.path.join(out, x["script"])).read()
            if " --logging.progress_every=0 --mixed_solver.method=pipelined_gcr " not in text:
                fail(f"{x['script']}: --override not after the case's options:\n{text}")
        if len(m["runs"]) != 3:
            fail(f"--override with --only fig4_local_area: {len(m['runs'])} runs, want 3")
    r = campaign(a, "--site", "bench/sites/archer2.json", "--out", out + "-bad", "--account", "n02-test", *base,
                 "--override=pipelined")
    if r.returncode != 2 or "--override 'pipelined': expected --section.key=value" not in r.stderr:
        fail("--override=pipelined: want exit 2 naming it", r)
    log("--override: on every run's command after the case's options; a bad one refused (2)")
    # the estimates are gale partition's, per node = per rank x ranks per node
    cfg = "configs/baroclinic_wave.ini"
    ex = ["--timestepping.steps=96", "--diagnostics.fields=", "--checkpoint.period=0"]
    keys = sorted({(x["n"], x["ranks"]) for x in runs.values()})
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        est = dict(zip(keys, pool.map(lambda k: estimate(a, cfg, k[0], 120, k[1], ex), keys)))
    for x in runs.values():
        k = (x["n"], x["ranks"])
        if abs(x["memory_estimate_bytes_per_rank"] - est[k]) > 1 or \
                abs(x["memory_estimate_bytes_per_node"] - est[k] * x["ranks_per_node"]) > x["ranks_per_node"]:
            fail(f"{x['id']}: manifest estimate {x['memory_estimate_bytes_per_rank']} B per rank, "
                 f"gale partition says {est[k]} B")
    # setonix: its partition, no qos; a profile without account is refused
    out = os.path.join(work, "setonix")
    r = campaign(a, "--site", "bench/sites/setonix.json", "--out", out, "--account", "pawsey0000",
                 "--only", "fig3_breakdown", *base)
    if r.returncode:
        fail("setonix --no-submit failed", r)
    m = load(os.path.join(out, "manifest.json"))
    if sorted(x["id"] for x in m["runs"]) != sorted(f"C512_n48_{128 // t}x{t}" for t in (1, 2, 4, 8, 16)):
        fail(f"setonix --only fig3_breakdown: runs {[x['id'] for x in m['runs']]}")
    expect_lines(os.path.join(out, "runs", "C512_n48_8x16", "job.sbatch"),
                 ["#SBATCH --partition=work", "#SBATCH --ntasks-per-node=8", "#SBATCH --cpus-per-task=16",
                  "export OMP_NUM_THREADS=16"], absent=["--qos"])
    log("setonix: Fig. 3's five runs, partition work, no qos line")
    # a node of 40 GiB: exactly the runs over 36 GiB per node are skipped
    prof = load(os.path.join(a.source, "bench/sites/archer2.json"))
    prof["node"]["memory_GiB"] = 40
    small = os.path.join(work, "archer2-40GiB.json")
    with open(small, "w") as f:
        json.dump(prof, f)
    out = os.path.join(work, "archer2-40GiB")
    r = campaign(a, "--site", small, "--out", out, "--account", "n02-test", *base)
    if r.returncode:
        fail("archer2 with 40 GiB nodes failed", r)
    m = load(os.path.join(out, "manifest.json"))
    usable = 40 * 2**30 * 0.9
    want = {x["id"] for x in runs.values() if est[(x["n"], x["ranks"])] * x["ranks_per_node"] > usable}
    got = {x["id"] for x in m["runs"] if x["status"] == "skipped"}
    if got != want or "C1024_n192_128x1" not in got:
        fail(f"40 GiB nodes: skipped {sorted(got)}, want {sorted(want)} (with C1024_n192_128x1, the "
             "paper's failure)")
    for x in m["runs"]:
        if x["status"] == "skipped":
            per_node = est[(x["n"], x["ranks"])] * x["ranks_per_node"] / 2**30
            if f"{per_node:.3g} GiB per node" not in x["reason"] or "36 GiB usable" not in x["reason"] \
                    or os.path.exists(os.path.join(out, "runs", x["id"], "job.sbatch")):
                fail(f"{x['id']}: skipped without the numbers or with a script: {x['reason']}")
    log(f"40 GiB nodes: the {len(got)} runs over 36 GiB per node skipped with gale's estimate in the "
        f"reason ({', '.join(sorted(got))})")
    refused_at_start(a, work)
    launchers(a, work)
    bad_input(a, work)


def launchers(a, work):
    """The launch line of the other launcher kinds: mpiexec inside the
    allocation, and the build's own gale-mpiexec where srun cannot start
    the MPI."""
    prof = load(os.path.join(a.source, "bench/sites/local.json"))
    for kind, command, want in (
            ("mpiexec", "mpiexec.mpich", f"mpiexec.mpich -n 2 -bind-to core {a.gale} run "),
            ("build", None, f"{os.path.join(os.path.dirname(a.gale), 'gale-mpiexec')} -n 2 {a.gale} run ")):
        prof["launcher"] = {"kind": kind, "binds_tasks": False}
        if command:
            prof["launcher"].update(command=command, options=["-bind-to", "core"])
        site = os.path.join(work, f"local-{kind}.json")
        with open(site, "w") as f:
            json.dump(prof, f)
        out = os.path.join(work, f"launcher-{kind}")
        r = campaign(a, "--site", site, "--study", "bench/studies/local.json", "--out", out, "--only",
                     "fig4_local_area", "--no-submit", "--gale", a.gale)
        if r.returncode:
            fail(f"launcher {kind}: --no-submit failed", r)
        expect_lines(os.path.join(out, "runs", "C8_n1_2x1", "job.sbatch"), [want], absent=["srun"])
    # the least a profile needs; no account, partition, qos or exclusive lines
    mini = {"name": "mini", "node": {"cores": 2, "memory_GiB": 8}, "slurm": {"time": "10"},
            "launcher": {"kind": "srun", "mpi": "pmi2"}, "build": {"gale": a.gale}}
    site = os.path.join(work, "mini.json")
    with open(site, "w") as f:
        json.dump(mini, f)
    out = os.path.join(work, "mini")
    r = campaign(a, "--site", site, "--study", "bench/studies/local.json", "--out", out, "--no-submit")
    if r.returncode:
        fail("the minimal profile failed", r)
    expect_lines(os.path.join(out, "runs", "C12_n1_1x2", "job.sbatch"),
                 ["#SBATCH --time=10", "#SBATCH --cpus-per-task=2", "export OMP_NUM_THREADS=2",
                  f"srun --nodes=1 --ntasks=1 --ntasks-per-node=1 --cpus-per-task=2 --mpi=pmi2 {a.gale} run "],
                 absent=["--account", "--partition", "--qos", "--exclusive", "module", "OMP_PLACES"])
    log("launchers: mpiexec (with its options) and the build's gale-mpiexec in the job scripts; a "
        "minimal profile (name, node cores and memory, slurm time, launcher, build) works")


def refused_at_start(a, work):
    """A run that gale itself refuses (the node has less memory than the
    profile said): --collect names gale's reason. The job is played here
    without Slurm: its script's gale command under gale-mpiexec, with
    GALE_MEM_AVAILABLE standing in for a node of 1 MB."""
    out = os.path.join(work, "refused")
    r = campaign(a, "--site", "bench/sites/local.json", "--study", "bench/studies/local.json", "--out", out,
                 "--only", "fig4_local_area", "--no-submit", "--gale", a.gale)
    if r.returncode:
        fail("local --no-submit failed", r)
    run = load(os.path.join(out, "manifest.json"))["runs"][0]
    rundir = os.path.join(out, "runs", run["id"])
    line = open(os.path.join(rundir, "job.sbatch")).read().splitlines()[-4]
    words = shlex.split(line.replace('"$RUN/report.json"', os.path.join(rundir, "report.json")))
    cmd = [a.gale_mpiexec, "-n", str(run["ranks"]), *words[words.index(a.gale):]]
    with open(os.path.join(rundir, "slurm-1.out"), "w") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=rundir, timeout=60,
                           env=dict(os.environ, GALE_MEM_AVAILABLE="1000000", OMP_NUM_THREADS="1"))
    with open(os.path.join(rundir, "exit_status"), "w") as f:
        f.write(f"{p.returncode}\n")
    if p.returncode != 2:
        fail(f"gale with 1 MB available: exit {p.returncode}, want 2 (refused)")
    r = campaign(a, "--collect", out)
    row = next(csv.DictReader(open(os.path.join(out, "results.csv"))))
    if r.returncode != 1 or row["status"] != "failed" or "gale refused it at start (memory)" not in \
            row["reason"] or "needs about" not in row["reason"]:
        fail(f"--collect of a run gale refused: exit {r.returncode}, status {row['status']}, reason "
             f"'{row['reason']}'", r)
    log(f"a run gale refused at start: --collect exits 1, status failed: {row['reason'][:90]}...")


def bad_input(a, work):
    arch = load(os.path.join(a.source, "bench/sites/archer2.json"))
    loc = load(os.path.join(a.source, "bench/sites/local.json"))
    pap = load(os.path.join(a.source, "bench/studies/lfric_paper.json"))

    def variant(name, obj, edit):
        o = json.loads(json.dumps(obj))
        edit(o)
        p = os.path.join(work, name)
        with open(p, "w") as f:
            json.dump(o, f)
        return p

    site_ok, study_ok = "bench/sites/archer2.json", "bench/studies/lfric_paper.json"
    bad_json = os.path.join(work, "bad.json")
    with open(bad_json, "w") as f:
        f.write('{"name": "x", "node": {')
    cases = [
        ("no node.cores", variant("s1.json", arch, lambda o: o["node"].pop("cores")), study_ok,
         ["missing key 'node.cores'", "s1.json"]),
        ("no build.gale", variant("s2.json", arch, lambda o: o["build"].pop("gale")), study_ok,
         ["missing key 'build.gale'"]),
        ("bad launcher", variant("s3.json", arch, lambda o: o["launcher"].update(kind="aprun")), study_ok,
         ["launcher.kind", "aprun"]),
        ("bad time", variant("s4.json", arch, lambda o: o["slurm"].update(time="20 minutes")), study_ok,
         ["slurm.time", "20 minutes"]),
        ("binding without bound tasks",
         variant("s5.json", loc, lambda o: o["env"].update(OMP_PROC_BIND="close")), study_ok,
         ["OMP_PROC_BIND", "binds_tasks"]),
        ("unknown mesh", site_ok, variant("t1.json", pap, lambda o: o["experiments"][0]["meshes"].update(
            {"X512": [4]})), ["unknown mesh", "X512", "experiments[0].meshes"]),
        ("mesh C0", site_ok, variant("t2.json", pap, lambda o: o["experiments"][2].update(mesh="C0")),
         ["unknown mesh", "C0", "experiments[2].mesh"]),
        ("threads not dividing cores", site_ok,
         variant("t3.json", pap, lambda o: o["experiments"][1].update(threads=[1, 3])),
         ["3 threads per rank do not divide", "experiments[1].threads"]),
        ("local area not whole nodes", site_ok,
         variant("t4.json", pap, lambda o: o["experiments"][1]["series"][0].update(cells_per_core=100)),
         ["cells_per_core", "not a whole number"]),
        ("no case.levels", site_ok, variant("t5.json", pap, lambda o: o["case"].pop("levels")),
         ["missing key 'case.levels'"]),
        ("unknown kind", site_ok, variant("t6.json", pap, lambda o: o["experiments"][0].update(kind="fast")),
         ["experiments[0].kind", "fast"]),
        ("not JSON", bad_json, study_ok, ["bad.json", "not valid JSON"]),
        ("no account", "bench/sites/setonix.json", study_ok, ["slurm.account", "--account"]),
    ]
    for i, (what, site, study, words) in enumerate(cases):
        out = os.path.join(work, f"bad{i}")
        args = ["--site", site, "--study", study, "--out", out, "--no-submit", "--estimate-with", a.gale]
        if "account" not in what:
            args += ["--account", "x"]
        r = campaign(a, *args)
        if r.returncode != 2 or not all(w in r.stderr for w in words) or \
                os.path.exists(os.path.join(out, "manifest.json")):
            fail(f"bad input ({what}): want exit 2, no manifest and a message with {words}", r)
    log(f"bad input: {len(cases)} broken profiles and studies refused with exit 2, naming the key")


# ---------------------------------------------------------------- local

def local(a):
    reason = slurm_local.why_not()
    if reason:
        print(f"SKIPPED: no local Slurm here: {reason}")
        return slurm_local.SKIP
    t0 = time.time()
    work = os.path.join(a.work, "local")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    study = load(os.path.join(a.source, "bench/studies/local.json"))
    case = study["case"]
    ex = [f"--timestepping.steps={case['steps']}", f"--timestepping.dt={case['dt']}", "--diagnostics.fields="]
    # every run's memory per node, asked of gale here; the node's memory goes
    # between the largest and the next
    layouts = {(8, 1, 1), (8, 2, 1), (12, 1, 1), (12, 2, 1), (8, 1, 2), (12, 1, 2), (16, 2, 1), (16, 1, 2)}
    per_node = {(n, r, t): r * estimate(a, case["config"], n, case["levels"], r, ex) for n, r, t in layouts}
    order = sorted(per_node, key=per_node.get, reverse=True)
    if order[0] != (16, 2, 1):
        fail(f"the study's largest run per node is {order[0]}, not C16 on 2 ranks: adjust the test")
    mem = (per_node[order[0]] + per_node[order[1]]) / 2
    prof = load(os.path.join(a.source, "bench/sites/local.json"))
    prof["node"]["memory_GiB"] = mem / 2**30
    prof["node"]["memory_usable_fraction"] = 1.0
    site = os.path.join(work, "local-site.json")
    with open(site, "w") as f:
        json.dump(prof, f)
    out = os.path.join(work, "campaign")
    with slurm_local.LocalSlurm(deadline=a.deadline, log=log) as slurm:
        r = campaign(a, "--site", site, "--study", "bench/studies/local.json", "--out", out,
                     "--gale", a.gale, "--wait", "--wait-timeout", "60", "--poll", "0.3",
                     env=slurm.env(), timeout=a.deadline)
        log(f"bench/campaign --wait on the local Slurm: exit {r.returncode} after {time.time() - t0:.1f} s")
        if r.returncode:
            fail("bench/campaign --wait failed", r)
        # the same profile without --mpi=pmi2: srun starts two 1-rank runs,
        # which --collect must not take for one 2-rank run
        prof["launcher"].pop("mpi")
        nompi = os.path.join(work, "local-nompi.json")
        with open(nompi, "w") as f:
            json.dump(prof, f)
        out2 = os.path.join(work, "nompi")
        r = campaign(a, "--site", nompi, "--study", "bench/studies/local.json", "--out", out2,
                     "--only", "fig4_local_area", "--gale", a.gale, "--wait", "--wait-timeout", "60",
                     "--poll", "0.3", env=slurm.env(), timeout=a.deadline)
        row = next(csv.DictReader(open(os.path.join(out2, "results.csv")))) \
            if os.path.exists(os.path.join(out2, "results.csv")) else {}
        if r.returncode != 1 or row.get("status") != "wrong_layout" or row.get("ranks") != "1" or \
                "gale started 2 time(s) with 1 x 1" not in row.get("reason", ""):
            fail(f"srun without --mpi=pmi2: want exit 1 and C8_n1_2x1 wrong_layout with ranks 1, got "
                 f"{row.get('status')} ranks {row.get('ranks')}", r)
        log(f"without --mpi=pmi2: C8_n1_2x1 collected as wrong_layout ({row['reason'][:80]}...)")
    check_local(a, out, per_node, mem)
    log(f"local: all checks passed in {time.time() - t0:.1f} s")
    return 0


def check_local(a, out, per_node, mem):
    m = load(os.path.join(out, "manifest.json"))
    runs = {x["id"]: x for x in m["runs"]}
    want_ids = {f"C{n}_n1_{r}x{t}" for n, r, t in per_node}
    if set(runs) != want_ids:
        fail(f"runs {sorted(runs)}, want {sorted(want_ids)}")
    sk = runs["C16_n1_2x1"]
    G = 2**30
    if sk["status"] != "skipped" or "does not fit a node" not in sk["reason"] or \
            f"{per_node[(16, 2, 1)] / G:.3g} GiB per node" not in sk["reason"] or \
            f"{mem / G:.3g} GiB usable" not in sk["reason"]:
        fail(f"C16 on 2 ranks: status {sk['status']}, reason '{sk['reason']}'; want skipped, with "
             f"{per_node[(16, 2, 1)] / G:.3g} GiB per node against {mem / G:.3g} GiB")
    if os.path.exists(os.path.join(out, "runs", "C16_n1_2x1", "job.sbatch")):
        fail("the skipped run has a script")
    log(f"skipped: C16_n1_2x1: {sk['reason']}")
    jobs = load(os.path.join(out, "jobs.json"))
    done = [x for x in runs.values() if x["id"] != "C16_n1_2x1"]
    for x in done:
        j = jobs.get(x.get("job_id", ""), {})
        if x["status"] != "submitted" or j.get("state") != "COMPLETED" or j.get("exit_code") != "0:0":
            fail(f"{x['id']}: status {x['status']}, job {x.get('job_id')} {j}")
        rpn, t = x["ranks_per_node"], x["threads_per_rank"]
        text = expect_lines(os.path.join(out, x["script"]), [
            "#SBATCH --nodes=1", f"#SBATCH --ntasks-per-node={rpn}", f"#SBATCH --cpus-per-task={t}",
            "#SBATCH --time=00:05:00", "#SBATCH --partition=gale", "#SBATCH --account=gale-local",
            f"export OMP_NUM_THREADS={t}", "export OMP_PROC_BIND=false", "export OMP_WAIT_POLICY=passive",
            f"srun --nodes=1 --ntasks={rpn} --ntasks-per-node={rpn} --cpus-per-task={t} --mpi=pmi2 "
            "--hint=nomultithread --distribution=block:block "], absent=["--qos", "--exclusive"])
        if f"{a.gale} run " not in text:
            fail(f"{x['id']}: the script does not run {a.gale}")
    log(f"{len(done)} jobs COMPLETED; scripts: #SBATCH nodes, ntasks-per-node, cpus-per-task, time, "
        "partition, account; OMP_*; srun --mpi=pmi2 --hint=nomultithread --distribution=block:block")

    # results.csv / results.json against the reports, read here
    with open(os.path.join(out, "results.csv")) as f:
        rows = {r["id"]: r for r in csv.DictReader(f)}
    res = load(os.path.join(out, "results.json"))
    jrows = {r["id"]: r for r in res["runs"]}
    if set(rows) != want_ids or set(jrows) != want_ids:
        fail(f"results rows {sorted(rows)} / {sorted(jrows)}")
    if rows["C16_n1_2x1"]["status"] != "skipped" or "does not fit" not in rows["C16_n1_2x1"]["reason"]:
        fail(f"results: C16_n1_2x1 is {rows['C16_n1_2x1']['status']}")
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.lower().startswith("model name")),
               None)
    sums = {}
    for x in done:
        rep = load(os.path.join(out, "runs", x["id"], "report.json"))
        row, jr = rows[x["id"]], jrows[x["id"]]
        steps = rep["steps"]
        tm = rep["timers"]
        want = {"status": "ok", "ranks": rep["ranks"], "threads": rep["threads"], "steps": steps,
                "time_per_step_s": rep["time_per_step_s"], "wall_s": rep["wall_s"],
                "compute_s_per_step": tm["compute"]["mean_s"] / steps,
                "halo_s_per_step": (tm["halo_pack"]["mean_s"] + tm["halo_wait"]["mean_s"]) / steps,
                "global_sums_s_per_step": tm["global_sums"]["mean_s"] / steps,
                "global_sums_per_step": sum(v["global_sums"] for v in rep["solve_levels"]) / steps,
                "halo_exchanges_per_step": tm["halo_pack"]["count"] / steps,
                "build_compiler": rep["build"]["compiler"], "cpu_model": cpu, "nodes": 1}
        for k, v in want.items():
            got = jr.get(k)
            csv_v = row.get(k)
            if isinstance(v, float):
                ok = got == v and float(csv_v) == v
            else:
                ok = got == v and csv_v == str(v)
            if not ok:
                fail(f"{x['id']}: {k} is {got!r} in results.json and {csv_v!r} in results.csv; the report "
                     f"gives {v!r}")
        if (rep["ranks"], rep["threads"]) != (x["ranks"], x["threads_per_rank"]):
            fail(f"{x['id']}: the report has {rep['ranks']} x {rep['threads']}, asked {x['ranks']} x "
                 f"{x['threads_per_rank']}")
        if rep["config"]["resolved"]["mesh"]["name"] != x["mesh"] or \
                rep["config"]["resolved"]["extrusion"]["levels"] != 8:
            fail(f"{x['id']}: the report ran {rep['config']['resolved']['mesh']['name']}")
        sums.setdefault(x["mesh"], set()).add(json.dumps(rep["checksums"], sort_keys=True))
    for mesh, s in sums.items():
        if len(s) != 1:
            fail(f"{mesh}: the runs' checksums differ across ranks x threads: {s}")
    log(f"results.csv and results.json: 8 rows (7 ok, 1 skipped), every number as in the reports, "
        f"CPU '{cpu}'; checksums per mesh bit-identical over ranks x threads ({len(sums)} meshes)")

    # the figures
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import numpy as np
    figs = ["fig1_strong.png", "fig2_weak.png", "fig3_breakdown.png", "fig4_local_area.png"]
    if sorted(res["figures"]) != sorted(figs):
        fail(f"figures {res['figures']}, want {figs}")
    for f in figs:
        p = os.path.join(out, f)
        img = mpimg.imread(p)
        colours = len(np.unique(img.reshape(-1, img.shape[-1])[:, :3], axis=0))
        if os.path.getsize(p) < 10000 or img.shape[0] < 300 or img.shape[1] < 400 or colours < 20:
            fail(f"{f}: {os.path.getsize(p)} bytes, {img.shape}, {colours} colours: not a real plot")
    log(f"figures: {', '.join(figs)} (PNG, > 10 kB, >= 20 colours)")

    # --compare: itself, and a copy whose reports are twice as slow
    r = campaign(a, "--compare", out, out, "--out", os.path.join(a.work, "local", "cmp-self"))
    cs = load(os.path.join(a.work, "local", "cmp-self", "compare.json")) if not r.returncode else None
    if r.returncode or len(cs["runs"]) != 7 or any(x["ratio"] != 1.0 for x in cs["runs"]):
        fail("--compare against itself: want 7 ratios of 1", r)
    slow = os.path.join(a.work, "local", "slow")
    shutil.copytree(out, slow)
    for x in done:
        p = os.path.join(slow, "runs", x["id"], "report.json")
        rep = load(p)
        rep["time_per_step_s"] *= 2
        rep["wall_s"] *= 2
        for v in rep["timers"].values():
            v["mean_s"] *= 2
        with open(p, "w") as f:
            json.dump(rep, f)
    r = campaign(a, "--collect", slow)
    if r.returncode:
        fail("--collect of the slowed copy failed", r)
    cmp_dir = os.path.join(a.work, "local", "cmp-slow")
    r = campaign(a, "--compare", out, slow, "--out", cmp_dir)
    if r.returncode:
        fail("--compare failed", r)
    cs = load(os.path.join(cmp_dir, "compare.json"))
    bad = [x for x in cs["runs"] if x["ratio"] != 0.5 or x["compute_ratio"] != 0.5]
    if len(cs["runs"]) != 7 or bad or not os.path.getsize(os.path.join(cmp_dir, "compare.png")) > 10000:
        fail(f"--compare with the slowed copy: {len(cs['runs'])} runs, wrong ratios {bad}")
    with open(os.path.join(cmp_dir, "compare.csv")) as f:
        if len(list(csv.DictReader(f))) != 7:
            fail("compare.csv does not have 7 rows")
    log("--compare: ratio 1 against itself, 0.5 against a copy twice as slow (7 runs, compare.png)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=["plan", "local"])
    p.add_argument("--gale", required=True)
    p.add_argument("--gale-mpiexec")
    p.add_argument("--source", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--deadline", type=int, default=100)
    a = p.parse_args()
    a.gale = os.path.abspath(a.gale)
    os.makedirs(a.work, exist_ok=True)
    try:
        rc = plan(a) if a.mode == "plan" else local(a)
    except slurm_local.Interrupted as e:
        fail(f"interrupted: {e}")
    except slurm_local.SlurmError as e:
        fail(str(e))
    return rc or 0


if __name__ == "__main__":
    sys.exit(main())
