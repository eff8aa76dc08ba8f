/* gale_kbench: the kernels, the solver and the timers of gale, timed in
 * isolation on a real model set-up (gale_model_setup: mesh, partition,
 * Helmholtz coefficients, fields), through the launch-layer interface
 * (kernels/gale_kernels.h). Linked with the preset's launch layer, so in an
 * offload build every kernel runs on the device.
 *
 *   gale_kbench [kernels] [--mesh C8] [--levels 16] [--only a,b] [--min-time S]
 *               [--samples N] [--no-triad] [--json FILE] [--section.key=value ...]
 *   gale_kbench solve [--warm-steps W] [--solves N] [--min-time S] [--json FILE] [...]
 *   gale_kbench timer-cost [--json FILE]
 *
 * kernels: 1 rank. Each kernel is called `reps` times per sample (enough for
 * min-time/samples seconds), `samples` times; the best sample gives the time
 * per call. Effective bandwidth = bytes the kernel must move (its byte model
 * below, documented in docs/benchmarks.md) / time; the fraction is of the
 * triad measured in this same process with the same threads just before the
 * kernel (host), or once on the device with an OpenMP target triad (offload
 * builds).
 * solve: any rank count. After W model steps it builds the next step's
 * Helmholtz problem (as gale_model_step does) and solves it N times from the
 * same first guess, reading the timers around each solve: where the solver's
 * time goes (dots = the local reproducible or plain sums, global_sums = the
 * reductions, ...).
 * timer-cost: the cost of one timed region (two gale_wtime calls and one
 * gale_timer_add), to turn the timer counts of a run into an overhead. */
#include "gale_app.h"
#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_config.h"
#include "gale_config_mpi.h"
#include "gale_ksources.h"
#include "gale_model.h"
#include "gale_report.h"
#include "gale_triad.h"

#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef GALE_BENCH_DEVICE
/* gale_kbench_device.c, compiled for the offload targets */
double gale_bench_device_triad(size_t n, int ntimes, int *device, int *ndevices);
#endif

#define MAXOV 64

/* ---- the kernels mode: every described kernel (kernels/gale_kdesc.h),
 * recorded as a real model step launches it and replayed alone ----
 *
 * Each source below is a model set-up (the user's mesh, levels and options
 * on top) that launches some kernels in its set-up and one step: with the
 * PSy layer's recorder on (gale_psy_record) they keep the first launch of each
 * kernel in each precision, whole column range and fields and all, and the
 * kernels not yet measured are replayed through gale_k_run while that
 * model's fields live. Together the sources launch every row of the table;
 * a kernel none of them launches is reported as missing (and fails the
 * test kernels_every_kernel). Bytes and flops per call come from the rows:
 * gale_k_launch_bytes (the fields once each, from their locations, plus the
 * row's bytes) and gale_k_launch_flops, for the launch as recorded. */
static const gale_ksource_t sources[] = {GALE_KSOURCES};
#define NSRC ((int)(sizeof sources / sizeof sources[0]))

typedef struct {
    double best, median, bytes, flops, triad;
    long reps;
    int ns, done;
    const char *source;
} kres_t;
/* ---- options ---- */
typedef struct {
    const char *mode, *json, *only;
    double min_time;
    int samples, triad, warm_steps, solves, random_start;
    int nov;
    char *ov[MAXOV];
} opts_t;

static void usage(FILE *f)
{
    fputs("usage: gale_kbench [kernels|solve|vcycle|timer-cost] [options] [--section.key=value ...]\n"
          "  kernels      time each launch-layer kernel (1 rank); effective GB/s, fraction of triad\n"
          "  solve        time Helmholtz solves of a model state (any rank count)\n"
          "  vcycle       multigrid as a stand-alone solver: residual reduction per V-cycle,\n"
          "               time and halo wait per level (needs --solver.preconditioner=multigrid)\n"
          "  timer-cost   cost of one timed region (2 gale_wtime + gale_timer_add)\n"
          "options:\n"
          "  --mesh CN --levels L   shorthand for --mesh.name=CN --extrusion.levels=L\n"
          "  --only a,b,...         kernels: only these (names as listed by --list)\n"
          "  --list                 list the kernels: space, precisions, category, body call\n"
          "  --min-time S           seconds of timing per kernel or solve set (default 0.5)\n"
          "  --samples N            samples per kernel; the best counts (default 7)\n"
          "  --no-triad             kernels: skip the triad (no fraction of triad)\n"
          "  --warm-steps W         solve: model steps before the timed solves (default 3)\n"
          "  --solves N             solve: at least N timed solves (default 3); vcycle: N cycles\n"
          "  --start zero|random    vcycle: from x = 0 on the step's problem (default), or from a\n"
          "                         random x with b = 0 (the slowest modes)\n"
          "  --json FILE            write the results as JSON\n"
          "Other --section.key=value options go to the model configuration (gale help config).\n",
          f);
}

