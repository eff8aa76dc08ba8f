/* Field storage: vertical innermost, structure of arrays. A field is one
 * contiguous block of columns; column i starts at data + i*stride, stride is
 * the level count rounded up to a multiple of 8 (one 64-byte line of doubles)
 * and the block is 64-byte aligned, so every column starts on a cache line.
 * The padding levels are zero and stay zero: every kernel either writes only
 * the real levels or maps zeros to zeros (whole-block vector updates), and
 * sums over whole columns rely on it. */
#ifndef GALE_FIELD_H
#define GALE_FIELD_H

#include "gale_partition.h"

#include <stddef.h>

typedef enum {
    GALE_LOC_CELL = 0,   /* cell centres, nlev layers (p) */
    GALE_LOC_EDGE = 1,   /* vertical faces, nlev layers (u_h) */
    GALE_LOC_IFACE = 2   /* layer interfaces above cells, nlev+1 levels (w, b) */
} gale_loc_t;

typedef struct {
    char name[24];
    int loc;          /* gale_loc_t */
    int nlev;         /* levels stored per column (layers, or layers+1 for interfaces) */
    int stride;       /* elements between columns, multiple of 8 */
    int n;            /* columns, halos included */
    int elem;         /* bytes per element: 8 (double) or 4 (float) */
    void *data;
    int halo_valid;   /* depth to which halo columns hold current values */
} gale_field_t;

/* Columns: cells or edges of lm to its full halo depth. `layers` is the model's
 * layer count; interface fields get layers+1 levels. elem is 8 or 4. */
int gale_field_create(gale_field_t *f, const char *name, gale_loc_t loc, int layers, int elem,
                      const gale_local_t *lm);
void gale_field_free(gale_field_t *f);
static inline int gale_pad8(int n) { return (n + 7) / 8 * 8; }
/* One halo plan and one launch shape serve fields alike in these. */
static inline int gale_field_same_shape(const gale_field_t *a, const gale_field_t *b)
{
    return a->loc == b->loc && a->nlev == b->nlev && a->stride == b->stride && a->elem == b->elem;
}
static inline double *gale_fd(const gale_field_t *f) { return (double *)f->data; }
static inline float *gale_ff(const gale_field_t *f) { return (float *)f->data; }

#endif
