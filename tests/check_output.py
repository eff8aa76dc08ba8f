#!/usr/bin/python3
"""Model output (docs/output.md): runs `gale run` on the default case and reads
the files back with ncdump (structure) and Python's netCDF4 (values).

usage: check_output.py GALE NCDUMP MPIEXEC WORKDIR CASE [ARGS]
cases:
  values MODE SYNC [--io.KEY=VALUE ...]
                       files of layout MODE (shared|per_rank|aggregated), SYNC
                       true|false: the last output equals the model's state
                       (sum(x*x) against the report's checksum_values, the
                       energy_density sum against energy.final), XDMF valid;
                       with chunk_columns and MPI-IO hints: both applied
  enospc_abort         GALE_IO_FAULT=enospc@2, on_error=abort: every rank stops
                       non-zero, the message names the file, nothing left behind
  enospc_continue      a later file fails, on_error=continue: the run completes
  rank_fails           per_rank, one rank's file cannot be created (its .tmp is
                       a directory): every rank stops at the next hand-off
  bad_dir              [io] dir cannot be a directory (read-only, or a path
                       through a file when running as root): abort and continue
  bad_fields           unknown field, bad period, bad GALE_IO_FAULT"""
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import netCDF4
import numpy as np

gale, ncdump, mpiexec, work, case, args = (sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4],
                                           sys.argv[5], sys.argv[6:])
FIELDS = "u,w,b,p,energy_density,b_level5@2,w_level3@200s,p_colint@3,p_level0"


def run(tag, *overrides, env=None, expect_ok=True, prepare=None, rank1_env=""):
    """Runs the default case (12 steps) on 2 ranks; returns (result, report,
    out dir). prepare(out) runs first; rank1_env ("NAME=VALUE") is set on
    rank 1 alone (the launcher's rank variable, as ranks.py reads it)."""
    d = os.path.join(work, tag)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    out, report = os.path.join(d, "out"), os.path.join(d, "report.json")
    if prepare:
        prepare(out)
    one = ['sh', '-c', 'case ${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:-0}}} in 1) '
           f'export {rank1_env};; esac; exec "$@"', 'sh'] if rank1_env else []
    cmd = [mpiexec, "-n", "2", *one, gale, "run", os.path.join(os.path.dirname(__file__), "..",
                                                          "configs", "default.ini"),
           "--timestepping.steps=12", "--logging.progress_every=0", f"--io.dir={out}",
           f"--diagnostics.fields={FIELDS}", "--diagnostics.period=6", "--report", report,
           *overrides]
    e = dict(os.environ, OMP_NUM_THREADS="1", **(env or {}))
    r = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=120)
    if expect_ok:
        assert r.returncode == 0, f"{cmd}\n{r.stdout}\n{r.stderr}"
        with open(report) as f:
            rep = json.load(f)
        return r, rep, out
    return r, None, out


def leftovers(out):
    return glob.glob(os.path.join(out, "*.tmp"))


def sumsq(a):
    return math.fsum(np.square(np.asarray(a, dtype=np.float64)).ravel())


def rel(a, b):
    return abs(a - b) / max(abs(b), 1e-300)


def global_fields(out, mode, step, nface, nedge):
    """The fields of output `step` as global (time, row, ...) arrays."""
    if mode == "shared":
        with netCDF4.Dataset(os.path.join(out, f"gale_{step:06d}.nc")) as ds:
            return {k: np.asarray(v[:]) for k, v in ds.variables.items()}, ds.ncattrs()
    files = sorted(glob.glob(os.path.join(out, f"gale_{step:06d}_[rg]*.nc")))
    assert files, f"no {mode} files for step {step} in {out}"
    glob_ = {}
    seen = {"face": np.zeros(nface, int), "edge": np.zeros(nedge, int)}
    for fn in files:
        with netCDF4.Dataset(fn) as ds:
            assert ds.output_layout == mode and ds.mesh_file == "mesh.nc"
            gid = {"face": np.asarray(ds["face_global_id"][:]),
                   "edge": np.asarray(ds["edge_global_id"][:]) if "edge_global_id" in ds.variables
                   else np.zeros(0, int)}
            for loc in gid:
                seen[loc][gid[loc]] += 1
            for k, v in ds.variables.items():
                if "location" not in v.ncattrs():
                    continue
                a = np.asarray(v[:])
                n = nface if v.location == "face" else nedge
                g = glob_.setdefault(k, np.full((1, n) + a.shape[2:], np.nan))
                g[:, gid[v.location]] = a
    # the rows of all files cover every face and edge exactly once
    assert (seen["face"] == 1).all() and (seen["edge"] == 1).all(), "rows missing or repeated"
    return glob_, None


