#!/usr/bin/python3
"""gale's output in the climate tools (docs/output.md, "CDO and xarray"):
Debian's CDO takes the faces of every output layout for cells, with gale's
own areas, and xarray sees the bounds and the cell measure.

The run: configs/baroclinic_wave.ini (the nonlinear core, Earth-sized) on
C12, 2 ranks, 2 steps, writing surface_pressure, once per [io] mode
(shared; per_rank; aggregated as one group of both ranks, whose file holds
the whole sphere member after member, not in global id order).

gale's own mean. Neither the run report nor the nonlinear budgets give an
area-weighted mean of surface_pressure (the budgets have its min and max),
so the reference is computed here from what gale wrote, its values and its
face areas (Mesh2d_face_area), as exact sums (math.fsum). The areas are
checked against numbers that do not come from gale's area code:
  - they sum to the model sphere's 4 pi r^2 (r = radius / scaling of the
    resolved configuration) to 1e-12;
  - each is the spherical quadrilateral of its face's written bounds (two
    signed triangles of the corners' unit vectors) to 1e-12, so bounds and
    areas describe the same cells and the corners run anticlockwise;
and the values are the model's: their min and max equal the report's
nonlinear ps_min and ps_max bit for bit, and every layout holds the same
value for each face (by face_global_id).

What CDO must do with each global file (the shared one, the aggregated one,
and per_rank's files joined by `cdo collgrid`):
  - griddes: one unstructured grid of 6 N^2 cells with nvertex = 4; sinfon
    lists surface_pressure only (the UGRID arrays carry cdi = "ignore") and,
    where the file has them, "cellbounds area";
  - the cell areas CDO carries (cdo gridweights) are gale's bit for bit: CDO
    read cell_measures (from the bounds alone it computes areas on its own
    6371000 m sphere, 7e-5 off); its weights are gale's normalised areas to
    1e-12 (per_rank+collgrid: CDO's areas from the bounds);
  - fldmean equals gale's mean to 1e-12 relative;
  - remapcon,r90x45 then fldmean keeps the mean to 1e-6 relative (CDO's
    fldmean weighs lon-lat cells as great-circle quadrilaterals, which
    costs ~1e-7 here); the remapped field weighed with the exact lon-lat
    cell areas keeps it to 1e-10: conservation, which needs bounds that
    tile the sphere with gale's areas;
  - no warning at all (e.g. "Grid cell bounds not available", "corner
    coordinates missing").
Each per-rank file on its own: fldmean is that file's mean (1e-12).

xarray opens the shared and a per-rank file and, with decode_coords="all",
takes the bounds and the area for coordinates. ncdump and the XDMF sidecars
of every layout are checked by check_output.py.

usage: check_cdo.py GALE MPIEXEC WORKDIR
Exit 0 on success, 77 (skipped) without cdo or xarray, 1 on a failure."""
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
import warnings

T0 = time.time()
gale, mpiexec, work = sys.argv[1:4]
if not shutil.which("cdo"):
    print("SKIPPED: cdo not found (Debian package cdo, which tools/install-deps installs)")
    sys.exit(77)
try:
    import netCDF4
    import numpy as np
    import xarray
except ImportError as e:
    print(f"SKIPPED: {e} (Debian packages python3-netcdf4 and python3-xarray, which "
          "tools/install-deps installs)")
    sys.exit(77)
# Mesh2d's geometry = "spherical" (LFRic's attribute) is, to xarray's
# decode_coords="all", a CF geometry container that is missing
warnings.filterwarnings("ignore", "Variable.*referenced in geometry not in variables")

N, STEPS = 12, 2
NFACE = 6 * N * N
CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs",
                      "baroclinic_wave.ini")
numbers = {}


def fail(msg):
    sys.exit(f"check_cdo: FAIL: {msg}")


def check(ok, msg):
    if not ok:
        fail(msg)


def rel(a, b):
    return abs(a - b) / abs(b)


