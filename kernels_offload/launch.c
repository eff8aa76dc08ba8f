/* OpenMP-offload launch layer: the same column bodies as kernels_cpu/, run
 * by `target teams distribute parallel for` with one device thread per
 * column (or per batch of GALE_LANES columns for the tridiagonal solve);
 * levels stay inside the body. docs/offload.md describes the whole design.
 *
 * This file dispatches the launches (the described kernels, the reductions
 * among them, and the triad) and sets up the kmesh they read: gale_k_init
 * configures the device if nobody did (device.c), mirrors the kmesh's
 * read-only arrays through the table below (mirror.c) and gives it a scratch
 * pool. Each launch turns the host addresses it is passed into the kernels'
 * (residency.c, gale_koff_ptr) and hands those over with is_device_ptr. It
 * calls down only: device.c, mirror.c, residency.c. */
#include "gale_base.h"
#include "gale_koffload.h" /* GALE_SIMD, residency.h */

#include <omp.h>

#include "device.h"
#include "gale_kdesc.h"
#include "gale_ktimers.h"
#include "mirror.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>

typedef struct {
    gale_koff_mirror_t m; /* m.kd: the kmesh with kernel addresses */
    void *scratch; /* per batch: [nlev][GALE_LANES] + [sc] doubles (tridiagonal, smoother) */
} off_impl_t;
static int nkmesh; /* kmeshes initialised and not finalised */
#define KD(km) ((const gale_kmesh_t *)((const off_impl_t *)(km)->impl)->m.kd)

static int kt[GALE_K_N + GALE_KG_N]; /* kernel and group timers (gale_ktimers.h) */

/* ---- life cycle ---- */

int gale_k_init(gale_kmesh_t *km)
{
    if (!gale_koff_configured()) { /* a caller that did not configure: the defaults */
        gale_kopts_t o = {GALE_MEM_DISCRETE, 0, 0};
        gale_kdevice_t dv;
        char msg[512];
        if (gale_k_configure(&o, &dv, msg, sizeof msg) != GALE_OK)
            GALE_ERROR(GALE_ERR_INPUT, "%s", msg);
    }
    gale_k_timers_register(kt);
    off_impl_t *im = NULL;
    GALE_ALLOC(im, 1);
    const size_t nl = km->nlev, sc = km->sc, nc = km->ncell, ne = km->nedge,
                 na = km->ncell_alloc, D = sizeof(double), F = sizeof(float), I = sizeof(int);
    /* the kmesh's read-only arrays: what the kernels read of it */
#define A(member, bytes) GALE_KOFF_STATIC(gale_kmesh_t, member, bytes)
    const gale_koff_static_t a[] = {
        A(cell_nbr, 4 * nc * I),  A(cell_edge, 4 * nc * I),   A(cell_sign, 4 * nc * D),
        A(edge_cell, 2 * ne * I), A(edge_side, 2 * ne * I),   A(area, nc * D),
        A(elen, ne * D),          A(erdist, ne * D),          A(dz, nl * D),
        A(dzi, (nl + 1) * D),     A(mfd, 16 * nc * D),        A(rdzi, (nl + 1) * D),
        A(dzv, nl * D),           A(dzf, nl * D),             A(hl, nl * D),
        A(qi, (nl + 1) * D),      A(dzqi, (nl + 1) * D),      A(h_ad, na * D),
        A(h_av, na * D),          A(h_hs, 4 * na * D),        A(h_dzh, nl * D),
        A(h_rho, nl * D),         A(h_rq, (nl + 1) * D),      A(h_ad_f, na * F),
        A(h_av_f, na * F),        A(h_hs_f, 4 * na * F),      A(h_dzh_f, nl * F),
        A(h_rho_f, nl * F),       A(h_rq_f, (nl + 1) * F),    A(tri_m, na * nl * D),
        A(tri_c, na * nl * D),    A(tri_m_f, na * nl * F),    A(tri_c_f, na * nl * F),
        A(diag_inv, na * sc * D), A(diag_inv_f, na * sc * F), A(child, 4 * (size_t)km->nchild * I)};
#undef A
    GALE_CALL(gale_koff_mirror(km, sizeof *km, offsetof(gale_kmesh_t, impl), a,
                               (int)(sizeof a / sizeof a[0]), "the kmesh", &im->m));
    nkmesh++;
    /* per batch: the transposed columns and the smoother's residual column */
    const size_t sbytes = na / GALE_LANES * (nl * GALE_LANES + sc) * D;
    im->scratch = gale_koff_alloc(sbytes);
    if (!im->scratch)
        GALE_ERROR(GALE_ERR_MEM, "cannot allocate %zu bytes on device %d", sbytes, gale_koff_dev());
    km->impl = im;
    return GALE_OK;
}

