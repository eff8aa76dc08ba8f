/* The nonlinear core's kernel bodies (docs/nonlinear.md), included by both
 * launch layers like gale_kbodies.h: one column or one edge each, no
 * parallel directives besides GALE_SIMD, one fixed evaluation order (sides
 * W,S,E,N, levels bottom-up). Fields: u on edges (layers), w and theta on
 * interfaces, rho and Pi in layers; the mixed system's (u, w, b, p) as in
 * gale_kbodies.h with b = g theta' / theta* and p = cp theta*_c Pi'. */
#ifndef GALE_KBODIES_NL_H
#define GALE_KBODIES_NL_H

#include "gale_kbodies.h"
#include "gale_knl.h"

#include <math.h>

/* Pi = (rd rho theta_c / p0)^kap, theta_c the mean of the layer's interfaces.
 * No GALE_SIMD: a vector pow is another function, and the bits must not
 * depend on the build. */
static inline void gale_kb_nl_eos(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                  const double *restrict rho, const double *restrict th,
                                  double *restrict pi)
{
    const double *r = rho + (size_t)c * km->sc, *t = th + (size_t)c * km->si;
    double *o = pi + (size_t)c * km->sc;
    const double a = 0.5 * nk->rd / nk->p0, kap = nk->kap;
    for (int k = 0; k < km->nlev; k++) o[k] = pow(a * r[k] * (t[k] + t[k + 1]), kap);
}

/* The weak gradient terms on edge e: (cp theta_e (Pi2 - Pi1) + kw (K2 - K1))
 * l dz, theta_e the mean of the four interface values of the edge's two
 * layers, K the cells' kinetic energy (kw 1 in the vector-invariant form, 0
 * in the advective one, whose transport carries it). Weak, as the mixed system's pressure
 * gradient: M_u^-1 l (K2 - K1) is the normal gradient, (K2 - K1) / d the
 * gradient along the line between the centres, which near the cube's edges
 * is not the normal (docs/nonlinear.md). */
static inline void gale_kb_nl_pgrad(const gale_kmesh_t *km, const gale_knl_t *nk, int e,
                                    const double *restrict th, const double *restrict pi,
                                    const double *restrict ke, double kw, double *restrict pg)
{
    const int c1 = km->edge_cell[2 * e], c2 = km->edge_cell[2 * e + 1];
    const double *t1 = th + (size_t)c1 * km->si, *t2 = th + (size_t)c2 * km->si;
    const double *p1 = pi + (size_t)c1 * km->sc, *p2 = pi + (size_t)c2 * km->sc;
    const double *k1 = ke + (size_t)c1 * km->sc, *k2 = ke + (size_t)c2 * km->sc;
    double *o = pg + (size_t)e * km->sc;
    const double f = 0.25 * nk->cp, l = km->elen[e], *dz = nk->dzh; /* dz when shallow */
    GALE_SIMD
    for (int k = 0; k < km->nlev; k++)
        o[k] = dz[k] * (l * (f * ((t1[k] + t1[k + 1]) + (t2[k] + t2[k + 1])) * (p2[k] - p1[k]) +
                             kw * (k2[k] - k1[k])));
}

/* fv = cp theta G_z Pi + g at interior interfaces (0 at the ground and the
 * top), g the interface's (nk->gi: g (a/r)^2 in the deep atmosphere). */
static inline void gale_kb_nl_vforce(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                     const double *restrict th, const double *restrict pi,
                                     double *restrict fv)
{
    const int nl = km->nlev;
    const double *t = th + (size_t)c * km->si, *p = pi + (size_t)c * km->sc;
    double *o = fv + (size_t)c * km->si;
    const double cp = nk->cp, *g = nk->gi, *rdzi = km->rdzi;
    GALE_SIMD
    for (int k = 1; k < nl; k++) o[k] = cp * t[k] * ((p[k] - p[k - 1]) * rdzi[k]) + g[k];
    o[0] = 0.0;
    o[nl] = 0.0;
}

/* The mixed system's right-hand side from the residuals: rw = -M_w Rw,
 * rb = -M_w (g / (theta* N2r)) Rtheta, rp = -V (Rrho / rho*_c + (Rtheta_k +
 * Rtheta_{k+1}) / (2 theta*_c) + (Pi - Pi_eos) / (kap Pi*)) -- the density
 * row divided by rho*_c with the equation of state's, whose residual is
 * Pi's distance from the equation of state of rho and theta, pe
 * (docs/nonlinear.md; kap Pi* = c*^2 / (cp theta*_c)). */
static inline void gale_kb_nl_rhs(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                  const double *restrict Rw, const double *restrict Rt,
                                  const double *restrict Rr, const double *restrict pi,
                                  const double *restrict pe, double *restrict rw,
                                  double *restrict rb, double *restrict rp)
{
    const int nl = km->nlev, sc = km->sc, si = km->si;
    const double *w = Rw + (size_t)c * si, *t = Rt + (size_t)c * si, *r = Rr + (size_t)c * sc;
    const double *pc = pi + (size_t)c * sc, *ec = pe + (size_t)c * sc;
    double *ow = rw + (size_t)c * si, *ob = rb + (size_t)c * si, *op = rp + (size_t)c * sc;
    const double area = km->area[c], *dz = nk->dzv, *dzi = km->dzi, hcp = 0.5 * nk->cp;
    const double *RB = GALE_NLP(nk, km, GALE_NLP_RB, c), *RR = GALE_NLP(nk, km, GALE_NLP_RRHO, c);
    const double *TC = GALE_NLP(nk, km, GALE_NLP_TC2, c), *RC = GALE_NLP(nk, km, GALE_NLP_RC2, c);
    GALE_SIMD
    for (int k = 1; k < nl; k++) {
        const double mw = area * dzi[k];
        ow[k] = -(mw * w[k]);
        ob[k] = -(mw * (RB[k] * t[k]));
    }
    ow[0] = ow[nl] = ob[0] = ob[nl] = 0.0;
    GALE_SIMD
    for (int k = 0; k < nl; k++)
        op[k] = -(area * dz[k] * (RR[k] * r[k] + TC[k] * (t[k] + t[k + 1]) +
                                  hcp * RC[k] / TC[k] * (pc[k] - ec[k])));
}

