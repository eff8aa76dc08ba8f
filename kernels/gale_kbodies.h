/* The column kernel bodies: the science of one column (or one batch of
 * columns), written once and included by both launch layers. Pure static
 * inline functions, restrict pointers, no parallel directives: the only
 * pragma is GALE_SIMD on level loops, which a launch layer defines before
 * including this file (empty in GPU device passes, docs/offload.md).
 *
 * Every body evaluates its expressions in one fixed order (sides W,S,E,N,
 * levels bottom-up), with no contraction (-ffp-contract=off), so a column
 * computes the same bits on any rank, thread, redundant halo copy or build. */
#ifndef GALE_KBODIES_H
#define GALE_KBODIES_H

#include "gale_kernels.h"
#include "gale_knl.h" /* nl_mixcol, the nonlinear core's mixed operator */

#include <math.h>
#include <stdint.h>

#ifndef GALE_SIMD
#define GALE_SIMD
#endif
#ifndef GALE_STRIDED
#define GALE_STRIDED
#endif

/* ------------------------------------------------------------------ */
/* dynamics: the model's own operators (double)                      */
/* ------------------------------------------------------------------ */

/* A body whose level loops take the layers' metric runs them in two inlined
 * copies, name_in(..., deep): flat columns, the factors constant (the code
 * and the bits of the shallow atmosphere), or spherical shells, per level. */

/* Explicit part of the column (w, b) update, see gale_k_col_explicit. */
static inline void gale_kb_col_explicit(const gale_kmesh_t *km, int c, double cw,
                                        const double *restrict w, const double *restrict b,
                                        const double *restrict p, double *restrict rb,
                                        double *restrict ws)
{
    const int nl = km->nlev, si = km->si;
    const double *wc = w + (size_t)c * si, *bc = b + (size_t)c * si;
    const double *pc = p + (size_t)c * km->sc;
    double *rbc = rb + (size_t)c * si, *wsc = ws + (size_t)c * si;
    const double n2 = km->n2, tau = km->tau, rden = 1.0 / (1.0 + tau * tau * n2);
    const double *rdzi = km->rdzi;
    GALE_SIMD
    for (int k = 1; k < nl; k++) {
        double gzp = (pc[k] - pc[k - 1]) * rdzi[k];
        double rw = wc[k] + cw * (bc[k] - gzp);
        double rbk = bc[k] - cw * n2 * wc[k];
        rbc[k] = rbk;
        wsc[k] = (rw + tau * rbk) * rden;
    }
    /* w = 0 at the ground and the top, so b there never changes */
    rbc[0] = bc[0];
    rbc[nl] = bc[nl];
    wsc[0] = 0.0;
    wsc[nl] = 0.0;
}

/* rhs = (V/c^2) p - V D(fu, fw) on one column */
__attribute__((always_inline)) static inline void
gale_kb_rhs_in(const gale_kmesh_t *km, int c, const double *restrict p, const double *restrict fu,
               const double *restrict fw, double *restrict rhs, const int deep)
{
    const int nl = km->nlev, sc = km->sc;
    const int *ce = km->cell_edge + 4 * c;
    const double *sg = km->cell_sign + 4 * c;
    const double *u0 = fu + (size_t)ce[0] * sc, *u1 = fu + (size_t)ce[1] * sc;
    const double *u2 = fu + (size_t)ce[2] * sc, *u3 = fu + (size_t)ce[3] * sc;
    const double f0 = sg[0] * km->elen[ce[0]], f1 = sg[1] * km->elen[ce[1]];
    const double f2 = sg[2] * km->elen[ce[2]], f3 = sg[3] * km->elen[ce[3]];
    const double *pc = p + (size_t)c * sc, *wc = fw + (size_t)c * km->si;
    double *r = rhs + (size_t)c * sc;
    const double ad = km->h_ad[c], area = km->area[c];
    const double *dzv = km->dzv, *dzf = deep ? km->dzf : dzv, *qi = km->qi; /* flat: one dz */
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        double hflux = f0 * u0[k] + f1 * u1[k] + f2 * u2[k] + f3 * u3[k];
        double dw = deep ? qi[k + 1] * wc[k + 1] - qi[k] * wc[k] : wc[k + 1] - wc[k];
        r[k] = ad * dzv[k] * pc[k] - (dzf[k] * hflux + area * dw);
    }
}
static inline void gale_kb_rhs(const gale_kmesh_t *km, int c, const double *restrict p,
                               const double *restrict fu, const double *restrict fw,
                               double *restrict rhs)
{
    if (km->deep)
        gale_kb_rhs_in(km, c, p, fu, fw, rhs, 1);
    else
        gale_kb_rhs_in(km, c, p, fu, fw, rhs, 0);
}

