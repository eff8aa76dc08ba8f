/* Global reductions (gale_psy.h). Sums: one MPI_Allreduce (or
 * MPI_Iallreduce) per call, however many values; reproducible mode reduces
 * the fixed-point words as int64 (exact, associative, so bit-identical for
 * any rank and thread count), plain mode reduces doubles. Counted and timed
 * as "global_sums". On an emulated machine each completes no earlier than
 * it would there (docs/emulate.md). */
#include "gale_psy.h"

#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_netmodel.h"

#include <math.h>
#include <string.h>

#define NW (GALE_RSUM_WORDS + 1) /* digits + bad count */

void gale_gsum_init(gale_gsum_t *g, gale_psy_t *p, int reproducible)
{
    g->psy = p;
    g->comm = gale_psy_comm(p);
    g->reproducible = reproducible;
    g->count = 0;
    g->seconds = 0;
}

void gale_psy_sum_init(gale_psy_sum_t *s)
{
    s->n = 0;
    s->blocking = 0;
}

/* The sums started and not finished (a few at once: a mixed solve's while
 * its preconditioner's Helmholtz solve runs its own): their requests, which
 * the progress points test, and their emulated steps. A slot, not the
 * caller's gale_psy_sum_t, owns the request: a sum abandoned by an error
 * leaves no dangling pointer here. */
#define NPEND 16
static struct {
    int used, early;
    MPI_Request req;
    double t_post;
    gale_netop_t op;
} g_pend[NPEND];
static int g_npend;

int gale_psy_progress(void)
{
    for (int k = 0, seen = 0; seen < g_npend && k < NPEND; k++) {
        if (!g_pend[k].used) continue;
        seen++;
        if (g_pend[k].req != MPI_REQUEST_NULL) {
            int done = 0;
            GALE_MPI(MPI_Test(&g_pend[k].req, &done, MPI_STATUS_IGNORE));
            gale_comm_stats()->progress_tests++;
        }
        /* the emulated machine's MPI is entered here too */
        const int edone = gale_emulate() ? gale_netop_poll(&g_pend[k].op, gale_wtime()) : 1;
        g_pend[k].early |= g_pend[k].req == MPI_REQUEST_NULL && edone;
    }
    return GALE_OK;
}

void gale_psy_sum_dot(gale_psy_sum_t *s, const gale_field_t *x, const gale_field_t *y,
                      const double *wc, const double *wl)
{
    /* more than GALE_GSUM_MAX values is a bug in gale: gale_psy_sum_start says so */
    if (s->n >= GALE_GSUM_MAX) {
        s->n++;
        return;
    }
    s->dot[s->n] = (gale_psy_dots_t){x, y, wc, wl};
    s->acc[s->n++] = (gale_kred_t){0};
}

gale_rsum_t *gale_psy_sum_term(gale_psy_sum_t *s)
{
    static gale_rsum_t spill; /* past GALE_GSUM_MAX: caught by gale_psy_sum_start */
    if (s->n >= GALE_GSUM_MAX) {
        s->n++;
        return &spill;
    }
    s->dot[s->n].x = NULL;
    s->acc[s->n] = (gale_kred_t){0};
    return &s->acc[s->n++].sum;
}

