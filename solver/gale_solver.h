/* The Helmholtz problem for p^{n+1}, its preconditioners, the Krylov methods
 * and the global sums they need. Uses the launch-layer interface for every
 * loop and halo/ for every exchange; the only MPI here is collectives. */
#ifndef GALE_SOLVER_H
#define GALE_SOLVER_H

#include "gale_halo.h"
#include "gale_kernels.h"

#include <mpi.h>

/* Choices of [solver] method, preconditioner and precision, in the order the
 * configuration lists them (src/config_keys.c; a test checks the names). */
enum { GALE_KRYLOV_CG = 0, GALE_KRYLOV_PIPECG = 1, GALE_KRYLOV_BICGSTAB = 2, GALE_KRYLOV_GCR = 3 };
enum { GALE_PC_NONE = 0, GALE_PC_DIAGONAL = 1, GALE_PC_TRIDIAGONAL = 2 };
enum { GALE_PREC_DOUBLE = 0, GALE_PREC_SINGLE = 1 };

/* ---- global sums ---- */
typedef struct {
    MPI_Comm comm;
    int reproducible;   /* fixed-point integer sums (order-free) or plain MPI_SUM */
    long count;         /* global sums done (one call = one, however many values) */
} gale_gsum_t;

#define GALE_GSUM_MAX 16 /* values per call */
typedef struct {
    MPI_Request req;
    int n;
    int64_t iw[GALE_GSUM_MAX * (GALE_RSUM_WORDS + 1)];
    double dw[GALE_GSUM_MAX];
} gale_gsum_req_t;

void gale_gsum_init(gale_gsum_t *g, MPI_Comm comm, int reproducible);
/* Collective: out[j] = global sum of acc[j], j < n <= GALE_GSUM_MAX. A NaN,
 * Inf or out-of-range term anywhere is GALE_ERR_NUMERIC on every rank. */
int gale_gsum(gale_gsum_t *g, int n, const gale_rsum_t *acc, double *out);
/* The same, split so that work can overlap the reduction (MPI_Iallreduce). */
int gale_gsum_start(gale_gsum_t *g, int n, const gale_rsum_t *acc, gale_gsum_req_t *r);
int gale_gsum_finish(gale_gsum_t *g, gale_gsum_req_t *r, double *out);

/* ---- the Helmholtz operator ----
 * Fills the operator and preconditioner coefficients of km (h_*, diag_inv,
 * tri_*, and the float copies) from its geometry (area, elen, erdist, dz,
 * rdzi, c2, n2, tau). Owns the storage; serial. */
typedef struct {
    double *ad, *av, *hs, *diag_inv, *tri_m, *tri_c;
    float *ad_f, *av_f, *hs_f, *diag_inv_f, *tri_m_f, *tri_c_f, *dz_f, *rdzi_f;
} gale_helm_t;
int gale_helmholtz_setup(gale_kmesh_t *km, gale_helm_t *h);
void gale_helmholtz_free(gale_helm_t *h);

/* ---- glue between halo/ and the launch layer (halo_glue.c) ---- */
/* Collective. Before gale_k_init: picks this rank's device, checks the memory
 * mode ([offload] memory, GALE_MEM_*) and [halo] gpu_aware against the
 * device and the MPI library (GALE_ERR_INPUT on every rank if one fails) and
 * logs what it found. */
int gale_offload_setup(int memory, int gpu_aware, MPI_Comm comm);
/* gale_halo_create with the launch layer's packing and message buffers
 * (device packing, GPU-aware or host-staged messages in the offload build).
 * Collective, like gale_halo_create; gale_halo_destroy frees it all. */
int gale_halo_create_k(gale_halo_t **h, const gale_local_t *lm, MPI_Comm comm, gale_loc_t loc,
                       int nlev, int stride, int elem, int depth);

/* ---- Krylov solver ---- */
typedef struct {
    int method;          /* GALE_KRYLOV_* */
    int preconditioner;  /* GALE_PC_* */
    int precision;       /* GALE_PREC_DOUBLE / GALE_PREC_SINGLE */
    double rtol, atol;
    int max_iterations, fail_on_non_converged, monitor, gcr_restart, replace_every;
    int halo_depth, redundant, overlap;
} gale_solver_opts_t;

typedef struct {
    long solves, iterations;   /* totals */
    int last_iterations;
    double last_rnorm, last_bnorm;  /* final |r| and |b| of the last solve */
    int converged;                  /* every solve so far converged */
    long global_sums;               /* by the solver */
} gale_solver_stats_t;

typedef struct gale_solver gale_solver_t;

/* Collective. lm, km and gs must outlive the solver. */
int gale_solver_create(gale_solver_t **s, const gale_solver_opts_t *o, MPI_Comm comm,
                       const gale_local_t *lm, const gale_kmesh_t *km, gale_gsum_t *gs);
void gale_solver_destroy(gale_solver_t **s);
/* Collective: solve A x = b. b and x are double cell fields; x holds the
 * initial guess. b's owned values are used (its halo is exchanged when
 * redundant computation needs it). On return x is correct on owned cells and
 * x->halo_valid says to which depth its halo is. Not converging is
 * GALE_ERR_SOLVER (with the residual history) when fail_on_non_converged. */
int gale_solver_solve(gale_solver_t *s, gale_field_t *b, gale_field_t *x);
/* Collective: y = A x, the operator the solve applies (x's halo is
 * exchanged when stale); y is correct on owned cells. Double-precision
 * solvers only (GALE_ERR_INPUT otherwise). For the operator's tests. */
int gale_solver_apply(gale_solver_t *s, gale_field_t *x, gale_field_t *y);
const gale_solver_stats_t *gale_solver_stats(const gale_solver_t *s);
const char *gale_solver_method_name(int method);
const char *gale_solver_pc_name(int pc);

#endif
