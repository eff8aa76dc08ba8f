/* The Helmholtz problem for p^{n+1}, its preconditioners and the Krylov
 * methods. Every loop, exchange and global sum is a PSy-layer call (psy/):
 * no MPI here. */
#ifndef GALE_SOLVER_H
#define GALE_SOLVER_H

#include "gale_chain.h"
#include "gale_psy.h"

/* Choices of [solver] method and precision (the preconditioners, GALE_PC_*,
 * are psy/'s), in the order the configuration lists them (src/config/config_keys.c; a test checks the names). */
enum {
    GALE_KRYLOV_CG = 0, GALE_KRYLOV_PIPECG = 1, GALE_KRYLOV_BICGSTAB = 2, GALE_KRYLOV_GCR = 3,
    GALE_KRYLOV_PREC_ONLY = 4 /* x = M^-1 b, one V-cycle: no global sum */
};
enum { GALE_PREC_DOUBLE = 0, GALE_PREC_SINGLE = 1 };

/* ---- the Helmholtz operator ----
 * Fills the operator and preconditioner coefficients of km (h_*, diag_inv,
 * tri_*, and the float copies) from its geometry (area, elen, erdist, the
 * layers' dzv, dzf, hl, qi, rdzi, c2, n2, tau), times scale (1; a coarse
 * multigrid level's operator is scaled by its cells' area ratio,
 * docs/multigrid.md). Owns the storage; serial. */
typedef struct {
    double *ad, *av, *hs, *dzh, *rho, *rq, *diag_inv, *tri_m, *tri_c;
    float *ad_f, *av_f, *hs_f, *dzh_f, *rho_f, *rq_f, *diag_inv_f, *tri_m_f, *tri_c_f;
} gale_helm_t;
int gale_helmholtz_setup(gale_kmesh_t *km, double scale, gale_helm_t *h);
void gale_helmholtz_free(gale_helm_t *h);

/* ---- geometric multigrid (docs/multigrid.md) ----
 * A V-cycle over the mesh chain with LFRic's smoother (block Jacobi with
 * the exact column solve, relaxation rho), unweighted-average restriction
 * and injection prolongation; the coarsest level is smoothed, not solved.
 * Level 0 is the Krylov solver's own mesh (its psy); every coarser level
 * has its own local mesh, operator and psy (halo plans), made here. */
typedef struct {
    double relaxation;        /* [multigrid] smooth_relaxation */
    int npre, npost, ncoarse; /* [multigrid] n_presmooth, n_postsmooth, n_coarsesmooth */
} gale_mg_opts_t;
typedef struct gale_mg gale_mg_t;
/* What one level costs, summed over the V-cycles so far (this rank): its own
 * launches only (the coarser levels' are theirs). */
typedef struct {
    int n;                        /* C_n */
    long long cells;              /* global cells */
    double seconds;               /* wall time of the level's launches */
    double halo_wait, halo_pack;  /* of which in exchanges */
    long exchanges;               /* halo exchanges its launches made */
} gale_mg_level_stats_t;
/* Not collective. ch is the chain fine's mesh belongs to (level 0); the
 * coarse levels take fine's [halo] options and kmesh physics. elem: 8 or 4. */
int gale_mg_create(gale_mg_t **mg, const gale_mg_opts_t *o, const gale_chain_t *ch,
                   gale_psy_t *fine, int elem);
void gale_mg_destroy(gale_mg_t **mg);
/* Collective: x = M^-1 b, one V-cycle from a zero guess (b, x: level-0
 * cell fields of the multigrid's precision; x is overwritten). */
int gale_mg_vcycle(gale_mg_t *mg, gale_field_t *b, gale_field_t *x);
int gale_mg_levels(const gale_mg_t *mg);
void gale_mg_level_stats(const gale_mg_t *mg, int l, gale_mg_level_stats_t *st);

/* ---- Krylov solver ---- */
typedef struct {
    int method;          /* GALE_KRYLOV_* */
    int preconditioner;  /* GALE_PC_* */
    int precision;       /* GALE_PREC_DOUBLE / GALE_PREC_SINGLE */
    double rtol, atol;
    int max_iterations, fail_on_non_converged, monitor, gcr_restart, replace_every;
    gale_mg_opts_t mg;            /* preconditioner multigrid */
    const gale_chain_t *chain;    /* preconditioner multigrid: psy's mesh is its level 0 */
} gale_solver_opts_t;

typedef struct {
    long solves, iterations;   /* totals */
    int last_iterations;
    double last_rnorm, last_bnorm;  /* final |r| and |b| of the last solve */
    int converged;                  /* every solve so far converged */
    long global_sums;               /* by the solver */
    double global_sum_s;            /* wall time in them */
    double seconds;                 /* wall time of the solves (the multigrid's included) */
} gale_solver_stats_t;

