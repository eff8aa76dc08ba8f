/* The global equiangular gnomonic cubed sphere C_N, in closed form.
 *
 * Nothing here stores per-cell arrays: cells, edges and vertices have dense
 * global ids computed from (panel, i, j), so C1024 (6.3 M cells) costs a few
 * hundred bytes. Serial, MPI-free.
 *
 * Numbering (the global ids; docs/partitioning.md has the local numbering):
 *  - cell  (p,i,j), 0 <= i,j < N:  gid = p*N*N + j*N + i
 *  - vertex: points of the integer lattice [0,N]^3 on the cube surface
 *  - edge: panel-interior edges first, then the 12 cube edges N at a time
 * Sides of a cell: W=0, S=1, E=2, N=3; vertices SW, SE, NE, NW (counter-
 * clockwise seen from outside). An edge's first cell is the one with the
 * smaller gid; positive normal velocity points from the first to the second. */
#ifndef GALE_MESH_H
#define GALE_MESH_H

#include <stdint.h>

typedef int64_t gale_gid_t;

enum { GALE_SIDE_W = 0, GALE_SIDE_S = 1, GALE_SIDE_E = 2, GALE_SIDE_N = 3 };

typedef struct {
    int n;            /* cells along a panel side */
    double radius;    /* sphere radius [m] (planet radius / small-planet factor) */
    gale_gid_t ncells, nedges, nverts;
    struct { int panel, side, rev; } nbr[6][4]; /* what lies across side s of panel p */
    int cube_edge[6][4];                        /* cube edge (0..11) on side s of panel p */
    int ce_panel[12], ce_side[12];              /* the panel that numbers each cube edge */
} gale_cs_t;

/* Fails (GALE_ERR_INPUT) for n < 1 or n too large for 32-bit local indices. */
int gale_cs_init(gale_cs_t *cs, int n, double radius);

static inline gale_gid_t gale_cs_cell(const gale_cs_t *cs, int p, int i, int j)
{
    return ((gale_gid_t)p * cs->n + j) * cs->n + i;
}
static inline void gale_cs_cell_pij(const gale_cs_t *cs, gale_gid_t c, int *p, int *i, int *j)
{
    gale_gid_t nn = (gale_gid_t)cs->n * cs->n;
    *p = (int)(c / nn);
    gale_gid_t r = c % nn;
    *j = (int)(r / cs->n);
    *i = (int)(r % cs->n);
}

/* Cell across side s. */
gale_gid_t gale_cs_cell_nbr(const gale_cs_t *cs, gale_gid_t c, int side);
/* Vertex gids SW, SE, NE, NW. */
void gale_cs_cell_verts(const gale_cs_t *cs, gale_gid_t c, gale_gid_t v[4]);
/* Edge gids W, S, E, N. */
void gale_cs_cell_edges(const gale_cs_t *cs, gale_gid_t c, gale_gid_t e[4]);
/* The two cells of an edge, first (smaller gid) then second. */
void gale_cs_edge_cells(const gale_cs_t *cs, gale_gid_t e, gale_gid_t c[2]);
/* The two end vertices of an edge. */
void gale_cs_edge_verts(const gale_cs_t *cs, gale_gid_t e, gale_gid_t v[2]);
/* Cells sharing at least one vertex with c (8, or 7 at a cube corner); returns the count.
 * Ordered by gid, so the result does not depend on how it was found. */
int gale_cs_cell_vnbrs(const gale_cs_t *cs, gale_gid_t c, gale_gid_t out[8]);

/* Geometry on the unit sphere (multiply by radius for metres). */
void gale_cs_vert_xyz(const gale_cs_t *cs, gale_gid_t v, double x[3]);
/* The equiangular centre of the cell (mid-angles on its panel). */
void gale_cs_cell_centre(const gale_cs_t *cs, gale_gid_t c, double x[3]);
/* Exact spherical area of the cell (great-circle sides) [m^2]. */
double gale_cs_cell_area(const gale_cs_t *cs, gale_gid_t c);

typedef struct {
    double length;     /* great-circle length of the edge [m] */
    double dist;       /* great-circle distance between the two cell centres [m] */
    double normal[3];  /* unit normal at the midpoint, tangent to the sphere, first -> second cell */
    double mid[3];     /* midpoint (unit vector) */
} gale_edge_geom_t;
void gale_cs_edge_geom(const gale_cs_t *cs, gale_gid_t e, gale_edge_geom_t *g);
/* The cell's mimetic inner product of outward normal velocities per unit
 * depth, m[4 i + j] for sides i, j in W, S, E, N order [m^2]: symmetric
 * positive definite and exact for constant vector fields (docs/numerics.md). */
void gale_cs_cell_mfd(const gale_cs_t *cs, gale_gid_t c, double m[16]);

/* Great-circle angle between two unit vectors, accurate for small angles. */
double gale_arc(const double a[3], const double b[3]);
static inline double gale_dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static inline void gale_cross3(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}
/* Longitude in [0, 2 pi) and latitude of a unit vector. */
void gale_lonlat(const double x[3], double *lon, double *lat);

#endif