/* The local parts: consecutive dots of one shape in one launch. */
static int local_dots(const gale_gsum_t *g, gale_psy_sum_t *s)
{
    for (int j = 0; j < s->n;) {
        const gale_field_t *x = s->dot[j].x;
        if (!x) {
            j++;
            continue;
        }
        int m = 1;
        while (j + m < s->n && s->dot[j + m].x && gale_field_same_shape(s->dot[j + m].x, x)) m++;
        for (int i = 0; i < m; i++) s->acc[j + i].reproducible = g->reproducible;
        GALE_CALL(gale_psy_dots(g->psy, m, &s->dot[j], &s->acc[j]));
        j += m;
    }
    return GALE_OK;
}
int gale_psy_sum_start(gale_gsum_t *g, gale_psy_sum_t *r)
{
    const int n = r->n;
    GALE_ASSERT(n >= 1 && n <= GALE_GSUM_MAX);
    GALE_CALL(local_dots(g, r));
    double t0 = gale_wtime();
    int k = 0;
    while (k < NPEND && g_pend[k].used) k++;
    if (k == NPEND) GALE_ERROR(GALE_ERR_INTERNAL, "more than %d global sums pending", NPEND);
    MPI_Request *req = &g_pend[k].req;
    if (g->reproducible) {
        for (int j = 0; j < n; j++) {
            memcpy(&r->iw[j * NW], r->acc[j].sum.w, sizeof r->acc[j].sum.w);
            r->iw[j * NW + GALE_RSUM_WORDS] = r->acc[j].sum.bad;
        }
        GALE_MPI(MPI_Iallreduce(MPI_IN_PLACE, r->iw, n * NW, MPI_INT64_T, MPI_SUM, g->comm, req));
    } else {
        for (int j = 0; j < n; j++) r->dw[j] = r->acc[j].sum.plain;
        GALE_MPI(MPI_Iallreduce(MPI_IN_PLACE, r->dw, n, MPI_DOUBLE, MPI_SUM, g->comm, req));
    }
    g_pend[k].used = 1, g_pend[k].early = 0;
    g_pend[k].t_post = gale_wtime();
    const gale_emulate_t *e = gale_emulate();
    if (e) { /* this call advances the sums already in flight, then this one starts */
        gale_emulate_in_mpi(g_pend[k].t_post, g_pend[k].t_post);
        gale_netop_start(&g_pend[k].op, &e->m, (double)n * (g->reproducible ? NW * 8 : 8),
                         e->nodes, e->ranks_per_node, e->async, g_pend[k].t_post);
        gale_emulate_track(&g_pend[k].op, 1);
    }
    g_npend++;
    r->slot = k;
    g->count++;
    g->seconds += gale_wtime() - t0;
    gale_timer_add(GALE_T_GLOBAL_SUM, gale_wtime() - t0);
    return GALE_OK;
}

