/* The nonlinear core (docs/nonlinear.md): the reference state, the
 * iterated semi-implicit step and the budgets. */
#include "gale_nonlinear.h"

#include "gale_base.h"
#include "gale_cases.h"
#include "gale_model.h"

#include <math.h>
#include <string.h>

/* ---- the reference state ---- */

static double cv_of(const gale_config_t *c) { return c->planet.cp - c->planet.rd; }

void gale_nl_constants(const gale_config_t *cfg, double *c2, double *n2)
{
    const double g = cfg->planet.gravity, cp = cfg->planet.cp, gam = cp / cv_of(cfg);
    double T = cfg->initial.theta0;
    *n2 = cfg->physics.bvf_square;
    if (cfg->initial.kase == GALE_CASE_RESTING && cfg->initial.profile == GALE_PROFILE_ISOTHERMAL)
        *n2 = g * g / (cp * T);
    if (cfg->initial.kase == GALE_CASE_BAROCLINIC_WAVE) { /* T0 and its lapse rate */
        T = 275.0;
        *n2 = g / T * (g / cp - 0.005);
    }
    *c2 = gam * cfg->planet.rd * T;
}

/* The reference profile: the horizontal mean of theta and of Pi in the
 * lowest layer, Pi* above it in discrete hydrostatic balance with theta*,
 * rho* from the equation of state; then the operator's rows (gale_knl.h).
 * One global sum (per 46 levels). */
static int set_reference(gale_model_t *m, gale_nl_t *s)
{
    const gale_config_t *cfg = &m->cfg;
    const int nl = m->km.nlev, si = m->km.si, c0 = gale_psy_owned(m->psy, GALE_LOC_CELL);
    const double cp = cfg->planet.cp, g = cfg->planet.gravity, rd = cfg->planet.rd;
    const double kap = s->k.kap, p0 = cfg->planet.p_zero;
    GALE_CALL(gale_psy_to_host(&m->b));
    GALE_CALL(gale_psy_to_host(&m->p));
    const double *th = gale_fd(&m->b), *pi = gale_fd(&m->p);
    double *mean = NULL;
    GALE_ALLOC(mean, nl + 3);
    /* values 0..nl: theta, nl + 1: Pi_0, nl + 2: the area */
    for (int v0 = 0; v0 < nl + 3; v0 += GALE_GSUM_MAX) {
        const int nv = nl + 3 - v0 < GALE_GSUM_MAX ? nl + 3 - v0 : GALE_GSUM_MAX;
        gale_psy_sum_t sum;
        gale_psy_sum_init(&sum);
        gale_rsum_t *acc[GALE_GSUM_MAX];
        for (int i = 0; i < nv; i++) acc[i] = gale_psy_sum_term(&sum);
        for (int c = 0; c < c0; c++)
            for (int i = 0; i < nv; i++) {
                const int v = v0 + i;
                const double a = m->area[c];
                gale_rsum_add(acc[i], v <= nl ? a * th[(size_t)c * si + v]
                                      : v == nl + 1 ? a * pi[(size_t)c * m->km.sc] : a);
            }
        GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, mean + v0));
    }
    const double area = mean[nl + 2];
    double *thr = s->thref, *pir = s->piref;
    for (int k = 0; k <= nl; k++) thr[k] = mean[k] / area;
    pir[0] = mean[nl + 1] / area;
    gale_free(mean);
    for (int k = 1; k < nl; k++) pir[k] = pir[k - 1] - g * m->dzi[k] / (cp * thr[k]);
    double *P = s->prof;
