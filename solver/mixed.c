/* The mixed (u, w, b, p) solve of the consistent operator: GCR(k), or its
 * pipelined form, with the approximate Schur complement as right
 * preconditioner (docs/numerics.md, "The mixed solve"). Every loop, exchange
 * and global sum is a PSy-layer call; the Helmholtz problem is the [solver]
 * solver's. */
#include "gale_solver.h"

#include "gale_base.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXK 10 /* [mixed_solver] gcrk */

typedef struct { gale_field_t *f[4]; } mv_t; /* u, w, b, p */

struct gale_mixed {
    gale_mixed_opts_t o;
    gale_psy_t *psy;
    gale_gsum_t *gs;
    gale_solver_t *helm;
    double tau;
    int nv;
    gale_field_t *store;  /* 4 fields per work vector */
    /* gcr: directions z_j = P r_j and images v_j. pipelined_gcr: m_j = P w_j
     * in z, w_j and then s_j in v (one more: the next w), n_j = L m_j and
     * then z_j in n, u = P r (docs/numerics.md, "The mixed solve") */
    mv_t r, z[MAXK], v[MAXK + 1], n[MAXK], u;
    /* single precision: the solve's correction (xs) and its double copy (xd),
     * added to the caller's x at the end */
    mv_t xs, xd;
    gale_field_t ru, rb, ws, h; /* the preconditioner's scratch */
    double *wc[4], *wl[4];      /* the norm's weights: 1 / lumped mass */
    gale_mixed_stats_t st;
};
typedef struct gale_mixed S;

static const gale_loc_t loc4[4] = {GALE_LOC_EDGE, GALE_LOC_IFACE, GALE_LOC_IFACE, GALE_LOC_CELL};

const char *gale_mixed_method_name(int m)
{
    static const char *const n[] = {"gcr", "prec_only", "pipelined_gcr"};
    return m >= 0 && m < 3 ? n[m] : "?";
}

/* out = a x + b y, field by field */
static int lin(S *s, const mv_t *out, double a, const mv_t *x, double b, const mv_t *y)
{
    for (int i = 0; i < 4; i++) GALE_CALL(gale_psy_axpby(s->psy, out->f[i], a, x->f[i], b, y->f[i]));
    return GALE_OK;
}

/* out = x, converted when out is the solve's single precision and x the
 * caller's double (a copy as the axpby it always was otherwise) */
static int load(S *s, const mv_t *out, const mv_t *x)
{
    for (int i = 0; i < 4; i++)
        GALE_CALL(out->f[i]->elem == x->f[i]->elem
                      ? gale_psy_axpby(s->psy, out->f[i], 1.0, x->f[i], 0.0, x->f[i])
                      : gale_psy_convert(s->psy, out->f[i], x->f[i]));
    return GALE_OK;
}

/* out[j] = (a[j], b[j]) in the weighted norm, all in one global sum. The
 * dots go in field by field, so that each field's products with every pair
 * are launched together (one pass over the field for all of them); each
 * pair's four field values are then added in field order (the same bits on
 * every rank: each is a reproducible or plain global value) */
static int dots_add(S *s, gale_psy_sum_t *sum, int n, const mv_t *const *a, const mv_t *const *b)
{
    GALE_ASSERT(4 * n <= GALE_GSUM_MAX);
    gale_psy_sum_init(sum);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < n; j++) gale_psy_sum_dot(sum, a[j]->f[i], b[j]->f[i], s->wc[i], s->wl[i]);
    return GALE_OK;
}
static void dots_out(int n, const double *v, double *out)
{
    for (int j = 0; j < n; j++) out[j] = ((v[j] + v[n + j]) + v[2 * n + j]) + v[3 * n + j];
}
static int dots(S *s, int n, const mv_t *const *a, const mv_t *const *b, double *out)
{
    gale_psy_sum_t sum;
    GALE_CALL(dots_add(s, &sum, n, a, b));
    double v[GALE_GSUM_MAX];
    GALE_CALL(gale_psy_sum(s->gs, &sum, v));
    dots_out(n, v, out);
    return GALE_OK;
}

/* x -= sum_i h[i] y_i (i < n, in that order) and then, with w, w += b x, each
 * field in one pass (gale_kb_lincomb: the bits of the axpbys it replaces),
 * at most five directions a launch; with a, x starts from a instead of its
 * own values (a copy of a, in the same pass) */
