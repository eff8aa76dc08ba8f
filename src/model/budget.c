/* The nonlinear core's budgets (docs/nonlinear.md, "The code"): mass,
 * energy, entropy, surface pressure, the grid mode, the Courant number, per step. */
#include "gale_nonlinear.h"

#include "gale_base.h"
#include "gale_model.h"

#include <math.h>

void gale_nl_record(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
    if (m->step < 0 || m->step > m->steps) return;
    double *h = s->hist + GALE_NL_NHIST * (size_t)m->step;
    h[0] = s->b.mass, h[1] = s->b.energy, h[2] = s->b.entropy, h[3] = s->b.ps_min;
    h[4] = s->b.max_grid, h[5] = s->b.max_cfl;
}

double gale_nl_max_cfl(const gale_model_t *m)
{
    const gale_nl_t *s = m->nl;
    double c = 0;
    for (int st = 0; st <= m->step && st <= m->steps; st++) c = fmax(c, s->hist[GALE_NL_NHIST * (size_t)st + 5]);
    return c;
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
        /* per unit area at r = a: the shell's volume (dz when flat); the
         * geopotential g z, or the deep atmosphere's g a z / (a + z) (zero at
         * the ground, as LFRic's) */
        const double *dzv = s->shell.dzv, a = m->cs.radius;
        for (int k = 0; k < nl; k++) {
            const double z = m->z_c[k];
            s->wl[k] = (s->deep ? g * a * z / (a + z) : g * z) * dzv[k]; /* potential */
            s->wl_int[k] = dzv[k];             /* internal: e's first half */
            s->wl_kin[sc + k] = dzv[k];        /* kinetic: e's second half */
        }
        gale_field_t *one[2] = {&s->one, &s->one2};
        for (int i = 0; i < 2; i++) {
            double *o = gale_fd(one[i]);
            for (size_t j = 0; j < (size_t)one[i]->n * one[i]->stride; j++) o[j] = 1.0;
            GALE_CALL(gale_psy_host_wrote(psy, one[i], 1));
        }
    }
    /* also the next step's first forcing's (recon_fresh), and the output's */
    gale_nl_recon_t *r = &s->rx;
    GALE_CALL(gale_psy_nl_recon(psy, &s->k, &m->u, &r->ue, &r->vn, &r->ke));
    GALE_CALL(gale_psy_nl_vort(psy, &s->k, &r->ue, &r->vn, &s->zeta));
    GALE_CALL(gale_psy_nl_budget(psy, &s->k, &s->rho, &m->b, &m->p, &m->w, &r->ke, &s->be,
                                 &s->bent, &s->bps));
    const int first = !s->have_ps0;
    if (first) {
        GALE_CALL(gale_psy_copy(psy, &s->bps0, &s->bps));
        s->have_ps0 = 1;
    }
    GALE_CALL(gale_psy_axpby(psy, &s->bdps, 1.0, &s->bps, -1.0, &s->bps0));
    GALE_CALL(gale_psy_nl_grid(psy, &s->k, &m->u, &r->ue, &r->vn, &s->gridu));
    GALE_CALL(gale_psy_nl_cfl(psy, m->dt, &m->u, &s->bcfl));
    gale_psy_sum_t sum;
    gale_psy_sum_init(&sum);
    gale_psy_sum_dot(&sum, &s->rho, &s->one, m->area, s->shell.dzv);
    gale_psy_sum_dot(&sum, &s->be, &s->one2, m->area, s->wl_kin);
    gale_psy_sum_dot(&sum, &s->be, &s->one2, m->area, s->wl_int);
    gale_psy_sum_dot(&sum, &s->rho, &s->one, m->area, s->wl);
    gale_psy_sum_dot(&sum, &s->bent, &s->one, m->area, s->shell.dzv);
    double v[5], mx[4];
    GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, v));
    GALE_CALL(gale_psy_range(psy, &s->bps, &b->ps_min, &b->ps_max));
    const gale_field_t *f[4] = {&r->vn, &s->bdps, &s->gridu, &s->bcfl};
    int64_t gid[4];
    int lev[4];
    GALE_CALL(gale_psy_check_finite(psy, 4, f, mx, gid, lev));
    b->mass = v[0], b->kinetic = v[1], b->internal = v[2], b->potential = v[3], b->entropy = v[4];
    b->energy = (v[1] + v[2]) + v[3];
    b->max_v = mx[0], b->max_dps = mx[1], b->max_grid = mx[2], b->max_cfl = mx[3];
    s->recon_fresh = 1;
    return GALE_OK;
}
