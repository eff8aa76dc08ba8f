/* The AMD GPU through Debian's HIP runtime (libamdhip64, [GALE_HIP] ON;
 * docs/offload.md): its name and architecture for the log, whether it is an
 * APU, and whether it can read pageable host memory, which [offload] memory =
 * unified needs (MI300A, or an MI200 with XNACK on). A host file of its own:
 * the HIP headers are not for OpenMP device passes. */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <stdio.h>

#include "device.h"

int gale_koff_hip_query(int ordinal, gale_koff_hip_t *q)
{
    *q = (gale_koff_hip_t){0};
    int v = 0, n = 0;
    if (hipRuntimeGetVersion(&v) != hipSuccess) v = 0;
    hipError_t e = hipGetDeviceCount(&n);
    if (e == hipSuccess && ordinal >= n) e = hipErrorInvalidDevice;
    hipDeviceProp_t p;
    int pageable = 0;
    if (e == hipSuccess) e = hipGetDeviceProperties(&p, ordinal);
    if (e == hipSuccess)
        e = hipDeviceGetAttribute(&pageable, hipDeviceAttributePageableMemoryAccess, ordinal);
    if (e != hipSuccess) {
        snprintf(q->runtime, sizeof q->runtime, "HIP runtime %d.%d.%d: no AMD GPU %d (%s, %d visible)",
                 v / 10000000, v / 100000 % 100, v % 100000, ordinal, hipGetErrorName(e), n);
        return -1;
    }
    snprintf(q->name, sizeof q->name, "%s (%s%s)", p.name, p.gcnArchName,
             p.integrated ? ", APU" : "");
    snprintf(q->runtime, sizeof q->runtime,
             "HIP runtime %d.%d.%d: GPU %d of %d, %s, pageable host memory %s", v / 10000000,
             v / 100000 % 100, v % 100000, ordinal, n, p.integrated ? "APU" : "discrete",
             pageable ? "readable" : "not readable");
    q->pageable = pageable;
    q->apu = p.integrated;
    return 0;
}
