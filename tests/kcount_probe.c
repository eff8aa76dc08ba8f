/* The kernel dispatch (kernels/gale_kdispatch.h) on its own, for
 * tests/test_kcount.c: every described kernel's body, called in serial
 * loops. Built by clang at -O0 with its loads and stores traced
 * (-fsanitize-coverage=trace-loads,trace-stores: __sanitizer_cov_load8 and
 * so on, which test_kcount.c implements) and every floating-point operation
 * inside the bodies counted (tests/kcount_ir.py adds a call of gale_kc_flops
 * before each one), so that one launch tells what its body reads, writes
 * and computes. -O0 keeps the source's operations as written: nothing is
 * hoisted, merged or vectorised (docs/report.md, "Minimum bytes and flops"). */
#include "gale_kdesc.h"

#include <limits.h>
#include <math.h>

/* before each body call: a new unit (a column, FLAT's element, BATCH's batch) */
void gale_kc_unit(void);

#define GALE_KLOOP_CELLS(devptrs, body)                                                    \
    for (int i = i0; i < i1; i++) {                                                        \
        gale_kc_unit();                                                                    \
        body;                                                                              \
    }
#define GALE_KLOOP_EDGES(devptrs, body) GALE_KLOOP_CELLS(devptrs, body)
#define GALE_KLOOP_COLS(devptrs, body) GALE_KLOOP_CELLS(devptrs, body)
#define GALE_KLOOP_FLAT(devptrs, body)                                                     \
    for (size_t i = fi0; i < fi1; i++) {                                                   \
        gale_kc_unit();                                                                    \
        body;                                                                              \
    }
#define GALE_KLOOP_BATCH(devptrs, body)                                                    \
    for (int i = b0; i < b1; i++) {                                                        \
        int l0, l1;                                                                        \
        gale_kb_batch_lanes(i, i0, i1, &l0, &l1);                                          \
        gale_kc_unit();                                                                    \
        body;                                                                              \
    }

/* the reductions: each set's columns, one body call each; the result is
 * the launch layer's business (the test runs the real launch for it) */
#define GALE_KLOOP_SUM(devptrs, bind, body)                                                \
    for (int j_ = 0; j_ < nset_; j_++) {                                                   \
        bind;                                                                              \
        for (int i = i0; i < i1; i++) {                                                    \
            gale_kc_unit();                                                                \
            (void)(body);                                                                  \
        }                                                                                  \
    }
#define GALE_KLOOP_MAXABS(devptrs, bind, body)                                             \
    for (int j_ = 0; j_ < nset_; j_++) {                                                   \
        bind;                                                                              \
        double m = 0;                                                                      \
        int bc = INT_MAX;                                                                  \
        for (int i = i0; i < i1; i++) {                                                    \
            gale_kc_unit();                                                                \
            body;                                                                          \
        }                                                                                  \
    }
#define GALE_KLOOP_MINMAX(devptrs, bind, body)                                             \
    for (int j_ = 0; j_ < nset_; j_++) {                                                   \
        bind;                                                                              \
        double lo = INFINITY, hi = -INFINITY;                                              \
        for (int i = i0; i < i1; i++) {                                                    \
            gale_kc_unit();                                                                \
            body;                                                                          \
        }                                                                                  \
    }
/* host memory: the addresses as they are */
#define GALE_KADDR(p) (p)
#define GALE_KWEIGHT(w, n) (w)

/* gale_k_run's dispatch with these loops; T: BATCH's scratch (GALE_LANES
 * columns and one more, as the CPU layer's) */
void gale_kc_run(int id, const gale_kargs_t *ka_, int i0, int i1, void *T)
{
    const gale_kmesh_t *const KM = ka_->km;
    const gale_ktr_t *const TR = ka_->tr;
    const gale_knl_t *const NK = ka_->nk;
    const size_t fi0 = (size_t)i0 * ka_->flat, fi1 = (size_t)i1 * ka_->flat;
    const int b0 = i0 / GALE_LANES, b1 = (i1 + GALE_LANES - 1) / GALE_LANES;
    (void)KM, (void)TR, (void)NK, (void)T, (void)fi0, (void)fi1, (void)b0, (void)b1;
#include "gale_kdispatch.h"
}
