/* Transport kernel bodies (one column, one edge), included by both launch
 * layers like gale_kbodies.h: no parallel directives besides GALE_SIMD, one
 * fixed evaluation order (neighbours in gid order, sides W,S,E,N). */
#ifndef GALE_KBODIES_TRANSPORT_H
#define GALE_KBODIES_TRANSPORT_H

#include "gale_ktransport.h"

#include <math.h>

#ifndef GALE_SIMD
#define GALE_SIMD
#endif

/* Barth-Jespersen factor for one face: how much of the increment d fits in
 * [dmin, dmax] (both relative to the cell value). */
static inline double gale_kb_bj(double d, double dmin, double dmax)
{
    double r = d > 0 ? dmax : dmin;
    double phi = d != 0 ? r / (d != 0 ? d : 1.0) : 1.0;
    return phi < 1.0 ? phi : 1.0;
}

/* q = m / rho, 0 where rho is 0; the divisor is guarded too, so that a
 * vector lane that is thrown away does not divide by zero */
static inline double gale_kb_tr_ratio(double x, double y)
{
    return y != 0 ? x / (y != 0 ? y : 1.0) : 0.0;
}

/* minmax (MINMAX), one column c (levels [0,nl)) of x: folds its values into
 * the running min *mn and max *mx, levels bottom-up (a NaN changes neither).
 * Exact, so the layers' min/max reductions over columns agree in any order. */
static inline void gale_kb_tr_minmax(int c, int nl, int stride, const double *restrict x,
                                     double *restrict mn, double *restrict mx)
{
    const double *xc = x + (size_t)c * stride;
    double a = *mn, b = *mx;
    for (int k = 0; k < nl; k++) {
        const double v = xc[k];
        a = v < a ? v : a;
        b = v > b ? v : b;
    }
    *mn = a;
    *mx = b;
}

static inline void gale_kb_tr_faces(const gale_ktr_t *tr, int c, int nl, int stride,
                                    const double *restrict q, double *restrict qf)
{
    const int *nb = tr->nb + GALE_TR_NB * c;
    const double *rc = tr->rc + 4 * GALE_TR_NB * c;
    const double *q0 = q + (size_t)c * stride;
    const double *n0 = q + (size_t)nb[0] * stride, *n1 = q + (size_t)nb[1] * stride;
    const double *n2 = q + (size_t)nb[2] * stride, *n3 = q + (size_t)nb[3] * stride;
    const double *n4 = q + (size_t)nb[4] * stride, *n5 = q + (size_t)nb[5] * stride;
    const double *n6 = q + (size_t)nb[6] * stride, *n7 = q + (size_t)nb[7] * stride;
    double *f0 = qf + (size_t)(4 * c) * stride, *f1 = f0 + stride, *f2 = f1 + stride,
           *f3 = f2 + stride;
#define GALE_TR_FACE(s)                                                                    \
    (rc[8 * (s)] * d0 + rc[8 * (s) + 1] * d1 + rc[8 * (s) + 2] * d2 + rc[8 * (s) + 3] * d3 + \
     rc[8 * (s) + 4] * d4 + rc[8 * (s) + 5] * d5 + rc[8 * (s) + 6] * d6 + rc[8 * (s) + 7] * d7)
    if (!tr->limit) {
        /* the reconstruction as it is (the nonlinear core's dynamics): the
         * limited path with phi = 1, whose max/min and divisions are 40% of
         * its work; qc + e is qc + 1 * e to the bit */
        GALE_SIMD
        for (int k = 0; k < nl; k++) {
            const double qc = q0[k];
            const double d0 = n0[k] - qc, d1 = n1[k] - qc, d2 = n2[k] - qc, d3 = n3[k] - qc;
            const double d4 = n4[k] - qc, d5 = n5[k] - qc, d6 = n6[k] - qc, d7 = n7[k] - qc;
            f0[k] = qc + GALE_TR_FACE(0);
            f1[k] = qc + GALE_TR_FACE(1);
            f2[k] = qc + GALE_TR_FACE(2);
            f3[k] = qc + GALE_TR_FACE(3);
        }
        return;
    }
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        const double qc = q0[k];
        const double d0 = n0[k] - qc, d1 = n1[k] - qc, d2 = n2[k] - qc, d3 = n3[k] - qc;
        const double d4 = n4[k] - qc, d5 = n5[k] - qc, d6 = n6[k] - qc, d7 = n7[k] - qc;
        double dmax = fmax(fmax(fmax(d0, d1), fmax(d2, d3)), fmax(fmax(d4, d5), fmax(d6, d7)));
        double dmin = fmin(fmin(fmin(d0, d1), fmin(d2, d3)), fmin(fmin(d4, d5), fmin(d6, d7)));
        /* limit every face increment to the distance to the NEARER local
         * bound: a linear profile gets that from its opposite face, but a
         * curved one can lift all faces above a cell at a local minimum and
         * so carry out more than the cell holds (new minima) */
        const double room = fmin(fmax(dmax, 0.0), -fmin(dmin, 0.0));
        dmax = room;
        dmin = -room;
        const double e0 = GALE_TR_FACE(0), e1 = GALE_TR_FACE(1), e2 = GALE_TR_FACE(2),
                     e3 = GALE_TR_FACE(3);
        const double phi = fmin(fmin(gale_kb_bj(e0, dmin, dmax), gale_kb_bj(e1, dmin, dmax)),
                                fmin(gale_kb_bj(e2, dmin, dmax), gale_kb_bj(e3, dmin, dmax)));
        f0[k] = qc + phi * e0;
        f1[k] = qc + phi * e1;
        f2[k] = qc + phi * e2;
        f3[k] = qc + phi * e3;
    }