void gale_k_finalize(gale_kmesh_t *km)
{
    off_impl_t *im = km->impl;
    if (!im) return;
    gale_koff_free(im->scratch);
    /* this kmesh's arrays; with the last kmesh everything still mapped */
    gale_koff_unmirror(&im->m);
    if (--nkmesh == 0) gale_koff_unmap_all();
    gale_free(im);
    km->impl = NULL;
}

/* ---- the described kernels (gale_kdesc.h, gale_kdispatch.h) ----
 * One device thread per column (cells, edges), per element (FLAT) or per
 * batch of GALE_LANES columns with its own scratch from the kmesh's pool
 * (BATCH); the bodies get the kernel addresses of the fields (gale_koff_ptr)
 * and weights (gale_koff_weight: copied when first seen), of the kmesh (KD)
 * and of the transport's and nonlinear core's static data (their mirrors,
 * gale_koff_mirrored). */
#define GALE_KADDR(p) gale_koff_ptr(p)
#define GALE_KWEIGHT(w, n) gale_koff_weight((w), (n))
#define GALE_KLOOP_CELLS(devptrs, body)                                                    \
    GALE_PP_PRAGMA(omp target teams distribute parallel for device(dev_)                   \
                       is_device_ptr(KM, TR, NK GALE_PP_UNPAREN devptrs))                  \
    for (int i = i0; i < i1; i++) { body; }
#define GALE_KLOOP_EDGES(devptrs, body) GALE_KLOOP_CELLS(devptrs, body)
#define GALE_KLOOP_COLS(devptrs, body) GALE_KLOOP_CELLS(devptrs, body)
#define GALE_KLOOP_FLAT(devptrs, body)                                                     \
    GALE_PP_PRAGMA(omp target teams distribute parallel for device(dev_)                   \
                       is_device_ptr(KM GALE_PP_UNPAREN devptrs))                          \
    for (size_t i = fi0; i < fi1; i++) { body; }
#define GALE_KLOOP_BATCH(devptrs, body)                                                    \
    GALE_PP_PRAGMA(omp target teams distribute parallel for device(dev_)                   \
                       is_device_ptr(KM, TR, NK, pool_ GALE_PP_UNPAREN devptrs))           \
    for (int i = b0; i < b1; i++) {                                                        \
        int l0, l1;                                                                        \
        gale_kb_batch_lanes(i, i0, i1, &l0, &l1);                                          \
        void *const T = pool_ + (size_t)i * per_;                                          \
        body;                                                                              \
    }

/* The reductions, each set in turn, folded on the host. SUM: per chunk, one
 * device thread per column and an int64 (or, plain, a double) reduction of
 * the chunk (the sum schedule, gale_kbodies.h); MAXABS, MINMAX: one max and
 * min reduction. */
#define GALE_KOFF_TARGET_(devptrs, red)                                                    \
    GALE_PP_PRAGMA(omp target teams distribute parallel for device(dev_)                   \
                       is_device_ptr(KM GALE_PP_UNPAREN devptrs) GALE_PP_UNPAREN red)
