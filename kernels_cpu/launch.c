/* CPU launch layer: OpenMP threads over columns (static schedule, so a column
 * always runs whole on one thread), SIMD over levels, or across a batch of
 * columns for the tridiagonal solve. */
#include "gale_base.h"

#ifdef __clang__
/* clang fully unrolls 8-trip lane loops before its loop vectoriser runs and
 * then leaves them scalar; keep them loops */
#define GALE_SIMD _Pragma("omp simd") _Pragma("clang loop unroll(disable)")
/* a copy between a column and its lane of a batch (stride GALE_LANES):
 * clang vectorises it with gathers, slower than its scalar loop */
#define GALE_STRIDED _Pragma("clang loop vectorize(disable)")
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

static int kt[GALE_K_N + GALE_KG_N]; /* kernel and group timers (gale_ktimers.h) */

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
 * residual column). The bodies read host memory as it is. */
#define GALE_KADDR(p) (p)
#define GALE_KWEIGHT(w, n) (w)
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

/* The reductions, each set in turn. SUM: the sum schedule (gale_kbodies.h):
 * per chunk, its blocks shared out among the threads (static), one partial
 * per thread and set, folded in thread order. MAXABS, MINMAX: max and min
 * reductions over columns, exact in any order. */
#define GALE_KLOOP_SUM(devptrs, bind, body)                                                \
    for (int cs_ = i0, ce_; cs_ < i1; cs_ = ce_) {                                         \
        ce_ = gale_kb_dot_chunk_end(cs_, i1);                                              \
        const int nb_ = gale_kb_dot_nblock(cs_, ce_), nt_ = omp_get_max_threads();        \
        gale_rsum_t part_[nt_][nset_];                                                     \
        memset(part_, 0, sizeof part_);                                                    \
        _Pragma("omp parallel") {                                                          \
            const int t_ = omp_get_thread_num();                                           \
            _Pragma("omp for schedule(static)") for (int ib_ = 0; ib_ < nb_; ib_++)        \
                for (int j_ = 0; j_ < nset_; j_++) {                                       \
                    bind;                                                                  \
                    const int cb_ = cs_ + ib_ * GALE_RSUM_BATCH;                           \
                    const int n_ = cb_ + GALE_RSUM_BATCH < ce_ ? GALE_RSUM_BATCH : ce_ - cb_; \
                    double v_[GALE_RSUM_BATCH];                                            \
                    for (int i = cb_; i < cb_ + n_; i++) v_[i - cb_] = (body);             \
                    gale_kb_sum_block(v_, n_, kb_->red->reproducible, &part_[t_][j_]);     \
                }                                                                          \
        }                                                                                  \
        for (int t_ = 0; t_ < nt_; t_++)                                                   \
            for (int j_ = 0; j_ < nset_; j_++) gale_kb_dot_fold(&ka_[j_].red->sum, &part_[t_][j_]); \
    }
#define GALE_KLOOP_MAXABS(devptrs, bind, body)                                             \
    for (int j_ = 0; j_ < nset_; j_++) {                                                   \
        bind;                                                                              \
        double m = kb_->red->max;                                                          \
        int bc = INT_MAX;                                                                  \
        _Pragma("omp parallel for schedule(static) reduction(max : m) reduction(min : bc)") \
        for (int i = i0; i < i1; i++) { body; }                                            \
        if (bc != INT_MAX) { /* the first bad level of the first field's column */         \
            const gale_kfield_t *f_ = &kb_->f[0];                                          \
            kb_->red->bad_col = bc;                                                        \
            kb_->red->bad_lev =                                                            \
                gale_kb_maxabs_bad_lev((const double *)f_->p + (size_t)bc * f_->stride, 0, f_->nlev); \
            m = NAN;                                                                       \
        }                                                                                  \
        kb_->red->max = m;                                                                 \
    }
#define GALE_KLOOP_MINMAX(devptrs, bind, body)                                             \
    for (int j_ = 0; j_ < nset_; j_++) {                                                   \
        bind;                                                                              \
        double lo = kb_->red->min, hi = kb_->red->max;                                     \
        _Pragma("omp parallel for schedule(static) reduction(min : lo) reduction(max : hi)") \
        for (int i = i0; i < i1; i++) { body; }                                            \
        kb_->red->min = lo, kb_->red->max = hi;                                            \
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

/* A fused group (docs/fusion.md): threads over blocks of GALE_KG_BLOCK
 * columns (static schedule); each block runs every launch in turn through
 * the same dispatch, its loop heads cut to the block's columns [cb_, ce_)
 * (FLAT: their elements, one SIMD loop), so that choosing and binding a
 * kernel is paid once a block and what one launch writes is in cache for the
 * next. */
#define GALE_KG_BLOCK 16
#define GALE_KCOL_CELLS(devptrs, body)                                                     \
    for (int i = cb_; i < ce_; i++) { body; }
#define GALE_KCOL_EDGES(devptrs, body) GALE_KCOL_CELLS(devptrs, body)
#define GALE_KCOL_COLS(devptrs, body) GALE_KCOL_CELLS(devptrs, body)
#define GALE_KCOL_FLAT(devptrs, body)                                                      \
    GALE_SIMD for (size_t i = fi0; i < fi1; i++) { body; }

void gale_k_run_group(int g, int n, const int *ids, const gale_kargs_t *a, int i0, int i1)
{
    if (i1 <= i0) return;
    const double t0 = gale_wtime();
    const int nb = (i1 - i0 + GALE_KG_BLOCK - 1) / GALE_KG_BLOCK;
#pragma omp parallel for schedule(static)
    for (int b_ = 0; b_ < nb; b_++) {
        const int cb_ = i0 + b_ * GALE_KG_BLOCK;
        const int ce_ = cb_ + GALE_KG_BLOCK < i1 ? cb_ + GALE_KG_BLOCK : i1;
        for (int m_ = 0; m_ < n; m_++) {
            const int id = ids[m_];
            const gale_kargs_t *const ka_ = &a[m_];
            const gale_kmesh_t *const KM = ka_->km;
            const gale_ktr_t *const TR = ka_->tr;
            const gale_knl_t *const NK = ka_->nk;
            const size_t fi0 = (size_t)cb_ * ka_->flat, fi1 = (size_t)ce_ * ka_->flat;
            (void)TR, (void)NK, (void)fi0, (void)fi1;
#define GALE_KD_COLUMN
#include "gale_kdispatch.h"
#undef GALE_KD_COLUMN
        }
    }
    gale_timer_add(kt[GALE_K_N + g], gale_wtime() - t0);
    gale_timer_add_bytes(kt[GALE_K_N + g], gale_k_group_bytes(n, ids, a, i0, i1));
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
