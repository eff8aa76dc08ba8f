/* Global reductions (gale_psy.h). Sums: one MPI_Allreduce (or
 * MPI_Iallreduce) per call, however many values; reproducible mode reduces
 * the fixed-point words as int64 (exact, associative, so bit-identical for
 * any rank and thread count), plain mode reduces doubles. Counted and timed
 * as "global_sums". */
#include "gale_psy.h"

#include "gale_base.h"

#include <math.h>
#include <string.h>

#define NW (GALE_RSUM_WORDS + 1) /* digits + bad count */

void gale_gsum_init(gale_gsum_t *g, const gale_psy_t *p, int reproducible)
{
    g->psy = p;
    g->comm = gale_psy_comm(p);
    g->reproducible = reproducible;
    g->count = 0;
    g->seconds = 0;
}

void gale_psy_sum_init(gale_psy_sum_t *s) { s->n = 0; }

void gale_psy_sum_dot(gale_psy_sum_t *s, const gale_field_t *x, const gale_field_t *y,
                      const double *wc, const double *wl)
{
    /* more than GALE_GSUM_MAX values is a bug in gale: gale_psy_sum_start says so */
    if (s->n >= GALE_GSUM_MAX) {
        s->n++;
        return;
    }
    s->dot[s->n].x = x, s->dot[s->n].y = y, s->dot[s->n].wc = wc, s->dot[s->n].wl = wl;
    gale_rsum_zero(&s->acc[s->n++]);
}

gale_rsum_t *gale_psy_sum_term(gale_psy_sum_t *s)
{
    static gale_rsum_t spill; /* past GALE_GSUM_MAX: caught by gale_psy_sum_start */
    if (s->n >= GALE_GSUM_MAX) {
        s->n++;
        return &spill;
    }
    s->dot[s->n].x = NULL;
    gale_rsum_zero(&s->acc[s->n]);
    return &s->acc[s->n++];
}

/* The local parts: consecutive dots of one shape in one launch. */
static void local_dots(const gale_gsum_t *g, gale_psy_sum_t *s)
{
    for (int j = 0; j < s->n;) {
        const gale_field_t *x = s->dot[j].x;
        if (!x) {
            j++;
            continue;
        }
        int m = 1;
        while (j + m < s->n && s->dot[j + m].x && gale_field_same_shape(s->dot[j + m].x, x)) m++;
        gale_dotpair_t pr[GALE_GSUM_MAX];
        for (int i = 0; i < m; i++)
            pr[i] = (gale_dotpair_t){s->dot[j + i].x->data, s->dot[j + i].y->data, s->dot[j + i].wc,
                                     s->dot[j + i].wl};
        /* owned entities: an edge is owned by the owner of its first cell */
        gale_k_dots(x->elem == 8 ? GALE_F64 : GALE_F32, 0, gale_psy_owned(g->psy, x->loc), x->stride,
                    0, x->nlev, m, pr, g->reproducible, &s->acc[j]);
        j += m;
    }
}
int gale_psy_sum_start(gale_gsum_t *g, gale_psy_sum_t *r)
{
    const int n = r->n;
    const gale_rsum_t *acc = r->acc;
    GALE_ASSERT(n >= 1 && n <= GALE_GSUM_MAX);
    local_dots(g, r);
    double t0 = gale_wtime();
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
    g->seconds += gale_wtime() - t0;
    gale_timer_add(GALE_T_GLOBAL_SUM, gale_wtime() - t0);
    return GALE_OK;
}

int gale_psy_sum_finish(gale_gsum_t *g, gale_psy_sum_t *r, double *out)
{
    double t0 = gale_wtime();
    GALE_MPI(MPI_Wait(&r->req, MPI_STATUS_IGNORE));
    g->seconds += gale_wtime() - t0;
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

int gale_psy_sum(gale_gsum_t *g, gale_psy_sum_t *s, double *out)
{
    GALE_CALL(gale_psy_sum_start(g, s));
    GALE_CALL(gale_psy_sum_finish(g, s, out));
    return GALE_OK;
}

int gale_psy_max(gale_psy_t *p, int n, double *v)
{
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, gale_psy_comm(p)));
    return GALE_OK;
}

int gale_psy_minmax(gale_psy_t *p, const gale_field_t *f, double *mn, double *mx)
{
    double lo, hi; /* reduced where f lives: no field copy */
    gale_k_tr_minmax(0, gale_psy_owned(p, f->loc), f->nlev, f->stride, gale_fd(f), &lo, &hi);
    double v[2] = {-lo, hi};
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
        int bc, bl;
        /* on the device copy: no field moves to the host */
        double mx = gale_k_maxabs(0, gale_psy_owned(p, f[i]->loc), f[i]->stride, 0, f[i]->nlev,
                                  gale_fd(f[i]), &bc, &bl);
        /* the first bad entry in global order: least gid, then level */
        key[i] = bc < 0 ? INT64_MAX : (edge ? lm->edge_gid[bc] : lm->cell_gid[bc]) * nl1 + bl;
        /* non-negative doubles order like their bit patterns: MIN of -bits is MAX */
        double x = isfinite(mx) ? mx : 0;
        int64_t bits;
        memcpy(&bits, &x, sizeof bits);
        key[n + i] = -bits;
    }
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, key, 2 * n, MPI_INT64_T, MPI_MIN, gale_psy_comm(p)));
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
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, all, (int)total, MPI_DOUBLE, MPI_SUM, gale_psy_comm(p)));
    return GALE_OK;
}
