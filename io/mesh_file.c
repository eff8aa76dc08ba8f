/* The global mesh as a UGRID-1.0 file, with LFRic's variable names
 * (docs/output.md lists every variable and attribute). */
#include "gale_io.h"
#include "gale_nc4.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Rows computed (by all OpenMP threads, unless called from the writer
 * thread: each row is independent, so the bytes do not depend on the thread
 * count) and then written at a time: C1024 (6.3 M faces, 12.6 M edges)
 * streams through ~18 MiB of buffers. */
enum { SLICE = 1 << 18 };

static double deg(double rad) { return rad * (180.0 / GALE_PI); }

/* Longitude in [-180, 180) and latitude, in degrees, of a unit vector. */
static void lonlat_deg(const double x[3], double *lon, double *lat)
{
    double l, p;
    gale_lonlat(x, &l, &p);
    *lon = deg(l) >= 180.0 ? deg(l) - 360.0 : deg(l);
    *lat = deg(p);
}

/* CDI, the netCDF reader of CDO, does not know UGRID: it would take the
 * topology's arrays for data on grids without cells, and every whole-file
 * command (fldmean, remapcon) would stop at them. cdi = "ignore" hides a
 * variable from CDI only; other readers see an unknown attribute. */
static int cdi_ignore(gale_nc4_t *f, int id)
{
    return gale_nc4_put_att_text(f, id, "cdi", "ignore");
}

/* Mesh2d_<where>_x/y. Faces get CF bounds (their corners), which CDO needs
 * for cell areas and conservative remapping; nodes and edges are points. */
static int def_lonlat(gale_nc4_t *f, const char *where, int dim, int id[2])
{
    int st = GALE_OK;
    static const char *axis[2] = {"x", "y"}, *stdn[2] = {"longitude", "latitude"},
                      *units[2] = {"degrees_east", "degrees_north"};
    const int face = strcmp(where, "face") == 0;
    for (int k = 0; k < 2; k++) {
        char name[64], lname[96], bname[64];
        snprintf(name, sizeof name, "Mesh2d_%s_%s", where, axis[k]);
        snprintf(lname, sizeof lname, "%s of mesh %ss", stdn[k], where);
        snprintf(bname, sizeof bname, "Mesh2d_%s_%sbnds", where, axis[k]);
        GALE_TRY(gale_nc4_def_var(f, name, GALE_NC4_DOUBLE, 1, &dim, NULL, &id[k]));
        GALE_TRY(gale_nc4_put_att_text(f, id[k], "standard_name", stdn[k]));
        GALE_TRY(gale_nc4_put_att_text(f, id[k], "long_name", lname));
        GALE_TRY(gale_nc4_put_att_text(f, id[k], "units", units[k]));
        if (face) GALE_TRY(gale_nc4_put_att_text(f, id[k], "bounds", bname));
        else GALE_TRY(cdi_ignore(f, id[k]));
    }
done:
    return st;
}

/* The faces' corners (face, Four), in Mesh2d_face_nodes order: a CF
 * boundary variable, which takes its metadata from its coordinate. */
static int def_bnds(gale_nc4_t *f, int dface, int dfour, int id[2])
{
    int st = GALE_OK;
    const int dims[2] = {dface, dfour};
    GALE_TRY(gale_nc4_def_var(f, "Mesh2d_face_xbnds", GALE_NC4_DOUBLE, 2, dims, NULL, &id[0]));
    GALE_TRY(gale_nc4_def_var(f, "Mesh2d_face_ybnds", GALE_NC4_DOUBLE, 2, dims, NULL, &id[1]));
done:
    return st;
}

/* The faces' areas, named by the data's cell_measures. ugrid: on the mesh
 * topology (shared files, mesh files), else on a partial file's rows. */
static int def_area(gale_nc4_t *f, int dface, int ugrid, int *id)
{
    int st = GALE_OK;
    GALE_TRY(gale_nc4_def_var(f, "Mesh2d_face_area", GALE_NC4_DOUBLE, 1, &dface, NULL, id));
    GALE_TRY(gale_nc4_put_att_text(f, *id, "standard_name", "cell_area"));
    GALE_TRY(gale_nc4_put_att_text(f, *id, "long_name", "spherical area of mesh faces"));
    GALE_TRY(gale_nc4_put_att_text(f, *id, "units", "m2"));
    if (ugrid) GALE_TRY(gale_nc4_put_att_text(f, *id, "mesh", "Mesh2d"));
    GALE_TRY(gale_nc4_put_att_text(f, *id, "location", "face"));
    GALE_TRY(gale_nc4_put_att_text(f, *id, "coordinates", "Mesh2d_face_x Mesh2d_face_y"));
done:
    return st;
}