/* Pi += p / (cp theta*_c): the mixed system's p is cp theta*_c Pi'. */
static inline void gale_kb_nl_pinc(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                   const double *restrict p, double *restrict pi)
{
    const int nl = km->nlev;
    const double *pc = p + (size_t)c * km->sc, *TC = GALE_NLP(nk, km, GALE_NLP_TC2, c);
    double *o = pi + (size_t)c * km->sc;
    const double f = 2.0 / nk->cp;
    GALE_SIMD
    for (int k = 0; k < nl; k++) o[k] = o[k] + f * TC[k] * pc[k];
}

/* x += s D(rho* du, rho* dw) on the layers of cell c: the density row's
 * divergence (flux form: both cells of an edge take the same rho*, so its
 * global integral is zero), over the layer's volume (the shell's in the deep
 * atmosphere: side faces dzf, interfaces qi, volume dzv). */
static inline void gale_kb_nl_drho(const gale_kmesh_t *km, const gale_knl_t *nk, int c, double s,
                                   const double *restrict du, const double *restrict dw,
                                   double *restrict x)
{
    const int nl = km->nlev;
    const double *dwc = dw + (size_t)c * km->si;
    double *xc = x + (size_t)c * km->sc;
    const double ra = 1.0 / km->area[c], *dzv = nk->dzv, *hl = nk->hl, *qi = nk->qi;
    const double *RI = GALE_NLP(nk, km, GALE_NLP_RHOI, c);
    double f[4];
    const double *uc[4], *re[4];
    gale_kb_cell_fluxes(km, c, f);
    gale_kb_edge_cols_d(km, c, du, uc);
    gale_kb_edge_cols_d(km, c, nk->rhoe, re);
    GALE_SIMD
    for (int k = 0; k < nl; k++)
        xc[k] = xc[k] + s * ((GALE_KB_RHFLUX(f, re, uc, k) * ra) * hl[k] +
                             (qi[k + 1] * (RI[k + 1] * dwc[k + 1]) - qi[k] * (RI[k] * dwc[k])) /
                                 dzv[k]);
}

/* After a solve: w += dw; theta += theta* b / g inside, -Rtheta at the ground
 * and the top (no w there, so the theta row is the residual alone); rho from
 * the density row, -Rrho - tau D(rho* du, rho* dw), which keeps the mass. */
static inline void gale_kb_nl_update(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                     double tau, const double *restrict du,
                                     const double *restrict dw, const double *restrict b,
                                     const double *restrict Rt, const double *restrict Rr,
                                     double *restrict w, double *restrict th,
                                     double *restrict rho)
{
    const int nl = km->nlev, sc = km->sc, si = km->si;
    const double *dwc = dw + (size_t)c * si, *bc = b + (size_t)c * si, *t = Rt + (size_t)c * si;
    const double *r = Rr + (size_t)c * sc;
    double *wc = w + (size_t)c * si, *tc = th + (size_t)c * si, *rc = rho + (size_t)c * sc;
    const double rg = 1.0 / nk->g, *TH = GALE_NLP(nk, km, GALE_NLP_THI, c);
    GALE_SIMD
    for (int k = 0; k < nl; k++) rc[k] = rc[k] - r[k];
    gale_kb_nl_drho(km, nk, c, -tau, du, dw, rho);
    GALE_SIMD
    for (int k = 1; k < nl; k++) {
        wc[k] = wc[k] + dwc[k];
        tc[k] = tc[k] + TH[k] * bc[k] * rg;
    }
    tc[0] = tc[0] - t[0];
    tc[nl] = tc[nl] - t[nl];
}

/* The linearised transport of the wind's change since the transport ran
 * (du, dw): Rtheta += tau dw G_z theta*, Rrho += tau D(rho* du, rho* dw) --
 * the operator's own theta and rho rows, so that the inner iterations solve
 * the system the operator describes (docs/nonlinear.md). */
static inline void gale_kb_nl_tlin(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                   double tau, const double *restrict du,
                                   const double *restrict dw, double *restrict Rt,
                                   double *restrict Rr)
{
    const int nl = km->nlev;
    const double *dwc = dw + (size_t)c * km->si, *DT = GALE_NLP(nk, km, GALE_NLP_DTH, c);
    double *t = Rt + (size_t)c * km->si;
    gale_kb_nl_drho(km, nk, c, tau, du, dw, Rr);
    GALE_SIMD
    for (int k = 1; k < nl; k++) t[k] = t[k] + tau * (dwc[k] * DT[k]);
}

/* Volume fluxes per unit height of the advecting wind: f = l ubar in layers,
 * fi = l ubar at interfaces (the mean of the layers either side; the end
 * layer's value at the ground and the top). */
static inline void gale_kb_nl_fluxes(const gale_kmesh_t *km, int e, const double *restrict ub,
                                     double *restrict f, double *restrict fi)
{
    const int nl = km->nlev;
    const double *u = ub + (size_t)e * km->sc, l = km->elen[e];
    double *o = f + (size_t)e * km->sc, *oi = fi + (size_t)e * km->si;
    GALE_SIMD
    for (int k = 0; k < nl; k++) o[k] = l * u[k];
    GALE_SIMD
    for (int k = 1; k < nl; k++) oi[k] = l * (0.5 * (u[k - 1] + u[k]));
    oi[0] = l * u[0];
    oi[nl] = l * u[nl - 1];
}

/* Advective form of an interface field: tend = tq - q t1 - wbar G_z q, with
 * tq = -div_h(ubar q) and t1 = -div_h(ubar) from the flux-form kernels, and a
 * centred vertical difference (no w at the ground and the top). */
