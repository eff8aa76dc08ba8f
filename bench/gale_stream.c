/* gale_stream: STREAM (McCalpin) copy, scale, add and triad on this
 * machine, built with the compiler, ISA and flags of the build it belongs
 * to, for a list of thread counts. Arrays default to 4x the last-level cache
 * each (STREAM's rule); the best of N passes counts, as in STREAM.
 * bench/stream runs it and keeps the JSON (docs/benchmarks.md). */
#include "gale_base.h"
#include "gale_triad.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GALE_BENCH_COMPILER
#define GALE_BENCH_COMPILER "?"
#define GALE_BENCH_FLAGS "?"
#define GALE_BENCH_ISA "?"
#endif

static void usage(FILE *f)
{
    fputs("usage: gale_stream [--mib M] [--ntimes N] [--threads T1,T2,...] [--json FILE]\n"
          "  --mib M      MiB per array (default: 4 x the last-level cache, at least 64)\n"
          "  --ntimes N   passes per kernel; the best counts (default 20)\n"
          "  --threads L  thread counts to measure (default 1..OMP_NUM_THREADS or all cores)\n"
          "  --json FILE  write the results as JSON\n",
          f);
}

int main(int argc, char **argv)
{
    double mib = 0;
    int ntimes = 20, nth = 0, th[64];
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--mib") && v) {
            mib = atof(v), i++;
        } else if (!strcmp(a, "--ntimes") && v) {
            ntimes = atoi(v), i++;
        } else if (!strcmp(a, "--json") && v) {
            json = v, i++;
        } else if (!strcmp(a, "--threads") && v) {
            for (char *s = argv[++i], *e; *s && nth < 64; s = *e ? e + 1 : e) th[nth++] = (int)strtol(s, &e, 10);
        } else {
            fprintf(stderr, "gale_stream: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    char tmp[4200], why[8400];
    snprintf(tmp, sizeof tmp, "%s.tmp", json ? json : "");
    if (json && gale_file_writable(json, why, sizeof why)) { /* before the run */
        fprintf(stderr, "gale_stream: --json: %s\n", why);
        return 2;
    }
    const long llc = gale_st_llc_bytes();
    if (mib <= 0) mib = fmax(64.0, 4.0 * (double)llc / 1048576.0);
    if (ntimes < 1) ntimes = 1;
    if (nth == 0)
        for (int t = 1; t <= omp_get_max_threads() && nth < 64; t++) th[nth++] = t;
    for (int t = 0; t < nth; t++)
        if (th[t] < 1) {
            fprintf(stderr, "gale_stream: bad thread count %d\n", th[t]);
            return 2;
        }
    const size_t n = (size_t)(mib * 1048576.0 / 8.0);
    double *a = aligned_alloc(64, (n * 8 + 63) / 64 * 64), *b = aligned_alloc(64, (n * 8 + 63) / 64 * 64),
           *c = aligned_alloc(64, (n * 8 + 63) / 64 * 64);
    if (!a || !b || !c) {
        fprintf(stderr, "gale_stream: cannot allocate 3 x %.0f MiB\n", mib);
        return 3;
    }
    gale_st_init(a, b, c, n);
    printf("gale_stream: %s, %s; 3 arrays x %.0f MiB (LLC %.0f MiB), best of %d\n",
           GALE_BENCH_COMPILER, GALE_BENCH_ISA, mib, (double)llc / 1048576.0, ntimes);
    printf("%8s %10s %10s %10s %10s   [GB/s, best]\n", "threads", "copy", "scale", "add", "triad");
    double best[64][GALE_ST_N], avg[64][GALE_ST_N];
    for (int t = 0; t < nth; t++) {
        omp_set_num_threads(th[t]);
        double tmin[GALE_ST_N], tsum[GALE_ST_N] = {0};
        for (int k = 0; k < GALE_ST_N; k++) tmin[k] = 1e30;
        /* STREAM's order, pass after pass; pass 0 warms up */
        for (int r = 0; r <= ntimes; r++)
            for (int k = 0; k < GALE_ST_N; k++) {
                double s = gale_st_run(k, a, b, c, n, 3.0);
                if (r == 0) continue;
                tsum[k] += s;
                if (s < tmin[k]) tmin[k] = s;
            }
        printf("%8d", th[t]);
        for (int k = 0; k < GALE_ST_N; k++) {
            double bytes = gale_st_arrays[k] * 8.0 * (double)n;
            best[t][k] = bytes / tmin[k] * 1e-9;
            avg[t][k] = bytes / (tsum[k] / ntimes) * 1e-9;
            printf(" %10.2f", best[t][k]);
        }
        printf("\n");
    }
    /* STREAM's check, loosely: after the passes every element must equal the
     * scalar recurrence applied to the initial values */
    double aj = 1.0, bj = 2.0, cj = 0.0;
    for (int t = 0; t < nth; t++)
        for (int r = 0; r <= ntimes; r++) {
            cj = aj;
            bj = 3.0 * cj;
            cj = aj + bj;
            aj = bj + 3.0 * cj;
        }
    int bad = 0;
    for (size_t i = 0; i < n; i += n / 97 + 1)
        bad |= fabs(a[i] - aj) > 1e-8 * fabs(aj) || fabs(b[i] - bj) > 1e-8 * fabs(bj) ||
               fabs(c[i] - cj) > 1e-8 * fabs(cj);
    if (bad) fprintf(stderr, "gale_stream: result check FAILED\n");
    if (json) {
        FILE *f = fopen(tmp, "w"); /* renamed when complete (docs/output.md) */
        if (!f) {
            perror(tmp);
            return 5;
        }
        fprintf(f, "{\n  \"program\": \"gale_stream\",\n  \"compiler\": \"%s\",\n  \"flags\": \"%s\",\n"
                   "  \"isa\": \"%s\",\n  \"array_mib\": %.3f,\n  \"elements\": %zu,\n"
                   "  \"llc_bytes\": %ld,\n  \"ntimes\": %d,\n  \"check\": %s,\n  \"results\": [",
                GALE_BENCH_COMPILER, GALE_BENCH_FLAGS, GALE_BENCH_ISA, mib, n, llc, ntimes,
                bad ? "false" : "true");
        for (int t = 0; t < nth; t++) {
            fprintf(f, "%s\n    {\"threads\": %d", t ? "," : "", th[t]);
            for (int k = 0; k < GALE_ST_N; k++)
                fprintf(f, ", \"%s_GBs\": %.4f, \"%s_avg_GBs\": %.4f", gale_st_names[k],
                        best[t][k], gale_st_names[k], avg[t][k]);
            fprintf(f, "}");
        }
        fprintf(f, "\n  ]\n}\n");
        if (gale_file_finish(f, tmp, json, why, sizeof why) != 0) {
            fprintf(stderr, "gale_stream: %s\n", why);
            return 5;
        }
    }
    free(a);
    free(b);
    free(c);
    return bad ? 1 : 0;
}