#define ROW(r) (P + (size_t)(r) * si)
    memset(P, 0, sizeof(double) * GALE_NLP_N * (size_t)si);
    double rhoc[4096 + 1], thc[4096 + 1], dth[4096 + 2];
    GALE_ASSERT(nl <= 4096);
    for (int k = 0; k < nl; k++) {
        thc[k] = 0.5 * (thr[k] + thr[k + 1]);
        rhoc[k] = p0 * pow(pir[k], 1.0 / kap) / (rd * thc[k]);
    }
    for (int k = 0; k <= nl; k++) {
        const int kl = k > 0 ? k - 1 : 0, ku = k < nl ? k + 1 : nl;
        dth[k] = (thr[ku] - thr[kl]) / (m->z_if[ku] - m->z_if[kl]);
        ROW(GALE_NLP_THI)[k] = thr[k];
        ROW(GALE_NLP_N2R)[k] = g * dth[k] / thr[k] / s->k.n2r;
        ROW(GALE_NLP_RB)[k] = g / (thr[k] * s->k.n2r);
        ROW(GALE_NLP_DTH)[k] = k > 0 && k < nl ? dth[k] : 0.0;
    }
    for (int k = 1; k < nl; k++) {
        ROW(GALE_NLP_GZA)[k] = thr[k] / thc[k];
        ROW(GALE_NLP_GZB)[k] = thr[k] / thc[k - 1];
        ROW(GALE_NLP_BETA)[k] = -cp * thr[k] * (pir[k] - pir[k - 1]) * m->rdzi[k] / g;
        ROW(GALE_NLP_RHOI)[k] = 0.5 * (rhoc[k - 1] + rhoc[k]);
    }
    for (int k = 0; k < nl; k++) {
        const double c2 = cp * (rd / (cp - rd)) * thc[k] * pir[k];
        ROW(GALE_NLP_RC2)[k] = 1.0 / c2;
        ROW(GALE_NLP_WLO)[k] = -ROW(GALE_NLP_RHOI)[k] / (rhoc[k] * m->dz[k]) + dth[k] / (2.0 * thc[k]);
        ROW(GALE_NLP_WHI)[k] = ROW(GALE_NLP_RHOI)[k + 1] / (rhoc[k] * m->dz[k]) + dth[k + 1] / (2.0 * thc[k]);
        ROW(GALE_NLP_RRHO)[k] = 1.0 / rhoc[k];
        ROW(GALE_NLP_TC2)[k] = 1.0 / (2.0 * thc[k]);
        ROW(GALE_NLP_RHOC)[k] = rhoc[k];
    }
#undef ROW
    s->resets++;
    return gale_knl_set_profile(&s->k);
}

/* Every local column: theta at interfaces (background + perturbation), Pi
 * of the background in discrete hydrostatic balance from the lowest layer's
 * analytic value, rho from the equation of state with the perturbed theta
 * (DCMIP: the pressure is not perturbed), u the normal wind on edges. */
static int initial_state(gale_model_t *m, gale_nl_t *s)
{
    const gale_config_t *cfg = &m->cfg;
    const int nc = gale_psy_local(m->psy, GALE_LOC_CELL), ne = gale_psy_local(m->psy, GALE_LOC_EDGE);
    const int nl = m->km.nlev, sc = m->km.sc, si = m->km.si;
    const double g = cfg->planet.gravity, cp = cfg->planet.cp, rd = cfg->planet.rd;
    const double p0 = cfg->planet.p_zero, kap = s->k.kap;
    double *th = gale_fd(&m->b), *pi = gale_fd(&m->p), *rho = gale_fd(&s->rho), *u = gale_fd(&m->u);
    double *thb = NULL;
    GALE_ALLOC(thb, nl + 1);
    for (int c = 0; c < nc; c++) {
        const double lon = m->lon[c], lat = m->lat[c];
        double *tc = th + (size_t)c * si, *pc = pi + (size_t)c * sc, *rc = rho + (size_t)c * sc;
        double ex, ue, vn;
        for (int k = 0; k <= nl; k++) {
            gale_case_background(cfg, m->cs.radius, lon, lat, m->z_if[k], &thb[k], &ex, &ue, &vn);
            tc[k] = thb[k] + gale_case_theta_perturbation(cfg, m->cs.radius, lon, lat, m->z_if[k]);
        }
        double t0;
        gale_case_background(cfg, m->cs.radius, lon, lat, m->z_c[0], &t0, &pc[0], &ue, &vn);
        for (int k = 1; k < nl; k++) pc[k] = pc[k - 1] - g * m->dzi[k] / (cp * thb[k]);
        for (int k = 0; k < nl; k++)
            rc[k] = p0 * pow(pc[k], 1.0 / kap) / (rd * (0.5 * (tc[k] + tc[k + 1])));
    }
    gale_free(thb);
    for (int e = 0; e < ne; e++) {
        gale_edge_geom_t eg;
        gale_cs_edge_geom(&m->cs, m->lm.edge_gid[e], &eg);
        double E[3], N[3], lon, lat;
        gale_east_north(eg.mid, E, N);
        gale_lonlat(eg.mid, &lon, &lat);
        const double ne_ = gale_dot3(eg.normal, E), nn = gale_dot3(eg.normal, N);
        for (int k = 0; k < nl; k++) {
            double t, ex, ue, vn, pu, pv;
            gale_case_background(cfg, m->cs.radius, lon, lat, m->z_c[k], &t, &ex, &ue, &vn);
            gale_case_wind_perturbation(cfg, lon, lat, m->z_c[k], &pu, &pv);
            u[(size_t)e * sc + k] = (ue + pu) * ne_ + (vn + pv) * nn;
        }
    }
    gale_field_t *f[4] = {&m->u, &m->b, &m->p, &s->rho};
    for (int i = 0; i < 4; i++) GALE_CALL(gale_psy_host_wrote(m->psy, f[i], 1));
    GALE_CALL(gale_psy_host_wrote(m->psy, &m->w, 1)); /* zero */
    /* Pi from the equation of state, as every step leaves it */
    return gale_psy_nl_eos(m->psy, &s->k, &s->rho, &m->b, &m->p);
}

