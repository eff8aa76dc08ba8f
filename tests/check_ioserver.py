#!/usr/bin/python3
"""I/O servers (docs/output.md, "I/O servers"): `gale run` of the default case
at C24 with [io] servers, against the shared mode on 2 ranks, read back with
Python's netCDF4. Every run is oversubscribed (3 to 5 ranks on this machine's
2 cores), and every rank's exit status is recorded.

usage: check_ioserver.py GALE MPIEXEC WORKDIR CASE
cases:
  values    1 server with 2 and 3 clients, 2 servers in 2 pools with 1 and 2
            clients each, the job's last ranks: every file and variable of
            every output time equals the shared mode's, value for value; the
            report names servers, pools and the client buffer
  full      a client buffer of two pieces smaller than a field: the clients
            find it full (buffer_full_waits > 0, client wait > 0) and nothing
            is lost (the values equal the shared mode's)
  faults    a server's full disk (abort: every rank exits 9 with the message
            naming the file and the server, also when the last file fails
            after the clients' last piece; continue: the run completes,
            later output stopped); a server rank killed while it writes
            (mpiexec stops the job, non-zero, no hang); no final name left
            half-written in either
  refused   keys that cannot hold: exit 2 on every rank with a message"""
import glob
import json
import os
import shutil
import subprocess
import sys

import netCDF4
import numpy as np

gale, mpiexec, work, case = sys.argv[1:5]
CONFIG = os.path.join(os.path.dirname(__file__), "..", "configs", "default.ini")
FIELDS = "u,w,b,p,energy_density,b_level5@2"
STEPS = 6


def run(tag, n, *overrides, env=None, timeout=120):
    """`gale run` on n ranks; returns (result, report or None, out dir, {rank: exit})."""
    d = os.path.join(work, tag)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    out, report = os.path.join(d, "out"), os.path.join(d, "report.json")
    # each rank's own exit status, on stderr
    wrap = ['sh', '-c', '"$@"; rc=$?; echo "exit[${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-0}}]=$rc" >&2; '
            'exit $rc', 'sh']
    cmd = [mpiexec, "-n", str(n), *wrap, gale, "run", CONFIG, f"--timestepping.steps={STEPS}",
           "--logging.progress_every=0", f"--io.dir={out}", f"--diagnostics.fields={FIELDS}",
           "--diagnostics.period=3", "--report", report, *overrides]
    e = dict(os.environ, OMP_NUM_THREADS="1", **(env or {}))
    r = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=timeout)
    exits = {}
    for line in r.stderr.splitlines():
        if line.startswith("exit[") and "]=" in line:
            k, v = line[5:].split("]=")
            exits[int(k)] = int(v)
    rep = None
    if r.returncode == 0:
        with open(report) as f:
            rep = json.load(f)
    return r, rep, out, exits


def files(out):
    return sorted(os.path.basename(f) for f in glob.glob(os.path.join(out, "gale_*.nc")))


def assert_equal_output(ref, out):
    """Every output file of ref is in out with the same variables and values."""
    assert files(ref) == files(out), (files(ref), files(out))
    assert len(files(ref)) == 4, files(ref)  # steps 2, 3, 4, 6
    nvar = 0
    for f in files(ref):
        with netCDF4.Dataset(os.path.join(ref, f)) as a, netCDF4.Dataset(os.path.join(out, f)) as b:
            assert set(a.variables) == set(b.variables), (f, set(a.variables) ^ set(b.variables))
            for k in a.variables:
                x, y = np.asarray(a[k][:]), np.asarray(b[k][:])
                assert x.shape == y.shape and np.array_equal(x, y), (f, k)
                nvar += 1
            assert b.output_layout == "shared"
    return nvar


def reference():
    r, rep, out, _ = run("shared", 2)
    assert r.returncode == 0, r.stdout + r.stderr
    assert rep["io"]["servers"] == 0
    return out, rep