/* Row r of the face variables for face c: centre, corners (SW, SE, NE, NW:
 * anticlockwise seen from outside, as Mesh2d_face_nodes) and area. */
static void face_row(const gale_cs_t *cs, gale_gid_t c, int64_t r, double *lon, double *lat,
                     double *bx, double *by, double *area)
{
    gale_gid_t v[4];
    double x[3];
    gale_cs_cell_centre(cs, c, x);
    lonlat_deg(x, &lon[r], &lat[r]);
    gale_cs_cell_verts(cs, c, v);
    for (int q = 0; q < 4; q++) {
        gale_cs_vert_xyz(cs, v[q], x);
        lonlat_deg(x, &bx[4 * r + q], &by[4 * r + q]);
    }
    area[r] = gale_cs_cell_area(cs, c);
}

/* A connectivity array: int (d0, d1), 0-based, -1 for "none". */
static int def_conn(gale_nc4_t *f, const char *name, const char *role, const char *lname, int d0,
                    int d1, int *id)
{
    int st = GALE_OK;
    const int dims[2] = {d0, d1}, fill = -1, zero = 0;
    GALE_TRY(gale_nc4_def_var(f, name, GALE_NC4_INT, 2, dims, &fill, id));
    GALE_TRY(gale_nc4_put_att_text(f, *id, "cf_role", role));
    GALE_TRY(gale_nc4_put_att_text(f, *id, "long_name", lname));
    GALE_TRY(gale_nc4_put_att_int(f, *id, "start_index", 1, &zero));
    GALE_TRY(cdi_ignore(f, *id));
done:
    return st;
}

/* Rows [lo, hi) of share `part` of n rows split into nparts, walked in
 * slices. Every share takes the same number of slices (some empty), because
 * on a parallel file each slice is one collective write. */
typedef struct { int64_t lo, hi, nslices; } share_t;

static share_t share(int64_t n, int part, int nparts)
{
    share_t s = {n * part / nparts, n * (part + 1) / nparts, 0};
    int64_t most = (n + nparts - 1) / nparts;
    s.nslices = (most + SLICE - 1) / SLICE;
    return s;
}

static int64_t slice_rows(const share_t *sh, int64_t k, int64_t *start)
{
    *start = sh->lo + k * SLICE;
    int64_t end = *start + SLICE < sh->hi ? *start + SLICE : sh->hi;
    return end > *start ? end - *start : 0;
}

