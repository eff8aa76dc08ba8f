#!/usr/bin/python3
"""`gale mesh` writes C<N> as a UGRID-1.0 netCDF-4 file that ncdump and Python's
netCDF4 read, with consistent connectivity and geometry.
usage: check_mesh_file.py GALE NCDUMP N DIR [--radius R] [--scaling X]"""
import os
import subprocess
import sys

import netCDF4
import numpy as np

gale, ncdump, n, outdir, extra = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:]
opts = dict(zip(extra[::2], extra[1::2]))
radius = float(opts.get("--radius", 6371229.0)) / float(opts.get("--scaling", 125.0))
path = os.path.join(outdir, f"mesh_c{n}.nc")
for p in (path, path + ".tmp"):
    if os.path.exists(p):
        os.remove(p)

run = subprocess.run([gale, "mesh", "--mesh", f"C{n}", "--out", path, *extra],
                     capture_output=True, text=True)
assert run.returncode == 0, run.stderr
assert f"wrote C{n}" in run.stdout, run.stdout
assert os.path.exists(path) and not os.path.exists(path + ".tmp")

# ncdump: text attributes print as text, connectivity with fill and start index.
head = subprocess.run([ncdump, "-h", path], capture_output=True, text=True, check=True).stdout
for line in ('Mesh2d:cf_role = "mesh_topology" ;',
             "Mesh2d:topology_dimension = 2 ;",
             'Mesh2d:face_node_connectivity = "Mesh2d_face_nodes" ;',
             "int Mesh2d_face_nodes(nMesh2d_face, Four) ;",
             "Mesh2d_face_nodes:_FillValue = -1 ;",
             "Mesh2d_face_nodes:start_index = 0 ;",
             f'Mesh2d_face_area:units = "m2" ;',
             'Mesh2d_face_x:bounds = "Mesh2d_face_xbnds" ;',
             'Mesh2d_face_y:bounds = "Mesh2d_face_ybnds" ;',
             "double Mesh2d_face_xbnds(nMesh2d_face, Four) ;",
             'Mesh2d_face_nodes:cdi = "ignore" ;',
             f':mesh_name = "C{n}" ;'):
    assert line in head, f"ncdump -h lacks {line!r}:\n{head}"

F, E, V = 6 * n * n, 12 * n * n, 6 * n * n + 2
with netCDF4.Dataset(path) as ds:
    assert ds.data_model == "NETCDF4"
    dims = {k: len(d) for k, d in ds.dimensions.items()}
    assert dims == {"nMesh2d_node": V, "nMesh2d_edge": E, "nMesh2d_face": F, "Two": 2, "Four": 4}, dims
    assert "UGRID-1.0" in ds.Conventions and ds.mesh_name == f"C{n}" and ds.mesh_n == n
    assert abs(ds.radius - radius) <= 1e-15 * radius, (ds.radius, radius)
    assert f"name = C{n}" in ds.configuration

    mesh = ds["Mesh2d"]
    assert mesh.cf_role == "mesh_topology" and mesh.topology_dimension == 2
    ugrid = {"node_coordinates": "Mesh2d_node_x Mesh2d_node_y",
             "face_coordinates": "Mesh2d_face_x Mesh2d_face_y",
             "edge_coordinates": "Mesh2d_edge_x Mesh2d_edge_y",
             "face_node_connectivity": "Mesh2d_face_nodes",
             "edge_node_connectivity": "Mesh2d_edge_nodes",
             "face_edge_connectivity": "Mesh2d_face_edges",
             "edge_face_connectivity": "Mesh2d_edge_face_links",
             "face_face_connectivity": "Mesh2d_face_links"}
    for att, names in ugrid.items():
        assert getattr(mesh, att) == names, att
        for name in names.split():
            assert name in ds.variables, name
            if att.endswith("connectivity"):
                var = ds[name]
                assert var.cf_role == att and var.start_index == 0 and var._FillValue == -1
                assert var.dtype == np.int32
            else:
                var = ds[name]
                xy = name[-1]
                assert var.standard_name == ("longitude" if xy == "x" else "latitude")
                assert var.units == ("degrees_east" if xy == "x" else "degrees_north")
                # faces are cells (CF bounds), nodes and edges points that CDO skips
                if "face" in name:
                    assert var.bounds == f"Mesh2d_face_{xy}bnds" and "cdi" not in var.ncattrs()
                else:
                    assert var.cdi == "ignore" and "bounds" not in var.ncattrs(), name

    def get(name):
        a = ds[name][:]
        assert not np.ma.is_masked(a), f"{name} has fill values"
        return np.asarray(a)

    fn, en, fe = get("Mesh2d_face_nodes"), get("Mesh2d_edge_nodes"), get("Mesh2d_face_edges")
    ef, ff = get("Mesh2d_edge_face_links"), get("Mesh2d_face_links")
    area = ds["Mesh2d_face_area"]
    assert area.mesh == "Mesh2d" and area.location == "face" and area.units == "m2"
    assert "cdi" not in ds["Mesh2d_face_area"].ncattrs()
    area = get("Mesh2d_face_area")
    bnds = {xy: get(f"Mesh2d_face_{xy}bnds") for xy in "xy"}
    lon = {w: get(f"Mesh2d_{w}_x") for w in ("node", "edge", "face")}
    lat = {w: get(f"Mesh2d_{w}_y") for w in ("node", "edge", "face")}

