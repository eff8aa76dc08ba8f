/* Offload launch layer of the nonlinear core's static data: its device copy
 * (or, in unified memory, a host copy with host addresses), which the
 * kernels of gale_kbodies_nl.h read through gale_k_run (launch.c) with the
 * residency scheme of launch.c (gale_koffload.h). */
#include "gale_base.h"
#include "gale_koffload.h" /* GALE_SIMD, before the body headers */

#include <omp.h>

#include "gale_kbodies_nl.h"

/* The nonlinear core's static data as the kernels see it (device addresses,
 * or host ones in unified memory). */
typedef struct {
    gale_knl_t *nd;
    int on_device; /* nd was allocated on the device */
} nl_impl_t;

#define IMPL(nk) ((const nl_impl_t *)(nk)->impl)

int gale_knl_init(gale_knl_t *nk)
{
    const size_t nc = nk->ncell, ne = nk->nedge, D = sizeof(double);
    gale_koff_map(nk->fcor, nc * D);
    gale_koff_map(nk->enb, 6 * nc * D);
    gale_koff_map(nk->prc, 8 * nc * D);
    gale_koff_map(nk->nrm, 4 * ne * D);
    gale_koff_map(nk->tng, 4 * ne * D);
    gale_koff_map(nk->vidx, 12 * nc * sizeof(int));
    gale_koff_map(nk->vw, 12 * nc * D);
    gale_koff_map(nk->rd2i, (size_t)nk->si * D);
    gale_koff_map(nk->rd2c, (size_t)nk->sc * D);
    const double *lay[] = {nk->dzv, nk->dzf, nk->dzh, nk->hl, nk->rc};
    const double *itf[] = {nk->qi, nk->gi, nk->ri};
    for (size_t i = 0; i < sizeof lay / sizeof lay[0]; i++)
        gale_koff_map(lay[i], (size_t)nk->sc * D);
    for (size_t i = 0; i < sizeof itf / sizeof itf[0]; i++)
        gale_koff_map(itf[i], (size_t)nk->si * D);
    gale_koff_map(nk->fcos, nc * D);
    gale_knl_t t = *nk;
    /* prof and rhoe are fields: placed when they were registered */
    t.prof = gale_koff_ptr(nk->prof), t.rhoe = gale_koff_ptr(nk->rhoe);
    t.fcor = gale_koff_ptr(nk->fcor), t.enb = gale_koff_ptr(nk->enb);
    t.prc = gale_koff_ptr(nk->prc), t.nrm = gale_koff_ptr(nk->nrm);
    t.tng = gale_koff_ptr(nk->tng);
    t.vidx = gale_koff_ptr(nk->vidx), t.vw = gale_koff_ptr(nk->vw);
    t.rd2i = gale_koff_ptr(nk->rd2i), t.rd2c = gale_koff_ptr(nk->rd2c);
    t.dzv = gale_koff_ptr(nk->dzv), t.dzf = gale_koff_ptr(nk->dzf), t.dzh = gale_koff_ptr(nk->dzh);
    t.hl = gale_koff_ptr(nk->hl), t.rc = gale_koff_ptr(nk->rc), t.qi = gale_koff_ptr(nk->qi);
    t.gi = gale_koff_ptr(nk->gi), t.ri = gale_koff_ptr(nk->ri), t.fcos = gale_koff_ptr(nk->fcos);
    t.impl = NULL;
    nl_impl_t *im = NULL;
    GALE_ALLOC(im, 1);
    if (t.prof == nk->prof) { /* unified memory: the kernels take host addresses */
        GALE_ALLOC(im->nd, 1);
        *im->nd = t;
    } else {
        const int dev = gale_koff_dev();
        im->nd = omp_target_alloc(sizeof t, dev);
        if (!im->nd ||
            omp_target_memcpy(im->nd, &t, sizeof t, 0, 0, dev, omp_get_initial_device()))
            GALE_ERROR(GALE_ERR_MEM, "cannot place the nonlinear core's data on device %d", dev);
        im->on_device = 1;
        gale_koff_count_const((double)sizeof t);
    }
    nk->impl = im;
    return GALE_OK;
}

void gale_knl_finalize(gale_knl_t *nk)
{
    nl_impl_t *im = nk->impl;
    if (!im) return;
    if (im->on_device) omp_target_free(im->nd, gale_koff_dev());
    else gale_free(im->nd);
    const void *a[] = {nk->fcor, nk->enb, nk->prc, nk->nrm, nk->tng, nk->vidx, nk->vw, nk->rd2i,
                       nk->rd2c, nk->dzv, nk->dzf, nk->dzh, nk->hl, nk->rc, nk->qi, nk->gi, nk->ri,
                       nk->fcos};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) gale_koff_unmap(a[i]);
    gale_free(im);
    nk->impl = NULL;
}

const gale_knl_t *gale_koff_knl(const gale_knl_t *nk) { return IMPL(nk)->nd; }
