/* The nonlinear core's iterated semi-implicit step (docs/nonlinear.md,
 * "The step"). */
#include "gale_nonlinear.h"

#include "gale_base.h"
#include "gale_model.h"

/* The transport tendencies of the latest stage values (ua, wa, tha, rhoa):
 * rho in flux form, theta and w in advective form (flux form less q div),
 * u by its vertical advection; the horizontal vector-invariant terms are
 * the time-centred forcing's, weak (docs/nonlinear.md). */
static int tendencies(gale_model_t *m, gale_nl_t *s)
{
    gale_psy_t *psy = m->psy;
    gale_transport_t *t = &s->tr;
    const gale_ktr_t *k = &t->ktr;
    GALE_CALL(gale_psy_tr_faces(psy, k, &s->rhoa, &t->qf));
    GALE_CALL(gale_psy_tr_hflux(psy, k, &s->f, &t->qf, &t->fq));
    GALE_CALL(gale_psy_tr_vflux(psy, k, &s->rhoa, &s->wbar, &t->wq));
    GALE_CALL(gale_psy_tr_tend(psy, k, &t->fq, &t->wq, &s->trho));
    gale_field_t *q[2] = {&s->tha, &s->wa}, *out[2] = {&s->tth, &s->tw};
    for (int i = 0; i < 2; i++) {
        GALE_CALL(gale_psy_tr_faces(psy, k, q[i], &t->qf));
        GALE_CALL(gale_psy_tr_hflux(psy, k, &s->fi, &t->qf, &t->fqi));
        GALE_CALL(gale_psy_tr_tend(psy, k, &t->fqi, NULL, &s->tq));
        GALE_CALL(gale_psy_nl_advi(psy, &s->k, q[i], &s->tq, &s->t1, &s->wbar, out[i]));
    }
    GALE_CALL(gale_psy_nl_recon(psy, &s->k, &s->ua, &s->ue, &s->vn, &s->ke));
    GALE_CALL(gale_psy_nl_mom(psy, &s->k, &s->ue, &s->vn, &s->wbar, &s->tu));
    return GALE_OK;
}

/* SSP-RK3 (Shu & Osher) of the four transported fields from time level n
 * over dt with the advecting wind fixed: x = a x^n + (1 - a) (x + dt L(x)). */
static int transport(gale_model_t *m, gale_nl_t *s, double dt)
{
    static const double a[3] = {0.0, 0.75, 1.0 / 3.0};
    gale_psy_t *psy = m->psy;
    gale_field_t *x[4] = {&s->ua, &s->wa, &s->tha, &s->rhoa};
    gale_field_t *x0[4] = {&s->un, &s->wn, &s->thn, &s->rhon};
    gale_field_t *tn[4] = {&s->tu, &s->tw, &s->tth, &s->trho};
    for (int i = 0; i < 4; i++) GALE_CALL(gale_psy_copy(psy, x[i], x0[i]));
    for (int st = 0; st < 3; st++) {
        /* weights that sum to exactly 1 (1 - b is exact), as the transport's */
        const double b = 1.0 - a[st], aa = 1.0 - b;
        GALE_CALL(tendencies(m, s));
        for (int i = 0; i < 4; i++) {
            GALE_CALL(gale_psy_axpby(psy, x[i], 1.0, x[i], dt, tn[i]));
            GALE_CALL(gale_psy_axpby(psy, x[i], aa, x0[i], b, x[i]));
        }
    }
    return GALE_OK;
}

/* The forcing of the state (u, theta = m->b, Pi = m->p), weak: the
 * pressure and kinetic-energy gradients less the vorticity force (absolute
 * vorticity) into pg; the vertical forcing into fv. */
static int forcing(gale_model_t *m, gale_nl_t *s, gale_field_t *pg, gale_field_t *fv)
{
    gale_psy_t *psy = m->psy;
    /* the budget at the end of the last step reconstructed this u already */
    if (!s->recon_fresh) {
        GALE_CALL(gale_psy_nl_recon(psy, &s->k, &m->u, &s->ue, &s->vn, &s->ke));
        GALE_CALL(gale_psy_nl_vort(psy, &s->k, &s->ue, &s->vn, &s->zeta));
    }
    s->recon_fresh = 0; /* the filter below and the transport overwrite them */
    GALE_CALL(gale_psy_tr_faces(psy, &s->tr.ktr, &s->zeta, &s->tr.qf));
    GALE_CALL(gale_psy_nl_apvm(psy, &s->k, 0.5 * m->dt, &s->zeta, &s->tr.qf, &m->u, &s->qabs));
    GALE_CALL(gale_psy_nl_corw(psy, &s->k, &s->ue, &s->vn, &s->qabs, &s->cor));
    GALE_CALL(gale_psy_nl_pgrad(psy, &s->k, &m->b, &m->p, &s->ke, pg));
    GALE_CALL(gale_psy_axpby(psy, pg, 1.0, pg, -1.0, &s->cor));
    /* the grid-mode filter, -rate M_u (I - NP)^2 u; du, ue, vn, ke, cor, Ru are
     * its scratch: every later reader of them recomputes them first */
    if (s->grid_rate > 0.0) {
        GALE_CALL(gale_psy_nl_grid(psy, &s->k, &m->u, &s->ue, &s->vn, &s->du));
        GALE_CALL(gale_psy_nl_recon(psy, &s->k, &s->du, &s->ue, &s->vn, &s->ke));
        GALE_CALL(gale_psy_nl_grid(psy, &s->k, &s->du, &s->ue, &s->vn, &s->cor));
        GALE_CALL(gale_psy_mix_u(psy, 1.0, 0.0, &s->cor, NULL, &s->Ru));
        GALE_CALL(gale_psy_axpby(psy, pg, 1.0, pg, s->grid_rate, &s->Ru));
    }
    return gale_psy_nl_vforce(psy, &s->k, &m->b, &m->p, fv);
}

