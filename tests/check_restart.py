#!/usr/bin/python3
"""Checkpoint/restart tests (docs/checkpoint.md).

usage: check_restart.py MPIEXEC GALE WORKDIR MODE ARGS...
  straight NP          8 steps on NP ranks, checkpoints every 4 steps, into
                       WORKDIR/np<NP>/; checks the files are there under their
                       final names only (no .tmp) and hold the expected size
  restart FROM TO      restart from step 4 of the FROM-rank run on TO ranks:
                       the report's checksums, energy and maxima equal the
                       straight run's, and the step-8 checkpoint holds the
                       same field bytes as the straight run's
  refuse KIND          a bad restart file (or setting) of KIND is refused on
                       every rank with exit 2, one message naming the file
                       and the problem, within the timeout (an older format
                       version and a text without the keys that define the
                       experiment are made with tools/gale_ckpt.py, as are
                       forged_*: an impossible header value, the checksums
                       made consistent again; fifo, directory: not a regular
                       file, refused before an open that would block)
  same_step IOMODE     output, a checkpoint and the last step on one step
                       ([io] mode IOMODE); its restart continues bit for bit
  hang N [LIMIT]       N runs of output + checkpoint on one step, 2 ranks x
                       2 threads: fails on a run that outlives LIMIT seconds
  fault                an I/O failure on one rank during a checkpoint write:
                       the run stops, nothing is left under the final or the
                       temporary name, the earlier checkpoint stays good
The case is small (C12, 10 levels, 8 steps) so every test takes about a second.
"""
import json
import os
import shutil
import struct
import subprocess
import sys

import ranks

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import gale_ckpt  # noqa: E402  (the checkpoint reader, docs/checkpoint.md)

mpiexec, gale, work, mode = sys.argv[1:5]
args = sys.argv[5:]
# the lumped operator (one Helmholtz solve per step): these are the checkpoint's
# mechanics; check_mixed.py restarts the consistent operator's mixed solve
CASE = ["--mesh.name=C12", "--extrusion.levels=10", "--timestepping.steps=8",
        "--logging.progress_every=0", "--dynamics.mass_matrix=lumped"]
TIMEOUT = 60
os.makedirs(work, exist_ok=True)


def run(np, extra, env=None, cwd=None):
    """Runs gale on np ranks: (result, {rank: exit status})."""
    e = dict(os.environ, OMP_NUM_THREADS="1", **(env or {}))
    return ranks.run_ranks(mpiexec, np, [gale, "run", *CASE, *extra], TIMEOUT, env=e, cwd=cwd)


def fail(msg, r=None):
    ranks.fail("check_restart", msg, r)


def rundir(np):
    return os.path.join(work, f"np{np}")


def ckpt(np, step):
    return os.path.join(rundir(np), "ck", f"gale_ckpt_{step:06d}.ckpt")


def same_state(a, b):
    keys = ["checksums", "energy", "max_u", "max_w", "max_u_over_run", "max_w_over_run"]
    return [k for k in keys if a.get(k) != b.get(k)]


if mode == "straight":
    np = int(args[0])
    d = rundir(np)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    r, codes = run(np, ["--checkpoint.period=4", f"--checkpoint.dir={d}/ck",
                        f"--report={d}/report.json"])
    if r.returncode != 0 or set(codes.values()) != {0}:
        fail(f"straight run on {np} ranks failed", r)
    names = sorted(os.listdir(os.path.join(d, "ck")))
    if names != ["gale_ckpt_000004.ckpt", "gale_ckpt_000008.ckpt"]:
        fail(f"checkpoint directory holds {names}")
    if "checkpoint: " not in r.stdout:
        fail("no checkpoint line in the log", r)
    # the version gale writes is the one tools/gale_ckpt.py knows as current
    versions = {gale_ckpt.read(os.path.join(d, "ck", n)).version for n in names}
    if versions != {gale_ckpt.VERSION}:
        fail(f"checkpoint format versions {versions}, want {gale_ckpt.VERSION}")
    print(f"check_restart straight {np}: {names}")

