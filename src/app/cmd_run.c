/* `gale run`: the model under MPI, with progress lines, the end-of-run
 * summary and the JSON run report (written by report_json.c).
 *
 * Error discipline: a failure every rank detects together (bad input, a
 * solver that does not converge, a NaN found by a global check) ends the run
 * through MPI_Finalize with the same non-zero status everywhere; any other
 * failure is local to a rank, so it aborts the job rather than leave the
 * others waiting in a collective. */
#include "gale_app.h"
#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_config_mpi.h"
#include "gale_io.h"
#include "gale_model.h"
#include "gale_netmodel.h"
#include "gale_output.h"
#include "gale_report.h"
#include "gale_restart.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *config;
    const char *report;
    const char *restart;
    int noverrides;
    char **overrides;
} run_args_t;

static void run_usage(FILE *out)
{
    fputs("usage: gale run [CONFIG.ini|CONFIG.nml] [--section.key=value ...] [--report FILE.json]\n"
          "                [--restart CHECKPOINT]\n"
          "\n"
          "Runs the model; start it with mpiexec -n P for P ranks, OMP_NUM_THREADS for threads.\n"
          "CONFIG is an INI file (configs/default.ini) or an LFRic gravity_wave namelist.\n"
          "Overrides take precedence over the file, which takes precedence over the defaults;\n"
          "`gale help config` lists every key. --report writes the JSON run report.\n"
          "--restart continues from a checkpoint ([checkpoint] period, dir write them) up to\n"
          "[timestepping] steps, a total counted from step 0 (docs/checkpoint.md).\n",
          out);
}

/* Returns 0 to run, 1 for --help, 2 for bad arguments (message printed). */
static int parse_args(int argc, char **argv, run_args_t *a, char **ov)
{
    memset(a, 0, sizeof *a);
    a->overrides = ov;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) return 1;
        if (strcmp(s, "--report") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gale: error: --report needs a file name\n");
                return 2;
            }
            a->report = argv[++i];
        } else if (strncmp(s, "--report=", 9) == 0) {
            a->report = s + 9;
        } else if (strcmp(s, "--restart") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "gale: error: --restart needs a checkpoint file name\n");
                return 2;
            }
            a->restart = argv[++i];
        } else if (strncmp(s, "--restart=", 10) == 0) {
            a->restart = s + 10;
        } else if (strncmp(s, "--", 2) == 0 && strchr(s, '.') && strchr(s, '=')) {
            ov[a->noverrides++] = argv[i];
        } else if (s[0] == '-') {
            fprintf(stderr,
                    "gale: error: run: unknown option '%s' (expected --section.key=value, "
                    "--report FILE, --restart FILE or --help)\n", s);
            return 2;
        } else if (!a->config) {
            a->config = s;
        } else {
            fprintf(stderr, "gale: error: run: a second configuration file '%s' (after '%s')\n",
                    s, a->config);
            return 2;
        }
    }
    return 0;
}

