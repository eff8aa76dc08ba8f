/* Internal to kernels_offload/: what another launch file of this folder (for
 * example the transport kernels) needs from launch.c, so that all target
 * regions share one device, one residency scheme and one transfer count.
 * Include it instead of defining GALE_SIMD, before the body headers. */
#ifndef GALE_KOFFLOAD_H
#define GALE_KOFFLOAD_H

#include "gale_kernels.h" /* gale_kmesh_t */
#include "gale_knl.h"
#include "gale_ktransport.h"

#include <stddef.h>

/* GPU device passes: an `omp simd` there only yields "loop not vectorized"
 * warnings (docs/offload.md). The x86_64 host-offload image keeps it. */
#if defined(__NVPTX__) || defined(__AMDGPU__)
#define GALE_SIMD
#else
#define GALE_SIMD _Pragma("omp simd")
#endif

/* A broken invariant inside a void launch function (a bug in gale, so the
 * job aborts): prints "gale: error [rank r] file:line (func): what (host
 * address p)" through the base layer's gale_error_raise, with the location
 * of the CALLER (as PETSc's PetscCallAbort), then aborts. */
__attribute__((noreturn)) void gale_kfatal_at(const char *file, int line, const char *func,
                                              const char *what, const void *p);
#define GALE_KFATAL(what, p) gale_kfatal_at(__FILE__, __LINE__, __func__, (what), (p))

/* The OpenMP device the kernels run on: device(gale_koff_dev()) on every
 * target construct. */
int gale_koff_dev(void);
/* The address a kernel uses for a host array that is a registered field or
 * was mapped (pass it with is_device_ptr): its device copy in discrete
 * memory, the host address itself in unified memory. NULL stays NULL. An
 * array that is not on the device is a fatal error reported at the call. */
void *gale_koff_ptr_at(const void *host, const char *file, int line, const char *func);
#define gale_koff_ptr(host) gale_koff_ptr_at((host), __FILE__, __LINE__, __func__)
/* Copies a read-only host array to the device (counted as set-up data), or
 * nothing in unified memory; gale_koff_unmap before its owner frees it.
 * Arrays mapped here and not unmapped are unmapped by gale_k_finalize. */
void gale_koff_map_at(const void *host, size_t bytes, const char *file, int line,
                      const char *func);
#define gale_koff_map(host, bytes) gale_koff_map_at((host), (bytes), __FILE__, __LINE__, __func__)
void gale_koff_unmap(const void *host);
/* Bytes of reduction results a sibling's target regions moved. */
void gale_koff_count_small(double h2d, double d2h);
/* Bytes of read-only (set-up) data a sibling copied to the device itself,
 * for example a `target update to` of a mapped array the host rewrote. */
void gale_koff_count_const(double h2d);
/* The kmesh as the kernels see it (gale_k_init's copy with kernel
 * addresses: on the device, or a host copy in unified memory); pass it with
 * is_device_ptr. A kmesh gale_k_init has not set up is a fatal error. */
const gale_kmesh_t *gale_koff_kmesh_at(const gale_kmesh_t *km, const char *file, int line,
                                       const char *func);
#define gale_koff_kmesh(km) gale_koff_kmesh_at((km), __FILE__, __LINE__, __func__)

/* The transport's and the nonlinear core's static data as the kernels see
 * them (gale_ktr_init's and gale_knl_init's copies: on the device, or host
 * copies in unified memory); pass them with is_device_ptr. */
const gale_ktr_t *gale_koff_ktr(const gale_ktr_t *tr);
const gale_knl_t *gale_koff_knl(const gale_knl_t *nk);

/* The HIP runtime's word on AMD GPU `ordinal` (hip_query.c, built with
 * GALE_HIP=ON): 0, or -1 with the reason in runtime (no GPU, no driver). */
typedef struct {
    char name[96];     /* "AMD Instinct MI300A (gfx942:sramecc+:xnack+, APU)" */
    char runtime[160]; /* for the start-up log */
    int pageable;      /* the GPU reads pageable host memory (unified memory works) */
    int apu;
} gale_koff_hip_t;
int gale_koff_hip_query(int ordinal, gale_koff_hip_t *q);

#endif
