/* OpenMP-offload launch layer: the same column bodies as kernels_cpu/, run
 * by `target teams distribute parallel for` with one device thread per
 * column (or per batch of GALE_LANES columns for the tridiagonal solve);
 * levels stay inside the body. docs/offload.md describes the whole design.
 *
 * Residency. gale_k_init copies every read-only array of the kmesh to the
 * device once, gale_k_field_register places each field there, and from then
 * on kernels read and write device copies only. What moves afterwards is
 * counted (gale_k_transfers): halo messages staged through the host,
 * reduction results, and the explicit gale_k_field_to_host/_to_device.
 *
 * Pointers. The interface passes host addresses. Each launch turns them into
 * the addresses the kernel uses (dptr) and hands those over with
 * is_device_ptr: in discrete memory the device copy (omp_get_mapped_ptr), in
 * unified memory the host address itself (zero-copy: nothing is mapped). So
 * one binary serves both modes, chosen at run time; `requires
 * unified_shared_memory` would fix the mode at compile time, and under it
 * clang 19 returns NULL from omp_get_mapped_ptr. */
#include "gale_base.h"
#include "gale_koffload.h" /* GALE_SIMD, and what sibling launch files share */

#include <omp.h>

#include "gale_kdesc.h"
#include "gale_ktimers.h"

#include <limits.h>
#include <math.h>
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
    int dev, host;   /* OpenMP device numbers: the kernels' and the host's */
    int kind;        /* KIND_* of dev */
    int unified;     /* kernels get host addresses; nothing is mapped */
    int gpu_aware;   /* halo messages stay in device buffers */
    gale_kxfer_t x;
} g;

/* Read-only host arrays mapped to the device (kmesh, dot weights): unmapped
 * at gale_k_finalize, before their owners free them. */
#define MAXMAP 512
static struct {
    const void *p;
    size_t bytes;
} maps[MAXMAP];
static int nmaps;

typedef struct {
    gale_kmesh_t *kd; /* the kmesh with kernel addresses: on the device, or a host copy */
    void *scratch;    /* per batch: [nlev][GALE_LANES] + [sc] doubles (tridiagonal, smoother) */
    const void *own[40]; /* the arrays gale_k_init mapped for this kmesh (one per level) */
    int nown;
} off_impl_t;
static int nkmesh; /* kmeshes initialised and not finalised */
#define KD(km) (((const off_impl_t *)(km)->impl)->kd)

static int kt[GALE_K_N]; /* kernel timers (gale_ktimers.h) */

const char *gale_k_name(void) { return "offload-" GALE_OFFLOAD_TARGET; }

/* GALE_KFATAL (gale_koffload.h): a bug in gale, reported at the caller. */
void gale_kfatal_at(const char *file, int line, const char *func, const char *what,
                    const void *p)
{
    gale_error_raise(GALE_ERR_INTERNAL, file, line, func, "%s (host address %p)", what, p);
    abort();
}

/* The helpers below take their caller's location (the launch function that
 * passed the array), so that a fatal error names it: each is called through
 * a macro of its own name. */
#define GALE_KAT const char *file, int line, const char *func
#define GALE_KHERE __FILE__, __LINE__, __func__

/* The address a kernel uses for host array p (see the top of the file). */
static void *dptr_at(const void *p, GALE_KAT)
{
    if (!p || g.unified) return (void *)p;
    void *d = omp_get_mapped_ptr(p, g.dev);
    if (!d)
        gale_kfatal_at(file, line, func,
                       "an array passed to a kernel is not on the device (a field not registered?)", p);
    return d;
}
#define dptr(p) dptr_at((p), GALE_KHERE)

static void map_to_at(const void *p, size_t bytes, GALE_KAT)
{
    if (!p || !bytes || g.unified) return;
    if (nmaps == MAXMAP) gale_kfatal_at(file, line, func, "too many read-only arrays mapped", p);
    const char *c = p;
#pragma omp target enter data map(to : c[0 : bytes]) device(g.dev)
    maps[nmaps].p = p;
    maps[nmaps++].bytes = bytes;
    g.x.const_h2d += (double)bytes;
}
#define map_to(p, bytes) map_to_at((p), (bytes), GALE_KHERE)