static void print_header(const gale_model_t *m)
{
    const gale_config_t *c = &m->cfg;
    gale_log(GALE_LOG_INFO, "gale %s  (%s, %s, kernels: %s)", gale_version(), gale_build_compiler(),
             gale_build_isa(), gale_k_name());
    gale_log(GALE_LOG_INFO, "config:    %s", c->source[0] ? c->source : "(defaults)");
    gale_log(GALE_LOG_INFO,
             "mesh:      C%d, %d levels (%s) to %.0f m, radius %.1f m (X = %g), %lld columns",
             c->mesh.n, c->extrusion.levels, gale_config_choice("extrusion", "method", c->extrusion.method),
             c->extrusion.top, m->cs.radius, c->planet.scaling, (long long)m->cs.ncells);
    gale_log(GALE_LOG_INFO, "case:      %s, dt %g s, %d steps, alpha %g",
             gale_config_choice("initial", "case", c->initial.kase), c->timestepping.dt,
             c->timestepping.steps, c->timestepping.alpha);
    char why[96] = "";
    if (m->threads_auto)
        snprintf(why, sizeof why, " (OMP_NUM_THREADS unset: %d cores / %d ranks on the node)",
                 m->node_cores, m->node_ranks);
    gale_log(GALE_LOG_INFO, "parallel:  %d ranks x %d threads%s, partition %s, halo depth %d%s%s%s",
             m->nranks, m->nthreads, why, gale_part_method_name(c->partitioning.method), c->halo.depth,
             c->halo.redundant_computation ? ", redundant computation" : "",
             c->halo.overlap ? ", overlap" : "",
             gale_mpi_yield() ? ", MPI waits yield (node oversubscribed)" : "");
    gale_log(GALE_LOG_INFO, "memory:    about %.1f MiB per rank (estimate, docs/memory.md)",
             m->mem_estimate / 1048576);
    const gale_emulate_t *e = gale_emulate();
    if (e)
        gale_log(GALE_LOG_INFO, "emulate:   %s, %d nodes x %d ranks, %s progress: a global sum of "
                 "one double takes %.2f us there; every time this run reports is emulated "
                 "(docs/emulate.md)", c->emulate.machine, e->nodes, e->ranks_per_node,
                 e->async ? "asynchronous" : "polled",
                 1e6 * gale_netmodel_allreduce_s(&e->m, 8, e->nodes, e->ranks_per_node));
    if (c->dynamics.mass_matrix == GALE_MASS_CONSISTENT)
        gale_log(GALE_LOG_INFO, "dynamics:  consistent (mimetic) mass matrix; mixed solve %s(%d), "
                 "tolerance %g, approximate Schur complement over the Helmholtz solver",
                 gale_mixed_method_name(c->mixed_solver.method), c->mixed_solver.gcrk,
                 c->mixed_solver.tolerance);
    else
        gale_log(GALE_LOG_INFO, "dynamics:  lumped mass matrix; u, w, b eliminated exactly");
    gale_log(GALE_LOG_INFO, "solver:    %s + %s, %s precision, tolerance %g, %s sums",
             gale_solver_method_name(c->solver.method), gale_solver_pc_name(c->solver.preconditioner),
             gale_config_choice("solver", "precision", c->solver.precision), c->solver.tolerance,
             c->solver.reproducible_sums ? "reproducible" : "plain");
}

/* The final |r|/|b| of the last solve and the energy change since step 0, as
 * the progress lines, the summary and the report give them. */
static double residual_ratio(const gale_solver_stats_t *st)
{
    if (isnan(st->last_rnorm)) return NAN; /* prec_only: not computed (null in the report) */
    return st->last_bnorm > 0 ? st->last_rnorm / st->last_bnorm : 0;
}

static double energy_change(const gale_model_t *m)
{
    return m->energy0 > 0 ? (m->energy - m->energy0) / m->energy0 : 0;
}

static double mixed_ratio(const gale_mixed_stats_t *st)
{
    if (isnan(st->last_rnorm)) return NAN; /* prec_only */
    return st->last_bnorm > 0 ? st->last_rnorm / st->last_bnorm : 0;
}

