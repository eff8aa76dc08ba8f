/* The mixed system's kernel bodies (the operator's rows, the linear core's
 * and the nonlinear core's; the approximate Schur complement's; GCR's
 * update), a template over the precision of their fields: gale_kbodies.h
 * includes this twice, GALE_R = double / float and GALE_KB(name) adding
 * _d / _f. The coefficients (the mesh's, the reference state's rows) stay
 * double, so a float body rounds where it stores (LFRic's r_solver fields: docs/numerics.md,
 * "The mixed solve in single precision"); the double instance is the text
 * the model always ran, the same bits. No include guard on purpose. */

/* The four edge columns of cell c of an edge field, sides W,S,E,N. */
static inline void GALE_KB(gale_kb_edge_cols)(const gale_kmesh_t *km, int c, const GALE_R *f,
                                              const GALE_R *col[4])
{
    const int *ce = km->cell_edge + 4 * c;
    for (int i = 0; i < 4; i++) col[i] = f + (size_t)ce[i] * km->sc;
}

/* out = in - s G_h p on one edge: G_h p = hl_k (p[second] - p[first]) / d_e (hl = 1 in
 * flat columns: the layer's face over its volume, docs/numerics.md) */
__attribute__((always_inline)) static inline void
GALE_KB(gale_kb_grad_h_in)(const gale_kmesh_t *km, int e, double s, const GALE_R *restrict in,
                  const GALE_R *restrict p, GALE_R *restrict out, const int deep)
{
    const int nl = km->nlev, sc = km->sc;
    const GALE_R *p1 = p + (size_t)km->edge_cell[2 * e] * sc;
    const GALE_R *p2 = p + (size_t)km->edge_cell[2 * e + 1] * sc;
    const GALE_R *a = in + (size_t)e * sc;
    GALE_R *o = out + (size_t)e * sc;
    const double f = s * km->erdist[e], *hl = km->hl;
    GALE_SIMD
    for (int k = 0; k < nl; k++) o[k] = a[k] - (deep ? f * hl[k] : f) * (p2[k] - p1[k]);
}
static inline void GALE_KB(gale_kb_grad_h)(const gale_kmesh_t *km, int e, double s,
                                  const GALE_R *restrict in, const GALE_R *restrict p,
                                  GALE_R *restrict out)
{
    if (km->deep)
        GALE_KB(gale_kb_grad_h_in)(km, e, s, in, p, out, 1);
    else
        GALE_KB(gale_kb_grad_h_in)(km, e, s, in, p, out, 0);
}


static inline void GALE_KB(gale_kb_col_backsub)(const gale_kmesh_t *km, int c, const GALE_R *restrict p,
                                       const GALE_R *restrict ws, const GALE_R *restrict rb,
                                       GALE_R *restrict w, GALE_R *restrict b)
{
    const int nl = km->nlev, si = km->si;
    const GALE_R *pc = p + (size_t)c * km->sc;
    const GALE_R *wsc = ws + (size_t)c * si, *rbc = rb + (size_t)c * si;
    GALE_R *wc = w + (size_t)c * si, *bc = b + (size_t)c * si;
    const double n2 = km->n2, tau = km->tau, rden = 1.0 / (1.0 + tau * tau * n2);
    const double *rdzi = km->rdzi;
    GALE_SIMD
    for (int k = 1; k < nl; k++) {
        double wk = wsc[k] - tau * rden * ((pc[k] - pc[k - 1]) * rdzi[k]);
        wc[k] = wk;
        bc[k] = rbc[k] - tau * n2 * wk;
    }
    wc[0] = 0.0;
    wc[nl] = 0.0;
    bc[0] = rbc[0];
    bc[nl] = rbc[nl];
}


/* One edge of y_u = a M_u u + s l_e dzf (p[second] - p[first]): the mimetic
 * row is the first cell's row plus the second's, sides in cell order, times
 * the layer's dzv (dzf = dzv hl: flat columns multiply by 1). */
