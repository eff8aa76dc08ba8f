/* The device set-up that needs MPI: one device per rank on a node, and
 * whether the MPI library can read device buffers (gale_psy.h). */
#include "gale_psy.h"

#include "gale_base.h"
#include "gale_base_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

/* What the MPI library says about device buffers of this GPU vendor
 * (1 NVIDIA, 2 AMD): 1 yes, 0 no, -1 it cannot say. GALE_MPI_GPU_AWARE=0|1
 * overrides, for libraries that cannot be asked (Cray MPICH: it follows
 * MPICH_GPU_SUPPORT_ENABLED, honoured too). */
static int mpi_gpu_support(int vendor, char *what, size_t n)
{
    int cuda = -1, hip = -1;
#if defined(MPIX_GPU_SUPPORT_CUDA) /* MPICH >= 4.0 */
    if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_CUDA, &cuda) != MPI_SUCCESS) cuda = -1;
    if (MPIX_GPU_query_support(MPIX_GPU_SUPPORT_HIP, &hip) != MPI_SUCCESS) hip = -1;
    snprintf(what, n, "MPIX_GPU_query_support: CUDA %s, HIP %s", cuda > 0 ? "yes" : "no",
             hip > 0 ? "yes" : "no");
#elif defined(MPIX_CUDA_AWARE_SUPPORT) || defined(MPIX_ROCM_AWARE_SUPPORT) /* Open MPI */
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    cuda = MPIX_Query_cuda_support();
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
    hip = MPIX_Query_rocm_support();
#endif
    snprintf(what, n, "MPIX_Query_*_support: CUDA %s, ROCm %s", cuda > 0 ? "yes" : "no",
             hip > 0 ? "yes" : "no");
#else
    snprintf(what, n, "the MPI library cannot be asked");
#endif
    int s = vendor == 1 ? cuda : vendor == 2 ? hip : -1;
    if (s > 0) s = 1;
    const char *cray = getenv("MPICH_GPU_SUPPORT_ENABLED"), *ov = getenv("GALE_MPI_GPU_AWARE");
    if (s < 0 && cray && strcmp(cray, "1") == 0) s = 1;
    if (ov && (strcmp(ov, "0") == 0 || strcmp(ov, "1") == 0)) {
        s = ov[0] == '1';
        size_t l = strlen(what);
        snprintf(what + l, n - l, "; GALE_MPI_GPU_AWARE=%s", ov);
    }
    return s;
}

int gale_psy_device_setup(int memory, int gpu_aware, MPI_Comm comm)
{
    int lrank;
    GALE_CALL(gale_node_ranks(comm, &lrank, NULL));
    const gale_kopts_t o = {memory, gpu_aware, lrank};
    gale_kdevice_t dev;
    char msg[512] = "", what[160];
    int st = gale_k_configure(&o, &dev, msg, sizeof msg);
    const int cpu = strcmp(gale_k_name(), "cpu") == 0;
    const int aware = mpi_gpu_support(dev.vendor, what, sizeof what);
    /* On a GPU, a library that is not GPU-aware would read device addresses
     * as host memory: a crash or silent garbage. On the host-offload plugin
     * device memory is host memory, so it works (and is tested there). */
    if (st == GALE_OK && gpu_aware && memory == GALE_MEM_DISCRETE && dev.gpu && aware != 1) {
        snprintf(msg, sizeof msg,
                 "[halo] gpu_aware = true, but the MPI library is not GPU-aware for this %s GPU "
                 "(%s): set [halo] gpu_aware = false to stage halo messages through host memory, "
                 "or use a GPU-aware MPI (GALE_MPI_GPU_AWARE=1 asserts that it is)",
                 dev.vendor == 1 ? "NVIDIA" : "AMD", what);
        st = GALE_ERR_INPUT;
    }
    GALE_CALL(gale_agree_status(st, msg, sizeof msg, comm));
    if (cpu) {
        if (memory != GALE_MEM_DISCRETE || gpu_aware)
            gale_log(GALE_LOG_INFO,
                     "offload:   none (CPU kernels): [offload] memory and [halo] gpu_aware have "
                     "no effect");
        return GALE_OK;
    }
    const char *halo = memory == GALE_MEM_UNIFIED ? "zero-copy (unified buffers to MPI)"
                       : gpu_aware               ? "device buffers to MPI (GPU-aware)"
                                                 : "packed on the device, staged through host";
    gale_log(GALE_LOG_INFO, "offload:   %s; memory %s; halo %s", dev.desc,
             memory == GALE_MEM_UNIFIED ? "unified (zero-copy)" : "discrete (map/update)", halo);
    if (dev.runtime[0]) gale_log(GALE_LOG_INFO, "offload:   %s", dev.runtime);
    gale_log(GALE_LOG_INFO, "offload:   MPI GPU support: %s", what);
    return GALE_OK;
}
