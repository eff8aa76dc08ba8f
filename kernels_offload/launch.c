/* OpenMP-offload launch layer: the same column bodies as kernels_cpu/, run
 * by `target teams distribute parallel for` with one device thread per
 * column (or per batch of GALE_LANES columns for the tridiagonal solve);
 * levels stay inside the body. docs/offload.md describes the whole design.
 *
 * This file dispatches the launches (the described kernels, the dot
 * products, maxabs, the triad) and sets up the kmesh they read: gale_k_init
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

static int kt[GALE_K_N]; /* kernel timers (gale_ktimers.h) */

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
 * (BATCH); the bodies get the kernel addresses of the fields (gale_koff_ptr),
 * of the kmesh (KD) and of the transport's and nonlinear core's static data
 * (their mirrors, gale_koff_mirrored). */
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

void gale_k_run(int id, const gale_kargs_t *a, int i0, int i1)
{
    if (i1 <= i0) return;
    TSTART;
    gale_kargs_t d = *a;
    for (int j = 0; j < GALE_KMAXF; j++) d.f[j].p = gale_koff_ptr(a->f[j].p);
    const gale_kargs_t *const ka_ = &d;
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

/* ---- global-sum local parts ---- */

/* gale_rsum_* (host helpers): kernels/rsum.c */

/* The schedule, shared with the CPU layer and why it gives the same bits
 * there: gale_kbodies.h, "the dot-product schedule". Here: per pair and
 * chunk, one device thread per column and an int64 (or, plain, a double)
 * reduction of the chunk, folded on the host. */
void gale_k_dots(int prec, int c0, int c1, int stride, int k0, int k1, int npair,
                 const gale_dotpair_t *pairs, int reproducible, gale_rsum_t *acc)
{
    if (c1 <= c0) return;
    TSTART;
    const int dev = gale_koff_dev();
    for (int j = 0; j < npair; j++) {
        const void *dx = gale_koff_ptr(pairs[j].x), *dy = gale_koff_ptr(pairs[j].y);
        const double *dwc = gale_koff_weight(pairs[j].wc, (size_t)c1);
        const double *dwl = gale_koff_weight(pairs[j].wl, (size_t)k1);
        for (int cs = c0, ce; cs < c1; cs = ce) {
            ce = gale_kb_dot_chunk_end(cs, c1);
            gale_rsum_t part = {{0}, 0, 0.0};
            if (reproducible) {
                int64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0, nb = 0;
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(dx, dy, dwc, dwl) \
    reduction(+ : w0, w1, w2, w3, w4, w5, w6, w7, nb)
                for (int c = cs; c < ce; c++) {
                    int64_t w[GALE_RSUM_WORDS] = {0}, bad = 0;
                    gale_kb_dot_col_digits(prec, c, stride, k0, k1, dx, dy, dwc, dwl, w, &bad);
                    w0 += w[0], w1 += w[1], w2 += w[2], w3 += w[3];
                    w4 += w[4], w5 += w[5], w6 += w[6], w7 += w[7];
                    nb += bad;
                }
                part = (gale_rsum_t){{w0, w1, w2, w3, w4, w5, w6, w7}, nb, 0.0};
                gale_koff_count_small(9 * sizeof(int64_t), 9 * sizeof(int64_t));
            } else {
                double s = 0;
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(dx, dy, dwc, dwl) \
    reduction(+ : s)
                for (int c = cs; c < ce; c++)
                    s += gale_kb_dot_col(prec, c, stride, k0, k1, dx, dy, dwc, dwl);
                part.plain = s;
                gale_koff_count_small(sizeof s, sizeof s);
            }
            gale_kb_dot_fold(&acc[j], &part);
        }
    }
    double bytes = 0;
    for (int j = 0; j < npair; j++)
        bytes += (double)(c1 - c0) * (k1 - k0) * (prec == GALE_F64 ? 8 : 4) *
                 (pairs[j].y == pairs[j].x ? 1 : 2);
    TSTOP_BYTES(GALE_K_dots, bytes);
}

double gale_k_maxabs(int c0, int c1, int stride, int k0, int k1, const double *x, int *bad_col,
                     int *bad_lev)
{
    *bad_col = -1;
    *bad_lev = -1;
    if (c1 <= c0) return 0;
    TSTART;
    const int dev = gale_koff_dev();
    const double *dx = gale_koff_ptr(x);
    double m = 0;
    int bc = INT_MAX;
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(dx) \
    reduction(max : m) reduction(min : bc)
    for (int c = c0; c < c1; c++) gale_kb_maxabs_acc(dx, c, stride, k0, k1, &m, &bc);
    gale_koff_count_small(sizeof m + sizeof bc, sizeof m + sizeof bc);
    if (bc != INT_MAX) { /* rare: find the level on the device */
        int lev = -1;
#pragma omp target device(dev) is_device_ptr(dx) map(tofrom : lev)
        lev = gale_kb_maxabs_bad_lev(dx + (size_t)bc * stride, k0, k1);
        gale_koff_count_small(sizeof lev, sizeof lev);
        *bad_col = bc;
        *bad_lev = lev;
        m = NAN;
    }
    TSTOP_BYTES(GALE_K_checks, (double)(c1 - c0) * (k1 - k0) * sizeof(double));
    return m;
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
