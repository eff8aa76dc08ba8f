/* The nonlinear core's iterated semi-implicit step (docs/nonlinear.md,
 * "The step" and "The code"), over bundles of the state's components (gale_nl_state_t). */
#include "gale_nonlinear.h"

#include "gale_base.h"
#include "gale_model.h"

#include <math.h>

enum { U = GALE_NL_U, W = GALE_NL_W, T = GALE_NL_T, D = GALE_NL_D, P = GALE_NL_P };

/* ---- bundle operations: one launch per component y has, in component order ---- */

/* y = x */
static int bundle_copy(gale_psy_t *psy, const gale_nl_state_t *y, const gale_nl_state_t *x)
{
    for (int c = 0; c < GALE_NL_NCOMP; c++)
        if (y->f[c]) GALE_CALL(gale_psy_copy(psy, y->f[c], x->f[c]));
    return GALE_OK;
}

/* z = a x + b y (GungHo's bundle_axpy, with both weights) */
static int bundle_axpby(gale_psy_t *psy, const gale_nl_state_t *z, double a, const gale_nl_state_t *x,
                        double b, const gale_nl_state_t *y)
{
    for (int c = 0; c < GALE_NL_NCOMP; c++)
        if (z->f[c]) GALE_CALL(gale_psy_axpby(psy, z->f[c], a, x->f[c], b, y->f[c]));
    return GALE_OK;
}

/* ---- transport ---- */

/* The transport tendencies of the advected state's latest stage: rho in
 * flux form, theta and w in advective form (flux form less q div), u by its
 * vertical advection and, in the advective form, by the horizontal
 * advection of its reconstruction's Cartesian components; in the
 * vector-invariant form the horizontal terms are the time-centred
 * forcing's, weak (docs/nonlinear.md). */
static int tendencies(gale_model_t *m, gale_nl_t *s)
{
    gale_psy_t *psy = m->psy;
    gale_transport_t *t = &s->tr;
    gale_field_t *const *xa = s->xa.f, *const *tend = s->tend.f, *wbar = s->ubar.f[W];
    GALE_CALL(gale_transport_tendency(t, psy, xa[D], &s->vflux, wbar, tend[D]));
    /* theta, then w: tq is each one's flux form, which nl_advi makes advective */
    const int q[2] = {T, W};
    for (int i = 0; i < 2; i++) {
        GALE_CALL(gale_transport_tendency(t, psy, xa[q[i]], &s->vflux_i, NULL, &s->tq));
        GALE_CALL(gale_psy_nl_advi(psy, &s->k, xa[q[i]], &s->tq, &s->divi, wbar, tend[q[i]]));
    }
    gale_nl_recon_t *r = &s->ra;
    GALE_CALL(gale_psy_nl_recon(psy, &s->k, xa[U], &r->ue, &r->vn, &r->ke));
    GALE_CALL(gale_psy_nl_mom(psy, &s->k, &r->ue, &r->vn, wbar, tend[U]));
    if (s->vecinv) return GALE_OK;
    gale_field_t *cx = s->cart, *tx = s->tcart;
    GALE_CALL(gale_psy_nl_cart(psy, &s->k, &r->ue, &r->vn, &cx[0], &cx[1], &cx[2]));
    for (int i = 0; i < 3; i++)
        GALE_CALL(gale_transport_tendency(t, psy, &cx[i], &s->vflux, NULL, &tx[i]));
    return gale_psy_nl_madv(psy, &s->k, &cx[0], &cx[1], &cx[2], &tx[0], &tx[1], &tx[2], &s->divc,
                            tend[U]);
}

/* The number of transport substeps over dt: ceil(C / limit), C the
 * advecting wind's largest horizontal Courant number at dt (the explicit
 * scheme's stability limit; LFRic's MoL substeps so). A global max: exact,
 * the same on every rank. */
