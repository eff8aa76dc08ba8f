/* The reductions of kernels/gale_kbodies.h (the sum schedule, checks,
 * minmax), checked on the CPU launch layer's gale_k_run:
 *  - the carry gives every exact value one representation (ties included),
 *    so carried words depend on the exact sum only;
 *  - dots (GALE_KLOOP_SUM: blocks of GALE_RSUM_BATCH columns, digits split in
 *    SIMD lanes, per-thread partials; two sets in one launch) gives the same
 *    words, bad count and value bit for bit as the offload layer's path (one
 *    column at a time, gale_kb_rsum_term, one int64 sum per chunk,
 *    gale_kb_dot_fold), replayed here on the host, for 1 to 3 threads, both
 *    precisions, with and without weights, a range that crosses a chunk
 *    boundary, levels from k0 > 0 (the launch's fields start at k0) and a NaN;
 *  - checks finds the first bad column and its first bad level, minmax the
 *    range. */
#include "gale_test.h"

#include "gale_kdesc.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static double uniform(void) { return (double)(next() >> 11) * 0x1p-53; } /* [0,1) */
/* a value of random sign and magnitude 2^-30 .. 2^30: many digits in use */
static double value(void) { return (uniform() - 0.5) * ldexp(1.0, (int)(next() % 61) - 30); }

static void check_carry(void)
{
    const int64_t B = (int64_t)1 << 46, H = (int64_t)1 << 45;
    int bad_rep = 0, bad_range = 0, bad_idem = 0;
    for (int it = 0; it < 20000; it++) {
        int64_t a[GALE_RSUM_WORDS], b[GALE_RSUM_WORDS];
        for (int j = 0; j < GALE_RSUM_WORDS; j++)
            a[j] = (int64_t)(next() >> 4) - ((int64_t)1 << 59); /* |a| < 2^59 */
        if (it % 4 == 0) /* a tie: a word at exactly +-2^45 after carrying */
            a[1 + it % 7] = (it & 8 ? H : -H) + B * (int64_t)(next() % 5 - 2);
        memcpy(b, a, sizeof a);
        /* another representation of the same value: move s units between words */
        for (int r = 0; r < 3; r++) {
            const int j = 1 + (int)(next() % (GALE_RSUM_WORDS - 1));
            const int64_t s = (int64_t)(next() % 2001) - 1000;
            b[j] += s * B;
            b[j - 1] -= s;
        }
        gale_kb_rsum_carry(a);
        gale_kb_rsum_carry(b);
        bad_rep += memcmp(a, b, sizeof a) != 0;
        for (int j = 1; j < GALE_RSUM_WORDS; j++) bad_range += a[j] < -H || a[j] >= H;
        memcpy(b, a, sizeof a);
        gale_kb_rsum_carry(b);
        bad_idem += memcmp(a, b, sizeof a) != 0;
    }
    CHECK(bad_rep == 0, "%d values with two carried forms", bad_rep);
    CHECK(bad_range == 0, "%d carried words outside [-2^45, 2^45)", bad_range);
    CHECK(bad_idem == 0, "%d carried forms changed by a second carry", bad_idem);
}

typedef struct {
    const void *x, *y;
    const double *wc, *wl;
} pair_t;

/* The offload layer's schedule, on the host (kernels_offload/launch.c). */
static void device_schedule(int prec, int c0, int c1, int stride, int k0, int k1,
                            const pair_t *q, int reproducible, gale_rsum_t *acc)
{
    for (int cs = c0, ce; cs < c1; cs = ce) {
        ce = gale_kb_dot_chunk_end(cs, c1);
        gale_rsum_t part = {{0}, 0, 0.0};
        for (int c = cs; c < ce; c++) {
            const double v = gale_kb_dot_col(prec, c, stride, k0, k1, q->x, q->y, q->wc, q->wl);
            if (reproducible) gale_kb_rsum_term(v, part.w, &part.bad);
            else part.plain += v;
        }
        gale_kb_dot_fold(acc, &part);
    }
}

