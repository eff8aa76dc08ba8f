/* The nonlinear core's reference state (docs/nonlinear.md, "The linear
 * system about the reference state"): the profile the mixed operator and
 * the preconditioner linearise about, reset every [timestepping]
 * reference_reset_time. */
#include "gale_nonlinear.h"

#include "gale_base.h"
#include "gale_model.h"

#include <math.h>
#include <string.h>

void gale_nl_constants(const gale_config_t *cfg, double *c2, double *n2)
{
    const double g = cfg->planet.gravity, cp = cfg->planet.cp, gam = cp / (cp - cfg->planet.rd);
    double T = cfg->initial.theta0;
    *n2 = cfg->physics.bvf_square;
    if ((cfg->initial.kase == GALE_CASE_RESTING || cfg->initial.kase == GALE_CASE_NORMAL_MODE) &&
        cfg->initial.profile == GALE_PROFILE_ISOTHERMAL)
        *n2 = g * g / (cp * T);
    if (cfg->initial.kase == GALE_CASE_BAROCLINIC_WAVE) { /* T0 and its lapse rate */
        T = 275.0;
        *n2 = g / T * (g / cp - 0.005);
    }
    *c2 = gam * cfg->planet.rd * T;
}

/* The reference state (docs/nonlinear.md, "The linear system about the
 * reference state"): theta and the lowest layer's Pi of each column
 * (GungHo's 3-D reference), or their horizontal means in every column; Pi*
 * above the lowest layer in discrete hydrostatic balance, rho* from the
 * equation of state; the operator's rows (nl_ref) and rho* on the edges
 * (nl_rhoe). The mean takes one global sum (per 46 levels). */
int gale_nl_reference(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
    gale_field_t *th = &m->b, *pi = &m->p;
    if (m->cfg.timestepping.reference_state == GALE_REFERENCE_MEAN) {
        const int nl = m->km.nlev, si = m->km.si, sc = m->km.sc;
        const int c0 = gale_psy_owned(m->psy, GALE_LOC_CELL);
        GALE_CALL(gale_psy_to_host(th));
        GALE_CALL(gale_psy_to_host(pi));
        const double *t = gale_fd(th), *p = gale_fd(pi);
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
                    gale_rsum_add(acc[i], v <= nl ? a * t[(size_t)c * si + v]
                                          : v == nl + 1 ? a * p[(size_t)c * sc] : a);
                }
            GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, mean + v0));
        }
        const double area = mean[nl + 2];
        for (int k = 0; k <= nl + 1; k++) mean[k] /= area;
        const int nc = gale_psy_local(m->psy, GALE_LOC_CELL);
        double *mt = gale_fd(&s->mth), *mp = gale_fd(&s->mpi);
        for (int c = 0; c < nc; c++) {
            memcpy(mt + (size_t)c * s->mth.stride, mean, sizeof(double) * (size_t)(nl + 1));
            mp[(size_t)c * s->mpi.stride] = mean[nl + 1]; /* the only level nl_ref reads */
        }
        gale_free(mean);
        GALE_CALL(gale_psy_host_wrote(m->psy, &s->mth, 1));
        GALE_CALL(gale_psy_host_wrote(m->psy, &s->mpi, 1));
        th = &s->mth, pi = &s->mpi;
    }
    GALE_CALL(gale_psy_nl_ref(m->psy, &s->k, th, pi, &s->prof));
    GALE_CALL(gale_psy_nl_rhoe(m->psy, &s->k, &s->prof, &s->rhoe));
    s->resets++;
    return GALE_OK;
}