# Ranges.
for a, hi in ((fn, V), (en, V), (fe, E), (ef, F), (ff, F)):
    assert a.min() >= 0 and a.max() < hi, (a.min(), a.max(), hi)
for w in lon:
    assert lon[w].min() >= -180 and lon[w].max() < 180 and abs(lat[w]).max() <= 90, w
assert V - E + F == 2
assert np.array_equal(np.bincount(fn.ravel(), minlength=V) > 0, np.ones(V, bool)), "unused node"
assert np.all(np.bincount(fe.ravel(), minlength=E) == 2), "every edge in exactly two faces"
assert np.all(np.sort(fn, axis=1)[:, 1:] != np.sort(fn, axis=1)[:, :-1]), "4 distinct nodes"

# Face edge k joins face nodes k and k+1; the edge's faces include the face and
# the face across edge k is its other face.
faces = np.arange(F)[:, None]
ends = np.sort(en[fe], axis=2)
want = np.sort(np.stack([fn, np.roll(fn, -1, axis=1)], axis=2), axis=2)
assert np.array_equal(ends, want), "face_edges inconsistent with face_nodes/edge_nodes"
pair = ef[fe]
assert np.all((pair[..., 0] == faces) | (pair[..., 1] == faces)), "edge_face misses the face"
other = np.where(pair[..., 0] == faces, pair[..., 1], pair[..., 0])
assert np.array_equal(other, ff), "face_links != the other face of each edge"
assert np.all(ef[:, 0] < ef[:, 1]), "edge faces ordered by id"

# Geometry: areas sum to the sphere, nodes anticlockwise seen from outside,
# centres inside their faces, edge points midway between their nodes.
def xyz(w):
    lo, la = np.radians(lon[w]), np.radians(lat[w])
    return np.stack([np.cos(la) * np.cos(lo), np.cos(la) * np.sin(lo), np.sin(la)], axis=-1)

# The faces' bounds are their nodes, in face_nodes order (the same bits).
assert np.array_equal(bnds["x"], lon["node"][fn]) and np.array_equal(bnds["y"], lat["node"][fn])
total = 4 * np.pi * radius ** 2
assert area.min() > 0 and abs(area.sum() - total) <= 1e-12 * total, (area.sum(), total)
# each face's area is the spherical quadrilateral of its bounds (great-circle
# sides; positive: anticlockwise seen from outside), as CDO computes cells
b = np.radians(bnds["x"]), np.radians(bnds["y"])
q = np.stack([np.cos(b[1]) * np.cos(b[0]), np.cos(b[1]) * np.sin(b[0]), np.sin(b[1])], axis=-1)


def triangle(a, b, c):  # signed solid angle (Van Oosterom and Strackee)
    dot = lambda u, v: np.einsum("ij,ij->i", u, v)
    return 2 * np.arctan2(dot(a, np.cross(b, c)), 1 + dot(a, b) + dot(b, c) + dot(c, a))


quad = (triangle(q[:, 0], q[:, 1], q[:, 2]) + triangle(q[:, 0], q[:, 2], q[:, 3])) * radius ** 2
assert np.abs(quad / area - 1).max() <= 1e-12, np.abs(quad / area - 1).max()
p = xyz("node")
c = p[fn]
normal = np.cross(c[:, 1] - c[:, 0], c[:, 2] - c[:, 0])
assert np.all(np.einsum("ij,ij->i", normal, c[:, 0]) > 0), "faces not anticlockwise"
mean = c.sum(axis=1)
mean /= np.linalg.norm(mean, axis=1)[:, None]
size = 0.5 * np.pi / 2 / n  # a cell's half-width in radians
assert np.arccos(np.clip(np.einsum("ij,ij->i", mean, xyz("face")), -1, 1)).max() < size
mid = p[en].sum(axis=1)
mid /= np.linalg.norm(mid, axis=1)[:, None]
assert np.abs(mid - xyz("edge")).max() < 1e-12
# Same bytes again, whatever the thread count (no timestamps in the file).
again = path + ".again.nc"
subprocess.run([gale, "mesh", "--mesh", f"C{n}", "--out", again, *extra], check=True,
               capture_output=True, env=dict(os.environ, OMP_NUM_THREADS="1"))
with open(path, "rb") as a, open(again, "rb") as b:
    assert a.read() == b.read(), "mesh file not reproducible"
os.remove(again)
print(f"check_mesh_file C{n}: all checks passed")
