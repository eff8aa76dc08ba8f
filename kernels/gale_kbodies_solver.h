/* Solver kernel bodies, a template over the precision: gale_kbodies.h
 * includes this twice with GALE_R = double / float, GALE_KB(name) adding the
 * suffix and GALE_KM(member) picking the kmesh coefficients of that precision.
 * No include guard on purpose. */

/* y = A x on one column. A = diag(V/c^2) + tau^2 G_h^T M_u G_h
 *                           + tau^2/(1+tau^2 N^2) G_z^T M_w G_z:
 * y_k = dzh_k (S_k x_k - sum_s hs_s x_nbr(s),k)
 *     + av (rq_k (x_k - x_k-1) + rq_k+1 (x_k - x_k+1)),  S_k = rho_k A/c^2 + sum_s hs_s
 * with the layers' factors (gale_kernels.h: dzh = dz, rho = 1, rq = 1/dzi in flat
 * columns, so S_k is the same sum, to the bit, as without them).
 * The multiply-adds are explicit fma() (GALE_FMA): exactly rounded on every
 * target, so every build still gives the same bits, while -ffp-contract=off
 * keeps the compilers from fusing anything else. The split between fma and
 * separate multiplies and adds balances the two multiply and two add pipes. */
__attribute__((always_inline)) static inline void
GALE_KB(gale_kb_helm_col_in)(const gale_kmesh_t *km, int c, const GALE_R *restrict x,
                             GALE_R *restrict y0, const int deep)
{
    const int nl = km->nlev, sc = km->sc;
    const int *nb = km->cell_nbr + 4 * c;
    const GALE_R *hs = km->GALE_KM(h_hs) + 4 * c;
    const GALE_R h0 = hs[0], h1 = hs[1], h2 = hs[2], h3 = hs[3];
    const GALE_R av = km->GALE_KM(h_av)[c], ad = km->GALE_KM(h_ad)[c];
    const GALE_R hsum = (h0 + h1) + (h2 + h3), s = ad + hsum; /* S_k in flat columns */
    const GALE_R *dzh = km->GALE_KM(h_dzh), *rho = km->GALE_KM(h_rho), *rdzi = km->GALE_KM(h_rq);
    const GALE_R *x0 = x + (size_t)c * sc;
    const GALE_R *xw = x + (size_t)nb[0] * sc, *xs = x + (size_t)nb[1] * sc;
    const GALE_R *xe = x + (size_t)nb[2] * sc, *xn = x + (size_t)nb[3] * sc;
#define GALE_HORIZ(k)                                                                      \
    (dzh[k] * GALE_FMA(deep ? ad * rho[k] + hsum : s, x0[k],                               \
                       -(GALE_FMA(h1, xs[k], h0 * xw[k]) + GALE_FMA(h3, xn[k], h2 * xe[k]))))
    if (nl == 1) {
        y0[0] = GALE_HORIZ(0);
        return;
    }
    /* the two end levels have one vertical neighbour; peeled so that the
     * inner loop reads no level outside the column */
    y0[0] = GALE_FMA(av, rdzi[1] * (x0[0] - x0[1]), GALE_HORIZ(0));
    GALE_SIMD
    for (int k = 1; k < nl - 1; k++)
        y0[k] = GALE_FMA(av,
                         GALE_FMA(rdzi[k], x0[k] - x0[k - 1], rdzi[k + 1] * (x0[k] - x0[k + 1])),
                         GALE_HORIZ(k));
    y0[nl - 1] = GALE_FMA(av, rdzi[nl - 1] * (x0[nl - 1] - x0[nl - 2]), GALE_HORIZ(nl - 1));
#undef GALE_HORIZ
}
static inline void GALE_KB(gale_kb_helm_col)(const gale_kmesh_t *km, int c,
                                             const GALE_R *restrict x, GALE_R *restrict y0)
{
    /* flat columns and shells, each its own loops (S constant or per level) */
    if (km->deep)
        GALE_KB(gale_kb_helm_col_in)(km, c, x, y0, 1);
    else
        GALE_KB(gale_kb_helm_col_in)(km, c, x, y0, 0);
}
static inline void GALE_KB(gale_kb_helmholtz)(const gale_kmesh_t *km, int c,
                                              const GALE_R *restrict x, GALE_R *restrict y)
{
    GALE_KB(gale_kb_helm_col)(km, c, x, y + (size_t)c * km->sc);
}

