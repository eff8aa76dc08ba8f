/* Krylov methods for the Helmholtz problem: cg, pipelined cg
 * (Ghysels & Vanroose 2014, with residual replacement), bicgstab and gcr(k),
 * each with the none / diagonal / tridiagonal / multigrid preconditioners,
 * in double or single precision, and LFRic's prec_only (one V-cycle).
 *
 * Every vector operation is a PSy-layer launch (psy/), which owns halos:
 * the operator's input is exchanged only when stale. With
 * [halo] redundant_computation the vector operations compute as far into the
 * halo as their inputs are valid, so values decay one depth per operator
 * application instead of being exchanged; cg then has r exchanged with p
 * (the `also` of gale_psy_helmholtz) once every `depth` iterations. Dot
 * products cover owned cells only. */
#include "gale_solver.h"

#include "gale_base.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXV 40   /* work vectors: gcr(16) needs 2*16 + 3 */

struct gale_solver {
    gale_solver_opts_t o;
    gale_psy_t *psy;
    gale_gsum_t *gs;
    int prec;                 /* GALE_F64 / GALE_F32 */
    int nv;
    gale_field_t v[MAXV];
    gale_field_t bs, xs;      /* working-precision copies in single precision */
    gale_mg_t *mg;            /* preconditioner multigrid */
    double *hist;             /* |r| per iteration of the current solve */
    int nhist;
    long sums0;
    gale_solver_stats_t st;
};
typedef struct gale_solver S;

const char *gale_solver_method_name(int m)
{
    static const char *const n[] = {"cg", "pipelined_cg", "bicgstab", "gcr", "prec_only"};
    return m >= 0 && m < 5 ? n[m] : "?";
}

const char *gale_solver_pc_name(int pc)
{
    static const char *const n[] = {"none", "diagonal", "tridiagonal", "multigrid"};
    return pc >= 0 && pc < 4 ? n[pc] : "?";
}

/* ---- vector helpers ---- */

static int imin(int a, int b) { return a < b ? a : b; }

/* out = a x + b y */
static int lin(S *s, gale_field_t *out, double a, gale_field_t *x, double b, gale_field_t *y)
{
    return gale_psy_axpby(s->psy, out, a, x, b, y);
}

/* z = M^-1 r */
static int precond(S *s, gale_field_t *r, gale_field_t *z)
{
    if (s->mg) return gale_mg_vcycle(s->mg, r, z);
    return gale_psy_precond(s->psy, s->o.preconditioner, r, z);
}

/* y = A x; comp: a vector that redundant computation will need in the halo */
static int apply(S *s, gale_field_t *x, gale_field_t *y, gale_field_t *comp)
{
    return gale_psy_helmholtz_also(s->psy, x, y, comp);
}

int gale_solver_apply(gale_solver_t *s, gale_field_t *x, gale_field_t *y)
{
    if (s->prec != GALE_F64)
        GALE_ERROR(GALE_ERR_INPUT, "gale_solver_apply: the solver works in single precision");
    return apply(s, x, y, NULL);
}

/* out[i] = global (a[i], b[i]) over owned cells, in as few global sums as fit */
static int dots(S *s, int n, gale_field_t *const *a, gale_field_t *const *b, double *out)
{
    for (int i0 = 0; i0 < n; i0 += GALE_GSUM_MAX) {
        gale_psy_sum_t sum;
        gale_psy_sum_init(&sum);
        for (int i = i0; i < imin(n, i0 + GALE_GSUM_MAX); i++)
            gale_psy_sum_dot(&sum, a[i], b[i], NULL, NULL);
        GALE_CALL(gale_psy_sum(s->gs, &sum, out + i0));
    }
    return GALE_OK;
}

/* ---- convergence ---- */

/* Records |r| and says whether it meets the tolerance. */
static int converged(S *s, int it, double rnorm, double bnorm)
{
    if (s->nhist < s->o.max_iterations + 2) s->hist[s->nhist++] = rnorm;
    if (s->o.monitor)
        gale_log(GALE_LOG_INFO, "  %s it %4d  |r| %.6e  |r|/|b| %.6e",
                 gale_solver_method_name(s->o.method), it, rnorm, bnorm > 0 ? rnorm / bnorm : 0);
    s->st.last_iterations = it;
    s->st.last_rnorm = rnorm;
    s->st.last_bnorm = bnorm;
    return rnorm <= s->o.rtol * bnorm || rnorm <= s->o.atol;
}

