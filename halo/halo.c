/* Halo exchange. See gale_halo.h and docs/halo.md.
 *
 * A plan flattens the layout's per-neighbour lists (first count[depth]
 * entries of each) into one send and one receive index array, so a packer
 * (host or device) runs once per exchange over one contiguous buffer:
 * neighbour q's message is buf[off[q] .. off[q+1]), whole columns of nlev
 * values each, padding never sent. Every plan has its own duplicated
 * communicator, so its messages cannot match those of any other plan or of
 * other code on the caller's communicator. */
#include "gale_halo.h"

#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_netmodel.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct gale_halo {
    MPI_Comm comm; /* private duplicate: isolates this plan's messages */
    int loc, nlev, stride, elem, depth;
    int ncol; /* columns a field must have: owned + halo to depth */
    int nsend_col, nrecv_col;
    int *sidx, *ridx; /* flattened local column indices, stable for the plan's life */
    void *sbuf, *rbuf;
    int nsend, nrecv; /* messages (neighbours with a non-zero count) */
    MPI_Request *req; /* [nrecv receives | nsend sends], persistent */
    MPI_Status *stat; /* for Waitall: gcc 12 warns on MPICH's MPI_STATUSES_IGNORE sentinel */
    size_t rbytes;
    gale_pack_fn pack;
    gale_unpack_fn unpack;
    void *ctx;
    int active; /* begin() done, end() not yet */
    /* what MPI sends from and receives into: sbuf/rbuf, or a launch layer's
     * device buffers (gale_halo_set_buffers); per request its peer, first
     * column and column count, to re-create the requests on them */
    void *msbuf, *mrbuf;
    int *rq_rank, *rq_col, *rq_ncol;
    void (*fin)(void *);
    void *fin_ctx;
    double t_begin; /* the last begin(), when its sends were posted */
    double emul_s;  /* an exchange's modelled time on the emulated machine, or 0 */
};

static void host_pack(void *ctx, const void *field, int stride, int elem, int nlev, const int *idx,
                      int n, void *buf)
{
    const size_t col = (size_t)stride * elem, len = (size_t)nlev * elem;
    for (int i = 0; i < n; i++)
        memcpy((char *)buf + i * len, (const char *)field + idx[i] * col, len);
}

static void host_unpack(void *ctx, void *field, int stride, int elem, int nlev, const int *idx,
                        int n, const void *buf)
{
    const size_t col = (size_t)stride * elem, len = (size_t)nlev * elem;
    for (int i = 0; i < n; i++)
        memcpy((char *)field + idx[i] * col, (const char *)buf + i * len, len);
}

static int xcount(const gale_xlist_t *x, int q, int d)
{
    return x->count[q * (GALE_MAX_DEPTH + 1) + d];
}

/* Checks one rank's lists for this depth: counts within the list, send
 * indices owned, receive indices in the halo to `depth`. Returns the number
 * of bad entries and reports the first. */
static int check_lists(const gale_local_t *lm, const gale_xlist_t *x, int depth, int lo, int hi,
                       const char *what)
{
    int bad = 0;
    for (int q = 0; q < lm->nnbr; q++) {
        int c = xcount(x, q, depth);
        if (c < 0 || c > x->start[q + 1] - x->start[q]) {
            if (!bad++)
                gale_log_all(GALE_LOG_ERROR,
                             "halo: %s list for rank %d: count %d at depth %d outside 0..%d", what,
                             lm->nbr_rank[q], c, depth, x->start[q + 1] - x->start[q]);
            continue;
        }
        for (int i = 0; i < c; i++) {
            int j = x->idx[x->start[q] + i];
            if ((j < lo || j >= hi) && !bad++)
                gale_log_all(GALE_LOG_ERROR, "halo: %s list for rank %d: index %d outside [%d, %d)",
                             what, lm->nbr_rank[q], j, lo, hi);
        }
    }
    return bad;
}

/* Flattens the first count[depth] entries per neighbour into idx; off[q] is
 * neighbour q's first column. */
