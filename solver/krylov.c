/* Krylov methods for the Helmholtz problem: cg, pipelined cg
 * (Ghysels & Vanroose 2014, with residual replacement), bicgstab and gcr(k),
 * each with the none / diagonal / tridiagonal preconditioners, in double or
 * single precision.
 *
 * Halo strategy. Every vector carries the depth to which its halo is valid
 * (gale_field_t.halo_valid). The operator needs its input valid to depth 1;
 * when it is not, the input is exchanged (to the plan's depth), overlapped
 * with the operator on inner cells when [halo] overlap is on. With
 * [halo] redundant_computation every kernel computes as far into the halo as
 * its inputs are valid, so values decay one depth per operator application
 * instead of being exchanged; cg then exchanges p and r together once every
 * `depth` iterations. Halo values are computed by the same bodies from the
 * same inputs as the owner's, so the answers are bit-identical either way.
 * Dot products cover owned cells only. */
#include "gale_solver.h"

#include "gale_base.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXV 40   /* work vectors: gcr(16) needs 2*16 + 3 */
#define MAXX 3    /* vectors exchanged together */

struct gale_solver {
    gale_solver_opts_t o;
    MPI_Comm comm;
    const gale_local_t *lm;
    const gale_kmesh_t *km;
    gale_gsum_t *gs;
    int prec;                 /* GALE_F64 / GALE_F32 */
    int hdepth;               /* exchange depth */
    gale_halo_t *halo[MAXX];  /* plans of the working precision */
    int nv;
    gale_field_t v[MAXV];
    gale_field_t bs, xs;      /* working-precision copies in single precision */
    double *hist;             /* |r| per iteration of the current solve */
    int nhist;
    long sums0;
    gale_solver_stats_t st;
};
typedef struct gale_solver S;

const char *gale_solver_method_name(int m)
{
    static const char *const n[] = {"cg", "pipelined_cg", "bicgstab", "gcr"};
    return m >= 0 && m < 4 ? n[m] : "?";
}

const char *gale_solver_pc_name(int pc)
{
    static const char *const n[] = {"none", "diagonal", "tridiagonal"};
    return pc >= 0 && pc < 3 ? n[pc] : "?";
}

/* ---- vector helpers ---- */

static int imin(int a, int b) { return a < b ? a : b; }
static int valid_depth(const S *s, int v) { return s->o.redundant ? v : 0; }

/* out = a x + b y */
static void lin(S *s, gale_field_t *out, double a, const gale_field_t *x, double b,
                const gale_field_t *y)
{
    int v = valid_depth(s, imin(x->halo_valid, y->halo_valid));
    gale_k_axpby(s->prec, 0, s->lm->ncell[v], s->km->sc, a, x->data, b, y->data, out->data);
    out->halo_valid = v;
}

static void copy(S *s, gale_field_t *out, const gale_field_t *x)
{
    int v = valid_depth(s, x->halo_valid);
    gale_k_copy(s->prec, 0, s->lm->ncell[v], s->km->sc, x->data, out->data);
    out->halo_valid = v;
}

/* z = M^-1 r; column-local, so as far into the halo as r is valid */
static void precond(S *s, const gale_field_t *r, gale_field_t *z)
{
    int v = valid_depth(s, r->halo_valid), c1 = s->lm->ncell[v];
    switch (s->o.preconditioner) {
    case GALE_PC_DIAGONAL: gale_k_pc_diag(s->km, s->prec, 0, c1, r->data, z->data); break;
    case GALE_PC_TRIDIAGONAL: gale_k_pc_tridiag(s->km, s->prec, 0, c1, r->data, z->data); break;
    default: gale_k_copy(s->prec, 0, c1, s->km->sc, r->data, z->data); break;
    }
    z->halo_valid = v;
}

/* y = A x. When x's halo is stale it is exchanged, together with the
 * companions (vectors that redundant computation will need in the halo). */