static int lincombp(S *s, const mv_t *x, int n, const double *h, const mv_t *const *y,
                    const mv_t *w, double b, const mv_t *a)
{
    for (int i = 0; i < 4; i++) {
        int j0 = 0;
        do {
            const int m = n - j0 < 5 ? n - j0 : 5, last = j0 + m == n;
            double c[5] = {0};
            gale_field_t *yf[5] = {NULL};
            for (int j = 0; j < m; j++) c[j] = -h[j0 + j], yf[j] = y[j0 + j]->f[i];
            GALE_CALL(gale_psy_lincomb(s->psy, x->f[i], last && w ? w->f[i] : NULL,
                                       j0 == 0 && a ? a->f[i] : NULL, m, b, c[0], c[1], c[2],
                                       c[3], c[4], yf[0], yf[1], yf[2], yf[3], yf[4]));
            j0 += m;
        } while (j0 < n);
    }
    return GALE_OK;
}
static int lincomb(S *s, const mv_t *x, int n, const double *h, const mv_t *y, const mv_t *w,
                   double b)
{
    const mv_t *yp[2 * MAXK + 1];
    for (int j = 0; j < n; j++) yp[j] = &y[j];
    return lincombp(s, x, n, h, yp, w, b, NULL);
}

static int apply(S *s, const mv_t *x, const mv_t *y)
{
    gale_field_t *const *X = x->f, *const *Y = y->f;
    GALE_CALL(gale_psy_mix_u(s->psy, 1.0, s->tau, X[0], X[3], Y[0]));
    if (s->o.nl)
        return gale_psy_nl_mixcol(s->psy, s->o.nl, 1.0, s->tau, X[0], X[1], X[2], X[3], Y[1],
                                  Y[2], Y[3]);
    GALE_CALL(gale_psy_mix_col(s->psy, 1.0, s->tau, X[0], X[1], X[2], X[3], Y[1], Y[2], Y[3]));
    return GALE_OK;
}

/* z = P r: the lumped system solved by eliminating b, w and u (the
 * Helmholtz problem solved by the [solver] solver from zero), then
 * back-substituted with the time step's own kernels */
static int precond(S *s, const mv_t *r, const mv_t *z)
{
    gale_psy_t *p = s->psy;
    gale_field_t *const *R = r->f, *const *Z = z->f;
    GALE_CALL(gale_psy_schur_u(p, R[0], &s->ru));
    GALE_CALL(gale_psy_schur_col(p, &s->ru, R[1], R[2], R[3], &s->rb, &s->ws, &s->h));
    if (gale_solver_reads_guess(s->helm)) /* from zero */
        GALE_CALL(gale_psy_axpby(p, Z[3], 0.0, &s->h, 0.0, &s->h));
    GALE_CALL(gale_solver_solve(s->helm, &s->h, Z[3]));
    GALE_CALL(gale_psy_grad_h(p, s->tau, &s->ru, Z[3], Z[0]));
    GALE_CALL(gale_psy_col_backsub(p, Z[3], &s->ws, &s->rb, Z[1], Z[2]));
    return GALE_OK;
}

static int converged(S *s, int it, double rnorm, double bnorm)
{
    if (s->o.monitor)
        gale_log(GALE_LOG_INFO, "  mixed %s it %3d  |r| %.6e  |r|/|b| %.6e",
                 gale_mixed_method_name(s->o.method), it, rnorm, bnorm > 0 ? rnorm / bnorm : 0);
    s->st.last_iterations = it;
    s->st.last_rnorm = rnorm;
    s->st.last_bnorm = bnorm;
    return rnorm <= s->o.rtol * bnorm || rnorm <= s->o.atol;
}

/* GCR(k) from zero: x accumulates alpha_j z_j', r = b - L (x - x0). One
 * global sum per iteration: the new image's products with the kept ones
 * (classical Gram-Schmidt), with itself and with r (r is orthogonal to the
 * kept images, so (v_j, r) needs no correction), and, first after a
 * (re)start, the true |r|^2. Within a cycle |v_j'|^2 and |r|^2 follow from
 * these by subtraction; when the Gram-Schmidt subtraction cancels more than
 * three digits (late in a tight solve, the new image nearly in the span of
 * the kept ones) a second sum gives |v_j'|^2 and (v_j', r) exactly, and when
 * the recurred |r| says converged one more sum checks the true |r|.
 *
 * The images v_j are orthogonalised in place (the dots and r need them);
 * the directions z_j are not: z_j' = sum_i T[j][i] z_i (T unit lower
 * triangular, from the Gram-Schmidt coefficients), so x gains
 * sum_i c_i z_i, c_i = sum_j alpha_j T[j][i], in one pass at the end of the
 * cycle instead of one pass over every kept direction per iteration. r and
 * the iterations are those of orthogonalised directions bit for bit; x is
 * the same sum in another order (docs/numerics.md, "The mixed solve"). */
