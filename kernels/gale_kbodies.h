/* The column kernel bodies: the science of one column (or one batch of
 * columns), written once and included by both launch layers. Pure static
 * inline functions, restrict pointers, no parallel directives: the only
 * pragma is GALE_SIMD on level loops, which a launch layer defines before
 * including this file (empty in GPU device passes, DESIGN.md section 8).
 *
 * Every body evaluates its expressions in one fixed order (sides W,S,E,N,
 * levels bottom-up), with no contraction (-ffp-contract=off), so a column
 * computes the same bits on any rank, thread, redundant halo copy or build. */
#ifndef GALE_KBODIES_H
#define GALE_KBODIES_H

#include "gale_kernels.h"

#include <math.h>
#include <stdint.h>

#ifndef GALE_SIMD
#define GALE_SIMD
#endif

/* ------------------------------------------------------------------ */
/* dynamics (double)                                                  */
/* ------------------------------------------------------------------ */

/* out = in - s G_h p on one edge: G_h p = (p[second] - p[first]) / d_e */
static inline void gale_kb_grad_h(const gale_kmesh_t *km, int e, double s,
                                  const double *restrict in, const double *restrict p,
                                  double *restrict out)
{
    const int nl = km->nlev, sc = km->sc;
    const double *p1 = p + (size_t)km->edge_cell[2 * e] * sc;
    const double *p2 = p + (size_t)km->edge_cell[2 * e + 1] * sc;
    const double *a = in + (size_t)e * sc;
    double *o = out + (size_t)e * sc;
    const double f = s * km->erdist[e];
    GALE_SIMD
    for (int k = 0; k < nl; k++) o[k] = a[k] - f * (p2[k] - p1[k]);
}

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

static inline void gale_kb_col_backsub(const gale_kmesh_t *km, int c, const double *restrict p,
                                       const double *restrict ws, const double *restrict rb,
                                       double *restrict w, double *restrict b)
{
    const int nl = km->nlev, si = km->si;
    const double *pc = p + (size_t)c * km->sc;
    const double *wsc = ws + (size_t)c * si, *rbc = rb + (size_t)c * si;
    double *wc = w + (size_t)c * si, *bc = b + (size_t)c * si;
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

/* rhs = (V/c^2) p - V D(fu, fw) on one column */
static inline void gale_kb_rhs(const gale_kmesh_t *km, int c, const double *restrict p,
                               const double *restrict fu, const double *restrict fw,
                               double *restrict rhs)
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
    const double *dz = km->dz;
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        double hflux = f0 * u0[k] + f1 * u1[k] + f2 * u2[k] + f3 * u3[k];
        r[k] = ad * dz[k] * pc[k] - (dz[k] * hflux + area * (wc[k + 1] - wc[k]));
    }
}

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
        if (wl) GALE_PSUM_LANES(GALE_PSUM_TERM_W);                                         \
        else GALE_PSUM_LANES(GALE_PSUM_TERM);                                              \
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

/* One column's share of a reproducible sum: the column's own sum (above),
 * then its digits. The total is the exact sum of the column sums, whatever
 * the order in which columns are visited: bit-identical for any rank and
 * thread count and between builds, at the cost of one conversion per
 * column rather than per term. */
static inline void gale_kb_rsum_col_d(int k0, int k1, double wc, const double *restrict wl,
                                      const double *restrict x, const double *restrict y,
                                      int64_t *restrict w, int64_t *restrict bad)
{
    gale_kb_rsum_term(gale_kb_psum_d(k0, k1, wc, wl, x, y), w, bad);
}
static inline void gale_kb_rsum_col_f(int k0, int k1, double wc, const double *restrict wl,
                                      const float *restrict x, const float *restrict y,
                                      int64_t *restrict w, int64_t *restrict bad)
{
    gale_kb_rsum_term(gale_kb_psum_f(k0, k1, wc, wl, x, y), w, bad);
}

/* ------------------------------------------------------------------ */
/* solver operators, in double (suffix _d) and single (_f) precision  */
/* ------------------------------------------------------------------ */
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

/* Carries the fixed-point digits of a reproducible sum into [-2^45, 2^45]
 * (word 0 takes what is left), so that more of them can be added without
 * overflowing int64. */
static inline void gale_kb_rsum_carry(int64_t *w)
{
    const int64_t half = (int64_t)1 << 45;
    for (int j = GALE_RSUM_WORDS - 1; j > 0; j--) {
        int64_t v = w[j];
        int64_t c = v >= 0 ? (v + half) >> 46 : -((-v + half) >> 46);
        w[j] = v - c * ((int64_t)1 << 46);
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

#endif
