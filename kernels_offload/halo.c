/* Halo buffers of the offload layer: the device packing of halo columns for
 * halo/ plans (gale_kernels.h, "halo packing"; docs/offload.md, "Halo
 * exchanges"). Calls down into residency.c only. */
#include "gale_base.h"
#include "gale_koffload.h" /* GALE_SIMD, before the body headers */

#include <omp.h>

#include "gale_kbodies.h" /* gale_kb_pack_d ... */

/* Three ways, by memory mode and [halo] gpu_aware:
 *  unified:               pack into the host buffer MPI uses (zero-copy);
 *  discrete, gpu_aware:   pack into a device buffer that MPI itself reads;
 *  discrete, host-staged: pack into a device buffer, copy it to the host
 *                         buffer MPI uses (and the reverse on receipt). */
struct gale_khalo {
    int staged;
    const int *sidx, *ridx; /* kernel addresses of the plan's lists */
    void *sbuf, *rbuf;      /* kernel addresses of the packed messages */
    size_t sbytes, rbytes;
    int own;                /* lists and buffers are gale_koff_alloc'ed here */
};

int gale_k_halo_attach(gale_khalo_t **khp, const int *sidx, int ns, const int *ridx, int nr,
                       int nlev, int elem, void *sbuf, void *rbuf, void **msg_sbuf,
                       void **msg_rbuf)
{
    gale_khalo_t *kh = NULL;
    GALE_ALLOC(kh, 1);
    *khp = kh;
    kh->sbytes = (size_t)ns * nlev * elem;
    kh->rbytes = (size_t)nr * nlev * elem;
    *msg_sbuf = sbuf;
    *msg_rbuf = rbuf;
    if (gale_koff_unified()) {
        kh->sidx = sidx, kh->ridx = ridx, kh->sbuf = sbuf, kh->rbuf = rbuf;
        return GALE_OK;
    }
    const int dev = gale_koff_dev(), host = gale_koff_host();
    int *si = gale_koff_alloc((size_t)ns * sizeof *si), *ri = gale_koff_alloc((size_t)nr * sizeof *ri);
    kh->sbuf = gale_koff_alloc(kh->sbytes);
    kh->rbuf = gale_koff_alloc(kh->rbytes);
    kh->sidx = si, kh->ridx = ri, kh->own = 1;
    if (!si || !ri || !kh->sbuf || !kh->rbuf)
        GALE_ERROR(GALE_ERR_MEM, "cannot allocate halo buffers (%zu + %zu bytes) on device %d",
                   kh->sbytes, kh->rbytes, dev);
    if ((ns && omp_target_memcpy(si, sidx, (size_t)ns * sizeof *si, 0, 0, dev, host)) ||
        (nr && omp_target_memcpy(ri, ridx, (size_t)nr * sizeof *ri, 0, 0, dev, host)))
        GALE_ERROR(GALE_ERR_INTERNAL, "copying halo lists to device %d failed", dev);
    gale_koff_count_const((double)(ns + nr) * sizeof(int));
    kh->staged = !gale_koff_gpu_aware();
    if (!kh->staged) {
        *msg_sbuf = kh->sbuf;
        *msg_rbuf = kh->rbuf;
    }
    return GALE_OK;
}

void gale_k_halo_pack(void *ctx, const void *field, int stride, int elem, int nlev,
                      const int *idx, int n, void *buf)
{
    const gale_khalo_t *kh = ctx;
    const int dev = gale_koff_dev();
    const void *df = gale_koff_ptr(field);
    const int *di = kh->sidx;
    void *db = kh->sbuf;
    if (elem == 8) {
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(df, di, db)
        for (int i = 0; i < n; i++) gale_kb_pack_d(i, nlev, stride, di, df, db);
    } else {
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(df, di, db)
        for (int i = 0; i < n; i++) gale_kb_pack_f(i, nlev, stride, di, df, db);
    }
    if (kh->staged) {
        size_t b = (size_t)n * nlev * elem;
        if (omp_target_memcpy(buf, db, b, 0, 0, gale_koff_host(), dev))
            GALE_KFATAL("halo copy to host failed", buf);
        gale_koff_count_halo(0, (double)b);
    }
}

void gale_k_halo_unpack(void *ctx, void *field, int stride, int elem, int nlev, const int *idx,
                        int n, const void *buf)
{
    const gale_khalo_t *kh = ctx;
    const int dev = gale_koff_dev();
    void *df = gale_koff_ptr(field);
    const int *di = kh->ridx;
    const void *db = kh->rbuf;
    if (kh->staged) {
        size_t b = (size_t)n * nlev * elem;
        if (omp_target_memcpy(kh->rbuf, buf, b, 0, 0, dev, gale_koff_host()))
            GALE_KFATAL("halo copy to the device failed", buf);
        gale_koff_count_halo((double)b, 0);
    }
    if (elem == 8) {
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(df, di, db)
        for (int i = 0; i < n; i++) gale_kb_unpack_d(i, nlev, stride, di, df, db);
    } else {
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(df, di, db)
        for (int i = 0; i < n; i++) gale_kb_unpack_f(i, nlev, stride, di, df, db);
    }
}

void gale_k_halo_detach(void *ctx)
{
    gale_khalo_t *kh = ctx;
    if (!kh) return;
    if (kh->own) {
        gale_koff_free((void *)kh->sidx);
        gale_koff_free((void *)kh->ridx);
        gale_koff_free(kh->sbuf);
        gale_koff_free(kh->rbuf);
    }
    gale_free(kh);
}