def run_gale(mode):
    """Runs the case with [io] mode; returns (output dir, report)."""
    d = os.path.join(work, mode)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    out, report = os.path.join(d, "out"), os.path.join(d, "report.json")
    cmd = [mpiexec, "-n", "2", gale, "run", CONFIG, f"--mesh.name=C{N}",
           f"--timestepping.steps={STEPS}", f"--io.dir={out}", f"--io.mode={mode}",
           "--diagnostics.fields=surface_pressure", f"--diagnostics.period={STEPS}",
           "--logging.progress_every=0", "--report", report]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, OMP_NUM_THREADS="1"))
    check(r.returncode == 0, f"{cmd} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    with open(report) as f:
        return out, json.load(f)


def cdo(*args):
    """Runs cdo; fails on a non-zero exit or any warning. Returns stdout."""
    r = subprocess.run(["cdo", *args], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, f"cdo {' '.join(args)} failed:\n{r.stdout}{r.stderr}")
    for bad in ("Warning", "Abort", "bounds not available", "corner coordinates missing"):
        check(bad not in r.stdout + r.stderr,
              f"cdo {' '.join(args)} says '{bad}':\n{r.stdout}{r.stderr}")
    return r.stdout


def cdo_value(*args):
    """The one number that `cdo outputf` prints for a one-value field."""
    vals = cdo("outputf,%.17g", *args).split()
    check(len(vals) == 1, f"cdo {' '.join(args)}: want one value, got {vals}")
    return float(vals[0])


def faces(fn):
    """A file's face rows: values, areas, bounds [deg], global ids."""
    with netCDF4.Dataset(fn) as ds:
        g = {k: np.asarray(ds[k][:]) for k in ("Mesh2d_face_area", "Mesh2d_face_xbnds",
                                               "Mesh2d_face_ybnds")}
        g["ps"] = np.asarray(ds["surface_pressure"][0])
        g["gid"] = (np.asarray(ds["face_global_id"][:]) if "face_global_id" in ds.variables
                    else np.arange(len(g["ps"])))
        check(ds["surface_pressure"].cell_measures == "area: Mesh2d_face_area", fn)
        check(ds["surface_pressure"].coordinates == "Mesh2d_face_x Mesh2d_face_y", fn)
        check(ds["Mesh2d_face_x"].bounds == "Mesh2d_face_xbnds" and
              ds["Mesh2d_face_y"].bounds == "Mesh2d_face_ybnds", fn)
        check(ds["Mesh2d_face_area"].units == "m2" and
              ds["Mesh2d_face_area"].standard_name == "cell_area", fn)
    return g


def quad_area(bx, by, r):
    """Spherical quadrilaterals of the corners (great-circle sides), signed:
    positive when the corners run anticlockwise seen from outside."""
    lo, la = np.radians(bx), np.radians(by)
    q = np.stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)], axis=-1)
    dot = lambda u, v: np.einsum("ij,ij->i", u, v)

    def tri(a, b, c):  # Van Oosterom and Strackee
        return 2 * np.arctan2(dot(a, np.cross(b, c)), 1 + dot(a, b) + dot(b, c) + dot(c, a))

    return (tri(q[:, 0], q[:, 1], q[:, 2]) + tri(q[:, 0], q[:, 2], q[:, 3])) * r * r


def mean(g):
    return math.fsum((g["ps"] * g["Mesh2d_face_area"]).tolist()) / math.fsum(
        g["Mesh2d_face_area"].tolist())