static int not_converged(S *s)
{
    s->st.converged = 0;
    double b = s->st.last_bnorm > 0 ? s->st.last_bnorm : 1;
    if (!s->o.fail_on_non_converged) {
        gale_log(GALE_LOG_WARN, "%s did not converge in %d iterations: |r|/|b| = %.3e",
                 gale_solver_method_name(s->o.method), s->st.last_iterations, s->st.last_rnorm / b);
        return GALE_OK;
    }
    if (gale_log_rank() == 0) {
        fprintf(stderr, "gale: residual history (|r|/|b|) of the failed solve:\n");
        int stride = s->nhist > 40 ? s->nhist / 40 : 1;
        for (int i = 0; i < s->nhist; i++)
            if (i % stride == 0 || i == s->nhist - 1)
                fprintf(stderr, "gale:   it %5d  %.6e\n", i, s->hist[i] / b);
    }
    GALE_ERROR(GALE_ERR_SOLVER,
               "%s/%s did not converge in %d iterations: |r|/|b| = %.3e > tolerance %.3e "
               "(abs_tolerance %.3e); raise [solver] max_iterations or the tolerance",
               gale_solver_method_name(s->o.method), gale_solver_pc_name(s->o.preconditioner),
               s->st.last_iterations, s->st.last_rnorm / b, s->o.rtol, s->o.atol);
}

/* ---- methods; each leaves x updated and returns whether it converged ---- */

static int cg(S *s, gale_field_t *b, gale_field_t *x, int *ok)
{
    gale_field_t *r = &s->v[0], *z = &s->v[1], *p = &s->v[2], *q = &s->v[3];
    GALE_CALL(apply(s, x, q, b));
    GALE_CALL(lin(s, r, 1.0, b, -1.0, q));
    GALE_CALL(precond(s, r, z));
    GALE_CALL(gale_psy_copy(s->psy, p, z));
    double d[3];
    GALE_CALL(dots(s, 3, (gale_field_t *[]){r, r, b}, (gale_field_t *[]){z, r, b}, d));
    double rz = d[0], bnorm = sqrt(d[2]);
    if ((*ok = converged(s, 0, sqrt(d[1]), bnorm))) return GALE_OK;
    for (int it = 1; it <= s->o.max_iterations; it++) {
        GALE_CALL(apply(s, p, q, r));
        double pq;
        GALE_CALL(dots(s, 1, &p, &q, &pq));
        double alpha = rz / pq;
        GALE_CALL(lin(s, x, 1.0, x, alpha, p));
        GALE_CALL(lin(s, r, 1.0, r, -alpha, q));
        GALE_CALL(precond(s, r, z));
        GALE_CALL(dots(s, 2, (gale_field_t *[]){r, r}, (gale_field_t *[]){z, r}, d));
        if ((*ok = converged(s, it, sqrt(d[1]), bnorm))) return GALE_OK;
        double beta = d[0] / rz;
        rz = d[0];
        GALE_CALL(lin(s, p, 1.0, z, beta, p));
    }
    return GALE_OK;
}

/* Ghysels & Vanroose's pipelined PCG: one fused non-blocking reduction per
 * iteration, overlapped with the preconditioner and the operator. Rounding
 * makes the recurred residual drift from the true one, so every
 * replace_every iterations (and before declaring convergence) the true
 * residual and its images are recomputed (Cools et al. 2018). */