/* Collective: r->lev, the solve split by level (docs/report.md). */
static int solve_levels(gale_model_t *m, MPI_Comm comm, gale_run_results_t *r)
{
    const gale_solver_stats_t *st = r->st;
    const gale_mg_t *mg = gale_solver_mg(m->solver);
    const int nmg = mg ? gale_mg_levels(mg) : 0;
    double below = 0; /* the multigrid's time, inside the Helmholtz solves */
    int n = 0;
    if (m->mixed) {
        r->mst = gale_mixed_stats(m->mixed);
        r->mixed_iterations_mean = r->mst->solves ? (double)r->mst->iterations / r->mst->solves : 0;
        r->mixed_residual = mixed_ratio(r->mst);
        snprintf(r->lev[n].name, sizeof r->lev[n].name, "mixed");
        r->lev[n].seconds = r->mst->seconds - st->seconds;
        r->lev[n].global_sums = r->mst->global_sums;
        r->lev[n].global_sum_s = r->mst->global_sum_s;
        n++;
    }
    const int ih = n++;
    snprintf(r->lev[ih].name, sizeof r->lev[ih].name, "helmholtz");
    r->lev[ih].global_sums = st->global_sums;
    r->lev[ih].global_sum_s = st->global_sum_s;
    for (int l = 0; l < nmg; l++, n++) {
        gale_mg_level_stats_t ls;
        gale_mg_level_stats(mg, l, &ls);
        snprintf(r->lev[n].name, sizeof r->lev[n].name, "multigrid C%d", ls.n);
        r->lev[n].seconds = ls.seconds;
        r->lev[n].exchanges = ls.exchanges;
        below += ls.seconds; /* no global sum inside a V-cycle */
    }
    r->lev[ih].seconds = st->seconds - below;
    r->nlev = n;
    double t[2 * (2 + GALE_CHAIN_MAX)];
    for (int i = 0; i < n; i++) t[2 * i] = r->lev[i].seconds, t[2 * i + 1] = r->lev[i].global_sum_s;
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, t, 2 * n, MPI_DOUBLE, MPI_MAX, comm));
    for (int i = 0; i < n; i++) r->lev[i].seconds = t[2 * i], r->lev[i].global_sum_s = t[2 * i + 1];
    return GALE_OK;
}

/* Collective: t0, step0 and x0 are the wall clock, step and transfer counts at
 * the start of the time loop. */
static int run_results(gale_model_t *m, double t0, int step0, const gale_kxfer_t *x0,
                       MPI_Comm comm, gale_run_results_t *r)
{
    memset(r, 0, sizeof *r);
    r->wall = gale_wtime() - t0;
    r->nrun = m->step - step0;
    r->time_per_step = r->nrun ? r->wall / r->nrun : 0;
    const double colupd = (double)m->cs.ncells * m->cfg.extrusion.levels * r->nrun;
    r->fom = r->wall > 0 ? colupd / r->wall : 0;
    r->fom_per_core = r->wall > 0 ? colupd / r->wall / (m->nranks * m->nthreads) : 0;
    r->peak_rss = gale_proc_bytes("/proc/self/status", "VmHWM");
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &r->peak_rss, 1, MPI_DOUBLE, MPI_MAX, comm));
    /* host<->device bytes per step of this run, summed over ranks: total
     * h2d, d2h, then fields, halo staging and reductions (h2d, d2h) */
    gale_kxfer_t x1;
    gale_k_transfers(&x1);
    const double xsteps = r->nrun > 0 ? r->nrun : 1;
    const double xf[8] = {x1.field_h2d + x1.halo_h2d + x1.small_h2d + x1.const_h2d -
                              (x0->field_h2d + x0->halo_h2d + x0->small_h2d + x0->const_h2d),
                          x1.field_d2h + x1.halo_d2h + x1.small_d2h -
                              (x0->field_d2h + x0->halo_d2h + x0->small_d2h),
                          x1.field_h2d - x0->field_h2d, x1.field_d2h - x0->field_d2h,
                          x1.halo_h2d - x0->halo_h2d,   x1.halo_d2h - x0->halo_d2h,
                          x1.small_h2d - x0->small_h2d, x1.small_d2h - x0->small_d2h};
    for (int i = 0; i < 8; i++) r->xf[i] = xf[i] / xsteps;
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, r->xf, 8, MPI_DOUBLE, MPI_SUM, comm));
    r->nsums = r->nprog = m->nprog;
    r->names = m->prog_names;
    GALE_CALL(gale_model_checksums(m, r->sums));
    GALE_CALL(gale_timing_reduce(comm, r->wall, &r->tm));
    GALE_CALL(gale_psy_halo_size(m->psy, &m->p, &r->halo_bytes, &r->halo_msgs));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &r->halo_bytes, 1, MPI_LONG_LONG, MPI_SUM, comm));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &r->halo_msgs, 1, MPI_LONG_LONG, MPI_SUM, comm));
    gale_model_mode_frequency(m, &r->omega, &r->omega0);
    r->omega_error = r->omega > 0 ? (r->omega - r->omega0) / r->omega0 : 0;
    if (m->transport == GALE_TRANSPORT_ONLY) {
        r->transport_only = 1;
        GALE_CALL(gale_transport_norms(m->tr, m, m->time, r->norms));
        GALE_CALL(gale_transport_mass(m->tr, m, &r->mass));
        GALE_CALL(gale_transport_checksum(m->tr, m, &r->sums[r->nsums++]));
        r->mass0 = m->tr->mass0;
        r->mass_change = (r->mass - r->mass0) / r->mass0;
        r->qmin0 = m->tr->qmin0, r->qmax0 = m->tr->qmax0, r->qmin = m->tr->qmin, r->qmax = m->tr->qmax;
    } else if (m->transport == GALE_TRANSPORT_ADVECTED_GW) {
        r->advected_gw = 1;
        GALE_CALL(gale_model_equator_asymmetry(m, &r->asymmetry));
    }
    for (int i = 0; i < r->nsums; i++) gale_hex_bits(r->sums[i], r->hex[i]);
    r->energy_change = energy_change(m);
    r->st = gale_solver_stats(m->solver);
    r->iterations_mean = r->st->solves ? (double)r->st->iterations / r->st->solves : 0;
    r->residual = residual_ratio(r->st);
    GALE_CALL(solve_levels(m, comm, r));
    const gale_comm_stats_t *cs = gale_comm_stats();
    r->comm.sums = cs->sums, r->comm.sums_early = cs->sums_early;
    r->comm.progress_tests = cs->progress_tests, r->comm.reductions = cs->reductions;
    r->comm.exchanges = cs->exchanges;
    r->comm.sum_model_s = cs->sum_model_s, r->comm.halo_model_s = cs->halo_model_s;
    r->comm.sum_imposed_s = cs->sum_imposed_s, r->comm.halo_imposed_s = cs->halo_imposed_s;
    double w[3] = {cs->sum_wait_s, cs->reduction_wait_s, cs->halo_wait_s};
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, w, 3, MPI_DOUBLE, MPI_MAX, comm));
    r->comm.sum_wait_s = w[0], r->comm.reduction_wait_s = w[1], r->comm.halo_wait_s = w[2];
    return GALE_OK;
}