/* ------------------------------------------------------------------ */
/* the mixed system of the consistent operator, in both precisions   */
/* ------------------------------------------------------------------ */

/* grad_h, col_backsub, mix_u, mix_col, schur_u, schur_col and GCR's
 * lincomb are the mixed solve's: gale_kbodies_mixed.h, included below
 * once per precision ([solver] precision, docs/numerics.md). */

/* The row of cell c's signed mimetic matrix that belongs to its side s. */
static inline const double *gale_kb_mfd_row(const gale_kmesh_t *km, int c, int s)
{
    return km->mfd + 16 * (size_t)c + 4 * s;
}

/* The integrated horizontal flux divergence of cell c, level k: f_i = sign l_e. */
#define GALE_KB_HFLUX(f, u, k) (f[0] * u[0][k] + f[1] * u[1][k] + f[2] * u[2][k] + f[3] * u[3][k])

/* The integrated horizontal mass flux divergence of cell c, level k: rho*
 * on each edge (nk->rhoe, the mean of its two columns') times the volume flux. */
#define GALE_KB_RHFLUX(f, r, u, k)                                                         \
    (f[0] * (r[0][k] * u[0][k]) + f[1] * (r[1][k] * u[1][k]) + f[2] * (r[2][k] * u[2][k]) + \
     f[3] * (r[3][k] * u[3][k]))

static inline void gale_kb_cell_fluxes(const gale_kmesh_t *km, int c, double f[4])
{
    const int *ce = km->cell_edge + 4 * c;
    const double *sg = km->cell_sign + 4 * c;
    for (int i = 0; i < 4; i++) f[i] = sg[i] * km->elen[ce[i]];
}

#define GALE_R double
#define GALE_KB(name) name##_d
#include "gale_kbodies_mixed.h"
#undef GALE_R
#undef GALE_KB

#define GALE_R float
#define GALE_KB(name) name##_f
#include "gale_kbodies_mixed.h"
#undef GALE_R
#undef GALE_KB

/* The rows of these kernels (gale_kdesc.h). grad_h reads the two cells of
 * an edge (stencil 1 of p); the mimetic row of mix_u reads the edges of both
 * of the edge's cells (stencil 1 of u); a cell loop reads the cell's own
 * edges (stencil 0 of an edge field). bytes: the connectivity and the
 * coefficients read per column (an edge: its two cells and 1/d_e or l_e, 16;
 * a cell: its edges, their signs and lengths, its area, h_ad), less the
 * ground and top of an interface field read only inside (w = 0 there: -2 ES
 * per column); flops: per level and per column (NL: the first field's). */