def check_xdmf(out, step):
    """Every dataset the sidecar references exists with the shape it states,
    and the topology sizes agree with the attributes and the points."""
    x = os.path.join(out, f"gale_{step:06d}.xmf")
    root = ET.parse(x).getroot()
    assert root.tag == "Xdmf"
    grids = root.findall("./Domain/Grid")
    assert grids, "no grids"
    for g in grids:
        topo = g.find("Topology")
        ncell = int(topo.get("NumberOfElements"))
        shapes = {}
        for item in g.iter("DataItem"):
            fname, path = item.text.strip().split(":")
            dims = tuple(int(d) for d in item.get("Dimensions").split())
            with netCDF4.Dataset(os.path.join(out, fname)) as ds:
                var = ds[path.lstrip("/")]
                assert var.shape == dims, (x, item.text, var.shape, dims)
                if item in list(topo):
                    conn = np.asarray(var[:])
                    shapes["conn_max"] = conn.max()
                if item in list(g.find("Geometry")):
                    shapes["npoints"] = dims[0]
            assert item.get("Format") == "HDF"
        assert shapes["conn_max"] < shapes["npoints"]
        for att in g.findall("Attribute"):
            n = int(np.prod([int(d) for d in att.find("DataItem").get("Dimensions").split()]))
            assert n == ncell, (att.get("Name"), n, ncell)
        assert float(g.find("Time").get("Value")) > 0