static void print_summary(const gale_model_t *m, const gale_run_results_t *r,
                          const gale_output_t *out)
{
    const gale_config_t *c = &m->cfg;
    const gale_solver_stats_t *st = r->st;
    printf("\n== summary ==\n");
    printf("steps %d (to step %d), wall %.3f s, %.4f s per step, setup %.3f s\n", r->nrun, m->step,
           r->wall, r->time_per_step, m->setup_s);
    printf("memory: peak resident %.1f MiB (largest rank), estimate %.1f MiB per rank\n",
           r->peak_rss / 1048576, m->mem_estimate / 1048576);
    printf("figure of merit: %.4e column updates/s, %.4e per core (%d ranks x %d threads)\n",
           r->fom, r->fom_per_core, m->nranks, m->nthreads);
    printf("roofline: the kernels moved at least %.3e bytes per step in %.4f s of compute per "
           "step; at the triad measured at start-up (%.2f GB/s, all ranks) that takes %.4f s: "
           "%.2f of it\n",
           r->roof.bytes_per_step, r->nrun ? r->roof.compute_s / r->nrun : 0, r->roof.triad_gbs,
           r->nrun ? r->roof.seconds_at_triad / r->nrun : 0, r->roof.fraction);
    printf("energy: initial %.10e, final %.10e, relative change %+.3e, max step increase %+.3e\n",
           m->energy0, m->energy, r->energy_change, m->max_step_increase);
    if (m->nl) {
        const gale_nl_budget_t *b = &m->nl->b, *b0 = &m->nl->b0;
        printf("nonlinear: mass change %+.3e (largest %.3e), energy change %+.3e (largest per "
               "step %.3e), entropy change %+.3e; surface pressure %.2f..%.2f hPa (largest change "
               "%.3f hPa); max |u| %.3e, "
               "|v| %.3e, |w| %.3e, grid mode %.3e m/s; Courant number %.3f (largest %.3f), "
               "transport substeps at most %d; %d reference state%s\n",
               (b->mass - b0->mass) / b0->mass, m->nl->max_mass_change,
               (b->energy - b0->energy) / b0->energy, m->nl->max_energy_change,
               (b->entropy - b0->entropy) / b0->entropy, b->ps_min / 100, b->ps_max / 100,
               b->max_dps / 100, m->max_u,
               b->max_v, m->max_w, b->max_grid, b->max_cfl, gale_nl_max_cfl(m),
               m->nl->substeps_max, m->nl->resets,
               m->nl->resets == 1 ? "" : "s");
    }
    char res[48];
    if (isnan(r->residual)) snprintf(res, sizeof res, "not computed (prec_only)");
    else snprintf(res, sizeof res, "%.3e, %s", r->residual, st->converged ? "converged" : "NOT CONVERGED");
    printf("solver: %s + %s, %ld solves, %ld iterations (mean %.2f), %ld global sums, final "
           "|r|/|b| %s\n",
           gale_solver_method_name(c->solver.method), gale_solver_pc_name(c->solver.preconditioner),
           st->solves, st->iterations, r->iterations_mean, st->global_sums, res);
    if (r->mst) {
        const gale_mixed_stats_t *ms = r->mst;
        char mres[48];
        if (isnan(r->mixed_residual)) snprintf(mres, sizeof mres, "not computed (prec_only)");
        else snprintf(mres, sizeof mres, "%.3e, %s", r->mixed_residual, ms->converged ? "converged" : "NOT CONVERGED");
        printf("mixed solver: %s(%d), %ld solves, %ld iterations (mean %.2f), %ld global sums, final "
               "|r|/|b| %s\n",
               gale_mixed_method_name(c->mixed_solver.method), c->mixed_solver.gcrk, ms->solves,
               ms->iterations, r->mixed_iterations_mean, ms->global_sums, mres);
        if (c->mixed_solver.method == GALE_MIXED_PIPEGCR)
            printf("mixed solver: pipelined, %ld global sums overlapped by the next applications, "
                   "%ld applications made ahead unused\n", ms->overlapped_sums,
                   ms->unused_applications);
    }
    printf("solve by level (own time, slowest rank; global sums per step):");
    for (int i = 0; i < r->nlev; i++)
        printf("%s %s %.3f s, %.1f", i ? ";" : "", r->lev[i].name, r->lev[i].seconds,
               r->nrun ? (double)r->lev[i].global_sums / r->nrun : 0.0);
    printf("\n");
    printf("halo: %lld bytes and %lld messages per exchange of p (all ranks)\n", r->halo_bytes,
           r->halo_msgs);
    printf("comm: %ld global sums, %.4f s blocked completing them (%ld found done at a progress "
           "point), %ld other reductions %.4f s, %ld halo exchanges %.4f s (slowest rank)\n",
           r->comm.sums, r->comm.sum_wait_s, r->comm.sums_early, r->comm.reductions,
           r->comm.reduction_wait_s, r->comm.exchanges, r->comm.halo_wait_s);
    if (gale_emulate())
        printf("comm: emulated %s, %d x %d ranks: %.2f us modelled per global sum, %.2f us per "
               "halo exchange\n", c->emulate.machine, c->emulate.nodes, c->emulate.ranks_per_node,
               r->comm.sums ? 1e6 * r->comm.sum_model_s / r->comm.sums : 0.0,
               r->comm.exchanges ? 1e6 * r->comm.halo_model_s / r->comm.exchanges : 0.0);
    const double *xf = r->xf;
    if (strcmp(gale_k_name(), "cpu") != 0)
        printf("transfers per step (all ranks): host->device %.0f B, device->host %.0f B "
               "(fields %.0f / %.0f, halo staging %.0f / %.0f, reductions %.0f / %.0f)\n",
               xf[0], xf[1], xf[2], xf[3], xf[4], xf[5], xf[6], xf[7]);
    if (c->initial.kase == GALE_CASE_NORMAL_MODE)
        printf("normal mode: omega measured %.8e, analytic %.8e, relative error %+.4e\n", r->omega,
               r->omega0, r->omega_error);
    if (r->transport_only)
        printf("transport: error norms l1 %.6e, l2 %.6e, linf %.6e; mass change %+.3e; "
               "q in [%.17g, %.17g] over the run (initially [%.17g, %.17g])\n",
               r->norms[0], r->norms[1], r->norms[2], r->mass_change, r->qmin, r->qmax, r->qmin0,
               r->qmax0);
    if (r->advected_gw)
        printf("advected gravity wave: b equator asymmetry max|b(lat) - b(-lat)| / max|b| = %.3e\n",
               r->asymmetry);
    gale_output_summary(out, stdout);
    printf("checksums (bits of sum(x*x)):\n");
    for (int i = 0; i < r->nsums; i++)
        printf("  %-2s %s  (%.17g)\n", gale_run_sum_name(r, i), r->hex[i], r->sums[i]);
    printf("\n");
    gale_timing_print(&r->tm, stdout);
    fflush(stdout);
}