/* The field of column stride `stride` at x from level k0, to k1. */
static gale_kfield_t field(const void *x, int prec, int stride, int k0, int k1)
{
    const int el = prec == GALE_F64 ? 8 : 4;
    return (gale_kfield_t){(char *)x + (size_t)k0 * el, k1 - k0, stride, el, GALE_LOC_CELL};
}

/* dots on the CPU layer: the n <= 2 pairs q as the sets of one launch, each
 * added to acc[j]. */
static void cpu_dots(int prec, int c0, int c1, int stride, int k0, int k1, int n, const pair_t *q,
                     int reproducible, gale_rsum_t *acc)
{
    gale_kargs_t a[2];
    gale_kred_t r[2];
    for (int j = 0; j < n; j++) {
        r[j] = (gale_kred_t){.reproducible = reproducible, .sum = acc[j]};
        a[j] = (gale_kargs_t){.prec = prec, .nlev = k1 - k0, .red = &r[j],
                              .w = {q[j].wc, q[j].wl ? q[j].wl + k0 : NULL},
                              .f = {field(q[j].x, prec, stride, k0, k1),
                                    field(q[j].y, prec, stride, k0, k1)}};
    }
    a[0].nset = n;
    gale_k_run(GALE_K_dots, a, c0, c1);
    for (int j = 0; j < n; j++) acc[j] = r[j].sum;
}

static void check_dots(void)
{
    const int nl = 13, stride = 16, ncol = GALE_DOT_CHUNK + 3001;
    double *xd = calloc((size_t)ncol * stride, sizeof *xd), *yd = calloc((size_t)ncol * stride, sizeof *yd);
    float *xf = calloc((size_t)ncol * stride, sizeof *xf), *yf = calloc((size_t)ncol * stride, sizeof *yf);
    double *wc = calloc((size_t)ncol, sizeof *wc), wl[16];
    for (size_t i = 0; i < (size_t)ncol * stride; i++) {
        xd[i] = value(), yd[i] = value();
        xf[i] = (float)value(), yf[i] = (float)value();
    }
    for (int c = 0; c < ncol; c++) wc[c] = 0.5 + uniform();
    for (int k = 0; k < 16; k++) wl[k] = 0.25 + uniform();
    const struct {
        int prec, c0, c1, k0, k1, weighted, nan;
    } cases[] = {
        {GALE_F64, 0, ncol, 0, nl, 1, 0},  {GALE_F64, 37, ncol - 5, 1, nl, 0, 0},
        {GALE_F32, 0, ncol, 0, nl, 1, 0},  {GALE_F32, 3, 1000, 2, nl - 1, 0, 0},
        {GALE_F64, 0, 70, 0, nl, 0, 0},    {GALE_F64, 0, ncol, 0, nl, 0, 1},
    };
    for (size_t ic = 0; ic < sizeof cases / sizeof cases[0]; ic++) {
        const int prec = cases[ic].prec, c0 = cases[ic].c0, c1 = cases[ic].c1;
        const int k0 = cases[ic].k0, k1 = cases[ic].k1;
        if (cases[ic].nan) xd[(size_t)777 * stride + k0 + 1] = NAN;
        pair_t q[2] = {
            {prec == GALE_F64 ? (const void *)xd : (const void *)xf,
             prec == GALE_F64 ? (const void *)yd : (const void *)yf, cases[ic].weighted ? wc : NULL,
             cases[ic].weighted ? wl : NULL},
            {q[0].x, q[0].x, NULL, NULL}, /* x . x, as the solver's norms */
        };
        for (int rep = 1; rep >= 0; rep--) {
            gale_rsum_t ref[2];
            for (int j = 0; j < 2; j++) {
                gale_rsum_zero(&ref[j]);
                device_schedule(prec, c0, c1, stride, k0, k1, &q[j], rep, &ref[j]);
            }
            for (int nt = 1; nt <= 3; nt++) {
                omp_set_num_threads(nt);
                gale_rsum_t acc[2];
                gale_rsum_zero(&acc[0]);
                gale_rsum_zero(&acc[1]);
                cpu_dots(prec, c0, c1, stride, k0, k1, 2, q, rep, acc);
                for (int j = 0; j < 2; j++) {
                    if (rep) {
                        CHECK(memcmp(acc[j].w, ref[j].w, sizeof acc[j].w) == 0 &&
                                  acc[j].bad == ref[j].bad,
                              "case %zu pair %d, %d threads: words differ from the device schedule",
                              ic, j, nt);
                        CHECK(gale_rsum_value(&acc[j]) == gale_rsum_value(&ref[j]),
                              "case %zu pair %d, %d threads: value %.17g, device schedule %.17g",
                              ic, j, nt, gale_rsum_value(&acc[j]), gale_rsum_value(&ref[j]));
                        CHECK((acc[j].bad != 0) == (cases[ic].nan && c0 <= 777 && 777 < c1),
                              "case %zu pair %d: bad count %lld", ic, j, (long long)acc[j].bad);
                    } else if (nt == 1 || isnan(ref[j].plain)) {
                        /* one thread: the column values in column order, as the
                         * replay (both fold the one partial of each chunk) */
                        CHECK(acc[j].plain == ref[j].plain ||
                                  (isnan(acc[j].plain) && isnan(ref[j].plain)),
                              "case %zu pair %d, plain, 1 thread: %.17g, in order %.17g", ic, j,
                              acc[j].plain, ref[j].plain);
                    } else {
                        CHECK_REL(acc[j].plain, ref[j].plain, 1e-12);
                    }
                }
            }
        }
        if (cases[ic].nan) xd[(size_t)777 * stride + k0 + 1] = 0.5;
    }
    free(xd), free(yd), free(xf), free(yf), free(wc);
}