static int gcr(S *s, const mv_t *b, const mv_t *x, int *ok)
{
    const int k = s->o.gcrk;
    const mv_t *r = &s->r;
    double wn[MAXK], d[MAXK + 3], bnorm = 0, rr = 0;
    GALE_CALL(load(s, r, b));
    int it = 0;
    while (it < s->o.max_iterations) {
        double T[MAXK][MAXK], c[MAXK];
        int nz = 0, done = 0;
        for (int j = 0; j < k && it < s->o.max_iterations; j++) {
            const mv_t *z = &s->z[j], *v = &s->v[j];
            GALE_CALL(precond(s, r, z));
            GALE_CALL(apply(s, z, v));
            const mv_t *a[MAXK + 3], *cc[MAXK + 3];
            int n = 0;
            for (int i = 0; i < j; i++) a[n] = v, cc[n++] = &s->v[i];
            a[n] = v, cc[n++] = v;
            a[n] = v, cc[n++] = r;
            if (j == 0) a[n] = r, cc[n++] = r;
            GALE_CALL(dots(s, n, a, cc, d));
            if (j == 0) {
                rr = d[2];
                if (it == 0) bnorm = sqrt(rr);
                if ((*ok = converged(s, it, sqrt(rr), bnorm))) return GALE_OK;
            }
            it++;
            double vv = d[j], vr = d[j + 1], h[MAXK];
            for (int i = 0; i < j; i++) {
                h[i] = d[i] / wn[i];
                vv -= h[i] * d[i];
            }
            for (int i = 0; i < j; i++) { /* z_j' = z_j - sum_m h_m z_m' */
                double t = 0;
                for (int m = i; m < j; m++) t -= h[m] * T[m][i];
                T[j][i] = t;
            }
            T[j][j] = 1.0;
            double alpha;
            if (vv <= 1e-3 * d[j]) { /* the new image's own dots, after Gram-Schmidt */
                GALE_CALL(lincomb(s, v, j, h, s->v, NULL, 0));
                double e[2] = {0, 0};
                GALE_CALL(dots(s, 2, (const mv_t *[]){v, v}, (const mv_t *[]){v, r}, e));
                vv = e[0], vr = e[1];
                if (!(vv > 0)) GALE_ERROR(GALE_ERR_SOLVER, "mixed gcr breakdown at iteration %d", it);
                alpha = vr / vv;
                GALE_CALL(lin(s, r, 1.0, r, -alpha, v));
            } else { /* Gram-Schmidt and the update of r in one pass */
                if (!(vv > 0)) GALE_ERROR(GALE_ERR_SOLVER, "mixed gcr breakdown at iteration %d", it);
                alpha = vr / vv;
                GALE_CALL(lincomb(s, v, j, h, s->v, r, -alpha));
            }
            c[j] = 0;
            for (int i = 0; i <= j; i++) c[i] += alpha * T[j][i];
            nz = j + 1;
            wn[j] = vv;
            rr -= alpha * vr;
            if (converged(s, it, sqrt(rr > 0 ? rr : 0), bnorm)) {
                GALE_CALL(dots(s, 1, (const mv_t *[]){r}, (const mv_t *[]){r}, &rr));
                if ((done = *ok = converged(s, it, sqrt(rr), bnorm))) break;
            }
        }
        for (int i = 0; i < nz; i++) c[i] = -c[i]; /* lincomb subtracts */
        if (nz) GALE_CALL(lincomb(s, x, nz, c, s->z, NULL, 0));
        if (done) return GALE_OK;
    }
    return GALE_OK;
}

/* ---- pipelined_gcr ---- */

/* m = P w and, unless the cycle ends with this update, n = L m: the next
 * update's preconditioner and operator applications, which need only w */
static int ahead(S *s, const mv_t *w, const mv_t *m, const mv_t *n, int last)
{
    GALE_CALL(precond(s, w, m));
    if (!last) GALE_CALL(apply(s, m, n));
    return GALE_OK;
}

