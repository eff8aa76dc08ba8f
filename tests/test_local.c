/* Local numbering and halo exchange lists (issue 2), checked rank by rank
 * against a brute-force reference, and the exchange lists of every pair of
 * ranks against each other. */
#include "gale_base.h"
#include "gale_partition.h"
#include "gale_test.h"

#include <stdlib.h>
#include <string.h>

#define FAR 99
#define NDC (GALE_MAX_DEPTH + 1)

/* Depth of every cell in rank r's view, layer by layer over all cells. */
static void reference_depth(const gale_cs_t *cs, const gale_partition_t *part, int r, int D,
                            int *dist)
{
    for (gale_gid_t c = 0; c < cs->ncells; c++) dist[c] = part->owner[c] == r ? 0 : FAR;
    for (int d = 1; d <= D; d++)
        for (gale_gid_t c = 0; c < cs->ncells; c++) {
            if (dist[c] != d - 1) continue;
            gale_gid_t nb[8];
            int k = gale_cs_cell_vnbrs(cs, c, nb);
            for (int t = 0; t < k; t++)
                if (dist[nb[t]] == FAR) dist[nb[t]] = d;
        }
}

static int edge_depth(const gale_cs_t *cs, const int *dist, gale_gid_t e)
{
    gale_gid_t c[2];
    gale_cs_edge_cells(cs, e, c);
    return dist[c[0]] < dist[c[1]] ? dist[c[0]] : dist[c[1]];
}

