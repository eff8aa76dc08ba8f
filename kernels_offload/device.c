/* Device discovery of the offload layer (device.h): gale_k_configure picks
 * the OpenMP device the kernels run on (this build's kind, else the host
 * plugin, one per rank on the node) and the memory mode, asks the CUDA driver
 * (nvptx builds) or the HIP runtime (hip_query.c, GALE_HIP=ON) about the GPU,
 * and hands its choice to residency.c. docs/offload.md, "Devices". */
#include "gale_base.h"
#include "gale_kernels.h"
#include "device.h"
#include "residency.h"

#include <omp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if GALE_OFFLOAD_NVPTX
#include <dlfcn.h>
#endif

#ifndef GALE_OFFLOAD_TARGET
#define GALE_OFFLOAD_TARGET "host"
#endif

enum { KIND_INITIAL = 0, KIND_HOST = 1, KIND_NVPTX = 2, KIND_AMDGCN = 3 };
static const char *const kind_names[] = {"initial device (the host CPU: nothing offloaded or copied)",
                                         "x86_64 host-offload plugin", "NVIDIA GPU", "AMD GPU"};

static struct {
    int configured;
    int kind; /* KIND_* of the kernels' device */
} g;

const char *gale_k_name(void) { return "offload-" GALE_OFFLOAD_TARGET; }

int gale_koff_configured(void) { return g.configured; }

static int device_kind(int d)
{
    int k = KIND_INITIAL, init = 1;
#pragma omp target device(d) map(from : k, init)
    {
        init = omp_is_initial_device();
#if defined(__NVPTX__)
        k = KIND_NVPTX;
#elif defined(__AMDGPU__)
        k = KIND_AMDGCN;
#else
        k = KIND_HOST;
#endif
    }
    return init ? KIND_INITIAL : k;
}

#if GALE_OFFLOAD_NVPTX
/* The CUDA driver, opened at run time (no CUDA headers or libraries at build
 * time): the GPU's name, and whether it can read pageable host memory (HMM or
 * a coherent Grace Hopper link), which unified memory needs. */
static int cuda_query(int ordinal, char *name, size_t n, int *pageable)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return -1;
    int (*init)(unsigned) = (int (*)(unsigned))dlsym(lib, "cuInit");
    int (*get)(int *, int) = (int (*)(int *, int))dlsym(lib, "cuDeviceGet");
    int (*nm)(char *, int, int) = (int (*)(char *, int, int))dlsym(lib, "cuDeviceGetName");
    int (*attr)(int *, int, int) = (int (*)(int *, int, int))dlsym(lib, "cuDeviceGetAttribute");
    int dev = 0, st = -1;
    if (init && get && nm && attr && init(0) == 0 && get(&dev, ordinal) == 0 &&
        nm(name, (int)n, dev) == 0 &&
        attr(pageable, 88 /* CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS */, dev) == 0)
        st = 0;
    dlclose(lib);
    return st;
}
#endif

