/* STREAM kernels on the host, shared by gale_stream and gale_kbench so that
 * both measure the machine's bandwidth with the same loop. Conventions as
 * McCalpin's STREAM: bytes counted are the arrays named in the kernel (copy
 * and scale 2 x 8 B per element, add and triad 3 x 8 B), write-allocate
 * traffic not counted; OpenMP static schedule; the compiler vectorises the
 * loop as it would STREAM's (no omp simd: the novec build keeps it scalar). */
#ifndef GALE_TRIAD_H
#define GALE_TRIAD_H

#include <omp.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

enum { GALE_ST_COPY, GALE_ST_SCALE, GALE_ST_ADD, GALE_ST_TRIAD, GALE_ST_N };
static const char *const gale_st_names[GALE_ST_N] = {"copy", "scale", "add", "triad"};
static const int gale_st_arrays[GALE_ST_N] = {2, 2, 3, 3};

/* Bytes of the last-level cache: sysfs first (under KVM, glibc's
 * sysconf(_SC_LEVEL3_CACHE_SIZE) can report the host's, 10x too much). */
static inline long gale_st_llc_bytes(void)
{
    long kib = 0;
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r");
    if (f) {
        if (fscanf(f, "%ldK", &kib) != 1) kib = 0;
        fclose(f);
    }
    if (kib > 0) return kib * 1024;
#ifdef _SC_LEVEL3_CACHE_SIZE
    long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) return l3;
#endif
    return 32L << 20;
}

/* First touch with the static schedule the kernels use. */
static inline void gale_st_init(double *a, double *b, double *c, size_t n)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.0;
    }
}

/* One pass of kernel k; returns its wall time. */
static inline double gale_st_run(int k, double *restrict a, double *restrict b,
                                 double *restrict c, size_t n, double s)
{
    double t = omp_get_wtime();
    switch (k) {
    case GALE_ST_COPY:
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) c[i] = a[i];
        break;
    case GALE_ST_SCALE:
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) b[i] = s * c[i];
        break;
    case GALE_ST_ADD:
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
        break;
    default:
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        break;
    }
    return omp_get_wtime() - t;
}

/* Best triad bandwidth [GB/s, 1e9 B] over ntimes passes (the first pass,
 * which may fault pages in, is not counted). */
static inline double gale_st_triad_best(double *a, double *b, double *c, size_t n, int ntimes)
{
    double best = 1e30;
    for (int r = 0; r <= ntimes; r++) {
        double t = gale_st_run(GALE_ST_TRIAD, a, b, c, n, 3.0);
        if (r > 0 && t < best) best = t;
    }
    return 3.0 * 8.0 * (double)n / best * 1e-9;
}

#endif