static inline void gale_kb_nl_advi(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                   const double *restrict q, const double *restrict tq,
                                   const double *restrict t1, const double *restrict wb,
                                   double *restrict tend)
{
    const int nl = km->nlev, si = km->si;
    const double *qc = q + (size_t)c * si, *a = tq + (size_t)c * si, *d = t1 + (size_t)c * si;
    const double *wc = wb + (size_t)c * si, *r2 = nk->rd2i;
    double *o = tend + (size_t)c * si;
    GALE_SIMD
    for (int k = 1; k < nl; k++) o[k] = (a[k] - qc[k] * d[k]) - wc[k] * ((qc[k + 1] - qc[k - 1]) * r2[k]);
    o[0] = a[0] - qc[0] * d[0];
    o[nl] = a[nl] - qc[nl] * d[nl];
}

/* Per cell: the reconstructed wind U_c (east, north) and the kinetic
 * energy u^T M_c u / (2 A_c) of the cell's mimetic inner product. */
static inline void gale_kb_nl_recon(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                    const double *restrict u, double *restrict ue,
                                    double *restrict un, double *restrict ke)
{
    const int nl = km->nlev, sc = km->sc;
    const double *x[4];
    gale_kb_edge_cols_d(km, c, u, x);
    const double *restrict x0 = x[0], *restrict x1 = x[1], *restrict x2 = x[2], *restrict x3 = x[3];
    const double *pr = nk->prc + 8 * (size_t)c, *mf = km->mfd + 16 * (size_t)c;
    const double h = 0.5 / km->area[c];
    double *oe = ue + (size_t)c * sc, *on = un + (size_t)c * sc, *ok = ke + (size_t)c * sc;
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        const double a0 = x0[k], a1 = x1[k], a2 = x2[k], a3 = x3[k];
        oe[k] = (pr[0] * a0 + pr[2] * a1) + (pr[4] * a2 + pr[6] * a3);
        on[k] = (pr[1] * a0 + pr[3] * a1) + (pr[5] * a2 + pr[7] * a3);
        const double m0 = (mf[0] * a0 + mf[1] * a1) + (mf[2] * a2 + mf[3] * a3);
        const double m1 = (mf[4] * a0 + mf[5] * a1) + (mf[6] * a2 + mf[7] * a3);
        const double m2 = (mf[8] * a0 + mf[9] * a1) + (mf[10] * a2 + mf[11] * a3);
        const double m3 = (mf[12] * a0 + mf[13] * a1) + (mf[14] * a2 + mf[15] * a3);
        ok[k] = h * ((a0 * m0 + a1 * m1) + (a2 * m2 + a3 * m3));
    }
}

/* The anticipated vorticity (APVM, Sadourny & Basdevant 1985): q = zeta + f
 * - tau_a U . grad zeta, U . grad zeta = (1/A) sum_s sigma_s l_s u_s
 * (zeta_s - zeta_c) with zeta_s the transport's face values of zeta. The
 * force stays perpendicular to U (energy-neutral); the upstream shift
 * dissipates enstrophy at the grid scale. */
static inline void gale_kb_nl_apvm(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                   double tau_a, const double *restrict zeta,
                                   const double *restrict zf, const double *restrict u,
                                   double *restrict q)
{
    const int nl = km->nlev, sc = km->sc;
    const double *z = zeta + (size_t)c * sc;
    /* tr_faces' layout for a layer field: face s of cell c at (4 c + s) sc */
    const double *f0 = zf + (size_t)(4 * c) * sc, *f1 = f0 + sc, *f2 = f1 + sc, *f3 = f2 + sc;
    double *o = q + (size_t)c * sc;
    double f[4];
    const double *uc[4];
    gale_kb_cell_fluxes(km, c, f);
    gale_kb_edge_cols_d(km, c, u, uc);
    const double s = tau_a / km->area[c], fc = nk->fcor[c];
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        const double adv = (f[0] * uc[0][k] * (f0[k] - z[k]) + f[1] * uc[1][k] * (f1[k] - z[k])) +
                           (f[2] * uc[2][k] * (f2[k] - z[k]) + f[3] * uc[3][k] * (f3[k] - z[k]));
        o[k] = (z[k] + fc) - s * adv;
    }
}

/* The vorticity force in weak form on edge e, dz sum over its cells of
 * A_c prc_c,s . F_c with F_c = -q k x U_c (q the absolute vorticity, nl_apvm): the transpose of the
 * reconstruction, so that u . (this) = sum_c A_c U_c . F_c = 0 exactly --
 * energy-neutral, where the strong form (the mean of F . n) is not: with the
 * planetary vorticity it let round-off grow with an e-folding time of about
 * a day, with the relative one the baroclinic wave gained energy and blew up
 * at day 8 (docs/nonlinear.md). */
static inline void gale_kb_nl_corw(const gale_kmesh_t *km, const gale_knl_t *nk, int e,
                                   const double *restrict ue, const double *restrict un,
                                   const double *restrict qa, double *restrict out)
{
    const int nl = km->nlev, sc = km->sc;
    double *o = out + (size_t)e * sc;
    const double *dz = km->dz;
    /* both cells' shares in one pass, added to 0 in cell order (the bits of
     * accumulating them in o one cell at a time) */
    const double *ec[2], *nc[2], *qc[2];
    double ae[2], an[2];
    int m = 0;
    for (int j = 0; j < 2; j++) {
        const int c = km->edge_cell[2 * e + j];
        if (c < 0) continue;
        const double *pr = nk->prc + 8 * (size_t)c + 2 * km->edge_side[2 * e + j];
        ae[m] = km->area[c] * pr[0], an[m] = km->area[c] * pr[1];
        ec[m] = ue + (size_t)c * sc, nc[m] = un + (size_t)c * sc, qc[m] = qa + (size_t)c * sc;
        m++;
    }
#define GALE_CORW(j, k) (dz[k] * (ae[j] * (qc[j][k] * nc[j][k]) - an[j] * (qc[j][k] * ec[j][k])))
    if (m == 2) {
        GALE_SIMD
        for (int k = 0; k < nl; k++) o[k] = (0.0 + GALE_CORW(0, k)) + GALE_CORW(1, k);
    } else if (m == 1) {
        GALE_SIMD
        for (int k = 0; k < nl; k++) o[k] = 0.0 + GALE_CORW(0, k);
    } else {
        for (int k = 0; k < nl; k++) o[k] = 0.0;
    }
#undef GALE_CORW
}