#define GALE_KROWS_DYNAMICS(K)                                                             \
    K(grad_h, EDGES, M, DF, 0, 0, 16.0 / NL, 3 + DEEP + 1.0 / NL,                          \
      ((s, S, R, 0), (in, E, R, 0), (p, C, R, 1), (out, E, W, 0)),                         \
      gale_kb_grad_h_d(KM, i, s, in, p, out), gale_kb_grad_h_f(KM, i, s, in, p, out))      \
    K(col_explicit, CELLS, M, D, 0, 0, -16.0 / NL, (11 * NLAY - 7) / NL,                   \
      ((cw, S, R, 0), (w, I, R, 0), (b, I, R, 0), (p, C, R, 0), (rb, I, W, 0), (ws, I, W, 0)),\
      gale_kb_col_explicit(KM, i, cw, w, b, p, rb, ws), 0)                                 \
    K(col_backsub, CELLS, M, DF, 0, 0, -2.0 * ES / NL, 8 - 4.0 / NL,                       \
      ((p, C, R, 0), (ws, I, R, 0), (rb, I, R, 0), (w, I, W, 0), (b, I, W, 0)),            \
      gale_kb_col_backsub_d(KM, i, p, ws, rb, w, b),                                       \
      gale_kb_col_backsub_f(KM, i, p, ws, rb, w, b))                                       \
    K(rhs, CELLS, M, D, 0, 0, 80.0 / NL, 14 + 2 * DEEP + 4.0 / NL,                         \
      ((p, C, R, 0), (fu, E, R, 0), (fw, I, R, 0), (rhs, C, W, 0)),                        \
      gale_kb_rhs(KM, i, p, fu, fw, rhs), 0)                                               \
    K(mix_u, EDGES, M, DF, 0, 0, (16 + 80 * u) / NL, u ? 20 + 9.0 / NL : 4 + 1.0 / NL,     \
      ((a, S, R, 0), (s, S, R, 0), (u, E, R, 1), (p, C, R, 1), (yu, E, W, 0)),             \
      gale_kb_mix_u_d(KM, i, a, s, u, p, yu), gale_kb_mix_u_f(KM, i, a, s, u, p, yu))      \
    K(mix_col, CELLS, M, DF, 0, 0, (80 - 2 * ES) / NL, 28 + 2 * DEEP - 7.0 / NL,           \
      ((a, S, R, 0), (s, S, R, 0), (u, E, R, 0), (w, I, R, 0), (b, I, R, 0), (p, C, R, 0), \
       (yw, I, W, 0), (yb, I, W, 0), (yp, C, W, 0)),                                       \
      gale_kb_mix_col_d(KM, i, a, s, u, w, b, p, yw, yb, yp),                              \
      gale_kb_mix_col_f(KM, i, a, s, u, w, b, p, yw, yb, yp))                              \
    K(schur_u, EDGES, M, DF, 0, 0, 16.0 / NL, 2 + 1.0 / NL, ((r_u, E, R, 0), (ru, E, W, 0)),\
      gale_kb_schur_u_d(KM, i, r_u, ru), gale_kb_schur_u_f(KM, i, r_u, ru))                \
    K(schur_col, CELLS, M, DF, 0, 0, (72 - 4 * ES) / NL, 20 + 2 * DEEP + 1.0 / NL,         \
      ((ru, E, R, 0), (r_w, I, R, 0), (r_b, I, R, 0), (r_p, C, R, 0), (rb, I, W, 0),       \
       (ws, I, W, 0), (h, C, W, 0)),                                                       \
      gale_kb_schur_col_d(KM, i, ru, r_w, r_b, r_p, rb, ws, h),                            \
      gale_kb_schur_col_f(KM, i, ru, r_w, r_b, r_p, rb, ws, h))

/* ------------------------------------------------------------------ */
/* reproducible sums: exact fixed-point accumulation                  */
/* ------------------------------------------------------------------ */

/* Values are split into GALE_RSUM_WORDS signed digits of 46 bits, weights
 * 2^(138 - 46 j), accumulated in int64 words (carries: gale_kb_rsum_carry). */
#define GALE_RSUM_MAX 0x1p184

/* The floating-point sum of one column's terms (wc*wl[k]*x[k])*y[k] (wl
 * NULL: weight 1) in an order written out here rather than left to the
 * compiler: eight partial sums s_l of the levels k0+l, k0+l+8, ..., then
 * ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)). Eight independent chains run at the
 * adder's throughput, not its latency, with no reassociation by the
 * compiler; and a column is always summed whole by one thread, so the
 * result is the same on every rank, thread count and build (no FMA
 * contraction anywhere). */
#define GALE_PSUM_LANES(TERM)                                                              \
    do {                                                                                   \
        int k = k0;                                                                        \
        for (; k + 8 <= k1; k += 8) {                                                      \
            s0 += TERM(k);     s1 += TERM(k + 1); s2 += TERM(k + 2); s3 += TERM(k + 3);    \
            s4 += TERM(k + 4); s5 += TERM(k + 5); s6 += TERM(k + 6); s7 += TERM(k + 7);    \
        }                                                                                  \
        if (k < k1) s0 += TERM(k);                                                         \
        if (k + 1 < k1) s1 += TERM(k + 1);                                                 \
        if (k + 2 < k1) s2 += TERM(k + 2);                                                 \
        if (k + 3 < k1) s3 += TERM(k + 3);                                                 \
        if (k + 4 < k1) s4 += TERM(k + 4);                                                 \
        if (k + 5 < k1) s5 += TERM(k + 5);                                                 \
        if (k + 6 < k1) s6 += TERM(k + 6);                                                 \
    } while (0)
#define GALE_PSUM_TERM_W(k) ((wc * wl[k] * (double)x[k]) * (double)y[k])
#define GALE_PSUM_TERM(k) ((wc * (double)x[k]) * (double)y[k])
#define GALE_KB_PSUM_DEFINE(NAME, T)                                                       \
    static inline double NAME(int k0, int k1, double wc, const double *restrict wl,        \
                              const T *restrict x, const T *restrict y)                    \
    {                                                                                      \
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;             \
        if (wl)                                                                            \
            GALE_PSUM_LANES(GALE_PSUM_TERM_W);                                             \
        else                                                                               \
            GALE_PSUM_LANES(GALE_PSUM_TERM);                                               \
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7));                          \
    }