static int substeps(gale_model_t *m, gale_nl_t *s, double dt, int *n)
{
    *n = 1;
    if (s->transport_courant <= 0.0) return GALE_OK;
    GALE_CALL(gale_psy_nl_cfl(m->psy, dt, s->ubar.f[U], &s->tcfl));
    const gale_field_t *f[1] = {&s->tcfl};
    double c;
    int64_t gid;
    int lev;
    GALE_CALL(gale_psy_check_finite(m->psy, 1, f, &c, &gid, &lev));
    const double q = ceil(c / s->transport_courant);
    if (!(q <= 1000.0))
        GALE_ERROR(GALE_ERR_NUMERIC, "the advecting wind's Courant number %g at dt %g s would take "
                   "%g transport substeps of Courant number %g ([dynamics] transport_courant): "
                   "the wind has blown up, or dt is far too long", c, dt, q, s->transport_courant);
    if (q > 1.0) *n = (int)q;
    return GALE_OK;
}

/* SSP-RK3 (Shu & Osher) of the state at time level n into the advected
 * state over dt with the advecting wind fixed, in n substeps of dt / n:
 * xa = a x0 + (1 - a) (xa + h L(xa)), x0 the substep's start (x^n for the
 * first). */
static int transport(gale_model_t *m, gale_nl_t *s, double dt)
{
    static const double a[3] = {0.0, 0.75, 1.0 / 3.0};
    gale_psy_t *psy = m->psy;
    int n;
    GALE_CALL(substeps(m, s, dt, &n));
    if (n > s->substeps_max) s->substeps_max = n;
    s->substeps += n;
    const double h = dt / n;
    GALE_CALL(bundle_copy(psy, &s->xa, &s->xn));
    for (int j = 0; j < n; j++) {
        const gale_nl_state_t *x0 = &s->xn;
        if (j > 0) {
            GALE_CALL(bundle_copy(psy, &s->xs, &s->xa));
            x0 = &s->xs;
        }
        for (int st = 0; st < 3; st++) {
            /* weights that sum to exactly 1 (1 - b is exact), as the transport's */
            const double b = 1.0 - a[st], aa = 1.0 - b;
            GALE_CALL(tendencies(m, s));
            /* xa = aa x0 + b (xa + h tend), each component in one pass (docs/fusion.md) */
            for (int c = 0; c < GALE_NL_NCOMP; c++) {
                if (!s->xa.f[c]) continue;
                GALE_CALL(gale_psy_fuse_begin(psy, GALE_KG_rk_stage));
                GALE_CALL(gale_psy_axpby(psy, s->xa.f[c], 1.0, s->xa.f[c], h, s->tend.f[c]));
                GALE_CALL(gale_psy_axpby(psy, s->xa.f[c], aa, x0->f[c], b, s->xa.f[c]));
                GALE_CALL(gale_psy_fuse_end(psy));
            }
        }
    }
    return GALE_OK;
}

/* ---- the forcing and the residual ---- */

/* The forcing F of the state (u, w, theta, Pi), weak in u: the pressure
 * gradient less the vorticity force -- in the vector-invariant form also
 * the kinetic-energy gradient, and the absolute vorticity, anticipated; in
 * the advective form f alone (qabs, set once) -- and the grid-mode filter;
 * the vertical forcing in w; in the deep atmosphere both with the
 * cos(lat) Coriolis and metric terms that couple u and w. */