static int pipecg(S *s, gale_field_t *b, gale_field_t *x, int *ok)
{
    gale_field_t *r = &s->v[0], *u = &s->v[1], *w = &s->v[2], *m = &s->v[3], *n = &s->v[4];
    gale_field_t *z = &s->v[5], *q = &s->v[6], *ss = &s->v[7], *p = &s->v[8], *t = &s->v[9];
    double bnorm = 0, gamma_old = 0, alpha_old = 0;
    int replace = 1, fresh = 0; /* fresh: r is the true residual b - A x */
    for (int it = 0; it <= s->o.max_iterations; it++) {
        if (replace) {
            GALE_CALL(apply(s, x, t, b));
            GALE_CALL(lin(s, r, 1.0, b, -1.0, t));
            GALE_CALL(precond(s, r, u));
            GALE_CALL(apply(s, u, w, NULL));
            if (it > 0) { /* keep the search directions, refresh their images */
                GALE_CALL(apply(s, p, ss, NULL));
                GALE_CALL(precond(s, ss, q));
                GALE_CALL(apply(s, q, z, NULL));
            }
            replace = 0;
            fresh = 1;
        }
        gale_psy_sum_t sum;
        gale_psy_sum_init(&sum);
        gale_psy_sum_dot(&sum, r, u, NULL, NULL);
        gale_psy_sum_dot(&sum, w, u, NULL, NULL);
        gale_psy_sum_dot(&sum, r, r, NULL, NULL);
        if (it == 0) gale_psy_sum_dot(&sum, b, b, NULL, NULL);
        GALE_CALL(gale_psy_sum_start(s->gs, &sum));
        GALE_CALL(precond(s, w, m));
        GALE_CALL(apply(s, m, n, NULL));
        double d[4];
        GALE_CALL(gale_psy_sum_finish(s->gs, &sum, d));
        if (it == 0) bnorm = sqrt(d[3]);
        if (converged(s, it, sqrt(d[2]), bnorm)) {
            if (fresh) {
                *ok = 1;
                return GALE_OK;
            }
            /* the recurred residual says yes: check the true one */
            s->nhist--;
            replace = 1;
            it--;
            continue;
        }
        if (it == s->o.max_iterations) break;
        fresh = 0;
        double gamma = d[0], delta = d[1], beta = 0, alpha;
        if (it > 0 && gamma_old != 0) {
            beta = gamma / gamma_old;
            alpha = gamma / (delta - beta * gamma / alpha_old);
        } else {
            alpha = gamma / delta;
        }
        GALE_CALL(lin(s, z, 1.0, n, beta, z));
        GALE_CALL(lin(s, q, 1.0, m, beta, q));
        GALE_CALL(lin(s, ss, 1.0, w, beta, ss));
        GALE_CALL(lin(s, p, 1.0, u, beta, p));
        GALE_CALL(lin(s, x, 1.0, x, alpha, p));
        GALE_CALL(lin(s, r, 1.0, r, -alpha, ss));
        GALE_CALL(lin(s, u, 1.0, u, -alpha, q));
        GALE_CALL(lin(s, w, 1.0, w, -alpha, z));
        gamma_old = gamma;
        alpha_old = alpha;
        if (s->o.replace_every > 0 && (it + 1) % s->o.replace_every == 0) replace = 1;
    }
    *ok = 0;
    return GALE_OK;
}

/* Right-preconditioned BiCGStab (van der Vorst 1992) with two global sums
 * per iteration instead of three: the first iteration's sum also gives
 * (r^, r0), |r0| and |b|, and the second, with (t, s) and (t, t), gives
 * (r^, s), (r^, t) and (s, s), from which rho = (r^, r) and |r|^2 =
 * |s - omega t|^2 follow (the subtraction loses only eps (|s| / |r|)^2
 * relative, and |r| < |s| by one iteration's reduction). */
static int bicgstab(S *s, gale_field_t *b, gale_field_t *x, int *ok)
{
    gale_field_t *r = &s->v[0], *rh = &s->v[1], *p = &s->v[2], *v = &s->v[3];
    gale_field_t *y = &s->v[4], *sv = &s->v[5], *z = &s->v[6], *t = &s->v[7];
    GALE_CALL(apply(s, x, t, b));
    GALE_CALL(lin(s, r, 1.0, b, -1.0, t));
    GALE_CALL(gale_psy_copy(s->psy, rh, r));
    GALE_CALL(gale_psy_copy(s->psy, p, r));
    double d[5], rho = 0, bnorm = 0;
    for (int it = 1; it <= s->o.max_iterations; it++) {
        GALE_CALL(precond(s, p, y));
        GALE_CALL(apply(s, y, v, NULL));
        double rhv;
        if (it == 1) {
            GALE_CALL(dots(s, 4, (gale_field_t *[]){rh, rh, r, b}, (gale_field_t *[]){v, r, r, b}, d));
            rhv = d[0], rho = d[1], bnorm = sqrt(d[3]);
            if ((*ok = converged(s, 0, sqrt(d[2]), bnorm))) return GALE_OK;
        } else {
            GALE_CALL(dots(s, 1, &rh, &v, &rhv));
        }
        if (rhv == 0 || rho == 0)
            GALE_ERROR(GALE_ERR_SOLVER, "bicgstab breakdown at iteration %d (rho = %g, (r^,v) = %g)",
                       it, rho, rhv);
        double alpha = rho / rhv;
        GALE_CALL(lin(s, sv, 1.0, r, -alpha, v));
        GALE_CALL(precond(s, sv, z));
        GALE_CALL(apply(s, z, t, NULL));
        GALE_CALL(dots(s, 5, (gale_field_t *[]){t, t, rh, rh, sv},
                       (gale_field_t *[]){sv, t, sv, t, sv}, d));
        double omega = d[1] > 0 ? d[0] / d[1] : 0;
        GALE_CALL(lin(s, x, 1.0, x, alpha, y));
        GALE_CALL(lin(s, x, 1.0, x, omega, z));
        GALE_CALL(lin(s, r, 1.0, sv, -omega, t));
        const double rho_new = d[2] - omega * d[3];
        const double rr = d[4] - 2.0 * omega * d[0] + omega * omega * d[1];
        if ((*ok = converged(s, it, sqrt(rr > 0 ? rr : 0), bnorm))) return GALE_OK;
        if (omega == 0)
            GALE_ERROR(GALE_ERR_SOLVER, "bicgstab breakdown at iteration %d (omega = 0)", it);
        double beta = (rho_new / rho) * (alpha / omega);
        rho = rho_new;
        GALE_CALL(lin(s, t, 1.0, p, -omega, v));
        GALE_CALL(lin(s, p, 1.0, r, beta, t));
    }
    return GALE_OK;
}

