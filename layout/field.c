/* Field storage. See gale_field.h. */
#include "gale_field.h"

#include "gale_base.h"

#include <stdio.h>
#include <string.h>

int gale_field_create(gale_field_t *f, const char *name, gale_loc_t loc, int layers, int elem,
                      const gale_local_t *lm)
{
    memset(f, 0, sizeof *f);
    if (elem != 8 && elem != 4) GALE_ERROR(GALE_ERR_INTERNAL, "field %s: element size %d", name, elem);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->loc = loc;
    f->nlev = loc == GALE_LOC_IFACE ? layers + 1 : layers;
    f->stride = gale_pad8(f->nlev);
    f->n = loc == GALE_LOC_EDGE ? lm->nedge[lm->depth] : lm->ncell[lm->depth];
    f->elem = elem;
    f->halo_valid = 0;
    char *p = NULL;
    GALE_ALLOC(p, (size_t)f->n * (size_t)f->stride * (size_t)elem);
    f->data = p;
    return GALE_OK;
}

void gale_field_free(gale_field_t *f)
{
    gale_free(f->data);
    f->data = NULL;
}