/* The machine's bandwidth for this run: every rank runs the triad at once on
 * arrays of its own footprint (its memory estimate: 24 MiB at least, out of
 * the private caches; 768 MiB per node at most, shared among the node's
 * ranks), where its kernels run; their sum is the bandwidth the ranks
 * together get. Before the model is set up, so that the arrays are gone
 * when it allocates (the peak memory stays the model's). Collective. */
static int roofline_triad(const gale_config_t *cfg, MPI_Comm comm, double *gbs, double *mib,
                          double *secs)
{
    int local = 1, size = 1;
    GALE_CALL(gale_node_ranks(comm, NULL, &local));
    GALE_MPI(MPI_Comm_size(comm, &size));
    double bytes = gale_model_memory_estimate(cfg, size);
    if (bytes < 24.0 * 1048576) bytes = 24.0 * 1048576;
    if (bytes > 768.0 * 1048576 / local) bytes = 768.0 * 1048576 / local;
    GALE_MPI(MPI_Barrier(comm));
    const double t0 = gale_wtime();
    *gbs = gale_psy_triad(bytes, 4);
    *secs = gale_wtime() - t0;
    *mib = bytes / 1048576;
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, gbs, 1, MPI_DOUBLE, MPI_SUM, comm));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, secs, 1, MPI_DOUBLE, MPI_MAX, comm));
    return GALE_OK;
}