static void flatten(const gale_local_t *lm, const gale_xlist_t *x, int depth, int *idx, int *off)
{
    off[0] = 0;
    for (int q = 0; q < lm->nnbr; q++) {
        int c = xcount(x, q, depth);
        if (c > 0) /* an empty list may be NULL: memcpy(NULL, ., 0) is undefined */
            memcpy(idx + off[q], x->idx + x->start[q], (size_t)c * sizeof *idx);
        off[q + 1] = off[q] + c;
    }
}

/* An exchange's modelled time on the emulated machine (docs/emulate.md,
 * "A halo exchange"); 0 when there is none. Each neighbour is on this
 * rank's emulated node or off it; the messages of one kind share the
 * rank's bandwidth (one latency, their bytes, the larger direction), the
 * two kinds run side by side. */
static double emulated_s(const gale_local_t *lm, const int *soff, const int *roff, size_t colb)
{
    const gale_emulate_t *e = gale_emulate();
    if (!e) return 0;
    const int me = gale_netmodel_node_of(lm->rank, lm->nranks, e->nodes);
    double sb[2] = {0, 0}, rb[2] = {0, 0};
    int any[2] = {0, 0};
    for (int q = 0; q < lm->nnbr; q++) {
        const int off = gale_netmodel_node_of(lm->nbr_rank[q], lm->nranks, e->nodes) != me;
        const int ns = soff[q + 1] - soff[q], nr = roff[q + 1] - roff[q];
        any[off] |= ns > 0 || nr > 0;
        sb[off] += (double)ns * colb;
        rb[off] += (double)nr * colb;
    }
    double t = 0;
    for (int off = 0; off < 2; off++)
        if (any[off]) {
            const double b = sb[off] > rb[off] ? sb[off] : rb[off];
            const double tk = gale_netmodel_message_s(&e->m, b, off, e->ranks_per_node);
            if (tk > t) t = tk;
        }
    return t;
}

/* Agreement between ranks, before any persistent request exists, in one
 * O(P) alltoall per plan: every rank tells every other its plan shape,
 * whether its own lists are sound, and its send and receive column counts
 * for that rank. So every rank sees a shape mismatch (plans created in
 * different orders) and a broken list anywhere, and both ends of a pair see a
 * count mismatch, which would otherwise hang on a message one side skips. */
enum { A_LOC, A_NLEV, A_ELEM, A_DEPTH, A_BAD, A_SEND, A_RECV, A_N };

static int check_agreement(const gale_local_t *lm, MPI_Comm comm, const int *soff, const int *roff,
                           const int shape[4], int bad)
{
    const int p = lm->nranks;
    int *out = calloc((size_t)p * A_N, sizeof *out), *in = calloc((size_t)p * A_N, sizeof *in);
    if (!out || !in) {
        free(out), free(in);
        GALE_ERROR(GALE_ERR_MEM, "halo: cannot allocate %d agreement entries", 2 * A_N * p);
    }
    for (int r = 0; r < p; r++) {
        memcpy(out + r * A_N, shape, 4 * sizeof *out);
        out[r * A_N + A_BAD] = bad > 0;
    }
    for (int q = 0; q < lm->nnbr; q++) {
        out[lm->nbr_rank[q] * A_N + A_SEND] = soff[q + 1] - soff[q];
        out[lm->nbr_rank[q] * A_N + A_RECV] = roff[q + 1] - roff[q];
    }
    int err = MPI_Alltoall(out, A_N, MPI_INT, in, A_N, MPI_INT, comm), nerr = 0;
    for (int r = 0; r < p && err == MPI_SUCCESS; r++) {
        const int *o = out + r * A_N, *i = in + r * A_N;
        if (memcmp(i, shape, 4 * sizeof *i)) {
            if (nerr++ < 3)
                gale_log_all(
                    GALE_LOG_ERROR,
                    "halo: rank %d creates a plan (loc %d, nlev %d, elem %d, depth %d) while "
                    "this rank creates (loc %d, nlev %d, elem %d, depth %d): every rank must "
                    "create its plans in the same order",
                    r, i[A_LOC], i[A_NLEV], i[A_ELEM], i[A_DEPTH], shape[A_LOC], shape[A_NLEV],
                    shape[A_ELEM], shape[A_DEPTH]);
        } else if (i[A_BAD] && r != lm->rank) {
            if (nerr++ < 3)
                gale_log_all(GALE_LOG_ERROR, "halo: rank %d has broken exchange lists", r);
        } else if (i[A_SEND] != o[A_RECV] || i[A_RECV] != o[A_SEND]) {
            if (nerr++ < 3)
                gale_log_all(
                    GALE_LOG_ERROR,
                    "halo: depth %d: rank %d sends %d columns here and expects %d; this rank "
                    "expects %d from it and sends %d",
                    shape[A_DEPTH], r, i[A_SEND], i[A_RECV], o[A_RECV], o[A_SEND]);
        }
    }
    free(out), free(in);
    if (err != MPI_SUCCESS)
        return gale_error_mpi(err, "MPI_Alltoall", __FILE__, __LINE__, __func__);
    if (bad || nerr)
        GALE_ERROR(GALE_ERR_INTERNAL,
                   "halo: plan (loc %d, nlev %d, elem %d, depth %d) inconsistent between ranks "
                   "(details above)",
                   shape[A_LOC], shape[A_NLEV], shape[A_ELEM], shape[A_DEPTH]);
    return GALE_OK;
}

