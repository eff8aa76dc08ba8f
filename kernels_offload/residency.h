/* Internal to kernels_offload/, the bottom room: where the kernels' data
 * lives and what moves (docs/offload.md, "Residency"). Every other file of
 * this folder calls down into residency.c; residency.c calls none of them.
 *
 * Pointers. The interface passes host addresses. A launch turns them into
 * the addresses the kernel uses (gale_koff_ptr) and hands those over with
 * is_device_ptr: in discrete memory the device copy (omp_get_mapped_ptr), in
 * unified memory the host address itself (zero-copy: nothing is mapped). */
#ifndef GALE_KOFF_RESIDENCY_H
#define GALE_KOFF_RESIDENCY_H

#include <stddef.h>

/* A broken invariant inside a void launch function (a bug in gale, so the
 * job aborts): prints "gale: error [rank r] file:line (func): what (host
 * address p)" through the base layer's gale_error_raise, with the location
 * of the CALLER (as PETSc's PetscCallAbort), then aborts. */
__attribute__((noreturn)) void gale_kfatal_at(const char *file, int line, const char *func,
                                              const char *what, const void *p);
#define GALE_KFATAL(what, p) gale_kfatal_at(__FILE__, __LINE__, __func__, (what), (p))

/* The helpers below take their caller's location (the launch function that
 * passed the array), so that a fatal error names it: each is called through
 * a macro of its own name. */
#define GALE_KAT const char *file, int line, const char *func
#define GALE_KHERE __FILE__, __LINE__, __func__

/* Where the data lives, set by device discovery (device.c) once it chose the
 * device: the kernels' and the host's OpenMP device numbers, unified memory
 * (kernels get host addresses, nothing is mapped) and GPU-aware halos (halo
 * messages stay in device buffers). */
void gale_koff_place(int dev, int host, int unified, int gpu_aware);
/* device(gale_koff_dev()) on every target construct */
int gale_koff_dev(void);
int gale_koff_host(void);
int gale_koff_unified(void);
int gale_koff_gpu_aware(void);

/* The address a kernel uses for a host array that is a registered field or
 * was mapped (pass it with is_device_ptr): its device copy in discrete
 * memory, the host address itself in unified memory. NULL stays NULL. An
 * array that is not on the device is a fatal error reported at the call. */
void *gale_koff_ptr_at(const void *host, GALE_KAT);
#define gale_koff_ptr(host) gale_koff_ptr_at((host), GALE_KHERE)
/* Copies a read-only host array to the device (counted as set-up data), or
 * nothing in unified memory; gale_koff_unmap before its owner frees it.
 * Arrays mapped here and not unmapped are unmapped by gale_koff_unmap_all
 * (gale_k_finalize of the last kmesh). */
void gale_koff_map_at(const void *host, size_t bytes, GALE_KAT);
#define gale_koff_map(host, bytes) gale_koff_map_at((host), (bytes), GALE_KHERE)
void gale_koff_unmap(const void *host);
void gale_koff_unmap_all(void);
/* A dot weight of n doubles as the kernels see it: mapped when first seen
 * (it must not change). */
const double *gale_koff_weight_at(const double *w, size_t n, GALE_KAT);
#define gale_koff_weight(w, n) gale_koff_weight_at((w), (n), GALE_KHERE)

/* Memory the kernels address directly (a kernel copy of a struct, scratch):
 * omp_target_alloc'ed on the device in discrete memory, zero-filled host
 * memory in unified memory. NULL when it cannot be had. */
void *gale_koff_alloc(size_t bytes);
void gale_koff_free(void *p);
/* Copies bytes of host memory to p of gale_koff_alloc, counted as set-up
 * data in discrete memory; 0, or -1 when the copy failed. */
int gale_koff_copy_const(void *p, const void *host, size_t bytes);

/* The counts of gale_k_transfers (gale_kernels.h) that other files move:
 * reduction results, read-only data a file copied itself (a `target update
 * to` of a mapped array the host rewrote, halo lists), host-staged halo
 * messages. Fields are counted here, by gale_k_field_*. */
void gale_koff_count_small(double h2d, double d2h);
void gale_koff_count_const(double h2d);
void gale_koff_count_halo(double h2d, double d2h);

#endif