/* ---- shared with the other launch files of this folder (gale_koffload.h) ---- */
int gale_koff_dev(void) { return g.dev; }
void *gale_koff_ptr_at(const void *host, GALE_KAT) { return dptr_at(host, file, line, func); }
void gale_koff_map_at(const void *host, size_t bytes, GALE_KAT)
{
    map_to_at(host, bytes, file, line, func);
}
void gale_koff_count_small(double h2d, double d2h)
{
    g.x.small_h2d += h2d;
    g.x.small_d2h += d2h;
}
void gale_koff_count_const(double h2d) { g.x.const_h2d += h2d; }
const gale_kmesh_t *gale_koff_kmesh_at(const gale_kmesh_t *km, GALE_KAT)
{
    if (!km->impl) gale_kfatal_at(file, line, func, "a kmesh gale_k_init has not set up", km);
    return KD(km);
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

/* A dot weight of n doubles: copied when first seen (it must not change). */
static const double *dweight_at(const double *w, size_t n, GALE_KAT)
{
    if (!w || g.unified || !n) return w;
    if (!omp_target_is_present(w, g.dev)) map_to_at(w, n * sizeof *w, file, line, func);
    else if (!omp_target_is_present(w + n - 1, g.dev))
        gale_kfatal_at(file, line, func, "a dot weight is longer than its device copy", w);
    return dptr_at(w, file, line, func);
}
#define dweight(w, n) dweight_at((w), (n), GALE_KHERE)

/* ---- device choice ---- */

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
    g.host = omp_get_initial_device();
    g.gpu_aware = o->gpu_aware;
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
        g.dev = g.host;
        g.kind = KIND_INITIAL;
    } else {
        g.dev = cand[pick][ord];
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
    snprintf(dv->desc, sizeof dv->desc, "device %d of %d: %s%s%s%s", g.dev, nd,
             kind_names[g.kind], name[0] ? " " : "", name,
             g.kind != want && g.kind != KIND_INITIAL ? " (no device of this build's kind found)"
                                                       : "");
    /* Unified memory: kernels dereference host addresses. The host plugin
     * and the initial device share the host's address space; a GPU must be
     * able to read pageable host memory. */
    g.unified = o->memory == GALE_MEM_UNIFIED || g.kind == KIND_INITIAL;
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

/* ---- life cycle ---- */

int gale_k_init(gale_kmesh_t *km)
{
    if (!g.configured) { /* a caller that did not configure: the defaults */
        gale_kopts_t o = {GALE_MEM_DISCRETE, 0, 0};
        gale_kdevice_t dv;
        char msg[512];
        if (gale_k_configure(&o, &dv, msg, sizeof msg) != GALE_OK)
            GALE_ERROR(GALE_ERR_INPUT, "%s", msg);
    }
    gale_k_timers_register(kt);
    off_impl_t *im = NULL;
    GALE_ALLOC(im, 1);
    const size_t nl = km->nlev, sc = km->sc, nc = km->ncell, ne = km->nedge,
                 na = km->ncell_alloc, D = sizeof(double), F = sizeof(float), I = sizeof(int);
    const struct {
        const void *p;
        size_t bytes;
    } a[] = {{km->cell_nbr, 4 * nc * I},  {km->cell_edge, 4 * nc * I},  {km->cell_sign, 4 * nc * D},
             {km->edge_cell, 2 * ne * I}, {km->edge_side, 2 * ne * I}, {km->area, nc * D},           {km->elen, ne * D},
             {km->erdist, ne * D},        {km->dz, nl * D},             {km->dzi, (nl + 1) * D},
             {km->mfd, 16 * nc * D},             {km->rdzi, (nl + 1) * D},
             {km->dzv, nl * D},           {km->dzf, nl * D},            {km->hl, nl * D},
             {km->qi, (nl + 1) * D},      {km->dzqi, (nl + 1) * D},
             {km->h_ad, na * D},          {km->h_av, na * D},           {km->h_hs, 4 * na * D},
             {km->h_dzh, nl * D},         {km->h_rho, nl * D},          {km->h_rq, (nl + 1) * D},
             {km->h_ad_f, na * F},        {km->h_av_f, na * F},         {km->h_hs_f, 4 * na * F},
             {km->h_dzh_f, nl * F},       {km->h_rho_f, nl * F},        {km->h_rq_f, (nl + 1) * F},
             {km->tri_m, na * nl * D},
             {km->tri_c, na * nl * D},    {km->tri_m_f, na * nl * F},   {km->tri_c_f, na * nl * F},
             {km->diag_inv, na * sc * D}, {km->diag_inv_f, na * sc * F},
             {km->child, 4 * (size_t)km->nchild * I}};
    GALE_ASSERT(sizeof a / sizeof a[0] <= sizeof im->own / sizeof im->own[0]);
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) map_to(a[i].p, a[i].bytes);
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) im->own[i] = a[i].p;
    im->nown = (int)(sizeof a / sizeof a[0]);
    nkmesh++;
    gale_kmesh_t t = *km;
    t.impl = NULL;
    t.cell_nbr = dptr(km->cell_nbr), t.cell_edge = dptr(km->cell_edge);
    t.cell_sign = dptr(km->cell_sign), t.edge_cell = dptr(km->edge_cell);
    t.edge_side = dptr(km->edge_side);
    t.area = dptr(km->area), t.elen = dptr(km->elen), t.erdist = dptr(km->erdist);
    t.dz = dptr(km->dz), t.rdzi = dptr(km->rdzi), t.dzi = dptr(km->dzi), t.mfd = dptr(km->mfd);
    t.dzv = dptr(km->dzv), t.dzf = dptr(km->dzf), t.hl = dptr(km->hl), t.qi = dptr(km->qi);
    t.dzqi = dptr(km->dzqi);
    t.h_ad = dptr(km->h_ad), t.h_av = dptr(km->h_av), t.h_hs = dptr(km->h_hs);
    t.h_dzh = dptr(km->h_dzh), t.h_rho = dptr(km->h_rho), t.h_rq = dptr(km->h_rq);
    t.h_ad_f = dptr(km->h_ad_f), t.h_av_f = dptr(km->h_av_f), t.h_hs_f = dptr(km->h_hs_f);
    t.h_dzh_f = dptr(km->h_dzh_f), t.h_rho_f = dptr(km->h_rho_f), t.h_rq_f = dptr(km->h_rq_f);
    t.tri_m = dptr(km->tri_m), t.tri_c = dptr(km->tri_c);
    t.tri_m_f = dptr(km->tri_m_f), t.tri_c_f = dptr(km->tri_c_f);
    t.diag_inv = dptr(km->diag_inv), t.diag_inv_f = dptr(km->diag_inv_f);
    t.child = dptr(km->child);
    /* per batch: the transposed columns and the smoother's residual column */
    const size_t sbytes = na / GALE_LANES * (nl * GALE_LANES + sc) * D;
    if (g.unified) {
        GALE_ALLOC(im->kd, 1);
        *im->kd = t;
        char *s = NULL;
        GALE_ALLOC(s, sbytes);
        im->scratch = s;
    } else {
        im->kd = omp_target_alloc(sizeof t, g.dev);
        im->scratch = omp_target_alloc(sbytes ? sbytes : 1, g.dev);
        if (!im->kd || !im->scratch)
            GALE_ERROR(GALE_ERR_MEM, "cannot allocate %zu bytes on device %d", sbytes, g.dev);
        if (omp_target_memcpy(im->kd, &t, sizeof t, 0, 0, g.dev, g.host))
            GALE_ERROR(GALE_ERR_INTERNAL, "copying the kmesh to device %d failed", g.dev);
        g.x.const_h2d += sizeof t;
    }
    km->impl = im;
    return GALE_OK;
}

