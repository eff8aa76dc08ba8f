/* The nonlinear core's set-up (docs/nonlinear.md): its tables, fields,
 * initial state and first reference state; the step is semi_implicit.c's,
 * the reference state reference.c's, the budgets budget.c's. */
#include "gale_nonlinear.h"

#include "gale_base.h"
#include "gale_cases.h"
#include "gale_model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int fld(gale_model_t *m, gale_field_t *f, const char *name, gale_loc_t loc, int layers)
{
    return gale_psy_field_create(m->psy, f, name, loc, layers, 8);
}

/* A bundle's own fields, one per component named in comps (u, w, theta
 * (t), rho (d), Pi (p)), each where that component lives. */
static int bundle_create(gale_model_t *m, gale_nl_state_t *b, const char *name, const char *comps)
{
    static const char letter[GALE_NL_NCOMP] = {'u', 'w', 't', 'd', 'p'};
    static const char *const suffix[GALE_NL_NCOMP] = {"u", "w", "theta", "rho", "pi"};
    static const gale_loc_t loc[GALE_NL_NCOMP] = {GALE_LOC_EDGE, GALE_LOC_IFACE, GALE_LOC_IFACE,
                                                  GALE_LOC_CELL, GALE_LOC_CELL};
    for (int c = 0; c < GALE_NL_NCOMP; c++) {
        if (!strchr(comps, letter[c])) continue;
        char full[24];
        snprintf(full, sizeof full, "%s_%s", name, suffix[c]);
        GALE_ALLOC(b->f[c], 1);
        GALE_CALL(fld(m, b->f[c], full, loc[c], m->km.nlev));
    }
    return GALE_OK;
}

/* A wind's cell reconstruction: east, north and K per cell and layer. */
static int recon_create(gale_model_t *m, gale_nl_recon_t *r, const char *name)
{
    gale_field_t *f[3] = {&r->ue, &r->vn, &r->ke};
    static const char *const suffix[3] = {"ue", "vn", "ke"};
    for (int i = 0; i < 3; i++) {
        char full[24];
        snprintf(full, sizeof full, "%s_%s", name, suffix[i]);
        GALE_CALL(fld(m, f[i], full, GALE_LOC_CELL, m->km.nlev));
    }
    return GALE_OK;
}

static void bundle_free(gale_nl_state_t *b)
{
    for (int c = 0; c < GALE_NL_NCOMP; c++) {
        if (b->f[c] && b->f[c]->data) gale_psy_field_free(b->f[c]);
        GALE_FREE(b->f[c]);
    }
}

