/* Offload launch layer of the transport kernels: the bodies of
 * gale_kbodies_transport.h as target regions, one device thread per column
 * or edge, on the device and with the residency scheme of launch.c
 * (gale_koffload.h). */
#include "gale_base.h"
#include "gale_koffload.h"

#include <omp.h>

#include "gale_kbodies_transport.h"
#include "gale_ktimers.h"

#include <math.h>
#include <string.h>

/* The transport tables and the kmesh arrays the bodies read, as the kernels
 * see them (device addresses, or host ones in unified memory). */
typedef struct {
    gale_ktr_t *trd;
    gale_kmesh_t *kmd;
    int on_device; /* trd/kmd were allocated on the device */
} tr_impl_t;

static int kt[KTR_N]; /* kernel timers (gale_ktimers.h) */
#define IMPL(tr) ((const tr_impl_t *)(tr)->impl)

static void *to_device_copy(const void *host, size_t bytes, int *on_device)
{
    int dev = gale_koff_dev(), hostdev = omp_get_initial_device();
    void *d = omp_target_alloc(bytes, dev);
    if (!d || omp_target_memcpy(d, host, bytes, 0, 0, dev, hostdev)) return NULL;
    gale_koff_count_small((double)bytes, 0);
    *on_device = 1;
    return d;
}

int gale_ktr_init(gale_ktr_t *tr, const gale_kmesh_t *km)
{
    gale_kt_register(kt, gale_ktr_names, KTR_N);
    const size_t nc = tr->ncell, ne = tr->nedge, nl = km->nlev, D = sizeof(double);
    gale_koff_map(tr->nb, GALE_TR_NB * nc * sizeof(int));
    gale_koff_map(tr->rc, 4 * GALE_TR_NB * nc * D);
    gale_koff_map(tr->eside, 2 * ne * sizeof(int));
    gale_koff_map(tr->rarea, nc * D);
    gale_koff_map(tr->zc, nl * D);
    gale_koff_map(tr->zi, (nl + 1) * D);
    gale_koff_map(tr->rdz, nl * D);
    gale_ktr_t t = *tr;
    t.nb = gale_koff_ptr(tr->nb), t.rc = gale_koff_ptr(tr->rc), t.eside = gale_koff_ptr(tr->eside);
    t.rarea = gale_koff_ptr(tr->rarea), t.zc = gale_koff_ptr(tr->zc), t.zi = gale_koff_ptr(tr->zi);
    t.rdz = gale_koff_ptr(tr->rdz);
    t.impl = NULL;
    /* the bodies read only the connectivity of the kmesh */
    gale_kmesh_t k;
    memset(&k, 0, sizeof k);
    k.nlev = km->nlev, k.sc = km->sc, k.si = km->si, k.ncell = km->ncell, k.nedge = km->nedge;
    k.cell_edge = gale_koff_ptr(km->cell_edge), k.cell_sign = gale_koff_ptr(km->cell_sign);
    k.edge_cell = gale_koff_ptr(km->edge_cell);
    tr_impl_t *im = NULL;
    GALE_ALLOC(im, 1);
    if (t.nb == tr->nb) { /* unified memory: the kernels take host addresses */
        GALE_ALLOC(im->trd, 1);
        GALE_ALLOC(im->kmd, 1);
        *im->trd = t;
        *im->kmd = k;
    } else {
        im->trd = to_device_copy(&t, sizeof t, &im->on_device);
        im->kmd = to_device_copy(&k, sizeof k, &im->on_device);
        if (!im->trd || !im->kmd)
            GALE_ERROR(GALE_ERR_MEM, "cannot place the transport tables on device %d", gale_koff_dev());
    }
    tr->impl = im;
    return GALE_OK;
}

void gale_ktr_finalize(gale_ktr_t *tr)
{
    tr_impl_t *im = tr->impl;
    if (!im) return;
    if (im->on_device) {
        omp_target_free(im->trd, gale_koff_dev());
        omp_target_free(im->kmd, gale_koff_dev());
    } else {
        gale_free(im->trd);
        gale_free(im->kmd);
    }
    const void *a[] = {tr->nb, tr->rc, tr->eside, tr->rarea, tr->zc, tr->zi, tr->rdz};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) gale_koff_unmap(a[i]);
    gale_free(im);
    tr->impl = NULL;
}