static int forcing(gale_model_t *m, gale_nl_t *s, const gale_nl_state_t *F)
{
    gale_psy_t *psy = m->psy;
    gale_field_t *const *x = s->x.f, *pg = F->f[U];
    gale_nl_recon_t *r = &s->rx, *g = &s->rg;
    if (!s->recon_fresh) { /* else the budget at the end of the last step did it */
        GALE_CALL(gale_psy_nl_recon(psy, &s->k, x[U], &r->ue, &r->vn, &r->ke));
        if (s->vecinv) GALE_CALL(gale_psy_nl_vort(psy, &s->k, &r->ue, &r->vn, &s->zeta));
        s->recon_fresh = 1;
    }
    if (s->vecinv) {
        GALE_CALL(gale_psy_tr_faces(psy, &s->tr.ktr, &s->zeta, &s->zf));
        GALE_CALL(gale_psy_nl_apvm(psy, &s->k, 0.5 * m->dt, &s->zeta, &s->zf, x[U], &s->qabs));
    }
    GALE_CALL(gale_psy_nl_corw(psy, &s->k, &r->ue, &r->vn, &s->qabs, &s->cor));
    GALE_CALL(gale_psy_nl_vforce(psy, &s->k, x[T], x[P], F->f[W]));
    if (s->deep) { /* the full Coriolis vector and the metric terms, u's and w's */
        GALE_CALL(gale_psy_nl_dcor(psy, &s->k, &r->ue, &r->vn, x[W], &s->cor));
        GALE_CALL(gale_psy_nl_dvf(psy, &s->k, &r->ue, &r->vn, F->f[W]));
    }
    GALE_CALL(gale_psy_nl_pgrad(psy, &s->k, x[T], x[P], &r->ke, s->vecinv ? 1.0 : 0.0, pg));
    GALE_CALL(gale_psy_axpby(psy, pg, 1.0, pg, -1.0, &s->cor));
    /* the grid-mode filter, -rate M_u (I - NP)^2 u */
    if (s->grid_rate > 0.0) {
        GALE_CALL(gale_psy_nl_grid(psy, &s->k, x[U], &r->ue, &r->vn, &s->gridu));
        GALE_CALL(gale_psy_nl_recon(psy, &s->k, &s->gridu, &g->ue, &g->vn, &g->ke));
        GALE_CALL(gale_psy_nl_grid(psy, &s->k, &s->gridu, &g->ue, &g->vn, &s->gridu2));
        GALE_CALL(gale_psy_mix_u(psy, 1.0, 0.0, &s->gridu2, NULL, &s->gridm));
        GALE_CALL(gale_psy_axpby(psy, pg, 1.0, pg, s->grid_rate, &s->gridm));
    }
    return GALE_OK;
}

/* The residual of the latest estimate against the advected state and the
 * time-centred forcing, as the mixed system's right-hand side. The first
 * estimate of a step is the step's start state (the transport moves copies
 * of it): its Pi and forcing are the start's, bit for bit, and are reused. */
static int residual(gale_model_t *m, gale_nl_t *s, int first)
{
    gale_psy_t *psy = m->psy;
    const double dt = m->dt, al = m->cfg.timestepping.alpha;
    const gale_nl_state_t *F = &s->fn;
    if (!first) {
        F = &s->fl;
        GALE_CALL(forcing(m, s, F));
    }
    /* Pi is GungHo's prognostic exner: the equation of state is a residual */
    GALE_CALL(gale_psy_nl_eos(psy, &s->k, s->x.f[D], s->x.f[T], &s->pe));
    gale_field_t *const *R = s->res.f, *const *Fn = s->fn.f;
    GALE_CALL(bundle_axpby(psy, &s->res, 1.0, &s->x, -1.0, &s->xa)); /* R = x - xa */
    /* u's, weak: M_u R_u + dt (alpha F + (1 - alpha) F^n), the right-hand side's sign */
    GALE_CALL(gale_psy_fuse_begin(psy, GALE_KG_resid_u)); /* one pass (docs/fusion.md) */
    GALE_CALL(gale_psy_mix_u(psy, 1.0, 0.0, R[U], NULL, &s->resu_w));
    GALE_CALL(gale_psy_axpby(psy, &s->resu_w, 1.0, &s->resu_w, dt * al, F->f[U]));
    GALE_CALL(gale_psy_axpby(psy, s->rhs.f[U], -1.0, &s->resu_w, -dt * (1.0 - al), Fn[U]));
    GALE_CALL(gale_psy_fuse_end(psy));
    /* w's: R_w + dt (alpha F + (1 - alpha) F^n) */
    GALE_CALL(gale_psy_axpby(psy, R[W], 1.0, R[W], dt * al, F->f[W]));
    GALE_CALL(gale_psy_axpby(psy, R[W], 1.0, R[W], dt * (1.0 - al), Fn[W]));
    /* theta's and rho's: the transport's linear response to the wind's change since it ran */
    GALE_CALL(bundle_axpby(psy, &s->dwind, 1.0, &s->x, -1.0, &s->xo));
    GALE_CALL(gale_psy_nl_tlin(psy, &s->k, al * dt, s->dwind.f[U], s->dwind.f[W], R[T], R[D]));
    return gale_psy_nl_rhs(psy, &s->k, R[W], R[T], R[D], s->x.f[P], &s->pe, s->rhs.f[W],
                           s->rhs.f[T], s->rhs.f[P]);
}