def case_values(mode, sync, *extra):
    r, rep, out = run(f"values_{mode}_{sync}", f"--io.mode={mode}", f"--io.synchronous={sync}",
                      *extra)
    opts = dict(e[2:].split("=", 1) for e in extra)
    hints = [line for line in r.stdout.splitlines() if "MPI-IO hints in effect" in line]
    assert len(hints) == (mode == "shared"), r.stdout
    for key in ("cb_nodes", "cb_buffer_size", "romio_cb_write"):
        if "io." + key in opts:
            assert f"{key}={opts['io.' + key]}" in hints[0], (key, hints)
    io = rep["io"]
    # the report: each hint gale set, asked and kept (what the open file says)
    asked = {k: opts["io." + k] for k in ("cb_nodes", "cb_buffer_size", "romio_cb_write",
                                          "striping_factor", "striping_unit") if "io." + k in opts}
    got = {h["key"]: h for h in io["hints"]}
    assert set(got) == (set(asked) if mode == "shared" else set()), (got, asked)
    for k, v in asked.items():
        if mode == "shared":
            kept = f"{k}={got[k]['kept']}" if got[k]["kept"] is not None else None
            assert got[k]["asked"] == v and kept == (f"{k}={v}" if f"{k}={v}" in hints[0] else None), \
                (k, got[k], hints)
    assert io["mode"] == mode and io["synchronous"] == (sync == "true") and not io["failed"], io
    for k in ("client_wait_pct", "writer_busy_pct"):
        assert set(io[k]) == {"min", "mean", "max"} and io[k]["min"] <= io[k]["max"], io[k]
    assert io["bytes"] > 0 and io["write_rate_MiB_s"] > 0, io
    assert "io: client wait" in r.stdout and "io: write rate" in r.stdout, r.stdout
    assert not leftovers(out), leftovers(out)
    files = set(os.path.relpath(f, out) for f in glob.glob(os.path.join(out, "*")))
    assert files == set(os.path.relpath(f, out) for f in io["files"]), (files, io["files"])
    n = 24
    nface, nedge = 6 * n * n, 12 * n * n

    # ncdump: the file's structure as netCDF sees it
    first = sorted(glob.glob(os.path.join(out, "gale_000012*.nc")))[0]
    head = subprocess.run([ncdump, "-h", first], capture_output=True, text=True, check=True).stdout
    if mode == "shared":
        want = ['Mesh2d:cf_role = "mesh_topology" ;', "Mesh2d_face_nodes:start_index = 0 ;",
                "Mesh2d_face_nodes:_FillValue = -1 ;",
                "double p(time, nMesh2d_face, full_levels) ;",
                "double u(time, nMesh2d_edge, full_levels) ;",
                "double w(time, nMesh2d_face, interface_levels) ;",
                "double energy_density(time, nMesh2d_face) ;",
                'p:mesh = "Mesh2d" ;', 'p:location = "face" ;', 'u:location = "edge" ;',
                ':Conventions = "CF-1.8 UGRID-1.0" ;',
                "double Mesh2d_face_xbnds(nMesh2d_face, Four) ;"]
    else:
        want = ["int face_global_id(nface) ;", "double p(time, nface, full_levels) ;",
                "double b(time, nface, interface_levels) ;", ':mesh_file = "mesh.nc" ;',
                "double Mesh2d_face_xbnds(nface, Four) ;", "double Mesh2d_face_area(nface) ;",
                'face_global_id:cdi = "ignore" ;']
    # the faces are cells for CF readers (CDO): coordinates with bounds, areas
    want += ['p:coordinates = "Mesh2d_face_x Mesh2d_face_y" ;',
             'p:cell_measures = "area: Mesh2d_face_area" ;',
             'energy_density:cell_measures = "area: Mesh2d_face_area" ;',
             'Mesh2d_face_x:bounds = "Mesh2d_face_xbnds" ;',
             'Mesh2d_face_y:bounds = "Mesh2d_face_ybnds" ;']
    want += ['time:units = "seconds since', "double time(time) ;", "full_levels = 10 ;",
             "interface_levels = 11 ;", ":configuration = \"# gale resolved configuration",
             'p:units = "m2 s-2" ;', "double b_level5(time, ", "double p_colint(time, "]
    for line in want:
        assert line in head, f"ncdump -h {first} lacks {line!r}:\n{head}"
    subprocess.run([ncdump, "-v", "time", first], capture_output=True, check=True)
    assert "u:cell_measures" not in head, "edges are not cells"
    if mode != "shared":
        # each file's faces are the rows of mesh.nc at their global ids
        faces = ("Mesh2d_face_x", "Mesh2d_face_y", "Mesh2d_face_xbnds", "Mesh2d_face_ybnds",
                 "Mesh2d_face_area")
        with netCDF4.Dataset(os.path.join(out, "mesh.nc")) as ds:
            mesh = {k: np.asarray(ds[k][:]) for k in faces}
        seen = 0
        for fn in glob.glob(os.path.join(out, "gale_000012_[rg]*.nc")):
            with netCDF4.Dataset(fn) as ds:
                gid = np.asarray(ds["face_global_id"][:])
                for k in faces:
                    assert np.array_equal(np.asarray(ds[k][:]), mesh[k][gid]), (fn, k)
                seen += len(gid)
        assert seen == nface, seen

    # which fields at which steps: p every 6 steps, b_level5 every 2,
    # w_level3 every 200 s = 2 steps, p_colint every 3
    with netCDF4.Dataset(first) as ds:
        assert float(ds["time"][0]) == 1200.0 and ds.step == 12
        chunks = int(opts.get("io.chunk_columns", 0))
        want = "contiguous" if not chunks else [1, chunks, 10]
        assert ds["p"].chunking() == want, (ds["p"].chunking(), want)
        assert "mode = " + mode in ds.configuration
    vars3 = {}
    for step in (3, 4, 6):
        g, _ = global_fields(out, mode, step, nface, nedge)
        vars3[step] = set(k for k in g if k in FIELDS.replace("@", ",").split(","))
    assert vars3[3] == {"p_colint"} and vars3[4] == {"b_level5", "w_level3"}, vars3
    assert vars3[6] == {"u", "w", "b", "p", "energy_density", "b_level5", "w_level3",
                        "p_colint", "p_level0"}, vars3

    # values: the last output is the model's final state
    g, _ = global_fields(out, mode, 12, nface, nedge)
    sums = rep["checksum_values"]
    for f in "uwbp":
        assert g[f].shape[:2] == (1, nedge if f == "u" else nface), (f, g[f].shape)
        assert rel(sumsq(g[f]), sums[f]) <= 1e-12, (f, sumsq(g[f]), sums[f])
    e = math.fsum(np.asarray(g["energy_density"], dtype=np.float64).ravel())
    assert rel(e, rep["energy"]["final"]) <= 1e-12, (e, rep["energy"]["final"])
    assert np.array_equal(g["b_level5"][0], g["b"][0][:, 5])
    assert np.array_equal(g["p_level0"][0], g["p"][0][:, 0])
    with netCDF4.Dataset(first) as ds:
        dz = np.diff(np.asarray(ds["interface_levels"][:]))
    terms = g["p"][0] * dz  # p_colint = sum_k p dz, to rounding of its terms
    assert np.all(abs(g["p_colint"][0] - terms.sum(axis=1)) <= 1e-13 * abs(terms).sum(axis=1))

    if mode == "shared":
        for step in (2, 3, 6, 12):
            check_xdmf(out, step)
        with netCDF4.Dataset(os.path.join(out, "mesh.nc")) as ds:
            assert ds["Mesh3d_node_xyz"].shape == ((6 * n * n + 2) * 11, 3)
    else:
        assert not glob.glob(os.path.join(out, "*.xmf"))


def no_final_file(out, name):
    assert not os.path.exists(os.path.join(out, name)), f"{name} exists under its final name"
    assert not leftovers(out), leftovers(out)