static int parse(int argc, char **argv, opts_t *o, char *buf, size_t nbuf)
{
    memset(o, 0, sizeof *o);
    o->mode = "kernels";
    o->min_time = 0.5;
    o->samples = 7;
    o->triad = 1;
    o->warm_steps = 3;
    o->solves = 3;
    o->ov[o->nov++] = "--logging.level=warn";
    size_t used = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) return 1;
        if (!strcmp(a, "--list")) return 3;
        if (i == 1 && a[0] != '-') {
            if (strcmp(a, "kernels") && strcmp(a, "solve") && strcmp(a, "vcycle") &&
                strcmp(a, "timer-cost")) {
                fprintf(stderr, "gale_kbench: unknown mode '%s' (kernels, solve, vcycle, timer-cost)\n", a);
                return 2;
            }
            o->mode = a;
        } else if ((!strcmp(a, "--mesh") || !strcmp(a, "--levels")) && v) {
            if (o->nov >= MAXOV || used + strlen(v) + 24 > nbuf) return 2;
            o->ov[o->nov++] = buf + used;
            used += (size_t)snprintf(buf + used, nbuf - used, "%s=%s",
                                     a[2] == 'm' ? "--mesh.name" : "--extrusion.levels", v) + 1;
            i++;
        } else if (!strcmp(a, "--only") && v) o->only = v, i++;
        else if (!strcmp(a, "--min-time") && v) o->min_time = atof(v), i++;
        else if (!strcmp(a, "--samples") && v) o->samples = atoi(v), i++;
        else if (!strcmp(a, "--warm-steps") && v) o->warm_steps = atoi(v), i++;
        else if (!strcmp(a, "--solves") && v) o->solves = atoi(v), i++;
        else if (!strcmp(a, "--json") && v) o->json = v, i++;
        else if (!strcmp(a, "--no-triad")) o->triad = 0;
        else if (!strcmp(a, "--start") && v && (!strcmp(v, "zero") || !strcmp(v, "random")))
            o->random_start = v[0] == 'r', i++;
        else if (!strncmp(a, "--", 2) && strchr(a, '.') && strchr(a, '=') && o->nov < MAXOV)
            o->ov[o->nov++] = argv[i];
        else {
            fprintf(stderr, "gale_kbench: unknown or incomplete option '%s'\n", a);
            return 2;
        }
    }
    if (o->samples < 1) o->samples = 1;
    if (o->min_time <= 0) o->min_time = 0.01;
    char why[8400];
    if (o->json && gale_file_writable(o->json, why, sizeof why)) { /* before the run */
        fprintf(stderr, "gale_kbench: --json: %s\n", why);
        return 2;
    }
    return 0;
}

/* ---- helpers ---- */

static void json_build(gale_json_t *j)
{
    gale_json_obj(j, "build");
    gale_json_str(j, "compiler", GALE_BENCH_COMPILER);
    gale_json_str(j, "flags", GALE_BENCH_FLAGS);
    gale_json_str(j, "isa", GALE_BENCH_ISA);
    gale_json_str(j, "offload", gale_build_offload());
    gale_json_str(j, "kernels", gale_k_name());
    gale_json_end(j, '}');
}

/* Written as PATH.tmp, renamed by json_finish (docs/output.md, "Files and final names"). */
static FILE *json_open(const char *path, gale_json_t *j, const char *mode)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        perror(tmp);
        return NULL;
    }
    gale_json_open(j, f);
    gale_json_str(j, "program", "gale_kbench");
    gale_json_str(j, "mode", mode);
    json_build(j);
    return f;
}

static int json_finish(FILE *f, const char *path)
{
    char tmp[4200], why[8400];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (gale_file_finish(f, tmp, path, why, sizeof why) != 0) GALE_ERROR(GALE_ERR_IO, "%s", why);
    return GALE_OK;
}

/* Smooth, non-zero values on the real levels (padding stays zero), then
 * the device copy. */
