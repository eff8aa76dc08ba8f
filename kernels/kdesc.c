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
#define GALE_KF_WC(n, acc, st)
#define GALE_KF_WL(n, acc, st)
#define GALE_KS_(n, loc, acc, st) GALE_KSC_##loc(n)
#define GALE_KSC_S(n) #n,
#define GALE_KSC_C(n)
#define GALE_KSC_E(n)
#define GALE_KSC_I(n)
#define GALE_KSC_CI(n)
#define GALE_KSC_A(n)
#define GALE_KSC_WC(n)
#define GALE_KSC_WL(n)
/* counts: fields are C, E, I, CI, A; scalars S; weights (WC, WL) neither */
#define GALE_KNF_(n, loc, acc, st) GALE_KN_##loc(+1, )
#define GALE_KNS_(n, loc, acc, st) GALE_KN_##loc(, +1)
#define GALE_KN_C(f, s) f
#define GALE_KN_E(f, s) f
#define GALE_KN_I(f, s) f
#define GALE_KN_CI(f, s) f
#define GALE_KN_A(f, s) f
#define GALE_KN_S(f, s) s
#define GALE_KN_WC(f, s)
#define GALE_KN_WL(f, s)
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
#define GALE_KG_K_(k) GALE_K_##k,
#define GALE_KG_ONE_(k) +1
#define GALE_KG_ROW_(name, cat, ks)                                                        \
    [GALE_KG_##name] = {#name, #cat, 0 GALE_PP_MAPT(GALE_KG_ONE_, ks), {GALE_PP_MAPT(GALE_KG_K_, ks)}},
const gale_kgroup_t gale_kgroup[GALE_KG_N] = {GALE_KGROUPS(GALE_KG_ROW_)};
/* every list of GALE_KERNELS has a category, once: the same number of rows */
#define GALE_KONE_(...) +1
#define GALE_KCOUNT_(list, cat) GALE_KROWS_##list(GALE_KONE_)
_Static_assert(0 GALE_KCATEGORIES(GALE_KCOUNT_) == GALE_K_N,
               "a row list of GALE_KERNELS missing from GALE_KCATEGORIES, or named twice");

/* A row's bytes and flops are expressions in its launch (gale_kdesc.h): the
 * symbols below, the row's scalar arguments by name (their values), its
 * field arguments by name (1 when given, 0 when NULL) and name_nlev (their
 * levels), its weights by name (1 when given). */
#define GALE_KX_BIND_(n, loc, acc, st) GALE_KX_BIND_##loc(n)
#define GALE_KX_FIELD_(n)                                                                  \
    const double n = ka_->f[kf_].p != NULL, n##_nlev = ka_->f[kf_++].nlev;                 \
    (void)n, (void)n##_nlev;
#define GALE_KX_BIND_C(n) GALE_KX_FIELD_(n)
#define GALE_KX_BIND_E(n) GALE_KX_FIELD_(n)
#define GALE_KX_BIND_I(n) GALE_KX_FIELD_(n)
#define GALE_KX_BIND_CI(n) GALE_KX_FIELD_(n)
#define GALE_KX_BIND_A(n) GALE_KX_FIELD_(n)
#define GALE_KX_BIND_S(n)                                                                  \
    const double n = ka_->s[ks_++];                                                        \
    (void)n;
#define GALE_KX_WEIGHT_(n)                                                                 \
    const double n = ka_->w[kw_++] != NULL;                                                \
    (void)n;
#define GALE_KX_BIND_WC(n) GALE_KX_WEIGHT_(n)
#define GALE_KX_BIND_WL(n) GALE_KX_WEIGHT_(n)
#define GALE_KX_CASE_(name, space, aux, prec, ext, red, bytes, flops, args, cd, cf)          \
    case GALE_K_##name: {                                                                  \
        int kf_ = 0, ks_ = 0, kw_ = 0;                                                     \
        GALE_PP_MAPT(GALE_KX_BIND_, args)                                                  \
        (void)kf_, (void)ks_, (void)kw_;                                                   \
        return flops_ ? (double)(flops) : (double)(bytes);                                 \
    }

/* The row's bytes (flops_ 0) or flops per point of a launch on [i0, i1). */
static double per_point(int id, const gale_kargs_t *ka_, int i0, int i1, int flops_)
{
    const gale_kmesh_t *km = ka_->km;
    const double NL = ka_->nlev > 0 ? ka_->nlev : 1, ES = ka_->prec == GALE_F32 ? 4 : 8;
    const double NLAY = km ? km->nlev : NL;
    const double DEEP = km && km->deep, TDEEP = ka_->tr && ka_->tr->hl;
    const double LIM = ka_->tr && ka_->tr->limit, PS = ka_->nk && ka_->nk->pstride;
    const int b0 = i0 / GALE_LANES, b1 = (i1 + GALE_LANES - 1) / GALE_LANES;
    const double FILL = i1 > i0 ? (double)(i1 - i0) / ((b1 - b0) * GALE_LANES) : 1;
    (void)NL, (void)ES, (void)NLAY, (void)DEEP, (void)TDEEP, (void)LIM;
    (void)PS, (void)FILL;
    switch (id) { GALE_KERNELS(GALE_KX_CASE_) }
    return 0;
}

/* Columns of a field of location loc that a loop over n columns of the
 * kernel's space touches: an edge loop half a cell column per edge (a cube
 * has twice as many edges as cells), a cell loop two edge columns per cell. */