/* The budgets' densities of cell c (per unit volume): e[k] = cv rho theta_c
 * Pi (internal energy), e[sc + k] = rho (K + (w_k^2 + w_k+1^2) / 4)
 * (kinetic; e has 2 sc levels), ent = cp rho ln theta_c; ps = p0 (Pi_0 + g z_0 / (cp
 * theta_0))^(cp/R), hydrostatic from the lowest layer's centre, in every
 * level. No GALE_SIMD: log and pow, as in nl_eos. */
static inline void gale_kb_nl_budget(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                     const double *restrict rho, const double *restrict th,
                                     const double *restrict pi, const double *restrict w,
                                     const double *restrict ke, double *restrict e,
                                     double *restrict ent, double *restrict ps, int ps_stride)
{
    const int nl = km->nlev, sc = km->sc, si = km->si;
    const double *r = rho + (size_t)c * sc, *t = th + (size_t)c * si, *p = pi + (size_t)c * sc;
    const double *wc = w + (size_t)c * si, *kc = ke + (size_t)c * sc;
    double *ec = e + (size_t)c * 2 * sc, *sc_ = ent + (size_t)c * sc;
    const double cp = nk->cp, cv = nk->cp - nk->rd;
    for (int k = 0; k < nl; k++) {
        const double thc = 0.5 * (t[k] + t[k + 1]);
        ec[k] = cv * r[k] * thc * p[k];
        ec[sc + k] = r[k] * (kc[k] + 0.25 * (wc[k] * wc[k] + wc[k + 1] * wc[k + 1]));
        sc_[k] = cp * r[k] * log(thc);
    }
    /* the surface pressure: one value per column (ps is a one-level field) */
    ps[(size_t)c * ps_stride] =
        nk->p0 * pow(p[0] + nk->g * (0.5 * km->dz[0]) / (cp * t[0]), cp / nk->rd);
}

/* Per cell: the relative vorticity, the mean of the circulations about its
 * four corners (gale_knl.h's vidx, vw) of the wind along the lines between
 * cell centres, U_e.t_e = the mean of the edge's two cells' U.t. */
static inline void gale_kb_nl_vort(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                   const double *restrict ue, const double *restrict un,
                                   double *restrict zeta)
{
    const int nl = km->nlev, sc = km->sc;
    const int *vi = nk->vidx + 12 * (size_t)c;
    const double *vw = nk->vw + 12 * (size_t)c;
    double *oz = zeta + (size_t)c * sc;
    for (int k = 0; k < nl; k++) oz[k] = 0.0;
    for (int j = 0; j < 12; j++) {
        const int e = vi[j], c1 = km->edge_cell[2 * e], c2 = km->edge_cell[2 * e + 1];
        const double *t = nk->tng + 4 * (size_t)e, w = 0.5 * vw[j];
        const double *e1 = ue + (size_t)c1 * sc, *n1 = un + (size_t)c1 * sc;
        const double *e2 = ue + (size_t)c2 * sc, *n2 = un + (size_t)c2 * sc;
        if (w == 0.0) continue; /* padding (its cells may be outside) */
        GALE_SIMD
        for (int k = 0; k < nl; k++)
            oz[k] += w * ((t[0] * e1[k] + t[1] * n1[k]) + (t[2] * e2[k] + t[3] * n2[k]));
    }
}

/* One cell's share of the vertical advection on an edge at level k:
 * -(wbar_c G_z U) . n, centred between levels kl and ku (k -+ 1, clamped to
 * one side at the end layers). */
static inline double gale_kb_nl_vadv(const gale_knl_t *nk, double ne_, double nn,
                                     const double *ue, const double *un, const double *wb, int k,
                                     int kl, int ku)
{
    const double wc = 0.5 * (wb[k] + wb[k + 1]), r = nk->rd2c[k];
    return -(wc * (((ue[ku] - ue[kl]) * r) * ne_ + ((un[ku] - un[kl]) * r) * nn));
}

/* The transport's momentum tendency of edge e (strong form): the mean of its
 * cells' vertical advection of the reconstructed wind. The vorticity and
 * kinetic-energy terms are the forcing's, weak (nl_corw, nl_pgrad). The
 * end layers are one-sided, so the interior is its own loop (SIMD). */
static inline void gale_kb_nl_mom(const gale_kmesh_t *km, const gale_knl_t *nk, int e,
                                  const double *restrict ue, const double *restrict un,
                                  const double *restrict wb, double *restrict out)
{
    const int nl = km->nlev, sc = km->sc, si = km->si;
    const int c1 = km->edge_cell[2 * e], c2 = km->edge_cell[2 * e + 1];
    const double *e1 = ue + (size_t)c1 * sc, *n1 = un + (size_t)c1 * sc;
    const double *e2 = ue + (size_t)c2 * sc, *n2 = un + (size_t)c2 * sc;
    const double *w1 = wb + (size_t)c1 * si, *w2 = wb + (size_t)c2 * si;
    const double *nr = nk->nrm + 4 * (size_t)e;
    const double a0 = nr[0], a1 = nr[1], b0 = nr[2], b1 = nr[3];
    double *o = out + (size_t)e * sc;
    GALE_SIMD
    for (int k = 1; k < nl - 1; k++)
        o[k] = 0.5 * (gale_kb_nl_vadv(nk, a0, a1, e1, n1, w1, k, k - 1, k + 1) +
                      gale_kb_nl_vadv(nk, b0, b1, e2, n2, w2, k, k - 1, k + 1));
    const int ends[2] = {0, nl - 1};
    for (int i = 0; i < (nl > 1 ? 2 : 1); i++) {
        const int k = ends[i], kl = k > 0 ? k - 1 : 0, ku = k < nl - 1 ? k + 1 : nl - 1;
        o[k] = 0.5 * (gale_kb_nl_vadv(nk, a0, a1, e1, n1, w1, k, kl, ku) +
                      gale_kb_nl_vadv(nk, b0, b1, e2, n2, w2, k, kl, ku));
    }
}