/* the case a solve or vcycle result is of */
static void json_case(gale_json_t *j, const gale_config_t *cfg, const gale_model_t *m)
{
    char mesh[32];
    snprintf(mesh, sizeof mesh, "C%d", cfg->mesh.n);
    gale_json_str(j, "mesh_name", mesh);
    gale_json_int(j, "levels", m->km.nlev);
    gale_json_int(j, "ranks", m->nranks);
    gale_json_int(j, "threads", m->nthreads);
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int selected(const char *only, const char *name)
{
    if (!only) return 1;
    size_t n = strlen(name);
    for (const char *s = only; *s;) {
        const char *e = strchr(s, ',');
        size_t l = e ? (size_t)(e - s) : strlen(s);
        if (l == n && !strncmp(s, name, n)) return 1;
        if (!e) break;
        s = e + 1;
    }
    return 0;
}

/* ---- kernels mode ---- */

/* The best of `samples` timings of fn(arg), each of `reps` calls (reps from
 * min-time); returns the time per call. */
typedef void (*kfn_t)(void *);
static double time_calls(kfn_t fn, void *arg, const opts_t *o, double *median, long *repsp, int *nsp)
{
    fn(arg); /* warm up: caches, pages, device code */
    double t0 = gale_wtime();
    fn(arg);
    const double t1 = gale_wtime() - t0;
    long reps = (long)(o->min_time / o->samples / fmax(t1, 1e-7));
    if (reps < 1) reps = 1;
    double s[256];
    const int ns = o->samples < 256 ? o->samples : 256;
    for (int i = 0; i < ns; i++) {
        t0 = gale_wtime();
        for (long r = 0; r < reps; r++) fn(arg);
        s[i] = (gale_wtime() - t0) / (double)reps;
    }
    qsort(s, (size_t)ns, sizeof s[0], cmpd);
    *median = s[ns / 2];
    *repsp = reps;
    *nsp = ns;
    return s[0];
}

typedef struct {
    int id;
    const gale_psy_rec_t *r;
} replay_t;
static void replay(void *p)
{
    const replay_t *q = p;
    gale_k_run(q->id, &q->r->a, q->r->i0, q->r->i1);
}

typedef struct {
    int g;
    const gale_psy_grec_t *r;
} greplay_t;
static void greplay(void *p)
{
    const greplay_t *q = p;
    gale_k_run_group(q->g, q->r->n, q->r->ids, q->r->a, 0, q->r->i1);
}

/* A kernel's or a group's measurement, the same keys for both. */
static void timing_json(gale_json_t *j, const kres_t *r)
{
    gale_json_str(j, "source", r->source);
    gale_json_num(j, "bytes_per_call", r->bytes);
    gale_json_num(j, "flops_per_call", r->flops);
    gale_json_num(j, "time_best_s", r->best);
    gale_json_num(j, "time_median_s", r->median);
    gale_json_int(j, "calls_per_sample", r->reps);
    gale_json_int(j, "samples", r->ns);
    gale_json_num(j, "GBs", r->bytes / r->best * 1e-9);
    gale_json_num(j, "GBs_median", r->bytes / r->median * 1e-9);
    gale_json_num(j, "GFs", r->flops / r->best * 1e-9);
    gale_json_num(j, "triad_GBs", r->triad);
    gale_json_num(j, "fraction_of_triad", r->triad > 0 ? r->bytes / r->best * 1e-9 / r->triad : 0);
}

static const char *space_name(int s)
{
    static const char *const n[] = {"cells", "edges", "flat", "cols", "batch", "sum", "maxabs", "minmax"};
    return n[s];
}

static void print_row(const char *name, const char *prec, const kres_t *r)
{
    const double gbs = r->bytes / r->best * 1e-9;
    printf("%-14s %-6s %-18s %10.3f %10.2f %9.2f %8.3f %9.2f\n", name, prec, r->source,
           r->bytes * 1e-6, r->best * 1e6, gbs, r->triad > 0 ? gbs / r->triad : 0,
           r->flops / r->best * 1e-9);
}

static int run_kernels(const opts_t *o, const gale_config_t *cfg0)
{
    int nranks;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks != 1) GALE_ERROR(GALE_ERR_INPUT, "kernels mode runs on 1 rank (got %d)", nranks);
    const int nth = omp_get_max_threads();
    /* the machine's bandwidth, measured here: host triad with these threads
     * (arrays 4x the LLC) once now and again just before each kernel (the
     * memory of a virtual machine is shared with its neighbours, so the
     * bandwidth drifts); the device's in an offload build */
    double triad_host = 0, triad_dev = 0, triad_mib = 0, *ta = NULL, *tb = NULL, *tc = NULL;
    size_t tn = 0;
    int dev = -1, ndev = 0;
    if (o->triad) {
        triad_mib = fmax(64.0, 4.0 * (double)gale_st_llc_bytes() / 1048576.0);
        tn = (size_t)(triad_mib * 1048576.0 / 8.0);
        ta = aligned_alloc(64, tn * 8), tb = aligned_alloc(64, tn * 8), tc = aligned_alloc(64, tn * 8);
        if (!ta || !tb || !tc) GALE_ERROR(GALE_ERR_MEM, "triad arrays: out of memory");
        gale_st_init(ta, tb, tc, tn);
        triad_host = gale_st_triad_best(ta, tb, tc, tn, 10);
        printf("host triad (%d threads, 3 x %.0f MiB): %.2f GB/s\n", nth, triad_mib, triad_host);
#ifdef GALE_BENCH_DEVICE
        triad_dev = gale_bench_device_triad((size_t)1 << 27, 20, &dev, &ndev);
        printf("device triad (device %d of %d, 3 x 1024 MiB): %.2f GB/s\n", dev, ndev, triad_dev);
#endif
    }
    double triad_max = triad_dev > 0 ? triad_dev : triad_host;
    static kres_t res[2 * GALE_K_N], gres[GALE_KG_N];
    static gale_psy_rec_t rec[2 * GALE_K_N];
    static gale_psy_grec_t grec[GALE_KG_N];
    memset(res, 0, sizeof res);
    memset(gres, 0, sizeof gres);
    int nc = 0, nl = 0, ne = 0;
    double setup_s = 0;
    printf("%-14s %-6s %-18s %10s %10s %9s %8s %9s\n", "kernel", "prec", "source", "MB/call",
           "us/call", "GB/s", "/triad", "GF/s");
    for (int si = 0; si < NSRC; si++) {
        const gale_ksource_t *src = &sources[si];
        /* the source's configuration, then the user's options on top */
        char path[1024];
        const char *ov[MAXOV + 10];
        int nov = 0;
        for (int i = 0; i < 4 && src->ov[i]; i++) ov[nov++] = src->ov[i];
        ov[nov++] = "--timestepping.steps=1";
        ov[nov++] = "--diagnostics.fields=";
        ov[nov++] = "--checkpoint.period=0";
        /* the step is run to record its launches: a solve that stops short
         * of its tolerance (cg/diagonal on C192 L96) records them all the same */
        ov[nov++] = "--solver.fail_on_non_converged=false";
        ov[nov++] = "--mixed_solver.fail_on_non_converged=false";
        for (int i = 0; i < o->nov && nov < MAXOV + 10; i++) ov[nov++] = o->ov[i];
        if (src->config) snprintf(path, sizeof path, "%s/%s", GALE_BENCH_CONFIGS, src->config);
        gale_config_t cfg;
        GALE_CALL(gale_config_load(&cfg, src->config ? path : NULL, nov, (char **)ov,
                                   MPI_COMM_WORLD));
        gale_model_t *m = calloc(1, sizeof *m);
        if (!m) GALE_ERROR(GALE_ERR_MEM, "out of memory");
        const double ts = gale_wtime();
        /* the set-up's launches count too (the nonlinear core's reference
         * state is set there and at a reset, which one step may not reach) */
        memset(rec, 0, sizeof rec);
        memset(grec, 0, sizeof grec);
        gale_psy_record(rec);
        gale_psy_record_groups(grec);
        int st = gale_model_setup(m, &cfg, MPI_COMM_WORLD);
        if (st != GALE_OK) gale_psy_record(NULL), gale_psy_record_groups(NULL);
        GALE_CALL(st);
        setup_s += gale_wtime() - ts;
        if (si == 0) nc = m->lm.ncell[0], ne = m->lm.nedge[0], nl = m->km.nlev;
        st = gale_model_step(m);
        gale_psy_record(NULL);
        gale_psy_record_groups(NULL);
        GALE_CALL(st);
        /* the fused groups (docs/fusion.md), each field once in its bytes */
        for (int g = 0; g < GALE_KG_N; g++) {
            kres_t *r = &gres[g];
            if (!grec[g].have || r->done || !selected(o->only, gale_kgroup[g].name)) continue;
            r->triad = triad_dev;
            if (ta && triad_dev <= 0) {
                r->triad = gale_st_triad_best(ta, tb, tc, tn, 5);
                triad_max = fmax(triad_max, r->triad);
            }
            greplay_t q = {g, &grec[g]};
            r->best = time_calls(greplay, &q, o, &r->median, &r->reps, &r->ns);
            r->bytes = gale_k_group_bytes(grec[g].n, grec[g].ids, grec[g].a, 0, grec[g].i1);
            r->flops = 0;
            for (int k = 0; k < grec[g].n; k++)
                r->flops += gale_k_launch_flops(grec[g].ids[k], &grec[g].a[k], 0, grec[g].i1);
            r->source = src->name;
            r->done = 1;
            print_row(gale_kgroup[g].name, "group", r);
        }
        for (int id = 0; id < GALE_K_N; id++)
            for (int pr = 0; pr < 2; pr++) {
                const int x = 2 * id + pr;
                if (!rec[x].have || res[x].done || !selected(o->only, gale_kdesc[id].name)) continue;
                kres_t *r = &res[x];
                r->triad = triad_dev;
                if (ta && triad_dev <= 0) {
                    r->triad = gale_st_triad_best(ta, tb, tc, tn, 5);
                    triad_max = fmax(triad_max, r->triad);
                }
                replay_t q = {id, &rec[x]};
                r->best = time_calls(replay, &q, o, &r->median, &r->reps, &r->ns);
                r->bytes = gale_k_launch_bytes(id, &rec[x].a, rec[x].i0, rec[x].i1);
                r->flops = gale_k_launch_flops(id, &rec[x].a, rec[x].i0, rec[x].i1);
                r->source = src->name;
                r->done = 1;
                print_row(gale_kdesc[id].name, pr ? "single" : "double", r);
            }
        gale_model_free(m);
        free(m);
    }
    int missing = 0;
    for (int g = 0; g < GALE_KG_N; g++)
        if (!gres[g].done && selected(o->only, gale_kgroup[g].name)) {
            printf("missing: %s (group): no source ran it\n", gale_kgroup[g].name);
            missing++;
        }
    for (int id = 0; id < GALE_K_N; id++)
        for (int pr = 0; pr < 1 + gale_kdesc[id].two_prec; pr++)
            if (!res[2 * id + pr].done && selected(o->only, gale_kdesc[id].name)) {
                printf("missing: %s (%s): no source launched it\n", gale_kdesc[id].name,
                       pr ? "single" : "double");
                missing++;
            }
    if (o->json) {
        gale_json_t j;
        FILE *jf = json_open(o->json, &j, "kernels");
        if (!jf) return GALE_ERR_IO;
        char mesh[32];
        snprintf(mesh, sizeof mesh, "C%d", cfg0->mesh.n);
        gale_json_str(&j, "mesh_name", mesh);
        gale_json_int(&j, "levels", nl);
        gale_json_int(&j, "cells", nc);
        gale_json_int(&j, "edges", ne);
        gale_json_int(&j, "threads", nth);
        gale_json_num(&j, "setup_s", setup_s);
        gale_json_int(&j, "missing", missing);
        gale_json_arr(&j, "kernels");
        for (int id = 0; id < GALE_K_N; id++)
            for (int pr = 0; pr < 2; pr++) {
                const kres_t *r = &res[2 * id + pr];
                if (!r->done) continue;
                const gale_kdesc_t *k = &gale_kdesc[id];
                gale_json_obj(&j, NULL);
                gale_json_str(&j, "name", k->name);
                /* the benchmarks' name: a kernel with bodies in both precisions
                 * is <name>_d and <name>_f, as gale_kbench's rows are */
                char kn[80];
                snprintf(kn, sizeof kn, "%s%s", k->name, !k->two_prec ? "" : pr ? "_f" : "_d");
                gale_json_str(&j, "kernel", kn);
                gale_json_str(&j, "space", space_name(k->space));
                gale_json_str(&j, "category", k->category);
                gale_json_str(&j, "precision", pr ? "single" : "double");
                timing_json(&j, r);
                gale_json_str(&j, "body", k->call);
                gale_json_end(&j, '}');
            }
        gale_json_end(&j, ']');
        gale_json_arr(&j, "groups"); /* the fused groups (docs/fusion.md) */
        for (int g = 0; g < GALE_KG_N; g++) {
            const kres_t *r = &gres[g];
            if (!r->done) continue;
            gale_json_obj(&j, NULL);
            gale_json_str(&j, "name", gale_kgroup[g].name);
            gale_json_str(&j, "category", gale_kgroup[g].category);
            gale_json_arr(&j, "kernels");
            for (int k = 0; k < gale_kgroup[g].n; k++) gale_json_str(&j, NULL, gale_kdesc[gale_kgroup[g].k[k]].name);
            gale_json_end(&j, ']');
            timing_json(&j, r);
            gale_json_end(&j, '}');
        }
        gale_json_end(&j, ']');
        /* host_GBs: the best of every triad measured in this run */
        gale_json_obj(&j, "triad");
        gale_json_num(&j, "host_GBs", triad_dev > 0 ? triad_host : triad_max);
        gale_json_num(&j, "host_first_GBs", triad_host);
        gale_json_int(&j, "host_threads", nth);
        gale_json_num(&j, "host_array_MiB", triad_mib);
        gale_json_num(&j, "device_GBs", triad_dev);
        gale_json_int(&j, "device", dev);
        gale_json_int(&j, "devices", ndev);
        gale_json_num(&j, "reference_GBs", triad_max);
        gale_json_end(&j, '}');
        gale_json_close(&j);
        GALE_CALL(json_finish(jf, o->json));
    }
    free(ta);
    free(tb);
    free(tc);
    return missing ? GALE_ERR_INTERNAL : GALE_OK;
}

