/* Offload launch layer of the nonlinear core: the table of its static data
 * (gale_knl_t), mirrored for the kernels of gale_kbodies_nl.h, which run
 * through gale_k_run (launch.c). Calls down only: mirror.c. */
#include "gale_base.h"
#include "gale_koffload.h"
#include "mirror.h"

#include <stddef.h>

int gale_knl_init(gale_knl_t *nk)
{
    const size_t nc = nk->ncell, ne = nk->nedge, si = (size_t)nk->si, sc = (size_t)nk->sc,
                 D = sizeof(double);
#define A(member, bytes) GALE_KOFF_STATIC(gale_knl_t, member, bytes)
    const gale_koff_static_t a[] = {
        /* prof and rhoe are fields: placed when they were registered */
        A(prof, GALE_KOFF_FIELD), A(rhoe, GALE_KOFF_FIELD),
        A(fcor, nc * D),  A(enb, 6 * nc * D), A(prc, 8 * nc * D),          A(nrm, 4 * ne * D),
        A(tng, 4 * ne * D), A(vidx, 12 * nc * sizeof(int)), A(vw, 12 * nc * D),
        A(rd2i, si * D),  A(rd2c, sc * D),    A(dzv, sc * D), A(dzf, sc * D), A(dzh, sc * D),
        A(hl, sc * D),    A(rc, sc * D),      A(qi, si * D),  A(gi, si * D),  A(ri, si * D),
        A(fcos, nc * D)};
#undef A
    gale_koff_mirror_t *m = NULL;
    GALE_ALLOC(m, 1);
    GALE_CALL(gale_koff_mirror(nk, sizeof *nk, offsetof(gale_knl_t, impl), a,
                               (int)(sizeof a / sizeof a[0]), "the nonlinear core's data", m));
    nk->impl = m;
    return GALE_OK;
}

void gale_knl_finalize(gale_knl_t *nk)
{
    gale_koff_mirror_t *m = nk->impl;
    if (!m) return;
    gale_koff_unmirror(m);
    gale_free(m);
    nk->impl = NULL;
}