GALE_KB_PSUM_DEFINE(gale_kb_psum_d, double)
GALE_KB_PSUM_DEFINE(gale_kb_psum_f, float)

/* The eight 46-bit digits of one value t (already checked: |t| < 2^184),
 * each exact (t * 2^-w is exact, trunc is exact, and so is the remainder),
 * handed to ADD(j, digit) as integer-valued doubles. A macro because, written
 * as a function filling an array, gcc 12 leaves the lane loop below scalar
 * ("bad loop form"). */
#define GALE_RSUM_DIGITS(t, ADD)                                                           \
    do {                                                                                   \
        double d_;                                                                         \
        d_ = trunc(t * 0x1p-138); ADD(0, d_); t -= d_ * 0x1p138;                           \
        d_ = trunc(t * 0x1p-92);  ADD(1, d_); t -= d_ * 0x1p92;                            \
        d_ = trunc(t * 0x1p-46);  ADD(2, d_); t -= d_ * 0x1p46;                            \
        d_ = trunc(t);            ADD(3, d_); t -= d_;                                     \
        d_ = trunc(t * 0x1p46);   ADD(4, d_); t -= d_ * 0x1p-46;                           \
        d_ = trunc(t * 0x1p92);   ADD(5, d_); t -= d_ * 0x1p-92;                           \
        d_ = trunc(t * 0x1p138);  ADD(6, d_); t -= d_ * 0x1p-138;                          \
        d_ = trunc(t * 0x1p184);  ADD(7, d_);                                              \
    } while (0)

/* Adds one value to the fixed-point words. Values beyond 2^184, NaN and Inf
 * count as bad and add nothing. */
static inline void gale_kb_rsum_term(double t, int64_t *restrict w, int64_t *restrict bad)
{
    int ok = fabs(t) < GALE_RSUM_MAX; /* false for NaN */
    *bad += !ok;
    t = ok ? t : 0.0;
#define GALE_RSUM_ADD_W(j, d) (w[j] += (int64_t)(d))
    GALE_RSUM_DIGITS(t, GALE_RSUM_ADD_W);
#undef GALE_RSUM_ADD_W
}

/* Adds n <= GALE_RSUM_BATCH values to the fixed-point words, the digit split
 * vectorised across GALE_RSUM_LANES lanes: each lane sums its digits in doubles,
 * exact while a lane gets fewer than 2^7 digits below 2^46. n is a multiple
 * of GALE_RSUM_LANES (pad with zeros: they add nothing). */
#define GALE_RSUM_BATCH 64
#define GALE_RSUM_LANES 8
static inline void gale_kb_rsum_vals(const double *restrict v, int n, int64_t *restrict w,
                                     int64_t *restrict bad)
{
    double a[GALE_RSUM_WORDS][GALE_RSUM_LANES] = {{0}}, nb[GALE_RSUM_LANES] = {0};
    for (int i0 = 0; i0 < n; i0 += GALE_RSUM_LANES) {
        GALE_SIMD
        for (int l = 0; l < GALE_RSUM_LANES; l++) {
            double t = v[i0 + l];
            int ok = fabs(t) < GALE_RSUM_MAX; /* false for NaN */
            nb[l] += ok ? 0.0 : 1.0;
            t = ok ? t : 0.0;
#define GALE_RSUM_ADD_A(j, d) (a[j][l] += (d))
            GALE_RSUM_DIGITS(t, GALE_RSUM_ADD_A);
#undef GALE_RSUM_ADD_A
        }
    }
    for (int j = 0; j < GALE_RSUM_WORDS; j++) {
        double sj = 0; /* exact: integers below 2^53 */
        for (int l = 0; l < GALE_RSUM_LANES; l++) sj += a[j][l];
        w[j] += (int64_t)sj;
    }
    for (int l = 0; l < GALE_RSUM_LANES; l++) *bad += (int64_t)nb[l];
}

/* The sum schedule (SUM reductions, the dot products: the column bodies,
 * the grouping, the merge) is at the end of this file, after the carries. */

/* ------------------------------------------------------------------ */
/* solver operators, in double (suffix _d) and single (_f) precision  */
/* ------------------------------------------------------------------ */

/* The lanes [l0,l1) of tridiagonal batch b (columns b*GALE_LANES + lane)
 * that lie in the column range [c0,c1). */