/* The advective form's wind (docs/nonlinear.md, "The advective form of the
 * wind"): cell c's reconstructed wind as three Cartesian components, each
 * a scalar the transport moves; the east and north basis turns from cell
 * to cell, the Cartesian one does not. */
static inline void gale_kb_nl_cart(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                   const double *restrict ue, const double *restrict un,
                                   double *restrict cx, double *restrict cy, double *restrict cz)
{
    const int nl = km->nlev;
    const size_t o = (size_t)c * km->sc;
    const double *b = nk->enb + 6 * (size_t)c, *e = ue + o, *n = un + o;
    double *x = cx + o, *y = cy + o, *z = cz + o;
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        x[k] = b[0] * e[k] + b[3] * n[k];
        y[k] = b[1] * e[k] + b[4] * n[k];
        z[k] = b[2] * e[k] + b[5] * n[k];
    }
}

/* The horizontal advection of the wind on edge e, added to out: the mean
 * over its two cells of n . (-(ubar . grad) U), each component's from the
 * transport's flux form less U div(ubar) (t* = -div(U* ubar), dv =
 * -div(ubar)), n taken in the cell's tangent plane (so the radial part, a
 * deep-atmosphere metric term, drops out). */
static inline void gale_kb_nl_madv(const gale_kmesh_t *km, const gale_knl_t *nk, int e,
                                   const double *restrict cx, const double *restrict cy,
                                   const double *restrict cz, const double *restrict tx,
                                   const double *restrict ty, const double *restrict tz,
                                   const double *restrict dv, double *restrict out)
{
    const int nl = km->nlev, sc = km->sc;
    double *o = out + (size_t)e * sc;
    for (int j = 0; j < 2; j++) {
        const int c = km->edge_cell[2 * e + j];
        const double *b = nk->enb + 6 * (size_t)c, *nr = nk->nrm + 4 * (size_t)e + 2 * j;
        const double nx = 0.5 * (b[0] * nr[0] + b[3] * nr[1]);
        const double ny = 0.5 * (b[1] * nr[0] + b[4] * nr[1]);
        const double nz = 0.5 * (b[2] * nr[0] + b[5] * nr[1]);
        const size_t q = (size_t)c * sc;
        const double *x = cx + q, *y = cy + q, *z = cz + q, *ax = tx + q, *ay = ty + q, *az = tz + q,
                     *d = dv + q;
        GALE_SIMD
        for (int k = 0; k < nl; k++)
            o[k] += (nx * (ax[k] - x[k] * d[k]) + ny * (ay[k] - y[k] * d[k])) +
                    nz * (az[k] - z[k] * d[k]);
    }
}

/* The horizontal Courant number of cell c: dt times the volume the wind
 * u carries out through its four sides per unit height, over its area --
 * the explicit transport's stability measure (docs/nonlinear.md). */
static inline void gale_kb_nl_cfl(const gale_kmesh_t *km, int c, double dt,
                                  const double *restrict u, double *restrict cf)
{
    const double *x[4];
    gale_kb_edge_cols_d(km, c, u, x);
    const int *ce = km->cell_edge + 4 * c;
    const double *sg = km->cell_sign + 4 * c, h = dt / km->area[c];
    double l[4];
    for (int s = 0; s < 4; s++) l[s] = sg[s] * km->elen[ce[s]];
    const double *restrict x0 = x[0], *restrict x1 = x[1], *restrict x2 = x[2], *restrict x3 = x[3];
    double *o = cf + (size_t)c * km->sc;
    GALE_SIMD
    for (int k = 0; k < km->nlev; k++) {
        const double a = l[0] * x0[k], b = l[1] * x1[k], d = l[2] * x2[k], e = l[3] * x3[k];
        o[k] = h * (((a > 0 ? a : 0.0) + (b > 0 ? b : 0.0)) + ((d > 0 ? d : 0.0) + (e > 0 ? e : 0.0)));
    }
}

/* The deep atmosphere's forcing of u on edge e, added to out (the vorticity
 * force's field, an acceleration, weak as nl_corw): the full Coriolis
 * vector's cos(lat) part and the metric term, F_c = -w_c (2 Omega cos(lat)
 * + U_c / r) on the cell's (east, north) wind U_c, w_c the layer's mean.
 * With nl_dvf's its energy exchange with w cancels (docs/nonlinear.md,
 * "The deep atmosphere"). */
static inline void gale_kb_nl_dcor(const gale_kmesh_t *km, const gale_knl_t *nk, int e,
                                   const double *restrict ue, const double *restrict un,
                                   const double *restrict w, double *restrict out)
{
    const int nl = km->nlev, sc = km->sc, si = km->si;
    double *o = out + (size_t)e * sc;
    const double *dz = km->dz, *rc = nk->rc;
    for (int j = 0; j < 2; j++) {
        const int c = km->edge_cell[2 * e + j];
        if (c < 0) continue;
        const double *pr = nk->prc + 8 * (size_t)c + 2 * km->edge_side[2 * e + j];
        const double ae = km->area[c] * pr[0], an = km->area[c] * pr[1], fc = nk->fcos[c];
        const double *e1 = ue + (size_t)c * sc, *n1 = un + (size_t)c * sc, *wc = w + (size_t)c * si;
        GALE_SIMD
        for (int k = 0; k < nl; k++) {
            const double wm = 0.5 * (wc[k] + wc[k + 1]);
            o[k] -= dz[k] * (wm * (ae * (fc + e1[k] * rc[k]) + an * (n1[k] * rc[k])));
        }
    }
}

/* The deep atmosphere's forcing of w in cell c, added to fv (which is minus
 * the acceleration): -(2 Omega cos(lat) U_east + |U|^2 / r) at the interior
 * interfaces, U the mean of the two layers' reconstructed winds. */
static inline void gale_kb_nl_dvf(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                  const double *restrict ue, const double *restrict un,
                                  double *restrict fv)
{
    const int nl = km->nlev, sc = km->sc;
    const double *e = ue + (size_t)c * sc, *n = un + (size_t)c * sc, *ri = nk->ri;
    const double fc = nk->fcos[c];
    double *o = fv + (size_t)c * km->si;
    GALE_SIMD
    for (int k = 1; k < nl; k++) {
        const double a = 0.5 * (e[k - 1] + e[k]), b = 0.5 * (n[k - 1] + n[k]);
        o[k] -= gale_knl_deep_lift(fc, a, b, ri[k]);
    }
}