int gale_nl_setup(gale_model_t *m)
{
    const gale_config_t *cfg = &m->cfg;
    const int kase = cfg->initial.kase;
    /* each refusal names where its keys were set: an LFRic namelist's file,
     * line, group and key, else gale's [section] key (gale_config_origin) */
    char eq[GALE_STR + GALE_ORIGIN], a[GALE_STR + GALE_ORIGIN], b[GALE_STR + GALE_ORIGIN];
    const int nml = gale_config_origin(cfg, "dynamics", "equations", eq, sizeof eq);
    if (nml) strcat(eq, ": gale's "); /* the namelist's key, then gale's */
    else eq[0] = '\0';
    if (kase != GALE_CASE_RESTING && kase != GALE_CASE_DCMIP31 && kase != GALE_CASE_BAROCLINIC_WAVE &&
        kase != GALE_CASE_NORMAL_MODE) {
        gale_config_origin(cfg, "initial", "case", a, sizeof a);
        GALE_ERROR(GALE_ERR_INPUT, "%s[dynamics] equations = nonlinear runs case resting, normal_mode, "
                   "dcmip31 or baroclinic_wave, not %s (%s; the linear core runs the others)", eq,
                   gale_config_choice("initial", "case", kase), a);
    }
    if (kase == GALE_CASE_BAROCLINIC_WAVE && cfg->planet.scaling != 1.0) {
        gale_config_origin(cfg, "initial", "case", a, sizeof a);
        gale_config_origin(cfg, "planet", "scaling", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s: case baroclinic_wave is on the full planet, but %s: set the "
                   "scaling to 1", a, b);
    }
    if (!m->consistent)
        GALE_ERROR(GALE_ERR_INPUT, "%s[dynamics] equations = nonlinear solves the mixed system: set "
                   "[dynamics] mass_matrix = consistent", eq);
    if (m->cs.n < 2) {
        gale_config_origin(cfg, "mesh", "name", a, sizeof a);
        GALE_ERROR(GALE_ERR_INPUT, "%s: the nonlinear core needs a mesh of at least C2", a);
    }
    if (!cfg->dynamics.shallow && cfg->dynamics.vector_invariant) {
        gale_config_origin(cfg, "dynamics", "shallow", a, sizeof a);
        gale_config_origin(cfg, "dynamics", "vector_invariant", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s (the deep atmosphere) takes the wind in advective form, but "
                   "%s: set vector_invariant = false (the vector-invariant form's vorticity and "
                   "kinetic energy have no deep-atmosphere metric here)", a, b);
    }
    gale_nl_t *s = NULL;
    GALE_ALLOC(s, 1);
    m->nl = s;
    const int nl = m->km.nlev, si = m->km.si, sc = m->km.sc;
    gale_knl_t *k = &s->k;
    k->cp = cfg->planet.cp, k->rd = cfg->planet.rd, k->p0 = cfg->planet.p_zero;
    k->kap = cfg->planet.rd / (cfg->planet.cp - cfg->planet.rd), k->g = cfg->planet.gravity, k->n2r = m->km.n2;
    k->ncell = gale_psy_local(m->psy, GALE_LOC_CELL), k->nedge = gale_psy_local(m->psy, GALE_LOC_EDGE);
    k->nlev = nl, k->sc = sc, k->si = si;
    GALE_CALL(gale_vecinv_build(&m->cs, &m->lm, m->cell_sign, k->ncell, k->nedge,
                                gale_psy_stencil_cells(m->psy), cfg->planet.omega, &s->geo));
    GALE_CALL(fld(m, &s->prof, "nl_prof", GALE_LOC_CELL, GALE_NLP_N * si));
    GALE_CALL(fld(m, &s->rhoe, "nl_rhoe", GALE_LOC_EDGE, nl));
    if (cfg->timestepping.reference_state == GALE_REFERENCE_MEAN) {
        GALE_CALL(fld(m, &s->mth, "nl_mean_theta", GALE_LOC_IFACE, nl));
        GALE_CALL(fld(m, &s->mpi, "nl_mean_pi", GALE_LOC_CELL, nl));
    }
    s->deep = !cfg->dynamics.shallow;
    GALE_CALL(gale_shell_build(nl, sc, si, m->z_if, m->z_c, m->cs.radius, cfg->planet.gravity,
                               s->deep, &s->shell));
    GALE_ALLOC(s->rd2i, si);
    GALE_ALLOC(s->rd2c, sc);
    for (int i = 1; i < nl; i++) s->rd2i[i] = 1.0 / (m->dz[i - 1] + m->dz[i]);
    for (int i = 0; i < nl; i++) {
        const int kl = i > 0 ? i - 1 : 0, ku = i < nl - 1 ? i + 1 : nl - 1;
        s->rd2c[i] = ku > kl ? 1.0 / (m->z_c[ku] - m->z_c[kl]) : 0.0;
    }
    k->prof = s->prof.data, k->rhoe = s->rhoe.data;
    k->pstride = cfg->timestepping.reference_state == GALE_REFERENCE_MEAN ? 0 : s->prof.stride;
    k->fcor = s->geo.fcor, k->enb = s->geo.enb, k->prc = s->geo.prc, k->nrm = s->geo.nrm;
    k->tng = s->geo.tng, k->vidx = s->geo.vidx, k->vw = s->geo.vw, k->rd2i = s->rd2i, k->rd2c = s->rd2c;
    k->dzv = s->shell.dzv, k->dzf = s->shell.dzf, k->dzh = s->shell.dzh, k->hl = s->shell.hl;
    k->qi = s->shell.qi, k->gi = s->shell.gi, k->rc = s->shell.rc, k->ri = s->shell.ri;
    k->fcos = s->geo.fcos;
    GALE_CALL(gale_knl_init(k));
    /* unlimited: a limiter switching on the background's extrema made
     * dcmip31's small-amplitude response 1% nonlinear (docs/nonlinear.md) */
    GALE_CALL(gale_transport_stencils(&s->tr, m, 0, &s->shell));
    const gale_loc_t C = GALE_LOC_CELL, I = GALE_LOC_IFACE, E = GALE_LOC_EDGE;
    GALE_CALL(fld(m, &s->rho, "rho", C, nl));
    s->x = (gale_nl_state_t){{&m->u, &m->w, &m->b, &s->rho, &m->p}};
    struct { gale_nl_state_t *b; const char *name, *comps; } bl[] = {
        {&s->xn, "nl_n", "uwtd"},      {&s->xa, "nl_a", "uwtd"},    {&s->xs, "nl_s", "uwtd"},
        {&s->tend, "nl_tend", "uwtd"},
        {&s->ubar, "nl_bar", "uw"},    {&s->xo, "nl_o", "uw"},      {&s->fn, "nl_fn", "uw"},
        {&s->fl, "nl_f", "uw"},        {&s->res, "nl_res", "uwtd"}, {&s->dwind, "nl_dwind", "uw"},
        {&s->rhs, "nl_rhs", "uwtp"},   {&s->inc, "nl_inc", "uwtp"},
    };
    for (size_t i = 0; i < sizeof bl / sizeof bl[0]; i++)
        GALE_CALL(bundle_create(m, bl[i].b, bl[i].name, bl[i].comps));
    struct { gale_field_t *f; const char *name; gale_loc_t loc; int layers; } fl[] = {
        {&s->resu_w, "nl_resu_w", E, nl}, {&s->pe, "nl_pi_eos", C, nl},
        {&s->vflux, "nl_vflux", E, nl},
        {&s->vflux_i, "nl_vflux_i", E, nl + 1}, {&s->divi, "nl_divi", I, nl},
        {&s->tq, "nl_tq", I, nl},        {&s->zeta, "nl_zeta", C, nl}, {&s->qabs, "nl_q", C, nl},
        {&s->cor, "nl_cor", E, nl},      {&s->gridu, "nl_gridu", E, nl},
        {&s->gridu2, "nl_gridu2", E, nl}, {&s->gridm, "nl_gridm", E, nl},
        {&s->be, "nl_energy", C, 2 * sc}, {&s->bent, "nl_entropy", C, nl}, {&s->bps, "nl_ps", C, 1},
        {&s->bps0, "nl_ps0", C, 1}, {&s->bdps, "nl_dps", C, 1},    {&s->one, "nl_one", C, nl},
        {&s->one2, "nl_one2", C, 2 * sc}, {&s->bcfl, "nl_cfl", C, nl}, {&s->tcfl, "nl_tcfl", C, nl},
    };
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
        GALE_CALL(fld(m, fl[i].f, fl[i].name, fl[i].loc, fl[i].layers));
    GALE_CALL(recon_create(m, &s->rx, "nl_x"));
    GALE_CALL(recon_create(m, &s->ra, "nl_a"));
    if (cfg->dynamics.grid_damping > 0.0) GALE_CALL(recon_create(m, &s->rg, "nl_grid"));
    s->vecinv = cfg->dynamics.vector_invariant;
    if (s->vecinv) GALE_CALL(fld(m, &s->zf, "nl_zeta_faces", C, 4 * m->km.si));
    s->transport_courant = cfg->dynamics.transport_courant;
    if (!s->vecinv) {
        static const char *const cn[3] = {"nl_ux", "nl_uy", "nl_uz"}, *const tn[3] = {"nl_tux", "nl_tuy",
                                                                                      "nl_tuz"};
        GALE_CALL(fld(m, &s->divc, "nl_divc", C, nl));
        for (int i = 0; i < 3; i++) {
            GALE_CALL(fld(m, &s->cart[i], cn[i], C, nl));
            GALE_CALL(fld(m, &s->tcart[i], tn[i], C, nl));
        }
        /* the advective form's vorticity force is the Coriolis force: q = f, once */
        GALE_CALL(gale_psy_nl_fcor(m->psy, k, &s->qabs));
    }
    GALE_CALL(gale_case_initial_state(m));
    GALE_CALL(gale_nl_reference(m));
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
    gale_nl_state_t *bl[] = {&s->xn, &s->xa,  &s->xs,    &s->tend, &s->ubar, &s->xo,
                             &s->fn, &s->fl,  &s->res,   &s->dwind, &s->rhs, &s->inc};
    for (size_t i = 0; i < sizeof bl / sizeof bl[0]; i++) bundle_free(bl[i]);
    gale_field_t *f[] = {&s->rho, &s->resu_w, &s->pe, &s->vflux, &s->vflux_i, &s->divi, &s->tq,
                         &s->rx.ue, &s->rx.vn, &s->rx.ke, &s->ra.ue, &s->ra.vn, &s->ra.ke,
                         &s->rg.ue, &s->rg.vn, &s->rg.ke, &s->zeta, &s->zf, &s->qabs, &s->cor,
                         &s->gridu, &s->gridu2, &s->gridm, &s->be, &s->bent, &s->bps, &s->bps0,
                         &s->bdps, &s->one, &s->one2,
                         &s->bcfl, &s->tcfl,
                         &s->prof, &s->rhoe, &s->mth, &s->mpi, &s->divc, &s->cart[0],
                         &s->cart[1], &s->cart[2], &s->tcart[0], &s->tcart[1], &s->tcart[2]};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (f[i]->data) gale_psy_field_free(f[i]);
    gale_transport_free(&s->tr);
    gale_knl_finalize(&s->k);
    gale_vecinv_free(&s->geo);
    void *a[] = {s->ref_sum, s->rd2i, s->rd2c, s->hist, s->wl, s->wl_int, s->wl_kin, s->mode_ref};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) gale_free(a[i]);
    gale_shell_free(&s->shell);
    gale_free(s);
    m->nl = NULL;
}
