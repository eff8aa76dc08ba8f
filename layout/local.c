/* One rank's local mesh (numbering, connectivity, halo exchange lists) and
 * the partition statistics of `gale partition`. See gale_partition.h.
 *
 * Both rest on one breadth-first search over vertex neighbours, started from
 * a set of cells and stopped at a given depth. A search marks the cells it
 * reaches in an int array over all cells, stamped with a generation number so
 * that the array is cleared once, not once per search: each search then costs
 * only the size of what it reaches. Cell gids fit in int (gale_cs_init caps N
 * at 8192, 6 N^2 < 2^31). */
#include "gale_partition.h"

#include "gale_base.h"

#include <stdlib.h>
#include <string.h>

#define FAR 7 /* depth of a cell the current search has not reached */
#define NDC (GALE_MAX_DEPTH + 1)

/* Grows the array *p (elements of elem bytes, capacity *cap) to hold need. */
static int grow(void *p, int *cap, int need, size_t elem)
{
    if (need <= *cap) return GALE_OK;
    int nc = *cap ? *cap : 256;
    while (nc < need) nc *= 2;
    void *q, **pp = (void **)p;
    GALE_CALL(gale_alloc_impl(&q, (size_t)nc * elem, "array", __FILE__, __LINE__, __func__));
    if (*cap) memcpy(q, *pp, (size_t)*cap * elem);
    gale_free(*pp);
    *pp = q;
    *cap = nc;
    return GALE_OK;
}

/* ---- the search ---- */

typedef struct {
    int *tag;                    /* [ncells] gen << 3 | depth for the cells reached */
    int gen;
    int ncells;
    int *q, n, cap;              /* cells reached, layer by layer */
    int lay[GALE_MAX_DEPTH + 3]; /* layer d is q[lay[d] .. lay[d+1]) */
} bfs_t;

static int bfs_init(bfs_t *b, int ncells)
{
    memset(b, 0, sizeof *b);
    b->ncells = ncells;
    GALE_ALLOC(b->tag, ncells); /* zero: generation 0 is never used */
    return GALE_OK;
}

static void bfs_free(bfs_t *b)
{
    GALE_FREE(b->tag);
    GALE_FREE(b->q);
}

static void bfs_start(bfs_t *b)
{
    /* gen << 3 must stay an int: wrap around (rarely) by clearing the stamps */
    if (++b->gen >= (1 << 27)) {
        memset(b->tag, 0, (size_t)b->ncells * sizeof *b->tag);
        b->gen = 1;
    }
    b->n = 0;
}

static inline int bfs_depth(const bfs_t *b, int c)
{
    return (b->tag[c] >> 3) == b->gen ? (b->tag[c] & 7) : FAR;
}

