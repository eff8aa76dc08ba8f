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
    - the I/O servers (fig7_io_servers: C256 on 12 nodes x 32 x 4, servers
      0, 1, 2, 4, 8 x buffers 1, 8, 64 MiB x pools 1, 2): 22 runs (servers
      0 once), 1 server in 2 pools skipped with the reason; every script
      runs the job's 384 ranks with the output on and --io.servers,
      --io.pools, --io.buffer_size; the estimates per model rank and per
      server are gale partition's, per node the node's model ranks and
      servers; a node too small for a server skips exactly the runs over
      it; --collect of reports made here gives their servers, pools,
      buffer size, clients' wait, full buffers, servers' busy and time per
      step, ranks the model's (a report counting the servers among them is
      wrong_layout) and the figure; on 2 nodes x 4 ranks, the servers that
      leave no model rank or make a pool larger than the model skipped,
      spread and last placed on the nodes as gale places them;
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
    whose reports are twice as slow. Its I/O servers (fig7_io_servers: C8,
    the node's 2 ranks, servers 0, 1, 2, buffers 16 KiB and 1 MiB, pools
    1, 2) as a campaign of their own on the profile's node (output needs
    more memory than the node above): 3 jobs COMPLETED, 6 skipped with the
    reasons, the new columns as in the reports, the figure.
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


def partition(a, config, n, levels, ranks, extra):
    r = subprocess.run([a.gale, "partition", "--config", config, "--mesh", f"C{n}", "--levels",
                        str(levels), "--ranks", str(ranks), "--json", *extra],
                       capture_output=True, text=True, cwd=a.source, timeout=120)
    if r.returncode:
        fail("gale partition failed", r)
    return json.loads(r.stdout)


def estimate(a, config, n, levels, ranks, extra):
    return partition(a, config, n, levels, ranks, extra)["memory_estimate_bytes_per_rank"]


IO = "fig7_io_servers"
TAG = {16384: "16K", 1048576: "1M", 8388608: "8M", 67108864: "64M"}


def io_id(base, sv, pools, size, placement=None):
    """The run of servers sv: one run without servers, whatever the pools
    and buffer size of the line (gale takes neither then)."""
    if not sv:
        return f"{base}_io0"
    return f"{base}_io{sv}p{pools}b{TAG[size]}" + (f"_{placement}" if placement else "")


def io_options(x):
    """What an I/O server run's gale command must have, in this order."""
    return (f" --diagnostics.fields={x['io']['fields']} --diagnostics.period={x['io']['period']} "
            f"--checkpoint.period=0 --logging.progress_every=0 --io.servers={x['servers']} "
            f"--io.pools={x['pools']} --io.buffer_size={x['buffer_size']} ")