/* checks on the CPU layer: max |x| over columns [c0,c1), levels [k0,k1) */
static double cpu_maxabs(int c0, int c1, int stride, int k0, int k1, const double *x, int *bc,
                         int *bl)
{
    gale_kred_t r = {.bad_col = -1, .bad_lev = -1};
    gale_kargs_t a = {.prec = GALE_F64, .nlev = k1 - k0, .red = &r,
                      .f = {field(x, GALE_F64, stride, k0, k1)}};
    gale_k_run(GALE_K_checks, &a, c0, c1);
    *bc = r.bad_col;
    *bl = r.bad_lev < 0 ? -1 : k0 + r.bad_lev;
    return r.max;
}

static void check_maxabs_minmax(void)
{
    enum { NC = 40, ST = 8, NL = 6 };
    static double x[NC * ST];
    for (int i = 0; i < NC * ST; i++) x[i] = value();
    x[3 * ST + 5] = -1e300;
    int bc, bl;
    double m = cpu_maxabs(0, NC, ST, 0, NL, x, &bc, &bl);
    CHECK(m == 1e300 && bc == -1 && bl == -1, "maxabs %g, bad column %d level %d", m, bc, bl);
    gale_kred_t r = {.min = INFINITY, .max = -INFINITY};
    gale_kargs_t a = {.prec = GALE_F64, .nlev = NL, .red = &r, .f = {field(x, GALE_F64, ST, 0, NL)}};
    gale_k_run(GALE_K_minmax, &a, 0, NC);
    const double mn = r.min, mx = r.max;
    double rmn = INFINITY, rmx = -INFINITY;
    for (int c = 0; c < NC; c++)
        for (int k = 0; k < NL; k++) {
            rmn = fmin(rmn, x[c * ST + k]);
            rmx = fmax(rmx, x[c * ST + k]);
        }
    CHECK(mn == rmn && mx == rmx, "minmax [%g, %g], expected [%g, %g]", mn, mx, rmn, rmx);
    x[17 * ST + 4] = NAN;
    x[11 * ST + 2] = INFINITY;
    x[11 * ST + 1] = -INFINITY;
    x[11 * ST + 0] = NAN; /* below k0: not looked at */
    m = cpu_maxabs(5, NC, ST, 1, NL, x, &bc, &bl);
    CHECK(isnan(m) && bc == 11 && bl == 1, "maxabs %g, bad column %d level %d (expected 11, 1)",
          m, bc, bl);
}

int main(void)
{
    check_carry();
    check_dots();
    check_maxabs_minmax();
    return gale_test_result("test_kdots");
}