/* ---- set-up ---- */

static int fld(gale_model_t *m, gale_field_t *f, const char *name, gale_loc_t loc, int layers)
{
    return gale_psy_field_create(m->psy, f, name, loc, layers, 8);
}

int gale_nl_setup(gale_model_t *m)
{
    const gale_config_t *cfg = &m->cfg;
    const int kase = cfg->initial.kase;
    if (kase != GALE_CASE_RESTING && kase != GALE_CASE_DCMIP31 && kase != GALE_CASE_BAROCLINIC_WAVE)
        GALE_ERROR(GALE_ERR_INPUT, "[dynamics] equations = nonlinear runs case resting, dcmip31 or "
                   "baroclinic_wave, not %s (the linear core runs the others)",
                   gale_config_choice("initial", "case", kase));
    if (kase == GALE_CASE_BAROCLINIC_WAVE && cfg->planet.scaling != 1.0)
        GALE_ERROR(GALE_ERR_INPUT, "case baroclinic_wave is on the full planet: set [planet] scaling "
                   "= 1 (got %g)", cfg->planet.scaling);
    if (!m->consistent)
        GALE_ERROR(GALE_ERR_INPUT, "[dynamics] equations = nonlinear solves the mixed system: set "
                   "[dynamics] mass_matrix = consistent");
    if (m->cs.n < 2)
        GALE_ERROR(GALE_ERR_INPUT, "the nonlinear core needs a mesh of at least C2 (got C%d)", m->cs.n);
    gale_nl_t *s = NULL;
    GALE_ALLOC(s, 1);
    m->nl = s;
    const int nl = m->km.nlev, si = m->km.si, sc = m->km.sc;
    gale_knl_t *k = &s->k;
    k->cp = cfg->planet.cp, k->rd = cfg->planet.rd, k->p0 = cfg->planet.p_zero;
    k->kap = cfg->planet.rd / cv_of(cfg), k->g = cfg->planet.gravity, k->n2r = m->km.n2;
    k->ncell = gale_psy_local(m->psy, GALE_LOC_CELL), k->nedge = gale_psy_local(m->psy, GALE_LOC_EDGE);
    k->nlev = nl, k->sc = sc, k->si = si;
    GALE_CALL(gale_vecinv_build(&m->cs, &m->lm, m->cell_sign, k->ncell, k->nedge,
                                gale_psy_stencil_cells(m->psy), cfg->planet.omega, &s->geo));
    GALE_ALLOC(s->prof, GALE_NLP_N * (size_t)si);
    GALE_ALLOC(s->rd2i, si);
    GALE_ALLOC(s->rd2c, sc);
    GALE_ALLOC(s->thref, si);
    GALE_ALLOC(s->piref, sc);
    for (int i = 1; i < nl; i++) s->rd2i[i] = 1.0 / (m->dz[i - 1] + m->dz[i]);
    for (int i = 0; i < nl; i++) {
        const int kl = i > 0 ? i - 1 : 0, ku = i < nl - 1 ? i + 1 : nl - 1;
        s->rd2c[i] = ku > kl ? 1.0 / (m->z_c[ku] - m->z_c[kl]) : 0.0;
    }
    k->prof = s->prof, k->fcor = s->geo.fcor, k->prc = s->geo.prc, k->nrm = s->geo.nrm;
    k->tng = s->geo.tng, k->vidx = s->geo.vidx, k->vw = s->geo.vw, k->rd2i = s->rd2i, k->rd2c = s->rd2c;
    GALE_CALL(gale_knl_init(k));
    /* unlimited: a limiter switching on the background's extrema made
     * dcmip31's small-amplitude response 1% nonlinear (docs/nonlinear.md) */
    GALE_CALL(gale_transport_stencils(&s->tr, m, 0));
    const gale_loc_t C = GALE_LOC_CELL, I = GALE_LOC_IFACE, E = GALE_LOC_EDGE;
    struct { gale_field_t *f; const char *name; gale_loc_t loc; int layers; } fl[] = {
        {&s->rho, "rho", C, nl},     {&s->un, "nl_un", E, nl},       {&s->wn, "nl_wn", I, nl},
        {&s->thn, "nl_thn", I, nl},  {&s->rhon, "nl_rhon", C, nl},   {&s->ua, "nl_ua", E, nl},
        {&s->wa, "nl_wa", I, nl},    {&s->tha, "nl_tha", I, nl},     {&s->rhoa, "nl_rhoa", C, nl},
        {&s->ubar, "nl_ubar", E, nl}, {&s->wbar, "nl_wbar", I, nl},  {&s->uo, "nl_uo", E, nl},
        {&s->wo, "nl_wo", I, nl},  {&s->f, "nl_f", E, nl},
        {&s->fi, "nl_fi", E, nl + 1}, {&s->t1, "nl_t1", I, nl},      {&s->tu, "nl_tu", E, nl},
        {&s->tw, "nl_tw", I, nl},    {&s->tth, "nl_tth", I, nl},     {&s->trho, "nl_trho", C, nl},
        {&s->tq, "nl_tq", I, nl},    {&s->ue, "nl_ue", C, nl},       {&s->vn, "nl_vn", C, nl},
        {&s->ke, "nl_ke", C, nl},    {&s->zeta, "nl_zeta", C, nl},   {&s->qabs, "nl_q", C, nl},   {&s->pgn, "nl_pgn", E, nl},
        {&s->fvn, "nl_fvn", I, nl},  {&s->pg, "nl_pg", E, nl},       {&s->cor, "nl_cor", E, nl},
        {&s->fv, "nl_fv", I, nl},
        {&s->Ru, "nl_Ru", E, nl},    {&s->Rw, "nl_Rw", I, nl},       {&s->Rth, "nl_Rth", I, nl},
        {&s->Rrho, "nl_Rrho", C, nl}, {&s->ru, "nl_ru", E, nl},      {&s->rw, "nl_rw", I, nl},
        {&s->rb, "nl_rb", I, nl},    {&s->rp, "nl_rp", C, nl},       {&s->du, "nl_du", E, nl},
        {&s->dw, "nl_dw", I, nl},    {&s->db, "nl_db", I, nl},       {&s->dp, "nl_dp", C, nl},
        {&s->be, "nl_energy", C, 2 * sc}, {&s->bent, "nl_entropy", C, nl}, {&s->bps, "nl_ps", C, 1},
        {&s->bps0, "nl_ps0", C, 1}, {&s->bdps, "nl_dps", C, 1},    {&s->one, "nl_one", C, nl},
        {&s->one2, "nl_one2", C, 2 * sc},
    };
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
        GALE_CALL(fld(m, fl[i].f, fl[i].name, fl[i].loc, fl[i].layers));
    GALE_CALL(initial_state(m, s));
    GALE_CALL(set_reference(m, s));
    /* per step, so that it scales with the grid as the wind's own rate u / dx does (dt ~ dx) */
    s->grid_rate = cfg->dynamics.grid_damping / m->dt;
    s->next_reset = cfg->timestepping.reference_reset_time > 0 ? cfg->timestepping.reference_reset_time
                                                               : INFINITY;
    GALE_CALL(gale_nl_budget(m, &s->b0));
    s->b = s->b0;
    GALE_ALLOC(s->hist, GALE_NL_NHIST * ((size_t)m->steps + 1));
    gale_nl_record(m);
    return GALE_OK;
}