/* Right-preconditioned GCR(k), restarted: keeps k A-images, classical
 * Gram-Schmidt with one fused reduction per direction. */
static int gcr(S *s, gale_field_t *b, gale_field_t *x, int *ok)
{
    const int k = s->o.gcr_restart;
    gale_field_t *r = &s->v[0], *t = &s->v[1];
    gale_field_t *zz[32], *ww[32];
    for (int j = 0; j < k; j++) zz[j] = &s->v[2 + j], ww[j] = &s->v[2 + k + j];
    double wn[32], d[34];
    GALE_CALL(apply(s, x, t, b));
    GALE_CALL(lin(s, r, 1.0, b, -1.0, t));
    GALE_CALL(dots(s, 2, (gale_field_t *[]){r, b}, (gale_field_t *[]){r, b}, d));
    double bnorm = sqrt(d[1]);
    if ((*ok = converged(s, 0, sqrt(d[0]), bnorm))) return GALE_OK;
    int it = 0;
    while (it < s->o.max_iterations) {
        for (int j = 0; j < k && it < s->o.max_iterations; j++) {
            it++;
            GALE_CALL(precond(s, r, zz[j]));
            GALE_CALL(apply(s, zz[j], ww[j], NULL));
            if (j > 0) {
                gale_field_t *a[32];
                for (int i = 0; i < j; i++) a[i] = ww[j];
                GALE_CALL(dots(s, j, a, ww, d));
                for (int i = 0; i < j; i++) {
                    GALE_CALL(lin(s, ww[j], 1.0, ww[j], -d[i] / wn[i], ww[i]));
                    GALE_CALL(lin(s, zz[j], 1.0, zz[j], -d[i] / wn[i], zz[i]));
                }
            }
            GALE_CALL(dots(s, 2, (gale_field_t *[]){ww[j], r}, (gale_field_t *[]){ww[j], ww[j]}, d));
            wn[j] = d[0];
            if (wn[j] == 0) GALE_ERROR(GALE_ERR_SOLVER, "gcr breakdown at iteration %d", it);
            double alpha = d[1] / wn[j];
            GALE_CALL(lin(s, x, 1.0, x, alpha, zz[j]));
            GALE_CALL(lin(s, r, 1.0, r, -alpha, ww[j]));
            GALE_CALL(dots(s, 1, &r, &r, d));
            if ((*ok = converged(s, it, sqrt(d[0]), bnorm))) return GALE_OK;
        }
    }
    return GALE_OK;
}

/* LFRic's prec_only: x = M^-1 b, one V-cycle from a zero guess (the first
 * guess is not used), and no global sum, so neither the residual nor
 * convergence is known (the stats say so with NaN). docs/multigrid.md says
 * when that is accurate enough. */
static int prec_only(S *s, gale_field_t *b, gale_field_t *x, int *ok)
{
    GALE_CALL(precond(s, b, x));
    s->st.last_iterations = 1;
    s->st.last_rnorm = s->st.last_bnorm = NAN;
    *ok = 1;
    return GALE_OK;
}

/* ---- life cycle ---- */

static int nvectors(const gale_solver_opts_t *o)
{
    switch (o->method) {
    case GALE_KRYLOV_CG: return 4;
    case GALE_KRYLOV_PIPECG: return 10;
    case GALE_KRYLOV_BICGSTAB: return 8;
    case GALE_KRYLOV_PREC_ONLY: return 0;
    default: return 2 + 2 * o->gcr_restart;
    }
}