def check_cdo_global(fn, ref, area, has_area, tag):
    """CDO on a file of the whole sphere; ref is gale's mean, area gale's
    face areas in the file's row order."""
    grid = cdo("griddes", fn)
    check(grid.count("gridtype  = unstructured") == 1 and f"gridsize  = {NFACE}\n" in grid
          and re.search(r"^nvertex\s*=\s*4$", grid, re.M) and "gridID 2" not in grid,
          f"{tag}: cdo griddes: want one unstructured grid of {NFACE} cells, nvertex 4:\n"
          f"{grid[:600]}")
    info = cdo("sinfon", fn)
    table = info.split("Parameter name", 1)[-1].split("Grid coordinates", 1)[0]
    names = re.findall(r" : (\S+)\s*$", table, re.M)
    check(names == ["surface_pressure"], f"{tag}: cdo sinfon lists {names}:\n{info}")
    want = "cellbounds area" if has_area else "cellbounds"
    check(re.search(r"available : " + want + r"\s*$", info, re.M), f"{tag}: sinfon:\n{info}")
    tmp = os.path.join(work, f"{tag}_tmp")
    os.makedirs(tmp, exist_ok=True)
    for f in glob.glob(os.path.join(tmp, "*")):
        os.remove(f)
    # the weights of fldmean, and the areas they come from, as CDO has them
    gw = os.path.join(tmp, "gridweights.nc")
    cdo("gridweights", fn, gw)
    with netCDF4.Dataset(gw) as ds:
        w = np.asarray(ds["cell_weights"][:])
        cdo_area = np.asarray(ds["cell_area"][:]) if "cell_area" in ds.variables else None
    werr = np.abs(w / (area / math.fsum(area.tolist())) - 1).max()
    numbers[f"{tag} cdo weights"] = werr
    check(werr <= 1e-12, f"{tag}: cdo gridweights differ from gale's areas by {werr:.1e}")
    if has_area:  # CDO read cell_measures: its areas are gale's, bit for bit
        check(cdo_area is not None and np.array_equal(cdo_area, area),
              f"{tag}: CDO's cell areas are not the file's Mesh2d_face_area (cell_measures unread)")
    fm = cdo_value("-fldmean", fn)
    numbers[f"{tag} fldmean"] = rel(fm, ref)
    check(rel(fm, ref) <= 1e-12, f"{tag}: cdo fldmean {fm!r} != gale's mean {ref!r} "
          f"(rel {rel(fm, ref):.2e} > 1e-12)")
    rc = os.path.join(tmp, "r90x45.nc")
    cdo("remapcon,r90x45", fn, rc)
    rm = cdo_value("-fldmean", rc)
    numbers[f"{tag} remapcon"] = rel(rm, ref)
    check(rel(rm, ref) <= 1e-6, f"{tag}: remapcon,r90x45 then fldmean {rm!r} != {ref!r} "
          f"(rel {rel(rm, ref):.2e} > 1e-6)")
    with netCDF4.Dataset(rc) as ds:
        v, lat = np.asarray(ds["surface_pressure"][0]), np.asarray(ds["lat"][:])
    check(v.shape == (45, 90) and np.isfinite(v).all(), f"{tag}: remapped {v.shape}")
    # exact lon-lat areas: r90x45's rows are centred on -90..90, so their
    # edges are the midpoints, clipped at the poles
    edge = np.radians(np.concatenate([[-90.0], (lat[1:] + lat[:-1]) / 2, [90.0]]))
    w = np.sin(edge[1:]) - np.sin(edge[:-1])
    ex = math.fsum((v * w[:, None]).ravel().tolist()) / (math.fsum(w.tolist()) * v.shape[1])
    numbers[f"{tag} remapcon exact"] = rel(ex, ref)
    check(rel(ex, ref) <= 1e-10, f"{tag}: the remapped field's exact mean {ex!r} != {ref!r} "
          f"(rel {rel(ex, ref):.2e} > 1e-10): remapcon was not conservative")


# ---- the runs and gale's numbers ----
runs = {mode: run_gale(mode) for mode in ("shared", "per_rank", "aggregated")}
planet = runs["shared"][1]["config"]["resolved"]["planet"]
r = planet["radius"] / planet["scaling"]
sphere = 4 * math.pi * r * r
files = {"shared": [os.path.join(runs["shared"][0], f"gale_{STEPS:06d}.nc")],
         "per_rank": sorted(glob.glob(os.path.join(runs["per_rank"][0], f"gale_{STEPS:06d}_r*.nc"))),
         "aggregated": sorted(glob.glob(os.path.join(runs["aggregated"][0],
                                                     f"gale_{STEPS:06d}_g*.nc")))}
