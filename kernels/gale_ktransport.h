/* Launch-layer interface of the transport kernels' static data (flux-form
 * finite-volume advection, docs/transport.md): the kernels are described
 * beside their bodies in gale_kbodies_transport.h and run by gale_k_run
 * (gale_kdesc.h). Not collective. */
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
    /* the deep atmosphere's metric (gale_shell_t), NULL in the shallow one:
     * flux divergences are the flat column's times hl (layers) or hi
     * (interfaces), vertical fluxes cross interfaces of area qi, into
     * layers of volume dzv (1 / dzv: rdzv) */
    const double *hl, *hi, *qi, *rdzv;
    int limit;            /* 1: limited face values (the tracers'); 0: the reconstruction as it is
                             (the nonlinear core's dynamics: linear in a small perturbation) */
    void *impl;           /* launch-layer private data */
} gale_ktr_t;

int gale_ktr_init(gale_ktr_t *tr, const gale_kmesh_t *km);
void gale_ktr_finalize(gale_ktr_t *tr);

#endif