int gale_psy_sum_finish(gale_gsum_t *g, gale_psy_sum_t *r, double *out)
{
    double t0 = gale_wtime();
    GALE_ASSERT(r->slot >= 0 && r->slot < NPEND && g_pend[r->slot].used);
    GALE_MPI(gale_mpi_wait(&g_pend[r->slot].req));
    /* on an emulated machine its remaining steps, polled without pause from
     * the moment the wait entered MPI */
    const gale_emulate_t *e = gale_emulate();
    gale_comm_stats_t *cs = gale_comm_stats();
    if (e) {
        gale_emulate_track(&g_pend[r->slot].op, 0);
        const double until = gale_netop_done_at(&g_pend[r->slot].op, t0);
        const double from = r->blocking ? g_pend[r->slot].t_post : t0;
        cs->sum_imposed_s += until > from ? until - from : 0;
        gale_emulate_until(until);
        gale_emulate_in_mpi(t0, gale_wtime()); /* the others advanced meanwhile */
    }
    const double t1 = gale_wtime();
    cs->sums++;
    cs->sum_wait_s += t1 - (r->blocking ? g_pend[r->slot].t_post : t0);
    cs->sum_model_s += e ? g_pend[r->slot].op.model_s : 0;
    cs->sums_early += g_pend[r->slot].early;
    g_pend[r->slot].used = 0;
    g_npend--;
    r->blocking = 0;
    g->seconds += t1 - t0;
    gale_timer_add(GALE_T_GLOBAL_SUM, t1 - t0);
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

int gale_psy_sum(gale_gsum_t *g, gale_psy_sum_t *s, double *out)
{
    s->blocking = 1;
    GALE_CALL(gale_psy_sum_start(g, s));
    GALE_CALL(gale_psy_sum_finish(g, s, out));
    return GALE_OK;
}

/* A blocking allreduce of `bytes` posted at t0 is done: on an emulated
 * machine, no earlier than it would be there. */
static void reduction_done(double t0, double bytes)
{
    const gale_emulate_t *e = gale_emulate();
    if (e) {
        gale_emulate_until(t0 + gale_netmodel_allreduce_s(&e->m, bytes, e->nodes,
                                                          e->ranks_per_node));
        gale_emulate_in_mpi(t0, gale_wtime());
    }
    gale_comm_stats_t *cs = gale_comm_stats();
    cs->reductions++;
    cs->reduction_wait_s += gale_wtime() - t0;
}

int gale_psy_max(gale_psy_t *p, int n, double *v)
{
    const double t0 = gale_wtime();
    GALE_MPI(gale_mpi_allreduce(v, n, MPI_DOUBLE, MPI_MAX, gale_psy_comm(p)));
    reduction_done(t0, n * 8.0);
    return GALE_OK;
}

int gale_psy_range(gale_psy_t *p, const gale_field_t *f, double *mn, double *mx)
{
    gale_kred_t r = {.min = INFINITY, .max = -INFINITY}; /* reduced where f lives: no copy */
    GALE_CALL(gale_psy_minmax(p, 1, &(gale_psy_minmax_t){f}, &r));
    double v[2] = {-r.min, r.max};
    GALE_CALL(gale_psy_max(p, 2, v));
    *mn = -v[0];
    *mx = v[1];
    return GALE_OK;
}

int gale_psy_check_finite(gale_psy_t *p, int n, const gale_field_t *const *f, double *maxabs,
                          int64_t *bad_gid, int *bad_lev)
{
    const gale_local_t *lm = gale_psy_local_mesh(p);
    int64_t key[2 * GALE_GSUM_MAX];
    GALE_ASSERT(n <= GALE_GSUM_MAX);
    for (int i = 0; i < n; i++) {
        const int edge = f[i]->loc == GALE_LOC_EDGE, nl1 = f[i]->nlev + 1;
        /* on the device copy: no field moves to the host */
        gale_kred_t r = {.max = 0, .bad_col = -1, .bad_lev = -1};
        GALE_CALL(gale_psy_checks(p, 1, &(gale_psy_checks_t){f[i]}, &r));
        const int bc = r.bad_col, bl = r.bad_lev;
        /* the first bad entry in global order: least gid, then level */
        key[i] = bc < 0 ? INT64_MAX : (edge ? lm->edge_gid[bc] : lm->cell_gid[bc]) * nl1 + bl;
        /* non-negative doubles order like their bit patterns: MIN of -bits is MAX */
        double x = isfinite(r.max) ? r.max : 0;
        int64_t bits;
        memcpy(&bits, &x, sizeof bits);
        key[n + i] = -bits;
    }
    const double t0 = gale_wtime();
    GALE_MPI(gale_mpi_allreduce(key, 2 * n, MPI_INT64_T, MPI_MIN, gale_psy_comm(p)));
    reduction_done(t0, 2 * n * 8.0);
    for (int i = 0; i < n; i++) {
        const int nl1 = f[i]->nlev + 1;
        bad_gid[i] = key[i] == INT64_MAX ? -1 : key[i] / nl1;
        bad_lev[i] = key[i] == INT64_MAX ? -1 : (int)(key[i] % nl1);
        int64_t bits = -key[n + i];
        memcpy(&maxabs[i], &bits, sizeof bits);
        if (bad_gid[i] >= 0) maxabs[i] = NAN;
    }
    return GALE_OK;
}

int gale_psy_gather_cells(gale_psy_t *p, gale_field_t *f, double *all, size_t total)
{
    const gale_local_t *lm = gale_psy_local_mesh(p);
    GALE_ASSERT(f->loc != GALE_LOC_EDGE && f->elem == 8);
    GALE_CALL(gale_k_field_to_host(f));
    const double *x = gale_fd(f);
    const int nl = f->nlev;
    for (int c = 0; c < lm->ncell[0]; c++)
        for (int k = 0; k < nl; k++) all[(size_t)lm->cell_gid[c] * nl + k] = x[(size_t)c * f->stride + k];
    GALE_MPI(gale_mpi_allreduce(all, (int)total, MPI_DOUBLE, MPI_SUM, gale_psy_comm(p)));
    return GALE_OK;
}
