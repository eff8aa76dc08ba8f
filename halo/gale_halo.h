/* Halo exchange: the only place with MPI point-to-point.
 *
 * A plan is made once per field shape (location, levels, stride, element
 * size, depth) and reused for every exchange of every field of that shape:
 * persistent non-blocking sends and receives on fixed buffers, whole columns
 * packed per neighbour. begin() packs and starts, end() waits and unpacks, so
 * the caller can compute on inner cells in between. Both are collective over
 * the neighbours only. */
#ifndef GALE_HALO_H
#define GALE_HALO_H

#include "gale_field.h"

#include <mpi.h>

typedef struct gale_halo gale_halo_t;

/* Packs/unpacks whole columns: out[k*stride_buf...]. The default copies on the
 * host; a launch layer may install its own (device packing) with
 * gale_halo_set_packer. n columns listed in idx, nlev levels each. */
typedef void (*gale_pack_fn)(void *ctx, const void *field, int stride, int elem, int nlev,
                             const int *idx, int n, void *buf);
typedef void (*gale_unpack_fn)(void *ctx, void *field, int stride, int elem, int nlev,
                               const int *idx, int n, const void *buf);

/* Collective over comm (all ranks create the same plans in the same order). */
int gale_halo_create(gale_halo_t **h, const gale_local_t *lm, MPI_Comm comm, gale_loc_t loc,
                     int nlev, int stride, int elem, int depth);
int gale_halo_destroy(gale_halo_t **h);
void gale_halo_set_packer(gale_halo_t *h, gale_pack_fn pack, gale_unpack_fn unpack, void *ctx);

int gale_halo_begin(gale_halo_t *h, const void *data);
int gale_halo_end(gale_halo_t *h, void *data);

/* For a launch layer that packs on a device (psy/psy.c installs it): the
 * plan's flattened index lists (stable for its life), its host message
 * buffers and shape. */
typedef struct {
    const int *sidx, *ridx;
    int nsend_col, nrecv_col;
    void *sbuf, *rbuf; /* nsend_col / nrecv_col columns of nlev values of elem bytes */
    int nlev, elem;
} gale_halo_info_t;
void gale_halo_info(const gale_halo_t *h, gale_halo_info_t *info);
/* Makes MPI send from and receive into other buffers of the same size (device
 * buffers for GPU-aware MPI); the packer then gets these. Re-creates the
 * persistent requests; not collective; not during an exchange. The caller
 * owns the buffers. */
int gale_halo_set_buffers(gale_halo_t *h, void *sbuf, void *rbuf);
/* fn(ctx) runs in gale_halo_destroy, after the requests are freed: a launch
 * layer frees its device buffers there. */
void gale_halo_set_finalizer(gale_halo_t *h, void (*fn)(void *ctx), void *ctx);

/* Bytes and messages this rank receives per exchange (for reports). */
size_t gale_halo_bytes(const gale_halo_t *h);
int gale_halo_messages(const gale_halo_t *h);

#endif
