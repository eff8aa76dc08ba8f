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

typedef struct {
    gale_model_t m;
    int nc, ne, nl, sc, si;
    gale_field_t xf, yf, zf; /* single-precision cell fields */
    gale_rsum_t acc;
    gale_kmesh_t kmc;        /* the next coarser level's child map, for restrict/prolong */
    int ncc;                 /* its cells */
} kb_t;

/* ---- the kernels and their byte models: bytes a kernel must move per call
 * (each array element read or written once; neighbour columns re-read by a
 * stencil count as cache hits; per-column coefficients and index arrays
 * included; write-allocate not counted, as in STREAM) ---- */
typedef struct {
    const char *name, *group;
    int prec; /* 8 or 4 bytes per value */
    void (*run)(kb_t *);
    double (*bytes)(const kb_t *);
    const char *model;
} kdef_t;

#define KM (&b->m.km)
#define D(f) gale_fd(&b->m.f)

static void r_grad_h(kb_t *b) { gale_k_grad_h(KM, 0, b->ne, 50.0, D(u), D(p), D(ru)); }
static double m_grad_h(const kb_t *b) { return 8.0 * b->nl * (2.0 * b->ne + b->nc) + 16.0 * b->ne; }
static void r_col_explicit(kb_t *b) { gale_k_col_explicit(KM, 0, b->nc, 50.0, D(w), D(b), D(p), D(rb), D(ws)); }
static void r_col_backsub(kb_t *b) { gale_k_col_backsub(KM, 0, b->nc, D(p), D(ws), D(rb), D(w), D(b)); }
static double m_col(const kb_t *b) { return 8.0 * b->nc * (5.0 * b->nl + 2.0); }
static void r_rhs(kb_t *b) { gale_k_rhs(KM, 0, b->nc, D(p), D(fu), D(fw), D(rhs)); }
static double m_rhs(const kb_t *b)
{
    return 8.0 * b->nl * (b->ne + 3.0 * b->nc) + 72.0 * b->nc + 8.0 * b->ne;
}
static void r_helm_d(kb_t *b) { gale_k_helmholtz(KM, GALE_F64, 0, b->nc, b->m.p.data, b->m.pn.data); }
static void r_helm_f(kb_t *b) { gale_k_helmholtz(KM, GALE_F32, 0, b->nc, b->xf.data, b->yf.data); }
static double m_helm(const kb_t *b, int es) { return es * 2.0 * b->nc * b->nl + b->nc * (16.0 + 6.0 * es); }
static double m_helm_d(const kb_t *b) { return m_helm(b, 8); }
static double m_helm_f(const kb_t *b) { return m_helm(b, 4); }
static void r_pcd_d(kb_t *b) { gale_k_pc_diag(KM, GALE_F64, 0, b->nc, b->m.rhs.data, b->m.pn.data); }
static void r_pcd_f(kb_t *b) { gale_k_pc_diag(KM, GALE_F32, 0, b->nc, b->xf.data, b->yf.data); }
static double m_pcd_d(const kb_t *b) { return 8.0 * 3.0 * b->nc * b->nl; }
static double m_pcd_f(const kb_t *b) { return 4.0 * 3.0 * b->nc * b->nl; }
static void r_pct_d(kb_t *b) { gale_k_pc_tridiag(KM, GALE_F64, 0, b->nc, b->m.rhs.data, b->m.pn.data); }
static void r_pct_f(kb_t *b) { gale_k_pc_tridiag(KM, GALE_F32, 0, b->nc, b->xf.data, b->yf.data); }
static double m_pct_d(const kb_t *b) { return 8.0 * b->nc * (4.0 * b->nl + 1.0); }
static double m_pct_f(const kb_t *b) { return 4.0 * b->nc * (4.0 * b->nl + 1.0); }
#ifndef GALE_BENCH_DEVICE
/* The tridiagonal solve's traffic without its recurrence, on the host: r and
 * the batched factors m, cu read, z written, each column streamed in order.
 * What the memory system gives this access pattern (three read streams and
 * one write per column): the ceiling of pc_tridiag_d and smooth_d here. */