/* ---- solve mode ---- */

static int run_solve(const opts_t *o, const gale_config_t *cfg)
{
    gale_model_t *m = calloc(1, sizeof *m);
    if (!m) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    GALE_CALL(gale_model_setup(m, cfg, MPI_COMM_WORLD));
    const gale_solver_stats_t *st = gale_solver_stats(m->solver);
    for (int s = 0; s < o->warm_steps; s++) GALE_CALL(gale_model_step(m));
    const double warm_it = st->solves ? (double)st->iterations / st->solves : 0;
    GALE_CALL(gale_model_rhs(m)); /* the next step's Helmholtz problem */
    const int nt = gale_timer_ntimers();
    double *acc = calloc((size_t)nt, sizeof *acc), *t0s = calloc((size_t)nt, sizeof *t0s);
    double times[1024];
    long it0 = st->iterations, gs0 = st->global_sums;
    int ns = 0, converged = 1;
    double total = 0;
    while (ns < 1024 && (ns < o->solves || total < o->min_time)) {
        GALE_CALL(gale_psy_copy(m->psy, &m->pn, &m->p)); /* the step's first guess */
        GALE_MPI(MPI_Barrier(MPI_COMM_WORLD));
        for (int i = 0; i < nt; i++) t0s[i] = gale_timer_seconds(i);
        double t0 = gale_wtime();
        GALE_CALL(gale_solver_solve(m->solver, &m->rhs, &m->pn));
        double t = gale_wtime() - t0;
        for (int i = 0; i < nt; i++) acc[i] += gale_timer_seconds(i) - t0s[i];
        GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
        converged &= st->converged;
        times[ns++] = t;
        total += t;
    }
    const double its = (double)(st->iterations - it0) / ns, gsums = (double)(st->global_sums - gs0) / ns;
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, acc, nt, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
    const double mean = total / ns;
    qsort(times, (size_t)ns, sizeof times[0], cmpd);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        const char *pcn = gale_solver_pc_name(cfg->solver.preconditioner);
        printf("gale_kbench solve: C%d L%d, %d ranks x %d threads, %s + %s, %s sums: %d solves, "
               "%.1f iterations (%.1f in the %d warm steps), %.2f global sums each, best %.4f s, "
               "mean %.4f s per solve\n",
               cfg->mesh.n, m->km.nlev, m->nranks, m->nthreads,
               gale_solver_method_name(cfg->solver.method), pcn,
               cfg->solver.reproducible_sums ? "reproducible" : "plain", ns, its, warm_it,
               o->warm_steps, gsums, times[0], mean);
        printf("  share of solve time (mean over ranks):");
        for (int i = 0; i < nt; i++)
            if (acc[i] > 0 && (gale_timer_parent(i) >= 0 || i != GALE_T_COMPUTE))
                printf(" %s %.1f%%", gale_timer_name(i), 100.0 * acc[i] / m->nranks / total);
        printf("\n");
    }
    if (rank == 0 && o->json) {
        gale_json_t j;
        FILE *f = json_open(o->json, &j, "solve");
        if (!f) return GALE_ERR_IO;
        json_case(&j, cfg, m);
        gale_json_str(&j, "method", gale_solver_method_name(cfg->solver.method));
        gale_json_str(&j, "preconditioner", gale_solver_pc_name(cfg->solver.preconditioner));
        gale_json_bool(&j, "reproducible_sums", cfg->solver.reproducible_sums);
        gale_json_int(&j, "warm_steps", o->warm_steps);
        gale_json_num(&j, "iterations_mean_warm", warm_it);
        gale_json_int(&j, "solves", ns);
        gale_json_num(&j, "iterations", its);
        gale_json_num(&j, "global_sums_per_solve", gsums);
        gale_json_bool(&j, "converged", converged);
        gale_json_num(&j, "final_residual", st->last_bnorm > 0 ? st->last_rnorm / st->last_bnorm : 0);
        gale_json_num(&j, "time_per_solve_s", times[0]);
        gale_json_num(&j, "time_per_solve_mean_s", mean);
        gale_json_num(&j, "time_per_iteration_s", its > 0 ? times[0] / its : 0);
        gale_json_obj(&j, "timers_per_solve_s"); /* mean over ranks and solves */
        for (int i = 0; i < nt; i++) {
            if (acc[i] <= 0) continue;
            gale_json_num(&j, gale_timer_name(i), acc[i] / m->nranks / ns);
        }
        gale_json_end(&j, '}');
        gale_json_obj(&j, "share_of_solve");
        for (int i = 0; i < nt; i++)
            if (acc[i] > 0) gale_json_num(&j, gale_timer_name(i), acc[i] / m->nranks / total);
        gale_json_end(&j, '}');
        gale_json_config(&j, "config", cfg);
        gale_json_close(&j);
        GALE_CALL(json_finish(f, o->json));
    }
    free(acc);
    free(t0s);
    gale_model_free(m);
    free(m);
    return GALE_OK;
}

