/* Residency, the bottom room of the offload layer (residency.h): the device
 * and memory mode device discovery chose, the read-only arrays mapped to the
 * device, the kernels' addresses of host arrays, the fields' device copies,
 * and the count of every byte that moves between host and device
 * (gale_k_transfers). It calls no other file of kernels_offload/.
 *
 * gale_k_init maps every read-only array of the kmesh to the device once
 * (mirror.c), gale_k_field_register places each field there, and from then
 * on kernels read and write device copies only. What moves afterwards is
 * counted: halo messages staged through the host (halo.c), reduction
 * results, and the explicit gale_k_field_to_host/_to_device. */
#include "gale_base.h"
#include "gale_kernels.h"
#include "residency.h"

#include <omp.h>

#include <stdlib.h>
#include <string.h>

static struct {
    int dev, host;  /* OpenMP device numbers: the kernels' and the host's */
    int unified;    /* kernels get host addresses; nothing is mapped */
    int gpu_aware;  /* halo messages stay in device buffers */
    gale_kxfer_t x; /* bytes moved (gale_k_transfers) */
} g;

/* Read-only host arrays mapped to the device (kmesh, static data, dot
 * weights): unmapped by their owners or at gale_koff_unmap_all, before their
 * owners free them. */
#define MAXMAP 512
static struct {
    const void *p;
    size_t bytes;
} maps[MAXMAP];
static int nmaps;

/* GALE_KFATAL (residency.h): a bug in gale, reported at the caller. */
void gale_kfatal_at(const char *file, int line, const char *func, const char *what,
                    const void *p)
{
    gale_error_raise(GALE_ERR_INTERNAL, file, line, func, "%s (host address %p)", what, p);
    abort();
}

void gale_koff_place(int dev, int host, int unified, int gpu_aware)
{
    g.dev = dev, g.host = host, g.unified = unified, g.gpu_aware = gpu_aware;
}
int gale_koff_dev(void) { return g.dev; }
int gale_koff_host(void) { return g.host; }
int gale_koff_unified(void) { return g.unified; }
int gale_koff_gpu_aware(void) { return g.gpu_aware; }

/* ---- addresses and read-only arrays ---- */

void *gale_koff_ptr_at(const void *p, GALE_KAT)
{
    if (!p || g.unified) return (void *)p;
    void *d = omp_get_mapped_ptr(p, g.dev);
    if (!d)
        gale_kfatal_at(file, line, func,
                       "an array passed to a kernel is not on the device (a field not registered?)", p);
    return d;
}

void gale_koff_map_at(const void *p, size_t bytes, GALE_KAT)
{
    if (!p || !bytes || g.unified) return;
    if (nmaps == MAXMAP) gale_kfatal_at(file, line, func, "too many read-only arrays mapped", p);
    const char *c = p;
#pragma omp target enter data map(to : c[0 : bytes]) device(g.dev)
    maps[nmaps].p = p;
    maps[nmaps++].bytes = bytes;
    g.x.const_h2d += (double)bytes;
}

void gale_koff_unmap(const void *host)
{
    for (int i = 0; i < nmaps; i++)
        if (maps[i].p == host) {
            /* release, not delete: levels of the multigrid chain map some
             * arrays (the vertical grid) once each */
            const char *c = host;
            size_t b = maps[i].bytes;
#pragma omp target exit data map(release : c[0 : b]) device(g.dev)
            maps[i] = maps[--nmaps];
            return;
        }
}

void gale_koff_unmap_all(void)
{
    for (int i = 0; i < nmaps; i++) {
        const char *c = maps[i].p;
        size_t b = maps[i].bytes;
#pragma omp target exit data map(release : c[0 : b]) device(g.dev)
    }
    nmaps = 0;
}

const double *gale_koff_weight_at(const double *w, size_t n, GALE_KAT)
{
    if (!w || g.unified || !n) return w;
    if (!omp_target_is_present(w, g.dev)) gale_koff_map_at(w, n * sizeof *w, file, line, func);
    else if (!omp_target_is_present(w + n - 1, g.dev))
        gale_kfatal_at(file, line, func, "a dot weight is longer than its device copy", w);
    return gale_koff_ptr_at(w, file, line, func);
}

/* ---- memory the kernels address directly ---- */

void *gale_koff_alloc(size_t bytes)
{
    if (!g.unified) return omp_target_alloc(bytes ? bytes : 1, g.dev);
    void *p = NULL;
    if (gale_alloc_impl(&p, bytes, "kernel memory", __FILE__, __LINE__, __func__) != GALE_OK)
        return NULL;
    return p;
}

void gale_koff_free(void *p)
{
    if (g.unified) gale_free(p);
    else omp_target_free(p, g.dev);
}

int gale_koff_copy_const(void *p, const void *host, size_t bytes)
{
    if (g.unified) {
        memcpy(p, host, bytes);
        return 0;
    }
    if (omp_target_memcpy(p, host, bytes, 0, 0, g.dev, g.host)) return -1;
    g.x.const_h2d += (double)bytes;
    return 0;
}

/* ---- the counts ---- */

void gale_koff_count_small(double h2d, double d2h)
{
    g.x.small_h2d += h2d;
    g.x.small_d2h += d2h;
}
void gale_koff_count_const(double h2d) { g.x.const_h2d += h2d; }
void gale_koff_count_halo(double h2d, double d2h)
{
    g.x.halo_h2d += h2d;
    g.x.halo_d2h += d2h;
}

void gale_k_transfers(gale_kxfer_t *x) { *x = g.x; }

/* ---- fields ---- */

static size_t field_bytes(const gale_field_t *f) { return (size_t)f->n * f->stride * f->elem; }

int gale_k_field_register(gale_field_t *f)
{
    if (g.unified) return GALE_OK;
    char *d = f->data;
    size_t b = field_bytes(f);
#pragma omp target enter data map(to : d[0 : b]) device(g.dev)
    g.x.field_h2d += (double)b;
    return GALE_OK;
}

void gale_k_field_release(gale_field_t *f)
{
    if (g.unified || !f->data) return;
    char *d = f->data;
    size_t b = field_bytes(f);
#pragma omp target exit data map(delete : d[0 : b]) device(g.dev)
}

int gale_k_field_to_host(gale_field_t *f)
{
    if (g.unified) return GALE_OK;
    double t0 = gale_wtime();
    char *d = f->data;
    size_t b = field_bytes(f);
#pragma omp target update from(d[0 : b]) device(g.dev)
    g.x.field_d2h += (double)b;
    gale_timer_add(GALE_T_D2H, gale_wtime() - t0);
    return GALE_OK;
}

int gale_k_field_to_device(gale_field_t *f)
{
    if (g.unified) return GALE_OK;
    double t0 = gale_wtime();
    char *d = f->data;
    size_t b = field_bytes(f);
#pragma omp target update to(d[0 : b]) device(g.dev)
    g.x.field_h2d += (double)b;
    gale_timer_add(GALE_T_H2D, gale_wtime() - t0);
    return GALE_OK;
}