int gale_io_mesh_def(gale_nc4_t *f, const gale_cs_t *cs, gale_io_mesh_t *m)
{
    int st = GALE_OK;
    GALE_TRY(gale_nc4_def_dim(f, "nMesh2d_node", cs->nverts, &m->dnode));
    GALE_TRY(gale_nc4_def_dim(f, "nMesh2d_edge", cs->nedges, &m->dedge));
    GALE_TRY(gale_nc4_def_dim(f, "nMesh2d_face", cs->ncells, &m->dface));
    GALE_TRY(gale_nc4_def_dim(f, "Two", 2, &m->dtwo));
    GALE_TRY(gale_nc4_def_dim(f, "Four", 4, &m->dfour));

    int mesh;
    const int two = 2;
    GALE_TRY(gale_nc4_def_var(f, "Mesh2d", GALE_NC4_INT, 0, NULL, NULL, &mesh));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "cf_role", "mesh_topology"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "long_name", "Topology data of 2D unstructured mesh"));
    GALE_TRY(gale_nc4_put_att_int(f, mesh, "topology_dimension", 1, &two));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "geometry", "spherical"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "mesh_class", "cubedsphere"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "node_coordinates", "Mesh2d_node_x Mesh2d_node_y"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "face_coordinates", "Mesh2d_face_x Mesh2d_face_y"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "edge_coordinates", "Mesh2d_edge_x Mesh2d_edge_y"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "face_node_connectivity", "Mesh2d_face_nodes"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "edge_node_connectivity", "Mesh2d_edge_nodes"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "face_edge_connectivity", "Mesh2d_face_edges"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "edge_face_connectivity", "Mesh2d_edge_face_links"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "face_face_connectivity", "Mesh2d_face_links"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "face_dimension", "nMesh2d_face"));
    GALE_TRY(gale_nc4_put_att_text(f, mesh, "edge_dimension", "nMesh2d_edge"));

    GALE_TRY(def_lonlat(f, "node", m->dnode, m->node));
    GALE_TRY(def_lonlat(f, "edge", m->dedge, m->edge));
    GALE_TRY(def_lonlat(f, "face", m->dface, m->face));
    GALE_TRY(def_conn(f, "Mesh2d_face_nodes", "face_node_connectivity",
                      "Maps every face to its 4 corner nodes, anticlockwise seen from outside",
                      m->dface, m->dfour, &m->fnodes));
    GALE_TRY(def_conn(f, "Mesh2d_edge_nodes", "edge_node_connectivity",
                      "Maps every edge to its 2 end nodes", m->dedge, m->dtwo, &m->enodes));
    GALE_TRY(def_conn(f, "Mesh2d_face_edges", "face_edge_connectivity",
                      "Maps every face to its 4 edges; edge k joins face nodes k and k+1",
                      m->dface, m->dfour, &m->fedges));
    GALE_TRY(def_conn(f, "Mesh2d_edge_face_links", "edge_face_connectivity",
                      "Maps every edge to its 2 faces; positive normal flow goes from the first "
                      "to the second", m->dedge, m->dtwo, &m->efaces));
    GALE_TRY(def_conn(f, "Mesh2d_face_links", "face_face_connectivity",
                      "Maps every face to the 4 faces across its edges, in face_edges order",
                      m->dface, m->dfour, &m->flinks));
    GALE_TRY(def_area(f, m->dface, 1, &m->area));
    GALE_TRY(def_bnds(f, m->dface, m->dfour, m->fbnds));

    char name[32];
    snprintf(name, sizeof name, "C%d", cs->n);
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "mesh_name", name));
    GALE_TRY(gale_nc4_put_att_int(f, GALE_NC4_GLOBAL, "mesh_n", 1, &cs->n));
    GALE_TRY(gale_nc4_put_att_double(f, GALE_NC4_GLOBAL, "radius", 1, &cs->radius));
done:
    return st;
}

