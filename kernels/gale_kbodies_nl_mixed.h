/* The linearised operator's column rows (nl_mixcol), a template over the
 * precision of its fields like gale_kbodies_mixed.h: gale_kbodies_nl.h
 * includes this twice. The reference rows stay double. No include guard on
 * purpose. */

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