/* Whether to make the next update's applications while this update's sum
 * is in flight. They are wasted when this update turns out to be the last
 * (a preconditioner and an operator application, often far more than a
 * sum's wait), so they wait for the sum when the residual, falling by the
 * last update's factor again, would come within `look` ([mixed_solver]
 * lookahead) times the target; look = 0 makes them ahead always. Before a
 * solve's first sum only the previous solve is known: made ahead unless it
 * converged in one update or none. Every rank decides alike (reduced
 * values), and the answers never depend on it (docs/numerics.md). */
static int speculate(int it, int prev, double rr, double rr_prev, double target, double look)
{
    if (look == 0) return 1;
    if (it == 0) return prev != 0 && prev != 1;
    if (!(rr > 0 && rr_prev > 0)) return 0;
    return rr * (rr / rr_prev) > look * look * target * target;
}

/* x += the cycle's gain, sum_l cx[l] over (u, m_0, ..., m_{nd-2}) */
static int gain(S *s, const mv_t *x, int nd, const double *cx)
{
    const mv_t *y[MAXK + 1];
    double h[MAXK + 1];
    for (int l = 0; l < nd; l++) y[l] = l ? &s->z[l - 1] : &s->u, h[l] = -cx[l];
    return nd ? lincombp(s, x, nd, h, y, NULL, 0, NULL) : GALE_OK;
}

/* Pipelined GCR(k) from zero (docs/numerics.md, "The mixed solve"). Besides
 * r it recurs u = P r and w = L u: with P linear, u_{i+1} = u_i - alpha_i q_i
 * and w_{i+1} = w_i - alpha_i z_i, where q_i = P s_i and z_i = L q_i follow
 * from m_i = P w_i and n_i = L m_i by the Gram-Schmidt coefficients that
 * make s_i from w_i. m_i and n_i need only w_i, so they are made while the
 * one sum of update i (gcr's words: w_i's products with the kept s_j,
 * itself and r, and |r|^2 first in a cycle) is in flight. s_i, r and the
 * recurred |r| are gcr's formulas; x and u_{i+1} are kept as coordinates
 * over (u_0, m_0, m_1, ...) and made at the end of the cycle. A restart
 * makes w_0 = L u afresh, so the drift of the recurred w from L u, this
 * method's own rounding, lasts one cycle. */