static void r_tri_stream_d(kb_t *b)
{
    const int L = GALE_LANES, nl = b->nl, sc = b->sc, nb = b->nc / L;
    const double *r = D(rhs), *m = KM->tri_m, *cu = KM->tri_c;
    double *z = D(pn);
#pragma omp parallel for schedule(static)
    for (int bt = 0; bt < nb; bt++)
        for (int l = 0; l < L; l++) {
            const double *rc = r + (size_t)(bt * L + l) * sc, *mb = m + (size_t)bt * nl * L + l,
                         *cb = cu + (size_t)bt * nl * L + l;
            double *zc = z + (size_t)(bt * L + l) * sc;
#pragma omp simd
            for (int k = 0; k < nl; k++) zc[k] = rc[k] * mb[k * L] + cb[k * L];
        }
}
#endif
static void r_axpby_d(kb_t *b)
{
    gale_k_axpby(GALE_F64, 0, b->nc, b->sc, 0.5, b->m.p.data, 0.25, b->m.rhs.data, b->m.pn.data);
}
static void r_axpby_f(kb_t *b)
{
    gale_k_axpby(GALE_F32, 0, b->nc, b->sc, 0.5, b->xf.data, 0.25, b->yf.data, b->zf.data);
}
static double m_axpby_d(const kb_t *b) { return 8.0 * 3.0 * b->nc * b->sc; }
static double m_axpby_f(const kb_t *b) { return 4.0 * 3.0 * b->nc * b->sc; }
static void dots(kb_t *b, int prec, int repro)
{
    gale_dotpair_t pr = prec == GALE_F64 ? (gale_dotpair_t){b->m.p.data, b->m.rhs.data, NULL, NULL}
                                         : (gale_dotpair_t){b->xf.data, b->yf.data, NULL, NULL};
    gale_rsum_zero(&b->acc);
    gale_k_dots(prec, 0, b->nc, b->sc, 0, b->nl, 1, &pr, repro, &b->acc);
}
static void r_dr_d(kb_t *b) { dots(b, GALE_F64, 1); }
static void r_dp_d(kb_t *b) { dots(b, GALE_F64, 0); }
static void r_dr_f(kb_t *b) { dots(b, GALE_F32, 1); }
static void r_dp_f(kb_t *b) { dots(b, GALE_F32, 0); }
static double m_dots_d(const kb_t *b) { return 8.0 * 2.0 * b->nc * b->sc; }
static double m_dots_f(const kb_t *b) { return 4.0 * 2.0 * b->nc * b->sc; }

/* multigrid: one smoother sweep (the residual from the neighbours' x, the
 * column solve, the update); the residual alone; restriction to and
 * prolongation from the next coarser level (its cells: C/4) */
static void r_smooth_d(kb_t *b) { gale_k_smooth(KM, GALE_F64, 0, b->nc, 0.8, D(p), D(rhs), D(pn)); }
static void r_smooth_f(kb_t *b) { gale_k_smooth(KM, GALE_F32, 0, b->nc, 0.8, b->xf.data, b->yf.data, b->zf.data); }
static double m_smooth(const kb_t *b, int es) { return es * b->nc * (5.0 * b->nl) + b->nc * (16.0 + 6.0 * es); }
static double m_smooth_d(const kb_t *b) { return m_smooth(b, 8); }
static double m_smooth_f(const kb_t *b) { return m_smooth(b, 4); }
static void r_resid_d(kb_t *b) { gale_k_residual(KM, GALE_F64, 0, b->nc, D(p), D(rhs), D(pn)); }
static double m_resid_d(const kb_t *b) { return 8.0 * 3.0 * b->nc * b->nl + b->nc * 64.0; }
static void r_restrict_d(kb_t *b) { gale_k_restrict(&b->kmc, GALE_F64, 0, b->ncc, D(rhs), D(pn)); }
static double m_restrict_d(const kb_t *b) { return 8.0 * b->nl * (b->nc + b->ncc) + 16.0 * b->ncc; }
static void r_prolong_d(kb_t *b) { gale_k_prolong(&b->kmc, GALE_F64, 0, b->ncc, D(rhs), D(pn)); }
static double m_prolong_d(const kb_t *b) { return 8.0 * b->nl * (2.0 * b->nc + b->ncc) + 16.0 * b->ncc; }