#undef GALE_TR_FACE
}

/* The unlimited face value at level k of a cell whose column is q0 and
 * whose vertex neighbours' columns are n[0..7], with its side's
 * coefficients r[0..7]: q0 + sum_n r[n] (q_n - q0), summed in neighbour
 * order. tr_faces' unlimited path computes exactly this (qc + e with phi =
 * 1 is qc + 1 * e to the bit). */
#define GALE_TR_FACE_AT(q0, n, r, k)                                                       \
    ((q0)[k] + ((r)[0] * ((n)[0][k] - (q0)[k]) + (r)[1] * ((n)[1][k] - (q0)[k]) +            \
                (r)[2] * ((n)[2][k] - (q0)[k]) + (r)[3] * ((n)[3][k] - (q0)[k]) +            \
                (r)[4] * ((n)[4][k] - (q0)[k]) + (r)[5] * ((n)[5][k] - (q0)[k]) +            \
                (r)[6] * ((n)[6][k] - (q0)[k]) + (r)[7] * ((n)[7][k] - (q0)[k])))

/* Cell c's face s: its neighbours' columns in n and the side's coefficients */
static inline const double *gale_kb_tr_side(const gale_ktr_t *tr, int c, int s, int stride,
                                            const double *q, const double **n)
{
    const int *nb = tr->nb + GALE_TR_NB * c;
    for (int j = 0; j < GALE_TR_NB; j++) n[j] = q + (size_t)nb[j] * stride;
    return tr->rc + 4 * GALE_TR_NB * c + GALE_TR_NB * s;
}

/* tr_faces (unlimited) and tr_hflux in one pass over an edge: each cell's
 * face value on this edge is reconstructed where it is used, so the four
 * face values of every cell are never stored and read back. Every face
 * (cell, side) belongs to one edge, so nothing is computed twice; the bits
 * are those of the two kernels. */
static inline void gale_kb_tr_eflux(const gale_ktr_t *tr, const gale_kmesh_t *km, int e, int nl,
                                    int stride, const double *restrict f,
                                    const double *restrict q, double *restrict fq)
{
    const int c1 = km->edge_cell[2 * e], c2 = km->edge_cell[2 * e + 1];
    const double *na[GALE_TR_NB], *nb[GALE_TR_NB];
    const double *ra = gale_kb_tr_side(tr, c1, tr->eside[2 * e], stride, q, na);
    const double *rb = gale_kb_tr_side(tr, c2, tr->eside[2 * e + 1], stride, q, nb);
    const double *qa = q + (size_t)c1 * stride, *qb = q + (size_t)c2 * stride;
    const double *fe = f + (size_t)e * stride;
    double *o = fq + (size_t)e * stride;
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        const double fl = fe[k], av = GALE_TR_FACE_AT(qa, na, ra, k),
                     bv = GALE_TR_FACE_AT(qb, nb, rb, k);
        o[k] = fl * (fl >= 0 ? av : bv);
    }
}

