/* I/O servers as XIOS runs them (gale_io.h; docs/output.md, "I/O servers").
 *
 * Messages, all on the link (a duplicate of the job's communicator):
 *  - SETUP, client 0 to every server: the mesh, levels, variables, pieces
 *    and configuration text; empty when no output comes;
 *  - ROWS, each client to its server in every pool: its rows' global ids;
 *  - HDR, a client to a server: an output time (step, time, variables), or
 *    STOP after the last;
 *  - DATA: one piece, exactly as the client's writer cut it (every client
 *    has the same pieces per variable, some empty);
 *  - FAIL, a server to its clients as soon as its output failed; FINAL, at
 *    the end, its status and (to its first client) its statistics and
 *    FILES;
 *  - DONE, client 0 to every server: the run's final status.
 * A client sends each pool's output times to the same server of that pool;
 * MPI keeps the messages of one sender and tag in order, so the server
 * needs no sequence numbers. */
#include "gale_ioserver.h"

#include "gale_base.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { T_SETUP = 101, T_ROWS, T_HDR, T_DATA, T_FAIL, T_FINAL, T_FILES, T_DONE };
enum { H_BEGIN = 1, H_STOP = 2 };
/* FINAL: failed, told (a FAIL was sent), bytes, seconds writing, writer
 * life, first open and last close (gale_wtime), the length of the file names
 * (the clients count the files by their names, the values they sent) */
enum { F_FAILED, F_TOLD, F_BYTES, F_WRITING, F_LIFE, F_OPEN, F_CLOSE, F_FLEN, F_N };

int gale_io_wait(int n, MPI_Request *req)
{
    int done = 0;
    MPI_Status st[n + 1]; /* not MPI_STATUSES_IGNORE: gcc warns of a zero-size region */
    while (!done) {
        if (MPI_Testall(n, req, &done, st) != MPI_SUCCESS) return GALE_ERR_MPI;
        if (!done) nanosleep(&(struct timespec){0, 50000}, NULL);
    }
    return GALE_OK;
}

/* A blocking receive that sleeps while it waits (gale_io_wait). */
static int recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm)
{
    MPI_Request r;
    GALE_MPI(MPI_Irecv(buf, count, t, src, tag, comm, &r));
    if (gale_io_wait(1, &r) != GALE_OK) GALE_ERROR(GALE_ERR_MPI, "receiving from rank %d failed", src);
    return GALE_OK;
}

/* The size of the next message from src with tag, waiting for it. */
static int probe(int src, int tag, MPI_Comm comm, MPI_Datatype t, int *count)
{
    int flag = 0;
    MPI_Status st;
    while (!flag) {
        GALE_MPI(MPI_Iprobe(src, tag, comm, &flag, &st));
        if (!flag) nanosleep(&(struct timespec){0, 50000}, NULL);
    }
    GALE_MPI(MPI_Get_count(&st, t, count));
    return GALE_OK;
}

static int rowlen(const gale_outvar_t *v, int nlev)
{
    return v->vert == GALE_OUT_2D ? 1 : v->vert == GALE_OUT_LAYERS ? nlev : nlev + 1;
}

/* ---- the split ---- */