/* [emulate] in force on every rank (the configuration is broadcast, the
 * check is the same everywhere), before any exchange plan is made. The
 * emulated MPI has a progress thread when this one is asked for one
 * (MPICH_ASYNC_PROGRESS, also Cray MPICH's). */
static int emulate_setup(const gale_config_t *c, MPI_Comm comm)
{
    if (strcmp(c->emulate.machine, "none") == 0) {
        gale_emulate_set(NULL);
        return GALE_OK;
    }
    int size;
    GALE_MPI(MPI_Comm_size(comm, &size));
    const long long ranks = (long long)c->emulate.nodes * c->emulate.ranks_per_node;
    if (ranks < size) {
        char a[GALE_STR + GALE_ORIGIN], b[GALE_STR + GALE_ORIGIN];
        gale_config_origin(c, "emulate", "nodes", a, sizeof a);
        gale_config_origin(c, "emulate", "ranks_per_node", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s with %s: %lld ranks on the emulated machine, fewer than "
                   "this run's %d (each of them stands for one or more of the machine's)", a, b,
                   ranks, size);
    }
    const char *ap = getenv("MPICH_ASYNC_PROGRESS");
    gale_emulate_t e = {.nodes = c->emulate.nodes, .ranks_per_node = c->emulate.ranks_per_node,
                        .async = ap && atoi(ap) != 0};
    memcpy(&e.m, &c->emulate.model, sizeof e.m);
    gale_emulate_set(&e);
    return GALE_OK;
}

