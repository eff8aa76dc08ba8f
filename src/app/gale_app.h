/* The gale commands (src/app/). Each returns a process exit status. */
#ifndef GALE_APP_H
#define GALE_APP_H

#include "gale_model.h"
#include "gale_output.h"
#include "gale_report.h"

#include <stddef.h>

int gale_cmd_run(int argc, char **argv);        /* MPI: the model */
int gale_cmd_partition(int argc, char **argv);  /* serial: partition statistics */
int gale_cmd_mesh(int argc, char **argv);       /* serial: write the mesh file */
int gale_cmd_iobench(int argc, char **argv);    /* MPI: the I/O benchmark */
int gale_cmd_version(void);
const char *gale_version(void);
/* Shared by the commands: the build description printed by --version and
 * stored in reports (compiler, flags, ISA, offload target). */
const char *gale_build_compiler(void);
const char *gale_build_flags(void);
const char *gale_build_isa(void);
const char *gale_build_offload(void);
void gale_build_mpi(char *buf, size_t n);   /* library and standard version */
/* A whole number in [lo, hi], the whole string: 0 and *out set, else -1. */
int gale_parse_int(const char *s, long lo, long hi, int *out);

/* The results of a run, computed once by run_results after the time loop:
 * the summary prints them and the report writes them. */
typedef struct {
    int nrun;                        /* steps of this run (a restart starts later) */
    double wall, time_per_step;      /* [s], the final drain of the output included */
    double fom, fom_per_core;        /* column updates per second, and per core */
    double peak_rss;                 /* the largest rank's peak resident size [bytes] */
    double energy_change;            /* relative, since step 0 */
    const gale_solver_stats_t *st;
    double iterations_mean, residual; /* iterations per solve; the final |r|/|b| */
    long long halo_bytes, halo_msgs; /* per exchange of p, all ranks */
    double xf[8];                    /* host<->device bytes per step, all ranks */
    int nsums;                       /* checksums: the prognostics (and q, transport only) */
    int nprog;
    const char *const *names;        /* the prognostics' */
    double sums[GALE_NPROG_MAX + 1];
    char hex[GALE_NPROG_MAX + 1][17]; /* their bits */
    gale_timing_t tm;
    double omega, omega0, omega_error; /* the normal mode's frequency */
    int transport_only;              /* advection cases: norms, mass, extrema */
    double norms[3], mass, mass0, mass_change, qmin0, qmax0, qmin, qmax;
    int advected_gw;                 /* the advected gravity wave: equator symmetry of b */
    double asymmetry;
    const gale_mixed_stats_t *mst;   /* the mixed solve's (consistent operator), or NULL */
    double mixed_iterations_mean, mixed_residual;
    /* the solve by level: mixed (consistent only), helmholtz, each multigrid
     * level; each level's own time (the slowest rank's), without the levels
     * below it, and its global sums */
    int nlev;
    struct {
        char name[24];
        double seconds, global_sum_s;
        long global_sums, exchanges;
    } lev[2 + GALE_CHAIN_MAX];
    /* the global sums, other reductions and halo exchanges of the run
     * (docs/report.md, "comm"): counts of rank 0 (every rank makes the
     * same), waits of the slowest rank, modelled times of rank 0 */
    struct {
        long sums, sums_early, progress_tests, reductions, exchanges;
        double sum_wait_s, reduction_wait_s, halo_wait_s;
        double sum_model_s, halo_model_s, sum_imposed_s, halo_imposed_s;
    } comm;
    /* the roofline (docs/report.md): the triad of the ranks together at
     * start-up against the kernels' minimum bytes over the run */
    struct {
        double triad_gbs, triad_mib, triad_s; /* all ranks; per rank; the slowest rank's */
        double bytes, bytes_per_step;         /* all ranks */
        double seconds_at_triad, compute_s, fraction;
    } roof;
} gale_run_results_t;

/* The name of checksum i of r: a prognostic's, or q (transport only). */
static inline const char *gale_run_sum_name(const gale_run_results_t *r, int i)
{
    return i < r->nprog ? r->names[i] : "q";
}

/* The JSON run report of r to path (report_json.c; docs/report.md): written
 * to path.tmp, renamed when complete. GALE_ERR_IO naming the file. */
int gale_run_write_report(const char *path, const gale_model_t *m, const gale_run_results_t *r,
                          const gale_output_t *out);

#endif