/* q = f, the Coriolis parameter: the advective form's vorticity force is
 * the Coriolis force alone. */
static inline void gale_kb_nl_fcor(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                   double *restrict q)
{
    const double f = nk->fcor[c];
    double *o = q + (size_t)c * km->sc;
    GALE_SIMD
    for (int k = 0; k < km->nlev; k++) o[k] = f;
}

/* The part of the normal wind on edge e that its two cells' reconstructed
 * winds do not carry: r = u - (U_1 . n + U_2 . n) / 2. On a uniform grid it
 * is (2 u_e - u_l - u_r) / 4, the second difference across the edge, and it
 * is all of the reconstruction's null space -- the grid-scale modes that the
 * vorticity force, the vorticity and U's advection cannot see
 * (docs/nonlinear.md). */
static inline void gale_kb_nl_grid(const gale_kmesh_t *km, const gale_knl_t *nk, int e,
                                   const double *restrict u, const double *restrict ue,
                                   const double *restrict un, double *restrict r)
{
    const int nl = km->nlev, sc = km->sc;
    const int c1 = km->edge_cell[2 * e], c2 = km->edge_cell[2 * e + 1];
    const double *e1 = ue + (size_t)c1 * sc, *n1 = un + (size_t)c1 * sc;
    const double *e2 = ue + (size_t)c2 * sc, *n2 = un + (size_t)c2 * sc;
    const double *nr = nk->nrm + 4 * (size_t)e, *uu = u + (size_t)e * sc;
    double *o = r + (size_t)e * sc;
    GALE_SIMD
    for (int k = 0; k < nl; k++)
        o[k] = uu[k] - 0.5 * ((nr[0] * e1[k] + nr[1] * n1[k]) + (nr[2] * e2[k] + nr[3] * n2[k]));
}

/* G_z theta at interface k: centred inside, one-sided at the ground and the top. */
static inline double gale_kb_nl_dth(const gale_kmesh_t *km, const gale_knl_t *nk,
                                    const double *th, int k)
{
    const int nl = km->nlev;
    if (k == 0) return (th[1] - th[0]) / km->dz[0];
    if (k == nl) return (th[nl] - th[nl - 1]) / km->dz[nl - 1];
    return (th[k + 1] - th[k - 1]) * nk->rd2i[k];
}

/* The reference state of column c and the operator's rows (gale_knl.h),
 * into the field's column c (the readers take nk->pstride: 0 when every
 * column has the same rows), from theta* = th and the lowest layer's Pi* =
 * pi[0]; Pi* above it in discrete hydrostatic balance with theta* (and the
 * interfaces' gravity), rho* from the equation of state (docs/nonlinear.md,
 * "The linear system"). The RC2 row holds Pi* until its
 * own value replaces it, level by level. Sequential in k. */
static inline void gale_kb_nl_ref(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                  const double *restrict th, const double *restrict pi,
                                  double *restrict prof, int prof_stride)
{
    const int nl = km->nlev, si = km->si;
    const double *t = th + (size_t)c * si;
    double *P = prof + (size_t)c * prof_stride;
#define R(row) (P + (size_t)(row) * si)
    double *TH = R(GALE_NLP_THI), *PS = R(GALE_NLP_RC2), *RH = R(GALE_NLP_RHOC);
    const double cp = nk->cp, rd = nk->rd, g = nk->g, n2r = nk->n2r, p0 = nk->p0;
    const double *dzv = nk->dzv, *qi = nk->qi, *gi = nk->gi, *dzi = km->dzi, *rdzi = km->rdzi;
    for (int k = 0; k <= nl; k++) TH[k] = t[k];
    PS[0] = pi[(size_t)c * km->sc];
    for (int k = 1; k < nl; k++) PS[k] = PS[k - 1] - gi[k] * dzi[k] / (cp * TH[k]);
    for (int k = 0; k < nl; k++)
        RH[k] = p0 * pow(PS[k], 1.0 / nk->kap) / (rd * (0.5 * (TH[k] + TH[k + 1])));
    for (int k = 0; k <= nl; k++) {
        const double dth = gale_kb_nl_dth(km, nk, TH, k), n2 = g * dth / TH[k];
        R(GALE_NLP_N2R)[k] = n2 / n2r;
        R(GALE_NLP_RB)[k] = g / (TH[k] * n2r);
        R(GALE_NLP_DTH)[k] = k > 0 && k < nl ? dth : 0.0;
        const int inner = k > 0 && k < nl;
        R(GALE_NLP_GZA)[k] = inner ? TH[k] / (0.5 * (TH[k] + TH[k + 1])) : 0.0;
        R(GALE_NLP_GZB)[k] = inner ? TH[k] / (0.5 * (TH[k - 1] + TH[k])) : 0.0;
        R(GALE_NLP_BETA)[k] = inner ? -cp * TH[k] * (PS[k] - PS[k - 1]) * rdzi[k] / g : 0.0;
        R(GALE_NLP_RHOI)[k] = inner ? 0.5 * (RH[k - 1] + RH[k]) : 0.0;
    }
    for (int k = 0; k < nl; k++) {
        const double thc = 0.5 * (TH[k] + TH[k + 1]);
        const double dlo = gale_kb_nl_dth(km, nk, TH, k), dhi = gale_kb_nl_dth(km, nk, TH, k + 1);
        R(GALE_NLP_WLO)[k] = -(qi[k] * R(GALE_NLP_RHOI)[k]) / (RH[k] * dzv[k]) + dlo / (2.0 * thc);
        R(GALE_NLP_WHI)[k] =
            (qi[k + 1] * R(GALE_NLP_RHOI)[k + 1]) / (RH[k] * dzv[k]) + dhi / (2.0 * thc);
        R(GALE_NLP_RRHO)[k] = 1.0 / RH[k];
        R(GALE_NLP_TC2)[k] = 1.0 / (2.0 * thc);
        PS[k] = 1.0 / (cp * (rd / (cp - rd)) * thc * PS[k]); /* Pi* -> 1 / c*^2 */
    }
#undef R
}