int gale_k_configure(const gale_kopts_t *o, gale_kdevice_t *dv, char *msg, size_t n)
{
    memset(dv, 0, sizeof *dv);
    const int host = omp_get_initial_device();
    int dev;
    const int want = strcmp(GALE_OFFLOAD_TARGET, "nvptx") == 0    ? KIND_NVPTX
                     : strcmp(GALE_OFFLOAD_TARGET, "amdgcn") == 0 ? KIND_AMDGCN
                                                                  : KIND_HOST;
    const char *pol = getenv("OMP_TARGET_OFFLOAD");
    const int mandatory = pol && strcasecmp(pol, "mandatory") == 0;
    /* every device, by what it is; take this build's kind, else the host
     * plugin (how an nvptx build is tested without a GPU), one per rank on
     * the node */
    const int nd = omp_get_num_devices();
    int cand[2][64], nc[2] = {0, 0};
    for (int d = 0; d < nd && d < 64; d++) {
        int k = device_kind(d);
        if (k == want) cand[0][nc[0]++] = d;
        else if (k == KIND_HOST) cand[1][nc[1]++] = d;
    }
    const int pick = nc[0] ? 0 : 1, ord = nc[pick] ? o->local_rank % nc[pick] : 0;
    if (!nc[pick]) {
        if (mandatory) {
            snprintf(msg, n,
                     "OMP_TARGET_OFFLOAD=MANDATORY but no offload device (omp_get_num_devices() = "
                     "%d, none runs this build's %s code): check the GPU driver, or run without "
                     "MANDATORY to let the kernels run on the host",
                     nd, GALE_OFFLOAD_TARGET);
            return GALE_ERR_INPUT;
        }
        dev = host;
        g.kind = KIND_INITIAL;
    } else {
        dev = cand[pick][ord];
        g.kind = pick == 0 ? want : KIND_HOST;
    }
    dv->gpu = g.kind == KIND_NVPTX || g.kind == KIND_AMDGCN;
    dv->vendor = g.kind == KIND_NVPTX ? 1 : g.kind == KIND_AMDGCN ? 2 : 0;
    char name[96] = "";
    int pageable = 0;
#if GALE_OFFLOAD_NVPTX
    if (g.kind == KIND_NVPTX && cuda_query(ord, name, sizeof name, &pageable) != 0)
        snprintf(name, sizeof name, "(CUDA driver query failed)");
#endif
    int hip = 0; /* the HIP runtime answered for this AMD GPU */
#if GALE_OFFLOAD_HIP
    gale_koff_hip_t hq;
    hip = gale_koff_hip_query(g.kind == KIND_AMDGCN ? ord : 0, &hq) == 0 && g.kind == KIND_AMDGCN;
    snprintf(dv->runtime, sizeof dv->runtime, "%s", hq.runtime);
    if (hip) {
        snprintf(name, sizeof name, "%s", hq.name);
        pageable = hq.pageable;
    }
#endif
    snprintf(dv->desc, sizeof dv->desc, "device %d of %d: %s%s%s%s", dev, nd,
             kind_names[g.kind], name[0] ? " " : "", name,
             g.kind != want && g.kind != KIND_INITIAL ? " (no device of this build's kind found)"
                                                       : "");
    /* Unified memory: kernels dereference host addresses. The host plugin
     * and the initial device share the host's address space; a GPU must be
     * able to read pageable host memory. */
    gale_koff_place(dev, host, o->memory == GALE_MEM_UNIFIED || g.kind == KIND_INITIAL,
                    o->gpu_aware);
    if (o->memory == GALE_MEM_UNIFIED && g.kind == KIND_NVPTX && !pageable) {
        snprintf(msg, n,
                 "[offload] memory = unified: GPU %s cannot access pageable host memory "
                 "(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 0; needs HMM or Grace Hopper); "
                 "use memory = discrete", name);
        return GALE_ERR_INPUT;
    }
    if (o->memory == GALE_MEM_UNIFIED && g.kind == KIND_AMDGCN && hip && !pageable) {
        snprintf(msg, n,
                 "[offload] memory = unified: AMD GPU %s cannot access pageable host memory "
                 "(hipDeviceAttributePageableMemoryAccess = 0: XNACK is off; MI300A, or MI200 "
                 "with HSA_XNACK=1); use memory = discrete", name);
        return GALE_ERR_INPUT;
    }
    if (o->memory == GALE_MEM_UNIFIED && g.kind == KIND_AMDGCN && !hip) {
        const char *x = getenv("HSA_XNACK");
        if (!x || strcmp(x, "1") != 0) {
            snprintf(msg, n,
                     "[offload] memory = unified on an AMD GPU needs HSA_XNACK=1 in the "
                     "environment (MI300A, or MI200 with XNACK enabled); use memory = discrete");
            return GALE_ERR_INPUT;
        }
    }
    if (g.kind == KIND_INITIAL)
        gale_log_all(GALE_LOG_WARN, "no offload device: the kernels run on the host CPU");
    g.configured = 1;
    return GALE_OK;
}
