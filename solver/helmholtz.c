/* Coefficients of the Helmholtz operator and its preconditioners.
 *
 * Eliminating u, w and b from the Crank-Nicolson step leaves, for p^{n+1},
 *   A p = diag(V/c^2) p + tau^2 (G_h^T M_u G_h + G_z^T M_w G_z / (1 + tau^2 N^2)) p
 * with V = A_c dzv_k, M_u = l_e d_e dzv_k, G_h = hl_k / d_e and M_w = A_c qi_k dzi_k
 * (docs/numerics.md; flat columns: dzv = dz, hl = qi = 1), symmetric positive
 * definite. Per column it is stored as A_c/c^2, av = A_c tau^2/(1+tau^2 N^2)
 * and hs_s = tau^2 l_e/d_e per side, per level as dzh = dzf hl, rho = dzv/dzh
 * and rq = qi/dzi, which the kernels combine (gale_kbodies_solver.h).
 * Every coefficient of a column is a function of that column's global
 * geometry only, so owned and redundant halo copies agree to the bit. */
#include "gale_solver.h"

#include "gale_base.h"

#include <string.h>

static int to_float(float **out, const double *in, size_t n)
{
    GALE_ALLOC(*out, n);
    for (size_t i = 0; i < n; i++) (*out)[i] = (float)in[i];
    return GALE_OK;
}

int gale_helmholtz_setup(gale_kmesh_t *km, double scale, gale_helm_t *h)
{
    memset(h, 0, sizeof *h);
    const int nl = km->nlev, sc = km->sc, L = GALE_LANES;
    const size_t na = (size_t)km->ncell_alloc;
    const double tau2 = km->tau * km->tau, gz = tau2 / (1.0 + tau2 * km->n2);
    GALE_ALLOC(h->ad, na);
    GALE_ALLOC(h->av, na);
    GALE_ALLOC(h->hs, 4 * na);
    GALE_ALLOC(h->dzh, nl);
    GALE_ALLOC(h->rho, nl);
    GALE_ALLOC(h->rq, nl + 1);
    /* flat columns: dzh = dz, rho = 1 and rq = rdzi exactly */
    for (int k = 0; k < nl; k++) {
        h->dzh[k] = km->dzf[k] * km->hl[k];
        h->rho[k] = km->dzv[k] / h->dzh[k];
    }
    for (int k = 0; k <= nl; k++) h->rq[k] = km->qi[k] * km->rdzi[k];
    GALE_ALLOC(h->diag_inv, na * sc);
    GALE_ALLOC(h->tri_m, na * nl);
    GALE_ALLOC(h->tri_c, na * nl);
    for (int c = 0; c < km->ncell; c++) {
        h->ad[c] = scale * (km->area[c] / km->c2);
        h->av[c] = scale * (km->area[c] * gz);
        double hsum = 0;
        for (int s = 0; s < 4; s++) {
            int e = km->cell_edge[4 * c + s];
            h->hs[4 * c + s] = scale * (tau2 * (km->elen[e] * km->erdist[e]));
        }
        hsum = h->hs[4 * c] + h->hs[4 * c + 1] + h->hs[4 * c + 2] + h->hs[4 * c + 3];
        /* Thomas factorisation of the column's tridiagonal part; the
         * horizontal couplings are dropped and their diagonal kept */
        double cprev = 0;
        const size_t bo = (size_t)(c / L) * nl * L + (size_t)(c % L);
        for (int k = 0; k < nl; k++) {
            double lower = -h->av[c] * h->rq[k], upper = -h->av[c] * h->rq[k + 1];
            double d = h->ad[c] * km->dzv[k] + h->dzh[k] * hsum + h->av[c] * (h->rq[k] + h->rq[k + 1]);
            h->diag_inv[(size_t)c * sc + k] = 1.0 / d;
            double m = 1.0 / (d - lower * cprev);
            cprev = upper * m;
            h->tri_m[bo + (size_t)k * L] = m;
            h->tri_c[bo + (size_t)k * L] = cprev;
        }
    }
    GALE_CALL(to_float(&h->ad_f, h->ad, na));
    GALE_CALL(to_float(&h->av_f, h->av, na));
    GALE_CALL(to_float(&h->hs_f, h->hs, 4 * na));
    GALE_CALL(to_float(&h->diag_inv_f, h->diag_inv, na * sc));
    GALE_CALL(to_float(&h->tri_m_f, h->tri_m, na * nl));
    GALE_CALL(to_float(&h->tri_c_f, h->tri_c, na * nl));
    GALE_CALL(to_float(&h->dzh_f, h->dzh, nl));
    GALE_CALL(to_float(&h->rho_f, h->rho, nl));
    GALE_CALL(to_float(&h->rq_f, h->rq, nl + 1));
    km->h_ad = h->ad, km->h_av = h->av, km->h_hs = h->hs;
    km->h_dzh = h->dzh, km->h_rho = h->rho, km->h_rq = h->rq;
    km->diag_inv = h->diag_inv, km->tri_m = h->tri_m, km->tri_c = h->tri_c;
    km->h_ad_f = h->ad_f, km->h_av_f = h->av_f, km->h_hs_f = h->hs_f;
    km->diag_inv_f = h->diag_inv_f, km->tri_m_f = h->tri_m_f, km->tri_c_f = h->tri_c_f;
    km->h_dzh_f = h->dzh_f, km->h_rho_f = h->rho_f, km->h_rq_f = h->rq_f;
    return GALE_OK;
}

void gale_helmholtz_free(gale_helm_t *h)
{
    void *all[] = {h->ad, h->av, h->hs, h->dzh, h->rho, h->rq, h->diag_inv, h->tri_m, h->tri_c,
                   h->ad_f, h->av_f, h->hs_f, h->dzh_f, h->rho_f, h->rq_f, h->diag_inv_f,
                   h->tri_m_f, h->tri_c_f};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) gale_free(all[i]);
    memset(h, 0, sizeof *h);
}