static inline void gale_kb_tr_hflux(const gale_ktr_t *tr, const gale_kmesh_t *km, int e, int nl,
                                    int stride, const double *restrict f,
                                    const double *restrict qf, double *restrict fq)
{
    const int c1 = km->edge_cell[2 * e], c2 = km->edge_cell[2 * e + 1];
    const double *a = qf + (size_t)(4 * c1 + tr->eside[2 * e]) * stride;
    const double *b = qf + (size_t)(4 * c2 + tr->eside[2 * e + 1]) * stride;
    const double *fe = f + (size_t)e * stride;
    double *o = fq + (size_t)e * stride;
    /* both face values loaded, then chosen: a load under the condition
     * became a masked load (gcc 12), half the speed */
    GALE_SIMD
    for (int k = 0; k < nl; k++) {
        const double f = fe[k], av = a[k], bv = b[k];
        o[k] = f * (f >= 0 ? av : bv);
    }
}

/* Vertical fluxes of one column: wq = W q_face(upwind layer) at interior
 * interfaces, with limited centred slopes (tr->limit; the end layers first
 * order). The slope of layer k is kept in wq[k + 1] until the flux there is
 * formed: the flux at k reads wq[k] and wq[k + 1] before it writes wq[k], so
 * the column needs no scratch field. */
static inline void gale_kb_tr_vflux(const gale_ktr_t *tr, const gale_kmesh_t *km, int c,
                                    const double *restrict q, const double *restrict w,
                                    double *restrict wq)
{
    const int nl = km->nlev;
    const double *qc = q + (size_t)c * km->sc, *wc = w + (size_t)c * km->si;
    const double *zc = tr->zc, *zi = tr->zi;
    double *o = wq + (size_t)c * km->si;
    o[1] = 0.0;
    o[nl] = 0.0;
    if (tr->limit) {
        GALE_SIMD
        for (int k = 1; k < nl - 1; k++) {
            double s = (qc[k + 1] - qc[k - 1]) / (zc[k + 1] - zc[k - 1]);
            double dmax = fmax(fmax(qc[k - 1] - qc[k], qc[k + 1] - qc[k]), 0.0);
            double dmin = fmin(fmin(qc[k - 1] - qc[k], qc[k + 1] - qc[k]), 0.0);
            double up = s * (zi[k + 1] - zc[k]), down = s * (zi[k] - zc[k]);
            o[k + 1] = fmax(fmin(gale_kb_bj(up, dmin, dmax), gale_kb_bj(down, dmin, dmax)), 0.0) * s;
        }
    } else { /* the nonlinear core's dynamics: the slope as it is */
        GALE_SIMD
        for (int k = 1; k < nl - 1; k++) o[k + 1] = (qc[k + 1] - qc[k - 1]) / (zc[k + 1] - zc[k - 1]);
    }
    GALE_SIMD
    for (int k = 1; k < nl; k++) {
        double below = qc[k - 1] + o[k] * (zi[k] - zc[k - 1]);
        double above = qc[k] + o[k + 1] * (zi[k] - zc[k]);
        o[k] = wc[k] * (wc[k] >= 0 ? below : above);
    }
    o[0] = 0.0;
    o[nl] = 0.0;
}

static inline void gale_kb_tr_tend(const gale_ktr_t *tr, const gale_kmesh_t *km, int c, int nl,
                                   int stride, int wstride, const double *restrict fq,
                                   const double *restrict wq, double *restrict out)
{
    const int *ce = km->cell_edge + 4 * c;
    const double *sg = km->cell_sign + 4 * c;
    const double *u0 = fq + (size_t)ce[0] * stride, *u1 = fq + (size_t)ce[1] * stride;
    const double *u2 = fq + (size_t)ce[2] * stride, *u3 = fq + (size_t)ce[3] * stride;
    const double s0 = sg[0], s1 = sg[1], s2 = sg[2], s3 = sg[3], ra = tr->rarea[c];
    double *o = out + (size_t)c * stride;
    if (tr->hl) { /* the deep atmosphere: shells (gale_ktransport.h) */
        const double *h = nl == km->nlev ? tr->hl : tr->hi;
        if (wq) {
            const double *wc = wq + (size_t)c * wstride, *q = tr->qi, *rv = tr->rdzv;
            GALE_SIMD
            for (int k = 0; k < nl; k++)
                o[k] = -(((s0 * u0[k] + s1 * u1[k] + s2 * u2[k] + s3 * u3[k]) * ra) * h[k] +
                         (q[k + 1] * wc[k + 1] - q[k] * wc[k]) * rv[k]);
        } else {
            GALE_SIMD
            for (int k = 0; k < nl; k++)
                o[k] = -(((s0 * u0[k] + s1 * u1[k] + s2 * u2[k] + s3 * u3[k]) * ra) * h[k]);
        }
        return;
    }
    if (wq) {
        const double *wc = wq + (size_t)c * wstride, *rdz = tr->rdz;
        GALE_SIMD
        for (int k = 0; k < nl; k++)
            o[k] = -((s0 * u0[k] + s1 * u1[k] + s2 * u2[k] + s3 * u3[k]) * ra +
                     (wc[k + 1] - wc[k]) * rdz[k]);
    } else {
        GALE_SIMD
        for (int k = 0; k < nl; k++) o[k] = -((s0 * u0[k] + s1 * u1[k] + s2 * u2[k] + s3 * u3[k]) * ra);
    }
}

