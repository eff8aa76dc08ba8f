/* Offload launch layer of the transport: the table of its static data
 * (gale_ktr_t), mirrored for the kernels of gale_kbodies_transport.h, which
 * run through gale_k_run (launch.c; they read the kmesh's own mirror). Calls
 * down only: mirror.c. */
#include "gale_base.h"
#include "gale_koffload.h"
#include "mirror.h"

#include <stddef.h>

int gale_ktr_init(gale_ktr_t *tr, const gale_kmesh_t *km)
{
    const size_t nc = tr->ncell, ne = tr->nedge, nl = km->nlev, D = sizeof(double);
#define A(member, bytes) GALE_KOFF_STATIC(gale_ktr_t, member, bytes)
    const gale_koff_static_t a[] = {
        A(nb, GALE_TR_NB * nc * sizeof(int)), A(rc, 4 * GALE_TR_NB * nc * D),
        A(eside, 2 * ne * sizeof(int)),       A(rarea, nc * D),
        A(zc, nl * D),                        A(zi, (nl + 1) * D),
        A(rdz, nl * D),
        /* the deep atmosphere's metric: NULL (nothing mapped) in a shallow one */
        A(hl, nl * D), A(rdzv, nl * D), A(hi, (nl + 1) * D), A(qi, (nl + 1) * D)};
#undef A
    gale_koff_mirror_t *m = NULL;
    GALE_ALLOC(m, 1);
    GALE_CALL(gale_koff_mirror(tr, sizeof *tr, offsetof(gale_ktr_t, impl), a,
                               (int)(sizeof a / sizeof a[0]), "the transport tables", m));
    tr->impl = m;
    return GALE_OK;
}

void gale_ktr_finalize(gale_ktr_t *tr)
{
    gale_koff_mirror_t *m = tr->impl;
    if (!m) return;
    gale_koff_unmirror(m);
    gale_free(m);
    tr->impl = NULL;
}