/* ---- vcycle mode: x += M^-1 (b - A x) from x = 0, the next step's problem ---- */

static int run_vcycle(const opts_t *o, const gale_config_t *cfg)
{
    gale_model_t *m = calloc(1, sizeof *m);
    if (!m) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    GALE_CALL(gale_model_setup(m, cfg, MPI_COMM_WORLD));
    const gale_mg_t *mg = gale_solver_mg(m->solver);
    if (!mg) GALE_ERROR(GALE_ERR_INPUT, "vcycle mode needs --solver.preconditioner=multigrid");
    for (int s = 0; s < o->warm_steps; s++) GALE_CALL(gale_model_step(m));
    GALE_CALL(gale_model_rhs(m));
    gale_field_t r, z;
    GALE_CALL(gale_psy_field_create(m->psy, &r, "vc_r", GALE_LOC_CELL, m->km.nlev, 8));
    GALE_CALL(gale_psy_field_create(m->psy, &z, "vc_z", GALE_LOC_CELL, m->km.nlev, 8));
    if (o->random_start) { /* A x = 0 from a random x: the slowest modes */
        double *x = gale_fd(&m->pn);
        uint64_t z = 12345;
        for (int c = 0; c < gale_psy_owned(m->psy, GALE_LOC_CELL); c++)
            for (int k = 0; k < m->km.nlev; k++) {
                z = z * 6364136223846793005ULL + 1442695040888963407ULL;
                x[(size_t)c * m->km.sc + k] = (double)(z >> 11) / 9007199254740992.0 - 0.5;
            }
        GALE_CALL(gale_psy_host_wrote(m->psy, &m->pn, 0));
        GALE_CALL(gale_psy_axpby(m->psy, &m->rhs, 0.0, &m->rhs, 0.0, &m->rhs));
    } else GALE_CALL(gale_psy_axpby(m->psy, &m->pn, 0.0, &m->rhs, 0.0, &m->rhs)); /* x = 0 */
    const int n = o->solves > 0 && o->solves <= 100 ? o->solves : 10;
    double res[101], tcyc = 0;
    const int nl = gale_mg_levels(mg);
    gale_mg_level_stats_t s0[GALE_CHAIN_MAX];
    for (int c = 0; c <= n; c++) {
        GALE_CALL(gale_psy_residual(m->psy, &m->pn, &m->rhs, &r));
        gale_psy_sum_t sum;
        gale_psy_sum_init(&sum);
        gale_psy_sum_dot(&sum, &r, &r, NULL, NULL);
        GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, &res[c]));
        res[c] = sqrt(res[c]);
        if (c == n) break;
        if (c == 1)
            for (int l = 0; l < nl; l++) gale_mg_level_stats(mg, l, &s0[l]);
        GALE_MPI(MPI_Barrier(MPI_COMM_WORLD));
        double t0 = gale_wtime();
        GALE_CALL(gale_mg_vcycle((gale_mg_t *)mg, &r, &z));
        double t = gale_wtime() - t0;
        GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
        if (c > 0) tcyc += t; /* the first cycle makes the halo plans */
        GALE_CALL(gale_psy_axpby(m->psy, &m->pn, 1.0, &m->pn, 1.0, &z));
    }
    /* the asymptotic factor: the geometric mean over the cycles after the first */
    const double first = res[1] / res[0], factor = n > 1 ? pow(res[n] / res[1], 1.0 / (n - 1)) : first;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double lv[GALE_CHAIN_MAX][3];
    for (int l = 0; l < nl; l++) {
        gale_mg_level_stats_t st;
        gale_mg_level_stats(mg, l, &st);
        lv[l][0] = (st.seconds - s0[l].seconds) / (n > 1 ? n - 1 : 1);
        lv[l][1] = (st.halo_wait - s0[l].halo_wait) / (n > 1 ? n - 1 : 1);
        lv[l][2] = (double)(st.exchanges - s0[l].exchanges) / (n > 1 ? n - 1 : 1);
    }
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, lv, GALE_CHAIN_MAX * 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD));
    if (rank == 0) {
        printf("gale_kbench vcycle: C%d L%d, %d ranks x %d threads, %d levels: residual factor "
               "%.4f per V-cycle (first %.4f), %.5f s per V-cycle\n",
               cfg->mesh.n, m->km.nlev, m->nranks, m->nthreads, nl, factor, first,
               n > 1 ? tcyc / (n - 1) : 0);
        for (int l = 0; l < nl; l++) {
            gale_mg_level_stats_t st;
            gale_mg_level_stats(mg, l, &st);
            printf("  level %d C%-4d %8.5f s  halo wait %8.5f s  %4.1f exchanges per V-cycle (max over ranks)\n",
                   l, st.n, lv[l][0], lv[l][1], lv[l][2]);
        }
    }
    if (rank == 0 && o->json) {
        gale_json_t j;
        FILE *f = json_open(o->json, &j, "vcycle");
        if (!f) return GALE_ERR_IO;
        json_case(&j, cfg, m);
        gale_json_int(&j, "mg_levels", nl);
        gale_json_int(&j, "cycles", n);
        gale_json_str(&j, "start", o->random_start ? "random" : "zero");
        gale_json_num(&j, "factor", factor);
        gale_json_num(&j, "factor_first", first);
        gale_json_num(&j, "time_per_vcycle_s", n > 1 ? tcyc / (n - 1) : 0);
        gale_json_arr(&j, "residuals");
        for (int c = 0; c <= n; c++) gale_json_num(&j, NULL, res[c] / res[0]);
        gale_json_end(&j, ']');
        gale_json_arr(&j, "per_level");
        for (int l = 0; l < nl; l++) {
            gale_mg_level_stats_t st;
            gale_mg_level_stats(mg, l, &st);
            gale_json_obj(&j, NULL);
            gale_json_int(&j, "n", st.n);
            gale_json_num(&j, "cells", (double)st.cells);
            gale_json_num(&j, "seconds", lv[l][0]);
            gale_json_num(&j, "halo_wait_s", lv[l][1]);
            gale_json_num(&j, "exchanges", lv[l][2]);
            gale_json_end(&j, '}');
        }
        gale_json_end(&j, ']');
        gale_json_config(&j, "config", cfg);
        gale_json_close(&j);
        GALE_CALL(json_finish(f, o->json));
    }
    gale_psy_field_free(&r);
    gale_psy_field_free(&z);
    gale_model_free(m);
    free(m);
    return GALE_OK;
}