int gale_io_split(MPI_Comm job, int servers, int pools, int placement, gale_io_link_t *l,
                  MPI_Comm *sub)
{
    int rank, size;
    memset(l, 0, sizeof *l);
    l->link = MPI_COMM_NULL;
    GALE_MPI(MPI_Comm_rank(job, &rank));
    GALE_MPI(MPI_Comm_size(job, &size));
    if (servers == 0) {
        l->index = rank;
        return MPI_Comm_dup(job, sub) == MPI_SUCCESS ? GALE_OK : GALE_ERR_MPI;
    }
    if (servers >= size)
        GALE_ERROR(GALE_ERR_INPUT, "[io] servers = %d leaves no rank of the %d for the model", servers,
                   size);
    if (servers % pools == 0 && servers / pools > size - servers)
        GALE_ERROR(GALE_ERR_INPUT, "[io] servers = %d in %d pools: a pool has more servers than the "
                   "%d ranks left for the model (each server needs a client)", servers, pools,
                   size - servers);
    GALE_MPI(MPI_Comm_dup(job, &l->link));
    l->servers = servers;
    l->pools = pools;
    l->nclients = size - servers;
    GALE_ALLOC(l->server_rank, servers);
    GALE_ALLOC(l->client_rank, l->nclients);
    /* spread: the last rank of each of `servers` equal blocks, which is one
     * per node under block placement when the nodes divide the servers;
     * rank 0 stays a client (it writes the report) */
    for (int j = 0; j < servers; j++)
        l->server_rank[j] = placement == GALE_SERVERS_LAST
                                ? size - servers + j
                                : (int)(((int64_t)(j + 1) * size + servers - 1) / servers) - 1;
    int nc = 0;
    l->is_server = 0;
    for (int r = 0, j = 0; r < size; r++) {
        if (j < servers && l->server_rank[j] == r) {
            if (r == rank) l->is_server = 1, l->index = j;
            j++;
        } else {
            if (r == rank) l->index = nc;
            l->client_rank[nc++] = r;
        }
    }
    GALE_MPI(MPI_Comm_split(job, l->is_server, rank, sub));
    return GALE_OK;
}

void gale_io_link_free(gale_io_link_t *l)
{
    if (l->link != MPI_COMM_NULL) MPI_Comm_free(&l->link);
    gale_free(l->server_rank);
    gale_free(l->client_rank);
    memset(l, 0, sizeof *l);
    l->link = MPI_COMM_NULL;
}

/* Client c's server in pool p. */
static int server_of(const gale_io_link_t *l, int c, int p)
{
    const int spp = l->servers / l->pools;
    return l->server_rank[p * spp + (int)((int64_t)c * spp / l->nclients)];
}

int gale_io_release(gale_io_link_t *l, int status)
{
    if (l->servers == 0 || l->is_server || l->index != 0) return GALE_OK;
    for (int j = 0; j < l->servers; j++) {
        if (!l->connected) GALE_MPI(MPI_Send(NULL, 0, MPI_BYTE, l->server_rank[j], T_SETUP, l->link));
        GALE_MPI(MPI_Send(&status, 1, MPI_INT, l->server_rank[j], T_DONE, l->link));
    }
    return GALE_OK;
}

/* ---- the client ---- */

struct gale_ioclient {
    const gale_io_link_t *l;
    int nout;            /* output times sent: the next goes to pool nout % pools */
    int *server;         /* [pools] this client's server in each pool */
    MPI_Request *fail;   /* [pools] FAIL from each */
    int *failbuf, told;
    double *hdr;
};

