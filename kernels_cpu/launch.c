/* CPU launch layer: OpenMP threads over columns (static schedule, so a column
 * always runs whole on one thread), SIMD over levels, or across a batch of
 * columns for the tridiagonal solve. */
#include "gale_base.h"

#ifdef __clang__
/* clang fully unrolls 8-trip lane loops before its loop vectoriser runs and
 * then leaves them scalar; keep them loops */
#define GALE_SIMD _Pragma("omp simd") _Pragma("clang loop unroll(disable)")
#else
#define GALE_SIMD _Pragma("omp simd")
#endif
#include "gale_kdesc.h"
#include "gale_ktimers.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    void *scratch;      /* per-thread transposed batch for the tridiagonal solve */
    size_t per_thread;  /* bytes */
    int nthreads;
} cpu_impl_t;

static int kt[GALE_K_N]; /* kernel timers (gale_ktimers.h) */

const char *gale_k_name(void) { return "cpu"; }

int gale_k_init(gale_kmesh_t *km)
{
    gale_k_timers_register(kt);
    cpu_impl_t *im = NULL;
    GALE_ALLOC(im, 1);
    im->nthreads = omp_get_max_threads();
    /* a transposed batch, and one column for the smoother's residual */
    im->per_thread = ((size_t)km->nlev * GALE_LANES + (size_t)km->sc) * sizeof(double);
    char *s = NULL;
    GALE_ALLOC(s, im->per_thread * (size_t)im->nthreads);
    im->scratch = s;
    km->impl = im;
    return GALE_OK;
}

void gale_k_finalize(gale_kmesh_t *km)
{
    cpu_impl_t *im = km->impl;
    if (!im) return;
    gale_free(im->scratch);
    gale_free(im);
    km->impl = NULL;
}

/* Host memory is the only memory: nothing to place or copy. */
int gale_k_field_register(gale_field_t *f) { return GALE_OK; }
void gale_k_field_release(gale_field_t *f) {}
int gale_k_field_to_host(gale_field_t *f) { return GALE_OK; }
int gale_k_field_to_device(gale_field_t *f) { return GALE_OK; }

/* ---- the described kernels (gale_kdesc.h, gale_kdispatch.h) ---- */

/* Threads over columns (static schedule: a column always runs whole on one
 * thread), SIMD over levels inside the bodies; whole column blocks as one
 * SIMD loop (FLAT); batches of GALE_LANES columns with a per-thread scratch
 * (BATCH: the tridiagonal solve's transposed batch and the smoother's
 * residual column). */
#define GALE_KLOOP_CELLS(devptrs, body)                                                    \
    _Pragma("omp parallel for schedule(static)") for (int i = i0; i < i1; i++) { body; }
#define GALE_KLOOP_EDGES(devptrs, body) GALE_KLOOP_CELLS(devptrs, body)
#define GALE_KLOOP_COLS(devptrs, body) GALE_KLOOP_CELLS(devptrs, body)
#define GALE_KLOOP_FLAT(devptrs, body)                                                     \
    _Pragma("omp parallel for simd schedule(static)") for (size_t i = fi0; i < fi1; i++) { body; }
#define GALE_KLOOP_BATCH(devptrs, body)                                                    \
    _Pragma("omp parallel") {                                                              \
        void *const T = (char *)im->scratch + im->per_thread * (size_t)omp_get_thread_num(); \
        _Pragma("omp for schedule(static)") for (int i = b0; i < b1; i++) {                \
            int l0, l1;                                                                    \
            gale_kb_batch_lanes(i, i0, i1, &l0, &l1);                                      \
            body;                                                                          \
        }                                                                                  \
    }