void gale_nl_free(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
    if (!s) return;
    gale_field_t *f[] = {&s->rho, &s->un, &s->wn, &s->thn, &s->rhon, &s->ua, &s->wa, &s->tha,
                         &s->rhoa, &s->ubar, &s->wbar, &s->uo, &s->wo, &s->f, &s->fi, &s->t1, &s->tu, &s->tw,
                         &s->tth, &s->trho, &s->tq, &s->ue, &s->vn, &s->ke, &s->zeta, &s->qabs, &s->pgn,
                         &s->fvn, &s->pg, &s->fv, &s->cor, &s->Ru, &s->Rw, &s->Rth, &s->Rrho, &s->ru,
                         &s->rw, &s->rb, &s->rp, &s->du, &s->dw, &s->db, &s->dp,
                         &s->be, &s->bent, &s->bps, &s->bps0, &s->bdps, &s->one, &s->one2};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i]->data) gale_psy_field_free(f[i]);
    gale_transport_free(&s->tr);
    gale_knl_finalize(&s->k);
    gale_vecinv_free(&s->geo);
    void *a[] = {s->prof, s->rd2i, s->rd2c, s->thref, s->piref, s->hist, s->wl, s->wl_int, s->wl_kin};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) gale_free(a[i]);
    gale_free(s);
    m->nl = NULL;
}

