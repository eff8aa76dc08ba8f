/* Internal to kernels_offload/: device discovery (device.c). gale_k_configure
 * (gale_kernels.h) picks the OpenMP device the kernels run on and the memory
 * mode, asking the CUDA driver (nvptx builds) or the HIP runtime (hip_query.c,
 * GALE_HIP=ON) about the GPU, and hands its choice to residency.c
 * (gale_koff_place). */
#ifndef GALE_KOFF_DEVICE_H
#define GALE_KOFF_DEVICE_H

/* gale_k_configure has run (gale_k_init configures the defaults if not). */
int gale_koff_configured(void);

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