int gale_halo_create(gale_halo_t **hp, const gale_local_t *lm, MPI_Comm comm, gale_loc_t loc,
                     int nlev, int stride, int elem, int depth)
{
    *hp = NULL;
    if (loc != GALE_LOC_CELL && loc != GALE_LOC_EDGE && loc != GALE_LOC_IFACE)
        GALE_ERROR(GALE_ERR_INTERNAL, "halo: unknown location %d", (int)loc);
    if (nlev < 1 || stride < nlev || stride % 8 || (elem != 8 && elem != 4))
        GALE_ERROR(GALE_ERR_INTERNAL, "halo: bad shape nlev %d, stride %d, elem %d", nlev, stride,
                   elem);
    if (depth < 1 || depth > lm->depth)
        GALE_ERROR(GALE_ERR_INTERNAL, "halo: depth %d outside 1..%d (the local mesh's depth)",
                   depth, lm->depth);

    int size, rank;
    GALE_MPI(MPI_Comm_size(comm, &size));
    GALE_MPI(MPI_Comm_rank(comm, &rank));
    if (size != lm->nranks || rank != lm->rank)
        GALE_ERROR(GALE_ERR_INTERNAL,
                   "halo: local mesh is rank %d of %d, communicator rank %d of %d", lm->rank,
                   lm->nranks, rank, size);

    const int edge = loc == GALE_LOC_EDGE, nq = lm->nnbr;
    const gale_xlist_t *sx = edge ? &lm->send_edge : &lm->send_cell;
    const gale_xlist_t *rx = edge ? &lm->recv_edge : &lm->recv_cell;
    const int owned = edge ? lm->nedge_owned : lm->ncell[0];
    const int ncol = edge ? lm->nedge[depth] : lm->ncell[depth];
    int bad = check_lists(lm, sx, depth, 0, owned, "send") +
              check_lists(lm, rx, depth, owned, ncol, "receive");

    int *soff = NULL, *roff = NULL;
    GALE_ALLOC(soff, nq + 1);
    GALE_ALLOC(roff, nq + 1);
    for (int q = 0; q < nq && !bad; q++) { /* bad counts stay 0: the agreement check fails anyway */
        soff[q + 1] = soff[q] + xcount(sx, q, depth);
        roff[q + 1] = roff[q] + xcount(rx, q, depth);
    }
    const int shape[4] = {loc, nlev, elem, depth};
    int st = check_agreement(lm, comm, soff, roff, shape, bad);
    if (st != GALE_OK) {
        gale_free(soff), gale_free(roff);
        return gale_error_trace(st, __FILE__, __LINE__, __func__);
    }

    gale_halo_t *h = NULL;
    GALE_ALLOC(h, 1);
    *hp = h;
    h->comm = MPI_COMM_NULL;
    h->loc = loc, h->nlev = nlev, h->stride = stride, h->elem = elem, h->depth = depth;
    h->ncol = ncol;
    h->pack = host_pack, h->unpack = host_unpack;
    h->nsend_col = soff[nq], h->nrecv_col = roff[nq];
    const size_t colb = (size_t)nlev * elem;
    GALE_ASSERT((size_t)h->nsend_col * nlev <= INT_MAX && (size_t)h->nrecv_col * nlev <= INT_MAX);
    GALE_ALLOC(h->sidx, h->nsend_col);
    GALE_ALLOC(h->ridx, h->nrecv_col);
    flatten(lm, sx, depth, h->sidx, soff);
    flatten(lm, rx, depth, h->ridx, roff);
    char *sbuf = NULL, *rbuf = NULL;
    GALE_ALLOC(sbuf, h->nsend_col * colb);
    GALE_ALLOC(rbuf, h->nrecv_col * colb);
    h->sbuf = sbuf, h->rbuf = rbuf;
    h->rbytes = h->nrecv_col * colb;

    /* Zero-count neighbours are skipped on both sides: check_agreement has
     * proved that both ends see the same count. */
    GALE_MPI(MPI_Comm_dup(comm, &h->comm));
    GALE_ALLOC(h->req, 2 * nq);
    GALE_ALLOC(h->stat, 2 * nq);
    GALE_ALLOC(h->rq_rank, 2 * nq);
    GALE_ALLOC(h->rq_col, 2 * nq);
    GALE_ALLOC(h->rq_ncol, 2 * nq);
    h->msbuf = sbuf, h->mrbuf = rbuf;
    const MPI_Datatype type = elem == 8 ? MPI_DOUBLE : MPI_FLOAT;
    for (int q = 0; q < nq; q++) {
        int n = roff[q + 1] - roff[q];
        if (n) {
            GALE_MPI(MPI_Recv_init(rbuf + roff[q] * colb, n * nlev, type, lm->nbr_rank[q], 0,
                                   h->comm, &h->req[h->nrecv]));
            h->rq_rank[h->nrecv] = lm->nbr_rank[q], h->rq_col[h->nrecv] = roff[q];
            h->rq_ncol[h->nrecv] = n;
            h->nrecv++;
        }
    }
    for (int q = 0; q < nq; q++) {
        int n = soff[q + 1] - soff[q];
        if (n) {
            GALE_MPI(MPI_Send_init(sbuf + soff[q] * colb, n * nlev, type, lm->nbr_rank[q], 0,
                                   h->comm, &h->req[h->nrecv + h->nsend]));
            h->rq_rank[h->nrecv + h->nsend] = lm->nbr_rank[q];
            h->rq_col[h->nrecv + h->nsend] = soff[q];
            h->rq_ncol[h->nrecv + h->nsend] = n;
            h->nsend++;
        }
    }
    h->emul_s = emulated_s(lm, soff, roff, colb);
    gale_free(soff), gale_free(roff);
    return GALE_OK;
}