static int pgcr(S *s, const mv_t *b, const mv_t *x, int *ok)
{
    const int k = s->o.gcrk, maxit = s->o.max_iterations;
    const int prev = s->st.solves ? s->st.last_iterations : -1;
    const mv_t *r = &s->r, *u = &s->u;
    double wn[MAXK], d[MAXK + 3], v[GALE_GSUM_MAX], bnorm = 0, rr = 0, rr_prev = 0;
    int it = 0, fresh = 1;
    *ok = 0;
    GALE_CALL(load(s, r, b));
    while (it < maxit) {
        if (fresh) { /* u = P r, w_0 = L u */
            GALE_CALL(precond(s, r, u));
            GALE_CALL(apply(s, u, &s->v[0]));
            fresh = 0;
        }
        /* coordinates over (u, m_0, ..., m_{k-1}): u_i's, q_j's, p_j's
         * (s_j = L p_j) and x's gain; and z_j's over (n_0, ..., n_j) */
        double cu[MAXK + 1] = {1.0}, cx[MAXK + 1] = {0}, cq[MAXK][MAXK + 1], cp[MAXK][MAXK + 1];
        double cz[MAXK][MAXK];
        int nd = 0, more = 1;
        for (int i = 0; i < k && more; i++) {
            const mv_t *w = &s->v[i], *m = &s->z[i], *n = &s->n[i];
            const int last = i == k - 1;
            const mv_t *a[MAXK + 3], *c[MAXK + 3];
            int na = 0;
            for (int j = 0; j < i; j++) a[na] = w, c[na++] = &s->v[j];
            a[na] = w, c[na++] = w;
            a[na] = w, c[na++] = r;
            if (i == 0) a[na] = r, c[na++] = r;
            gale_psy_sum_t sum;
            GALE_CALL(dots_add(s, &sum, na, a, c));
            GALE_CALL(gale_psy_sum_start(s->gs, &sum));
            const double target = fmax(s->o.rtol * bnorm, s->o.atol);
            int made = it + 1 < maxit && speculate(it, prev, rr, rr_prev, target, s->o.lookahead);
            if (made) GALE_CALL(ahead(s, w, m, n, last));
            GALE_CALL(gale_psy_sum_finish(s->gs, &sum, v));
            dots_out(na, v, d);
            s->st.overlapped_sums += made;
            if (i == 0) {
                rr = d[2];
                if (it == 0) bnorm = sqrt(rr);
                if ((*ok = converged(s, it, sqrt(rr), bnorm))) {
                    s->st.unused_applications += made;
                    return GALE_OK;
                }
            }
            it++;
            double vv = d[i], vr = d[i + 1], h[MAXK], alpha;
            for (int j = 0; j < i; j++) {
                h[j] = d[j] / wn[j];
                vv -= h[j] * d[j];
            }
            const int exact = vv <= 1e-3 * d[i];
            if (exact) { /* as gcr: s_i's own dots. w_i is overwritten: its copy in
                            v[i+1] (there is one past the last) makes w_{i+1} and,
                            while the dots' sum is in flight, the applications */
                if (!made || !last)
                    for (int f = 0; f < 4; f++)
                        GALE_CALL(gale_psy_copy(s->psy, s->v[i + 1].f[f], w->f[f]));
                GALE_CALL(lincomb(s, w, i, h, s->v, NULL, 0));
                gale_psy_sum_t se;
                GALE_CALL(dots_add(s, &se, 2, (const mv_t *[]){w, w}, (const mv_t *[]){w, r}));
                GALE_CALL(gale_psy_sum_start(s->gs, &se));
                if (!made) GALE_CALL(ahead(s, &s->v[i + 1], m, n, last));
                s->st.overlapped_sums += !made;
                made = 1;
                GALE_CALL(gale_psy_sum_finish(s->gs, &se, v));
                double e[2];
                dots_out(2, v, e);
                vv = e[0], vr = e[1];
            }
            if (!(vv > 0))
                GALE_ERROR(GALE_ERR_SOLVER, "mixed pipelined_gcr breakdown at iteration %d", it);
            alpha = vr / vv;
            if (exact) GALE_CALL(lin(s, r, 1.0, r, -alpha, w));
            for (int l = 0; l <= k; l++) {
                double q = l == 1 + i, p = cu[l];
                for (int j = 0; j < i; j++) q -= h[j] * cq[j][l], p -= h[j] * cp[j][l];
                cq[i][l] = q, cp[i][l] = p;
                cx[l] += alpha * p;
                cu[l] -= alpha * q;
            }
            for (int l = 0; l <= i; l++) {
                double z = l == i;
                for (int j = l; j < i; j++) z -= h[j] * cz[j][l];
                cz[i][l] = z;
            }
            nd = i + 1;
            wn[i] = vv;
            rr_prev = rr;
            rr -= alpha * vr;
            const int conv = converged(s, it, sqrt(rr > 0 ? rr : 0), bnorm);
            more = !conv && it < maxit;
            if (more && !made) GALE_CALL(ahead(s, w, m, n, last));
            if (!more) s->st.unused_applications += made;
            if (more && !last) { /* w_{i+1} = w_i - alpha z_i, z_i = sum_l cz_l n_l: one pass */
                double hz[MAXK];
                const mv_t *yn[MAXK];
                for (int l = 0; l <= i; l++) hz[l] = alpha * cz[i][l], yn[l] = &s->n[l];
                GALE_CALL(lincombp(s, &s->v[i + 1], i + 1, hz, yn, NULL, 0, exact ? NULL : w));
            }
            if (!exact) GALE_CALL(lincomb(s, w, i, h, s->v, r, -alpha)); /* s_i and r, as gcr */
            if (conv) { /* the true |r|, its sum overlapping x's update */
                gale_psy_sum_t sr;
                GALE_CALL(dots_add(s, &sr, 1, (const mv_t *[]){r}, (const mv_t *[]){r}));
                GALE_CALL(gale_psy_sum_start(s->gs, &sr));
                GALE_CALL(gain(s, x, nd, cx));
                GALE_CALL(gale_psy_sum_finish(s->gs, &sr, v));
                dots_out(1, v, &rr);
                if ((*ok = converged(s, it, sqrt(rr), bnorm))) return GALE_OK;
                nd = 0;    /* x has its gain */
                fresh = 1; /* go on from the true r, afresh */
            }
        }
        GALE_CALL(gain(s, x, nd, cx));
        if (fresh || it >= maxit) continue;
        /* restart: u = u_k, and w_0 = L u afresh (not recurred) */
        double hu[MAXK];
        for (int l = 0; l < nd; l++) hu[l] = -cu[1 + l];
        GALE_CALL(lincomb(s, u, nd, hu, s->z, NULL, 0));
        GALE_CALL(apply(s, u, &s->v[0]));
    }
    return GALE_OK;
}

