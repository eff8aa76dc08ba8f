/* The device's STREAM triad for gale_kbench in offload builds: the same
 * a = b + s c as gale_triad.h, as an OpenMP target region on the device the
 * launch layer uses (the default device), arrays allocated there. Compiled
 * with the preset's offload flags (bench/CMakeLists.txt). */
#include <omp.h>
#include <stddef.h>

double gale_bench_device_triad(size_t n, int ntimes, int *device, int *ndevices);

double gale_bench_device_triad(size_t n, int ntimes, int *device, int *ndevices)
{
    const int dev = omp_get_default_device();
    *device = dev;
    *ndevices = omp_get_num_devices();
    double *a = omp_target_alloc(n * sizeof(double), dev);
    double *b = omp_target_alloc(n * sizeof(double), dev);
    double *c = omp_target_alloc(n * sizeof(double), dev);
    if (!a || !b || !c) return 0;
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(a, b, c)
    for (size_t i = 0; i < n; i++) {
        a[i] = 1.0;
        b[i] = 2.0;
        c[i] = 0.5;
    }
    double best = 1e30;
    for (int r = 0; r <= ntimes; r++) { /* pass 0 warms up */
        double t = omp_get_wtime();
#pragma omp target teams distribute parallel for device(dev) is_device_ptr(a, b, c)
        for (size_t i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
        t = omp_get_wtime() - t;
        if (r > 0 && t < best) best = t;
    }
    omp_target_free(a, dev);
    omp_target_free(b, dev);
    omp_target_free(c, dev);
    return 3.0 * sizeof(double) * (double)n / best * 1e-9;
}