def case_enospc_abort():
    r, _, out = run("enospc_abort", "--io.xdmf=false", env={"GALE_IO_FAULT": "enospc@2"},
                    expect_ok=False)
    assert r.returncode != 0, r.stderr
    err = r.stderr
    assert "No space left on device" in err and "GALE_IO_FAULT=enospc@2" in err, err
    assert "gale_000002.nc was not written" in err, err
    assert "on_error = abort" in err, err
    for rank in (0, 1):  # every rank stopped with the error
        assert f"[rank {rank}]" in err, err
    no_final_file(out, "gale_000002.nc")
    assert not glob.glob(os.path.join(out, "gale_*")), os.listdir(out)


def case_enospc_continue():
    # shared without XDMF: 15 mesh and coordinate writes, then one per
    # variable; write 30 falls in the second file (step 3)
    r, rep, out = run("enospc_continue", "--io.xdmf=false", "--io.on_error=continue",
                      env={"GALE_IO_FAULT": "enospc@30"})
    assert "carries on without output" in r.stderr, r.stderr
    assert "gale_000003.nc was not written" in r.stderr, r.stderr
    assert rep["io"]["failed"] and "STOPPED AFTER A FAILURE" in r.stdout, rep["io"]
    assert os.path.exists(os.path.join(out, "gale_000002.nc"))
    with netCDF4.Dataset(os.path.join(out, "gale_000002.nc")) as ds:
        assert ds["b_level5"].shape == (1, 6 * 24 * 24)
    no_final_file(out, "gale_000003.nc")
    assert sorted(os.listdir(out)) == ["gale_000002.nc"], os.listdir(out)














def case_rank_fails():
    # rank 1's first write fails as a full disk would (a failure on one rank
    # only, in its first file, step 2's; rank 0's file of that step is whole)
    r, _, out = run("rank_fails", "--io.mode=per_rank", expect_ok=False,
                    rank1_env="GALE_IO_FAULT=enospc@1")
    # every rank agreed: one collective message from rank 0, status 9 (GALE_ERR_OUTPUT)
    assert r.returncode == 9, (r.returncode, r.stdout + r.stderr)
    assert "gale_000002_r00001.nc was not written" in r.stderr, r.stderr
    assert "[rank 0]" not in r.stderr.split("gale: error: output failed")[0], r.stderr
    assert r.stderr.count("gale: error: output failed") == 1, r.stderr
    assert not os.path.exists(os.path.join(out, "gale_000002_r00001.nc"))
    assert os.path.exists(os.path.join(out, "gale_000002_r00000.nc"))
    assert not leftovers(out), leftovers(out)


def case_bad_dir():
    base = os.path.join(work, "bad_dir")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    ro = os.path.join(base, "readonly")
    os.makedirs(ro)
    os.chmod(ro, 0o555)
    try:
        open(os.path.join(ro, "probe"), "w").close()
        os.remove(os.path.join(ro, "probe"))
        # root (or a file system ignoring modes): a path through a regular
        # file cannot be a directory for anyone
        open(os.path.join(base, "afile"), "w").close()
        bad = os.path.join(base, "afile", "out")
    except OSError:
        bad = os.path.join(ro, "out")
    for policy in ("abort", "continue"):
        r, _, _ = run(f"bad_dir_{policy}", f"--io.dir={bad}", f"--io.on_error={policy}",
                      expect_ok=False)
        if policy == "abort":
            assert r.returncode == 2, (r.returncode, r.stderr)
            assert "[io] dir" in r.stderr and bad in r.stderr, r.stderr
        else:
            assert r.returncode == 0, r.stderr
            assert "carries on without output" in r.stderr, r.stderr
    os.chmod(ro, 0o755)


def case_bad_fields():
    for fields, msg in (("p,foo", "unknown field 'foo'"),
                        ("b_level99", "unknown field 'b_level99'"),
                        ("p@0", "bad period '@0'"),
                        ("p@3x", "bad period '@3x'"),
                        ("p@150s", "not a whole number of time steps"),
                        ("p,p@2", "listed twice")):
        r, _, _ = run("bad_fields", f"--diagnostics.fields={fields}", expect_ok=False)
        assert r.returncode == 2 and msg in r.stderr, (fields, r.returncode, r.stderr)
        assert r.stderr.count("gale: error") == 1, r.stderr
        if "unknown" in msg:
            assert "valid: u, w, b, p, b_level<k> and w_level<k> (k = 0..10)" in r.stderr
    r, _, _ = run("bad_fields", env={"GALE_IO_FAULT": "full"}, expect_ok=False)
    assert r.returncode == 2 and "GALE_IO_FAULT" in r.stderr, r.stderr


{"values": lambda: case_values(*args), "enospc_abort": case_enospc_abort,
 "enospc_continue": case_enospc_continue, "rank_fails": case_rank_fails,
 "bad_dir": case_bad_dir, "bad_fields": case_bad_fields}[case]()
print(f"check_output {case} {' '.join(args)}: ok")