int gale_io_mesh_put(gale_nc4_t *f, const gale_cs_t *cs, const gale_io_mesh_t *m, int part,
                     int nparts, int threads)
{
    int st = GALE_OK;
    double *dbuf = NULL;
    int *ibuf = NULL;
    const share_t sv = share(cs->nverts, part, nparts), se = share(cs->nedges, part, nparts),
                  sf = share(cs->ncells, part, nparts);
    int64_t rows = sv.hi - sv.lo;
    if (se.hi - se.lo > rows) rows = se.hi - se.lo;
    if (sf.hi - sf.lo > rows) rows = sf.hi - sf.lo;
    rows = rows < SLICE ? rows + 1 : SLICE;
    GALE_TRY(gale_alloc_impl((void **)&dbuf, 11 * rows * sizeof *dbuf, "mesh slice", __FILE__,
                             __LINE__, __func__));
    GALE_TRY(gale_alloc_impl((void **)&ibuf, 12 * rows * sizeof *ibuf, "mesh slice", __FILE__,
                             __LINE__, __func__));
    double *d0 = dbuf, *d1 = dbuf + rows, *d2 = dbuf + 2 * rows, *d3 = dbuf + 3 * rows,
           *d4 = dbuf + 7 * rows;
    int *i0 = ibuf, *i1 = ibuf + 4 * rows, *i2 = ibuf + 8 * rows;

    /* Nodes. */
    for (int64_t k = 0; k < sv.nslices; k++) {
        int64_t s, n = slice_rows(&sv, k, &s);
#pragma omp parallel for schedule(static) if (threads)
        for (int64_t r = 0; r < n; r++) {
            double x[3];
            gale_cs_vert_xyz(cs, s + r, x);
            lonlat_deg(x, &d0[r], &d1[r]);
        }
        GALE_TRY(gale_nc4_put_rows(f, m->node[0], s, n, d0));
        GALE_TRY(gale_nc4_put_rows(f, m->node[1], s, n, d1));
    }
    /* Edges: midpoint on the great circle, end nodes, the two faces. */
    for (int64_t k = 0; k < se.nslices; k++) {
        int64_t s, n = slice_rows(&se, k, &s);
#pragma omp parallel for schedule(static) if (threads)
        for (int64_t r = 0; r < n; r++) {
            gale_gid_t v[2], c[2];
            double a[3], b[3];
            gale_cs_edge_verts(cs, s + r, v);
            gale_cs_edge_cells(cs, s + r, c);
            gale_cs_vert_xyz(cs, v[0], a);
            gale_cs_vert_xyz(cs, v[1], b);
            double len = sqrt((a[0] + b[0]) * (a[0] + b[0]) + (a[1] + b[1]) * (a[1] + b[1]) +
                              (a[2] + b[2]) * (a[2] + b[2]));
            for (int d = 0; d < 3; d++) a[d] = (a[d] + b[d]) / len;
            lonlat_deg(a, &d0[r], &d1[r]);
            for (int q = 0; q < 2; q++) {
                i0[2 * r + q] = (int)v[q];
                i1[2 * r + q] = (int)c[q];
            }
        }
        GALE_TRY(gale_nc4_put_rows(f, m->edge[0], s, n, d0));
        GALE_TRY(gale_nc4_put_rows(f, m->edge[1], s, n, d1));
        GALE_TRY(gale_nc4_put_rows(f, m->enodes, s, n, i0));
        GALE_TRY(gale_nc4_put_rows(f, m->efaces, s, n, i1));
    }
    /* Faces. gale numbers corners SW, SE, NE, NW and sides W, S, E, N; UGRID
     * readers expect edge k between nodes k and k+1, so sides go S, E, N, W. */
    static const int side[4] = {GALE_SIDE_S, GALE_SIDE_E, GALE_SIDE_N, GALE_SIDE_W};
    for (int64_t k = 0; k < sf.nslices; k++) {
        int64_t s, n = slice_rows(&sf, k, &s);
#pragma omp parallel for schedule(static) if (threads)
        for (int64_t r = 0; r < n; r++) {
            gale_gid_t c = s + r, v[4], e[4];
            face_row(cs, c, r, d0, d1, d3, d4, d2);
            gale_cs_cell_verts(cs, c, v);
            gale_cs_cell_edges(cs, c, e);
            for (int q = 0; q < 4; q++) {
                i0[4 * r + q] = (int)v[q];
                i1[4 * r + q] = (int)e[side[q]];
                i2[4 * r + q] = (int)gale_cs_cell_nbr(cs, c, side[q]);
            }
        }
        GALE_TRY(gale_nc4_put_rows(f, m->face[0], s, n, d0));
        GALE_TRY(gale_nc4_put_rows(f, m->face[1], s, n, d1));
        GALE_TRY(gale_nc4_put_rows(f, m->area, s, n, d2));
        GALE_TRY(gale_nc4_put_rows(f, m->fnodes, s, n, i0));
        GALE_TRY(gale_nc4_put_rows(f, m->fedges, s, n, i1));
        GALE_TRY(gale_nc4_put_rows(f, m->flinks, s, n, i2));
        GALE_TRY(gale_nc4_put_rows(f, m->fbnds[0], s, n, d3));
        GALE_TRY(gale_nc4_put_rows(f, m->fbnds[1], s, n, d4));
    }
done:
    gale_free(dbuf);
    gale_free(ibuf);
    return st;
}

int gale_io_faces_def(gale_nc4_t *f, int dface, int dfour, gale_io_faces_t *v)
{
    int st = GALE_OK;
    GALE_TRY(def_lonlat(f, "face", dface, v->face));
    GALE_TRY(def_bnds(f, dface, dfour, v->fbnds));
    GALE_TRY(def_area(f, dface, 0, &v->area));
done:
    return st;
}

int gale_io_faces_put(gale_nc4_t *f, const gale_cs_t *cs, const gale_io_faces_t *v, int64_t n,
                      const int *gid)
{
    int st = GALE_OK;
    double *buf = NULL;
    const int64_t rows = n < SLICE ? n + 1 : SLICE;
    GALE_TRY(gale_alloc_impl((void **)&buf, 11 * rows * sizeof *buf, "face slice", __FILE__,
                             __LINE__, __func__));
    double *lon = buf, *lat = buf + rows, *area = buf + 2 * rows, *bx = buf + 3 * rows,
           *by = buf + 7 * rows;
    for (int64_t s = 0; s < n; s += SLICE) {
        const int64_t k = n - s < SLICE ? n - s : SLICE;
        for (int64_t r = 0; r < k; r++) face_row(cs, gid[s + r], r, lon, lat, bx, by, area);
        GALE_TRY(gale_nc4_put_rows(f, v->face[0], s, k, lon));
        GALE_TRY(gale_nc4_put_rows(f, v->face[1], s, k, lat));
        GALE_TRY(gale_nc4_put_rows(f, v->fbnds[0], s, k, bx));
        GALE_TRY(gale_nc4_put_rows(f, v->fbnds[1], s, k, by));
        GALE_TRY(gale_nc4_put_rows(f, v->area, s, k, area));
    }
done:
    gale_free(buf);
    return st;
}