void gale_k_run(int id, const gale_kargs_t *ka_, int i0, int i1)
{
    if (i1 <= i0) return;
    TSTART;
    const gale_kmesh_t *const KM = ka_->km;
    const gale_ktr_t *const TR = ka_->tr;
    const gale_knl_t *const NK = ka_->nk;
    const cpu_impl_t *im = KM ? KM->impl : NULL;
    const size_t fi0 = (size_t)i0 * ka_->flat, fi1 = (size_t)i1 * ka_->flat;
    const int b0 = i0 / GALE_LANES, b1 = (i1 + GALE_LANES - 1) / GALE_LANES;
    (void)TR, (void)NK, (void)im, (void)fi0, (void)fi1, (void)b0, (void)b1;
#include "gale_kdispatch.h"
    TSTOP_BYTES(id, gale_k_launch_bytes(id, ka_, i0, i1));
}

/* ---- global-sum local parts ---- */

/* gale_rsum_* (host helpers): kernels/rsum.c */

/* The schedule, shared with the offload layer and why it gives the same bits
 * there: gale_kbodies.h, "the dot-product schedule". Here: per chunk, its
 * blocks shared out among the threads (static), one partial per thread and
 * pair, folded in thread order. */
void gale_k_dots(int prec, int c0, int c1, int stride, int k0, int k1, int npair,
                 const gale_dotpair_t *pairs, int reproducible, gale_rsum_t *acc)
{
    TSTART;
    const int nt = omp_get_max_threads();
    gale_rsum_t part[nt][npair];
    for (int cs = c0, ce; cs < c1; cs = ce) {
        ce = gale_kb_dot_chunk_end(cs, c1);
        const int nblock = gale_kb_dot_nblock(cs, ce);
        for (int t = 0; t < nt; t++)
            for (int j = 0; j < npair; j++) gale_rsum_zero(&part[t][j]);
#pragma omp parallel
        {
            const int t = omp_get_thread_num();
#pragma omp for schedule(static)
            for (int ib = 0; ib < nblock; ib++)
                for (int j = 0; j < npair; j++)
                    gale_kb_dot_block(prec, cs, ce, ib, stride, k0, k1, pairs[j].x, pairs[j].y,
                                      pairs[j].wc, pairs[j].wl, reproducible, &part[t][j]);
        }
        for (int t = 0; t < nt; t++)
            for (int j = 0; j < npair; j++) gale_kb_dot_fold(&acc[j], &part[t][j]);
    }
    double bytes = 0;
    for (int j = 0; j < npair; j++)
        bytes += (double)(c1 - c0) * (k1 - k0) * (prec == GALE_F64 ? 8 : 4) * (pairs[j].y == pairs[j].x ? 1 : 2);
    TSTOP_BYTES(GALE_K_dots, bytes);
}

double gale_k_maxabs(int c0, int c1, int stride, int k0, int k1, const double *x, int *bad_col,
                     int *bad_lev)
{
    TSTART;
    double m = 0;
    int bc = INT_MAX;
#pragma omp parallel for schedule(static) reduction(max : m) reduction(min : bc)
    for (int c = c0; c < c1; c++) gale_kb_maxabs_acc(x, c, stride, k0, k1, &m, &bc);
    *bad_col = -1;
    *bad_lev = -1;
    if (bc != INT_MAX) {
        *bad_col = bc;
        *bad_lev = gale_kb_maxabs_bad_lev(x + (size_t)bc * stride, k0, k1);
        m = NAN;
    }
    TSTOP_BYTES(GALE_K_checks, (double)(c1 - c0) * (k1 - k0) * sizeof(double));
    return m;
}

/* ---- device, transfers and halo packing: host memory is the only memory ---- */

int gale_k_configure(const gale_kopts_t *o, gale_kdevice_t *dev, char *msg, size_t n)
{
    snprintf(dev->desc, sizeof dev->desc, "none (CPU kernels)");
    dev->gpu = 0;
    dev->vendor = 0;
    return GALE_OK;
}

void gale_k_transfers(gale_kxfer_t *x) { memset(x, 0, sizeof *x); }