/* ---- the step ---- */

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
        GALE_CALL(set_reference(m, s));
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

/* ---- budgets ---- */

void gale_nl_record(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
    if (m->step < 0 || m->step > m->steps) return;
    double *h = s->hist + GALE_NL_NHIST * (size_t)m->step;
    h[0] = s->b.mass, h[1] = s->b.energy, h[2] = s->b.entropy, h[3] = s->b.ps_min;
    h[4] = s->b.max_grid;
}

/* Device-resident: the densities from one kernel, then one reproducible
 * global sum, a min/max and a max |.| -- no field comes to the host. */
int gale_nl_budget(gale_model_t *m, gale_nl_budget_t *b)
{
    gale_nl_t *s = m->nl;
    gale_psy_t *psy = m->psy;
    const int nl = m->km.nlev;
    if (!s->wl) { /* the weights (kept: the offload layer copies them once) and the ones */
        const double g = m->cfg.planet.gravity;
        /* three arrays: the offload layer maps each weight by itself */
        const int sc = m->km.sc;
        GALE_ALLOC(s->wl, nl);
        GALE_ALLOC(s->wl_int, 2 * (size_t)sc);
        GALE_ALLOC(s->wl_kin, 2 * (size_t)sc);
        for (int k = 0; k < nl; k++) {
            s->wl[k] = g * m->z_c[k] * m->dz[k]; /* potential */
            s->wl_int[k] = m->dz[k];             /* internal: e's first half */
            s->wl_kin[sc + k] = m->dz[k];        /* kinetic: e's second half */
        }
        gale_field_t *one[2] = {&s->one, &s->one2};
        for (int i = 0; i < 2; i++) {
            double *o = gale_fd(one[i]);
            for (size_t j = 0; j < (size_t)one[i]->n * one[i]->stride; j++) o[j] = 1.0;
            GALE_CALL(gale_psy_host_wrote(psy, one[i], 1));
        }
    }
    /* also the next step's first forcing's (recon_fresh), and the output's */
    GALE_CALL(gale_psy_nl_recon(psy, &s->k, &m->u, &s->ue, &s->vn, &s->ke));
    GALE_CALL(gale_psy_nl_vort(psy, &s->k, &s->ue, &s->vn, &s->zeta));
    GALE_CALL(gale_psy_nl_budget(psy, &s->k, &s->rho, &m->b, &m->p, &m->w, &s->ke, &s->be,
                                 &s->bent, &s->bps));
    const int first = !s->have_ps0;
    if (first) {
        GALE_CALL(gale_psy_copy(psy, &s->bps0, &s->bps));
        s->have_ps0 = 1;
    }
    GALE_CALL(gale_psy_axpby(psy, &s->bdps, 1.0, &s->bps, -1.0, &s->bps0));
    GALE_CALL(gale_psy_nl_grid(psy, &s->k, &m->u, &s->ue, &s->vn, &s->du)); /* du is free between steps */
    gale_psy_sum_t sum;
    gale_psy_sum_init(&sum);
    gale_psy_sum_dot(&sum, &s->rho, &s->one, m->area, m->dz);
    gale_psy_sum_dot(&sum, &s->be, &s->one2, m->area, s->wl_kin);
    gale_psy_sum_dot(&sum, &s->be, &s->one2, m->area, s->wl_int);
    gale_psy_sum_dot(&sum, &s->rho, &s->one, m->area, s->wl);
    gale_psy_sum_dot(&sum, &s->bent, &s->one, m->area, m->dz);
    double v[5], mx[3];
    GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, v));
    GALE_CALL(gale_psy_minmax(psy, &s->bps, &b->ps_min, &b->ps_max));
    const gale_field_t *f[3] = {&s->vn, &s->bdps, &s->du};
    int64_t gid[3];
    int lev[3];
    GALE_CALL(gale_psy_check_finite(psy, 3, f, mx, gid, lev));
    b->mass = v[0], b->kinetic = v[1], b->internal = v[2], b->potential = v[3], b->entropy = v[4];
    b->energy = (v[1] + v[2]) + v[3];
    b->max_v = mx[0], b->max_dps = mx[1], b->max_grid = mx[2];
    s->recon_fresh = 1; /* ue, vn, ke and zeta are u's now */
    return GALE_OK;
}
