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
int gale_nl_reference(gale_model_t *m)
{
    gale_nl_t *s = m->nl;
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