/* ---- timer-cost mode ---- */

static int run_timer_cost(const opts_t *o)
{
    const int id = gale_timer_register("bench_probe", GALE_T_COMPUTE);
    const long n = 2000000;
    double best = 1e30, wt = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = gale_wtime();
        for (long i = 0; i < n; i++) {
            double t = gale_wtime();
            gale_timer_add(id, gale_wtime() - t);
        }
        best = fmin(best, (gale_wtime() - t0) / n);
        t0 = gale_wtime();
        volatile double sink = 0;
        for (long i = 0; i < n; i++) sink = gale_wtime();
        (void)sink;
        wt = fmin(wt, (gale_wtime() - t0) / n);
    }
    printf("gale_kbench timer-cost: %.1f ns per timed region (2 x gale_wtime + gale_timer_add), "
           "%.1f ns per gale_wtime\n", best * 1e9, wt * 1e9);
    if (o->json) {
        gale_json_t j;
        FILE *f = json_open(o->json, &j, "timer-cost");
        if (!f) return GALE_ERR_IO;
        gale_json_num(&j, "s_per_timed_region", best);
        gale_json_num(&j, "s_per_wtime", wt);
        gale_json_close(&j);
        GALE_CALL(json_finish(f, o->json));
    }
    return GALE_OK;
}