typedef struct gale_solver gale_solver_t;

/* Not collective. psy (its kmesh: the operator) and gs must outlive the
 * solver; [halo] comes from psy. */
int gale_solver_create(gale_solver_t **s, const gale_solver_opts_t *o, gale_psy_t *psy,
                       gale_gsum_t *gs);
void gale_solver_destroy(gale_solver_t **s);
/* Collective: solve A x = b. b and x are double cell fields; x holds the
 * initial guess. b's owned values are used (its halo is exchanged when
 * redundant computation needs it). On return x is correct on owned cells
 * (and its halo as far as psy/ has marked it valid). Not converging is
 * GALE_ERR_SOLVER (with the residual history) when fail_on_non_converged. */
int gale_solver_solve(gale_solver_t *s, gale_field_t *b, gale_field_t *x);
/* Collective: y = A x, the operator the solve applies (x's halo is
 * exchanged when stale); y is correct on owned cells. Double-precision
 * solvers only (GALE_ERR_INPUT otherwise). For the operator's tests. */
int gale_solver_apply(gale_solver_t *s, gale_field_t *x, gale_field_t *y);
const gale_solver_stats_t *gale_solver_stats(const gale_solver_t *s);
/* Whether a solve reads x's initial guess (prec_only computes x = P b alone). */
int gale_solver_reads_guess(const gale_solver_t *s);
/* The multigrid preconditioner, or NULL. */
const gale_mg_t *gale_solver_mg(const gale_solver_t *s);
const char *gale_solver_method_name(int method);
const char *gale_solver_pc_name(int pc);

/* ---- the mixed (u, w, b, p) solve of the consistent operator ----
 * docs/numerics.md, "The mixed solve". L x = M x + tau K x with M the mass
 * matrices (M_u the mimetic one) and K the skew wave operator; GCR(k),
 * right-preconditioned by the approximate Schur complement (M_u lumped: b,
 * w and u eliminated, leaving the Helmholtz problem of `helm`), in the norm
 * |r|^2 = sum r^2 / M_lumped (energy units, the same for every field). */
/* [mixed_solver] method, in choice order; pipelined_gcr needs a linear
 * preconditioner ([solver] method = prec_only: src/config/config.c refuses
 * any other) */
enum { GALE_MIXED_GCR = 0, GALE_MIXED_PREC_ONLY = 1, GALE_MIXED_PIPEGCR = 2 };
typedef struct {
    int method;            /* GALE_MIXED_* */
    double rtol, atol;
    double lookahead;      /* pipelined_gcr: [mixed_solver] lookahead */
    int max_iterations, gcrk, fail_on_non_converged, monitor;
    int single; /* [solver] precision = single: the vectors, operator and preconditioner
                 * in float (LFRic's r_solver); the caller's fields stay double */
    /* the nonlinear core's operator, linearised about its reference state
     * (docs/nonlinear.md; the w, b and p rows differ); NULL: the linear core's */
    const gale_knl_t *nl;
} gale_mixed_opts_t;
typedef struct {
    long solves, iterations;
    int last_iterations;
    double last_rnorm, last_bnorm;
    int converged;         /* every solve so far */
    long global_sums;      /* the mixed level's own (the Helmholtz solves count theirs) */
    double global_sum_s;
    double seconds;        /* wall time of the solves (the Helmholtz solves' included) */
    /* pipelined_gcr: sums whose wait the next preconditioner and operator
     * applications overlapped, and those applications made ahead that went
     * unused (the solve converged or stopped at that update) */
    long overlapped_sums, unused_applications;
} gale_mixed_stats_t;
typedef struct gale_mixed gale_mixed_t;
/* Not collective. psy's kmesh holds the operator; helm solves the
 * Helmholtz problem (its first guess is zero); gs counts this level's sums. */
int gale_mixed_create(gale_mixed_t **s, const gale_mixed_opts_t *o, gale_psy_t *psy,
                      gale_gsum_t *gs, gale_solver_t *helm);
void gale_mixed_destroy(gale_mixed_t **s);
/* Collective: x += the solution of L d = r from d = 0, for r and x in the
 * order u, w, b, p (r's values on owned entities). Not converging is
 * GALE_ERR_SOLVER with fail_on_non_converged. */
int gale_mixed_solve(gale_mixed_t *s, gale_field_t *const r[4], gale_field_t *const x[4]);
const gale_mixed_stats_t *gale_mixed_stats(const gale_mixed_t *s);
const char *gale_mixed_method_name(int method);

#endif