static double columns(int space, int loc, double n)
{
    const int edges = space == GALE_KS_EDGES;
    if (space == GALE_KS_FLAT || space == GALE_KS_COLS || GALE_KS_REDUCES(space)) return n;
    if (loc == GALE_LOC_EDGE) return edges ? n : 2 * n;
    return edges ? 0.5 * n : n;
}

/* The points a launch's row counts: columns x levels of the first field
 * (FLAT, COLS: x the elements of a column block); BATCH: whole batches of
 * GALE_LANES columns, which the batched factors and the sweeps cover even
 * where the range ends inside one. */
static double points(int id, const gale_kargs_t *a, int i0, int i1)
{
    const gale_kdesc_t *k = &gale_kdesc[id];
    if (i1 <= i0) return 0;
    if (k->space == GALE_KS_FLAT || k->space == GALE_KS_COLS) return (double)(i1 - i0) * a->flat;
    if (k->space == GALE_KS_BATCH)
        return (double)((i1 + GALE_LANES - 1) / GALE_LANES - i0 / GALE_LANES) * GALE_LANES * a->nlev;
    return (double)(i1 - i0) * a->nlev;
}

/* A reduction's sets add up, each a launch of its own. */
static double sets(double (*fn)(int, const gale_kargs_t *, int, int), int id,
                   const gale_kargs_t *a, int i0, int i1)
{
    gale_kargs_t one = *a;
    one.nset = 1;
    double v = fn(id, &one, i0, i1);
    for (int s = 1; s < a->nset; s++) v += fn(id, &a[s], i0, i1);
    return v;
}

/* The fields once each (twice when read and written), from their
 * locations, levels and precision, and the row's bytes per point. */
double gale_k_launch_bytes(int id, const gale_kargs_t *a, int i0, int i1)
{
    if (a->nset > 1) return sets(gale_k_launch_bytes, id, a, i0, i1);
    const gale_kdesc_t *k = &gale_kdesc[id];
    const double n = i1 > i0 ? i1 - i0 : 0;
    double b = 0;
    for (int j = 0; j < k->nfield; j++) {
        const gale_kfield_t *f = &a->f[j];
        int acc = k->field[j].access, first = 1;
        if (!f->p) continue;
        /* a field given for several arguments moves once for all of them */
        for (int i = 0; i < k->nfield; i++)
            if (a->f[i].p == f->p) {
                first &= i >= j;
                acc |= k->field[i].access;
            }
        if (!first) continue;
        /* FLAT kernels touch whole column blocks (padding included) */
        const double per = k->space == GALE_KS_FLAT || k->space == GALE_KS_COLS ? a->flat : f->nlev;
        /* a field read and written moves twice */
        b += columns(k->space, f->loc, n) * per * f->elem * (acc == GALE_KA_RW ? 2 : 1);
    }
    return b + points(id, a, i0, i1) * per_point(id, a, i0, i1, 0);
}

double gale_k_launch_flops(int id, const gale_kargs_t *a, int i0, int i1)
{
    if (a->nset > 1) return sets(gale_k_launch_flops, id, a, i0, i1);
    return points(id, a, i0, i1) * per_point(id, a, i0, i1, 1);
}

/* A fused group's launches (docs/fusion.md): each field once, from memory
 * when the group first reads it (and back when it also writes it), or only
 * back when the group writes it first (what later members read of it stays
 * in cache); the rows' bytes per point of every member. */
double gale_k_group_bytes(int n, const int *ids, const gale_kargs_t *a, int i0, int i1)
{
    const double nc = i1 > i0 ? i1 - i0 : 0;
    double b = 0;
    for (int g = 0; g < n; g++) {
        const gale_kdesc_t *k = &gale_kdesc[ids[g]];
        b += points(ids[g], &a[g], i0, i1) * per_point(ids[g], &a[g], i0, i1, 0);
        for (int j = 0; j < k->nfield; j++) {
            const gale_kfield_t *f = &a[g].f[j];
            int seen = 0, read_first = 0, written = 0;
            if (!f->p) continue;
            for (int h = 0; h < n && !seen; h++)
                for (int i = 0; i < gale_kdesc[ids[h]].nfield; i++) {
                    if (a[h].f[i].p != f->p) continue;
                    if (h < g || (h == g && i < j)) seen = 1;
                }
            if (seen) continue; /* counted at its first appearance */
            double per = 0;
            for (int h = 0; h < n; h++) {
                /* a launch reads its inputs before it writes: its accesses as one */
                const gale_kdesc_t *kh = &gale_kdesc[ids[h]];
                int acc = 0;
                for (int i = 0; i < kh->nfield; i++) {
                    if (a[h].f[i].p != f->p) continue;
                    acc |= kh->field[i].access;
                    const double c = columns(kh->space, f->loc, nc) *
                                     (kh->space == GALE_KS_FLAT || kh->space == GALE_KS_COLS
                                          ? a[h].flat : f->nlev);
                    per = c > per ? c : per;
                }
                if (!written && (acc & GALE_KA_R)) read_first = 1;
                if (acc & GALE_KA_W) written = 1;
            }
            b += per * f->elem * (read_first && written ? 2 : 1);
        }
    }
    return b;
}

void gale_k_timers_register(int *kt)
{
    for (int i = 0; i < GALE_K_N; i++)
        kt[i] = gale_timer_register(gale_kdesc[i].name, GALE_T_COMPUTE);
    for (int g = 0; g < GALE_KG_N; g++)
        kt[GALE_K_N + g] = gale_timer_register(gale_kgroup[g].name, GALE_T_COMPUTE);
}
