/* The global mesh as a UGRID-1.0 file, with LFRic's variable names
 * (docs/output.md lists every variable and attribute). */
#include "gale_io.h"
#include "gale_nc4.h"

#include <math.h>
#include <stdio.h>

/* Rows computed (by all OpenMP threads: each row is independent, so the
 * bytes do not depend on the thread count) and then written at a time:
 * C1024 (6.3 M faces, 12.6 M edges) streams through ~18 MiB of buffers. */
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

static int def_lonlat(gale_nc4_t *f, const char *where, int dim, int id[2])
{
    int st = GALE_OK;
    static const char *axis[2] = {"x", "y"}, *stdn[2] = {"longitude", "latitude"},
                      *units[2] = {"degrees_east", "degrees_north"};
    for (int k = 0; k < 2; k++) {
        char name[64], lname[96];
        snprintf(name, sizeof name, "Mesh2d_%s_%s", where, axis[k]);
        snprintf(lname, sizeof lname, "%s of mesh %ss", stdn[k], where);
        GALE_TRY(gale_nc4_def_var(f, name, GALE_NC4_DOUBLE, 1, &dim, NULL, &id[k]));
        GALE_TRY(gale_nc4_put_att_text(f, id[k], "standard_name", stdn[k]));
        GALE_TRY(gale_nc4_put_att_text(f, id[k], "long_name", lname));
        GALE_TRY(gale_nc4_put_att_text(f, id[k], "units", units[k]));
    }
done:
    return st;
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
done:
    return st;
}