/* ---- the step ---- */

/* The mixed solve of inc from rhs (u, w, theta, Pi), from a zero first guess. */
static int solve(gale_model_t *m, gale_nl_t *s)
{
    gale_field_t *const *r = s->rhs.f, *const *x = s->inc.f;
    GALE_CALL(bundle_axpby(m->psy, &s->inc, 0.0, &s->rhs, 0.0, &s->rhs));
    gale_field_t *rm[4] = {r[U], r[W], r[T], r[P]}, *xm[4] = {x[U], x[W], x[T], x[P]};
    return gale_mixed_solve(m->mixed, rm, xm);
}

/* x += inc: u directly; w, theta and rho through the rows the mixed system
 * eliminated (gale_knl.h), from the increments and the residuals. */
static int increment(gale_model_t *m, gale_nl_t *s)
{
    gale_field_t *const *x = s->x.f, *const *dx = s->inc.f, *const *R = s->res.f;
    GALE_CALL(gale_psy_axpby(m->psy, x[U], 1.0, x[U], 1.0, dx[U]));
    s->recon_fresh = 0;
    GALE_CALL(gale_psy_nl_pinc(m->psy, &s->k, dx[P], x[P]));
    return gale_psy_nl_update(m->psy, &s->k, m->cfg.timestepping.alpha * m->dt, dx[U], dx[W], dx[T],
                              R[T], R[D], x[W], x[T], x[D]);
}

int gale_nl_step(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
    gale_psy_t *psy = m->psy;
    const gale_config_t *cfg = &m->cfg;
    if (m->time >= s->next_reset) { /* LFRic's reference_reset_time; its sums overlap
                                        the forcing and the first transport */
        GALE_CALL(gale_nl_reference_start(m));
        while (s->next_reset <= m->time) s->next_reset += cfg->timestepping.reference_reset_time;
    }
    /* the state at time level n and its forcing */
    GALE_CALL(bundle_copy(psy, &s->xn, &s->x));
    GALE_CALL(forcing(m, s, &s->fn));
    for (int o = 0; o < cfg->timestepping.outer_iterations; o++) {
        /* transport of x^n with the latest estimate of the time-centred wind */
        GALE_CALL(bundle_axpby(psy, &s->ubar, 0.5, &s->xn, 0.5, &s->x));
        GALE_CALL(gale_psy_nl_fluxes(psy, &s->k, s->ubar.f[U], &s->vflux, &s->vflux_i));
        GALE_CALL(gale_psy_tr_tend(psy, &s->tr.ktr, &s->vflux_i, NULL, &s->divi));
        if (!s->vecinv) GALE_CALL(gale_psy_tr_tend(psy, &s->tr.ktr, &s->vflux, NULL, &s->divc));
        GALE_CALL(transport(m, s, m->dt));
        GALE_CALL(bundle_copy(psy, &s->xo, &s->x)); /* the wind it saw */
        GALE_CALL(gale_nl_reference_finish(m)); /* the residual reads its rows */
        for (int i = 0; i < cfg->timestepping.inner_iterations; i++) {
            GALE_CALL(residual(m, s, o == 0 && i == 0));
            GALE_CALL(solve(m, s));
            GALE_CALL(increment(m, s));
        }
    }
    return GALE_OK;
}