int gale_ioclient_connect(gale_ioclient_t **cp, gale_io_link_t *l, const gale_writer_opts_t *o,
                          const int *cell_gid, const int *edge_gid, const int64_t *rpp,
                          const int *npieces)
{
    gale_ioclient_t *c = calloc(1, sizeof *c);
    *cp = c;
    if (!c) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    c->l = l;
    GALE_ALLOC(c->server, l->pools);
    GALE_ALLOC(c->fail, l->pools);
    GALE_ALLOC(c->failbuf, l->pools);
    GALE_ALLOC(c->hdr, 4 + o->nvars);
    for (int p = 0; p < l->pools; p++) c->server[p] = server_of(l, l->index, p);
    if (l->index == 0) {
        /* SETUP: what the servers cannot know from the configuration alone */
        const int nz = 2 * o->nlev + 1, clen = o->config_text ? (int)strlen(o->config_text) : 0;
        const int head[3] = {o->nlev, o->nvars, clen};
        size_t n = sizeof head + sizeof *o->cs + (size_t)nz * 8 + (size_t)o->nvars *
                   (sizeof *o->vars + sizeof *rpp + sizeof *npieces) + (size_t)clen;
        char *b = malloc(n), *at = b;
        if (!b) GALE_ERROR(GALE_ERR_MEM, "out of memory");
#define PUT(src, bytes) (memcpy(at, (src), (bytes)), at += (bytes))
        PUT(head, sizeof head);
        PUT(o->cs, sizeof *o->cs);
        PUT(o->z_c, (size_t)o->nlev * 8);
        PUT(o->z_if, (size_t)(o->nlev + 1) * 8);
        PUT(o->vars, (size_t)o->nvars * sizeof *o->vars);
        PUT(rpp, (size_t)o->nvars * sizeof *rpp);
        PUT(npieces, (size_t)o->nvars * sizeof *npieces);
        if (clen) PUT(o->config_text, (size_t)clen);
#undef PUT
        int st = GALE_OK;
        for (int j = 0; j < l->servers && st == GALE_OK; j++)
            if (MPI_Send(b, (int)n, MPI_BYTE, l->server_rank[j], T_SETUP, l->link) != MPI_SUCCESS)
                st = GALE_ERR_MPI;
        free(b);
        if (st != GALE_OK) GALE_ERROR(st, "sending the output's set-up to the I/O servers failed");
    }
    /* ROWS: counts, then the cells' and the edges' ids */
    int *rows;
    GALE_ALLOC(rows, 2 + o->ncell + o->nedge);
    rows[0] = o->ncell, rows[1] = o->nedge;
    memcpy(rows + 2, cell_gid, (size_t)o->ncell * sizeof *rows);
    memcpy(rows + 2 + o->ncell, edge_gid, (size_t)o->nedge * sizeof *rows);
    int st = GALE_OK;
    for (int p = 0; p < l->pools && st == GALE_OK; p++)
        if (MPI_Send(rows, 2 + o->ncell + o->nedge, MPI_INT, c->server[p], T_ROWS, l->link) !=
            MPI_SUCCESS)
            st = GALE_ERR_MPI;
    gale_free(rows);
    if (st != GALE_OK) GALE_ERROR(st, "sending this rank's output rows to its I/O server failed");
    for (int p = 0; p < l->pools; p++)
        GALE_MPI(MPI_Irecv(&c->failbuf[p], 1, MPI_INT, c->server[p], T_FAIL, l->link, &c->fail[p]));
    l->connected = 1;
    return GALE_OK;
}

static int send_wait(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm)
{
    MPI_Request r;
    GALE_MPI(MPI_Isend(buf, count, t, dest, tag, comm, &r));
    return gale_io_wait(1, &r);
}

int gale_ioclient_begin(gale_ioclient_t *c, int step, double time, int nfv, const int *fvars)
{
    c->hdr[0] = H_BEGIN, c->hdr[1] = step, c->hdr[2] = time, c->hdr[3] = nfv;
    for (int i = 0; i < nfv; i++) c->hdr[4 + i] = fvars[i];
    const int dest = c->server[c->nout++ % c->l->pools];
    if (send_wait(c->hdr, 4 + nfv, MPI_DOUBLE, dest, T_HDR, c->l->link) != GALE_OK)
        GALE_ERROR(GALE_ERR_MPI, "sending an output time to I/O server rank %d failed", dest);
    return GALE_OK;
}

int gale_ioclient_data(gale_ioclient_t *c, const double *data, int64_t count)
{
    const int dest = c->server[(c->nout - 1) % c->l->pools];
    /* the piece's ring space is freed once the server has it */
    if (send_wait(data, (int)count, MPI_DOUBLE, dest, T_DATA, c->l->link) != GALE_OK)
        GALE_ERROR(GALE_ERR_MPI, "sending output to I/O server rank %d failed", dest);
    return GALE_OK;
}

/* The client learns that server `rank` failed: said once. */
static void say_failed(gale_ioclient_t *c, int rank)
{
    if (c->told) return;
    c->told = 1;
    gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__,
                     "I/O server rank %d stopped writing (see its message): no more output is "
                     "written", rank);
}

