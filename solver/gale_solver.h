/* The Helmholtz problem for p^{n+1}, its preconditioners and the Krylov
 * methods. Every loop, exchange and global sum is a PSy-layer call (psy/):
 * no MPI here. */
#ifndef GALE_SOLVER_H
#define GALE_SOLVER_H

#include "gale_psy.h"

/* Choices of [solver] method and precision (the preconditioners, GALE_PC_*,
 * are psy/'s), in the order the configuration lists them (src/config/config_keys.c; a test checks the names). */
enum { GALE_KRYLOV_CG = 0, GALE_KRYLOV_PIPECG = 1, GALE_KRYLOV_BICGSTAB = 2, GALE_KRYLOV_GCR = 3 };
enum { GALE_PREC_DOUBLE = 0, GALE_PREC_SINGLE = 1 };

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

/* ---- Krylov solver ---- */
typedef struct {
    int method;          /* GALE_KRYLOV_* */
    int preconditioner;  /* GALE_PC_* */
    int precision;       /* GALE_PREC_DOUBLE / GALE_PREC_SINGLE */
    double rtol, atol;
    int max_iterations, fail_on_non_converged, monitor, gcr_restart, replace_every;
} gale_solver_opts_t;

typedef struct {
    long solves, iterations;   /* totals */
    int last_iterations;
    double last_rnorm, last_bnorm;  /* final |r| and |b| of the last solve */
    int converged;                  /* every solve so far converged */
    long global_sums;               /* by the solver */
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
const char *gale_solver_method_name(int method);
const char *gale_solver_pc_name(int pc);

#endif
