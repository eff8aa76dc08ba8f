/* The multigrid mesh chain: gale_chain.h. */
#include "gale_chain.h"

#include "gale_base.h"

#include <stdlib.h>
#include <string.h>

int gale_chain_levels(int n, int want)
{
    int l = 1;
    while (l < want && l < GALE_CHAIN_MAX && n % (1 << l) == 0) l++;
    return l;
}

int gale_chain_build(gale_chain_t *ch, const gale_cs_t *fine, int levels, int nranks, int method)
{
    memset(ch, 0, sizeof *ch);
    if (levels < 1 || levels > GALE_CHAIN_MAX || fine->n % (1 << (levels - 1)) != 0)
        GALE_ERROR(GALE_ERR_INPUT, "a chain of %d levels from C%d: C%d is not divisible by 2^%d",
                   levels, fine->n, fine->n, levels - 1);
    ch->cs[0] = *fine;
    for (int l = 1; l < levels; l++)
        GALE_CALL(gale_cs_init(&ch->cs[l], fine->n >> l, fine->radius));
    const gale_cs_t *top = &ch->cs[levels - 1];
    if (nranks > top->ncells)
        GALE_ERROR(GALE_ERR_INPUT,
                   "multigrid with %d levels on C%d: the coarsest level C%d has %lld cells, fewer "
                   "than the %d ranks (every rank needs a coarsest cell, whose children it owns); "
                   "use at most %lld ranks or fewer [multigrid] levels",
                   levels, fine->n, top->n, (long long)top->ncells, nranks,
                   (long long)top->ncells);
    ch->levels = levels;
    int err = gale_partition_build(top, nranks, method, &ch->part[levels - 1]);
    for (int l = levels - 2; l >= 0 && !err; l--) {
        gale_partition_t *p = &ch->part[l];
        const gale_partition_t *q = &ch->part[l + 1];
        *p = *q;
        p->owner = NULL;
        err = gale_alloc_impl((void **)&p->owner, (size_t)ch->cs[l].ncells * sizeof *p->owner,
                              "owner", __FILE__, __LINE__, __func__);
        for (gale_gid_t c = 0; c < ch->cs[l].ncells && !err; c++) {
            int pn, i, j;
            gale_cs_cell_pij(&ch->cs[l], c, &pn, &i, &j);
            p->owner[c] = q->owner[gale_cs_cell(&ch->cs[l + 1], pn, i / 2, j / 2)];
        }
    }
    if (err) {
        gale_chain_free(ch);
        return gale_error_trace(err, __FILE__, __LINE__, __func__);
    }
    return GALE_OK;
}

void gale_chain_free(gale_chain_t *ch)
{
    for (int l = 0; l < GALE_CHAIN_MAX; l++) gale_partition_free(&ch->part[l]);
    memset(ch, 0, sizeof *ch);
}

typedef struct { gale_gid_t gid; int idx; } gi_t;

static int cmp_gi(const void *a, const void *b)
{
    gale_gid_t x = ((const gi_t *)a)->gid, y = ((const gi_t *)b)->gid;
    return (x > y) - (x < y);
}

int gale_chain_children(const gale_cs_t *fine_cs, const gale_local_t *fine,
                        const gale_cs_t *coarse_cs, const gale_local_t *coarse, int *child)
{
    const int nf = fine->ncell[0], nc = coarse->ncell[0];
    gi_t *own = NULL;
    GALE_ALLOC(own, nf > 0 ? nf : 1);
    for (int c = 0; c < nf; c++) own[c] = (gi_t){fine->cell_gid[c], c};
    qsort(own, (size_t)nf, sizeof *own, cmp_gi);
    int err = GALE_OK;
    for (int c = 0; c < nc && !err; c++) {
        int p, i, j;
        gale_cs_cell_pij(coarse_cs, coarse->cell_gid[c], &p, &i, &j);
        for (int q = 0; q < 4; q++) {
            gi_t key = {gale_cs_cell(fine_cs, p, 2 * i + (q & 1), 2 * j + (q >> 1)), 0};
            const gi_t *f = bsearch(&key, own, (size_t)nf, sizeof *own, cmp_gi);
            if (!f) {
                err = GALE_ERR_INTERNAL;
                break;
            }
            child[4 * c + q] = f->idx;
        }
    }
    GALE_FREE(own);
    if (err)
        GALE_ERROR(err, "rank %d: a child of an owned C%d cell is not owned on C%d (the "
                   "partitions do not nest)", coarse->rank, coarse_cs->n, fine_cs->n);
    return GALE_OK;
}

int gale_geom_build(const gale_cs_t *cs, const gale_local_t *lm, int ncell_alloc, gale_geom_t *g)
{
    memset(g, 0, sizeof *g);
    const int nc = lm->ncell[lm->depth], ne = lm->nedge[lm->depth];
    GALE_ALLOC(g->area, ncell_alloc);
    GALE_ALLOC(g->cell_sign, 4 * (size_t)nc);
    GALE_ALLOC(g->elen, ne);
    GALE_ALLOC(g->erdist, ne);
    GALE_ALLOC(g->eweight, ne);
    GALE_ALLOC(g->mfd, 16 * (size_t)nc);
    GALE_ALLOC(g->edge_side, 2 * (size_t)ne);
    for (int c = 0; c < nc; c++) {
        gale_gid_t gid = lm->cell_gid[c];
        g->area[c] = gale_cs_cell_area(cs, gid);
        for (int s = 0; s < 4; s++) {
            gale_gid_t ec[2];
            gale_cs_edge_cells(cs, lm->edge_gid[lm->cell_edge[4 * c + s]], ec);
            g->cell_sign[4 * c + s] = ec[0] == gid ? 1.0 : -1.0;
        }
        double mc[16];
        gale_cs_cell_mfd(cs, gid, mc);
        const double *sg = g->cell_sign + 4 * c;
        for (int i = 0; i < 16; i++) g->mfd[16 * (size_t)c + i] = sg[i / 4] * sg[i % 4] * mc[i];
    }
    for (int e = 0; e < ne; e++) {
        for (int j = 0; j < 2; j++) {
            const int c = lm->edge_cell[2 * e + j];
            for (int s = 0; c >= 0 && s < 4; s++)
                if (lm->cell_edge[4 * c + s] == e) g->edge_side[2 * e + j] = s;
        }
        gale_edge_geom_t eg;
        gale_cs_edge_geom(cs, lm->edge_gid[e], &eg);
        g->elen[e] = eg.length;
        g->erdist[e] = 1.0 / eg.dist;
        g->eweight[e] = eg.length * eg.dist;
    }
    return GALE_OK;
}

void gale_geom_free(gale_geom_t *g)
{
    GALE_FREE(g->area);
    GALE_FREE(g->cell_sign);
    GALE_FREE(g->elen);
    GALE_FREE(g->erdist);
    GALE_FREE(g->eweight);
    GALE_FREE(g->mfd);
    GALE_FREE(g->edge_side);
}
