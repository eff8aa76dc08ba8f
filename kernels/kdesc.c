/* The kernel table, derived from the rows (gale_kdesc.h); both launch layers
 * compile this file once, as rsum.c. */
#include "gale_kdesc.h"

#include "gale_base.h"

#include <stddef.h>

#define GALE_KF_(n, loc, acc, st) GALE_KF_##loc(n, acc, st)
#define GALE_KF_FIELD_(n, loc, acc, st) {#n, GALE_KL_##loc, GALE_KA_##acc, st},
#define GALE_KF_C(n, acc, st) GALE_KF_FIELD_(n, C, acc, st)
#define GALE_KF_E(n, acc, st) GALE_KF_FIELD_(n, E, acc, st)
#define GALE_KF_I(n, acc, st) GALE_KF_FIELD_(n, I, acc, st)
#define GALE_KF_CI(n, acc, st) GALE_KF_FIELD_(n, CI, acc, st)
#define GALE_KF_A(n, acc, st) GALE_KF_FIELD_(n, A, acc, st)
#define GALE_KF_S(n, acc, st)
#define GALE_KS_(n, loc, acc, st) GALE_KSC_##loc(n)
#define GALE_KSC_S(n) #n,
#define GALE_KSC_C(n)
#define GALE_KSC_E(n)
#define GALE_KSC_I(n)
#define GALE_KSC_CI(n)
#define GALE_KSC_A(n)
#define GALE_KNF_(n, loc, acc, st) +(GALE_KL_##loc != 0)
#define GALE_KNS_(n, loc, acc, st) +(GALE_KL_##loc == 0)
#define GALE_KPREC_D 0
#define GALE_KPREC_DF 1

#define GALE_KROW_(cat, name, space, aux, prec, ext, red, bytes, flops, args, cd, cf)        \
    [GALE_K_##name] = {#name,                                                              \
                       GALE_KS_##space,                                                    \
                       GALE_KAUX_##aux,                                                    \
                       GALE_KPREC_##prec,                                                  \
                       ext,                                                                \
                       red,                                                                \
                       0 GALE_PP_MAPT(GALE_KNF_, args),                                    \
                       0 GALE_PP_MAPT(GALE_KNS_, args),                                    \
                       {GALE_PP_MAPT(GALE_KF_, args)},                                     \
                       {GALE_PP_MAPT(GALE_KS_, args) NULL},                                \
                       #cd,                                                                \
                       cat},
/* The table by row list, each list's rows with its category: a row macro per
 * category (a category named in GALE_KCATEGORIES without one here does not
 * compile). */
#define GALE_KROW_dynamics(...) GALE_KROW_("dynamics", __VA_ARGS__)
#define GALE_KROW_vector(...) GALE_KROW_("vector", __VA_ARGS__)
#define GALE_KROW_solver(...) GALE_KROW_("solver", __VA_ARGS__)
#define GALE_KROW_precond(...) GALE_KROW_("precond", __VA_ARGS__)
#define GALE_KROW_reduce(...) GALE_KROW_("reduce", __VA_ARGS__)
#define GALE_KROW_transport(...) GALE_KROW_("transport", __VA_ARGS__)
#define GALE_KROW_nonlinear(...) GALE_KROW_("nonlinear", __VA_ARGS__)
#define GALE_KROWS_IN_(list, cat) GALE_KROWS_##list(GALE_KROW_##cat)
const gale_kdesc_t gale_kdesc[GALE_K_N] = {GALE_KCATEGORIES(GALE_KROWS_IN_)};
/* every list of GALE_KERNELS has a category, once: the same number of rows */
#define GALE_KONE_(...) +1
#define GALE_KCOUNT_(list, cat) GALE_KROWS_##list(GALE_KONE_)
_Static_assert(0 GALE_KCATEGORIES(GALE_KCOUNT_) == GALE_K_N,
               "a row list of GALE_KERNELS missing from GALE_KCATEGORIES, or named twice");

#define GALE_KBYTES_(name, space, aux, prec, ext, red, bytes, flops, args, cd, cf)           \
    case GALE_K_##name: return (double)(bytes);
#define GALE_KFLOPS_(name, space, aux, prec, ext, red, bytes, flops, args, cd, cf)           \
    case GALE_K_##name: return (double)(flops);

static double bytes_per_point(int id, int nlev)
{
    const double NL = nlev > 0 ? nlev : 1;
    (void)NL;
    switch (id) { GALE_KERNELS(GALE_KBYTES_) }
    return 0;
}

double gale_kdesc_flops_per_point(int id, int nlev)
{
    const double NL = nlev > 0 ? nlev : 1;
    (void)NL;
    switch (id) { GALE_KERNELS(GALE_KFLOPS_) }
    return 0;
}

/* Columns of a field of location loc that a loop over n columns of the
 * kernel's space touches: an edge loop half a cell column per edge (a cube
 * has twice as many edges as cells), a cell loop two edge columns per cell. */
static double columns(int space, int loc, double n)
{
    const int edges = space == GALE_KS_EDGES;
    if (space == GALE_KS_FLAT || space == GALE_KS_COLS || space == GALE_KS_REDUCE) return n;
    if (loc == GALE_LOC_EDGE) return edges ? n : 2 * n;
    return edges ? 0.5 * n : n;
}

/* The fields once each (twice when read and written), from their
 * locations, levels and precision, and the row's coefficients per point. */
double gale_k_launch_bytes(int id, const gale_kargs_t *a, int i0, int i1)
{
    const gale_kdesc_t *k = &gale_kdesc[id];
    const double n = i1 > i0 ? i1 - i0 : 0;
    double b = 0;
    for (int j = 0; j < k->nfield; j++) {
        const gale_kfield_t *f = &a->f[j];
        if (!f->p) continue;
        /* FLAT kernels touch whole column blocks (padding included) */
        const double per = k->space == GALE_KS_FLAT || k->space == GALE_KS_COLS ? a->flat : f->nlev;
        /* a field read and written moves twice */
        b += columns(k->space, f->loc, n) * per * f->elem * (k->field[j].access == GALE_KA_RW ? 2 : 1);
    }
    const double points = n * (k->space == GALE_KS_FLAT || k->space == GALE_KS_COLS ? a->flat : a->nlev);
    const double scale = a->prec == GALE_F32 ? 0.5 : 1.0;
    return b + points * bytes_per_point(id, a->nlev) * scale;
}

void gale_k_timers_register(int *kt)
{
    for (int i = 0; i < GALE_K_N; i++)
        kt[i] = gale_timer_register(gale_kdesc[i].name, GALE_T_COMPUTE);
}