/* r = b - A x on one column: the multigrid residual (docs/multigrid.md) */
static inline void GALE_KB(gale_kb_residual)(const gale_kmesh_t *km, int c,
                                             const GALE_R *restrict x, const GALE_R *restrict b,
                                             GALE_R *restrict r)
{
    const int nl = km->nlev;
    const size_t o = (size_t)c * km->sc;
    GALE_KB(gale_kb_helm_col)(km, c, x, r + o);
    GALE_SIMD
    for (int k = 0; k < nl; k++) r[o + k] = b[o + k] - r[o + k];
}

/* z = r / diag(A) on one column */
static inline void GALE_KB(gale_kb_pc_diag)(const gale_kmesh_t *km, int c,
                                            const GALE_R *restrict r, GALE_R *restrict z)
{
    const int nl = km->nlev;
    const size_t o = (size_t)c * km->sc;
    const GALE_R *d = km->GALE_KM(diag_inv) + o;
    GALE_SIMD
    for (int k = 0; k < nl; k++) z[o + k] = r[o + k] * d[k];
}

/* The forward and back substitutions of the column tridiagonal solve, in
 * place on a transposed batch t[k][lane] (the factors: see below). The
 * previous level is carried in p (registers), not re-read from t: each step
 * would otherwise wait on its own store. */
static inline void GALE_KB(gale_kb_tri_sweeps)(const gale_kmesh_t *km, int batch,
                                               GALE_R *restrict t)
{
    const int nl = km->nlev, L = GALE_LANES;
    const GALE_R *m = km->GALE_KM(tri_m) + (size_t)batch * nl * L;
    const GALE_R *cu = km->GALE_KM(tri_c) + (size_t)batch * nl * L;
    const GALE_R *av = km->GALE_KM(h_av) + (size_t)batch * L;
    const GALE_R *rdzi = km->GALE_KM(h_rq);
    GALE_R p[GALE_LANES];
    GALE_SIMD
    for (int l = 0; l < L; l++) t[l] = p[l] = t[l] * m[l];
    for (int k = 1; k < nl; k++) {
        GALE_SIMD
        for (int l = 0; l < L; l++)
            t[k * L + l] = p[l] = (t[k * L + l] + av[l] * rdzi[k] * p[l]) * m[k * L + l];
    }
    for (int k = nl - 2; k >= 0; k--) {
        GALE_SIMD
        for (int l = 0; l < L; l++) t[k * L + l] = p[l] = t[k * L + l] - cu[k * L + l] * p[l];
    }
}

/* The vertical tridiagonal solve for one batch of GALE_LANES columns
 * (columns lane0 + l for l in [l0, l1)). A recurrence along k does not
 * vectorise, so the SIMD runs across the batch's columns (the lanes) on a
 * transposed copy t[k][lane] (docs/numerics.md, Solver). The factors are stored
 * batched (setup in solver/): m = 1/pivot, cu = upper/pivot; the lower
 * coefficient is -av rq_k. A whole batch reads r and writes z inside the
 * sweeps (strided across the columns); a partial one (the ends of [c0, c1))
 * transposes first, with zeros in the lanes outside [l0, l1), and writes back
 * only its own columns. Both give the same bits. */
static inline void GALE_KB(gale_kb_tridiag_batch)(const gale_kmesh_t *km, int batch, int l0,
                                                  int l1, const GALE_R *restrict r,
                                                  GALE_R *restrict z, GALE_R *restrict t)
{
    const int nl = km->nlev, sc = km->sc, L = GALE_LANES;
    const int c0 = batch * L, whole = l0 == 0 && l1 == L;
    const GALE_R *m = km->GALE_KM(tri_m) + (size_t)batch * nl * L;
    const GALE_R *cu = km->GALE_KM(tri_c) + (size_t)batch * nl * L;
    const GALE_R *av = km->GALE_KM(h_av) + c0;
    const GALE_R *rdzi = km->GALE_KM(h_rq);
    const GALE_R *rb = r + (size_t)c0 * sc;
    GALE_R *zb = z + (size_t)c0 * sc;
    if (whole) {
        GALE_SIMD
        for (int l = 0; l < L; l++) t[l] = rb[(size_t)l * sc] * m[l];
        for (int k = 1; k < nl; k++) {
            GALE_SIMD
            for (int l = 0; l < L; l++)
                t[k * L + l] = (rb[(size_t)l * sc + k] + av[l] * rdzi[k] * t[(k - 1) * L + l]) *
                               m[k * L + l];
        }
        GALE_SIMD
        for (int l = 0; l < L; l++) zb[(size_t)l * sc + nl - 1] = t[(nl - 1) * L + l];
        for (int k = nl - 2; k >= 0; k--) {
            GALE_SIMD
            for (int l = 0; l < L; l++) {
                GALE_R v = t[k * L + l] - cu[k * L + l] * t[(k + 1) * L + l];
                t[k * L + l] = v;
                zb[(size_t)l * sc + k] = v;
            }
        }
        return;
    }
    for (int l = 0; l < L; l++) {
        if (l >= l0 && l < l1)
            for (int k = 0; k < nl; k++) t[k * L + l] = rb[(size_t)l * sc + k];
        else
            for (int k = 0; k < nl; k++) t[k * L + l] = (GALE_R)0;
    }
    GALE_KB(gale_kb_tri_sweeps)(km, batch, t);
    for (int l = l0; l < l1; l++)
        for (int k = 0; k < nl; k++) zb[(size_t)l * sc + k] = t[k * L + l];
}