int gale_mixed_solve(gale_mixed_t *s, gale_field_t *const r[4], gale_field_t *const x[4])
{
    const long sums0 = s->gs->count;
    const double t0 = s->gs->seconds, w0 = gale_wtime();
    mv_t b, xx;
    memcpy(b.f, r, sizeof b.f);
    memcpy(xx.f, x, sizeof xx.f);
    /* in single precision the solve accumulates its correction in xs (from
     * zero) and x gains it in double at the end */
    const mv_t *xw = s->o.single ? &s->xs : &xx;
    int ok = 1;
    if (s->o.method == GALE_MIXED_PREC_ONLY) {
        /* x += P r, no global sum: neither residual nor convergence is known */
        if (s->o.single) GALE_CALL(load(s, &s->r, &b));
        GALE_CALL(precond(s, s->o.single ? &s->r : &b, &s->z[0]));
        xw = &s->z[0];
        if (!s->o.single) GALE_CALL(lin(s, &xx, 1.0, &xx, 1.0, &s->z[0]));
        s->st.last_iterations = 1;
        s->st.last_rnorm = s->st.last_bnorm = NAN;
    } else {
        if (s->o.single) GALE_CALL(lin(s, xw, 0.0, xw, 0.0, xw));
        if (s->o.method == GALE_MIXED_PIPEGCR)
            GALE_CALL(pgcr(s, &b, xw, &ok));
        else
            GALE_CALL(gcr(s, &b, xw, &ok));
    }
    if (s->o.single) {
        GALE_CALL(load(s, &s->xd, xw));
        GALE_CALL(lin(s, &xx, 1.0, &xx, 1.0, &s->xd));
    }
    s->st.solves++;
    s->st.iterations += s->st.last_iterations;
    s->st.global_sums += s->gs->count - sums0;
    s->st.global_sum_s += s->gs->seconds - t0;
    s->st.seconds += gale_wtime() - w0;
    if (ok) return GALE_OK;
    s->st.converged = 0;
    const double rel = s->st.last_rnorm / (s->st.last_bnorm > 0 ? s->st.last_bnorm : 1);
    if (!s->o.fail_on_non_converged) {
        gale_log(GALE_LOG_WARN, "mixed %s did not converge in %d iterations: |r|/|b| = %.3e",
                 gale_mixed_method_name(s->o.method), s->st.last_iterations, rel);
        return GALE_OK;
    }
    GALE_ERROR(GALE_ERR_SOLVER,
               "the mixed %s(%d) did not converge in %d iterations: |r|/|b| = %.3e > tolerance "
               "%.3e (abs_tolerance %.3e); raise [mixed_solver] max_iterations or the tolerance, "
               "or solve the Helmholtz problem more tightly ([solver] tolerance)",
               gale_mixed_method_name(s->o.method), s->o.gcrk, s->st.last_iterations, rel,
               s->o.rtol, s->o.atol);
}

/* ---- life cycle ---- */

static int weights(S *s)
{
    const gale_kmesh_t *km = gale_psy_kmesh(s->psy);
    const int nc = km->ncell, ne = km->nedge, nl = km->nlev;
    for (int i = 0; i < 4; i++) {
        GALE_ALLOC(s->wc[i], i == 0 ? ne : nc);
        GALE_ALLOC(s->wl[i], nl + 1);
    }
    for (int e = 0; e < ne; e++) s->wc[0][e] = km->erdist[e] / km->elen[e];
    for (int c = 0; c < nc; c++) {
        s->wc[1][c] = 1.0 / km->area[c];
        s->wc[2][c] = km->n2 / km->area[c];
        s->wc[3][c] = km->c2 / km->area[c];
    }
    for (int k = 0; k <= nl; k++) { /* M_lumped per level: dzv, qi dzi (1/dz, 1/dzi when flat) */
        s->wl[1][k] = s->wl[2][k] = km->rdzi[k] / km->qi[k]; /* 0 at the boundaries: not unknowns */
        s->wl[0][k] = s->wl[3][k] = k < nl ? 1.0 / km->dzv[k] : 0.0;
    }
    return GALE_OK;
}