/* out = x / y on element i of whole column blocks (gale_kb_tr_ratio) */
static inline void gale_kb_tr_ratio_at(size_t i, const double *restrict x,
                                       const double *restrict y, double *restrict out)
{
    out[i] = gale_kb_tr_ratio(x[i], y[i]);
}

/* Rows (gale_kdesc.h). The face values are computed on owned cells and halo
 * depth 1 (extent 1), so that every edge of an owned cell sees both of its
 * cells' face values without exchanging them; q is a layer or interface
 * field (the tracer, theta, w), whose levels and stride the faces and fluxes
 * share; wq is optional (NULL: horizontal only). bytes: nb and rc, the
 * connectivity; qf holds 4 faces of q's levels, not its padded qf_nlev;
 * out may have more levels than it is written (a stage buffer). */
#define GALE_KROWS_TRANSPORT(K)                                                            \
    K(tr_ratio, FLAT, M, D, 0, 0, 0, 3, ((out, CI, W, 0), (x, CI, R, 0), (y, CI, R, 0)),   \
      gale_kb_tr_ratio_at(i, x, y, out), 0)                                                \
    K(tr_faces, CELLS, T, D, 1, 0, (288 + 8 * (4 * NL - qf_nlev)) / NL, 72 + 44 * LIM,     \
      ((q, CI, R, 1), (qf, C, W, 0)),                                                      \
      gale_kb_tr_faces(TR, i, q_nlev, q_stride, q, qf), 0)                                 \
    K(tr_hflux, EDGES, T, D, 0, 0, (16 + 4 * (4 * NL - qf_nlev)) / NL, 2,                  \
      ((f, E, R, 0), (qf, C, R, 1), (fq, E, W, 0)),                                        \
      gale_kb_tr_hflux(TR, KM, i, f_nlev, f_stride, f, qf, fq), 0)                         \
    K(tr_eflux, EDGES, T, D, 0, 0, 160.0 / NL, 50,                                         \
      ((f, E, R, 0), (q, CI, R, 2), (fq, E, W, 0)),                                        \
      gale_kb_tr_eflux(TR, KM, i, f_nlev, f_stride, f, q, fq), 0)                          \
    K(tr_vflux, CELLS, T, D, 0, 0, -16.0 / NL, LIM ? 36 - 64.0 / NL : 11 - 14.0 / NL,      \
      ((q, C, R, 0), (w, I, R, 0), (wq, I, W, 0)),                                         \
      gale_kb_tr_vflux(TR, KM, i, q, w, wq), 0)                                            \
    K(tr_tend, CELLS, T, D, 0, 0,                                                          \
      (56 + 8 * (NL - out_nlev)) / NL, 8 + TDEEP + wq * (3 + 2 * TDEEP),                   \
      ((fq, E, R, 0), (wq, I, R, 0), (out, CI, W, 0)),                                     \
      gale_kb_tr_tend(TR, KM, i, fq_nlev, fq_stride, KM->si, fq, wq, out), 0)               \
    K(minmax, MINMAX, M, D, 0, 0, 0, 2, ((x, A, R, 0)),                                    \
      gale_kb_tr_minmax(i, x_nlev, x_stride, x, &lo, &hi), 0)

#endif