/* One rank's numbering, connectivity and receive lists on its own. */
static void check_rank(const gale_cs_t *cs, const gale_partition_t *part, const gale_local_t *lm,
                       int *dist, int *cl, int *el)
{
    int r = lm->rank, D = lm->depth, n = cs->n;
    const int *own = part->owner;
    reference_depth(cs, part, r, D, dist);
    for (gale_gid_t c = 0; c < cs->ncells; c++) cl[c] = -1;
    for (gale_gid_t e = 0; e < cs->nedges; e++) el[e] = -1;

    /* cell ranges: prefix-consistent, each class exactly the reference layer, gid order */
    int nd[NDC] = {0};
    for (gale_gid_t c = 0; c < cs->ncells; c++)
        if (dist[c] <= D) nd[dist[c]]++;
    for (int d = 0, sum = 0; d < NDC; d++) {
        if (d <= D) sum += nd[d];
        CHECK(lm->ncell[d] == sum, "C%d rank %d D=%d: ncell[%d] = %d, expected %d", n, r, D, d,
              lm->ncell[d], sum);
    }
    int nloc = lm->ncell[D];
    for (int i = 0; i < nloc; i++) {
        gale_gid_t c = lm->cell_gid[i];
        int d = 0;
        while (d < D && i >= lm->ncell[d]) d++;
        CHECK(dist[c] == d, "C%d rank %d: local cell %d (gid %lld) at depth %d, reference %d", n,
              r, i, (long long)c, d, dist[c]);
        cl[c] = i;
        int newclass = i == 0 || i == lm->ncell_inner || (d > 0 && i == lm->ncell[d - 1]);
        CHECK(newclass || lm->cell_gid[i - 1] < c, "C%d rank %d: cells %d, %d out of gid order",
              n, r, i - 1, i);
    }
    /* inner: no vertex neighbour outside the owned set; boundary: at least one */
    for (int i = 0; i < lm->ncell[0]; i++) {
        gale_gid_t nb[8];
        int k = gale_cs_cell_vnbrs(cs, lm->cell_gid[i], nb), out = 0;
        for (int t = 0; t < k; t++) {
            CHECK(cl[nb[t]] >= 0 && dist[nb[t]] <= 1, "C%d rank %d: vertex neighbour of owned "
                  "cell %d not local at depth <= 1", n, r, i);
            out += dist[nb[t]] != 0;
        }
        CHECK((i < lm->ncell_inner) == (out == 0), "C%d rank %d: cell %d inner=%d with %d halo "
              "neighbours", n, r, i, i < lm->ncell_inner, out);
    }
    /* connectivity in local indices */
    for (int i = 0; i < nloc; i++) {
        gale_gid_t e[4];
        gale_cs_cell_edges(cs, lm->cell_gid[i], e);
        for (int s = 0; s < 4; s++) {
            gale_gid_t y = gale_cs_cell_nbr(cs, lm->cell_gid[i], s);
            CHECK(lm->cell_nbr[4 * i + s] == cl[y], "C%d rank %d: cell_nbr[%d][%d]", n, r, i, s);
            int k = lm->cell_edge[4 * i + s];
            CHECK(k >= 0 && k < lm->nedge[D] && lm->edge_gid[k] == e[s],
                  "C%d rank %d: cell_edge[%d][%d]", n, r, i, s);
        }
    }
    /* edges: classes, order, counts, cells */
    int ne = lm->nedge[D], prevcls = -1;
    gale_gid_t preve = -1;
    for (int k = 0; k < ne; k++) {
        gale_gid_t e = lm->edge_gid[k], c[2];
        gale_cs_edge_cells(cs, e, c);
        CHECK(el[e] < 0, "C%d rank %d: edge gid %lld listed twice", n, r, (long long)e);
        el[e] = k;
        int d = edge_depth(cs, dist, e), want = d > 0 ? d + 1 : own[c[0]] == r ? 0 : 1;
        int cls = k < lm->nedge_owned ? 0 : 1;
        if (k >= lm->nedge[0])
            for (cls = 2; k >= lm->nedge[cls - 1]; cls++) {}
        CHECK(cls == want, "C%d rank %d: edge %d (gid %lld) in class %d, expected %d", n, r, k,
              (long long)e, cls, want);
        CHECK(cls != prevcls || preve < e, "C%d rank %d: edges %d, %d out of gid order", n, r,
              k - 1, k);
        prevcls = cls;
        preve = e;
        for (int a = 0; a < 2; a++)
            CHECK(lm->edge_cell[2 * k + a] == cl[c[a]], "C%d rank %d: edge_cell[%d][%d]", n, r, k, a);
    }
    for (int d = 0; d < NDC; d++) { /* nedge[d]: the edges of the cells in ncell[d] */
        int want = 0;
        for (gale_gid_t e = 0; e < cs->nedges; e++) want += edge_depth(cs, dist, e) <= (d < D ? d : D);
        CHECK(lm->nedge[d] == want, "C%d rank %d D=%d: nedge[%d] = %d, expected %d", n, r, D, d,
              lm->nedge[d], want);
    }

    /* neighbours increasing; receive lists from the right owner, and each
     * halo cell (edge) to depth d exactly once within count[..d] */
    for (int q = 1; q < lm->nnbr; q++)
        CHECK(lm->nbr_rank[q - 1] < lm->nbr_rank[q], "C%d rank %d: nbr_rank not increasing", n, r);
    for (int pass = 0; pass < 2; pass++) {
        const gale_xlist_t *x = pass ? &lm->recv_edge : &lm->recv_cell;
        int lo = pass ? lm->nedge_owned : lm->ncell[0];
        const int *hi = pass ? lm->nedge : lm->ncell;
        int *hits = calloc((size_t)hi[D] + 1, sizeof *hits);
        for (int d = pass ? 0 : 1; d <= D; d++) {
            memset(hits, 0, ((size_t)hi[D] + 1) * sizeof *hits);
            for (int q = 0; q < lm->nnbr; q++) {
                int m = x->count[q * NDC + d];
                CHECK(m <= x->start[q + 1] - x->start[q], "count beyond list");
                for (int a = x->start[q]; a < x->start[q] + m; a++) {
                    int idx = x->idx[a], o;
                    if (pass) {
                        gale_gid_t c[2];
                        gale_cs_edge_cells(cs, lm->edge_gid[idx], c);
                        o = own[c[0]];
                    } else {
                        o = own[lm->cell_gid[idx]];
                    }
                    CHECK(o == lm->nbr_rank[q], "C%d rank %d: receives from %d what %d owns", n,
                          r, lm->nbr_rank[q], o);
                    if (idx >= 0 && idx < hi[D]) hits[idx]++;
                }
            }
            for (int i = lo; i < hi[D]; i++)
                CHECK(hits[i] == (i < hi[d]), "C%d rank %d D=%d: %s %d received %d times at depth %d",
                      n, r, D, pass ? "edge" : "cell", i, hits[i], d);
            for (int i = 0; i < lo; i++) CHECK(hits[i] == 0, "C%d rank %d: receives an owned entity", n, r);
        }
        if (!pass)
            for (int q = 0; q < lm->nnbr; q++)
                CHECK(x->count[q * NDC] == 0, "C%d rank %d: cell count at depth 0", n, r);
        free(hits);
    }
}

static int nbr_index(const gale_local_t *lm, int q)
{
    for (int a = 0; a < lm->nnbr; a++)
        if (lm->nbr_rank[a] == q) return a;
    return -1;
}

