/* Internal to kernels_offload/: what every file of this folder that holds
 * target regions includes first, instead of defining GALE_SIMD, before the
 * body headers. The rooms of the folder, each calling only down
 * (docs/offload.md, "Files"):
 *   residency.c (residency.h)  the device and memory mode, map/unmap, kernel
 *                              addresses, fields, the transfer counts
 *   mirror.c (mirror.h)        the one table-driven mirror of static data
 *   device.c (device.h)        device discovery; hip_query.c the HIP query
 *   halo.c                     halo buffers: device packing of halo columns
 *   launch.c, launch_transport.c, launch_nl.c
 *                              the launches, and each kernel group's table
 *                              of static arrays */
#ifndef GALE_KOFFLOAD_H
#define GALE_KOFFLOAD_H

#include "gale_kernels.h" /* gale_kmesh_t */
#include "gale_knl.h"
#include "gale_ktransport.h"
#include "residency.h"

#include <stddef.h>

/* GPU device passes: an `omp simd` there only yields "loop not vectorized"
 * warnings (docs/offload.md). The x86_64 host-offload image keeps it. */
#if defined(__NVPTX__) || defined(__AMDGPU__)
#define GALE_SIMD
#else
#define GALE_SIMD _Pragma("omp simd")
#endif

#endif