int gale_halo_destroy(gale_halo_t **hp)
{
    gale_halo_t *h = *hp;
    if (!h) return GALE_OK;
    if (h->active)
        GALE_ERROR(GALE_ERR_INTERNAL,
                   "halo: plan destroyed with an exchange in flight (begin without end)");
    for (int i = 0; h->req && i < h->nrecv + h->nsend; i++) GALE_MPI(MPI_Request_free(&h->req[i]));
    if (h->comm != MPI_COMM_NULL) GALE_MPI(MPI_Comm_free(&h->comm));
    if (h->fin) h->fin(h->fin_ctx); /* the message buffers may be the launch layer's */
    gale_free(h->req), gale_free(h->stat);
    gale_free(h->rq_rank), gale_free(h->rq_col), gale_free(h->rq_ncol);
    gale_free(h->sidx), gale_free(h->ridx);
    gale_free(h->sbuf), gale_free(h->rbuf);
    GALE_FREE(*hp);
    return GALE_OK;
}

void gale_halo_set_packer(gale_halo_t *h, gale_pack_fn pack, gale_unpack_fn unpack, void *ctx)
{
    h->pack = pack ? pack : host_pack;
    h->unpack = unpack ? unpack : host_unpack;
    h->ctx = ctx;
}

int gale_halo_begin(gale_halo_t *h, const void *data)
{
    if (h->active)
        GALE_ERROR(
            GALE_ERR_INTERNAL,
            "halo: begin called twice on one plan without end (one exchange per plan at a time)");
    double t0 = gale_wtime();
    /* Receives first, so neighbours' data mostly lands in posted buffers. */
    if (h->nrecv) GALE_MPI(MPI_Startall(h->nrecv, h->req));
    if (h->nsend_col)
        h->pack(h->ctx, data, h->stride, h->elem, h->nlev, h->sidx, h->nsend_col, h->msbuf);
    if (h->nsend) GALE_MPI(MPI_Startall(h->nsend, h->req + h->nrecv));
    h->t_begin = gale_wtime();
    if (h->emul_s > 0) gale_emulate_in_mpi(h->t_begin, h->t_begin); /* pending sums advance */
    h->active = 1;
    gale_timer_add(GALE_T_HALO_PACK, gale_wtime() - t0);
    return GALE_OK;
}