void gale_k_finalize(gale_kmesh_t *km)
{
    off_impl_t *im = km->impl;
    if (!im) return;
    if (g.unified) {
        gale_free(im->kd);
        gale_free(im->scratch);
    } else {
        omp_target_free(im->kd, g.dev);
        omp_target_free(im->scratch, g.dev);
    }
    /* this kmesh's arrays; with the last kmesh everything still mapped */
    for (int i = 0; i < im->nown; i++) gale_koff_unmap(im->own[i]);
    if (--nkmesh == 0) {
        for (int i = 0; i < nmaps; i++) {
            const char *c = maps[i].p;
            size_t b = maps[i].bytes;
#pragma omp target exit data map(release : c[0 : b]) device(g.dev)
        }
        nmaps = 0;
    }
    gale_free(im);
    km->impl = NULL;
}

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

void gale_k_transfers(gale_kxfer_t *x) { *x = g.x; }

/* ---- the described kernels (gale_kdesc.h, gale_kdispatch.h) ----
 * One device thread per column (cells, edges), per element (FLAT) or per
 * batch of GALE_LANES columns with its own scratch from the kmesh's pool
 * (BATCH); the bodies get the kernel addresses of the fields (dptr), of the
 * kmesh (KD) and of the transport's and nonlinear core's static data. */