check(len(files["per_rank"]) == 2 and len(files["aggregated"]) == 1, files)
ref = None
psglobal = {}
for mode, fns in files.items():
    rep = runs[mode][1]
    whole = {"ps": [], "Mesh2d_face_area": [], "gid": []}
    for fn in fns:
        g = faces(fn)
        q = quad_area(g["Mesh2d_face_xbnds"], g["Mesh2d_face_ybnds"], r)
        err = np.abs(q / g["Mesh2d_face_area"] - 1).max()
        check(q.min() > 0 and err <= 1e-12,
              f"{fn}: areas are not the quadrilaterals of the bounds (rel {err:.1e})")
        for k in whole:
            whole[k].append(g[k])
    whole = {k: np.concatenate(v) for k, v in whole.items()}
    check(np.array_equal(np.sort(whole["gid"]), np.arange(NFACE)), f"{mode}: faces {NFACE}?")
    total = math.fsum(whole["Mesh2d_face_area"].tolist())
    check(rel(total, sphere) <= 1e-12, f"{mode}: areas sum to {total!r}, the sphere of radius "
          f"{r} has {sphere!r} (rel {rel(total, sphere):.1e})")
    nl = rep["nonlinear"]
    check(whole["ps"].min() == nl["ps_min"] and whole["ps"].max() == nl["ps_max"],
          f"{mode}: surface_pressure {whole['ps'].min()!r}..{whole['ps'].max()!r}, the report "
          f"{nl['ps_min']!r}..{nl['ps_max']!r}")
    ps = np.empty(NFACE)
    ps[whole["gid"]] = whole["ps"]
    psglobal[mode] = ps
    m = mean(whole)
    if ref is None:
        ref = m
    check(m == ref, f"{mode}: mean {m!r} != shared's {ref!r}")
for mode in ("per_rank", "aggregated"):
    check(np.array_equal(psglobal[mode], psglobal["shared"]), f"{mode} values != shared's")
numbers["areas vs 4 pi r^2"] = rel(total, sphere)

# ---- CDO ----
for mode in ("shared", "aggregated"):
    check_cdo_global(files[mode][0], ref, faces(files[mode][0])["Mesh2d_face_area"], True, mode)
for fn in files["per_rank"]:
    info = cdo("sinfon", fn)
    check(re.search(r"available : cellbounds area\s*$", info, re.M), f"{fn}: sinfon:\n{info}")
    own = mean(faces(fn))
    fm = cdo_value("-fldmean", fn)
    check(rel(fm, own) <= 1e-12, f"{fn}: cdo fldmean {fm!r} != the file's mean {own!r}")
coll = os.path.join(work, "per_rank_collgrid.nc")
if os.path.exists(coll):
    os.remove(coll)
cdo("collgrid", *files["per_rank"], coll)
# collgrid puts the files' rows one after the other, without the areas
part = [faces(fn) for fn in files["per_rank"]]
with netCDF4.Dataset(coll) as ds:
    check(np.array_equal(np.asarray(ds["Mesh2d_face_x"][:]), np.concatenate(
        [np.asarray(netCDF4.Dataset(fn)["Mesh2d_face_x"][:]) for fn in files["per_rank"]])),
          "collgrid: rows not the files' one after the other")
check_cdo_global(coll, ref, np.concatenate([g["Mesh2d_face_area"] for g in part]), False,
                 "per_rank+collgrid")

# ---- xarray ----
for fn in (files["shared"][0], files["per_rank"][1]):
    with xarray.open_dataset(fn) as ds:
        check(ds["Mesh2d_face_x"].attrs["bounds"] == "Mesh2d_face_xbnds" and
              ds["Mesh2d_face_y"].attrs["bounds"] == "Mesh2d_face_ybnds", f"xarray: {fn}")
        check(ds["Mesh2d_face_xbnds"].shape == (ds.sizes[ds["Mesh2d_face_x"].dims[0]], 4),
              f"xarray: {fn}: {ds['Mesh2d_face_xbnds'].shape}")
    with xarray.open_dataset(fn, decode_coords="all") as ds:
        ps = ds["surface_pressure"]
        check({"Mesh2d_face_x", "Mesh2d_face_y", "Mesh2d_face_area"} <= set(ps.coords),
              f"xarray: {fn}: surface_pressure's coordinates {list(ps.coords)}")
        check({"Mesh2d_face_xbnds", "Mesh2d_face_ybnds"} <= set(ds.coords),
              f"xarray: {fn}: bounds not coordinates: {list(ds.coords)}")
        a = ds["Mesh2d_face_area"].values
        xm = math.fsum((ps.values[0] * a).tolist()) / math.fsum(a.tolist())
        check(xm == mean(faces(fn)), f"xarray: {fn}: mean {xm!r}")

print(f"check_cdo: gale's mean surface pressure {ref!r} Pa (C{N}, step {STEPS})")
for k, v in numbers.items():
    print(f"  rel. difference, {k}: {v:.2e}")
print(f"check_cdo: all checks passed in {time.time() - T0:.1f} s")