__attribute__((always_inline)) static inline void
GALE_KB(gale_kb_mix_u_in)(const gale_kmesh_t *km, int e, double a, double s, const GALE_R *restrict u,
                 const GALE_R *restrict p, GALE_R *restrict yu, const int deep)
{
    const int nl = km->nlev, sc = km->sc;
    const int c1 = km->edge_cell[2 * e], c2 = km->edge_cell[2 * e + 1];
    const GALE_R *p1 = p ? p + (size_t)c1 * sc : NULL, *p2 = p ? p + (size_t)c2 * sc : NULL;
    GALE_R *y = yu + (size_t)e * sc;
    const double *dz = km->dzv, *hl = km->hl, f = s * km->elen[e];
    if (!u) {
        GALE_SIMD
        for (int k = 0; k < nl; k++) y[k] = dz[k] * ((deep ? hl[k] : 1.0) * (f * (p2[k] - p1[k])));
        return;
    }
    if (!p) p1 = p2 = u; /* s = 0: the difference is zero */
    const double *m1 = gale_kb_mfd_row(km, c1, km->edge_side[2 * e]);
    const double *m2 = gale_kb_mfd_row(km, c2, km->edge_side[2 * e + 1]);
    const double a0 = a * m1[0], a1 = a * m1[1], a2 = a * m1[2], a3 = a * m1[3];
    const double b0 = a * m2[0], b1 = a * m2[1], b2 = a * m2[2], b3 = a * m2[3];
    const GALE_R *x[4], *z[4];
    GALE_KB(gale_kb_edge_cols)(km, c1, u, x);
    GALE_KB(gale_kb_edge_cols)(km, c2, u, z);
    const GALE_R *restrict x0 = x[0], *restrict x1 = x[1], *restrict x2 = x[2], *restrict x3 = x[3];
    const GALE_R *restrict z0 = z[0], *restrict z1 = z[1], *restrict z2 = z[2], *restrict z3 = z[3];
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        double m = (a0 * x0[k] + a1 * x1[k] + a2 * x2[k] + a3 * x3[k]) +
                   (b0 * z0[k] + b1 * z1[k] + b2 * z2[k] + b3 * z3[k]);
        y[k] = dz[k] * (m + (deep ? hl[k] : 1.0) * (f * (p2[k] - p1[k])));
    }
}
static inline void GALE_KB(gale_kb_mix_u)(const gale_kmesh_t *km, int e, double a, double s,
                                 const GALE_R *restrict u, const GALE_R *restrict p,
                                 GALE_R *restrict yu)
{
    if (km->deep)
        GALE_KB(gale_kb_mix_u_in)(km, e, a, s, u, p, yu, 1);
    else
        GALE_KB(gale_kb_mix_u_in)(km, e, a, s, u, p, yu, 0);
}


/* One column of y_w, y_b, y_p (gale_k_mix_col). */
__attribute__((always_inline)) static inline void
GALE_KB(gale_kb_mix_col_in)(const gale_kmesh_t *km, int c, double a, double s, const GALE_R *restrict u,
                   const GALE_R *restrict w, const GALE_R *restrict b, const GALE_R *restrict p,
                   GALE_R *restrict yw, GALE_R *restrict yb, GALE_R *restrict yp, const int deep)
{
    const int nl = km->nlev, sc = km->sc, si = km->si;
    const GALE_R *wc = w + (size_t)c * si, *bc = b + (size_t)c * si, *pc = p + (size_t)c * sc;
    GALE_R *ywc = yw + (size_t)c * si, *ybc = yb + (size_t)c * si, *ypc = yp + (size_t)c * sc;
    const double area = km->area[c], rn2 = 1.0 / km->n2, ad = a * km->h_ad[c];
    const double *dzv = km->dzv, *dzf = deep ? km->dzf : dzv, *qi = km->qi; /* flat: one dz */
    const double *dzi = km->dzqi, *rdzi = km->rdzi;
    GALE_SIMD
    for (int k = 1; k < nl; k++) {
        double mw = area * dzi[k], gzp = (pc[k] - pc[k - 1]) * rdzi[k];
        ywc[k] = mw * (a * wc[k] + s * (gzp - bc[k]));
        ybc[k] = mw * (a * (bc[k] * rn2) + s * wc[k]);
    }
    ywc[0] = ywc[nl] = ybc[0] = ybc[nl] = 0.0;
    double f[4];
    const GALE_R *uc[4];
    gale_kb_cell_fluxes(km, c, f);
    GALE_KB(gale_kb_edge_cols)(km, c, u, uc);
    GALE_SIMD
    for (int k = 0; k < nl; k++)
        ypc[k] = ad * dzv[k] * pc[k] +
                 s * (dzf[k] * GALE_KB_HFLUX(f, uc, k) +
                      area * (deep ? qi[k + 1] * wc[k + 1] - qi[k] * wc[k] : wc[k + 1] - wc[k]));
}
static inline void GALE_KB(gale_kb_mix_col)(const gale_kmesh_t *km, int c, double a, double s,
                                   const GALE_R *restrict u, const GALE_R *restrict w,
                                   const GALE_R *restrict b, const GALE_R *restrict p,
                                   GALE_R *restrict yw, GALE_R *restrict yb,
                                   GALE_R *restrict yp)
{
    if (km->deep)
        GALE_KB(gale_kb_mix_col_in)(km, c, a, s, u, w, b, p, yw, yb, yp, 1);
    else
        GALE_KB(gale_kb_mix_col_in)(km, c, a, s, u, w, b, p, yw, yb, yp, 0);
}

