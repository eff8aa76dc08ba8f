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
#include "gale_kbodies.h"
#include "gale_ktimers.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    void *scratch;      /* per-thread transposed batch for the tridiagonal solve */
    size_t per_thread;  /* bytes */
    int nthreads;
} cpu_impl_t;

static int kt[KT_N]; /* kernel timers (gale_ktimers.h) */

const char *gale_k_name(void) { return "cpu"; }

int gale_k_init(gale_kmesh_t *km)
{
    gale_kt_register(kt, gale_kt_names, KT_N);
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

/* ---- dynamics ---- */

void gale_k_grad_h(const gale_kmesh_t *km, int e0, int e1, double s, const double *in,
                   const double *p, double *out)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int e = e0; e < e1; e++) gale_kb_grad_h(km, e, s, in, p, out);
    TSTOP(KT_GRAD);
}

void gale_k_col_explicit(const gale_kmesh_t *km, int c0, int c1, double cw, const double *w,
                         const double *b, const double *p, double *rb, double *ws)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int c = c0; c < c1; c++) gale_kb_col_explicit(km, c, cw, w, b, p, rb, ws);
    TSTOP(KT_COLEXP);
}

void gale_k_col_backsub(const gale_kmesh_t *km, int c0, int c1, const double *p,
                        const double *ws, const double *rb, double *w, double *b)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int c = c0; c < c1; c++) gale_kb_col_backsub(km, c, p, ws, rb, w, b);
    TSTOP(KT_BACKSUB);
}

void gale_k_rhs(const gale_kmesh_t *km, int c0, int c1, const double *p, const double *fu,
                const double *fw, double *rhs)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int c = c0; c < c1; c++) gale_kb_rhs(km, c, p, fu, fw, rhs);
    TSTOP(KT_RHS);
}

/* ---- the mixed system (docs/numerics.md) ---- */

void gale_k_mix_u(const gale_kmesh_t *km, int e0, int e1, double a, double s, const double *u,
                  const double *p, double *yu)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int e = e0; e < e1; e++) gale_kb_mix_u(km, e, a, s, u, p, yu);
    TSTOP(KT_MIX);
}

void gale_k_mix_col(const gale_kmesh_t *km, int c0, int c1, double a, double s, const double *u,
                    const double *w, const double *b, const double *p, double *yw, double *yb,
                    double *yp)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int c = c0; c < c1; c++) gale_kb_mix_col(km, c, a, s, u, w, b, p, yw, yb, yp);
    TSTOP(KT_MIX);
}

void gale_k_schur_u(const gale_kmesh_t *km, int e0, int e1, const double *r_u, double *ru)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int e = e0; e < e1; e++) gale_kb_schur_u(km, e, r_u, ru);
    TSTOP(KT_SCHUR);
}

void gale_k_schur_col(const gale_kmesh_t *km, int c0, int c1, const double *ru,
                      const double *r_w, const double *r_b, const double *r_p, double *rb,
                      double *ws, double *h)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int c = c0; c < c1; c++) gale_kb_schur_col(km, c, ru, r_w, r_b, r_p, rb, ws, h);
    TSTOP(KT_SCHUR);
}

/* ---- vectors: whole column blocks, padding included (it stays zero) ---- */

void gale_k_axpby(int prec, int c0, int c1, int stride, double a, const void *x, double b,
                  const void *y, void *out)
{
    TSTART;
    size_t i0 = (size_t)c0 * stride, i1 = (size_t)c1 * stride;
    if (prec == GALE_F64) {
        const double *xd = x, *yd = y;
        double *od = out;
#pragma omp parallel for simd schedule(static)
        for (size_t i = i0; i < i1; i++) gale_kb_axpby_d(i, a, xd, b, yd, od);
    } else {
        const float *xf = x, *yf = y;
        float *of = out;
        const float af = (float)a, bf = (float)b;
#pragma omp parallel for simd schedule(static)
        for (size_t i = i0; i < i1; i++) gale_kb_axpby_f(i, af, xf, bf, yf, of);
    }
    TSTOP(KT_VEC);
}

void gale_k_copy(int prec, int c0, int c1, int stride, const void *x, void *out)
{
    TSTART;
    size_t es = prec == GALE_F64 ? 8 : 4;
    memcpy((char *)out + (size_t)c0 * stride * es, (const char *)x + (size_t)c0 * stride * es,
           (size_t)(c1 - c0) * stride * es);
    TSTOP(KT_VEC);
}