/* The run after set-up: restart, time loop, summary and report. */
static int run_model(const run_args_t *a, gale_model_t *m, gale_output_t **outp, MPI_Comm comm,
                     int rank, const double triad[3], gale_io_link_t *link)
{
    const gale_config_t cfg = m->cfg;
    const double triad_gbs = triad[0], triad_mib = triad[1], triad_s = triad[2];
    m->setup_s += triad_s; /* the roofline's triad is part of the set-up */
    print_header(m);
    GALE_CALL(gale_restart_setup(m, a->restart));
    GALE_CALL(gale_output_init(outp, m, link));
    gale_output_t *out = *outp;
    const int steps = m->steps, every = cfg.logging.progress_every;
    gale_timer_reset();
    gale_comm_reset();
    gale_kxfer_t x0;
    gale_k_transfers(&x0);
    const int step0 = m->step;
    GALE_MPI(MPI_Barrier(comm));
    const double t0 = gale_wtime();
    for (int s = m->step; s < steps; s++) {
        GALE_CALL(gale_model_step(m));
        GALE_CALL(gale_output_step(out, m));
        GALE_CALL(gale_restart_checkpoint(m, out));
        if (every > 0 && (m->step % every == 0 || m->step == steps)) {
            const gale_solver_stats_t *st = gale_solver_stats(m->solver);
            double el = gale_wtime() - t0;
            char mix[192] = "", hel[80];
            /* prec_only computes no residual: say so rather than print NaN */
            if (m->mixed) {
                const gale_mixed_stats_t *ms = gale_mixed_stats(m->mixed);
                if (isnan(mixed_ratio(ms)))
                    snprintf(mix, sizeof mix, "mixed prec_only, residual not computed  ");
                else
                    snprintf(mix, sizeof mix, "mixed it %2d  |r|/|b| %.2e  ", ms->last_iterations,
                             mixed_ratio(ms));
            }
            if (isnan(residual_ratio(st)))
                snprintf(hel, sizeof hel, "%s: %d V-cycle, residual not computed",
                         gale_solver_method_name(cfg.solver.method), st->last_iterations);
            else
                snprintf(hel, sizeof hel, "%s it %3d  |r|/|b| %.2e",
                         gale_solver_method_name(cfg.solver.method), st->last_iterations,
                         residual_ratio(st));
            if (m->nl) /* the budgets, and what the test cases watch */
                snprintf(mix + strlen(mix), sizeof mix - strlen(mix),
                         "dM/M0 %+.1e  ps %.2f..%.2f hPa  max|v| %.2e  Courant %.2f  ",
                         (m->nl->b.mass - m->nl->b0.mass) / m->nl->b0.mass, m->nl->b.ps_min / 100,
                         m->nl->b.ps_max / 100, m->nl->b.max_v, m->nl->b.max_cfl);
            gale_log(GALE_LOG_INFO,
                     "step %5d/%d  t %9.1f s  %s%s  dE/E0 %+.3e  max|w| %.3e m/s"
                     "  elapsed %.2f s  left %.2f s",
                     m->step, steps, m->time, mix, hel, energy_change(m), m->max_w, el,
                     el / (m->step - step0) * (steps - m->step));
        }
    }
    GALE_CALL(gale_output_finalize(out)); /* the final drain counts in wall */
    gale_run_results_t r;
    GALE_CALL(run_results(m, t0, step0, &x0, comm, &r));
    r.roof.triad_gbs = triad_gbs, r.roof.triad_mib = triad_mib, r.roof.triad_s = triad_s;
    for (int i = 0; i < r.tm.n; i++) r.roof.bytes += r.tm.bytes[i];
    r.roof.bytes_per_step = r.nrun ? r.roof.bytes / r.nrun : 0;
    r.roof.seconds_at_triad = triad_gbs > 0 ? r.roof.bytes / (triad_gbs * 1e9) : 0;
    r.roof.compute_s = r.tm.max[GALE_T_COMPUTE];
    r.roof.fraction = r.roof.compute_s > 0 ? r.roof.seconds_at_triad / r.roof.compute_s : 0;
    if (rank == 0) print_summary(m, &r, out);
    int status = GALE_OK;
    if (rank == 0 && a->report) {
        status = gale_run_write_report(a->report, m, &r, out);
        if (status == GALE_OK) gale_log(GALE_LOG_INFO, "report: %s", a->report);
    }
    return status;
}