static const kdef_t kdefs[] = {
    {"grad_h", "dynamics", 8, r_grad_h, m_grad_h, "8 nl (2 E + C) + 16 E: in, out per edge; p once per cell; edge_cell, 1/d_e"},
    {"col_explicit", "dynamics", 8, r_col_explicit, m_col, "8 C (5 nl + 2): w, b, p read; rb, ws written"},
    {"col_backsub", "dynamics", 8, r_col_backsub, m_col, "8 C (5 nl + 2): p, ws, rb read; w, b written"},
    {"rhs", "dynamics", 8, r_rhs, m_rhs, "8 nl (E + 3 C) + 72 C + 8 E: fu once per edge, p, fw (nl + 1), rhs; cell_edge, sign, h_ad, area, l_e"},
    {"helmholtz_d", "solver", 8, r_helm_d, m_helm_d, "8 (2 C nl) + 64 C: x once (neighbours hit cache), y; cell_nbr, h_hs, h_ad, h_av"},
    {"helmholtz_f", "solver", 4, r_helm_f, m_helm_f, "4 (2 C nl) + 40 C"},
    {"pc_diag_d", "solver", 8, r_pcd_d, m_pcd_d, "8 (3 C nl): r, 1/diag read; z written"},
    {"pc_diag_f", "solver", 4, r_pcd_f, m_pcd_f, "4 (3 C nl)"},
    {"pc_tridiag_d", "solver", 8, r_pct_d, m_pct_d, "8 C (4 nl + 1): r, m, cu read; z written; av"},
    {"pc_tridiag_f", "solver", 4, r_pct_f, m_pct_f, "4 C (4 nl + 1)"},
#ifndef GALE_BENCH_DEVICE
    {"tri_stream_d", "solver", 8, r_tri_stream_d, m_pct_d, "8 C (4 nl + 1): pc_tridiag_d's arrays streamed, no recurrence (host loop: the ceiling of its access pattern)"},
#endif
    {"smooth_d", "multigrid", 8, r_smooth_d, m_smooth_d, "8 C (5 nl) + 64 C: x once, b, m, cu read; xn written; cell_nbr, h_hs, h_ad, h_av"},
    {"smooth_f", "multigrid", 4, r_smooth_f, m_smooth_f, "4 C (5 nl) + 40 C"},
    {"residual_d", "multigrid", 8, r_resid_d, m_resid_d, "8 (3 C nl) + 64 C: x once, b read; r written"},
    {"restrict_d", "multigrid", 8, r_restrict_d, m_restrict_d, "8 nl (C + C/4) + 16 C/4: fine read, coarse written; child map"},
    {"prolong_d", "multigrid", 8, r_prolong_d, m_prolong_d, "8 nl (2 C + C/4) + 16 C/4: coarse read, fine read and written; child map"},
    {"axpby_d", "vector", 8, r_axpby_d, m_axpby_d, "8 (3 C sc): x, y read; out written"},
    {"axpby_f", "vector", 4, r_axpby_f, m_axpby_f, "4 (3 C sc)"},
    {"dots_repro_d", "sums", 8, r_dr_d, m_dots_d, "8 (2 C sc): x, y read"},
    {"dots_plain_d", "sums", 8, r_dp_d, m_dots_d, "8 (2 C sc): x, y read"},
    {"dots_repro_f", "sums", 4, r_dr_f, m_dots_f, "4 (2 C sc)"},
    {"dots_plain_f", "sums", 4, r_dp_f, m_dots_f, "4 (2 C sc)"},
};
#define NK ((int)(sizeof kdefs / sizeof kdefs[0]))

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
          "  --list                 list the kernels and their byte models\n"
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

