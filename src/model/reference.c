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
 * (nl_rhoe). The mean takes one global sum per 48 values (nlev + 3 of
 * them), all in flight at once from the start of a step to the first
 * kernel that reads the rows (docs/emulate.md, "What still waits"). */
int gale_nl_reference_start(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
    GALE_CALL(gale_nl_reference_finish(m)); /* one in flight at a time */
    s->ref_pending = 1;
    if (m->cfg.timestepping.reference_state != GALE_REFERENCE_MEAN) return GALE_OK;
    const int nl = m->km.nlev, si = m->km.si, sc = m->km.sc, nv = nl + 3;
    const int c0 = gale_psy_owned(m->psy, GALE_LOC_CELL);
    s->ref_nsum = (nv + GALE_GSUM_MAX - 1) / GALE_GSUM_MAX;
    if (!s->ref_sum) GALE_ALLOC(s->ref_sum, s->ref_nsum);
    GALE_CALL(gale_psy_to_host(&m->b));
    GALE_CALL(gale_psy_to_host(&m->p));
    const double *t = gale_fd(&m->b), *p = gale_fd(&m->p);
    /* values 0..nl: theta, nl + 1: Pi_0, nl + 2: the area */
    for (int q = 0; q < s->ref_nsum; q++) {
        const int v0 = q * GALE_GSUM_MAX, n = nv - v0 < GALE_GSUM_MAX ? nv - v0 : GALE_GSUM_MAX;
        gale_psy_sum_t *sum = &s->ref_sum[q];
        gale_psy_sum_init(sum);
        gale_rsum_t *acc[GALE_GSUM_MAX];
        for (int i = 0; i < n; i++) acc[i] = gale_psy_sum_term(sum);
        for (int c = 0; c < c0; c++)
            for (int i = 0; i < n; i++) {
                const int v = v0 + i;
                const double a = m->area[c];
                gale_rsum_add(acc[i], v <= nl ? a * t[(size_t)c * si + v]
                                      : v == nl + 1 ? a * p[(size_t)c * sc] : a);
            }
        GALE_CALL(gale_psy_sum_start(&m->gsum_diag, sum));
    }
    return GALE_OK;
}

int gale_nl_reference_finish(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
    if (!s->ref_pending) return GALE_OK;
    s->ref_pending = 0;
    gale_field_t *th = &m->b, *pi = &m->p;
    if (m->cfg.timestepping.reference_state == GALE_REFERENCE_MEAN) {
        const int nl = m->km.nlev;
        double *mean = NULL;
        GALE_ALLOC(mean, (size_t)s->ref_nsum * GALE_GSUM_MAX);
        for (int q = 0; q < s->ref_nsum; q++) {
            const int st = gale_psy_sum_finish(&m->gsum_diag, &s->ref_sum[q], mean + q * GALE_GSUM_MAX);
            if (st != GALE_OK) {
                gale_free(mean);
                GALE_CALL(st);
            }
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

int gale_nl_reference(gale_model_t *m)
{
    GALE_CALL(gale_nl_reference_start(m));
    return gale_nl_reference_finish(m);
}