int gale_k_halo_attach(gale_khalo_t **kh, const int *sidx, int ns, const int *ridx, int nr,
                       int nlev, int elem, void *sbuf, void *rbuf, void **msg_sbuf,
                       void **msg_rbuf)
{
    *kh = NULL;
    *msg_sbuf = sbuf;
    *msg_rbuf = rbuf;
    return GALE_OK;
}

/* Threads only pay off for many columns: halos are a thin layer. */
#define PACK_PAR(n, nlev) ((long)(n) * (nlev) >= 1 << 15)

void gale_k_halo_pack(void *kh, const void *field, int stride, int elem, int nlev,
                      const int *idx, int n, void *buf)
{
    if (elem == 8) {
#pragma omp parallel for schedule(static) if (PACK_PAR(n, nlev))
        for (int i = 0; i < n; i++) gale_kb_pack_d(i, nlev, stride, idx, field, buf);
    } else {
#pragma omp parallel for schedule(static) if (PACK_PAR(n, nlev))
        for (int i = 0; i < n; i++) gale_kb_pack_f(i, nlev, stride, idx, field, buf);
    }
}

void gale_k_halo_unpack(void *kh, void *field, int stride, int elem, int nlev, const int *idx,
                        int n, const void *buf)
{
    if (elem == 8) {
#pragma omp parallel for schedule(static) if (PACK_PAR(n, nlev))
        for (int i = 0; i < n; i++) gale_kb_unpack_d(i, nlev, stride, idx, field, buf);
    } else {
#pragma omp parallel for schedule(static) if (PACK_PAR(n, nlev))
        for (int i = 0; i < n; i++) gale_kb_unpack_f(i, nlev, stride, idx, field, buf);
    }
}

void gale_k_halo_detach(void *kh) {}

/* ---- the nonlinear core's and the transport's static data: host memory
 * is the only memory, so the kernels read them as they are ---- */

int gale_knl_init(gale_knl_t *nk)
{
    nk->impl = NULL;
    return GALE_OK;
}
void gale_knl_finalize(gale_knl_t *nk) { nk->impl = NULL; }

int gale_ktr_init(gale_ktr_t *tr, const gale_kmesh_t *km)
{
    tr->impl = NULL;
    return GALE_OK;
}
void gale_ktr_finalize(gale_ktr_t *tr) { tr->impl = NULL; }

void gale_k_tr_minmax(int c0, int c1, int nl, int stride, const double *x, double *mn, double *mx)
{
    TSTART;
    double a = INFINITY, b = -INFINITY;
#pragma omp parallel for schedule(static) reduction(min : a) reduction(max : b)
    for (int c = c0; c < c1; c++) gale_kb_tr_minmax(c, nl, stride, x, &a, &b);
    *mn = a;
    *mx = b;
    TSTOP_BYTES(GALE_K_minmax, (double)(c1 > c0 ? c1 - c0 : 0) * nl * sizeof(double));
}

/* ---- the machine's limit: the host's triad with the kernels' threads ---- */

double gale_k_triad(double bytes, int ntimes)
{
    const size_t n = (size_t)(bytes / 24.0) / 8 * 8 + 8;
    double *a = aligned_alloc(64, n * sizeof *a), *b = aligned_alloc(64, n * sizeof *b),
           *c = aligned_alloc(64, n * sizeof *c);
    double best = 0;
    if (a && b && c) {
        /* first touch with the kernels' static schedule */
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) a[i] = 1.0, b[i] = 2.0, c[i] = 0.5;
        for (int r = 0; r <= ntimes; r++) {
            const double t0 = gale_wtime();
#pragma omp parallel for schedule(static)
            for (size_t i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
            const double t = gale_wtime() - t0, gbs = 24.0 * (double)n / t * 1e-9;
            if (r > 0 && gbs > best) best = gbs; /* the first pass is not counted */
        }
    }
    free(a);
    free(b);
    free(c);
    return best;
}