#define GALE_KLOOP_CELLS(devptrs, body)                                                    \
    GALE_PP_PRAGMA(omp target teams distribute parallel for device(dev_)                   \
                       is_device_ptr(KM, TR, NK GALE_PP_UNPAREN devptrs))                  \
    for (int i = i0; i < i1; i++) { body; }
#define GALE_KLOOP_EDGES(devptrs, body) GALE_KLOOP_CELLS(devptrs, body)
#define GALE_KLOOP_COLS(devptrs, body) GALE_KLOOP_CELLS(devptrs, body)
#define GALE_KLOOP_FLAT(devptrs, body)                                                     \
    GALE_PP_PRAGMA(omp target teams distribute parallel for device(dev_)                   \
                       is_device_ptr(KM GALE_PP_UNPAREN devptrs))                          \
    for (size_t i = fi0; i < fi1; i++) { body; }
#define GALE_KLOOP_BATCH(devptrs, body)                                                    \
    GALE_PP_PRAGMA(omp target teams distribute parallel for device(dev_)                   \
                       is_device_ptr(KM, TR, NK, pool_ GALE_PP_UNPAREN devptrs))           \
    for (int i = b0; i < b1; i++) {                                                        \
        int l0, l1;                                                                        \
        gale_kb_batch_lanes(i, i0, i1, &l0, &l1);                                          \
        void *const T = pool_ + (size_t)i * per_;                                          \
        body;                                                                              \
    }

void gale_k_run(int id, const gale_kargs_t *a, int i0, int i1)
{
    if (i1 <= i0) return;
    TSTART;
    gale_kargs_t d = *a;
    for (int j = 0; j < GALE_KMAXF; j++) d.f[j].p = dptr(a->f[j].p);
    const gale_kargs_t *const ka_ = &d;
    const gale_kmesh_t *const KM = a->km ? KD(a->km) : NULL;
    const gale_ktr_t *const TR = a->tr ? gale_koff_ktr(a->tr) : NULL;
    const gale_knl_t *const NK = a->nk ? gale_koff_knl(a->nk) : NULL;
    const int dev_ = g.dev;
    /* per batch: the transposed columns and the smoother's residual column */
    char *const pool_ = a->km ? ((off_impl_t *)a->km->impl)->scratch : NULL;
    const size_t per_ = a->km ? ((size_t)a->km->nlev * GALE_LANES + (size_t)a->km->sc) *
                                    (a->prec == GALE_F64 ? sizeof(double) : sizeof(float))
                              : 0;
    const size_t fi0 = (size_t)i0 * a->flat, fi1 = (size_t)i1 * a->flat;
    const int b0 = i0 / GALE_LANES, b1 = (i1 + GALE_LANES - 1) / GALE_LANES;
    (void)fi0, (void)fi1, (void)b0, (void)b1, (void)pool_, (void)per_;
#include "gale_kdispatch.h"
    TSTOP_BYTES(id, gale_k_launch_bytes(id, a, i0, i1));
}

/* ---- global-sum local parts ---- */

/* gale_rsum_* (host helpers): kernels/rsum.c */

/* The schedule, shared with the CPU layer and why it gives the same bits
 * there: gale_kbodies.h, "the dot-product schedule". Here: per pair and
 * chunk, one device thread per column and an int64 (or, plain, a double)
 * reduction of the chunk, folded on the host. */