/* ru = r_u / (l_e d_e dzv) on one edge */
static inline void GALE_KB(gale_kb_schur_u)(const gale_kmesh_t *km, int e, const GALE_R *restrict r_u,
                                   GALE_R *restrict ru)
{
    const int nl = km->nlev, sc = km->sc;
    const GALE_R *r = r_u + (size_t)e * sc;
    const double *dz = km->dzv, f = km->erdist[e] / km->elen[e];
    GALE_R *o = ru + (size_t)e * sc;
    GALE_SIMD
    for (int k = 0; k < nl; k++) o[k] = r[k] * f / dz[k];
}

/* One column of the Schur complement's right-hand side (gale_k_schur_col). */
__attribute__((always_inline)) static inline void
GALE_KB(gale_kb_schur_col_in)(const gale_kmesh_t *km, int c, const GALE_R *restrict ru,
                     const GALE_R *restrict r_w, const GALE_R *restrict r_b,
                     const GALE_R *restrict r_p, GALE_R *restrict rb, GALE_R *restrict ws,
                     GALE_R *restrict h, const int deep)
{
    const int nl = km->nlev, sc = km->sc, si = km->si;
    const GALE_R *rwc = r_w + (size_t)c * si, *rbc = r_b + (size_t)c * si;
    const GALE_R *rpc = r_p + (size_t)c * sc;
    GALE_R *rbo = rb + (size_t)c * si, *wso = ws + (size_t)c * si, *hc = h + (size_t)c * sc;
    const double area = km->area[c], n2 = km->n2, tau = km->tau;
    const double rden = 1.0 / (1.0 + tau * tau * n2);
    const double *dzf = km->dzf, *qi = km->qi, *dzi = km->dzqi;
    GALE_SIMD
    for (int k = 1; k < nl; k++) {
        double mw = area * dzi[k], rbk = n2 * (rbc[k] / mw);
        rbo[k] = rbk;
        wso[k] = (rwc[k] / mw + tau * rbk) * rden;
    }
    rbo[0] = rbo[nl] = wso[0] = wso[nl] = 0.0;
    double f[4];
    const GALE_R *uc[4];
    gale_kb_cell_fluxes(km, c, f);
    GALE_KB(gale_kb_edge_cols)(km, c, ru, uc);
    GALE_SIMD
    for (int k = 0; k < nl; k++)
        hc[k] = rpc[k] - tau * (dzf[k] * GALE_KB_HFLUX(f, uc, k) +
                                area * (deep ? qi[k + 1] * wso[k + 1] - qi[k] * wso[k]
                                             : wso[k + 1] - wso[k]));
}
static inline void GALE_KB(gale_kb_schur_col)(const gale_kmesh_t *km, int c, const GALE_R *restrict ru,
                                     const GALE_R *restrict r_w, const GALE_R *restrict r_b,
                                     const GALE_R *restrict r_p, GALE_R *restrict rb,
                                     GALE_R *restrict ws, GALE_R *restrict h)
{
    if (km->deep)
        GALE_KB(gale_kb_schur_col_in)(km, c, ru, r_w, r_b, r_p, rb, ws, h, 1);
    else
        GALE_KB(gale_kb_schur_col_in)(km, c, ru, r_w, r_b, r_p, rb, ws, h, 0);
}

/* xc += hj yc over a column block: a function of its own, so that gcc 12
 * does not take the loop over the directions into the SIMD loop (it tried,
 * with float, and left one copy scalar: "unsupported vector types for
 * emulated gather") */
static inline void GALE_KB(gale_kb_lincomb_col)(int stride, GALE_R hj, const GALE_R *restrict yc,
                                                GALE_R *restrict xc)
{
    GALE_SIMD
    for (int k = 0; k < stride; k++) xc[k] = xc[k] + hj * yc[k];
}

/* GCR's update of one column block (the whole block, padding included: it
 * stays zero): x += sum_j h[j] y[j] for j < n, in that order, then, when w
 * is given, w += b x. With a, x starts from a (x = a + h[0] y[0] + ...,
 * or a copy of a when n = 0: x is only written), the bits of a copy of a
 * and the same update. Each
 * element sees the operations of n + 1 axpbys of coefficients (1, h[j])
 * and (1, b) in the same order, so the bits are theirs, in one pass over x
 * instead of n + 1 (in single precision the axpbys' of float coefficients). */