elif mode == "restart":
    src, np = int(args[0]), int(args[1])
    d = os.path.join(work, f"restart_{src}to{np}")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    r, codes = run(np, ["--checkpoint.period=4", f"--checkpoint.dir={d}/ck",
                        f"--report={d}/report.json", "--restart", ckpt(src, 4)])
    if r.returncode != 0 or set(codes.values()) != {0}:
        fail(f"restart on {np} ranks failed", r)
    if f"restart:   {ckpt(src, 4)}" not in r.stdout or "step 4" not in r.stdout:
        fail("no restart line naming the file and step 4", r)
    a = json.load(open(os.path.join(rundir(src), "report.json")))
    b = json.load(open(os.path.join(d, "report.json")))
    diff = same_state(a, b)
    if diff:
        fail(f"{src} -> {np} ranks: {diff} differ: {[(a.get(k), b.get(k)) for k in diff]}")
    # The step-8 checkpoint of the restarted run: only step 8 (not 4 again),
    # and the same field bytes as the straight run's (the format is
    # decomposition-independent; only the header's config text differs).
    names = sorted(os.listdir(os.path.join(d, "ck")))
    if names != ["gale_ckpt_000008.ckpt"]:
        fail(f"restarted run wrote {names}")
    p1, p2 = ckpt(src, 8), os.path.join(d, "ck", names[0])
    if gale_ckpt.read(p1).field_data() != gale_ckpt.read(p2).field_data():
        fail(f"field data of {p1} and {p2} differ")
    print(f"check_restart restart {src} -> {np}: checksums {b['checksums']} identical")

