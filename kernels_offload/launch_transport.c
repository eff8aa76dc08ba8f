/* Offload launch layer of the transport's static data (its device copy, or
 * in unified memory a host copy with host addresses), which the kernels of
 * gale_kbodies_transport.h read through gale_k_run (launch.c), and the
 * min/max reduction; the residency scheme of launch.c (gale_koffload.h). */
#include "gale_base.h"
#include "gale_koffload.h"

#include <omp.h>

#include "gale_kbodies_transport.h"
#include "gale_ktimers.h"

#include <math.h>
#include <string.h>

/* The transport tables as the kernels see them (device addresses, or host
 * ones in unified memory); the kernels read the kmesh's own device copy. */
typedef struct {
    gale_ktr_t *trd;
    int on_device; /* trd was allocated on the device */
} tr_impl_t;

static int kt[GALE_K_N]; /* kernel timers (gale_ktimers.h): minmax's */
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
    gale_k_timers_register(kt);
    const size_t nc = tr->ncell, ne = tr->nedge, nl = km->nlev, D = sizeof(double);
    gale_koff_map(tr->nb, GALE_TR_NB * nc * sizeof(int));
    gale_koff_map(tr->rc, 4 * GALE_TR_NB * nc * D);
    gale_koff_map(tr->eside, 2 * ne * sizeof(int));
    gale_koff_map(tr->rarea, nc * D);
    gale_koff_map(tr->zc, nl * D);
    gale_koff_map(tr->zi, (nl + 1) * D);
    gale_koff_map(tr->rdz, nl * D);
    if (tr->hl) { /* the deep atmosphere's metric */
        gale_koff_map(tr->hl, nl * D);
        gale_koff_map(tr->rdzv, nl * D);
        gale_koff_map(tr->hi, (nl + 1) * D);
        gale_koff_map(tr->qi, (nl + 1) * D);
    }
    gale_ktr_t t = *tr;
    t.nb = gale_koff_ptr(tr->nb), t.rc = gale_koff_ptr(tr->rc), t.eside = gale_koff_ptr(tr->eside);
    t.rarea = gale_koff_ptr(tr->rarea), t.zc = gale_koff_ptr(tr->zc), t.zi = gale_koff_ptr(tr->zi);
    t.rdz = gale_koff_ptr(tr->rdz);
    if (tr->hl) {
        t.hl = gale_koff_ptr(tr->hl), t.hi = gale_koff_ptr(tr->hi), t.qi = gale_koff_ptr(tr->qi);
        t.rdzv = gale_koff_ptr(tr->rdzv);
    }
    t.impl = NULL;
    tr_impl_t *im = NULL;
    GALE_ALLOC(im, 1);
    if (t.nb == tr->nb) { /* unified memory: the kernels take host addresses */
        GALE_ALLOC(im->trd, 1);
        *im->trd = t;
    } else {
        im->trd = to_device_copy(&t, sizeof t, &im->on_device);
        if (!im->trd)
            GALE_ERROR(GALE_ERR_MEM, "cannot place the transport tables on device %d", gale_koff_dev());
    }
    tr->impl = im;
    return GALE_OK;
}

void gale_ktr_finalize(gale_ktr_t *tr)
{
    tr_impl_t *im = tr->impl;
    if (!im) return;
    if (im->on_device) omp_target_free(im->trd, gale_koff_dev());
    else gale_free(im->trd);
    const void *a[] = {tr->nb, tr->rc, tr->eside, tr->rarea, tr->zc, tr->zi, tr->rdz};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) gale_koff_unmap(a[i]);
    const void *d[] = {tr->hl, tr->hi, tr->qi, tr->rdzv};
    for (size_t i = 0; i < sizeof d / sizeof d[0] && tr->hl; i++) gale_koff_unmap(d[i]);
    gale_free(im);
    tr->impl = NULL;
}

const gale_ktr_t *gale_koff_ktr(const gale_ktr_t *tr) { return IMPL(tr)->trd; }

void gale_k_tr_minmax(int c0, int c1, int nl, int stride, const double *x, double *mn, double *mx)
{
    TSTART;
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
    TSTOP_BYTES(GALE_K_minmax, (double)(c1 > c0 ? c1 - c0 : 0) * nl * sizeof(double));
}