int gale_io_write_mesh(const gale_cs_t *cs, const char *path, const char *config_text)
{
    int st = GALE_OK;
    gale_nc4_t *f = NULL;
    double *dbuf = NULL;
    int *ibuf = NULL;
    GALE_TRY(gale_alloc_impl((void **)&dbuf, 3 * SLICE * sizeof *dbuf, "mesh slice", __FILE__,
                             __LINE__, __func__));
    GALE_TRY(gale_alloc_impl((void **)&ibuf, 12 * SLICE * sizeof *ibuf, "mesh slice", __FILE__,
                             __LINE__, __func__));
    double *d0 = dbuf, *d1 = dbuf + SLICE, *d2 = dbuf + 2 * SLICE;
    int *i0 = ibuf, *i1 = ibuf + 4 * SLICE, *i2 = ibuf + 8 * SLICE;

    GALE_TRY(gale_nc4_create(&f, path, H5P_DEFAULT));
    int dnode, dedge, dface, dtwo, dfour;
    GALE_TRY(gale_nc4_def_dim(f, "nMesh2d_node", cs->nverts, &dnode));
    GALE_TRY(gale_nc4_def_dim(f, "nMesh2d_edge", cs->nedges, &dedge));
    GALE_TRY(gale_nc4_def_dim(f, "nMesh2d_face", cs->ncells, &dface));
    GALE_TRY(gale_nc4_def_dim(f, "Two", 2, &dtwo));
    GALE_TRY(gale_nc4_def_dim(f, "Four", 4, &dfour));

    int mesh, node[2], face[2], edge[2], fnodes, enodes, fedges, efaces, flinks, area;
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

    GALE_TRY(def_lonlat(f, "node", dnode, node));
    GALE_TRY(def_lonlat(f, "edge", dedge, edge));
    GALE_TRY(def_lonlat(f, "face", dface, face));
    GALE_TRY(def_conn(f, "Mesh2d_face_nodes", "face_node_connectivity",
                      "Maps every face to its 4 corner nodes, anticlockwise seen from outside",
                      dface, dfour, &fnodes));
    GALE_TRY(def_conn(f, "Mesh2d_edge_nodes", "edge_node_connectivity",
                      "Maps every edge to its 2 end nodes", dedge, dtwo, &enodes));
    GALE_TRY(def_conn(f, "Mesh2d_face_edges", "face_edge_connectivity",
                      "Maps every face to its 4 edges; edge k joins face nodes k and k+1",
                      dface, dfour, &fedges));
    GALE_TRY(def_conn(f, "Mesh2d_edge_face_links", "edge_face_connectivity",
                      "Maps every edge to its 2 faces; positive normal flow goes from the first "
                      "to the second", dedge, dtwo, &efaces));
    GALE_TRY(def_conn(f, "Mesh2d_face_links", "face_face_connectivity",
                      "Maps every face to the 4 faces across its edges, in face_edges order",
                      dface, dfour, &flinks));
    GALE_TRY(gale_nc4_def_var(f, "Mesh2d_face_area", GALE_NC4_DOUBLE, 1, &dface, NULL, &area));
    GALE_TRY(gale_nc4_put_att_text(f, area, "standard_name", "cell_area"));
    GALE_TRY(gale_nc4_put_att_text(f, area, "long_name", "spherical area of mesh faces"));
    GALE_TRY(gale_nc4_put_att_text(f, area, "units", "m2"));
    GALE_TRY(gale_nc4_put_att_text(f, area, "mesh", "Mesh2d"));
    GALE_TRY(gale_nc4_put_att_text(f, area, "location", "face"));
    GALE_TRY(gale_nc4_put_att_text(f, area, "coordinates", "Mesh2d_face_x Mesh2d_face_y"));

    char name[32], title[64];
    snprintf(name, sizeof name, "C%d", cs->n);
    snprintf(title, sizeof title, "gale cubed-sphere mesh %s", name);
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "Conventions", "CF-1.8 UGRID-1.0"));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "title", title));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "source", "gale " GALE_VERSION));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "gale_version", GALE_VERSION));
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "mesh_name", name));
    GALE_TRY(gale_nc4_put_att_int(f, GALE_NC4_GLOBAL, "mesh_n", 1, &cs->n));
    GALE_TRY(gale_nc4_put_att_double(f, GALE_NC4_GLOBAL, "radius", 1, &cs->radius));
    if (config_text)
        GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, "configuration", config_text));

    /* Nodes. */
    for (gale_gid_t s = 0; s < cs->nverts; s += SLICE) {
        int64_t n = cs->nverts - s < SLICE ? cs->nverts - s : SLICE;
#pragma omp parallel for schedule(static)
        for (int64_t k = 0; k < n; k++) {
            double x[3];
            gale_cs_vert_xyz(cs, s + k, x);
            lonlat_deg(x, &d0[k], &d1[k]);
        }
        GALE_TRY(gale_nc4_put_rows(f, node[0], s, n, d0));
        GALE_TRY(gale_nc4_put_rows(f, node[1], s, n, d1));
    }
    /* Edges: midpoint on the great circle, end nodes, the two faces. */
    for (gale_gid_t s = 0; s < cs->nedges; s += SLICE) {
        int64_t n = cs->nedges - s < SLICE ? cs->nedges - s : SLICE;
#pragma omp parallel for schedule(static)
        for (int64_t k = 0; k < n; k++) {
            gale_gid_t v[2], c[2];
            double a[3], b[3];
            gale_cs_edge_verts(cs, s + k, v);
            gale_cs_edge_cells(cs, s + k, c);
            gale_cs_vert_xyz(cs, v[0], a);
            gale_cs_vert_xyz(cs, v[1], b);
            double r = sqrt((a[0] + b[0]) * (a[0] + b[0]) + (a[1] + b[1]) * (a[1] + b[1]) +
                            (a[2] + b[2]) * (a[2] + b[2]));
            for (int d = 0; d < 3; d++) a[d] = (a[d] + b[d]) / r;
            lonlat_deg(a, &d0[k], &d1[k]);
            for (int m = 0; m < 2; m++) {
                i0[2 * k + m] = (int)v[m];
                i1[2 * k + m] = (int)c[m];
            }
        }
        GALE_TRY(gale_nc4_put_rows(f, edge[0], s, n, d0));
        GALE_TRY(gale_nc4_put_rows(f, edge[1], s, n, d1));
        GALE_TRY(gale_nc4_put_rows(f, enodes, s, n, i0));
        GALE_TRY(gale_nc4_put_rows(f, efaces, s, n, i1));
    }
    /* Faces. gale numbers corners SW, SE, NE, NW and sides W, S, E, N; UGRID
     * readers expect edge k between nodes k and k+1, so sides go S, E, N, W. */
    static const int side[4] = {GALE_SIDE_S, GALE_SIDE_E, GALE_SIDE_N, GALE_SIDE_W};
    for (gale_gid_t s = 0; s < cs->ncells; s += SLICE) {
        int64_t n = cs->ncells - s < SLICE ? cs->ncells - s : SLICE;
#pragma omp parallel for schedule(static)
        for (int64_t k = 0; k < n; k++) {
            gale_gid_t c = s + k, v[4], e[4];
            double x[3];
            gale_cs_cell_centre(cs, c, x);
            lonlat_deg(x, &d0[k], &d1[k]);
            d2[k] = gale_cs_cell_area(cs, c);
            gale_cs_cell_verts(cs, c, v);
            gale_cs_cell_edges(cs, c, e);
            for (int m = 0; m < 4; m++) {
                i0[4 * k + m] = (int)v[m];
                i1[4 * k + m] = (int)e[side[m]];
                i2[4 * k + m] = (int)gale_cs_cell_nbr(cs, c, side[m]);
            }
        }
        GALE_TRY(gale_nc4_put_rows(f, face[0], s, n, d0));
        GALE_TRY(gale_nc4_put_rows(f, face[1], s, n, d1));
        GALE_TRY(gale_nc4_put_rows(f, area, s, n, d2));
        GALE_TRY(gale_nc4_put_rows(f, fnodes, s, n, i0));
        GALE_TRY(gale_nc4_put_rows(f, fedges, s, n, i1));
        GALE_TRY(gale_nc4_put_rows(f, flinks, s, n, i2));
    }
    GALE_TRY(gale_nc4_commit(&f));
done:
    gale_nc4_abort(&f); /* nothing left to do after a commit */
    gale_free(dbuf);
    gale_free(ibuf);
    return st;
}