#define GALE_KLOOP_SUM(devptrs, bind, body)                                                \
    for (int j_ = 0; j_ < nset_; j_++) {                                                   \
        bind;                                                                              \
        for (int cs_ = i0, ce_; cs_ < i1; cs_ = ce_) {                                     \
            ce_ = gale_kb_dot_chunk_end(cs_, i1);                                          \
            gale_rsum_t p_ = {{0}, 0, 0.0};                                                \
            if (kb_->red->reproducible) {                                                  \
                int64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0, nb = 0; \
                GALE_KOFF_TARGET_(devptrs, (reduction(+ : w0, w1, w2, w3, w4, w5, w6, w7, nb))) \
                for (int i = cs_; i < ce_; i++) {                                          \
                    int64_t w[GALE_RSUM_WORDS] = {0}, bad = 0;                             \
                    gale_kb_rsum_term((body), w, &bad);                                    \
                    w0 += w[0], w1 += w[1], w2 += w[2], w3 += w[3];                        \
                    w4 += w[4], w5 += w[5], w6 += w[6], w7 += w[7];                        \
                    nb += bad;                                                             \
                }                                                                          \
                p_ = (gale_rsum_t){{w0, w1, w2, w3, w4, w5, w6, w7}, nb, 0.0};             \
                gale_koff_count_small(9 * sizeof(int64_t), 9 * sizeof(int64_t));           \
            } else {                                                                       \
                double s_ = 0;                                                             \
                GALE_KOFF_TARGET_(devptrs, (reduction(+ : s_)))                            \
                for (int i = cs_; i < ce_; i++) s_ += (body);                              \
                p_.plain = s_;                                                             \
                gale_koff_count_small(sizeof s_, sizeof s_);                               \
            }                                                                              \
            gale_kb_dot_fold(&kb_->red->sum, &p_);                                         \
        }                                                                                  \
    }
#define GALE_KLOOP_MAXABS(devptrs, bind, body)                                             \
    for (int j_ = 0; j_ < nset_; j_++) {                                                   \
        bind;                                                                              \
        double m = kb_->red->max;                                                          \
        int bc = INT_MAX;                                                                  \
        GALE_KOFF_TARGET_(devptrs, (reduction(max : m) reduction(min : bc)))               \
        for (int i = i0; i < i1; i++) { body; }                                            \
        gale_koff_count_small(sizeof m + sizeof bc, sizeof m + sizeof bc);                 \
        if (bc != INT_MAX) { /* rare: the first field's column's first bad level, there */ \
            const double *const c_ =                                                       \
                (const double *)GALE_KADDR(kb_->f[0].p) + (size_t)bc * kb_->f[0].stride;   \
            const int n_ = kb_->f[0].nlev;                                                 \
            int lev = -1;                                                                  \
            _Pragma("omp target device(dev_) is_device_ptr(c_) map(tofrom : lev)")         \
            lev = gale_kb_maxabs_bad_lev(c_, 0, n_);                                       \
            gale_koff_count_small(sizeof lev, sizeof lev);                                 \
            kb_->red->bad_col = bc, kb_->red->bad_lev = lev;                               \
            m = NAN;                                                                       \
        }                                                                                  \
        kb_->red->max = m;                                                                 \
    }
#define GALE_KLOOP_MINMAX(devptrs, bind, body)                                             \
    for (int j_ = 0; j_ < nset_; j_++) {                                                   \
        bind;                                                                              \
        double lo = kb_->red->min, hi = kb_->red->max;                                     \
        GALE_KOFF_TARGET_(devptrs, (reduction(min : lo) reduction(max : hi) map(tofrom : lo, hi))) \
        for (int i = i0; i < i1; i++) { body; }                                            \
        gale_koff_count_small(2 * sizeof(double), 2 * sizeof(double));                     \
        kb_->red->min = lo, kb_->red->max = hi;                                            \
    }

void gale_k_run(int id, const gale_kargs_t *a, int i0, int i1)
{
    if (i1 <= i0) return;
    TSTART;
    const gale_kargs_t *const ka_ = a;
    const gale_kmesh_t *const KM = a->km ? KD(a->km) : NULL;
    const gale_ktr_t *const TR = a->tr ? gale_koff_mirrored(a->tr->impl) : NULL;
    const gale_knl_t *const NK = a->nk ? gale_koff_mirrored(a->nk->impl) : NULL;
    const int dev_ = gale_koff_dev();
    /* per batch: the transposed columns and the smoother's residual column */
    char *const pool_ = a->km ? ((off_impl_t *)a->km->impl)->scratch : NULL;
    const size_t per_ = a->km ? ((size_t)a->km->nlev * GALE_LANES + (size_t)a->km->sc) *
                                    (a->prec == GALE_F64 ? sizeof(double) : sizeof(float))
                              : 0;
    const size_t fi0 = (size_t)i0 * a->flat, fi1 = (size_t)i1 * a->flat;
    const int b0 = i0 / GALE_LANES, b1 = (i1 + GALE_LANES - 1) / GALE_LANES;
    (void)fi0, (void)fi1, (void)b0, (void)b1, (void)pool_, (void)per_;
#include "gale_kdispatch.h"
    TSTOP_BYTES(id, gale_k_launch_bytes(id, a, i0, i1));
}

