/* Launch-layer interface of the nonlinear core's static data (GungHo's
 * equations, docs/nonlinear.md): both launch layers implement gale_knl_init
 * and gale_knl_finalize; the kernels are described beside their bodies in
 * gale_kbodies_nl.h and run by gale_k_run (gale_kdesc.h). Not collective. */
#ifndef GALE_KNL_H
#define GALE_KNL_H

#include "gale_kernels.h"

/* The reference state's coefficients of the linearised operator, per
 * column, rows of km->si values each (docs/nonlinear.md, "The linear
 * system"): star = the column's reference (theta* at interfaces, Pi*, rho*
 * in layers), written by the nl_ref kernel. */
enum {
    /* interface rows (k = 0..nlev) */
    GALE_NLP_THI,  /* theta*_k */
    GALE_NLP_GZA,  /* theta*_k / theta*_c(k): the vertical gradient of p = cp theta*_c Pi' */
    GALE_NLP_GZB,  /* theta*_k / theta*_c(k-1) */
    GALE_NLP_BETA, /* -cp theta*_k G_z Pi* / g: 1 when the reference is hydrostatic */
    GALE_NLP_N2R,  /* N*^2_k / N2r, N*^2 = g G_z theta* / theta* */
    GALE_NLP_RB,   /* g / (theta*_k N2r): b = g theta' / theta* scaled as the mixed system's b */
    GALE_NLP_RHOI, /* rho* at interfaces (0 at the ground and the top) */
    GALE_NLP_DTH,  /* G_z theta* */
    /* layer rows (k = 0..nlev-1) */
    GALE_NLP_RC2,  /* 1 / c*^2, c*^2 = cp (rd / cv) theta*_c Pi* */
    GALE_NLP_WLO,  /* the w_k coefficient of the p row: -rho*_k/(rho*_c dz) + G_z theta*_k/(2 theta*_c) */
    GALE_NLP_WHI,  /* the w_{k+1} coefficient: rho*_{k+1}/(rho*_c dz) + G_z theta*_{k+1}/(2 theta*_c) */
    GALE_NLP_RRHO, /* 1 / rho*_c */
    GALE_NLP_TC2,  /* 1 / (2 theta*_c) */
    GALE_NLP_RHOC, /* rho*_c */
    GALE_NLP_N
};

/* Static data of the nonlinear core (owned by src/model/nonlinear.c). */
typedef struct {
    double cp, rd, p0, kap; /* kap = rd / (cp - rd): Pi = (rd rho theta / p0)^kap */
    double g, n2r;          /* gravity; the reference N^2 of the preconditioner (km->n2) */
    const double *prof;     /* a cell field's data, GALE_NLP_N rows a column (nl_ref writes
                               them at a reset); column c's at prof + c pstride */
    const double *rhoe;     /* [nedge][sc]: rho* on the edges, an edge field's (nl_rhoe) */
    int pstride;            /* the field's stride, or 0 when every column has the same rows
                               (the horizontal mean's: one copy in cache, not one a column) */
    const double *fcor;     /* [ncell] 2 Omega sin(lat) */
    const double *enb;      /* [6 ncell] the cell's east and north unit vectors, Cartesian */
    const double *prc;      /* [8 ncell] reconstruction: U_c (east, north) = sum_s prc[2s..] u_s */
    const double *nrm;      /* [4 nedge] the edge normal in its first, second cell's (east, north) */
    const int *vidx;        /* [12 ncell] the vorticity stencil's edges */
    const double *vw;       /* [12 ncell] its weights: zeta_c = sum_j vw[j] (U.t)[vidx[j]] */
    const double *tng;      /* [4 nedge] the unit vector from the first cell's centre to the
                               second's, in the first, second cell's (east, north) */
    const double *rd2i;     /* [si] 1 / (dz_{k-1} + dz_k) at interior interfaces, else 0 */
    const double *rd2c;     /* [sc] 1 / (z_c(k+1) - z_c(k-1)), the ends one-sided */
    /* the layers' metric (gale_shell_t, layout/gale_extrusion.h): each is the
     * flat column's value exactly in the shallow atmosphere */
    const double *dzv;      /* [sc] a layer's volume per unit area at r = a */
    const double *dzf;      /* [sc] a side face's area per unit length at r = a */
    const double *dzh;      /* [sc] the weak horizontal gradient's depth, dz dzf / dzv */
    const double *hl;       /* [sc] a layer's horizontal divergence over the flat one's */
    const double *qi;       /* [si] an interface's area over its area at r = a */
    const double *gi;       /* [si] gravity at the interfaces */
    const double *rc, *ri;  /* [sc], [si] 1 / r at layer centres, interfaces (deep only) */
    const double *fcos;     /* [ncell] 2 Omega cos(lat) (deep only) */
    int ncell, nedge, nlev, sc, si;
    void *impl;             /* launch-layer private data */
} gale_knl_t;

/* The deep atmosphere's lift: the upward acceleration 2 Omega cos(lat)
 * u_east + |U|^2 / r of the wind (ue, vn) at 1 / r = ri. nl_dvf's forcing
 * of w, and so the baroclinic wave's initial balance. */
static inline double gale_knl_deep_lift(double fcos, double ue, double vn, double ri)
{
    return fcos * ue + (ue * ue + vn * vn) * ri;
}

/* prof and rhoe are registered fields' data (the kernels write them). */
int gale_knl_init(gale_knl_t *nk);
void gale_knl_finalize(gale_knl_t *nk);

/* Column c's row of the reference coefficients */
#define GALE_NLP(nk, km, row, c) ((nk)->prof + (size_t)(c) * (nk)->pstride + (size_t)(row) * (km)->si)

#endif
