/* The one mirror of static data (mirror.h): driven by the table of arrays
 * each kernel group needs (launch.c: the kmesh; launch_transport.c: the
 * transport tables; launch_nl.c: the nonlinear core's data). */
#include "gale_base.h"
#include "mirror.h"
#include "residency.h"

#include <string.h>

int gale_koff_mirror(const void *host, size_t size, size_t impl_off, const gale_koff_static_t *tab,
                     int n, const char *what, gale_koff_mirror_t *m)
{
    memset(m, 0, sizeof *m);
    GALE_ASSERT(n <= GALE_KOFF_MAXSTATIC && impl_off + sizeof(void *) <= size);
    for (int i = 0; i < n; i++) {
        const void *p;
        memcpy(&p, (const char *)host + tab[i].off, sizeof p);
        if (tab[i].bytes == GALE_KOFF_FIELD) continue;
        gale_koff_map(p, tab[i].bytes);
        m->own[m->nown++] = p;
    }
    /* the struct with kernel addresses */
    char *t = NULL;
    GALE_ALLOC(t, size);
    memcpy(t, host, size);
    for (int i = 0; i < n; i++) {
        const void *p;
        memcpy(&p, t + tab[i].off, sizeof p);
        void *d = gale_koff_ptr(p);
        memcpy(t + tab[i].off, &d, sizeof d);
    }
    const void *none = NULL;
    memcpy(t + impl_off, &none, sizeof none);
    m->kd = gale_koff_alloc(size);
    int st = !m->kd ? -1 : gale_koff_copy_const(m->kd, t, size);
    gale_free(t);
    if (st)
        GALE_ERROR(GALE_ERR_MEM, "cannot place %s (%zu bytes) on device %d", what, size,
                   gale_koff_dev());
    return GALE_OK;
}

void gale_koff_unmirror(gale_koff_mirror_t *m)
{
    if (m->kd) gale_koff_free(m->kd);
    m->kd = NULL;
    for (int i = 0; i < m->nown; i++) gale_koff_unmap(m->own[i]);
    m->nown = 0;
}
