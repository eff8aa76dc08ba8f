/* Internal to kernels_offload/: the one mirror of static data. A kernel
 * group's static data is a struct of pointers to read-only host arrays (the
 * kmesh, the transport tables, the nonlinear core's data); the kernels read a
 * mirror of it: the struct with the addresses the kernels use, on the device
 * in discrete memory, a host copy in unified memory. Each group describes its
 * arrays in a table (gale_koff_static_t); gale_koff_mirror maps them and
 * places the mirror, gale_koff_unmirror undoes both. Calls down into
 * residency.c only. */
#ifndef GALE_KOFF_MIRROR_H
#define GALE_KOFF_MIRROR_H

#include <stddef.h>

/* One array of a group's struct: the offset of its pointer member, and the
 * bytes to copy to the device; GALE_KOFF_FIELD for a field, placed when it
 * was registered (the mirror takes its address, maps and unmaps nothing). */
typedef struct {
    size_t off, bytes;
} gale_koff_static_t;
#define GALE_KOFF_FIELD ((size_t)-1)
#define GALE_KOFF_STATIC(type, member, nbytes) {offsetof(type, member), (nbytes)}

#define GALE_KOFF_MAXSTATIC 48
typedef struct {
    void *kd;                             /* the struct as the kernels see it */
    const void *own[GALE_KOFF_MAXSTATIC]; /* the arrays mapped for it */
    int nown;
} gale_koff_mirror_t;

/* Maps the n arrays of tab of the struct at host (size bytes; its member at
 * impl_off, a pointer, is NULL in the mirror) and places the mirror in m;
 * what names the struct in an error. GALE_OK or an error code. */
int gale_koff_mirror(const void *host, size_t size, size_t impl_off, const gale_koff_static_t *tab,
                     int n, const char *what, gale_koff_mirror_t *m);
/* Frees the mirror and unmaps its arrays. */
void gale_koff_unmirror(gale_koff_mirror_t *m);
/* The struct as the kernels see it (pass it with is_device_ptr), from the
 * impl of a transport's or nonlinear core's static data: its mirror. */
static inline const void *gale_koff_mirrored(const void *impl)
{
    return ((const gale_koff_mirror_t *)impl)->kd;
}

#endif