static inline void gale_kb_batch_lanes(int b, int c0, int c1, int *restrict l0, int *restrict l1)
{
    const int L = GALE_LANES;
    *l0 = c0 - b * L > 0 ? c0 - b * L : 0;
    *l1 = c1 - b * L < L ? c1 - b * L : L;
}

#define GALE_R double
#define GALE_FMA fma
#define GALE_KB(name) name##_d
#define GALE_KM(name) name
#include "gale_kbodies_solver.h"
#undef GALE_R
#undef GALE_FMA
#undef GALE_KB
#undef GALE_KM

#define GALE_R float
#define GALE_FMA fmaf
#define GALE_KB(name) name##_f
#define GALE_KM(name) name##_f
#include "gale_kbodies_solver.h"
#undef GALE_R
#undef GALE_FMA
#undef GALE_KB
#undef GALE_KM

/* Rows (gale_kdesc.h): the operator reads its four neighbours (stencil 1);
 * the column-local ones go as far into the halo as their inputs are valid.
 * restrict and prolong run on the coarse level of a pair, whose owned cells'
 * children are owned fine cells: 3 more fine columns per coarse column.
 * GALE_KROWS_SOLVER: the Helmholtz operator; GALE_KROWS_PRECOND: the
 * preconditioners' kernels (the multigrid's residual, smoother and
 * transfers). bytes: the coefficients of ES bytes and the int connectivity
 * (cell_nbr, child: 16 a column) of a column; the factors of the batched
 * tridiagonal solve cover whole batches, the smoother's operator only the
 * range's columns (FILL). */
#define GALE_KROWS_SOLVER(K)                                                               \
    K(helmholtz, CELLS, M, DF, 0, 1, (16 + 6 * ES) / NL, 17 + 2 * DEEP - 2.0 / NL,         \
      ((x, C, R, 1), (y, C, W, 0)),                                                        \
      gale_kb_helmholtz_d(KM, i, x, y), gale_kb_helmholtz_f(KM, i, x, y))
#define GALE_KROWS_PRECOND(K)                                                              \
    K(residual, CELLS, M, DF, 0, 1, (16 + 6 * ES) / NL, 18 + 2 * DEEP - 2.0 / NL,          \
      ((x, C, R, 1), (b, C, R, 0), (r, C, W, 0)),                                          \
      gale_kb_residual_d(KM, i, x, b, r), gale_kb_residual_f(KM, i, x, b, r))              \
    K(pc_diag, CELLS, M, DF, 0, 1, ES, 1, ((r, C, R, 0), (z, C, W, 0)),                    \
      gale_kb_pc_diag_d(KM, i, r, z), gale_kb_pc_diag_f(KM, i, r, z))                      \
    K(pc_tridiag, BATCH, M, DF, 0, 1, 2 * ES, 6 - 5.0 / NL, ((r, C, R, 0), (z, C, W, 0)),  \
      gale_kb_tridiag_batch_d(KM, i, l0, l1, r, z, T),                                     \
      gale_kb_tridiag_batch_f(KM, i, l0, l1, r, z, T))                                     \
    K(smooth, BATCH, M, DF, 0, 1, 2 * ES + x * FILL * (16 + 5 * ES) / NL,                  \
      6 - 5.0 / NL + FILL * (x ? 20 + 2 * DEEP - 2.0 / NL : 1),                            \
      ((rho, S, R, 0), (x, C, R, 1), (b, C, R, 0), (xn, C, W, 0)),                         \
      gale_kb_smooth_batch_d(KM, i, l0, l1, rho, x, b, xn, T,                              \
                             (double *)T + (size_t)KM->nlev * GALE_LANES),                 \
      gale_kb_smooth_batch_f(KM, i, l0, l1, (float)rho, x, b, xn, T,                       \
                             (float *)T + (size_t)KM->nlev * GALE_LANES))                  \
    K(restrict, CELLS, M, DF, 0, 0, 3 * ES + 16.0 / NL, 4,                                 \
      ((fine, C, R, 0), (xc, C, W, 0)),                                                    \
      gale_kb_restrict_d(KM, i, fine, xc), gale_kb_restrict_f(KM, i, fine, xc))            \
    K(prolong, CELLS, M, DF, 0, 0, 6 * ES + 16.0 / NL, 4,                                  \
      ((xc, C, R, 0), (fine, C, RW, 0)),                                                   \
      gale_kb_prolong_d(KM, i, xc, fine), gale_kb_prolong_f(KM, i, xc, fine))