/* A connectivity array of the 3-D grid (0-based point ids). */
static int def_conn3(gale_nc4_t *f, const char *name, const char *lname, int d0, int d1, int *id)
{
    int st = GALE_OK;
    const int dims[2] = {d0, d1}, zero = 0;
    GALE_TRY(gale_nc4_def_var(f, name, GALE_NC4_INT, 2, dims, NULL, id));
    GALE_TRY(gale_nc4_put_att_text(f, *id, "long_name", lname));
    GALE_TRY(gale_nc4_put_att_int(f, *id, "start_index", 1, &zero));
    GALE_TRY(cdi_ignore(f, *id));
done:
    return st;
}

/* Row i of an array of the 3-D grid, written at out: a point's position, or
 * the point ids of a cell, an interface face or an edge face. */
typedef struct {
    const gale_cs_t *cs;
    const gale_io_grid3d_t *g;
    int64_t nv;
} grid3d_t;
typedef void (*grid3d_row_t)(const grid3d_t *t, int64_t i, void *out);

static void point_row(const grid3d_t *t, int64_t i, void *out)
{
    double *o = out, x[3], rad = t->cs->radius + t->g->exaggeration * t->g->z_if[i / t->nv];
    gale_cs_vert_xyz(t->cs, i % t->nv, x);
    for (int d = 0; d < 3; d++) o[d] = rad * x[d];
}

/* The 4 point ids of face c at interface k. */
static void face_ids(const grid3d_t *t, int64_t c, int64_t k, int *o)
{
    gale_gid_t v[4];
    gale_cs_cell_verts(t->cs, c, v);
    for (int q = 0; q < 4; q++) o[q] = (int)(k * t->nv + v[q]);
}

static void cell_row(const grid3d_t *t, int64_t i, void *out)
{
    const int nl = t->g->nlev;
    face_ids(t, i / nl, i % nl, out);
    face_ids(t, i / nl, i % nl + 1, (int *)out + 4);
}

static void interface_row(const grid3d_t *t, int64_t i, void *out)
{
    const int nl = t->g->nlev;
    face_ids(t, i / (nl + 1), i % (nl + 1), out);
}

static void edge_row(const grid3d_t *t, int64_t i, void *out)
{
    const int nl = t->g->nlev;
    const int64_t lo = i % nl * t->nv, hi = lo + t->nv;
    int *o = out;
    gale_gid_t v[2];
    gale_cs_edge_verts(t->cs, i / nl, v);
    o[0] = (int)(lo + v[0]);
    o[1] = (int)(lo + v[1]);
    o[2] = (int)(hi + v[1]);
    o[3] = (int)(hi + v[0]);
}

/* Variable var, nrows rows of `width` bytes, computed SLICE rows at a time
 * into buf and written. */
static int put_grid3d(gale_nc4_t *f, int var, int64_t nrows, grid3d_row_t row, size_t width,
                      const grid3d_t *t, void *buf, int threads)
{
    int st = GALE_OK;
    for (int64_t s = 0; s < nrows; s += SLICE) {
        int64_t n = nrows - s < SLICE ? nrows - s : SLICE;
#pragma omp parallel for schedule(static) if (threads)
        for (int64_t r = 0; r < n; r++) row(t, s + r, (char *)buf + r * width);
        GALE_TRY(gale_nc4_put_rows(f, var, s, n, buf));
    }
done:
    return st;
}

/* The 3-D shell as explicit points and cells, for XDMF readers (ParaView has
 * no UGRID reader). Point k*nverts + v is node v at interface k; the cell
 * lists run face-major, level-minor, the order of the data (face, level). */