/* rho* on edge e: the mean of its two columns', so that both cells of the
 * edge see the same mass flux. */
static inline void gale_kb_nl_rhoe(const gale_kmesh_t *km, const gale_knl_t *nk, int e,
                                   const double *restrict prof, double *restrict rhoe)
{
    const int nl = km->nlev;
    const size_t row = (size_t)GALE_NLP_RHOC * km->si;
    const double *r1 = prof + (size_t)km->edge_cell[2 * e] * nk->pstride + row;
    const double *r2 = prof + (size_t)km->edge_cell[2 * e + 1] * nk->pstride + row;
    double *o = rhoe + (size_t)e * km->sc;
    GALE_SIMD
    for (int k = 0; k < nl; k++) o[k] = 0.5 * (r1[k] + r2[k]);
}

/* Rows (gale_kdesc.h). An edge reads its two cells (stencil 1 of a cell
 * field); a cell reads its own edges (stencil 0 of an edge field); the
 * vorticity and the reconstruction's users read the cells about a cell's
 * corners (stencil 1). The column-local kernels go as far into the halo as
 * their inputs are valid (redundant 1), except the readers of NK's reference
 * rows (prof, rhoe; the PSy layer does not see them), which stay on owned
 * columns: nl_ref writes prof there (nl_rhoe's stencil brings its halo) and
 * nl_rhoe rho* on the owned columns' edges. bytes: the geometry of a column
 * (connectivity, prc, mfd, ...), NK's rhoe, the reference rows per column
 * when there is one each (PS), less what a field's columns hold unread (the
 * ground and top of an interface field, prof's padding and, for nl_rhoe,
 * all but one row of it, e's padding). */
#define GALE_KROWS_NL(K)                                                                   \
    K(nl_eos, CELLS, N, D, 0, 1, 0, 4 + 2.0 / NL,                                          \
      ((rho, C, R, 0), (th, I, R, 0), (pi, C, W, 0)),                                      \
      gale_kb_nl_eos(KM, NK, i, rho, th, pi), 0)                                           \
    K(nl_pgrad, EDGES, N, D, 0, 0, 16.0 / NL, (11 * NLAY + 1) / NL,                        \
      ((th, I, R, 1), (pi, C, R, 1), (ke, C, R, 1), (kw, S, R, 0), (pg, E, W, 0)),         \
      gale_kb_nl_pgrad(KM, NK, i, th, pi, ke, kw, pg), 0)                                      \
    K(nl_vforce, CELLS, N, D, 0, 1, -16.0 / NL, 5 * (NLAY - 1) / NL,                       \
      ((th, I, R, 0), (pi, C, R, 0), (fv, I, W, 0)),                                       \
      gale_kb_nl_vforce(KM, NK, i, th, pi, fv), 0)                                         \
    K(nl_rhs, CELLS, N, D, 0, 0, (8 * PS * (4 * NLAY - 1) - 8) / NL, (15 * NLAY - 3) / NL, \
      ((Rw, I, R, 0), (Rt, I, R, 0), (Rr, C, R, 0), (pi, C, R, 0), (pe, C, R, 0),          \
       (rw, I, W, 0), (rb, I, W, 0), (rp, C, W, 0)),                                       \
      gale_kb_nl_rhs(KM, NK, i, Rw, Rt, Rr, pi, pe, rw, rb, rp), 0)                        \
    K(nl_pinc, CELLS, N, D, 0, 0, 8 * PS, 3 + 1.0 / NL, ((p, C, R, 0), (pi, C, RW, 0)),    \
      gale_kb_nl_pinc(KM, NK, i, p, pi), 0)                                                \
    K(nl_mixcol, CELLS, N, DF, 0, 0,                                                        \
      (72 - 2 * ES + 16 * NLAY + 32 * PS * (2 * NLAY - 1)) / NL, 41 - 12.0 / NL,                    \
      ((a, S, R, 0), (s, S, R, 0), (u, E, R, 0), (w, I, R, 0), (b, I, R, 0), (p, C, R, 0), \
       (yw, I, W, 0), (yb, I, W, 0), (yp, C, W, 0)),                                       \
      gale_kb_nl_mixcol_d(KM, NK, i, a, s, u, w, b, p, yw, yb, yp),                     \
      gale_kb_nl_mixcol_f(KM, NK, i, a, s, u, w, b, p, yw, yb, yp))                       \
    K(nl_ref, CELLS, N, D, 0, 0,                                                           \
      (72 + 104 * NLAY - 8 * prof_nlev) / NL, (58 * NLAY - 10) / NL,                       \
      ((th, I, R, 0), (pi, C, R, 0), (prof, C, W, 0)),                                     \
      gale_kb_nl_ref(KM, NK, i, th, pi, prof, prof_stride), 0)                                          \
    K(nl_rhoe, EDGES, N, D, 0, 0, (8 + 4 * PS * NLAY) / NL - 4, 2 * NLAY / NL,             \
      ((prof, C, R, 1), (rhoe, E, W, 0)),                                                  \
      gale_kb_nl_rhoe(KM, NK, i, prof, rhoe), 0)                                           \
    K(nl_update, CELLS, N, D, 0, 0, (32 + 8 * NLAY + 16 * PS * NLAY) / NL, 27 + 4.0 / NL,  \
      ((tau, S, R, 0), (du, E, R, 0), (dw, I, R, 0), (b, I, R, 0), (Rt, I, R, 0),          \
       (Rr, C, R, 0), (w, I, RW, 0), (th, I, RW, 0), (rho, C, RW, 0)),                     \
      gale_kb_nl_update(KM, NK, i, tau, du, dw, b, Rt, Rr, w, th, rho), 0)                 \
    K(nl_fcor, CELLS, N, D, 0, 1, 8.0 / NL, 0, ((q, C, W, 0)), gale_kb_nl_fcor(KM, NK, i, q), 0) \
    K(nl_dcor, EDGES, N, D, 0, 0, 56.0 / NL, 22 + 4.0 / NL,                                \
      ((ue, C, R, 1), (un, C, R, 1), (w, I, R, 1), (out, E, RW, 0)),                       \
      gale_kb_nl_dcor(KM, NK, i, ue, un, w, out), 0)                                       \
    K(nl_dvf, CELLS, N, D, 0, 0, -24.0 / NL, 11 - 11.0 / NL,                               \
      ((ue, C, R, 0), (un, C, R, 0), (fv, I, RW, 0)),                                      \
      gale_kb_nl_dvf(KM, NK, i, ue, un, fv), 0)                                            \
    K(nl_vort, CELLS, N, D, 0, 1, 224.0 / NL, 108 + 24.0 / NL,                             \
      ((ue, C, R, 1), (un, C, R, 1), (zeta, C, W, 0)),                                     \
      gale_kb_nl_vort(KM, NK, i, ue, un, zeta), 0)                                         \
    K(nl_tlin, CELLS, N, D, 0, 0, (40 + 16 * NLAY + 16 * PS * NLAY) / NL, 25 + 2.0 / NL,   \
      ((tau, S, R, 0), (du, E, R, 0), (dw, I, R, 0), (Rt, I, RW, 0), (Rr, C, RW, 0)),      \
      gale_kb_nl_tlin(KM, NK, i, tau, du, dw, Rt, Rr), 0)                                  \
    K(nl_corw, EDGES, N, D, 0, 0, 52.0 / NL, 14 + 4.0 / NL,                                \
      ((ue, C, R, 1), (un, C, R, 1), (qa, C, R, 1), (out, E, W, 0)),                       \
      gale_kb_nl_corw(KM, NK, i, ue, un, qa, out), 0)                                      \
    K(nl_apvm, CELLS, N, D, 0, 0, (80 + 8 * (4 * NL - zf_nlev)) / NL, 18 + 5.0 / NL,       \
      ((tau_a, S, R, 0), (zeta, C, R, 0), (zf, C, R, 0), (u, E, R, 0), (q, C, W, 0)),      \
      gale_kb_nl_apvm(KM, NK, i, tau_a, zeta, zf, u, q), 0)                                \
    K(nl_budget, CELLS, N, D, 0, 0, 8 * (2 * NL - e_nlev) / NL, 14 + 9.0 / NL,             \
      ((rho, C, R, 0), (th, I, R, 0), (pi, C, R, 0), (w, I, R, 0), (ke, C, R, 0),          \
       (e, C, W, 0), (ent, C, W, 0), (ps, C, W, 0)),                                       \
      gale_kb_nl_budget(KM, NK, i, rho, th, pi, w, ke, e, ent, ps, ps_stride), 0)                     \
    K(nl_grid, EDGES, N, D, 0, 1, 40.0 / NL, 9,                                            \
      ((u, E, R, 0), (ue, C, R, 1), (un, C, R, 1), (r, E, W, 0)),                          \
      gale_kb_nl_grid(KM, NK, i, u, ue, un, r), 0)