/* ------------------------------------------------------------------ */
/* vector updates, checks, halo packing and sum carries: element- or  */
/* column-wise bodies shared by both launch layers (the offload layer */
/* runs them on the device, so none calls a host-only function)       */
/* ------------------------------------------------------------------ */

/* out[i] = a x[i] + b y[i]; out may alias x or y, hence no restrict */
static inline void gale_kb_axpby_d(size_t i, double a, const double *x, double b,
                                   const double *y, double *out)
{
    out[i] = a * x[i] + b * y[i];
}
static inline void gale_kb_axpby_f(size_t i, float a, const float *x, float b, const float *y,
                                   float *out)
{
    out[i] = a * x[i] + b * y[i];
}
static inline void gale_kb_copy_d(size_t i, const double *restrict x, double *restrict out)
{
    out[i] = x[i];
}
static inline void gale_kb_copy_f(size_t i, const float *restrict x, float *restrict out)
{
    out[i] = x[i];
}
static inline void gale_kb_to_f(size_t i, const double *restrict x, float *restrict out)
{
    out[i] = (float)x[i];
}
static inline void gale_kb_to_d(size_t i, const float *restrict x, double *restrict out)
{
    out[i] = (double)x[i];
}

/* Rows (gale_kdesc.h): pointwise on whole column blocks, so redundant
 * computation extends them; convert goes between precisions (out's
 * chooses the body; a conversion is no flop). lincomb with n = 0 only
 * reads x; with a it only writes x. */
#define GALE_KROWS_VECTOR(K)                                                               \
    K(axpby, FLAT, M, DF, 0, 1, 0, 3,                                                      \
      ((out, A, W, 0), (a, S, R, 0), (x, A, R, 0), (b, S, R, 0), (y, A, R, 0)),            \
      gale_kb_axpby_d(i, a, x, b, y, out), gale_kb_axpby_f(i, (float)a, x, (float)b, y, out)) \
    K(copy, FLAT, M, DF, 0, 1, 0, 0, ((out, A, W, 0), (x, A, R, 0)),                       \
      gale_kb_copy_d(i, x, out), gale_kb_copy_f(i, x, out))                                \
    K(convert, FLAT, M, DF, 0, 1, 0, 0, ((out, A, W, 0), (x, A, R, 0)),                    \
      gale_kb_to_d(i, x, out), gale_kb_to_f(i, x, out))                                    \
    K(lincomb, COLS, M, DF, 0, 1, n > 0 ? -ES * a : -ES, 2 * n + 2 * w,                       \
      ((x, A, RW, 0), (w, A, RW, 0), (a, A, R, 0), (n, S, R, 0), (b, S, R, 0),             \
       (h0, S, R, 0), (h1, S, R, 0), (h2, S, R, 0), (h3, S, R, 0), (h4, S, R, 0),          \
       (y0, A, R, 0), (y1, A, R, 0), (y2, A, R, 0), (y3, A, R, 0), (y4, A, R, 0)),         \
      gale_kb_lincomb_d(i, x_stride, (int)n, b, (const double[5]){h0, h1, h2, h3, h4},     \
                        (const double *const[5]){y0, y1, y2, y3, y4}, a, x, w),            \
      gale_kb_lincomb_f(i, x_stride, (int)n, b, (const double[5]){h0, h1, h2, h3, h4},     \
                        (const float *const[5]){y0, y1, y2, y3, y4}, a, x, w))

/* max |x| over levels [k0,k1) of one column, NaN ignored; *finite = 0 when
 * an entry is NaN or Inf */
static inline double gale_kb_maxabs_col(const double *restrict xc, int k0, int k1,
                                        int *restrict finite)
{
    double mc = 0;
    int f = 1;
    for (int k = k0; k < k1; k++) {
        double a = fabs(xc[k]);
        f &= isfinite(a);
        mc = a > mc ? a : mc;
    }
    *finite = f;
    return mc;
}

/* checks (MAXABS), one column c of x (column stride `stride`): folds its max
 * |x| into *m and, when it holds a NaN or Inf, lowers *bc (the first bad
 * column, INT_MAX while none) to c. Max and min are exact, so the launch
 * layers' max/min reductions over these give the same bits in any order. */
static inline void gale_kb_maxabs_acc(const double *restrict x, int c, int stride, int k0,
                                      int k1, double *restrict m, int *restrict bc)
{
    int finite;
    const double mc = gale_kb_maxabs_col(x + (size_t)c * stride, k0, k1, &finite);
    if (mc > *m) *m = mc;
    if (!finite && c < *bc) *bc = c;
}