def io_memory(a, config, x, levels, extra):
    """gale partition's estimates of an I/O server run, asked here: per model
    rank and per server on the model's ranks, and per node where the node's
    model ranks and servers need most (the servers where io/server.c puts
    them: the last of equal blocks, or the last ranks; the ranks on the
    nodes in blocks)."""
    sv, tot, rpn = x["servers"], x["ranks"], x["ranks_per_node"]
    js = partition(a, config, x["n"], levels, tot - sv, [
        *extra, f"--diagnostics.fields={x['io']['fields']}", f"--diagnostics.period={x['io']['period']}",
        f"--io.servers={sv}", f"--io.pools={x['pools']}", f"--io.buffer_size={x['buffer_size']}"])
    ranks = range(tot - sv, tot) if x["server_placement"] == "last" else \
        [-(-(j + 1) * tot // sv) - 1 for j in range(sv)]
    on = [0] * x["nodes"]
    for r in ranks:
        on[r // rpn] += 1
    per_rank, per_server = js["memory_estimate_bytes_per_rank"], js["memory_estimate_bytes_per_io_server"]
    return per_rank, per_server, max((rpn - k) * per_rank + k * per_server for k in on), on


def real_png(p):
    """A PNG with a plot on it: > 10 kB, >= 20 colours."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import numpy as np
    img = mpimg.imread(p)
    colours = len(np.unique(img.reshape(-1, img.shape[-1])[:, :3], axis=0))
    if os.path.getsize(p) < 10000 or img.shape[0] < 300 or img.shape[1] < 400 or colours < 20:
        fail(f"{p}: {os.path.getsize(p)} bytes, {img.shape}, {colours} colours: not a real plot")


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
    allruns, out_all = {x["id"]: x for x in m["runs"]}, out
    # Figs. 1-4 here, Figs. 7-9 (the I/O servers) in io_plan
    runs = {i: x for i, x in allruns.items() if IO not in x["experiments"]}
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
    per_node = {i: est[(x["n"], x["ranks"])] * x["ranks_per_node"] for i, x in runs.items()}
    per_node.update(io_plan(a, work, out_all, allruns, cfg, ex))
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
    # (the I/O servers' runs, about 8 GiB per node, all fit)
    want = {i for i, v in per_node.items() if v > usable}
    got = {x["id"] for x in m["runs"] if x["status"] == "skipped" and "does not fit" in x["reason"]}
    if got != want or "C1024_n192_128x1" not in got:
        fail(f"40 GiB nodes: skipped {sorted(got)}, want {sorted(want)} (with C1024_n192_128x1, the "
             "paper's failure)")
    for x in m["runs"]:
        if x["id"] in got:
            if f"{per_node[x['id']] / 2**30:.3g} GiB per node" not in x["reason"] or "36 GiB usable" not in \
                    x["reason"] or os.path.exists(os.path.join(out, "runs", x["id"], "job.sbatch")):
                fail(f"{x['id']}: skipped without the numbers or with a script: {x['reason']}")
    log(f"40 GiB nodes: the {len(got)} runs over 36 GiB per node skipped with gale's estimate in the "
        f"reason ({', '.join(sorted(got))})")
    refused_at_start(a, work)
    launchers(a, work)
    bad_input(a, work)


def io_plan(a, work, out, allruns, cfg, ex):
    """Figs. 7-9 in the archer2 plan: C256 on 12 nodes x 32 x 4 over servers
    0, 1, 2, 4, 8, buffers 1, 8, 64 MiB and pools 1, 2. The runs and the
    skipped ones, the scripts' options, the estimates with the servers'
    memory, a node too small for the servers, --collect of reports made
    here, and the placements and the pool rule on a node of 8 cores.
    Returns every planned run's memory per node."""
    exp = next(e for e in load(os.path.join(a.source, "bench/studies/lfric_paper.json"))["experiments"]
               if e["name"] == IO)
    io = {i: x for i, x in allruns.items() if IO in x["experiments"]}
    want_run, want_skip = set(), set()
    for sv in exp["servers"]:
        for b in exp["buffer_size"]:
            for p in exp["pools"]:
                (want_skip if sv % p else want_run).add(io_id("C256_n12_32x4", sv, p, b))
    got_run = {i for i, x in io.items() if x["status"] == "not_submitted"}
    got_skip = {i for i, x in io.items() if x["status"] == "skipped"}
    if got_run != want_run or got_skip != want_skip or len(io) != 25:
        fail(f"archer2 {IO}: runs {sorted(got_run)}, skipped {sorted(got_skip)}; want 22 runs (servers 0 "
             "once) and 3 skipped (1 server in 2 pools)")
    for i in sorted(want_skip):
        if "do not divide into pools" not in io[i]["reason"] or io[i].get("script"):
            fail(f"{i}: skipped without the reason or with a script: {io[i]['reason']}")
    for i in sorted(want_run):
        x = io[i]
        sb = os.path.join(out, x["script"])
        text = expect_lines(sb, ["#SBATCH --nodes=12", "#SBATCH --ntasks-per-node=32", "#SBATCH --cpus-per-task=4",
                                 "srun --nodes=12 --ntasks=384 --ntasks-per-node=32 --cpus-per-task=4 "]
                            + ([f"# I/O servers: {x['servers']} of the 384 ranks (spread, {x['pools']} pools, a "
                                f"client buffer of {x['buffer_size']} bytes), the model on {384 - x['servers']}"]
                               if x["servers"] else []))
        if io_options(x) not in text or "--diagnostics.fields= " in text or \
                (not x["servers"] and (x["pools"], x["buffer_size"]) != (1, 0)):
            fail(f"{sb}: want output on and{io_options(x)}in the gale command:\n{text}")
    log(f"archer2 {IO}: {len(want_run)} runs (servers 0 once: gale takes no pools or buffer size without "
        f"servers), {len(want_skip)} skipped (1 server in 2 pools) with the reason; every script runs 384 "
        "ranks with --io.servers, --io.pools, --io.buffer_size and the experiment's output")
    # the estimates: gale partition's on the model's ranks, the servers' own
    # on the node that holds them
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        est = dict(zip(sorted(want_run), pool.map(lambda i: io_memory(a, cfg, io[i], 120, ex), sorted(want_run))))
    for i, (per_rank, per_server, node, _) in est.items():
        x = io[i]
        if abs(x["memory_estimate_bytes_per_rank"] - per_rank) > 1 or \
                abs(x["memory_estimate_bytes_per_io_server"] - per_server) > 1 or \
                abs(x["memory_estimate_bytes_per_node"] - node) > 32 or (x["servers"] and not per_server):
            fail(f"{i}: manifest {x['memory_estimate_bytes_per_rank']} B per rank, "
                 f"{x['memory_estimate_bytes_per_io_server']} per server, {x['memory_estimate_bytes_per_node']} "
                 f"per node; gale partition says {per_rank}, {per_server}, {node}")
    # a node whose usable memory lies between what the run needing most
    # over its model ranks' needs would need without its server and with it:
    # exactly the runs over it skipped, that one among them
    gap = max(sorted(want_run), key=lambda i: est[i][2] - 32 * est[i][0])
    usable = (est[gap][2] + 32 * est[gap][0]) / 2
    prof = load(os.path.join(a.source, "bench/sites/archer2.json"))
    prof["node"].update(memory_GiB=usable / 2**30, memory_usable_fraction=1.0)
    site = os.path.join(work, "archer2-io-small.json")
    with open(site, "w") as f:
        json.dump(prof, f)
    out_small = os.path.join(work, "archer2-io-small")
    r = campaign(a, "--site", site, "--out", out_small, "--account", "n02-test", "--study",
                 "bench/studies/lfric_paper.json", "--no-submit", "--estimate-with", a.gale, "--only", IO)
    if r.returncode:
        fail("archer2 with small nodes, --only the I/O servers, failed", r)
    small = {x["id"]: x for x in load(os.path.join(out_small, "manifest.json"))["runs"]}
    want = {i for i in want_run if est[i][2] > usable}
    got = {i for i, x in small.items() if "does not fit" in x.get("reason", "")}
    if got != want or gap not in got:
        fail(f"nodes of {usable / 2**30:.4g} GiB: skipped {sorted(got)}, want {sorted(want)} (with {gap})")
    k = small[gap]["io_servers_on_that_node"]
    if f"x {32 - k} model ranks + {est[gap][1] / 2**30:.3g} GiB per I/O server x {k} servers = " \
            f"{est[gap][2] / 2**30:.3g} GiB per node" not in small[gap]["reason"]:
        fail(f"{gap}: the reason lacks the servers' memory: {small[gap]['reason']}")
    log(f"the servers' memory: manifest = gale partition's per rank and per I/O server; nodes of "
        f"{usable / 2**30:.3g} GiB skip the {len(got)} runs over it, among them {gap}, which its model ranks "
        f"alone would fit: {small[gap]['reason'][:110]}...")
    io_collect(a, work, io)
    io_rules(a, work)
    return {i: v[2] for i, v in est.items()}


def io_collect(a, work, planned):
    """--collect of the archer2 I/O server runs, each given a report made here
    (a real one of C8 with a server, its numbers set per run), one of them
    with the servers counted among the model's ranks: the new columns equal
    the reports', the skipped rows keep their reasons, that run is
    wrong_layout (exit 1), and the figure is drawn."""
    out = os.path.join(work, "archer2-io")
    r = campaign(a, "--site", "bench/sites/archer2.json", "--study", "bench/studies/lfric_paper.json", "--out",
                 out, "--account", "n02-test", "--no-submit", "--estimate-with", a.gale, "--only", IO)
    if r.returncode:
        fail(f"archer2 --only {IO} failed", r)
    runs = load(os.path.join(out, "manifest.json"))["runs"]
    tdir = os.path.join(work, "template")
    os.makedirs(tdir, exist_ok=True)
    tpl = os.path.join(tdir, "report.json")
    p = subprocess.run([a.gale_mpiexec, "-n", "2", a.gale, "run", os.path.join(a.source, "configs/baroclinic_wave.ini"),
                        "--mesh.name=C8", "--extrusion.levels=8", "--timestepping.steps=2", "--timestepping.dt=900",
                        "--diagnostics.fields=theta", "--logging.progress_every=0", "--io.servers=1",
                        "--report", tpl], capture_output=True, text=True, cwd=tdir, timeout=120,
                       env=dict(os.environ, OMP_NUM_THREADS="1"))
    if p.returncode:
        fail("the template report (C8, 1 I/O server) failed", p)
    tpl = load(tpl)
    wrong = "C256_n12_32x4_io2p1b8M"
    want = {}
    for j, x in enumerate(r for r in runs if r["status"] == "not_submitted"):
        rep = json.loads(json.dumps(tpl))
        sv = x["servers"]
        rep.update(ranks=384 if x["id"] == wrong else 384 - sv, threads=4,
                   time_per_step_s=1.0 + sv / 64 + x["pools"] / 1024 + j / 2**20)
        rep["io"].update(servers=sv, pools=x["pools"], buffer_size=x["buffer_size"] or 0,
                         server_placement="spread", buffer_full_waits=10 * j, server_busy_pct=50.0 + j / 8,
                         client_wait_pct={"min": 0.5 / (j + 1), "mean": 1.0 / (j + 1), "max": 2.0 / (j + 1)},
                         MiB=1024.0 + j)
        rd = os.path.join(out, "runs", x["id"])
        with open(os.path.join(rd, "report.json"), "w") as f:
            json.dump(rep, f)
        with open(os.path.join(rd, "exit_status"), "w") as f:
            f.write("0\n")
        with open(os.path.join(rd, "node.txt"), "w") as f:
            f.write("job_id=1\nhost=here\nmodel name\t: test CPU\n")
        want[x["id"]] = {"status": "wrong_layout" if x["id"] == wrong else "ok", "ranks": rep["ranks"],
                         "job_ranks": 384, "servers": sv, "pools": x["pools"], "buffer_size": x["buffer_size"],
                         "server_placement": "spread", "time_per_step_s": rep["time_per_step_s"],
                         "client_wait_pct_max": 2.0 / (j + 1), "client_wait_pct_mean": 1.0 / (j + 1),
                         "buffer_full_waits": 10 * j, "server_busy_pct": 50.0 + j / 8, "io_MiB": 1024.0 + j}
    r = campaign(a, "--collect", out)
    with open(os.path.join(out, "results.csv")) as f:
        rows = {x["id"]: x for x in csv.DictReader(f)}
    res = load(os.path.join(out, "results.json"))
    jrows = {x["id"]: x for x in res["runs"]}
    if r.returncode != 1 or set(rows) != {x["id"] for x in runs} or set(jrows) != set(rows):
        fail(f"--collect: exit {r.returncode} (want 1: {wrong} has the servers among its model ranks), rows "
             f"{sorted(rows)}", r)
    for i, w in want.items():
        for k, v in w.items():
            got, csv_v = jrows[i].get(k), rows[i].get(k)
            same = got == v and (float(csv_v) == v if isinstance(v, float) else csv_v == str(v))
            if not same:
                fail(f"{i}: {k} is {got!r} in results.json and {csv_v!r} in results.csv; the report gives {v!r}")
    if "asked for 382 ranks x 4 threads, the report has 384 x 4" not in rows[wrong]["reason"]:
        fail(f"{wrong}: reason '{rows[wrong]['reason']}'")
    for x in runs:
        if x["status"] == "skipped":
            row = rows[x["id"]]
            if row["status"] != "skipped" or row["reason"] != x["reason"] or row["servers"] != str(x["servers"]) \
                    or row["pools"] != str(x["pools"]):
                fail(f"{x['id']}: collected as {row['status']} '{row['reason']}' servers {row['servers']}")
    if res["figures"] != [f"{IO}.png"]:
        fail(f"figures {res['figures']}, want {IO}.png")
    real_png(os.path.join(out, f"{IO}.png"))
    log(f"--collect of {len(want)} reports made here: servers, pools, buffer_size, client_wait_pct max and mean, "
        f"buffer_full_waits, server_busy_pct, time per step as in the reports; ranks the model's ({wrong} with "
        f"the servers counted among them: wrong_layout, exit 1); {IO}.png")


def io_rules(a, work):
    """The servers gale refuses, and the placements, on a node of 8 cores:
    C16 on 2 nodes x 4 ranks, servers 0, 4, 6, 8 in 1 or 2 pools, spread
    (2 servers a node) and last (4 on the second node)."""
    prof = load(os.path.join(a.source, "bench/sites/local.json"))
    prof["node"].update(cores=8, cores_per_l3=8)
    prof["max_nodes"] = 2
    site = os.path.join(work, "local-8cores.json")
    with open(site, "w") as f:
        json.dump(prof, f)
    st = load(os.path.join(a.source, "bench/studies/local.json"))
    e = {"kind": "io_servers", "mesh": "C16", "nodes": 2, "ranks_per_node": 4, "threads": 1,
         "fields": ["theta", "u"], "period": 2, "servers": [0, 4, 6, 8], "buffer_size": [1048576], "pools": [1, 2]}
    st["experiments"] = [{**e, "name": "spread"}, {**e, "name": "last", "server_placement": "last"}]
    study = os.path.join(work, "io-rules.json")
    with open(study, "w") as f:
        json.dump(st, f)
    out = os.path.join(work, "io-rules")
    r = campaign(a, "--site", site, "--study", study, "--out", out, "--no-submit", "--gale", a.gale)
    if r.returncode:
        fail("the I/O server rules' study failed", r)
    runs = {x["id"]: x for x in load(os.path.join(out, "manifest.json"))["runs"]}
    why = {"no rank": "leaves no rank of the job's 8 for the model",
           "pool": "more than the 2 model ranks (each server needs a client"}
    want = {"C16_n2_4x1_io0": None}
    for pl in (None, "last"):
        want.update({io_id("C16_n2_4x1", 4, 1, 1048576, pl): None, io_id("C16_n2_4x1", 4, 2, 1048576, pl): None,
                     io_id("C16_n2_4x1", 6, 1, 1048576, pl): why["pool"],
                     io_id("C16_n2_4x1", 6, 2, 1048576, pl): why["pool"],
                     io_id("C16_n2_4x1", 8, 1, 1048576, pl): why["no rank"],
                     io_id("C16_n2_4x1", 8, 2, 1048576, pl): why["no rank"]})
    if set(runs) != set(want):
        fail(f"I/O server rules: runs {sorted(runs)}, want {sorted(want)}")
    for i, w in want.items():
        x = runs[i]
        if (w is None) != (x["status"] == "not_submitted") or (w and w not in x["reason"]):
            fail(f"{i}: {x['status']} '{x['reason']}', want " + (f"skipped: {w}" if w else "planned"))
    cfg = os.path.join(a.source, st["case"]["config"])
    ex = [f"--timestepping.steps={st['case']['steps']}", f"--timestepping.dt={st['case']['dt']}"]
    for i, w in want.items():
        x = runs[i]
        if w:
            continue
        text = open(os.path.join(out, x["script"])).read()
        place = " --io.server_placement=last " if i.endswith("_last") else None
        if io_options(x) not in text.replace(" --io.server_placement=last ", " ") or \
                (place and place not in text) or (not place and "server_placement" in text):
            fail(f"{i}: the gale command lacks{io_options(x)}or its placement:\n{text}")
        per_rank, per_server, node, on = io_memory(a, cfg, x, st["case"]["levels"], ex)
        k = x.get("io_servers_on_that_node")
        if on != {0: [0, 0], 4: [0, 4] if place else [2, 2]}[x["servers"]] or k not in on or \
                abs(x["memory_estimate_bytes_per_node"] - node) > 8 or \
                abs((4 - k) * per_rank + k * per_server - node) > 8:
            fail(f"{i}: {x['memory_estimate_bytes_per_node']} B per node with {k} servers on it; want {node} "
                 f"with servers on the nodes {on}")
    log("I/O server rules on 2 nodes x 4 ranks: 8 servers leave no model rank, 6 make pools larger than the "
        "2 model ranks (skipped, with the reasons); spread puts 2 servers on each node, last 4 on the last "
        "(--io.server_placement=last), and the memory per node counts them there")


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
    # the I/O servers' experiment
    k = next(i for i, e in enumerate(pap["experiments"]) if e["name"] == IO)
    io_cases = [
        ("no output fields", {"fields": ""}, [f"experiments[{k}].fields", "this kind writes output"]),
        ("pools 0", {"pools": [1, 0]}, [f"experiments[{k}].pools[1]", "expected a whole number >= 1"]),
        ("servers -1", {"servers": [0, -1]}, [f"experiments[{k}].servers[1]", ">= 0"]),
        ("buffer_size as text", {"buffer_size": "1MiB"}, [f"experiments[{k}].buffer_size", "expected a list"]),
        ("no period", {"period": None}, [f"missing key 'experiments[{k}].period'"]),
        ("placement", {"server_placement": "first"}, [f"experiments[{k}].server_placement", "first"]),
        ("ranks x threads over the cores", {"ranks_per_node": 64},
         ["64 ranks x 4 threads per node exceed the 128 cores", "I/O servers are ranks too"]),
    ]
    def io_edit(edit):
        def f(o):  # None: the key removed
            for key, v in edit.items():
                o["experiments"][k].pop(key) if v is None else o["experiments"][k].update({key: v})
        return f

    for j, (what, edit, words) in enumerate(io_cases):
        cases.append((f"{IO}: {what}", site_ok, variant(f"io{j}.json", pap, io_edit(edit)), words))
    cases.append((f"{IO}: another output on the same runs", site_ok, variant(
        "io-twice.json", pap, lambda o: o["experiments"].append({**o["experiments"][k], "name": "again",
                                                                 "fields": "theta"})),
        ["experiments fig7_io_servers and again both run C256_n12_32x4_io0", "other output"]))
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
    out_io = os.path.join(work, "io")
    # Figs. 1-4 on the node sized for the one skip; the I/O servers' runs
    # (output on: about 95 MiB per node) on the profile's own
    figs = [e["name"] for e in study["experiments"] if e["kind"] != "io_servers"]
    with slurm_local.LocalSlurm(deadline=a.deadline, log=log) as slurm:
        r = campaign(a, "--site", site, "--study", "bench/studies/local.json", "--out", out,
                     "--only", ",".join(figs), "--gale", a.gale, "--wait", "--wait-timeout", "60", "--poll", "0.3",
                     env=slurm.env(), timeout=a.deadline)
        log(f"bench/campaign --wait on the local Slurm: exit {r.returncode} after {time.time() - t0:.1f} s")
        if r.returncode:
            fail("bench/campaign --wait failed", r)
        r = campaign(a, "--site", "bench/sites/local.json", "--study", "bench/studies/local.json", "--out", out_io,
                     "--only", IO, "--gale", a.gale, "--wait", "--wait-timeout", "60", "--poll", "0.3",
                     env=slurm.env(), timeout=a.deadline)
        log(f"bench/campaign --only {IO} --wait on the local Slurm: exit {r.returncode} after "
            f"{time.time() - t0:.1f} s")
        if r.returncode:
            fail(f"bench/campaign --only {IO} --wait failed", r)
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
    check_local_io(a, out_io)
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
    figs = ["fig1_strong.png", "fig2_weak.png", "fig3_breakdown.png", "fig4_local_area.png"]
    if sorted(res["figures"]) != sorted(figs):
        fail(f"figures {res['figures']}, want {figs}")
    for f in figs:
        real_png(os.path.join(out, f))
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


def check_local_io(a, out):
    """The local study's I/O servers through Slurm: C8 on the node's 2 ranks,
    servers 0 and 1 (2 leave no model rank, 1 in 2 pools does not divide:
    skipped), buffers 16 KiB and 1 MiB."""
    m = load(os.path.join(out, "manifest.json"))
    runs = {x["id"]: x for x in m["runs"]}
    jobs = load(os.path.join(out, "jobs.json"))
    ran = {"C8_n1_2x1_io0", "C8_n1_2x1_io1p1b16K", "C8_n1_2x1_io1p1b1M"}
    skip = {io_id("C8_n1_2x1", 2, p, b): "leaves no rank of the job's 2 for the model"
            for p in (1, 2) for b in (16384, 1048576)}
    skip.update({io_id("C8_n1_2x1", 1, 2, b): "do not divide into pools" for b in (16384, 1048576)})
    if set(runs) != ran | set(skip):
        fail(f"{IO}: runs {sorted(runs)}, want {sorted(ran | set(skip))}")
    for i, w in skip.items():
        if runs[i]["status"] != "skipped" or w not in runs[i]["reason"] or runs[i].get("script"):
            fail(f"{i}: {runs[i]['status']} '{runs[i]['reason']}', want skipped: {w}")
    with open(os.path.join(out, "results.csv")) as f:
        rows = {r["id"]: r for r in csv.DictReader(f)}
    for i in sorted(ran):
        x = runs[i]
        j = jobs.get(x.get("job_id", ""), {})
        if x["status"] != "submitted" or j.get("state") != "COMPLETED":
            fail(f"{i}: status {x['status']}, job {x.get('job_id')} {j}")
        text = expect_lines(os.path.join(out, x["script"]), [
            "#SBATCH --ntasks-per-node=2", "srun --nodes=1 --ntasks=2 --ntasks-per-node=2 --cpus-per-task=1 "])
        if io_options(x) not in text:
            fail(f"{i}: the script lacks{io_options(x)}\n{text}")
        rep = load(os.path.join(out, "runs", i, "report.json"))
        io = rep["io"]
        want = {"status": "ok", "ranks": 2 - x["servers"], "job_ranks": 2, "servers": x["servers"],
                "pools": x["pools"], "buffer_size": x["buffer_size"], "time_per_step_s": rep["time_per_step_s"],
                "client_wait_pct_max": io["client_wait_pct"]["max"],
                "client_wait_pct_mean": io["client_wait_pct"]["mean"], "buffer_full_waits": io["buffer_full_waits"],
                "server_busy_pct": io["server_busy_pct"], "io_MiB": io["MiB"]}
        for k, v in want.items():
            if rows[i].get(k) != (repr(v) if isinstance(v, float) else str(v)):
                fail(f"{i}: {k} is {rows[i].get(k)!r} in results.csv; the report gives {v!r}")
        if rep["ranks"] != 2 - x["servers"] or io["servers"] != x["servers"] or not io["enabled"] or \
                io["MiB"] <= 0 or rep["config"]["resolved"]["diagnostics"]["fields"] != "theta,u":
            fail(f"{i}: the report ran {rep['ranks']} model ranks, {io['servers']} servers, output "
                 f"{io['enabled']} ({io['MiB']} MiB)")
    res = load(os.path.join(out, "results.json"))
    if res["figures"] != [f"{IO}.png"]:
        fail(f"{IO}: figures {res['figures']}")
    real_png(os.path.join(out, f"{IO}.png"))
    log(f"{IO}: 3 jobs COMPLETED (0 servers; 1 server with a 16 KiB and a 1 MiB buffer), 6 skipped with "
        f"the reasons; results.csv's servers, pools, buffer size, clients' wait, full buffers, servers' "
        f"busy and time per step as in the reports (ranks: the model's); {IO}.png")


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
    # the template report runs in its own folder
    a.gale_mpiexec = a.gale_mpiexec and os.path.abspath(a.gale_mpiexec)
    a.source = os.path.abspath(a.source)
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