void gale_k_dots(int prec, int c0, int c1, int stride, int k0, int k1, int npair,
                 const gale_dotpair_t *pairs, int reproducible, gale_rsum_t *acc)
{
    if (c1 <= c0) return;
    TSTART;
    for (int j = 0; j < npair; j++) {
        const void *dx = dptr(pairs[j].x), *dy = dptr(pairs[j].y);
        const double *dwc = dweight(pairs[j].wc, (size_t)c1);
        const double *dwl = dweight(pairs[j].wl, (size_t)k1);
        for (int cs = c0, ce; cs < c1; cs = ce) {
            ce = gale_kb_dot_chunk_end(cs, c1);
            gale_rsum_t part = {{0}, 0, 0.0};
            if (reproducible) {
                int64_t w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0, nb = 0;
#pragma omp target teams distribute parallel for device(g.dev) is_device_ptr(dx, dy, dwc, dwl) \
    reduction(+ : w0, w1, w2, w3, w4, w5, w6, w7, nb)
                for (int c = cs; c < ce; c++) {
                    int64_t w[GALE_RSUM_WORDS] = {0}, bad = 0;
                    gale_kb_dot_col_digits(prec, c, stride, k0, k1, dx, dy, dwc, dwl, w, &bad);
                    w0 += w[0], w1 += w[1], w2 += w[2], w3 += w[3];
                    w4 += w[4], w5 += w[5], w6 += w[6], w7 += w[7];
                    nb += bad;
                }
                part = (gale_rsum_t){{w0, w1, w2, w3, w4, w5, w6, w7}, nb, 0.0};
                g.x.small_h2d += 9 * sizeof(int64_t);
                g.x.small_d2h += 9 * sizeof(int64_t);
            } else {
                double s = 0;
#pragma omp target teams distribute parallel for device(g.dev) is_device_ptr(dx, dy, dwc, dwl) \
    reduction(+ : s)
                for (int c = cs; c < ce; c++)
                    s += gale_kb_dot_col(prec, c, stride, k0, k1, dx, dy, dwc, dwl);
                part.plain = s;
                g.x.small_h2d += sizeof s;
                g.x.small_d2h += sizeof s;
            }
            gale_kb_dot_fold(&acc[j], &part);
        }
    }
    double bytes = 0;
    for (int j = 0; j < npair; j++)
        bytes += (double)(c1 - c0) * (k1 - k0) * (prec == GALE_F64 ? 8 : 4) *
                 (pairs[j].y == pairs[j].x ? 1 : 2);
    TSTOP_BYTES(GALE_K_dots, bytes);
}

double gale_k_maxabs(int c0, int c1, int stride, int k0, int k1, const double *x, int *bad_col,
                     int *bad_lev)
{
    *bad_col = -1;
    *bad_lev = -1;
    if (c1 <= c0) return 0;
    TSTART;
    const double *dx = dptr(x);
    double m = 0;
    int bc = INT_MAX;
#pragma omp target teams distribute parallel for device(g.dev) is_device_ptr(dx) \
    reduction(max : m) reduction(min : bc)
    for (int c = c0; c < c1; c++) gale_kb_maxabs_acc(dx, c, stride, k0, k1, &m, &bc);
    g.x.small_h2d += sizeof m + sizeof bc;
    g.x.small_d2h += sizeof m + sizeof bc;
    if (bc != INT_MAX) { /* rare: find the level on the device */
        int lev = -1;
#pragma omp target device(g.dev) is_device_ptr(dx) map(tofrom : lev)
        lev = gale_kb_maxabs_bad_lev(dx + (size_t)bc * stride, k0, k1);
        g.x.small_h2d += sizeof lev;
        g.x.small_d2h += sizeof lev;
        *bad_col = bc;
        *bad_lev = lev;
        m = NAN;
    }
    TSTOP_BYTES(GALE_K_checks, (double)(c1 - c0) * (k1 - k0) * sizeof(double));
    return m;
}

/* ---- halo packing ----
 * Three ways, by memory mode and [halo] gpu_aware:
 *  unified:               pack into the host buffer MPI uses (zero-copy);
 *  discrete, gpu_aware:   pack into a device buffer that MPI itself reads;
 *  discrete, host-staged: pack into a device buffer, copy it to the host
 *                         buffer MPI uses (and the reverse on receipt). */
struct gale_khalo {
    int staged;
    const int *sidx, *ridx; /* kernel addresses of the plan's lists */
    void *sbuf, *rbuf;      /* kernel addresses of the packed messages */
    size_t sbytes, rbytes;
    int own;                /* lists and buffers are omp_target_alloc'ed here */
};