/* Sender q's list to r and r's list from q: same gids, same order, same counts. */
static void check_pair(const gale_local_t *lq, const gale_local_t *lr, int cells)
{
    int q = lq->rank, r = lr->rank, aq = nbr_index(lq, r), ar = nbr_index(lr, q);
    const gale_xlist_t *s = cells ? &lq->send_cell : &lq->send_edge;
    const gale_xlist_t *v = cells ? &lr->recv_cell : &lr->recv_edge;
    int ns = aq < 0 ? 0 : s->start[aq + 1] - s->start[aq];
    int nv = ar < 0 ? 0 : v->start[ar + 1] - v->start[ar];
    CHECK(ns == nv, "%s %d -> %d: sends %d, receives %d", cells ? "cells" : "edges", q, r, ns, nv);
    if (ns != nv || ns == 0) return;
    int owned = cells ? lq->ncell[0] : lq->nedge_owned;
    for (int a = 0; a < ns; a++) {
        int is = s->idx[s->start[aq] + a], iv = v->idx[v->start[ar] + a];
        CHECK(is >= 0 && is < owned, "%d sends a non-owned entity to %d", q, r);
        gale_gid_t gs = cells ? lq->cell_gid[is] : lq->edge_gid[is];
        gale_gid_t gv = cells ? lr->cell_gid[iv] : lr->edge_gid[iv];
        CHECK(gs == gv, "%s %d -> %d entry %d: sends gid %lld, receiver expects %lld",
              cells ? "cells" : "edges", q, r, a, (long long)gs, (long long)gv);
    }
    for (int d = 0; d < NDC; d++)
        CHECK(s->count[aq * NDC + d] == v->count[ar * NDC + d], "%d -> %d: count[%d] differs", q,
              r, d);
}

static void check_partition(int n, int P, int method)
{
    gale_cs_t cs;
    gale_partition_t part;
    CHECK_OK(gale_cs_init(&cs, n, 1.0));
    CHECK_OK(gale_partition_build(&cs, P, method, &part));
    int *dist = malloc((size_t)cs.ncells * sizeof *dist);
    int *cl = malloc((size_t)cs.ncells * sizeof *cl), *el = malloc((size_t)cs.nedges * sizeof *el);
    gale_local_t *lm = calloc((size_t)P, sizeof *lm);
    for (int D = 1; D <= GALE_MAX_DEPTH; D++) {
        long owned_edges = 0;
        for (int r = 0; r < P; r++) {
            CHECK_OK(gale_local_build(&cs, &part, r, D, &lm[r]));
            check_rank(&cs, &part, &lm[r], dist, cl, el);
            owned_edges += lm[r].nedge_owned;
        }
        CHECK(owned_edges == cs.nedges, "C%d P=%d D=%d: %ld owned edges, mesh has %lld", n, P, D,
              owned_edges, (long long)cs.nedges);
        /* neighbours: exactly the ranks something moves to or from */
        for (int r = 0; r < P; r++)
            for (int q = 0; q < P; q++) {
                if (q == r) continue;
                int a = nbr_index(&lm[r], q), moves = 0;
                if (a >= 0) {
                    moves = lm[r].recv_cell.start[a + 1] > lm[r].recv_cell.start[a] ||
                            lm[r].recv_edge.start[a + 1] > lm[r].recv_edge.start[a] ||
                            lm[r].send_cell.start[a + 1] > lm[r].send_cell.start[a] ||
                            lm[r].send_edge.start[a + 1] > lm[r].send_edge.start[a];
                    CHECK(moves, "C%d P=%d: rank %d lists %d as neighbour with nothing to move",
                          n, P, r, q);
                }
                check_pair(&lm[q], &lm[r], 1);
                check_pair(&lm[q], &lm[r], 0);
            }
        for (int r = 0; r < P; r++) gale_local_free(&lm[r]);
    }
    free(lm);
    free(dist);
    free(cl);
    free(el);
    gale_partition_free(&part);
}

int main(void)
{
    const int ns[] = {4, 5, 8, 12}, Ps[] = {1, 2, 3, 4, 6, 7};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof Ps / sizeof *Ps; b++) check_partition(ns[a], Ps[b], GALE_PART_SFC);
    check_partition(4, 6, GALE_PART_PANEL);
    check_partition(8, 24, GALE_PART_PANEL);
    check_partition(2, 24, GALE_PART_SFC); /* one cell per rank: halos cross several ranks */

    gale_cs_t cs;
    gale_partition_t part;
    gale_local_t lm;
    CHECK_OK(gale_cs_init(&cs, 4, 1.0));
    CHECK_OK(gale_partition_build(&cs, 3, GALE_PART_SFC, &part));
    fprintf(stderr, "(the error messages below are expected)\n");
    CHECK(gale_local_build(&cs, &part, 0, 0, &lm) == GALE_ERR_INPUT, "depth 0 accepted");
    CHECK(gale_local_build(&cs, &part, 0, GALE_MAX_DEPTH + 1, &lm) == GALE_ERR_INPUT, "depth 4");
    CHECK(gale_local_build(&cs, &part, 3, 1, &lm) == GALE_ERR_INPUT, "rank 3 of 3 accepted");
    gale_partition_free(&part);
    return gale_test_result("test_local");
}
