/* CPU launch layer of the transport kernels: threads over columns or edges. */
#include "gale_base.h"

#ifdef __clang__
#define GALE_SIMD _Pragma("omp simd") _Pragma("clang loop unroll(disable)")
#else
#define GALE_SIMD _Pragma("omp simd")
#endif
#include "gale_kbodies_transport.h"
#include "gale_ktimers.h"

#include <math.h>
#include <omp.h>

static int kt[KTR_N]; /* kernel timers (gale_ktimers.h) */

int gale_ktr_init(gale_ktr_t *tr, const gale_kmesh_t *km)
{
    gale_kt_register(kt, gale_ktr_names, KTR_N);
    tr->impl = NULL;
    return GALE_OK;
}

void gale_ktr_finalize(gale_ktr_t *tr) { tr->impl = NULL; }

void gale_k_tr_faces(const gale_ktr_t *tr, int c0, int c1, int nl, int stride, const double *q,
                     double *qf)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int c = c0; c < c1; c++) gale_kb_tr_faces(tr, c, nl, stride, q, qf);
    TSTOP(KTR_FACES);
}

void gale_k_tr_hflux(const gale_ktr_t *tr, const gale_kmesh_t *km, int e0, int e1, int nl,
                     int stride, const double *f, const double *qf, double *fq)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int e = e0; e < e1; e++) gale_kb_tr_hflux(tr, km, e, nl, stride, f, qf, fq);
    TSTOP(KTR_HFLUX);
}

void gale_k_tr_vflux(const gale_ktr_t *tr, const gale_kmesh_t *km, int c0, int c1,
                     const double *q, const double *w, double *slope, double *wq)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int c = c0; c < c1; c++) gale_kb_tr_vflux(tr, km, c, q, w, slope, wq);
    TSTOP(KTR_VFLUX);
}

void gale_k_tr_tend(const gale_ktr_t *tr, const gale_kmesh_t *km, int c0, int c1, int nl,
                    int stride, int wstride, const double *fq, const double *wq, double *out)
{
    TSTART;
#pragma omp parallel for schedule(static)
    for (int c = c0; c < c1; c++) gale_kb_tr_tend(tr, km, c, nl, stride, wstride, fq, wq, out);
    TSTOP(KTR_TEND);
}

void gale_k_tr_ratio(int c0, int c1, int stride, const double *x, const double *y, double *out)
{
    TSTART;
    const size_t i0 = (size_t)c0 * stride, i1 = (size_t)c1 * stride;
#pragma omp parallel for simd schedule(static)
    for (size_t i = i0; i < i1; i++) out[i] = gale_kb_tr_ratio(x[i], y[i]);
    TSTOP(KTR_RATIO);
}

void gale_k_tr_minmax(int c0, int c1, int nl, int stride, const double *x, double *mn, double *mx)
{
    double a = INFINITY, b = -INFINITY;
#pragma omp parallel for schedule(static) reduction(min : a) reduction(max : b)
    for (int c = c0; c < c1; c++) gale_kb_tr_minmax(c, nl, stride, x, &a, &b);
    *mn = a;
    *mx = b;
}