/* The model's ranks: set-up, the run, and the writer stopped whatever
 * happened. */
static int run_clients(const run_args_t *a, gale_config_t *cfg, MPI_Comm comm, int rank,
                       gale_io_link_t *link)
{
    GALE_CALL(emulate_setup(cfg, comm));
    double triad[3];
    GALE_CALL(roofline_triad(cfg, comm, &triad[0], &triad[1], &triad[2]));
    gale_model_t m;
    gale_output_t *out = NULL;
    /* whatever happens next, a set-up that fails part-way included, the
     * writer thread is stopped (no temporary file left, no HDF5 call racing
     * MPI_Finalize) and the model freed (set-up zeroes it first) */
    int st = gale_model_setup(&m, cfg, comm);
    if (st == GALE_OK) st = run_model(a, &m, &out, comm, rank, triad, link);
    gale_output_free(&out);
    gale_model_free(&m);
    return st;
}

static int run(const run_args_t *a, MPI_Comm job, int rank)
{
    gale_config_t cfg;
    GALE_CALL(gale_config_load(&cfg, a->config, a->noverrides, a->overrides, job));
    gale_log_setup(rank, cfg.logging.level);
    /* The writer thread calls MPI beside the model's halo exchanges: that
     * needs MPI_THREAD_MULTIPLE, which some libraries grant only when asked
     * (Cray MPICH: MPICH_MAX_THREAD_SAFETY=multiple). Without it the output
     * is written on the model thread (docs/sites.md). */
    int provided;
    GALE_MPI(MPI_Query_thread(&provided));
    if (provided < MPI_THREAD_MULTIPLE && !cfg.io.synchronous) {
        gale_log(GALE_LOG_WARN, "the MPI library grants no MPI_THREAD_MULTIPLE (Cray MPICH: export "
                                "MPICH_MAX_THREAD_SAFETY=multiple): output and checkpoints are "
                                "written on the model thread ([io] synchronous = true)");
        cfg.io.synchronous = 1;
    }
    GALE_CALL(gale_output_check_paths(&cfg, a->report, job));
    /* [io] servers: those ranks leave the model and serve its output */
    gale_io_link_t link;
    MPI_Comm comm;
    GALE_CALL(gale_io_split(job, cfg.io.servers, cfg.io.pools, cfg.io.server_placement, &link, &comm));
    int st;
    if (link.is_server) {
        st = gale_output_serve(&cfg, &link, comm);
    } else {
        st = run_clients(a, &cfg, comm, rank, &link);
        const int rs = gale_io_release(&link, st);
        if (st == GALE_OK) st = rs;
    }
    MPI_Comm_free(&comm);
    gale_io_link_free(&link);
    return st;
}

int gale_cmd_run(int argc, char **argv)
{
    run_args_t a;
    char **ov = calloc((size_t)argc + 1, sizeof(char *));
    if (!ov) {
        fprintf(stderr, "gale: error: out of memory\n");
        return GALE_ERR_MEM;
    }
    int pa = parse_args(argc, argv, &a, ov);
    if (pa == 1) {
        run_usage(stdout);
        free(ov);
        return 0;
    }
    if (pa == 2) {
        run_usage(stderr);
        free(ov);
        return 2;
    }
    int rank = 0, size = 1;
    int status = gale_mpi_start(&argc, &argv, MPI_THREAD_MULTIPLE, &rank, &size);
    if (status != GALE_OK) {
        free(ov);
        return status; /* MPI is not usable: nothing to finalize */
    }
    status = run(&a, MPI_COMM_WORLD, rank);
    free(ov);
    status = gale_mpi_finish(status, 0);
    return status;
}
