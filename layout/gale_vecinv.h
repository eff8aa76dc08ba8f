/* The tables of the nonlinear core's vector-invariant terms, built once
 * from the mesh's closed-form geometry on every local cell and edge
 * (docs/nonlinear.md, "The vector-invariant terms on this grid"): the
 * reconstruction of the cell-centred wind, the edges' normals and
 * centre-to-centre directions in the cells' tangent planes, the
 * vorticity's corner circulations, the Coriolis parameter. Serial,
 * MPI-free. */
#ifndef GALE_VECINV_H
#define GALE_VECINV_H

#include "gale_mesh.h"
#include "gale_partition.h"

typedef struct {
    double *fcor; /* [ncell] 2 Omega z = 2 Omega sin(lat) */
    double *fcos; /* [ncell] 2 Omega cos(lat) (the deep atmosphere's Coriolis part) */
    double *enb;  /* [6 ncell] the cell's east and north unit vectors (x, y, z each) */
    double *prc;  /* [8 ncell] per side, the (east, north) weights of U_c = sum_s prc_s u_s */
    double *nrm;  /* [4 nedge] the edge's normal in each of its two cells' (east, north) basis */
    double *tng;  /* [4 nedge] the direction from its first cell's centre to its second's, in each */
    int *vidx;    /* [12 ncell] the vorticity's edges, in gid order ... */
    double *vw;   /* [12 ncell] ... and their weights (zero past the cell's count) */
} gale_vecinv_t;

/* cell_sign: the outward sign of each cell's four edges (gale_geom_t);
 * ncell, nedge: the local cells and edges; nstencil: the cells whose
 * corners' edges are all local (the rest get no vorticity weights); omega
 * the planet's rotation rate [s-1]. */
int gale_vecinv_build(const gale_cs_t *cs, const gale_local_t *lm, const double *cell_sign, int ncell,
                      int nedge, int nstencil, double omega, gale_vecinv_t *t);
void gale_vecinv_free(gale_vecinv_t *t);

/* The local east and north unit vectors at x (a unit vector). */
void gale_east_north(const double x[3], double e[3], double n[3]);

#endif