static inline void GALE_KB(gale_kb_lincomb)(size_t c, int stride, int n, double bd,
                                            const double *h, const GALE_R *const *y,
                                            const GALE_R *a, GALE_R *restrict x,
                                            GALE_R *restrict w)
{
    GALE_R *restrict xc = x + c * stride;
    const GALE_R b = (GALE_R)bd;
    int j = 0;
    if (a && n > 0) {
        const GALE_R *restrict ac = a + c * stride, *restrict yc = y[0] + c * stride;
        const GALE_R h0 = (GALE_R)h[0];
        GALE_SIMD
        for (int k = 0; k < stride; k++) xc[k] = ac[k] + h0 * yc[k];
        j = 1;
    } else if (a) { /* a copy, which compilers make a memcpy: not a GALE_SIMD loop */
        const GALE_R *restrict ac = a + c * stride;
        for (int k = 0; k < stride; k++) xc[k] = ac[k];
    }
    for (; j < n; j++) GALE_KB(gale_kb_lincomb_col)(stride, (GALE_R)h[j], y[j] + c * stride, xc);
    if (w) {
        GALE_R *restrict wc = w + c * stride;
        GALE_SIMD
        for (int k = 0; k < stride; k++) wc[k] = wc[k] + b * xc[k];
    }
}

/* The linearised operator's w, b and p rows about the reference profile:
 * y = a M x + s K~ x with M the linear core's mass matrices (b scaled by N2r,
 * p by c*^2) and K~ the reference state's wave operator (gale_knl.h rows). */
static inline void GALE_KB(gale_kb_nl_mixcol)(const gale_kmesh_t *km, const gale_knl_t *nk, int c,
                                              double a, double s, const GALE_R *restrict u,
                                              const GALE_R *restrict w, const GALE_R *restrict b,
                                              const GALE_R *restrict p, GALE_R *restrict yw,
                                              GALE_R *restrict yb, GALE_R *restrict yp)
{
    const int nl = km->nlev, sc = km->sc, si = km->si;
    const GALE_R *wc = w + (size_t)c * si, *bc = b + (size_t)c * si, *pc = p + (size_t)c * sc;
    GALE_R *ywc = yw + (size_t)c * si, *ybc = yb + (size_t)c * si, *ypc = yp + (size_t)c * sc;
    const double area = km->area[c], rn2 = 1.0 / nk->n2r;
    const double *dzv = nk->dzv, *dzf = nk->dzf, *dzi = km->dzi, *rdzi = km->rdzi;
    const double *GA = GALE_NLP(nk, km, GALE_NLP_GZA, c), *GB = GALE_NLP(nk, km, GALE_NLP_GZB, c);
    const double *BE = GALE_NLP(nk, km, GALE_NLP_BETA, c), *NR = GALE_NLP(nk, km, GALE_NLP_N2R, c);
    const double *RC = GALE_NLP(nk, km, GALE_NLP_RC2, c), *WL = GALE_NLP(nk, km, GALE_NLP_WLO, c);
    const double *WH = GALE_NLP(nk, km, GALE_NLP_WHI, c);
    GALE_SIMD
    for (int k = 1; k < nl; k++) {
        const double mw = area * dzi[k];
        const double gzp = (GA[k] * pc[k] - GB[k] * pc[k - 1]) * rdzi[k];
        ywc[k] = mw * (a * wc[k] + s * (gzp - BE[k] * bc[k]));
        ybc[k] = mw * (a * (bc[k] * rn2) + s * (NR[k] * wc[k]));
    }
    ywc[0] = ywc[nl] = ybc[0] = ybc[nl] = 0.0;
    double f[4];
    const GALE_R *uc[4];
    gale_kb_cell_fluxes(km, c, f);
    GALE_KB(gale_kb_edge_cols)(km, c, u, uc);
    const double *RR = GALE_NLP(nk, km, GALE_NLP_RRHO, c), *re[4];
    gale_kb_edge_cols_d(km, c, nk->rhoe, re);
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        const double v = area * dzv[k];
        ypc[k] = a * (v * (RC[k] * pc[k])) +
                 s * (dzf[k] * (RR[k] * GALE_KB_RHFLUX(f, re, uc, k)) +
                      v * (WH[k] * wc[k + 1] + WL[k] * wc[k]));
    }
}