static FILE *json_open(const char *path, gale_json_t *j, const char *mode)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return NULL;
    }
    gale_json_open(j, f);
    gale_json_str(j, "program", "gale_kbench");
    gale_json_str(j, "mode", mode);
    json_build(j);
    return f;
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

static int fill(gale_field_t *f, double scale)
{
    for (int c = 0; c < f->n; c++)
        for (int k = 0; k < f->nlev; k++) {
            double v = scale * (1.0 + 1e-3 * (double)((c * 131 + k * 17) % 1000));
            if (f->elem == 8) gale_fd(f)[(size_t)c * f->stride + k] = v;
            else gale_ff(f)[(size_t)c * f->stride + k] = (float)v;
        }
    return gale_k_field_to_device(f);
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

static int run_kernels(const opts_t *o, const gale_config_t *cfg)
{
    int nranks;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (nranks != 1) GALE_ERROR(GALE_ERR_INPUT, "kernels mode runs on 1 rank (got %d)", nranks);
    kb_t *b = calloc(1, sizeof *b);
    if (!b) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    double ts = gale_wtime();
    GALE_CALL(gale_model_setup(&b->m, cfg, MPI_COMM_WORLD));
    b->nc = b->m.lm.ncell[0];
    b->ne = b->m.lm.nedge[0];
    b->nl = b->m.km.nlev;
    b->sc = b->m.km.sc;
    b->si = b->m.km.si;
    gale_field_t *df[] = {&b->m.u, &b->m.w, &b->m.b, &b->m.p, &b->m.ru, &b->m.fu,
                          &b->m.rb, &b->m.ws, &b->m.fw, &b->m.rhs, &b->m.pn};
    for (size_t i = 0; i < sizeof df / sizeof df[0]; i++) GALE_CALL(fill(df[i], 1.0 + 0.1 * i));
    gale_field_t *ff[] = {&b->xf, &b->yf, &b->zf};
    for (int i = 0; i < 3; i++) {
        GALE_CALL(gale_field_create(ff[i], i == 0 ? "xf" : i == 1 ? "yf" : "zf", GALE_LOC_CELL,
                                    b->nl, 4, &b->m.lm));
        GALE_CALL(gale_k_field_register(ff[i]));
        GALE_CALL(fill(ff[i], 1.0 + 0.2 * i));
    }
    /* the next coarser mesh of the chain and its child map (restrict, prolong) */
    gale_chain_t ch;
    gale_local_t lc;
    int *child = NULL;
    memset(&lc, 0, sizeof lc);
    b->kmc = b->m.km;
    b->kmc.impl = NULL;
    if (b->m.cs.n % 2 == 0) {
        GALE_CALL(gale_chain_build(&ch, &b->m.cs, 2, 1, GALE_PART_SFC));
        GALE_CALL(gale_local_build(&ch.cs[1], &ch.part[1], 0, 1, &lc));
        b->ncc = lc.ncell[0];
        GALE_ALLOC(child, 4 * (size_t)b->ncc);
        GALE_CALL(gale_chain_children(&b->m.cs, &b->m.lm, &ch.cs[1], &lc, child));
        gale_chain_free(&ch);
    }
    b->kmc.nchild = b->ncc;
    b->kmc.child = child;
    GALE_CALL(gale_k_init(&b->kmc));
    const double setup_s = gale_wtime() - ts;
    const int nth = omp_get_max_threads();
    printf("gale_kbench kernels: %s (%s), kernels %s, C%d L%d: %d cells, %d edges, %d threads, "
           "setup %.2f s\n", GALE_BENCH_COMPILER, GALE_BENCH_ISA, gale_k_name(), cfg->mesh.n, b->nl,
           b->nc, b->ne, nth, setup_s);

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
    gale_json_t j;
    FILE *jf = NULL;
    if (o->json && !(jf = json_open(o->json, &j, "kernels"))) return GALE_ERR_IO;
    if (jf) {
        char mesh[32];
        snprintf(mesh, sizeof mesh, "C%d", cfg->mesh.n);
        gale_json_str(&j, "mesh_name", mesh);
        gale_json_int(&j, "levels", b->nl);
        gale_json_int(&j, "cells", b->nc);
        gale_json_int(&j, "edges", b->ne);
        gale_json_int(&j, "threads", nth);
        gale_json_num(&j, "cell_field_MiB", 8.0 * b->nc * b->sc / 1048576.0);
        gale_json_num(&j, "setup_s", setup_s);
        gale_json_arr(&j, "kernels");
    }
    printf("%-14s %12s %12s %10s %9s %9s %9s\n", "kernel", "MB/call", "us/call", "GB/s", "median",
           "triad", "/triad");
    double triad_max = triad_dev > 0 ? triad_dev : triad_host;
    for (int k = 0; k < NK; k++) {
        const kdef_t *kd = &kdefs[k];
        if (!selected(o->only, kd->name)) continue;
        double triad = triad_dev;
        if (ta && triad_dev <= 0) {
            triad = gale_st_triad_best(ta, tb, tc, tn, 5);
            triad_max = fmax(triad_max, triad);
        }
        kd->run(b); /* warm up: caches, pages, device code */
        double t0 = gale_wtime();
        kd->run(b);
        double t1 = gale_wtime() - t0;
        long reps = (long)(o->min_time / o->samples / fmax(t1, 1e-7));
        if (reps < 1) reps = 1;
        double s[256];
        const int ns = o->samples < 256 ? o->samples : 256;
        for (int i = 0; i < ns; i++) {
            t0 = gale_wtime();
            for (long r = 0; r < reps; r++) kd->run(b);
            s[i] = (gale_wtime() - t0) / (double)reps;
        }
        qsort(s, (size_t)ns, sizeof s[0], cmpd);
        const double bytes = kd->bytes(b), gbs = bytes / s[0] * 1e-9, gbm = bytes / s[ns / 2] * 1e-9;
        printf("%-14s %12.3f %12.2f %10.2f %9.2f %9.2f %9.3f\n", kd->name, bytes * 1e-6, s[0] * 1e6,
               gbs, gbm, triad, triad > 0 ? gbs / triad : 0);
        if (jf) {
            gale_json_obj(&j, NULL);
            gale_json_str(&j, "name", kd->name);
            gale_json_str(&j, "group", kd->group);
            gale_json_str(&j, "precision", kd->prec == 8 ? "double" : "single");
            gale_json_num(&j, "bytes_per_call", bytes);
            gale_json_num(&j, "time_best_s", s[0]);
            gale_json_num(&j, "time_median_s", s[ns / 2]);
            gale_json_int(&j, "calls_per_sample", reps);
            gale_json_int(&j, "samples", ns);
            gale_json_num(&j, "GBs", gbs);
            gale_json_num(&j, "GBs_median", gbm);
            gale_json_num(&j, "triad_GBs", triad);
            gale_json_num(&j, "fraction_of_triad", triad > 0 ? gbs / triad : 0);
            gale_json_str(&j, "byte_model", kd->model);
            gale_json_end(&j, '}');
        }
    }
    if (jf) {
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
        if (fclose(jf) != 0) GALE_ERROR(GALE_ERR_IO, "writing '%s' failed", o->json);
    }
    free(ta);
    free(tb);
    free(tc);
    for (int i = 0; i < 3; i++) {
        gale_k_field_release(ff[i]);
        gale_field_free(ff[i]);
    }
    gale_k_finalize(&b->kmc);
    gale_local_free(&lc);
    GALE_FREE(child);
    gale_model_free(&b->m);
    free(b);
    return GALE_OK;
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
        if (fclose(f) != 0) GALE_ERROR(GALE_ERR_IO, "writing '%s' failed", o->json);
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
        if (fclose(f) != 0) GALE_ERROR(GALE_ERR_IO, "writing '%s' failed", o->json);
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
        if (fclose(f) != 0) GALE_ERROR(GALE_ERR_IO, "writing '%s' failed", o->json);
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
        for (int k = 0; k < NK; k++)
            printf("%-14s %-9s %s\n", kdefs[k].name, kdefs[k].group, kdefs[k].model);
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