static int write_grid3d(gale_nc4_t *f, const gale_cs_t *cs, const gale_io_grid3d_t *g,
                        const gale_io_mesh_t *m, int threads)
{
    int st = GALE_OK;
    double *dbuf = NULL;
    int *ibuf = NULL;
    const int nl = g->nlev;
    const int64_t nv = cs->nverts;
    int dpt, dcell, dif, dedge, dthree, deight, vxyz, vcell, vif, vedge;
    GALE_TRY(gale_nc4_def_dim(f, "nMesh3d_node", nv * (nl + 1), &dpt));
    GALE_TRY(gale_nc4_def_dim(f, "nMesh3d_cell", cs->ncells * nl, &dcell));
    GALE_TRY(gale_nc4_def_dim(f, "nMesh3d_interface", cs->ncells * (nl + 1), &dif));
    GALE_TRY(gale_nc4_def_dim(f, "nMesh3d_edge_face", cs->nedges * nl, &dedge));
    GALE_TRY(gale_nc4_def_dim(f, "Three", 3, &dthree));
    GALE_TRY(gale_nc4_def_dim(f, "Eight", 8, &deight));
    const int pdims[2] = {dpt, dthree};
    GALE_TRY(gale_nc4_def_var(f, "Mesh3d_node_xyz", GALE_NC4_DOUBLE, 2, pdims, NULL, &vxyz));
    GALE_TRY(gale_nc4_put_att_text(f, vxyz, "long_name",
                                   "Cartesian position of node v at interface k (point k*nMesh2d_node + v), "
                                   "radius + vertical_exaggeration * height"));
    GALE_TRY(gale_nc4_put_att_text(f, vxyz, "units", "m"));
    GALE_TRY(gale_nc4_put_att_double(f, vxyz, "vertical_exaggeration", 1, &g->exaggeration));
    GALE_TRY(cdi_ignore(f, vxyz));
    GALE_TRY(def_conn3(f, "Mesh3d_cell_nodes", "hexahedron (face, layer): face nodes at the lower then the upper interface",
                       dcell, deight, &vcell));
    GALE_TRY(def_conn3(f, "Mesh3d_interface_nodes", "quadrilateral (face, interface): face nodes at the interface",
                       dif, m->dfour, &vif));
    GALE_TRY(def_conn3(f, "Mesh3d_edge_face_nodes", "quadrilateral (edge, layer): the vertical face of an edge",
                       dedge, m->dfour, &vedge));

    const grid3d_t t = {cs, g, nv};
    GALE_TRY(gale_alloc_impl((void **)&dbuf, 3 * SLICE * sizeof *dbuf, "grid slice", __FILE__,
                             __LINE__, __func__));
    GALE_TRY(gale_alloc_impl((void **)&ibuf, 8 * SLICE * sizeof *ibuf, "grid slice", __FILE__,
                             __LINE__, __func__));
    GALE_TRY(put_grid3d(f, vxyz, nv * (nl + 1), point_row, 3 * sizeof *dbuf, &t, dbuf, threads));
    GALE_TRY(put_grid3d(f, vcell, cs->ncells * nl, cell_row, 8 * sizeof *ibuf, &t, ibuf, threads));
    GALE_TRY(put_grid3d(f, vif, cs->ncells * (nl + 1), interface_row, 4 * sizeof *ibuf, &t, ibuf,
                        threads));
    GALE_TRY(put_grid3d(f, vedge, cs->nedges * nl, edge_row, 4 * sizeof *ibuf, &t, ibuf, threads));
done:
    gale_free(dbuf);
    gale_free(ibuf);
    return st;
}

int gale_io_write_mesh_ex(const gale_cs_t *cs, const char *path, const char *config_text,
                          const gale_io_grid3d_t *grid3d, int threads)
{
    int st = GALE_OK;
    gale_nc4_t *f = NULL;
    gale_io_mesh_t m;
    GALE_TRY(gale_nc4_create(&f, path, H5P_DEFAULT));
    GALE_TRY(gale_io_mesh_def(f, cs, &m));
    char title[64];
    snprintf(title, sizeof title, "gale cubed-sphere mesh C%d", cs->n);
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "Conventions", "CF-1.8 UGRID-1.0"));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "title", title));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "source", "gale " GALE_VERSION));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "gale_version", GALE_VERSION));
    if (config_text)
        GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "configuration", config_text));
    GALE_TRY(gale_io_mesh_put(f, cs, &m, 0, 1, threads));
    if (grid3d) GALE_TRY(write_grid3d(f, cs, grid3d, &m, threads));
    GALE_TRY(gale_nc4_commit(&f));
done:
    gale_nc4_abort(&f); /* nothing left to do after a commit */
    return st;
}

int gale_io_write_mesh(const gale_cs_t *cs, const char *path, const char *config_text)
{
    return gale_io_write_mesh_ex(cs, path, config_text, NULL, 1);
}