int gale_solver_create(gale_solver_t **out, const gale_solver_opts_t *o, gale_psy_t *psy,
                       gale_gsum_t *gs)
{
    S *s = NULL;
    *out = NULL;
    GALE_ALLOC(s, 1);
    s->o = *o;
    s->psy = psy;
    s->gs = gs;
    s->prec = o->precision == GALE_PREC_SINGLE ? GALE_F32 : GALE_F64;
    if (o->method == GALE_KRYLOV_GCR && (o->gcr_restart < 1 || o->gcr_restart > 16))
        GALE_ERROR(GALE_ERR_INPUT, "[solver] gcr_restart = %d: must be between 1 and 16",
                   o->gcr_restart);
    const int elem = s->prec == GALE_F64 ? 8 : 4, nl = gale_psy_kmesh(psy)->nlev;
    s->nv = nvectors(o);
    for (int i = 0; i < s->nv; i++) {
        char name[24];
        snprintf(name, sizeof name, "krylov%d", i);
        GALE_CALL(gale_psy_field_create(psy, &s->v[i], name, GALE_LOC_CELL, nl, elem));
    }
    if (s->prec == GALE_F32) {
        GALE_CALL(gale_psy_field_create(psy, &s->bs, "rhs_single", GALE_LOC_CELL, nl, 4));
        GALE_CALL(gale_psy_field_create(psy, &s->xs, "x_single", GALE_LOC_CELL, nl, 4));
    }
    /* the configuration refuses prec_only without multigrid, naming the keys */
    GALE_ASSERT(o->method != GALE_KRYLOV_PREC_ONLY || o->preconditioner == GALE_PC_MULTIGRID);
    if (o->preconditioner == GALE_PC_MULTIGRID)
        GALE_CALL(gale_mg_create(&s->mg, &o->mg, o->chain, psy, elem));
    GALE_ALLOC(s->hist, o->max_iterations + 2);
    s->st.converged = 1;
    *out = s;
    return GALE_OK;
}

void gale_solver_destroy(gale_solver_t **ps)
{
    S *s = *ps;
    if (!s) return;
    gale_mg_destroy(&s->mg);
    for (int i = 0; i < s->nv; i++) gale_psy_field_free(&s->v[i]);
    if (s->prec == GALE_F32) {
        gale_psy_field_free(&s->bs);
        gale_psy_field_free(&s->xs);
    }
    gale_free(s->hist);
    gale_free(s);
    *ps = NULL;
}

int gale_solver_solve(gale_solver_t *s, gale_field_t *b, gale_field_t *x)
{
    const long sums0 = s->gs->count;
    const double t0 = gale_wtime(), gst0 = s->gs->seconds;
    gale_field_t *bw = b, *xw = x;
    /* a single-precision mixed solve hands its float vectors over as they
     * are (the same [solver] precision makes both float) */
    const int conv = s->prec == GALE_F32 && b->elem == 8;
    if (b->elem != x->elem || (s->prec == GALE_F64 && b->elem != 8))
        GALE_ERROR(GALE_ERR_INTERNAL, "gale_solver_solve: b (%d-byte) and x (%d-byte) in a %s solver",
                   b->elem, x->elem, s->prec == GALE_F32 ? "single-precision" : "double-precision");
    if (conv) {
        /* solve in single precision; x comes back through a conversion */
        bw = &s->bs;
        xw = &s->xs;
        GALE_CALL(gale_psy_convert(s->psy, bw, b));
        GALE_CALL(gale_psy_convert(s->psy, xw, x));
    }
    s->nhist = 0;
    int ok = 0;
    switch (s->o.method) {
    case GALE_KRYLOV_CG: GALE_CALL(cg(s, bw, xw, &ok)); break;
    case GALE_KRYLOV_PIPECG: GALE_CALL(pipecg(s, bw, xw, &ok)); break;
    case GALE_KRYLOV_BICGSTAB: GALE_CALL(bicgstab(s, bw, xw, &ok)); break;
    case GALE_KRYLOV_GCR: GALE_CALL(gcr(s, bw, xw, &ok)); break;
    case GALE_KRYLOV_PREC_ONLY: GALE_CALL(prec_only(s, bw, xw, &ok)); break;
    default: GALE_ERROR(GALE_ERR_INTERNAL, "unknown solver method %d", s->o.method);
    }
    if (conv) GALE_CALL(gale_psy_convert(s->psy, x, xw));
    s->st.solves++;
    s->st.iterations += s->st.last_iterations;
    s->st.global_sums += s->gs->count - sums0;
    s->st.global_sum_s += s->gs->seconds - gst0;
    s->st.seconds += gale_wtime() - t0;
    if (!ok) GALE_CALL(not_converged(s));
    return GALE_OK;
}

const gale_solver_stats_t *gale_solver_stats(const gale_solver_t *s) { return &s->st; }
const gale_mg_t *gale_solver_mg(const gale_solver_t *s) { return s->mg; }
int gale_solver_reads_guess(const gale_solver_t *s) { return s->o.method != GALE_KRYLOV_PREC_ONLY; }