elif mode == "refuse":
    kind = args[0]
    # forged: (struct format, offset, value) or ("config", edit), and what
    # the message must say; dt = 100 s, the file is at step 4
    S = gale_ckpt.OFF_STATE
    FORGED = {
        "forged_step": (("<q", gale_ckpt.OFF_RUN, -1), "step = -1: outside 0.."),
        "forged_time_nan": (("<d", S, float("nan")), "time = nan: not a finite number"),
        "forged_time_inf": (("<d", S, float("inf")), "time = inf: not a finite number"),
        "forged_time": (("<d", S, 401.0), "time = 401 s at step = 4, but 4 steps of dt = 100 s "
                        "end at 400 s"),
        "forged_energy0_nan": (("<d", S + 8, float("nan")), "energy0 = nan: not a finite number"),
        "forged_energy_inf": (("<d", S + 16, float("-inf")), "energy = -inf: not a finite number"),
        "forged_ext_method": (("<q", gale_ckpt.OFF_MESH + 16, 99),
                              "extrusion method = 99: not one of gale's"),
        "forged_duplicate_key": (
            ("config", lambda t: t.replace("[mesh]\n", "[mesh]\nname = C8\n", 1)),
            "stored configuration, line 4: [mesh] name: duplicate key (first set on line 3)"),
    }
    base = ckpt(2, 4)
    d = os.path.join(work, "refuse")
    os.makedirs(d, exist_ok=True)
    bad = os.path.join(d, f"{kind}.ckpt")
    ck = gale_ckpt.read(base)
    data, H = ck.data, ck.header_bytes
    extra = []
    # (what the message must say) for each kind
    if kind == "truncated":
        open(bad, "wb").write(data[: len(data) // 2])
        want = "truncated"
    elif kind == "corrupt":      # one flipped bit in the field data
        b = bytearray(data)
        b[H + 12345] ^= 0x04
        open(bad, "wb").write(bytes(b))
        want = "checksum mismatch"
    elif kind == "corrupt_header":  # one flipped bit in the stored config text
        b = bytearray(data)
        b[ck.config_offset + 600] ^= 0x01
        open(bad, "wb").write(bytes(b))
        want = "header checksum mismatch"
    elif kind == "wrong_version":
        b = bytearray(data)
        struct.pack_into("<I", b, gale_ckpt.OFF_VERSION, 99)
        open(bad, "wb").write(bytes(b))
        want = f"checkpoint format version 99, which this gale does not know; it reads version {gale_ckpt.VERSION} only"
    elif kind == "older_version":  # a consistent file of format version 1
        open(bad, "wb").write(ck.rewritten(version=1))
        want = (f"checkpoint format version 1; this gale reads version {gale_ckpt.VERSION} only. "
                "A version-1 file may not record every key that defines its experiment")
    elif kind == "unrecorded_key":  # a current file whose text lacks [dynamics], as version 1 could
        lines, keep = [], True
        for line in ck.config.split("\n"):
            if line.startswith("["):
                keep = line != "[dynamics]"
            if keep:
                lines.append(line)
        if len(lines) == len(ck.config.split("\n")):
            fail(f"{base} records no [dynamics] section")
        open(bad, "wb").write(ck.rewritten(config="\n".join(lines)))
        want = "does not record [dynamics] mass_matrix, "
    elif kind in ("fifo", "directory"):  # refused by type, before an open that would block
        if os.path.lexists(bad):
            shutil.rmtree(bad) if os.path.isdir(bad) else os.remove(bad)
        os.mkfifo(bad) if kind == "fifo" else os.mkdir(bad)
        want = "not a regular file (%s)" % ("a pipe" if kind == "fifo" else "a directory")
    elif kind in FORGED:  # an impossible value, the checksums made consistent again
        what, want = FORGED[kind]
        b = bytearray(data)
        if what[0] == "config":
            b = bytearray(ck.rewritten(config=what[1](ck.config)))
        else:
            struct.pack_into(what[0], b, what[1], what[2])
        open(bad, "wb").write(gale_ckpt.Checkpoint(bytes(b), bad).rewritten())
    elif kind == "not_checkpoint":
        open(bad, "w").write("[mesh]\nname = C12\n")
        want = "not a gale checkpoint"
    elif kind == "missing":
        bad = os.path.join(d, "no_such_file.ckpt")
        want = "cannot open"
    elif kind == "wrong_mesh":   # a C12 checkpoint restarted with mesh C8
        shutil.copy(base, bad)
        extra = ["--mesh.name=C8"]
        want = "[mesh] name = C12 in the file, C8 here"
    elif kind == "wrong_dt":
        shutil.copy(base, bad)
        extra = ["--timestepping.dt=50"]
        want = "[timestepping] dt = 100 in the file, 50 here"
    elif kind == "wrong_operator":
        shutil.copy(base, bad)
        extra = ["--dynamics.mass_matrix=consistent"]  # after CASE's lumped: it wins
        want = "[dynamics] mass_matrix = lumped in the file, consistent here"
    elif kind == "beyond_steps":
        shutil.copy(base, bad)
        extra = ["--timestepping.steps=2"]
        want = "beyond [timestepping] steps = 2"
    else:
        fail(f"unknown kind {kind}")
    try:
        r, codes = run(2, extra + ["--restart", bad])
    except subprocess.TimeoutExpired:
        fail(f"{kind}: gale did not end within {TIMEOUT} s (a hang)")
    errs = [l for l in r.stderr.splitlines() if l.startswith("gale: error")]
    if codes != {0: 2, 1: 2}:
        fail(f"{kind}: expected exit 2 on both ranks, got {codes} (mpiexec {r.returncode})", r)
    if len(errs) != 1 or bad not in errs[0] or want not in errs[0]:
        fail(f"{kind}: expected one error naming '{bad}' and '{want}'", r)
    print(f"check_restart refuse {kind}: {errs[0]}")

elif mode == "bad_dir":
    # [checkpoint] dir that cannot be created (under a regular file: works as root too)
    d = os.path.join(work, "bad_dir")
    os.makedirs(d, exist_ok=True)
    blocker = os.path.join(d, "a_file")
    open(blocker, "w").write("x")
    r, codes = run(2, ["--checkpoint.period=4", f"--checkpoint.dir={blocker}/ck"])
    errs = [l for l in r.stderr.splitlines() if l.startswith("gale: error")]
    if codes != {0: 2, 1: 2} or len(errs) != 1 or "[checkpoint] dir" not in errs[0]:
        fail(f"bad [checkpoint] dir: codes {codes}", r)
    if "step " in r.stdout:
        fail("the run started despite an unusable checkpoint directory", r)
    print(f"check_restart bad_dir: {errs[0]}")

elif mode == "fault":
    d = os.path.join(work, "fault")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    ck = os.path.join(d, "ck")
    r, codes = run(2, ["--checkpoint.period=4", f"--checkpoint.dir={ck}"],
                   env={"GALE_CKPT_FAULT": "2"})
    if r.returncode == 0 or any(c == 0 for c in codes.values()):
        fail(f"a failed checkpoint write did not stop the run (codes {codes})", r)
    if "injected fault" not in r.stderr or "gale_ckpt_000008.ckpt" not in r.stderr:
        fail("no message naming the failed checkpoint", r)
    names = sorted(os.listdir(ck))
    if names != ["gale_ckpt_000004.ckpt"]:
        fail(f"after a failed write the directory holds {names} (want the step-4 file only)")
    r, codes = run(2, ["--restart", os.path.join(ck, names[0])])
    if r.returncode != 0:
        fail("the checkpoint before the failure does not restart", r)
    print("check_restart fault: run stopped, no partial file, earlier checkpoint restarts")

elif mode == "same_step":
    # output, a checkpoint and the last step on one step, with [io] mode =
    # args[0]; the restart from that checkpoint continues bit for bit
    iomode = args[0]
    d = os.path.join(work, f"same_step_{iomode}")
    shutil.rmtree(d, ignore_errors=True)
    out = ["--diagnostics.fields=p,w,b,u", "--diagnostics.period=5", f"--io.mode={iomode}"]
    runs = {"first": ["--timestepping.steps=10", "--checkpoint.period=10"],
            "straight": ["--timestepping.steps=14", "--checkpoint.period=10"],
            "restart": ["--timestepping.steps=14", "--restart",
                        os.path.join(d, "first", "ck", "gale_ckpt_000010.ckpt")]}
    rep = {}
    for name, extra in runs.items():
        rd = os.path.join(d, name)
        os.makedirs(rd)
        r, codes = run(2, out + extra + [f"--io.dir={rd}/out", f"--checkpoint.dir={rd}/ck",
                                         f"--report={rd}/report.json"])
        if r.returncode != 0 or codes != {0: 0, 1: 0}:
            fail(f"{iomode}: the {name} run failed (codes {codes})", r)
        left = [f for _, _, fs in os.walk(rd) for f in fs if f.endswith(".tmp")]
        if left:
            fail(f"{iomode}: the {name} run left {left}")
        rep[name] = json.load(open(os.path.join(rd, "report.json")))
        # every second in one timer category: "other" (a rank's wall less
        # its categories) is never negative; output and checkpoints counted
        t = rep[name]["timers"]
        if t["other"]["min_s"] < 0:
            fail(f"{iomode}: the {name} run's timers: other min {t['other']['min_s']} < 0 "
                 "(a category counted twice)")
        if name != "restart" and (t["io_handoff"]["count"] == 0 or t["checkpoint"]["count"] == 0):
            fail(f"{iomode}: the {name} run's timers count no output or no checkpoint: {t}")
    if not os.path.exists(runs["restart"][-1]):
        fail(f"{iomode}: no checkpoint at step 10")
    nout = len([f for f in os.listdir(os.path.join(d, "first", "out")) if f.endswith(".nc")])
    if nout < 2:
        fail(f"{iomode}: the first run wrote {nout} output files at steps 5 and 10")
    diff = same_state(rep["straight"], rep["restart"])
    if diff:
        fail(f"{iomode}: restart from step 10 differs from the straight run in {diff}")
    print(f"check_restart same_step {iomode}: output + checkpoint + last step at step 10, "
          f"{nout} output files, restart to 14 bit for bit {rep['restart']['checksums']}")

elif mode == "hang":
    # The case that hung 2 of 6 times when the checkpoint's MPI-IO ran on the
    # model thread beside the writer's (docs/checkpoint.md): 2 ranks x 2
    # threads on 2 cores, output and a checkpoint at step 10, N times, each
    # under its own timeout. A hang is killed (the whole process group) and
    # fails the test.
    import signal
    import subprocess
    import time
    n = int(args[0])
    limit = float(args[1]) if len(args) > 1 else 60
    d = os.path.join(work, "hang")
    e = dict(os.environ, OMP_NUM_THREADS="2")
    times = []
    for i in range(n):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        cmd = [mpiexec, "-n", "2", gale, "run", "--mesh.name=C9", "--extrusion.levels=13",
               f"--io.dir={d}/out", "--diagnostics.fields=p,w,b,u", "--diagnostics.period=5",
               "--timestepping.steps=10", "--checkpoint.period=10", f"--checkpoint.dir={d}/ck",
               "--logging.progress_every=0"]
        t0 = time.time()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             env=e, start_new_session=True)
        try:
            log, _ = p.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            log, _ = p.communicate()
            sys.exit(f"check_restart hang: run {i + 1} of {n} hung (killed after {limit:.0f} s)"
                     f"\n{log[-3000:]}")
        times.append(time.time() - t0)
        if p.returncode != 0 or not os.path.exists(os.path.join(d, "ck", "gale_ckpt_000010.ckpt")):
            sys.exit(f"check_restart hang: run {i + 1} failed (exit {p.returncode})\n{log[-3000:]}")
    print(f"check_restart hang: {n} runs, none hung; {min(times):.1f}-{max(times):.1f} s each")

else:
    fail(f"unknown mode {mode}")