/* The residuals of the latest estimate against the transported values and
 * the time-centred forcing, as the mixed system's right-hand side. The first
 * estimate of a step is the step's start state (the transport moves copies
 * of it): its Pi and forcing are the start's, bit for bit, and are reused. */
static int residual(gale_model_t *m, gale_nl_t *s, int first)
{
    gale_psy_t *psy = m->psy;
    const double dt = m->dt, al = m->cfg.timestepping.alpha;
    gale_field_t *pg = &s->pgn, *fv = &s->fvn;
    if (!first) {
        pg = &s->pg, fv = &s->fv;
        GALE_CALL(gale_psy_nl_eos(psy, &s->k, &s->rho, &m->b, &m->p));
        GALE_CALL(forcing(m, s, pg, fv));
    }
    /* Ru = M_u (u - ua) + dt (alpha pg + (1 - alpha) pg^n), weak; pg holds the
     * pressure and K gradients less the vorticity force */
    GALE_CALL(gale_psy_axpby(psy, &s->du, 1.0, &m->u, -1.0, &s->ua));
    GALE_CALL(gale_psy_mix_u(psy, 1.0, 0.0, &s->du, NULL, &s->Ru));
    GALE_CALL(gale_psy_axpby(psy, &s->Ru, 1.0, &s->Ru, dt * al, pg));
    GALE_CALL(gale_psy_axpby(psy, &s->ru, -1.0, &s->Ru, -dt * (1.0 - al), &s->pgn));
    /* Rw = (w - wa) + dt (alpha fv + (1 - alpha) fv^n) */
    GALE_CALL(gale_psy_axpby(psy, &s->Rw, 1.0, &m->w, -1.0, &s->wa));
    GALE_CALL(gale_psy_axpby(psy, &s->Rw, 1.0, &s->Rw, dt * al, fv));
    GALE_CALL(gale_psy_axpby(psy, &s->Rw, 1.0, &s->Rw, dt * (1.0 - al), &s->fvn));
    GALE_CALL(gale_psy_axpby(psy, &s->Rth, 1.0, &m->b, -1.0, &s->tha));
    GALE_CALL(gale_psy_axpby(psy, &s->Rrho, 1.0, &s->rho, -1.0, &s->rhoa));
    /* the transport's linear response to the wind's change since it ran */
    GALE_CALL(gale_psy_axpby(psy, &s->du, 1.0, &m->u, -1.0, &s->uo));
    GALE_CALL(gale_psy_axpby(psy, &s->dw, 1.0, &m->w, -1.0, &s->wo));
    GALE_CALL(gale_psy_nl_tlin(psy, &s->k, m->cfg.timestepping.alpha * dt, &s->du, &s->dw,
                               &s->Rth, &s->Rrho));
    return gale_psy_nl_rhs(psy, &s->k, &s->Rw, &s->Rth, &s->Rrho, &s->rw, &s->rb, &s->rp);
}

int gale_nl_step(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
    gale_psy_t *psy = m->psy;
    const gale_config_t *cfg = &m->cfg;
    const double dt = m->dt, tau = cfg->timestepping.alpha * dt;
    if (m->time >= s->next_reset) { /* LFRic's reference_reset_time */
        GALE_CALL(gale_nl_reference(m));
        while (s->next_reset <= m->time) s->next_reset += cfg->timestepping.reference_reset_time;
    }
    gale_field_t *now[4] = {&m->u, &m->w, &m->b, &s->rho}, *old[4] = {&s->un, &s->wn, &s->thn, &s->rhon};
    for (int i = 0; i < 4; i++) GALE_CALL(gale_psy_copy(psy, old[i], now[i]));
    GALE_CALL(forcing(m, s, &s->pgn, &s->fvn));
    gale_field_t *r[4] = {&s->ru, &s->rw, &s->rb, &s->rp}, *x[4] = {&s->du, &s->dw, &s->db, &s->dp};
    for (int o = 0; o < cfg->timestepping.outer_iterations; o++) {
        /* the latest estimate of the time-centred wind, and its fluxes */
        GALE_CALL(gale_psy_axpby(psy, &s->ubar, 0.5, &s->un, 0.5, &m->u));
        GALE_CALL(gale_psy_axpby(psy, &s->wbar, 0.5, &s->wn, 0.5, &m->w));
        GALE_CALL(gale_psy_nl_fluxes(psy, &s->k, &s->ubar, &s->f, &s->fi));
        GALE_CALL(gale_psy_tr_tend(psy, &s->tr.ktr, &s->fi, NULL, &s->t1));
        GALE_CALL(transport(m, s, dt));
        GALE_CALL(gale_psy_copy(psy, &s->uo, &m->u));
        GALE_CALL(gale_psy_copy(psy, &s->wo, &m->w));
        for (int i = 0; i < cfg->timestepping.inner_iterations; i++) {
            GALE_CALL(residual(m, s, o == 0 && i == 0));
            for (int j = 0; j < 4; j++) GALE_CALL(gale_psy_axpby(psy, x[j], 0.0, r[j], 0.0, r[j]));
            GALE_CALL(gale_mixed_solve(m->mixed, r, x));
            GALE_CALL(gale_psy_axpby(psy, &m->u, 1.0, &m->u, 1.0, &s->du));
            GALE_CALL(gale_psy_nl_update(psy, &s->k, tau, &s->du, &s->dw, &s->db, &s->Rth,
                                         &s->Rrho, &m->w, &m->b, &s->rho));
        }
    }
    return gale_psy_nl_eos(psy, &s->k, &s->rho, &m->b, &m->p);
}
