/* CPU launch layer of the nonlinear core's kernels: threads over columns or
 * edges, the dispatch shared with the offload layer (gale_knl_switch.h). */
#include "gale_base.h"

#ifdef __clang__
#define GALE_SIMD _Pragma("omp simd") _Pragma("clang loop unroll(disable)")
#else
#define GALE_SIMD _Pragma("omp simd")
#endif
#include "gale_kbodies_nl.h"
#include "gale_ktimers.h"

#include <omp.h>

static int kt[GALE_NL_NK]; /* kernel timers (gale_ktimers.h) */

int gale_knl_init(gale_knl_t *nk)
{
    gale_kt_register(kt, gale_knl_names, GALE_NL_NK);
    nk->impl = NULL;
    return GALE_OK;
}

int gale_knl_set_profile(gale_knl_t *nk) { return GALE_OK; }

void gale_knl_finalize(gale_knl_t *nk) { nk->impl = NULL; }

void gale_k_nl(int id, const gale_kmesh_t *km, const gale_knl_t *nk, int i0, int i1,
               const double s[2], double *const f[GALE_NL_MAXF])
{
    if (i1 <= i0) return;
    TSTART;
    const gale_kmesh_t *kd = km;
    const gale_knl_t *nd = nk;
    double *F0 = f[0], *F1 = f[1], *F2 = f[2], *F3 = f[3], *F4 = f[4], *F5 = f[5], *F6 = f[6],
           *F7 = f[7];
    const double s0 = s[0], s1 = s[1];
#define GALE_NL_FOR(i, i0, i1) _Pragma("omp parallel for schedule(static)") for (int i = i0; i < i1; i++)
#include "gale_knl_switch.h"
#undef GALE_NL_FOR
    (void)s1;
    TSTOP(id);
}