/* The first level in [k0,k1) of column xc that is NaN or Inf, or -1. */
static inline int gale_kb_maxabs_bad_lev(const double *restrict xc, int k0, int k1)
{
    for (int k = k0; k < k1; k++)
        if (!isfinite(xc[k])) return k;
    return -1;
}

/* Halo packing: message slot i (nlev values) <-> column idx[i] of a field
 * with column stride `stride`; a template over the element type. */
#define GALE_KB_PACK_DEFINE(SUF, T)                                                        \
    static inline void gale_kb_pack_##SUF(int i, int nlev, int stride,                     \
                                          const int *restrict idx, const T *restrict f,    \
                                          T *restrict buf)                                 \
    {                                                                                      \
        const T *c = f + (size_t)idx[i] * stride;                                          \
        T *b = buf + (size_t)i * nlev;                                                     \
        GALE_SIMD                                                                          \
        for (int k = 0; k < nlev; k++) b[k] = c[k];                                        \
    }                                                                                      \
    static inline void gale_kb_unpack_##SUF(int i, int nlev, int stride,                   \
                                            const int *restrict idx, T *restrict f,        \
                                            const T *restrict buf)                         \
    {                                                                                      \
        T *c = f + (size_t)idx[i] * stride;                                                \
        const T *b = buf + (size_t)i * nlev;                                               \
        GALE_SIMD                                                                          \
        for (int k = 0; k < nlev; k++) c[k] = b[k];                                        \
    }
GALE_KB_PACK_DEFINE(d, double)
GALE_KB_PACK_DEFINE(f, float)

/* Carries the fixed-point digits of a reproducible sum into [-2^45, 2^45)
 * (word 0 takes what is left), so that more of them can be added without
 * overflowing int64. The carry out of word j is floor((w_j + 2^45) / 2^46)
 * (written without shifting a negative number), so words 1..7 end in the
 * half-open range: every exact value has exactly ONE carried form, whatever
 * words it was carried from (with a range closed at both ends, -2^45 and
 * +2^45 would both be kept). Hence the carried words, and so the value, are
 * a function of the exact sum alone (see the dot-product schedule below). */
static inline void gale_kb_rsum_carry(int64_t *w)
{
    const int64_t half = (int64_t)1 << 45, base = (int64_t)1 << 46;
    for (int j = GALE_RSUM_WORDS - 1; j > 0; j--) {
        const int64_t u = w[j] + half;
        const int64_t c = u >= 0 ? u >> 46 : -((-u + base - 1) >> 46);
        w[j] -= c * base;
        w[j - 1] += c;
    }
}

/* The value of carried digits, smallest first (host only). */
static inline double gale_kb_rsum_value(const int64_t *w)
{
    double v = 0;
    for (int j = GALE_RSUM_WORDS - 1; j >= 0; j--) v += (double)w[j] * ldexp(1.0, 138 - 46 * j);
    return v;
}

/* ------------------------------------------------------------------ */
/* the sum schedule (SUM reductions: dots), the same in both layers   */
/* ------------------------------------------------------------------ */
/* Both launch layers' loop heads GALE_KLOOP_SUM add a SUM row's column values
 * (its body; dots: gale_kb_dot_col) with the functions below; a layer only
 * chooses which of its threads runs which block or column. What is fixed,
 * and why the result cannot depend on the layer, the device, the thread or
 * team count or (after the integer MPI sum) the rank count:
 *
 * 1. A column's value: the body, the whole column summed by one thread in
 *    the order written out in gale_kb_psum_* (eight chains, a fixed tree, no
 *    contraction), so every layer and thread gets the same bits for a column.
 * 2. Its fixed-point digits: GALE_RSUM_DIGITS, exact. The device adds one
 *    column's digits to int64 words (gale_kb_rsum_term, one device thread
 *    per column); the CPU splits GALE_RSUM_LANES columns at once in SIMD
 *    lanes (gale_kb_sum_block -> gale_kb_rsum_vals), whose double sums of
 *    digits stay exact integers. Both add the same integers.
 * 3. Grouping: columns [c0,c1) in chunks of GALE_DOT_CHUNK from c0, in
 *    order (gale_kb_dot_chunk_end). Within a chunk digits are summed without
 *    a carry, which cannot overflow: 2^16 columns x digits below 2^46 stay
 *    below 2^62. The CPU cuts a chunk into blocks of GALE_RSUM_BATCH columns
 *    (from c0, gale_kb_sum_block) for its threads; the device gives each
 *    column a thread and reduces the words with an int64 reduction.
 * 4. Merge: every partial (a CPU thread's share of a chunk, in thread order;
 *    the device's whole chunk) goes into acc through gale_kb_dot_fold: carry,
 *    add, carry. Integer addition is exact and associative, so the exact sum
 *    in acc does not depend on the grouping in 2 and 3, and the carry
 *    (gale_kb_rsum_carry) gives each exact sum one representation: acc's
 *    words and bad count, hence the value gale_rsum_value makes of them, are
 *    the same bits in both layers by construction, not only by test.
 * 5. The plain sum (reproducible = 0): the same column values, each set's
 *    added in column order within a CPU block and a thread's blocks, folded
 *    in thread order; on the device a floating-point reduction whose order
 *    OpenMP leaves open, folded in chunk order. Floating-point addition is
 *    not associative, so plain sums agree between layers (and between thread
 *    counts) only to rounding; this is why reproducible sums exist. */