static int apply(S *s, gale_field_t *x, gale_field_t *y, gale_field_t *comp)
{
    const gale_local_t *lm = s->lm;
    if (x->halo_valid >= 1) {
        int v = valid_depth(s, x->halo_valid - 1);
        gale_k_helmholtz(s->km, s->prec, 0, lm->ncell[v], x->data, y->data);
        y->halo_valid = v;
        return GALE_OK;
    }
    gale_field_t *ex[MAXX] = {x};
    int nx = 1;
    if (comp && s->hdepth >= 2 && comp->halo_valid < s->hdepth) ex[nx++] = comp;
    for (int i = 0; i < nx; i++) GALE_CALL(gale_halo_begin(s->halo[i], ex[i]->data));
    int v = valid_depth(s, s->hdepth - 1), split = 0;
    if (s->o.overlap) {
        split = lm->ncell_inner;
        gale_k_helmholtz(s->km, s->prec, 0, split, x->data, y->data);
    }
    for (int i = 0; i < nx; i++) {
        GALE_CALL(gale_halo_end(s->halo[i], ex[i]->data));
        ex[i]->halo_valid = s->hdepth;
    }
    /* on one rank the interior is every column: no empty launch */
    if (split < lm->ncell[v]) gale_k_helmholtz(s->km, s->prec, split, lm->ncell[v], x->data, y->data);
    y->halo_valid = v;
    return GALE_OK;
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
        int m = imin(n - i0, GALE_GSUM_MAX);
        gale_dotpair_t pr[GALE_GSUM_MAX];
        gale_rsum_t acc[GALE_GSUM_MAX];
        for (int i = 0; i < m; i++) {
            pr[i] = (gale_dotpair_t){a[i0 + i]->data, b[i0 + i]->data, NULL, NULL};
            gale_rsum_zero(&acc[i]);
        }
        gale_k_dots(s->prec, 0, s->lm->ncell[0], s->km->sc, 0, s->km->nlev, m, pr,
                    s->gs->reproducible, acc);
        GALE_CALL(gale_gsum(s->gs, m, acc, out + i0));
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
    lin(s, r, 1.0, b, -1.0, q);
    precond(s, r, z);
    copy(s, p, z);
    double d[3];
    GALE_CALL(dots(s, 3, (gale_field_t *[]){r, r, b}, (gale_field_t *[]){z, r, b}, d));
    double rz = d[0], bnorm = sqrt(d[2]);
    if ((*ok = converged(s, 0, sqrt(d[1]), bnorm))) return GALE_OK;
    for (int it = 1; it <= s->o.max_iterations; it++) {
        GALE_CALL(apply(s, p, q, r));
        double pq;
        GALE_CALL(dots(s, 1, &p, &q, &pq));
        double alpha = rz / pq;
        lin(s, x, 1.0, x, alpha, p);
        lin(s, r, 1.0, r, -alpha, q);
        precond(s, r, z);
        GALE_CALL(dots(s, 2, (gale_field_t *[]){r, r}, (gale_field_t *[]){z, r}, d));
        if ((*ok = converged(s, it, sqrt(d[1]), bnorm))) return GALE_OK;
        double beta = d[0] / rz;
        rz = d[0];
        lin(s, p, 1.0, z, beta, p);
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
            lin(s, r, 1.0, b, -1.0, t);
            precond(s, r, u);
            GALE_CALL(apply(s, u, w, NULL));
            if (it > 0) { /* keep the search directions, refresh their images */
                GALE_CALL(apply(s, p, ss, NULL));
                precond(s, ss, q);
                GALE_CALL(apply(s, q, z, NULL));
            }
            replace = 0;
            fresh = 1;
        }
        gale_rsum_t acc[4];
        gale_dotpair_t pr[4] = {{r->data, u->data, NULL, NULL},
                                {w->data, u->data, NULL, NULL},
                                {r->data, r->data, NULL, NULL},
                                {b->data, b->data, NULL, NULL}};
        int nd = it == 0 ? 4 : 3;
        for (int i = 0; i < nd; i++) gale_rsum_zero(&acc[i]);
        gale_k_dots(s->prec, 0, s->lm->ncell[0], s->km->sc, 0, s->km->nlev, nd, pr,
                    s->gs->reproducible, acc);
        gale_gsum_req_t req;
        GALE_CALL(gale_gsum_start(s->gs, nd, acc, &req));
        precond(s, w, m);
        GALE_CALL(apply(s, m, n, NULL));
        double d[4];
        GALE_CALL(gale_gsum_finish(s->gs, &req, d));
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
        lin(s, z, 1.0, n, beta, z);
        lin(s, q, 1.0, m, beta, q);
        lin(s, ss, 1.0, w, beta, ss);
        lin(s, p, 1.0, u, beta, p);
        lin(s, x, 1.0, x, alpha, p);
        lin(s, r, 1.0, r, -alpha, ss);
        lin(s, u, 1.0, u, -alpha, q);
        lin(s, w, 1.0, w, -alpha, z);
        gamma_old = gamma;
        alpha_old = alpha;
        if (s->o.replace_every > 0 && (it + 1) % s->o.replace_every == 0) replace = 1;
    }
    *ok = 0;
    return GALE_OK;
}