/* A fused group (docs/fusion.md): one device thread per column, which runs
 * every launch's body in turn through the same dispatch, its loop heads cut
 * to the one column (FLAT: the column's elements). The launches' arguments
 * go to the device with the kernel addresses already in them. */
#undef GALE_KADDR
#undef GALE_KWEIGHT
#define GALE_KADDR(p) (p)
#define GALE_KWEIGHT(w, n) (w)
#define GALE_KCOL_CELLS(devptrs, body)                                                    \
    {                                                                                      \
        const int i = col_;                                                                \
        body;                                                                              \
    }
#define GALE_KCOL_EDGES(devptrs, body) GALE_KCOL_CELLS(devptrs, body)
#define GALE_KCOL_COLS(devptrs, body) GALE_KCOL_CELLS(devptrs, body)
#define GALE_KCOL_FLAT(devptrs, body)                                                     \
    for (size_t i = fi0; i < fi1; i++) { body; }

void gale_k_run_group(int g, int n, const int *ids, const gale_kargs_t *a, int i0, int i1)
{
    if (i1 <= i0) return;
    const double t0 = gale_wtime();
    gale_kargs_t d[GALE_KG_MAX];
    for (int m = 0; m < n; m++) { /* the kernel addresses, as gale_k_run's */
        d[m] = a[m];
        d[m].km = a[m].km ? KD(a[m].km) : NULL;
        d[m].tr = a[m].tr ? gale_koff_mirrored(a[m].tr->impl) : NULL;
        d[m].nk = a[m].nk ? gale_koff_mirrored(a[m].nk->impl) : NULL;
        for (int j = 0; j < GALE_KMAXF; j++)
            if (a[m].f[j].p) d[m].f[j].p = gale_koff_ptr(a[m].f[j].p);
    }
    const int dev_ = gale_koff_dev();
    int ids_[GALE_KG_MAX];
    for (int m = 0; m < n; m++) ids_[m] = ids[m];
#pragma omp target teams distribute parallel for device(dev_) map(to : d[0 : n], ids_[0 : n])
    for (int col_ = i0; col_ < i1; col_++)
        for (int m_ = 0; m_ < n; m_++) {
            const int id = ids_[m_];
            const gale_kargs_t *const ka_ = &d[m_];
            const gale_kmesh_t *const KM = ka_->km;
            const gale_ktr_t *const TR = ka_->tr;
            const gale_knl_t *const NK = ka_->nk;
            const size_t fi0 = (size_t)col_ * ka_->flat, fi1 = fi0 + ka_->flat;
            (void)TR, (void)NK, (void)fi0, (void)fi1;
#define GALE_KD_COLUMN
#include "gale_kdispatch.h"
#undef GALE_KD_COLUMN
        }
    gale_koff_count_small(n * sizeof *d, 0);
    gale_timer_add(kt[GALE_K_N + g], gale_wtime() - t0);
    gale_timer_add_bytes(kt[GALE_K_N + g], gale_k_group_bytes(n, ids, a, i0, i1));
}

/* ---- the machine's limit: the device's triad ---- */

double gale_k_triad(double bytes, int ntimes)
{
    const size_t n = (size_t)(bytes / 24.0) / 8 * 8 + 8;
    const int dev = gale_koff_dev();
    double *a = omp_target_alloc(n * sizeof *a, dev), *b = omp_target_alloc(n * sizeof *b, dev),
           *c = omp_target_alloc(n * sizeof *c, dev);
    double best = 0;
    if (a && b && c) {
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(a, b, c)
        for (size_t i = 0; i < n; i++) a[i] = 1.0, b[i] = 2.0, c[i] = 0.5;
        for (int r = 0; r <= ntimes; r++) {
            const double t0 = gale_wtime();
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(a, b, c)
            for (size_t i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
            const double t = gale_wtime() - t0, gbs = 24.0 * (double)n / t * 1e-9;
            if (r > 0 && gbs > best) best = gbs;
        }
    }
    omp_target_free(a, dev);
    omp_target_free(b, dev);
    omp_target_free(c, dev);
    return best;
}
