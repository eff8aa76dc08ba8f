/* The compute timers of the launch layers: one per kernel family, with the
 * same names in every backend, so that reports of different builds compare.
 * A launch file declares `static int kt[...]`, registers it with
 * gale_kt_register and brackets a launch with TSTART / TSTOP(id). */
#ifndef GALE_KTIMERS_H
#define GALE_KTIMERS_H

#include "gale_base.h"

enum {
    KT_GRAD, KT_COLEXP, KT_BACKSUB, KT_RHS, KT_HELM, KT_PC, KT_VEC, KT_DOT, KT_CHECK, KT_SMOOTH,
    KT_GRID, KT_MIX, KT_SCHUR, KT_N
};
static const char *const gale_kt_names[KT_N] = {
    "grad_h", "col_explicit", "col_backsub", "rhs", "helmholtz", "precond", "vector", "dots",
    "checks", "smooth", "intergrid", "mixed", "schur"};
enum { KTR_FACES, KTR_HFLUX, KTR_VFLUX, KTR_TEND, KTR_RATIO, KTR_N };
static const char *const gale_ktr_names[KTR_N] = {"tr_faces", "tr_hflux", "tr_vflux", "tr_tend",
                                                  "tr_ratio"};

/* the nonlinear core's kernels, in GALE_NL_* order (gale_knl.h) */
static const char *const gale_knl_names[] = {"nl_eos",  "nl_pgrad", "nl_vforce", "nl_rhs",
                                             "nl_mixcol", "nl_update", "nl_fluxes", "nl_advi",
                                             "nl_recon", "nl_mom", "nl_vort", "nl_tlin", "nl_corw", "nl_budget", "nl_apvm"};

/* sub-timers of "compute" */
static inline void gale_kt_register(int *kt, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) kt[i] = gale_timer_register(names[i], GALE_T_COMPUTE);
}

#define TSTART double t0_ = gale_wtime()
#define TSTOP(id) gale_timer_add(kt[id], gale_wtime() - t0_)

#endif