int gale_ioclient_failed(gale_ioclient_t *c)
{
    for (int p = 0; p < c->l->pools && !c->told; p++) {
        int done = 0;
        if (c->fail[p] != MPI_REQUEST_NULL && MPI_Test(&c->fail[p], &done, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
            done)
            say_failed(c, c->server[p]);
    }
    return c->told;
}

int gale_ioclient_stop(gale_ioclient_t *c, gale_writer_stats_t *s, char **files, int *failed)
{
    const gale_io_link_t *l = c->l;
    *files = NULL;
    *failed = 0;
    double stop[4] = {H_STOP, 0, 0, 0}, fin[F_N];
    for (int p = 0; p < l->pools; p++)
        if (send_wait(stop, 4, MPI_DOUBLE, c->server[p], T_HDR, l->link) != GALE_OK)
            GALE_ERROR(GALE_ERR_MPI, "stopping I/O server rank %d failed", c->server[p]);
    size_t flen = 0;
    for (int p = 0; p < l->pools; p++) {
        GALE_CALL(recv(fin, F_N, MPI_DOUBLE, c->server[p], T_FINAL, l->link));
        /* a failure after this client's last piece is learnt here */
        if (fin[F_FAILED] != 0) *failed = 1, say_failed(c, c->server[p]);
        /* a FAIL this server sent arrives; one it never sent is withdrawn */
        if (fin[F_TOLD] != 0) GALE_CALL(gale_io_wait(1, &c->fail[p]));
        else if (c->fail[p] != MPI_REQUEST_NULL) {
            GALE_MPI(MPI_Cancel(&c->fail[p]));
            GALE_MPI(MPI_Wait(&c->fail[p], MPI_STATUS_IGNORE));
        }
        /* the files are counted as the writer records their names */
        s->bytes += (long long)fin[F_BYTES];
        s->t_server_writing += fin[F_WRITING];
        s->t_server_life += fin[F_LIFE];
        /* on this client's clock; the servers may open mesh.nc before its start */
        const double open = fin[F_OPEN] - s->t_ref > 0 ? fin[F_OPEN] - s->t_ref : 0;
        if (fin[F_OPEN] >= 0 && (s->t_first_open < 0 || open < s->t_first_open))
            s->t_first_open = open;
        if (fin[F_CLOSE] >= 0 && fin[F_CLOSE] - s->t_ref > s->t_last_close)
            s->t_last_close = fin[F_CLOSE] - s->t_ref;
        const int n = (int)fin[F_FLEN];
        if (n > 0) {
            char *f = realloc(*files, flen + (size_t)n + 1);
            if (!f) GALE_ERROR(GALE_ERR_MEM, "out of memory");
            *files = f;
            GALE_CALL(recv(f + flen, n, MPI_CHAR, c->server[p], T_FILES, l->link));
            flen += (size_t)n;
            f[flen] = '\0';
        }
    }
    return GALE_OK;
}

void gale_ioclient_free(gale_ioclient_t **cp)
{
    gale_ioclient_t *c = *cp;
    if (!c) return;
    gale_free(c->server);
    gale_free(c->fail);
    gale_free(c->failbuf);
    gale_free(c->hdr);
    free(c);
    *cp = NULL;
}

/* ---- the server ---- */

typedef struct {
    gale_io_link_t *l;
    MPI_Comm comm;
    int nc, *client;           /* its clients' ranks in the link */
    int nlev, nvars;
    gale_cs_t cs;
    double *z;
    gale_outvar_t *vars;
    int64_t *rpp;
    int *npieces;
    char *config;
    /* rows: per location, the clients' counts and offsets in the staging
     * order (client by client), and for each row of the union in gid order
     * its position in that order */
    int64_t *cnt[2], *base[2], total[2];
    gale_gid_t *gid[2];
    int64_t *src[2];
    double *stage;
    MPI_Request *req;
} server_t;

typedef struct {
    gale_gid_t gid;
    int64_t at;
} pair_t;

static int cmp_pair(const void *a, const void *b)
{
    const pair_t *x = a, *y = b;
    return x->gid < y->gid ? -1 : x->gid > y->gid;
}

static int setup(server_t *sv, int *nooutput)
{
    gale_io_link_t *l = sv->l;
    const int c0 = l->client_rank[0];
    int n;
    GALE_CALL(probe(c0, T_SETUP, l->link, MPI_BYTE, &n));
    char *b = malloc((size_t)n + 1), *at = b;
    if (!b) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    GALE_CALL(recv(b, n, MPI_BYTE, c0, T_SETUP, l->link));
    *nooutput = n == 0;
    if (*nooutput) {
        free(b);
        return GALE_OK;
    }
    int head[3];
#define GET(dst, bytes) (memcpy((dst), at, (bytes)), at += (bytes))
    GET(head, sizeof head);
    sv->nlev = head[0], sv->nvars = head[1];
    GET(&sv->cs, sizeof sv->cs);
    GALE_ALLOC(sv->z, 2 * sv->nlev + 1);
    GALE_ALLOC(sv->vars, sv->nvars);
    GALE_ALLOC(sv->rpp, sv->nvars);
    GALE_ALLOC(sv->npieces, sv->nvars);
    GET(sv->z, (size_t)(2 * sv->nlev + 1) * 8);
    GET(sv->vars, (size_t)sv->nvars * sizeof *sv->vars);
    GET(sv->rpp, (size_t)sv->nvars * sizeof *sv->rpp);
    GET(sv->npieces, (size_t)sv->nvars * sizeof *sv->npieces);
    GALE_ALLOC(sv->config, head[2] + 1);
    GET(sv->config, (size_t)head[2]);
#undef GET
    free(b);

    /* its clients: those whose server in its pool it is */
    const int spp = l->servers / l->pools, mine = l->index % spp;
    GALE_ALLOC(sv->client, l->nclients);
    for (int c = 0; c < l->nclients; c++)
        if ((int)((int64_t)c * spp / l->nclients) == mine) sv->client[sv->nc++] = l->client_rank[c];
    int *rows[sv->nc + 1];
    for (int k = 0; k < 2; k++) {
        GALE_ALLOC(sv->cnt[k], sv->nc);
        GALE_ALLOC(sv->base[k], sv->nc);
    }
    for (int i = 0; i < sv->nc; i++) {
        GALE_CALL(probe(sv->client[i], T_ROWS, l->link, MPI_INT, &n));
        GALE_ALLOC(rows[i], n);
        GALE_CALL(recv(rows[i], n, MPI_INT, sv->client[i], T_ROWS, l->link));
        for (int k = 0; k < 2; k++) {
            sv->cnt[k][i] = rows[i][k];
            sv->base[k][i] = sv->total[k];
            sv->total[k] += rows[i][k];
        }
    }
    /* the union in gid order */
    for (int k = 0; k < 2; k++) {
        pair_t *t;
        GALE_ALLOC(t, sv->total[k] + 1);
        for (int i = 0; i < sv->nc; i++)
            for (int64_t r = 0; r < sv->cnt[k][i]; r++)
                t[sv->base[k][i] + r] = (pair_t){rows[i][2 + (k ? sv->cnt[0][i] : 0) + r],
                                                 sv->base[k][i] + r};
        qsort(t, (size_t)sv->total[k], sizeof *t, cmp_pair);
        GALE_ALLOC(sv->gid[k], sv->total[k] + 1);
        GALE_ALLOC(sv->src[k], sv->total[k] + 1);
        for (int64_t u = 0; u < sv->total[k]; u++) sv->gid[k][u] = t[u].gid, sv->src[k][u] = t[u].at;
        gale_free(t);
    }
    for (int i = 0; i < sv->nc; i++) gale_free(rows[i]);
    /* staging for the largest variable, and a request per client piece */
    int64_t most = 1, reqs = 1;
    for (int v = 0; v < sv->nvars; v++) {
        const int64_t e = sv->total[sv->vars[v].loc] * rowlen(&sv->vars[v], sv->nlev);
        most = e > most ? e : most;
        reqs = sv->npieces[v] > reqs ? sv->npieces[v] : reqs;
    }
    GALE_ALLOC(sv->stage, most);
    GALE_ALLOC(sv->req, reqs * sv->nc);
    return GALE_OK;
}

/* Every client's pieces of variable v, then the union's rows in gid order
 * into the server's writer. */
static int serve_var(server_t *sv, gale_writer_t *w, int v)
{
    const gale_outvar_t *var = &sv->vars[v];
    const int loc = var->loc, rl = rowlen(var, sv->nlev);
    const int64_t rpp = sv->rpp[v];
    int nreq = 0;
    for (int i = 0; i < sv->nc; i++)
        for (int p = 0; p < sv->npieces[v]; p++) {
            int64_t r0 = (int64_t)p * rpp, r1 = r0 + rpp;
            r0 = r0 < sv->cnt[loc][i] ? r0 : sv->cnt[loc][i];
            r1 = r1 < sv->cnt[loc][i] ? r1 : sv->cnt[loc][i];
            GALE_MPI(MPI_Irecv(sv->stage + (sv->base[loc][i] + r0) * rl, (int)((r1 - r0) * rl),
                               MPI_DOUBLE, sv->client[i], T_DATA, sv->l->link, &sv->req[nreq++]));
        }
    if (gale_io_wait(nreq, sv->req) != GALE_OK)
        GALE_ERROR(GALE_ERR_MPI, "receiving output from the clients failed");
    for (int q = 0; q < gale_writer_npieces(w, v); q++) {
        int r0, r1;
        double *dst;
        gale_writer_piece_rows(w, v, q, &r0, &r1);
        GALE_CALL(gale_writer_put(w, v, q, &dst));
        for (int u = r0; u < r1; u++)
            memcpy(dst + (size_t)(u - r0) * rl, sv->stage + sv->src[loc][u] * rl, (size_t)rl * 8);
    }
    return GALE_OK;
}

static int serve(server_t *sv, const gale_writer_opts_t *tmpl, int *failed)
{
    gale_io_link_t *l = sv->l;
    int pool_rank;
    GALE_MPI(MPI_Comm_rank(sv->comm, &pool_rank));
    gale_writer_opts_t o = *tmpl;
    o.mode = GALE_WRITER_SHARED;
    o.link = NULL;
    o.no_mesh = l->index / (l->servers / l->pools) != 0; /* the first pool writes mesh.nc */
    o.cs = &sv->cs;
    o.nlev = sv->nlev;
    o.z_c = sv->z;
    o.z_if = sv->z + sv->nlev;
    o.ncell = (int)sv->total[0];
    o.nedge = (int)sv->total[1];
    o.cell_gid = sv->gid[0];
    o.edge_gid = sv->gid[1];
    o.nvars = sv->nvars;
    o.vars = sv->vars;
    o.config_text = sv->config;
    gale_writer_t *w = NULL;
    const int hl = 4 + sv->nvars; /* a header: kind, step, time, count, variables */
    double *hdr_all;
    GALE_ALLOC(hdr_all, (int64_t)sv->nc * hl);
    double(*hdr)[hl] = (double(*)[hl])hdr_all;
    int st = gale_writer_create(&w, &o, sv->comm), told = 0;
    MPI_Request req[sv->nc];
    while (st == GALE_OK) {
        for (int i = 0; i < sv->nc && st == GALE_OK; i++)
            if (MPI_Irecv(hdr[i], hl, MPI_DOUBLE, sv->client[i], T_HDR, l->link, &req[i]) !=
                MPI_SUCCESS)
                st = GALE_ERR_MPI;
        if (st != GALE_OK || gale_io_wait(sv->nc, req) != GALE_OK) {
            st = gale_error_raise(GALE_ERR_MPI, __FILE__, __LINE__, __func__,
                                  "receiving from the clients failed");
            break;
        }
        for (int i = 1; i < sv->nc; i++)
            if (hdr[i][0] != hdr[0][0] || hdr[i][1] != hdr[0][1])
                st = gale_error_raise(GALE_ERR_INTERNAL, __FILE__, __LINE__, __func__,
                                      "I/O server: clients out of step");
        if (st != GALE_OK || hdr[0][0] == H_STOP) break;
        const int nfv = (int)hdr[0][3];
        int fv[nfv + 1];
        for (int i = 0; i < nfv; i++) fv[i] = (int)hdr[0][4 + i];
        st = gale_writer_begin(w, (int)hdr[0][1], hdr[0][2], nfv, fv);
        for (int i = 0; i < nfv && st == GALE_OK; i++) st = serve_var(sv, w, fv[i]);
        if (st == GALE_OK) st = gale_writer_end(w);
        if (st == GALE_OK && !told && gale_writer_failed(w)) {
            /* the clients learn it at their next output */
            told = 1;
            for (int i = 0; i < sv->nc; i++)
                if (MPI_Send(&told, 1, MPI_INT, sv->client[i], T_FAIL, l->link) != MPI_SUCCESS)
                    st = GALE_ERR_MPI;
        }
    }
    gale_free(hdr_all);
    if (st != GALE_OK) {
        gale_writer_free(&w);
        return st; /* a broken protocol or MPI: not agreed, the job aborts */
    }
    GALE_CALL(gale_writer_finish(w));
    gale_writer_stats_t s;
    gale_writer_stats(w, &s);
    *failed = gale_writer_failed(w);
    /* the writer's times are since its own start: on the clients' clock
     * (gale_wtime) they compare with theirs */
    const double t0 = s.t_ref;
    const int flen = (int)strlen(s.files);
    for (int i = 0; i < sv->nc && st == GALE_OK; i++) {
        double fin[F_N] = {0};
        fin[F_FAILED] = *failed, fin[F_TOLD] = told, fin[F_OPEN] = -1, fin[F_CLOSE] = -1;
        if (i == 0) {
            fin[F_BYTES] = (double)s.bytes;
            fin[F_WRITING] = s.t_writing, fin[F_LIFE] = s.t_writer_life;
            fin[F_OPEN] = s.t_first_open < 0 ? -1 : t0 + s.t_first_open;
            fin[F_CLOSE] = s.t_last_close < 0 ? -1 : t0 + s.t_last_close;
            fin[F_FLEN] = flen;
        }
        if (MPI_Send(fin, F_N, MPI_DOUBLE, sv->client[i], T_FINAL, l->link) != MPI_SUCCESS ||
            (i == 0 && flen > 0 &&
             MPI_Send(s.files, flen, MPI_CHAR, sv->client[i], T_FILES, l->link) != MPI_SUCCESS))
            st = GALE_ERR_MPI;
    }
    gale_writer_free(&w);
    if (st != GALE_OK) GALE_ERROR(st, "reporting to the clients failed");
    return GALE_OK;
}

int gale_io_serve(gale_io_link_t *l, MPI_Comm comm, const gale_writer_opts_t *o, int abort)
{
    server_t sv = {.l = l};
    int nooutput = 0, failed = 0, st;
    MPI_Comm pool = MPI_COMM_NULL;
    const int spp = l->servers / l->pools;
    GALE_MPI(MPI_Comm_split(comm, l->index / spp, l->index, &pool));
    sv.comm = pool;
    st = setup(&sv, &nooutput);
    if (st == GALE_OK && !nooutput) st = serve(&sv, o, &failed);
    if (st == GALE_OK) {
        int status;
        st = recv(&status, 1, MPI_INT, l->client_rank[0], T_DONE, l->link);
        /* the clients' collective error, or this server's failure */
        if (st == GALE_OK) st = status != GALE_OK ? status : failed && abort ? GALE_ERR_OUTPUT : GALE_OK;
    }
    MPI_Comm_free(&pool);
    gale_free(sv.client);
    gale_free(sv.z);
    gale_free(sv.vars);
    gale_free(sv.rpp);
    gale_free(sv.npieces);
    gale_free(sv.config);
    for (int k = 0; k < 2; k++) {
        gale_free(sv.cnt[k]);
        gale_free(sv.base[k]);
        gale_free(sv.gid[k]);
        gale_free(sv.src[k]);
    }
    gale_free(sv.stage);
    gale_free(sv.req);
    return st;
}