int gale_mixed_create(gale_mixed_t **out, const gale_mixed_opts_t *o, gale_psy_t *psy,
                      gale_gsum_t *gs, gale_solver_t *helm)
{
    S *s = NULL;
    *out = NULL;
    if (o->gcrk < 1 || o->gcrk > MAXK)
        GALE_ERROR(GALE_ERR_INPUT, "[mixed_solver] gcrk = %d: must be between 1 and %d", o->gcrk, MAXK);
    GALE_ALLOC(s, 1);
    *out = s;
    s->o = *o;
    s->psy = psy;
    s->gs = gs;
    s->helm = helm;
    s->st.converged = 1;
    const gale_kmesh_t *km = gale_psy_kmesh(psy);
    const int nl = km->nlev;
    s->tau = km->tau;
    /* prec_only needs one vector for P r; gcr r and k pairs; pipelined_gcr
     * r, u, k + 1 w/s, k m and k - 1 n/z (docs/numerics.md) */
    const int k = o->gcrk;
    /* single precision: prec_only needs r as well, gcr and pipelined_gcr
     * the correction xs; all of them its double copy xd (the last vector) */
    const int one = o->single, es = one ? 4 : 8;
    s->nv = (o->method == GALE_MIXED_PREC_ONLY ? 1
             : o->method == GALE_MIXED_PIPEGCR ? 2 + 3 * k
                                               : 1 + 2 * k) + 2 * one;
    GALE_ALLOC(s->store, 4 * (size_t)s->nv);
    mv_t *vec[4 + 3 * MAXK];
    int n = 0;
    if (o->method == GALE_MIXED_PREC_ONLY) {
        vec[n++] = &s->z[0];
        if (one) vec[n++] = &s->r;
    } else {
        vec[n++] = &s->r;
        for (int j = 0; j < k; j++) vec[n++] = &s->z[j], vec[n++] = &s->v[j];
        if (one) vec[n++] = &s->xs;
    }
    if (o->method == GALE_MIXED_PIPEGCR) {
        vec[n++] = &s->u;
        vec[n++] = &s->v[k];
        for (int j = 0; j < k - 1; j++) vec[n++] = &s->n[j];
    }
    if (one) vec[n++] = &s->xd;
    GALE_ASSERT(n == s->nv);
    static const char *const fn[4] = {"u", "w", "b", "p"};
    for (int j = 0; j < n; j++)
        for (int i = 0; i < 4; i++) {
            char name[32];
            snprintf(name, sizeof name, "mixed%d_%s", j, fn[i]);
            vec[j]->f[i] = &s->store[4 * j + i];
            GALE_CALL(gale_psy_field_create(psy, vec[j]->f[i], name, loc4[i], nl,
                                            vec[j] == &s->xd ? 8 : es));
        }
    GALE_CALL(gale_psy_field_create(psy, &s->ru, "schur_ru", GALE_LOC_EDGE, nl, es));
    GALE_CALL(gale_psy_field_create(psy, &s->rb, "schur_rb", GALE_LOC_IFACE, nl, es));
    GALE_CALL(gale_psy_field_create(psy, &s->ws, "schur_ws", GALE_LOC_IFACE, nl, es));
    GALE_CALL(gale_psy_field_create(psy, &s->h, "schur_h", GALE_LOC_CELL, nl, es));
    GALE_CALL(weights(s));
    return GALE_OK;
}

void gale_mixed_destroy(gale_mixed_t **ps)
{
    S *s = *ps;
    if (!s) return;
    for (int i = 0; i < 4 * s->nv; i++)
        if (s->store[i].data) gale_psy_field_free(&s->store[i]);
    gale_field_t *f[4] = {&s->ru, &s->rb, &s->ws, &s->h};
    for (int i = 0; i < 4; i++)
        if (f[i]->data) gale_psy_field_free(f[i]);
    for (int i = 0; i < 4; i++) {
        gale_free(s->wc[i]);
        gale_free(s->wl[i]);
    }
    gale_free(s->store);
    gale_free(s);
    *ps = NULL;
}

const gale_mixed_stats_t *gale_mixed_stats(const gale_mixed_t *s) { return &s->st; }