int main(int argc, char **argv)
{
    static char buf[512];
    opts_t o;
    int pa = parse(argc, argv, &o, buf, sizeof buf);
    if (pa == 1) {
        usage(stdout);
        return 0;
    }
    if (pa == 3) {
        for (int k = 0; k < GALE_K_N; k++)
            printf("%-14s %-6s %-6s %-9s %s\n", gale_kdesc[k].name, space_name(gale_kdesc[k].space),
                   gale_kdesc[k].two_prec ? "d,f" : "d", gale_kdesc[k].category, gale_kdesc[k].call);
        return 0;
    }
    if (pa == 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(o.mode, "timer-cost")) return run_timer_cost(&o);
    int rank, size;
    if (gale_mpi_start(&argc, &argv, MPI_THREAD_MULTIPLE, &rank, &size) != GALE_OK) return 1;
    gale_log_setup(rank, GALE_LOG_WARN);
    gale_config_t cfg;
    int st = gale_config_load(&cfg, NULL, o.nov, o.ov, MPI_COMM_WORLD);
    if (st == GALE_OK) {
        gale_log_setup(rank, cfg.logging.level);
        st = !strcmp(o.mode, "solve")    ? run_solve(&o, &cfg)
             : !strcmp(o.mode, "vcycle") ? run_vcycle(&o, &cfg)
                                         : run_kernels(&o, &cfg);
    }
    return gale_mpi_finish(st, 0);
}