#define GALE_DOT_CHUNK (1 << 16)

/* The end of the chunk that starts at column cs of a range ending at c1. */
static inline int gale_kb_dot_chunk_end(int cs, int c1)
{
    return c1 - cs > GALE_DOT_CHUNK ? cs + GALE_DOT_CHUNK : c1;
}

/* Blocks of GALE_RSUM_BATCH columns in the chunk [cs,ce). */
static inline int gale_kb_dot_nblock(int cs, int ce)
{
    return (ce - cs + GALE_RSUM_BATCH - 1) / GALE_RSUM_BATCH;
}

/* One pair's value on column c: sum over levels [k0,k1) of
 * (wc[c]*wl[k]*x[k])*y[k] in precision prec (a NULL weight is 1). */
static inline double gale_kb_dot_col(int prec, int c, int stride, int k0, int k1, const void *x,
                                     const void *y, const double *wc, const double *wl)
{
    const size_t o = (size_t)c * stride;
    const double w = wc ? wc[c] : 1.0;
    return prec == GALE_F64
               ? gale_kb_psum_d(k0, k1, w, wl, (const double *)x + o, (const double *)y + o)
               : gale_kb_psum_f(k0, k1, w, wl, (const float *)x + o, (const float *)y + o);
}

/* A block's n <= GALE_RSUM_BATCH column values v (room for GALE_RSUM_BATCH),
 * added to part: their digits (the split in SIMD lanes) or, for the plain
 * sum, the values in column order. The CPU's blocks are GALE_RSUM_BATCH
 * columns of a chunk from its start; at most GALE_DOT_CHUNK / GALE_RSUM_BATCH
 * go into one partial between folds: each adds less than 2^52 to a word. */
static inline void gale_kb_sum_block(double *restrict v, int n, int reproducible,
                                     gale_rsum_t *restrict part)
{
    if (reproducible) {
        for (; n % GALE_RSUM_LANES; n++) v[n] = 0.0; /* zeros add nothing */
        gale_kb_rsum_vals(v, n, part->w, &part->bad);
    } else {
        for (int i = 0; i < n; i++) part->plain += v[i];
    }
}

/* Folds a partial (carried here; its words may hold up to 2^62) into acc,
 * which is left carried (host only). */
static inline void gale_kb_dot_fold(gale_rsum_t *restrict acc, gale_rsum_t *restrict part)
{
    gale_kb_rsum_carry(part->w);
    for (int j = 0; j < GALE_RSUM_WORDS; j++) acc->w[j] += part->w[j];
    acc->bad += part->bad;
    acc->plain += part->plain;
    gale_kb_rsum_carry(acc->w);
}

/* Rows of the reductions (gale_kdesc.h): the dot products (a column's
 * value, summed by the schedule above) and the health check. bytes: a
 * weight per column; flops: the column's, not the schedule's digits. */
#define GALE_KROWS_REDUCE(K)                                                               \
    K(dots, SUM, M, DF, 0, 0, 8 * wc / NL, 3 + wl + 7.0 / NL,                              \
      ((x, A, R, 0), (y, A, R, 0), (wc, WC, R, 0), (wl, WL, R, 0)),                        \
      gale_kb_dot_col(GALE_F64, i, x_stride, 0, x_nlev, x, y, wc, wl),                    \
      gale_kb_dot_col(GALE_F32, i, x_stride, 0, x_nlev, x, y, wc, wl))                    \
    K(checks, MAXABS, M, D, 0, 0, 0, 1 + 1.0 / NL, ((x, A, R, 0)),                         \
      gale_kb_maxabs_acc(x, i, x_stride, 0, x_nlev, &m, &bc), 0)

#endif
