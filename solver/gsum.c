/* Global sums: one MPI_Allreduce (or MPI_Iallreduce) per call, however many
 * values. Reproducible mode reduces the fixed-point words as int64 (exact,
 * associative, so bit-identical for any rank and thread count); plain mode
 * reduces doubles. Counted and timed as "global_sums". */
#include "gale_solver.h"

#include "gale_base.h"

#include <math.h>
#include <string.h>

#define NW (GALE_RSUM_WORDS + 1) /* digits + bad count */

void gale_gsum_init(gale_gsum_t *g, MPI_Comm comm, int reproducible)
{
    g->comm = comm;
    g->reproducible = reproducible;
    g->count = 0;
}

int gale_gsum_start(gale_gsum_t *g, int n, const gale_rsum_t *acc, gale_gsum_req_t *r)
{
    GALE_ASSERT(n >= 1 && n <= GALE_GSUM_MAX);
    double t0 = gale_wtime();
    r->n = n;
    if (g->reproducible) {
        for (int j = 0; j < n; j++) {
            memcpy(&r->iw[j * NW], acc[j].w, sizeof acc[j].w);
            r->iw[j * NW + GALE_RSUM_WORDS] = acc[j].bad;
        }
        GALE_MPI(MPI_Iallreduce(MPI_IN_PLACE, r->iw, n * NW, MPI_INT64_T, MPI_SUM, g->comm,
                                &r->req));
    } else {
        for (int j = 0; j < n; j++) r->dw[j] = acc[j].plain;
        GALE_MPI(MPI_Iallreduce(MPI_IN_PLACE, r->dw, n, MPI_DOUBLE, MPI_SUM, g->comm, &r->req));
    }
    g->count++;
    gale_timer_add(GALE_T_GLOBAL_SUM, gale_wtime() - t0);
    return GALE_OK;
}

int gale_gsum_finish(gale_gsum_t *g, gale_gsum_req_t *r, double *out)
{
    double t0 = gale_wtime();
    GALE_MPI(MPI_Wait(&r->req, MPI_STATUS_IGNORE));
    gale_timer_add(GALE_T_GLOBAL_SUM, gale_wtime() - t0);
    int bad = 0;
    for (int j = 0; j < r->n; j++) {
        if (g->reproducible) {
            gale_rsum_t s;
            memcpy(s.w, &r->iw[j * NW], sizeof s.w);
            s.bad = r->iw[j * NW + GALE_RSUM_WORDS];
            bad |= s.bad != 0;
            out[j] = gale_rsum_value(&s);
        } else {
            out[j] = r->dw[j];
            bad |= !isfinite(out[j]);
        }
    }
    /* every rank sees the same reduced values, so every rank fails together */
    if (bad)
        GALE_ERROR(GALE_ERR_NUMERIC,
                   "a global sum met a NaN, an Inf or a term beyond 2^184 (the model has blown up)");
    return GALE_OK;
}

int gale_gsum(gale_gsum_t *g, int n, const gale_rsum_t *acc, double *out)
{
    gale_gsum_req_t r;
    GALE_CALL(gale_gsum_start(g, n, acc, &r));
    GALE_CALL(gale_gsum_finish(g, &r, out));
    return GALE_OK;
}
