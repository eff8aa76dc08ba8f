/* The compute timers of the launch layers: one per kernel family, with the
 * same names in every backend, so that reports of different builds compare.
 * A launch file declares `static int kt[...]`, registers it with
 * gale_kt_register and brackets a launch with TSTART / TSTOP(id). */
#ifndef GALE_KTIMERS_H
#define GALE_KTIMERS_H

#include "gale_base.h"
#include "gale_knl.h"

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

/* the nonlinear core's kernels, by GALE_NL_* id (gale_knl.h) */
static const char *const gale_knl_names[GALE_NL_NK] = {
    [GALE_NL_EOS] = "nl_eos",       [GALE_NL_PGRAD] = "nl_pgrad",   [GALE_NL_VFORCE] = "nl_vforce",
    [GALE_NL_RHS] = "nl_rhs",       [GALE_NL_MIXCOL] = "nl_mixcol", [GALE_NL_UPDATE] = "nl_update",
    [GALE_NL_FLUXES] = "nl_fluxes", [GALE_NL_ADVI] = "nl_advi",     [GALE_NL_RECON] = "nl_recon",
    [GALE_NL_MOM] = "nl_mom",       [GALE_NL_VORT] = "nl_vort",     [GALE_NL_TLIN] = "nl_tlin",
    [GALE_NL_CORW] = "nl_corw",     [GALE_NL_APVM] = "nl_apvm",     [GALE_NL_BUDGET] = "nl_budget",
    [GALE_NL_GRID] = "nl_grid"};

/* sub-timers of "compute" */
static inline void gale_kt_register(int *kt, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) kt[i] = gale_timer_register(names[i], GALE_T_COMPUTE);
}

#define TSTART double t0_ = gale_wtime()
#define TSTOP(id) gale_timer_add(kt[id], gale_wtime() - t0_)

#endif