def case_values():
    ref, rrep = reference()
    layouts = [  # ranks, overrides, clients per server
        (3, ["--io.servers=1"], 2),
        (4, ["--io.servers=1"], 3),
        (3, ["--io.servers=2", "--io.pools=2"], 1),
        (4, ["--io.servers=2", "--io.pools=2"], 2),
        (5, ["--io.servers=2", "--io.server_placement=last"], 2),
        (5, ["--io.servers=2"], 2),
    ]
    for n, ov, per in layouts:
        tag = f"np{n}_" + "_".join(o.split(".")[1].replace("=", "") for o in ov)
        r, rep, out, exits = run(tag, n, *ov)
        assert r.returncode == 0 and exits == {k: 0 for k in range(n)}, (exits, r.stderr)
        io = rep["io"]
        servers = int(ov[0].split("=")[1])
        pools = int(ov[1].split("=")[1]) if "pools" in ov[-1] else 1
        assert io["servers"] == servers and io["pools"] == pools, io
        assert io["server_placement"] == ("last" if "last" in ov[-1] else "spread"), io
        # spread: the last rank of each of S equal blocks (rounded up); last: the last S
        want = ([n - servers + j for j in range(servers)] if "last" in ov[-1]
                else [-(-(j + 1) * n // servers) - 1 for j in range(servers)])
        assert io["server_ranks"] == want and 0 not in want, (io["server_ranks"], want)
        # the client buffer: [io] buffers x buffer_mib by default
        assert io["buffer_size"] == io["buffers"] * io["buffer_mib"] * 2**20, io
        assert "client_wait_pct" in io and io["client_wait_pct"]["max"] >= 0
        assert rep["ranks"] == n - servers, rep["ranks"]
        # the same values handed over, bytes and files as the shared mode's
        assert io["data_bytes"] == rrep["io"]["data_bytes"], (io["data_bytes"], rrep["io"]["data_bytes"])
        assert len(io["files"]) == len(rrep["io"]["files"]), (io["files"], rrep["io"]["files"])
        nvar = assert_equal_output(ref, out)
        assert f"{servers} I/O servers" in r.stdout, r.stdout
        print(f"{tag}: {n - servers} clients, {servers} servers in {pools} pools "
              f"({per} clients a server at most): {nvar} variables equal; client wait "
              f"{io['client_wait_pct']['max']:.2f} %")


def case_full():
    ref, _ = reference()
    # pieces of 8000 bytes, two in the ring: a client's u alone (about 2300
    # of C24's 6912 edges x 10 levels x 8 bytes = 184 kB) is some 23 pieces,
    # so its writer thread must hand pieces to the server while the model
    # still packs the field; the model finds the ring full whenever the
    # server has not yet taken the piece before last
    r, rep, out, exits = run("full", 4, "--io.servers=1", "--io.buffer_size=16000",
                             "--io.buffers=2")
    assert r.returncode == 0 and exits == {k: 0 for k in range(4)}, (exits, r.stderr)
    io = rep["io"]
    assert io["buffer_size"] == 16000, io
    assert io["buffer_full_waits"] > 0 and io["client_wait_pct"]["max"] > 0, io
    nvar = assert_equal_output(ref, out)
    print(f"full: the clients found the buffer full {io['buffer_full_waits']} times, "
          f"waited up to {io['client_wait_pct']['max']:.2f} %; {nvar} variables equal")


def no_half_files(out):
    """Every file under a final name opens and its values read back."""
    for f in files(out):
        with netCDF4.Dataset(os.path.join(out, f)) as ds:
            for k in ds.variables:
                assert np.isfinite(np.asarray(ds[k][:], dtype=float)).all(), (f, k)


def first_write(ref, step):
    """GALE_IO_FAULT's count of the server's first write to step's file: with
    one server and one piece a variable (64 MiB buffers), a shared file takes
    one write a variable but the UGRID container Mesh2d (no data), and XDMF
    off writes no mesh.nc: one plus the earlier files' writes, counted in the
    shared mode's files."""
    n = 1
    for f in files(ref):
        if f == f"gale_{step:06d}.nc":
            return n
        with netCDF4.Dataset(os.path.join(ref, f)) as ds:
            n += len(ds.variables) - ("Mesh2d" in ds.variables)
    raise AssertionError(f"no file of step {step} in {ref}")


def case_faults():
    ref, _ = reference()
    at3, at6 = first_write(ref, 3), first_write(ref, 6)
    # step 3's file fails at its first write
    r, _, out, exits = run("enospc_abort", 3, "--io.servers=1", "--io.xdmf=false",
                           env={"GALE_IO_FAULT": f"enospc@{at3}"})
    assert r.returncode != 0 and exits == {0: 9, 1: 9, 2: 9}, (exits, r.stderr)
    abort_exits = exits
    err = r.stderr
    assert "No space left on device" in err and "gale_000003.nc was not written" in err, err
    assert "I/O server rank 2 stopped writing" in err, err
    assert "stopping the run on every rank" in err, err
    assert not os.path.exists(os.path.join(out, "gale_000003.nc"))
    assert not glob.glob(os.path.join(out, "*.tmp")), os.listdir(out)
    no_half_files(out)

    # the last file (step 6's) fails, likely after the clients' last piece:
    # they learn it when the server reports at the end
    r, _, out, exits = run("enospc_last", 3, "--io.servers=1", "--io.xdmf=false",
                           env={"GALE_IO_FAULT": f"enospc@{at6}"})
    assert exits == {0: 9, 1: 9, 2: 9}, (exits, r.stderr)
    assert "gale_000006.nc was not written" in r.stderr, r.stderr
    for rank in (0, 1):
        assert f"[rank {rank}] " in r.stderr and "I/O server rank 2 stopped writing" in r.stderr, r.stderr
    assert files(out) == ["gale_000002.nc", "gale_000003.nc", "gale_000004.nc"], files(out)
    no_half_files(out)

    r, rep, out, exits = run("enospc_continue", 3, "--io.servers=1", "--io.xdmf=false",
                             "--io.on_error=continue", env={"GALE_IO_FAULT": f"enospc@{at3}"})
    assert r.returncode == 0 and exits == {0: 0, 1: 0, 2: 0}, (exits, r.stderr)
    assert rep["io"]["failed"] and "carries on without output" in r.stderr, rep["io"]
    assert files(out) == ["gale_000002.nc"], files(out)
    no_half_files(out)

    # a server rank dies while it writes (step 3's file): the launcher ends the job
    r, _, out, exits = run("killed", 4, "--io.servers=1", "--io.xdmf=false",
                           env={"GALE_IO_FAULT": f"kill@{at3}"})
    assert r.returncode != 0, r.stderr
    assert "killed writing" in r.stderr and "gale_000003.nc.tmp" in r.stderr, r.stderr
    assert 3 not in exits or exits[3] != 0, exits
    no_half_files(out)
    print(f"faults: a server's full disk: exits {abort_exits} (abort); continue kept "
          f"gale_000002.nc; a killed server ended the job with status {r.returncode}")


def case_refused():
    bad = [
        (2, ["--io.servers=2"], "leaves no rank of the 2 for the model"),
        (3, ["--io.servers=2"], "a pool has more servers than the 1 ranks left"),
        (4, ["--io.servers=3", "--io.pools=2"], "servers must divide into pools"),
        (2, ["--io.pools=2"], "applies to I/O servers only"),
        (2, ["--io.buffer_size=1000000"], "applies to I/O servers only"),
        (3, ["--io.servers=1", "--io.mode=per_rank"], "I/O servers write the shared layout"),
        (3, ["--io.servers=1", "--io.buffer_size=100", "--io.buffers=2"],
         "cannot hold one column of 11 levels"),
    ]
    for n, ov, msg in bad:
        r, _, _, exits = run("refused", n, *ov)
        assert exits == {k: 2 for k in range(n)}, (ov, exits, r.stderr)
        assert msg in r.stderr, (ov, r.stderr)
    print(f"refused: {len(bad)} bad settings, exit 2 on every rank")


{"values": case_values, "full": case_full, "faults": case_faults,
 "refused": case_refused}[case]()