/* The nonlinear core's transport (semi_implicit.c's transport() and its
 * tendencies): the advecting wind's fluxes, the advective forms of theta and
 * w, the wind's reconstruction and its vertical and (advective form)
 * horizontal advection, and the Courant number that sets the substeps. The
 * forcing also calls nl_recon (and the budget nl_recon and nl_cfl); the
 * vector-invariant form's vorticity force (nl_vort, nl_apvm, nl_corw) is
 * the forcing's (GALE_KROWS_NL). */
#define GALE_KROWS_NL_TRANSPORT(K)                                                         \
    K(nl_fluxes, EDGES, N, D, 0, 1, 8.0 / NL, 4 - 1.0 / NL,                                \
      ((ub, E, R, 0), (f, E, W, 0), (fi, E, W, 0)),                                        \
      gale_kb_nl_fluxes(KM, i, ub, f, fi), 0)                                              \
    K(nl_advi, CELLS, N, D, 0, 1, -16.0 / NL, (6 * NLAY - 2) / NL,                         \
      ((q, I, R, 0), (tq, I, R, 0), (t1, I, R, 0), (wb, I, R, 0), (tend, I, W, 0)),        \
      gale_kb_nl_advi(KM, NK, i, q, tq, t1, wb, tend), 0)                                  \
    K(nl_recon, CELLS, N, D, 0, 1, 216.0 / NL, 50 + 1.0 / NL,                              \
      ((u, E, R, 0), (ue, C, W, 0), (un, C, W, 0), (ke, C, W, 0)),                         \
      gale_kb_nl_recon(KM, NK, i, u, ue, un, ke), 0)                                       \
    K(nl_mom, EDGES, N, D, 0, 0, 40.0 / NL, 22,                                            \
      ((ue, C, R, 1), (un, C, R, 1), (wb, I, R, 1), (out, E, W, 0)),                       \
      gale_kb_nl_mom(KM, NK, i, ue, un, wb, out), 0)                                       \
    K(nl_cart, CELLS, N, D, 0, 1, 48.0 / NL, 9,                                            \
      ((ue, C, R, 0), (un, C, R, 0), (cx, C, W, 0), (cy, C, W, 0), (cz, C, W, 0)),         \
      gale_kb_nl_cart(KM, NK, i, ue, un, cx, cy, cz), 0)                                   \
    K(nl_madv, EDGES, N, D, 0, 0, 64.0 / NL, 24 + 24.0 / NL,                               \
      ((cx, C, R, 1), (cy, C, R, 1), (cz, C, R, 1), (tx, C, R, 1), (ty, C, R, 1),          \
       (tz, C, R, 1), (dv, C, R, 1), (out, E, RW, 0)),                                     \
      gale_kb_nl_madv(KM, NK, i, cx, cy, cz, tx, ty, tz, dv, out), 0)                      \
    K(nl_cfl, CELLS, M, D, 0, 1, 72.0 / NL, 12 + 5.0 / NL,                                 \
      ((dt, S, R, 0), (u, E, R, 0), (cf, C, W, 0)),                                        \
      gale_kb_nl_cfl(KM, i, dt, u, cf), 0)

#endif