static int bfs_add(bfs_t *b, int c, int d)
{
    GALE_CALL(grow(&b->q, &b->cap, b->n + 1, sizeof *b->q));
    b->tag[c] = b->gen << 3 | d;
    b->q[b->n++] = c;
    return GALE_OK;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Extends the seeds (depth 0, added with bfs_add) to everything within maxd
 * vertex steps; with sort, each layer is put in gid order. */
static int bfs_grow(const gale_cs_t *cs, bfs_t *b, int maxd, int sort)
{
    b->lay[0] = 0;
    b->lay[1] = b->n;
    for (int d = 1; d <= maxd; d++) {
        for (int x = b->lay[d - 1]; x < b->lay[d]; x++) {
            gale_gid_t nb[8];
            int k = gale_cs_cell_vnbrs(cs, b->q[x], nb);
            for (int t = 0; t < k; t++)
                if (bfs_depth(b, (int)nb[t]) == FAR) GALE_CALL(bfs_add(b, (int)nb[t], d));
        }
        b->lay[d + 1] = b->n;
        if (sort) qsort(b->q + b->lay[d], (size_t)(b->lay[d + 1] - b->lay[d]), sizeof *b->q, cmp_int);
    }
    return GALE_OK;
}

/* ---- local mesh ---- */

typedef struct {
    int64_t key; /* depth or class, then gid: the order of a list */
    int val;
} kv_t;

/* An exchange list being assembled: per candidate neighbour a segment of
 * (depth, local index) pairs already in list order. */
typedef struct {
    struct { int dep, idx; } *e;
    int n, cap;
    int *seg; /* [ncand + 1] */
} tlist_t;

static int tlist_add(tlist_t *t, int dep, int idx)
{
    GALE_CALL(grow(&t->e, &t->cap, t->n + 1, sizeof *t->e));
    t->e[t->n].dep = dep;
    t->e[t->n++].idx = idx;
    return GALE_OK;
}

static void tlist_free(tlist_t *t)
{
    GALE_FREE(t->e);
    GALE_FREE(t->seg);
}

/* Copies the segments of the kept candidates into x, with the cumulative
 * counts per depth (entries beyond the largest depth repeat the total). */
static int xlist_fill(gale_xlist_t *x, const tlist_t *t, const int *keep, int ncand, int nnbr)
{
    int total = 0;
    for (int j = 0; j < ncand; j++)
        if (keep[j]) total += t->seg[j + 1] - t->seg[j];
    GALE_ALLOC(x->start, nnbr + 1);
    GALE_ALLOC(x->count, nnbr * NDC);
    GALE_ALLOC(x->idx, total > 0 ? total : 1);
    int q = 0, m = 0;
    for (int j = 0; j < ncand; j++) {
        if (!keep[j]) continue;
        x->start[q] = m;
        for (int a = t->seg[j]; a < t->seg[j + 1]; a++) {
            x->idx[m++] = t->e[a].idx;
            for (int d = t->e[a].dep; d < NDC; d++) x->count[q * NDC + d]++;
        }
        q++;
    }
    x->start[nnbr] = m;
    return GALE_OK;
}

static void xlist_free(gale_xlist_t *x)
{
    GALE_FREE(x->start);
    GALE_FREE(x->count);
    GALE_FREE(x->idx);
}

/* Workspace of one build, freed whatever happens. */
typedef struct {
    bfs_t b;
    int *lidx;          /* [ncells] local index, -1 if not local */
    int *cdep;          /* [ncell] depth of each local cell */
    kv_t *kv, *kvtmp;   /* sort buffer and its radix-sort partner */
    int nkv, capkv, captmp;
    int *eown, *edep;   /* [nedge] owner and depth of each local edge */
    int *cand, ncand;   /* ranks that may send to or receive from this one */
    int *key;           /* scratch: candidate index of each item being bucketed */
    int *src, *srcseg;  /* candidates' cells within D + 1 of mine, by candidate */
    int *rcv, *rcvseg;  /* halo cells, by owner */
    int *rev, *revseg;  /* non-owned local edges, by owner */
    int *keep;          /* [ncand] candidate is a neighbour */
    tlist_t rc, re, sc, se;
} work_t;

static int cand_index(const work_t *w, int rank)
{
    const int *p = bsearch(&rank, w->cand, (size_t)w->ncand, sizeof *w->cand, cmp_int);
    return (int)(p - w->cand);
}

/* Stable counting sort of items 0..n-1 by key[x] in [0, nc): the items of
 * key j land in out[seg[j] .. seg[j+1]) in their original order, so buckets
 * of an already ordered list stay ordered. seg has nc + 2 entries. */
static void bucket(const int *key, int n, int nc, int *seg, int *out)
{
    memset(seg, 0, (size_t)(nc + 2) * sizeof *seg);
    for (int x = 0; x < n; x++) seg[key[x] + 2]++;
    for (int j = 2; j < nc + 2; j++) seg[j] += seg[j - 1];
    for (int x = 0; x < n; x++) out[seg[key[x] + 1]++] = x;
}

/* Owner of the edge between cells a and b: the owner of the smaller gid. */
static inline int edge_owner(const int *own, int a, int b) { return own[a < b ? a : b]; }

static int kv_add(work_t *w, int64_t key, int val)
{
    GALE_CALL(grow(&w->kv, &w->capkv, w->nkv + 1, sizeof *w->kv));
    w->kv[w->nkv].key = key;
    w->kv[w->nkv++].val = val;
    return GALE_OK;
}

/* Stable LSD radix sort of w->kv by key, 11 bits a pass. Keys are small
 * (a depth or class times a gid range, plus a gid), and the sort is linear:
 * a comparison sort of every edge of a big piece dominated the build. */
static int kv_sort(work_t *w, int64_t maxkey)
{
    int n = w->nkv;
    GALE_CALL(grow(&w->kvtmp, &w->captmp, n, sizeof *w->kvtmp));
    for (int shift = 0; (maxkey >> shift) > 0; shift += 11) {
        int cnt[2049] = {0};
        kv_t *a = w->kv, *t = w->kvtmp;
        for (int x = 0; x < n; x++) cnt[((a[x].key >> shift) & 2047) + 1]++;
        for (int j = 1; j < 2049; j++) cnt[j] += cnt[j - 1];
        for (int x = 0; x < n; x++) t[cnt[(a[x].key >> shift) & 2047]++] = a[x];
        w->kv = t, w->kvtmp = a;
        int c = w->capkv;
        w->capkv = w->captmp, w->captmp = c;
    }
    return GALE_OK;
}

static void free_work(work_t *w)
{
    bfs_free(&w->b);
    int **arr[] = {&w->lidx, &w->cdep, &w->eown, &w->edep, &w->cand, &w->key, &w->src,
                   &w->srcseg, &w->rcv, &w->rcvseg, &w->rev, &w->revseg, &w->keep};
    for (size_t a = 0; a < sizeof arr / sizeof *arr; a++) GALE_FREE(*arr[a]);
    GALE_FREE(w->kv);
    GALE_FREE(w->kvtmp);
    tlist_free(&w->rc);
    tlist_free(&w->re);
    tlist_free(&w->sc);
    tlist_free(&w->se);
}

/* Cells in [inner | boundary | halo 1 | ... | halo D] order, their depths and
 * neighbours. Leaves my search (to depth D + 1) in w->b. */
static int number_cells(const gale_cs_t *cs, const gale_partition_t *part, gale_local_t *lm,
                        work_t *w)
{
    const int *own = part->owner;
    int ncg = (int)cs->ncells, D = lm->depth;
    bfs_t *b = &w->b;
    bfs_start(b);
    for (int c = 0; c < ncg; c++)
        if (own[c] == lm->rank) GALE_CALL(bfs_add(b, c, 0));
    /* One layer past the halo: its owners are the only other ranks that can
     * need an edge of mine (through a halo cell of theirs next to my cell). */
    GALE_CALL(bfs_grow(cs, b, D + 1, 1));
    int nown = b->lay[1], nloc = b->lay[D + 1];

    /* boundary cells are the vertex neighbours of halo 1: marked -2 in lidx
     * for now, which costs the halo, not the whole piece */
    for (int x = nown; x < b->lay[2]; x++) {
        gale_gid_t nb[8];
        int k = gale_cs_cell_vnbrs(cs, b->q[x], nb);
        for (int t = 0; t < k; t++)
            if (bfs_depth(b, (int)nb[t]) == 0) w->lidx[nb[t]] = -2;
    }
    GALE_ALLOC(lm->cell_gid, nloc);
    GALE_ALLOC(w->cdep, nloc);
    int ninner = 0;
    for (int x = 0; x < nown; x++) ninner += w->lidx[b->q[x]] != -2;
    for (int x = 0, i = 0, o = ninner; x < nown; x++) /* inner, then boundary, each in gid order */
        lm->cell_gid[w->lidx[b->q[x]] == -2 ? o++ : i++] = b->q[x];
    for (int x = nown; x < nloc; x++) {
        lm->cell_gid[x] = b->q[x];
        w->cdep[x] = bfs_depth(b, b->q[x]);
    }
    lm->ncell_inner = ninner;
    for (int d = 0; d < NDC; d++) lm->ncell[d] = b->lay[(d < D ? d : D) + 1];

    for (int x = 0; x < nloc; x++) w->lidx[lm->cell_gid[x]] = x;
    GALE_ALLOC(lm->cell_nbr, 4 * nloc);
    for (int x = 0; x < nloc; x++)
        for (int s = 0; s < 4; s++)
            lm->cell_nbr[4 * x + s] = w->lidx[gale_cs_cell_nbr(cs, lm->cell_gid[x], s)];
    return GALE_OK;
}

/* Edges in [owned | other depth 0 | depth 1 | ...] classes, gid order within
 * each: every (cell, side) of a local cell is keyed by (class, gid), so one
 * sort both orders the edges and brings each edge's two sides together. */
static int number_edges(const gale_cs_t *cs, const gale_partition_t *part, gale_local_t *lm,
                        work_t *w)
{
    const int *own = part->owner;
    int nloc = lm->ncell[GALE_MAX_DEPTH];
    int64_t neg = cs->nedges;
    w->nkv = 0;
    GALE_CALL(grow(&w->kv, &w->capkv, 4 * nloc, sizeof *w->kv));
    for (int x = 0; x < nloc; x++) {
        gale_gid_t e[4], c = lm->cell_gid[x];
        gale_cs_cell_edges(cs, c, e);
        for (int s = 0; s < 4; s++) {
            int y = lm->cell_nbr[4 * x + s];
            int dy = y >= 0 ? w->cdep[y] : FAR, dm = w->cdep[x] < dy ? w->cdep[x] : dy;
            int cls = dm > 0 ? dm + 1
                             : edge_owner(own, (int)c, (int)gale_cs_cell_nbr(cs, c, s)) == lm->rank ? 0 : 1;
            GALE_CALL(kv_add(w, cls * neg + e[s], 4 * x + s));
        }
    }
    GALE_CALL(kv_sort(w, (GALE_MAX_DEPTH + 2) * neg));
    int ne = 0;
    for (int a = 0; a < w->nkv; a++) ne += a == 0 || w->kv[a].key != w->kv[a - 1].key;
    GALE_ALLOC(lm->edge_gid, ne);
    GALE_ALLOC(lm->edge_cell, 2 * ne);
    GALE_ALLOC(lm->cell_edge, 4 * nloc);
    GALE_ALLOC(w->eown, ne);
    GALE_ALLOC(w->edep, ne);
    int ncls[GALE_MAX_DEPTH + 2] = {0};
    for (int a = 0, k = -1; a < w->nkv; a++) {
        if (a == 0 || w->kv[a].key != w->kv[a - 1].key) {
            int cls = (int)(w->kv[a].key / neg);
            lm->edge_gid[++k] = w->kv[a].key % neg;
            w->edep[k] = cls > 1 ? cls - 1 : 0;
            ncls[cls]++;
        }
        int x = w->kv[a].val / 4, s = w->kv[a].val % 4;
        lm->cell_edge[w->kv[a].val] = k;
        gale_gid_t c = lm->cell_gid[x], y = gale_cs_cell_nbr(cs, c, s);
        int first = c < y ? x : w->lidx[y], second = c < y ? w->lidx[y] : x;
        lm->edge_cell[2 * k] = first;
        lm->edge_cell[2 * k + 1] = second;
        w->eown[k] = edge_owner(own, (int)c, (int)y);
    }
    lm->nedge_owned = ncls[0];
    for (int d = 0, sum = ncls[0]; d < NDC; d++) {
        if (d <= lm->depth) sum += ncls[d + 1];
        lm->nedge[d] = sum;
    }
    return GALE_OK;
}

/* What neighbour q needs from me, in q's order: q's own view of the mesh,
 * searched from q's cells near me. Every q cell within D + 1 of my cells is
 * a seed, and a cell of mine (or next to mine) that q reaches within D is
 * reached along a path through such cells only, so its depth is q's true
 * depth -- with no communication and without q's whole piece. */
static int send_lists(const gale_cs_t *cs, const gale_partition_t *part, gale_local_t *lm,
                      work_t *w, int j)
{
    const int *own = part->owner;
    int me = lm->rank, D = lm->depth, ncg = (int)cs->ncells;
    int64_t neg = cs->nedges;
    bfs_t *b = &w->b;
    bfs_start(b);
    for (int a = w->srcseg[j]; a < w->srcseg[j + 1]; a++) GALE_CALL(bfs_add(b, w->src[a], 0));
    GALE_CALL(bfs_grow(cs, b, D, 0));

    w->nkv = 0;
    for (int x = 0; x < b->n; x++)
        if (own[b->q[x]] == me)
            GALE_CALL(kv_add(w, (int64_t)bfs_depth(b, b->q[x]) * ncg + b->q[x], w->lidx[b->q[x]]));
    GALE_CALL(kv_sort(w, (int64_t)(D + 1) * ncg));
    for (int a = 0; a < w->nkv; a++)
        GALE_CALL(tlist_add(&w->sc, (int)(w->kv[a].key / ncg), w->kv[a].val));
    w->sc.seg[j + 1] = w->sc.n;

    /* My edges q reaches: each edge once, from its shallower cell in q's view. */
    w->nkv = 0;
    for (int x = 0; x < b->n; x++) {
        int v = b->q[x], dv = bfs_depth(b, v);
        for (int s = 0; s < 4; s++) {
            int u = (int)gale_cs_cell_nbr(cs, v, s), du = bfs_depth(b, u);
            if (du < dv || (du == dv && u < v)) continue;
            int first = v < u ? v : u, t = s;
            if (own[first] != me) continue;
            if (first != v) /* the side of u that faces v */
                for (t = 0; gale_cs_cell_nbr(cs, u, t) != v; t++) {}
            int k = lm->cell_edge[4 * w->lidx[first] + t];
            GALE_CALL(kv_add(w, dv * neg + lm->edge_gid[k], k));
        }
    }
    GALE_CALL(kv_sort(w, (D + 1) * neg));
    for (int a = 0; a < w->nkv; a++)
        GALE_CALL(tlist_add(&w->se, (int)(w->kv[a].key / neg), w->kv[a].val));
    w->se.seg[j + 1] = w->se.n;
    return GALE_OK;
}

/* Buckets n items by owner into out/seg (allocated here): w->key[x] holds
 * the owner of item x on entry, its candidate index on return. */
static int bucket_by_owner(work_t *w, int n, int **out, int **seg)
{
    GALE_ALLOC(*seg, w->ncand + 2);
    GALE_ALLOC(*out, n > 0 ? n : 1);
    for (int x = 0; x < n; x++) w->key[x] = cand_index(w, w->key[x]);
    bucket(w->key, n, w->ncand, *seg, *out);
    return GALE_OK;
}

static int exchange_lists(const gale_cs_t *cs, const gale_partition_t *part, gale_local_t *lm,
                          work_t *w)
{
    const int *own = part->owner;
    bfs_t *b = &w->b;
    int D = lm->depth, nown = lm->ncell[0], nloc = lm->ncell[GALE_MAX_DEPTH];
    int neo = lm->nedge_owned, ne = lm->nedge[GALE_MAX_DEPTH];
    int lo = b->lay[1], nreg = b->lay[D + 2] - lo; /* my search still holds layers 1 .. D+1 */
    int nmax = nreg > ne ? nreg : ne;

    /* candidates: owners of the cells within D + 1 of mine */
    GALE_ALLOC(w->cand, nmax > 0 ? nmax : 1);
    GALE_ALLOC(w->key, nmax > 0 ? nmax : 1);
    for (int x = 0; x < nreg; x++) w->cand[x] = own[b->q[lo + x]];
    qsort(w->cand, (size_t)nreg, sizeof *w->cand, cmp_int);
    for (int x = 0; x < nreg; x++)
        if (x == 0 || w->cand[x] != w->cand[x - 1]) w->cand[w->ncand++] = w->cand[x];
    int nc = w->ncand;

    /* region cells, halo cells and non-owned edges, each by owner; the halo
     * cells and edges are in depth-then-gid order already, and stay so */
    for (int x = 0; x < nreg; x++) w->key[x] = own[b->q[lo + x]];
    GALE_CALL(bucket_by_owner(w, nreg, &w->src, &w->srcseg));
    for (int a = 0; a < nreg; a++) w->src[a] = b->q[lo + w->src[a]];
    for (int x = nown; x < nloc; x++) w->key[x - nown] = own[lm->cell_gid[x]];
    GALE_CALL(bucket_by_owner(w, nloc - nown, &w->rcv, &w->rcvseg));
    for (int k = neo; k < ne; k++) w->key[k - neo] = w->eown[k];
    GALE_CALL(bucket_by_owner(w, ne - neo, &w->rev, &w->revseg));

    tlist_t *ts[4] = {&w->rc, &w->re, &w->sc, &w->se};
    for (int l = 0; l < 4; l++) GALE_ALLOC(ts[l]->seg, nc + 1);
    for (int j = 0; j < nc; j++) {
        for (int a = w->rcvseg[j]; a < w->rcvseg[j + 1]; a++)
            GALE_CALL(tlist_add(&w->rc, w->cdep[nown + w->rcv[a]], nown + w->rcv[a]));
        w->rc.seg[j + 1] = w->rc.n;
        for (int a = w->revseg[j]; a < w->revseg[j + 1]; a++)
            GALE_CALL(tlist_add(&w->re, w->edep[neo + w->rev[a]], neo + w->rev[a]));
        w->re.seg[j + 1] = w->re.n;
        GALE_CALL(send_lists(cs, part, lm, w, j));
    }

    /* a candidate with nothing to send or receive is not a neighbour */
    GALE_ALLOC(w->keep, nc > 0 ? nc : 1);
    int nnbr = 0;
    for (int j = 0; j < nc; j++) {
        for (int l = 0; l < 4; l++) w->keep[j] |= ts[l]->seg[j + 1] > ts[l]->seg[j];
        nnbr += w->keep[j];
    }
    lm->nnbr = nnbr;
    GALE_ALLOC(lm->nbr_rank, nnbr > 0 ? nnbr : 1);
    for (int j = 0, q = 0; j < nc; j++)
        if (w->keep[j]) lm->nbr_rank[q++] = w->cand[j];
    GALE_CALL(xlist_fill(&lm->recv_cell, &w->rc, w->keep, nc, nnbr));
    GALE_CALL(xlist_fill(&lm->recv_edge, &w->re, w->keep, nc, nnbr));
    GALE_CALL(xlist_fill(&lm->send_cell, &w->sc, w->keep, nc, nnbr));
    GALE_CALL(xlist_fill(&lm->send_edge, &w->se, w->keep, nc, nnbr));
    return GALE_OK;
}

static int local_build(const gale_cs_t *cs, const gale_partition_t *part, gale_local_t *lm,
                       work_t *w)
{
    int ncg = (int)cs->ncells;
    GALE_CALL(bfs_init(&w->b, ncg));
    GALE_ALLOC(w->lidx, ncg);
    for (int c = 0; c < ncg; c++) w->lidx[c] = -1;
    GALE_CALL(number_cells(cs, part, lm, w));
    GALE_CALL(number_edges(cs, part, lm, w));
    GALE_CALL(exchange_lists(cs, part, lm, w));
    return GALE_OK;
}

int gale_local_build(const gale_cs_t *cs, const gale_partition_t *part, int rank, int depth,
                     gale_local_t *lm)
{
    memset(lm, 0, sizeof *lm);
    if (rank < 0 || rank >= part->nranks)
        GALE_ERROR(GALE_ERR_INPUT, "rank %d: must be between 0 and %d", rank, part->nranks - 1);
    if (depth < 1 || depth > GALE_MAX_DEPTH)
        GALE_ERROR(GALE_ERR_INPUT, "halo depth %d: must be between 1 and %d", depth,
                   GALE_MAX_DEPTH);
    lm->rank = rank;
    lm->nranks = part->nranks;
    lm->depth = depth;
    work_t w;
    memset(&w, 0, sizeof w);
    int err = local_build(cs, part, lm, &w);
    free_work(&w);
    if (err) {
        gale_local_free(lm);
        return gale_error_trace(err, __FILE__, __LINE__, __func__);
    }
    return GALE_OK;
}

void gale_local_free(gale_local_t *lm)
{
    GALE_FREE(lm->cell_gid);
    GALE_FREE(lm->cell_nbr);
    GALE_FREE(lm->cell_edge);
    GALE_FREE(lm->edge_gid);
    GALE_FREE(lm->edge_cell);
    GALE_FREE(lm->nbr_rank);
    xlist_free(&lm->send_cell);
    xlist_free(&lm->recv_cell);
    xlist_free(&lm->send_edge);
    xlist_free(&lm->recv_edge);
    memset(lm, 0, sizeof *lm);
}

/* ---- statistics over all ranks ---- */

typedef struct { double min, max, sum; } acc_t;

static void acc_add(acc_t *a, double v, int first)
{
    if (first || v < a->min) a->min = v;
    if (first || v > a->max) a->max = v;
    a->sum += v;
}

static gale_mmm_t acc_mmm(const acc_t *a, int n) { return (gale_mmm_t){a->min, a->sum / n, a->max}; }

typedef struct {
    bfs_t b;
    int *cells, *cstart; /* cells bucketed by owner, gid order within a rank */
    int *seen, *cseen;   /* [P] stamp r + 1: rank r receives something / cells from it */
    int *rlist, nr, capr, *rstart; /* the ranks each rank receives from (CSR, sorted) */
    int *nnbr;           /* [P] */
} stats_work_t;

static void free_stats_work(stats_work_t *w)
{
    bfs_free(&w->b);
    GALE_FREE(w->cells);
    GALE_FREE(w->cstart);
    GALE_FREE(w->seen);
    GALE_FREE(w->cseen);
    GALE_FREE(w->rlist);
    GALE_FREE(w->rstart);
    GALE_FREE(w->nnbr);
}

/* Rank r receives from q: note q once. */
static int note_sender(stats_work_t *w, int r, int q)
{
    if (w->seen[q] == r + 1) return GALE_OK;
    w->seen[q] = r + 1;
    GALE_CALL(grow(&w->rlist, &w->capr, w->nr + 1, sizeof *w->rlist));
    w->rlist[w->nr++] = q;
    return GALE_OK;
}

/* The same counts gale_local_build would give each rank (halo layers, halo
 * edges, the ranks it receives from), one search per rank and no lists. The
 * ranks that need something of r (the other half of its neighbours) are
 * known only when every rank has been searched: a pair counts twice unless
 * it receives both ways. */
static int partition_stats(const gale_cs_t *cs, const gale_partition_t *part, int D, int nlev,
                           gale_part_stats_t *st, stats_work_t *w)
{
    const int *own = part->owner;
    int ncg = (int)cs->ncells, P = part->nranks;
    GALE_CALL(bfs_init(&w->b, ncg));
    GALE_ALLOC(w->cells, ncg);
    GALE_ALLOC(w->cstart, P + 2);
    GALE_ALLOC(w->seen, P);
    GALE_ALLOC(w->cseen, P);
    GALE_ALLOC(w->rstart, P + 1);
    GALE_ALLOC(w->nnbr, P);
    /* owners as keys: bucket() is the same stable counting sort as above */
    bucket(own, ncg, P, w->cstart, w->cells);

    acc_t owned = {0}, halo[NDC] = {{0}}, hedge = {0}, bcell = {0}, bedge = {0}, nbrs = {0};
    double messages = 0, bytes = 8.0 * nlev;
    bfs_t *b = &w->b;
    for (int r = 0; r < P; r++) {
        bfs_start(b);
        for (int a = w->cstart[r]; a < w->cstart[r + 1]; a++) GALE_CALL(bfs_add(b, w->cells[a], 0));
        GALE_CALL(bfs_grow(cs, b, D, 0));
        int nown = b->lay[1], nhalo = b->n - nown, nhe = 0;
        acc_add(&owned, nown, r == 0);
        for (int d = 1; d <= D; d++) acc_add(&halo[d], b->lay[d + 1] - b->lay[d], r == 0);
        for (int x = nown; x < b->n; x++) {
            int q = own[b->q[x]];
            GALE_CALL(note_sender(w, r, q));
            if (w->cseen[q] != r + 1) w->cseen[q] = r + 1, messages++;
        }
        /* each edge once, from its shallower cell (as the local numbering) */
        for (int x = 0; x < b->n; x++) {
            int v = b->q[x], dv = bfs_depth(b, v);
            for (int s = 0; s < 4; s++) {
                int u = (int)gale_cs_cell_nbr(cs, v, s), du = bfs_depth(b, u);
                if (du < dv || (du == dv && u < v)) continue;
                int q = edge_owner(own, v, u);
                if (q == r) continue;
                nhe++;
                GALE_CALL(note_sender(w, r, q));
            }
        }
        acc_add(&hedge, nhe, r == 0);
        acc_add(&bcell, nhalo * bytes, r == 0);
        acc_add(&bedge, nhe * bytes, r == 0);
        w->rstart[r + 1] = w->nr;
        if (w->nr > w->rstart[r])
            qsort(w->rlist + w->rstart[r], (size_t)(w->nr - w->rstart[r]), sizeof *w->rlist, cmp_int);
    }
    for (int r = 0; r < P; r++) w->nnbr[r] += w->rstart[r + 1] - w->rstart[r];
    for (int r = 0; r < P; r++)
        for (int a = w->rstart[r]; a < w->rstart[r + 1]; a++) {
            int q = w->rlist[a];
            if (!bsearch(&r, w->rlist + w->rstart[q], (size_t)(w->rstart[q + 1] - w->rstart[q]),
                         sizeof *w->rlist, cmp_int))
                w->nnbr[q]++; /* r receives from q, q nothing from r: q sends only */
        }
    for (int r = 0; r < P; r++) acc_add(&nbrs, w->nnbr[r], r == 0);

    st->nranks = P;
    st->depth = D;
    st->nlev = nlev;
    st->owned = acc_mmm(&owned, P);
    for (int d = 1; d <= D; d++) st->halo[d] = acc_mmm(&halo[d], P);
    st->halo_edges = acc_mmm(&hedge, P);
    st->nbrs = acc_mmm(&nbrs, P);
    st->bytes_cell = acc_mmm(&bcell, P);
    st->bytes_edge = acc_mmm(&bedge, P);
    st->imbalance = st->owned.max / st->owned.mean - 1.0;
    st->total_messages = messages;
    return GALE_OK;
}

int gale_partition_stats(const gale_cs_t *cs, const gale_partition_t *part, int depth, int nlev,
                         gale_part_stats_t *st)
{
    memset(st, 0, sizeof *st);
    if (depth < 1 || depth > GALE_MAX_DEPTH)
        GALE_ERROR(GALE_ERR_INPUT, "halo depth %d: must be between 1 and %d", depth,
                   GALE_MAX_DEPTH);
    if (nlev < 1) GALE_ERROR(GALE_ERR_INPUT, "%d levels: must be at least 1", nlev);
    stats_work_t w;
    memset(&w, 0, sizeof w);
    int err = partition_stats(cs, part, depth, nlev, st, &w);
    free_stats_work(&w);
    if (err) return gale_error_trace(err, __FILE__, __LINE__, __func__);
    return GALE_OK;
}