/* Right-preconditioned BiCGStab (van der Vorst 1992). */
static int bicgstab(S *s, gale_field_t *b, gale_field_t *x, int *ok)
{
    gale_field_t *r = &s->v[0], *rh = &s->v[1], *p = &s->v[2], *v = &s->v[3];
    gale_field_t *y = &s->v[4], *sv = &s->v[5], *z = &s->v[6], *t = &s->v[7];
    GALE_CALL(apply(s, x, t, b));
    lin(s, r, 1.0, b, -1.0, t);
    copy(s, rh, r);
    copy(s, p, r);
    double d[3];
    GALE_CALL(dots(s, 3, (gale_field_t *[]){rh, r, b}, (gale_field_t *[]){r, r, b}, d));
    double rho = d[0], bnorm = sqrt(d[2]);
    if ((*ok = converged(s, 0, sqrt(d[1]), bnorm))) return GALE_OK;
    for (int it = 1; it <= s->o.max_iterations; it++) {
        precond(s, p, y);
        GALE_CALL(apply(s, y, v, NULL));
        double rhv;
        GALE_CALL(dots(s, 1, &rh, &v, &rhv));
        if (rhv == 0 || rho == 0)
            GALE_ERROR(GALE_ERR_SOLVER, "bicgstab breakdown at iteration %d (rho = %g, (r^,v) = %g)",
                       it, rho, rhv);
        double alpha = rho / rhv;
        lin(s, sv, 1.0, r, -alpha, v);
        precond(s, sv, z);
        GALE_CALL(apply(s, z, t, NULL));
        GALE_CALL(dots(s, 2, (gale_field_t *[]){t, t}, (gale_field_t *[]){sv, t}, d));
        double omega = d[1] > 0 ? d[0] / d[1] : 0;
        lin(s, x, 1.0, x, alpha, y);
        lin(s, x, 1.0, x, omega, z);
        lin(s, r, 1.0, sv, -omega, t);
        GALE_CALL(dots(s, 2, (gale_field_t *[]){rh, r}, (gale_field_t *[]){r, r}, d));
        if ((*ok = converged(s, it, sqrt(d[1]), bnorm))) return GALE_OK;
        if (omega == 0)
            GALE_ERROR(GALE_ERR_SOLVER, "bicgstab breakdown at iteration %d (omega = 0)", it);
        double beta = (d[0] / rho) * (alpha / omega);
        rho = d[0];
        lin(s, t, 1.0, p, -omega, v);
        lin(s, p, 1.0, r, beta, t);
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
    lin(s, r, 1.0, b, -1.0, t);
    GALE_CALL(dots(s, 2, (gale_field_t *[]){r, b}, (gale_field_t *[]){r, b}, d));
    double bnorm = sqrt(d[1]);
    if ((*ok = converged(s, 0, sqrt(d[0]), bnorm))) return GALE_OK;
    int it = 0;
    while (it < s->o.max_iterations) {
        for (int j = 0; j < k && it < s->o.max_iterations; j++) {
            it++;
            precond(s, r, zz[j]);
            GALE_CALL(apply(s, zz[j], ww[j], NULL));
            if (j > 0) {
                gale_field_t *a[32];
                for (int i = 0; i < j; i++) a[i] = ww[j];
                GALE_CALL(dots(s, j, a, ww, d));
                for (int i = 0; i < j; i++) {
                    lin(s, ww[j], 1.0, ww[j], -d[i] / wn[i], ww[i]);
                    lin(s, zz[j], 1.0, zz[j], -d[i] / wn[i], zz[i]);
                }
            }
            GALE_CALL(dots(s, 2, (gale_field_t *[]){ww[j], r}, (gale_field_t *[]){ww[j], ww[j]}, d));
            wn[j] = d[0];
            if (wn[j] == 0) GALE_ERROR(GALE_ERR_SOLVER, "gcr breakdown at iteration %d", it);
            double alpha = d[1] / wn[j];
            lin(s, x, 1.0, x, alpha, zz[j]);
            lin(s, r, 1.0, r, -alpha, ww[j]);
            GALE_CALL(dots(s, 1, &r, &r, d));
            if ((*ok = converged(s, it, sqrt(d[0]), bnorm))) return GALE_OK;
        }
    }
    return GALE_OK;
}

/* ---- life cycle ---- */

static int nvectors(const gale_solver_opts_t *o)
{
    switch (o->method) {
    case GALE_KRYLOV_CG: return 4;
    case GALE_KRYLOV_PIPECG: return 10;
    case GALE_KRYLOV_BICGSTAB: return 8;
    default: return 2 + 2 * o->gcr_restart;
    }
}

int gale_solver_create(gale_solver_t **out, const gale_solver_opts_t *o, MPI_Comm comm,
                       const gale_local_t *lm, const gale_kmesh_t *km, gale_gsum_t *gs)
{
    S *s = NULL;
    *out = NULL;
    GALE_ALLOC(s, 1);
    s->o = *o;
    s->comm = comm;
    s->lm = lm;
    s->km = km;
    s->gs = gs;
    s->prec = o->precision == GALE_PREC_SINGLE ? GALE_F32 : GALE_F64;
    s->hdepth = o->redundant ? o->halo_depth : 1;
    if (o->method == GALE_KRYLOV_GCR && (o->gcr_restart < 1 || o->gcr_restart > 16))
        GALE_ERROR(GALE_ERR_INPUT, "[solver] gcr_restart = %d: must be between 1 and 16",
                   o->gcr_restart);
    const int elem = s->prec == GALE_F64 ? 8 : 4;
    for (int i = 0; i < MAXX; i++)
        GALE_CALL(gale_halo_create_k(&s->halo[i], lm, comm, GALE_LOC_CELL, km->nlev, km->sc,
                                     elem, s->hdepth));
    s->nv = nvectors(o);
    for (int i = 0; i < s->nv; i++) {
        char name[24];
        snprintf(name, sizeof name, "krylov%d", i);
        GALE_CALL(gale_field_create(&s->v[i], name, GALE_LOC_CELL, km->nlev, elem, lm));
        GALE_CALL(gale_k_field_register(&s->v[i]));
    }
    if (s->prec == GALE_F32) {
        GALE_CALL(gale_field_create(&s->bs, "rhs_single", GALE_LOC_CELL, km->nlev, 4, lm));
        GALE_CALL(gale_field_create(&s->xs, "x_single", GALE_LOC_CELL, km->nlev, 4, lm));
        GALE_CALL(gale_k_field_register(&s->bs));
        GALE_CALL(gale_k_field_register(&s->xs));
    }
    GALE_ALLOC(s->hist, o->max_iterations + 2);
    s->st.converged = 1;
    *out = s;
    return GALE_OK;
}

void gale_solver_destroy(gale_solver_t **ps)
{
    S *s = *ps;
    if (!s) return;
    for (int i = 0; i < MAXX; i++) gale_halo_destroy(&s->halo[i]);
    for (int i = 0; i < s->nv; i++) {
        gale_k_field_release(&s->v[i]);
        gale_field_free(&s->v[i]);
    }
    if (s->prec == GALE_F32) {
        gale_k_field_release(&s->bs);
        gale_k_field_release(&s->xs);
        gale_field_free(&s->bs);
        gale_field_free(&s->xs);
    }
    gale_free(s->hist);
    gale_free(s);
    *ps = NULL;
}

int gale_solver_solve(gale_solver_t *s, gale_field_t *b, gale_field_t *x)
{
    long sums0 = s->gs->count;
    gale_field_t *bw = b, *xw = x;
    if (s->prec == GALE_F32) {
        /* solve in single precision; x comes back through a conversion */
        bw = &s->bs;
        xw = &s->xs;
        int vb = valid_depth(s, b->halo_valid), vx = valid_depth(s, x->halo_valid);
        gale_k_convert(GALE_F64, b->data, GALE_F32, bw->data, 0, s->lm->ncell[vb], s->km->sc);
        gale_k_convert(GALE_F64, x->data, GALE_F32, xw->data, 0, s->lm->ncell[vx], s->km->sc);
        bw->halo_valid = vb;
        xw->halo_valid = vx;
    }
    s->nhist = 0;
    int ok = 0;
    switch (s->o.method) {
    case GALE_KRYLOV_CG: GALE_CALL(cg(s, bw, xw, &ok)); break;
    case GALE_KRYLOV_PIPECG: GALE_CALL(pipecg(s, bw, xw, &ok)); break;
    case GALE_KRYLOV_BICGSTAB: GALE_CALL(bicgstab(s, bw, xw, &ok)); break;
    case GALE_KRYLOV_GCR: GALE_CALL(gcr(s, bw, xw, &ok)); break;
    default: GALE_ERROR(GALE_ERR_INTERNAL, "unknown solver method %d", s->o.method);
    }
    if (s->prec == GALE_F32) {
        int v = valid_depth(s, xw->halo_valid);
        gale_k_convert(GALE_F32, xw->data, GALE_F64, x->data, 0, s->lm->ncell[v], s->km->sc);
        x->halo_valid = v;
    }
    s->st.solves++;
    s->st.iterations += s->st.last_iterations;
    s->st.global_sums += s->gs->count - sums0;
    if (!ok) GALE_CALL(not_converged(s));
    return GALE_OK;
}

const gale_solver_stats_t *gale_solver_stats(const gale_solver_t *s) { return &s->st; }