/* ---- multigrid (docs/multigrid.md) ---- */

/* One sweep of LFRic's smoother, block Jacobi with the exact column solve,
 * on one batch of GALE_LANES columns: xn = x + rho H_z^-1 (b - A x), or
 * xn = rho H_z^-1 b when x is NULL (a zero first guess). The residual of
 * each column is formed by the operator's own column body into col (sc
 * values) and transposed into t (nlev x GALE_LANES); lanes outside
 * [l0, l1) are zero and written nowhere. */
static inline void GALE_KB(gale_kb_smooth_batch)(const gale_kmesh_t *km, int batch, int l0,
                                                 int l1, GALE_R rho, const GALE_R *restrict x,
                                                 const GALE_R *restrict b, GALE_R *restrict xn,
                                                 GALE_R *restrict t, GALE_R *restrict col)
{
    const int nl = km->nlev, sc = km->sc, L = GALE_LANES, c0 = batch * L;
    for (int l = 0; l < L; l++) {
        const size_t o = (size_t)(c0 + l) * sc;
        if (l < l0 || l >= l1) {
            GALE_STRIDED
            for (int k = 0; k < nl; k++) t[k * L + l] = (GALE_R)0;
        } else if (x) {
            GALE_KB(gale_kb_helm_col)(km, c0 + l, x, col);
            GALE_STRIDED
            for (int k = 0; k < nl; k++) t[k * L + l] = b[o + k] - col[k];
        } else {
            GALE_STRIDED
            for (int k = 0; k < nl; k++) t[k * L + l] = b[o + k];
        }
    }
    GALE_KB(gale_kb_tri_sweeps)(km, batch, t);
    for (int l = l0; l < l1; l++) {
        const size_t o = (size_t)(c0 + l) * sc;
        if (x) {
            GALE_STRIDED
            for (int k = 0; k < nl; k++) xn[o + k] = GALE_FMA(rho, t[k * L + l], x[o + k]);
        } else {
            GALE_STRIDED
            for (int k = 0; k < nl; k++) xn[o + k] = rho * t[k * L + l];
        }
    }
}

/* Restriction to owned coarse cell c (kmc: the coarse level, whose child
 * map names the four fine cells): the unweighted average, column by column
 * (LFRic's restrict_scalar_unweighted). Fine and coarse columns have the
 * same stride. */
static inline void GALE_KB(gale_kb_restrict)(const gale_kmesh_t *kmc, int c,
                                             const GALE_R *restrict fine,
                                             GALE_R *restrict coarse)
{
    const int nl = kmc->nlev, sc = kmc->sc;
    const int *ch = kmc->child + 4 * c;
    const GALE_R *f0 = fine + (size_t)ch[0] * sc, *f1 = fine + (size_t)ch[1] * sc;
    const GALE_R *f2 = fine + (size_t)ch[2] * sc, *f3 = fine + (size_t)ch[3] * sc;
    GALE_R *x = coarse + (size_t)c * sc;
    GALE_SIMD
    for (int k = 0; k < nl; k++) x[k] = (GALE_R)0.25 * ((f0[k] + f1[k]) + (f2[k] + f3[k]));
}

/* Prolongation from owned coarse cell c by injection: its value is added to
 * each of its four fine cells (LFRic's prolong_scalar_unweighted). */
static inline void GALE_KB(gale_kb_prolong)(const gale_kmesh_t *kmc, int c,
                                            const GALE_R *restrict coarse,
                                            GALE_R *restrict fine)
{
    const int nl = kmc->nlev, sc = kmc->sc;
    const int *ch = kmc->child + 4 * c;
    const GALE_R *x = coarse + (size_t)c * sc;
    for (int q = 0; q < 4; q++) {
        GALE_R *f = fine + (size_t)ch[q] * sc;
        GALE_SIMD
        for (int k = 0; k < nl; k++) f[k] += x[k];
    }
}