void gale_k_convert(int prec_in, const void *x, int prec_out, void *out, int c0, int c1,
                    int stride)
{
    TSTART;
    size_t i0 = (size_t)c0 * stride, i1 = (size_t)c1 * stride;
    if (prec_in == prec_out) {
        size_t es = prec_in == GALE_F64 ? 8 : 4;
        memcpy((char *)out + i0 * es, (const char *)x + i0 * es, (i1 - i0) * es);
    } else if (prec_in == GALE_F64) {
        const double *xd = x;
        float *of = out;
#pragma omp parallel for simd schedule(static)
        for (size_t i = i0; i < i1; i++) gale_kb_to_f(i, xd, of);
    } else {
        const float *xf = x;
        double *od = out;
#pragma omp parallel for simd schedule(static)
        for (size_t i = i0; i < i1; i++) gale_kb_to_d(i, xf, od);
    }
    TSTOP(KT_VEC);
}

/* ---- solver operators ---- */

void gale_k_helmholtz(const gale_kmesh_t *km, int prec, int c0, int c1, const void *x, void *y)
{
    TSTART;
    if (prec == GALE_F64) {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_helmholtz_d(km, c, x, y);
    } else {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_helmholtz_f(km, c, x, y);
    }
    TSTOP(KT_HELM);
}

void gale_k_pc_diag(const gale_kmesh_t *km, int prec, int c0, int c1, const void *r, void *z)
{
    TSTART;
    if (prec == GALE_F64) {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_pc_diag_d(km, c, r, z);
    } else {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_pc_diag_f(km, c, r, z);
    }
    TSTOP(KT_PC);
}

void gale_k_pc_tridiag(const gale_kmesh_t *km, int prec, int c0, int c1, const void *r, void *z)
{
    TSTART;
    const cpu_impl_t *im = km->impl;
    const int L = GALE_LANES, b0 = c0 / L, b1 = (c1 + L - 1) / L;
#pragma omp parallel
    {
        void *t = (char *)im->scratch + im->per_thread * (size_t)omp_get_thread_num();
#pragma omp for schedule(static)
        for (int b = b0; b < b1; b++) {
            int l0, l1;
            gale_kb_batch_lanes(b, c0, c1, &l0, &l1);
            if (prec == GALE_F64) gale_kb_tridiag_batch_d(km, b, l0, l1, r, z, t);
            else gale_kb_tridiag_batch_f(km, b, l0, l1, r, z, t);
        }
    }
    TSTOP(KT_PC);
}

/* ---- multigrid ---- */

void gale_k_residual(const gale_kmesh_t *km, int prec, int c0, int c1, const void *x,
                     const void *b, void *r)
{
    TSTART;
    if (prec == GALE_F64) {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_residual_d(km, c, x, b, r);
    } else {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_residual_f(km, c, x, b, r);
    }
    TSTOP(KT_HELM);
}

void gale_k_smooth(const gale_kmesh_t *km, int prec, int c0, int c1, double rho, const void *x,
                   const void *b, void *xn)
{
    TSTART;
    const cpu_impl_t *im = km->impl;
    const int L = GALE_LANES, b0 = c0 / L, b1 = (c1 + L - 1) / L;
    const size_t nt = (size_t)km->nlev * L;
#pragma omp parallel
    {
        void *t = (char *)im->scratch + im->per_thread * (size_t)omp_get_thread_num();
#pragma omp for schedule(static)
        for (int bt = b0; bt < b1; bt++) {
            int l0, l1;
            gale_kb_batch_lanes(bt, c0, c1, &l0, &l1);
            if (prec == GALE_F64)
                gale_kb_smooth_batch_d(km, bt, l0, l1, rho, x, b, xn, t, (double *)t + nt);
            else
                gale_kb_smooth_batch_f(km, bt, l0, l1, (float)rho, x, b, xn, t, (float *)t + nt);
        }
    }
    TSTOP(KT_SMOOTH);
}

void gale_k_restrict(const gale_kmesh_t *kmc, int prec, int c0, int c1, const void *fine,
                     void *coarse)
{
    TSTART;
    if (prec == GALE_F64) {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_restrict_d(kmc, c, fine, coarse);
    } else {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_restrict_f(kmc, c, fine, coarse);
    }
    TSTOP(KT_GRID);
}

void gale_k_prolong(const gale_kmesh_t *kmc, int prec, int c0, int c1, const void *coarse,
                    void *fine)
{
    TSTART;
    if (prec == GALE_F64) {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_prolong_d(kmc, c, coarse, fine);
    } else {
#pragma omp parallel for schedule(static)
        for (int c = c0; c < c1; c++) gale_kb_prolong_f(kmc, c, coarse, fine);
    }
    TSTOP(KT_GRID);
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
    TSTOP(KT_DOT);
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
    TSTOP(KT_CHECK);
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
