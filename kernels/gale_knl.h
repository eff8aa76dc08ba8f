/* Launch-layer interface of the nonlinear core's kernels (GungHo's
 * equations, docs/nonlinear.md). Both launch layers implement gale_knl_init,
 * gale_knl_set_profile, gale_knl_finalize and gale_k_nl over the one set of
 * bodies in gale_kbodies_nl.h; psy/ describes each kernel's access. Not
 * collective. */
#ifndef GALE_KNL_H
#define GALE_KNL_H

#include "gale_kernels.h"

/* The reference state's per-level coefficients of the linearised operator,
 * rows of km->si values each (docs/nonlinear.md, "The linear system"):
 * star = the reference profile (theta* at interfaces, Pi*, rho* in layers). */
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
    const double *prof;     /* [GALE_NLP_N * si] the reference coefficients (changes at a reset) */
    const double *fcor;     /* [ncell] 2 Omega sin(lat) */
    const double *prc;      /* [8 ncell] reconstruction: U_c (east, north) = sum_s prc[2s..] u_s */
    const double *nrm;      /* [4 nedge] the edge normal in its first, second cell's (east, north) */
    const int *vidx;        /* [12 ncell] the vorticity stencil's edges */
    const double *vw;       /* [12 ncell] its weights: zeta_c = sum_j vw[j] (U.t)[vidx[j]] */
    const double *tng;      /* [4 nedge] the unit vector from the first cell's centre to the
                               second's, in the first, second cell's (east, north) */
    const double *rd2i;     /* [si] 1 / (dz_{k-1} + dz_k) at interior interfaces, else 0 */
    const double *rd2c;     /* [sc] 1 / (z_c(k+1) - z_c(k-1)), the ends one-sided */
    int ncell, nedge, nlev, sc, si;
    void *impl;             /* launch-layer private data */
} gale_knl_t;

int gale_knl_init(gale_knl_t *nk);
/* The host changed nk->prof (a reference-state reset). */
int gale_knl_set_profile(gale_knl_t *nk);
void gale_knl_finalize(gale_knl_t *nk);

/* The kernels; f[] and s[] as gale_kbodies_nl.h lists them for each. */
enum {
    GALE_NL_EOS,    /* cells:  rho, theta -> pi */
    GALE_NL_PGRAD,  /* edges:  theta, pi, ke -> pg (weak: (cp theta_e (Pi2 - Pi1) + K2 - K1) l dz) */
    GALE_NL_VFORCE, /* cells:  theta, pi -> fv (cp theta G_z Pi + g) */
    GALE_NL_RHS,    /* cells:  Rw, Rtheta, Rrho -> rw, rb, rp (the mixed system's right-hand side) */
    GALE_NL_MIXCOL, /* cells:  u, w, b, p -> yw, yb, yp (s: a, s) */
    GALE_NL_UPDATE, /* cells:  du, dw, b, Rtheta, Rrho; w, theta, rho updated (s: tau) */
    GALE_NL_FLUXES, /* edges:  ubar -> f (layers), fi (interfaces) */
    GALE_NL_ADVI,   /* cells:  q, tq, t1, wbar -> tend (advective form, interface fields) */
    GALE_NL_RECON,  /* cells:  u -> ue, un, ke */
    GALE_NL_MOM,    /* edges:  ue, un, wbar -> a: the vertical advection of the wind */
    GALE_NL_VORT,   /* cells:  ue, un -> zeta */
    GALE_NL_TLIN,   /* cells:  du, dw; Rtheta, Rrho updated (s: tau): the transport's linear part */
    GALE_NL_CORW,   /* edges:  ue, un, q -> the vorticity force, weak (dz sum_c A_c prc . F_c,
                       F_c = -q k x U_c) */
    GALE_NL_APVM,   /* cells:  zeta, its face values, u -> q = zeta + f - tau_a U.grad zeta (s: tau_a) */
    GALE_NL_BUDGET, /* cells:  rho, theta, pi, w, ke -> the budgets' densities e (2 sc levels:
                       cv rho T from 0, rho (K + w^2/2) from sc), ent (rho cp ln theta),
                       ps (surface pressure, in every level) */
    GALE_NL_GRID,   /* edges:  u, ue, un -> r = u - the mean of its cells' U . n (the part of u
                       the cell reconstruction does not see) */
    GALE_NL_NK
};
#define GALE_NL_MAXF 8
/* Kernel `id` on columns (cells or edges) [i0, i1). */
void gale_k_nl(int id, const gale_kmesh_t *km, const gale_knl_t *nk, int i0, int i1,
               const double s[2], double *const f[GALE_NL_MAXF]);

#endif
