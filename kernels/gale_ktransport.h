/* Launch-layer interface of the transport kernels (flux-form finite-volume
 * advection, docs/transport.md). Both launch layers implement these over the
 * bodies in gale_kbodies_transport.h. Not collective. */
#ifndef GALE_KTRANSPORT_H
#define GALE_KTRANSPORT_H

#include "gale_kernels.h"

#define GALE_TR_NB 8 /* vertex neighbours kept per cell (7 at cube corners: the 8th is the cell itself) */

/* Static per-rank transport data: reconstruction stencils and coefficients. */
typedef struct {
    int ncell, nedge;
    const int *nb;        /* [GALE_TR_NB*ncell] vertex neighbours (local), padded with the cell itself */
    const double *rc;     /* [4*GALE_TR_NB*ncell] face-value coefficients: q_face(s) = q_c + phi sum_n rc[s][n] (q_n - q_c) */
    const int *eside;     /* [2*nedge] side of the edge in its first and second cell */
    const double *rarea;  /* [ncell] 1/A_c */
    const double *zc, *zi;/* [nlev] layer centres, [nlev+1] interfaces (vertical reconstruction) */
    const double *rdz;    /* [nlev] 1/dz */
    int limit;            /* 1: limited face values (the tracers'); 0: the reconstruction as it is
                             (the nonlinear core's dynamics: linear in a small perturbation) */
    void *impl;           /* launch-layer private data */
} gale_ktr_t;

int gale_ktr_init(gale_ktr_t *tr, const gale_kmesh_t *km);
void gale_ktr_finalize(gale_ktr_t *tr);

/* Face values of q (nl levels, stride) on the 4 sides of cells [c0,c1):
 * quadratic least-squares reconstruction, limited (Barth-Jespersen style,
 * when tr->limit) so that no face value is further from the cell value than
 * the nearer bound of the cell's and its neighbours' range.
 * qf: [(4*c + s)*stride + k]. */
void gale_k_tr_faces(const gale_ktr_t *tr, int c0, int c1, int nl, int stride, const double *q,
                     double *qf);
/* Horizontal tracer fluxes on edges [e0,e1): fq = f * q_face(upwind cell). */
void gale_k_tr_hflux(const gale_ktr_t *tr, const gale_kmesh_t *km, int e0, int e1, int nl,
                     int stride, const double *f, const double *qf, double *fq);
/* Vertical tracer fluxes of columns [c0,c1) at interior interfaces:
 * wq = W * q_face(upwind layer), limited linear in the vertical; 0 at the
 * ground and the top (limited when tr->limit). slope: [c*sc + k] scratch. */
void gale_k_tr_vflux(const gale_ktr_t *tr, const gale_kmesh_t *km, int c0, int c1,
                     const double *q, const double *w, double *slope, double *wq);
/* Tendency of columns [c0,c1): out = -( (1/A) sum_s sign_s fq[e_s] + (wq[k+1]-wq[k])/dz_k );
 * wq NULL: horizontal only (nl levels, stride). */
void gale_k_tr_tend(const gale_ktr_t *tr, const gale_kmesh_t *km, int c0, int c1, int nl,
                    int stride, int wstride, const double *fq, const double *wq, double *out);
/* out = x / y (columns [c0,c1), whole blocks; padding 0/0 is left 0). */
void gale_k_tr_ratio(int c0, int c1, int stride, const double *x, const double *y, double *out);
/* min and max over columns [c0,c1), levels [0,nl). */
void gale_k_tr_minmax(int c0, int c1, int nl, int stride, const double *x, double *mn, double *mx);

#endif