void gale_k_tr_faces(const gale_ktr_t *tr, int c0, int c1, int nl, int stride, const double *q,
                     double *qf)
{
    if (c1 <= c0) return;
    TSTART;
    const gale_ktr_t *d = IMPL(tr)->trd;
    const double *dq = gale_koff_ptr(q);
    double *dqf = gale_koff_ptr(qf);
#pragma omp target teams distribute parallel for device(gale_koff_dev()) is_device_ptr(d, dq, dqf)
    for (int c = c0; c < c1; c++) gale_kb_tr_faces(d, c, nl, stride, dq, dqf);
    TSTOP(KTR_FACES);
}

void gale_k_tr_hflux(const gale_ktr_t *tr, const gale_kmesh_t *km, int e0, int e1, int nl,
                     int stride, const double *f, const double *qf, double *fq)
{
    if (e1 <= e0) return;
    TSTART;
    const gale_ktr_t *d = IMPL(tr)->trd;
    const gale_kmesh_t *k = IMPL(tr)->kmd;
    const double *df = gale_koff_ptr(f), *dqf = gale_koff_ptr(qf);
    double *dfq = gale_koff_ptr(fq);
#pragma omp target teams distribute parallel for device(gale_koff_dev()) is_device_ptr(d, k, df, dqf, dfq)
    for (int e = e0; e < e1; e++) gale_kb_tr_hflux(d, k, e, nl, stride, df, dqf, dfq);
    TSTOP(KTR_HFLUX);
}

void gale_k_tr_vflux(const gale_ktr_t *tr, const gale_kmesh_t *km, int c0, int c1,
                     const double *q, const double *w, double *slope, double *wq)
{
    if (c1 <= c0) return;
    TSTART;
    const gale_ktr_t *d = IMPL(tr)->trd;
    const gale_kmesh_t *k = IMPL(tr)->kmd;
    const double *dq = gale_koff_ptr(q), *dw = gale_koff_ptr(w);
    double *ds = gale_koff_ptr(slope), *dwq = gale_koff_ptr(wq);
#pragma omp target teams distribute parallel for device(gale_koff_dev()) is_device_ptr(d, k, dq, dw, ds, dwq)
    for (int c = c0; c < c1; c++) gale_kb_tr_vflux(d, k, c, dq, dw, ds, dwq);
    TSTOP(KTR_VFLUX);
}

void gale_k_tr_tend(const gale_ktr_t *tr, const gale_kmesh_t *km, int c0, int c1, int nl,
                    int stride, int wstride, const double *fq, const double *wq, double *out)
{
    if (c1 <= c0) return;
    TSTART;
    const gale_ktr_t *d = IMPL(tr)->trd;
    const gale_kmesh_t *k = IMPL(tr)->kmd;
    const double *dfq = gale_koff_ptr(fq), *dwq = gale_koff_ptr(wq);
    double *dout = gale_koff_ptr(out);
#pragma omp target teams distribute parallel for device(gale_koff_dev()) is_device_ptr(d, k, dfq, dwq, dout)
    for (int c = c0; c < c1; c++) gale_kb_tr_tend(d, k, c, nl, stride, wstride, dfq, dwq, dout);
    TSTOP(KTR_TEND);
}

void gale_k_tr_ratio(int c0, int c1, int stride, const double *x, const double *y, double *out)
{
    if (c1 <= c0) return;
    TSTART;
    const size_t i0 = (size_t)c0 * stride, i1 = (size_t)c1 * stride;
    const double *dx = gale_koff_ptr(x), *dy = gale_koff_ptr(y);
    double *dout = gale_koff_ptr(out);
#pragma omp target teams distribute parallel for device(gale_koff_dev()) is_device_ptr(dx, dy, dout)
    for (size_t i = i0; i < i1; i++) dout[i] = gale_kb_tr_ratio(dx[i], dy[i]);
    TSTOP(KTR_RATIO);
}

void gale_k_tr_minmax(int c0, int c1, int nl, int stride, const double *x, double *mn, double *mx)
{
    double a = INFINITY, b = -INFINITY;
    if (c1 > c0) {
        const double *dx = gale_koff_ptr(x);
#pragma omp target teams distribute parallel for device(gale_koff_dev()) is_device_ptr(dx) \
    reduction(min : a) reduction(max : b) map(tofrom : a, b)
        for (int c = c0; c < c1; c++) gale_kb_tr_minmax(c, nl, stride, dx, &a, &b);
        gale_koff_count_small(2 * sizeof(double), 2 * sizeof(double));
    }
    *mn = a;
    *mx = b;
}