int gale_halo_end(gale_halo_t *h, void *data)
{
    if (!h->active) GALE_ERROR(GALE_ERR_INTERNAL, "halo: end called without a matching begin");
    double t0 = gale_wtime();
    /* Sends too: the next begin() overwrites the send buffer. */
    if (h->nrecv + h->nsend) GALE_MPI(gale_mpi_waitall(h->nrecv + h->nsend, h->req, h->stat));
    gale_comm_stats_t *cs = gale_comm_stats();
    if (h->emul_s > 0) { /* no earlier than its messages would arrive on the emulated machine */
        const double until = h->t_begin + h->emul_s;
        cs->halo_imposed_s += until > t0 ? until - t0 : 0;
        gale_emulate_until(until);
        gale_emulate_in_mpi(t0, gale_wtime()); /* pending sums advanced meanwhile */
    }
    cs->exchanges++;
    cs->halo_wait_s += gale_wtime() - t0;
    cs->halo_model_s += h->emul_s;
    h->active = 0;
    if (h->nrecv_col)
        h->unpack(h->ctx, data, h->stride, h->elem, h->nlev, h->ridx, h->nrecv_col, h->mrbuf);
    gale_timer_add(GALE_T_HALO_WAIT, gale_wtime() - t0);
    return GALE_OK;
}

size_t gale_halo_bytes(const gale_halo_t *h) { return h->rbytes; }
int gale_halo_messages(const gale_halo_t *h) { return h->nrecv; }

void gale_halo_info(const gale_halo_t *h, gale_halo_info_t *in)
{
    in->sidx = h->sidx, in->ridx = h->ridx;
    in->nsend_col = h->nsend_col, in->nrecv_col = h->nrecv_col;
    in->sbuf = h->sbuf, in->rbuf = h->rbuf;
    in->nlev = h->nlev, in->elem = h->elem;
}

int gale_halo_set_buffers(gale_halo_t *h, void *sbuf, void *rbuf)
{
    if (h->active)
        GALE_ERROR(GALE_ERR_INTERNAL, "halo: message buffers replaced during an exchange");
    const MPI_Datatype type = h->elem == 8 ? MPI_DOUBLE : MPI_FLOAT;
    const size_t colb = (size_t)h->nlev * h->elem;
    for (int i = 0; i < h->nrecv + h->nsend; i++) {
        GALE_MPI(MPI_Request_free(&h->req[i]));
        char *b = (char *)(i < h->nrecv ? rbuf : sbuf) + (size_t)h->rq_col[i] * colb;
        int cnt = h->rq_ncol[i] * h->nlev;
        if (i < h->nrecv)
            GALE_MPI(MPI_Recv_init(b, cnt, type, h->rq_rank[i], 0, h->comm, &h->req[i]));
        else
            GALE_MPI(MPI_Send_init(b, cnt, type, h->rq_rank[i], 0, h->comm, &h->req[i]));
    }
    h->msbuf = sbuf, h->mrbuf = rbuf;
    return GALE_OK;
}

void gale_halo_set_finalizer(gale_halo_t *h, void (*fn)(void *ctx), void *ctx)
{
    h->fin = fn;
    h->fin_ctx = ctx;
}