static void *dev_alloc(size_t bytes) { return omp_target_alloc(bytes ? bytes : 1, g.dev); }

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
    if (g.unified) {
        kh->sidx = sidx, kh->ridx = ridx, kh->sbuf = sbuf, kh->rbuf = rbuf;
        return GALE_OK;
    }
    int *si = dev_alloc((size_t)ns * sizeof *si), *ri = dev_alloc((size_t)nr * sizeof *ri);
    kh->sbuf = dev_alloc(kh->sbytes);
    kh->rbuf = dev_alloc(kh->rbytes);
    kh->sidx = si, kh->ridx = ri, kh->own = 1;
    if (!si || !ri || !kh->sbuf || !kh->rbuf)
        GALE_ERROR(GALE_ERR_MEM, "cannot allocate halo buffers (%zu + %zu bytes) on device %d",
                   kh->sbytes, kh->rbytes, g.dev);
    if ((ns && omp_target_memcpy(si, sidx, (size_t)ns * sizeof *si, 0, 0, g.dev, g.host)) ||
        (nr && omp_target_memcpy(ri, ridx, (size_t)nr * sizeof *ri, 0, 0, g.dev, g.host)))
        GALE_ERROR(GALE_ERR_INTERNAL, "copying halo lists to device %d failed", g.dev);
    g.x.const_h2d += (double)(ns + nr) * sizeof(int);
    kh->staged = !g.gpu_aware;
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
    const void *df = dptr(field);
    const int *di = kh->sidx;
    void *db = kh->sbuf;
    if (elem == 8) {
#pragma omp target teams distribute parallel for device(g.dev) is_device_ptr(df, di, db)
        for (int i = 0; i < n; i++) gale_kb_pack_d(i, nlev, stride, di, df, db);
    } else {
#pragma omp target teams distribute parallel for device(g.dev) is_device_ptr(df, di, db)
        for (int i = 0; i < n; i++) gale_kb_pack_f(i, nlev, stride, di, df, db);
    }
    if (kh->staged) {
        size_t b = (size_t)n * nlev * elem;
        if (omp_target_memcpy(buf, db, b, 0, 0, g.host, g.dev))
            GALE_KFATAL("halo copy to host failed", buf);
        g.x.halo_d2h += (double)b;
    }
}

void gale_k_halo_unpack(void *ctx, void *field, int stride, int elem, int nlev, const int *idx,
                        int n, const void *buf)
{
    const gale_khalo_t *kh = ctx;
    void *df = dptr(field);
    const int *di = kh->ridx;
    const void *db = kh->rbuf;
    if (kh->staged) {
        size_t b = (size_t)n * nlev * elem;
        if (omp_target_memcpy(kh->rbuf, buf, b, 0, 0, g.dev, g.host))
            GALE_KFATAL("halo copy to the device failed", buf);
        g.x.halo_h2d += (double)b;
    }
    if (elem == 8) {
#pragma omp target teams distribute parallel for device(g.dev) is_device_ptr(df, di, db)
        for (int i = 0; i < n; i++) gale_kb_unpack_d(i, nlev, stride, di, df, db);
    } else {
#pragma omp target teams distribute parallel for device(g.dev) is_device_ptr(df, di, db)
        for (int i = 0; i < n; i++) gale_kb_unpack_f(i, nlev, stride, di, df, db);
    }
}

void gale_k_halo_detach(void *ctx)
{
    gale_khalo_t *kh = ctx;
    if (!kh) return;
    if (kh->own) {
        omp_target_free((void *)kh->sidx, g.dev);
        omp_target_free((void *)kh->ridx, g.dev);
        omp_target_free(kh->sbuf, g.dev);
        omp_target_free(kh->rbuf, g.dev);
    }
    gale_free(kh);
}

/* ---- the machine's limit: the device's triad ---- */

double gale_k_triad(double bytes, int ntimes)
{
    const size_t n = (size_t)(bytes / 24.0) / 8 * 8 + 8;
    double *a = omp_target_alloc(n * sizeof *a, g.dev), *b = omp_target_alloc(n * sizeof *b, g.dev),
           *c = omp_target_alloc(n * sizeof *c, g.dev);
    double best = 0;
    if (a && b && c) {
#pragma omp target teams distribute parallel for device(g.dev) is_device_ptr(a, b, c)
        for (size_t i = 0; i < n; i++) a[i] = 1.0, b[i] = 2.0, c[i] = 0.5;
        for (int r = 0; r <= ntimes; r++) {
            const double t0 = gale_wtime();
#pragma omp target teams distribute parallel for device(g.dev) is_device_ptr(a, b, c)
            for (size_t i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
            const double t = gale_wtime() - t0, gbs = 24.0 * (double)n / t * 1e-9;
            if (r > 0 && gbs > best) best = gbs;
        }
    }
    omp_target_free(a, g.dev);
    omp_target_free(b, g.dev);
    omp_target_free(c, g.dev);
    return best;
}
