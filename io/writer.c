/* The output writer: a ring of buffers between the model ("client") and a
 * writer thread that owns every HDF5 call (gale_io.h, docs/output.md).
 *
 * The client hands over pieces: BEGIN (a new output time), DATA (rows of
 * one variable, copied into the ring), END. The ring is one circular region
 * of [io] buffers x buffer_mib bytes; a piece is at most one buffer (a
 * variable is cut into as many pieces as that takes) and takes the next
 * free stretch of the ring, so several output times can be in flight. When
 * the ring is full the client waits (its blocked time) until the writer has
 * freed enough. A piece is handed over once complete, at the client's next
 * call. The writer takes pieces in order and turns them into files:
 *  - shared: every rank's writer writes the one file collectively (parallel
 *    HDF5 over MPI-IO with the [io] hints), each its rows in gid order;
 *  - per_rank: each writer its own file with the serial driver;
 *  - aggregated: the writers of a group send their pieces to the group
 *    leader's writer, which writes the group's file;
 *  - to I/O servers ([io] servers): the writer sends each piece to its
 *    server (io/server.c) and frees it once sent; the servers write.
 * Every rank hands over the same sequence of pieces, so the writers' MPI
 * calls match without any extra coordination.
 *
 * Failures: a shared file is one collective object, so a writer's local
 * error is only "pending" until the next agreement (an allreduce on the
 * writers' communicator before every collective step); then every writer
 * stops together, abandons the file collectively, and fails. Per-rank and
 * group writers fail on their own, but keep taking part in the group's
 * messages so that no other writer waits for them. */
#include "gale_io.h"
#include "gale_ioserver.h"
#include "gale_nc4.h"
#include "gale_outfile.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum { P_BEGIN, P_DATA, P_END };

/* as on_begin, the XDMF index and the mesh file below name them */
const char *const gale_io_output_names[] = {"gale_#.nc", "gale_#_r#.nc", "gale_#_g#.nc",
                                            "gale_#.xmf", "mesh.nc", NULL};

/* One piece: BEGIN carries the output time and its variable list (owned by
 * the piece until the writer takes it), DATA rows [row0, row0 + nrows) of
 * variable var at offset off in the ring; span is the ring space it holds
 * (its bytes, plus the unused end of the ring when it wrapped). */
typedef struct {
    int kind, var, step, nfv;
    int64_t row0, nrows;
    size_t off, span;
    double time;
    int *fvars;
} piece_t;

/* Pieces in flight at most (zero-byte pieces take no ring space). */
#define QCAP 4096

/* Cap on a piece: message counts stay far below INT_MAX. */
#define MAX_PIECE_DOUBLES ((int64_t)1 << 25)

struct gale_writer {
    gale_writer_opts_t o; /* its pointers point to the copies below */
    char *dir, *config;
    gale_outvar_t *vars;
    int *cell_gid, *edge_gid; /* this rank's rows (ids of C_N fit an int for N <= 13377) */
    int rank, nranks;
    MPI_Comm comm;  /* the writers' own duplicate of the model's communicator */
    MPI_Info info;  /* MPI-IO hints (shared) */
    /* aggregated: the group, and on its leader the members' rows */
    MPI_Comm gcomm;
    int group, ngroups, grank, gsize;
    int64_t *mrows[2], *moff[2], grows[2];
    int *ggid[2];
    double *gbuf;
    size_t gbuf_cap;
    /* pieces */
    int64_t *rpp; /* [nvars] rows per piece */
    int *npieces;
    /* the ring: the client writes at head; used (under mu) is the space held
     * by pieces not yet written; q holds pieces qdone <= i < qn (modulo
     * QCAP), those below qready are handed over */
    size_t bufbytes, cap, head, used;
    char *ring;
    piece_t *q;
    long qn, qready, qdone;
    int started, threaded, stop, finished;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv_full, cv_free;
    int (*exec_fn)(void *);
    void *exec_arg;
    int exec_status, exec_done;
    int failed; /* under mu */
    gale_ioclient_t *cl; /* I/O servers: the writer sends instead */
    /* writer side */
    hid_t fapl;
    gale_outfile_t of;
    int open, pending; /* a file is open; a local error not yet agreed (shared) */
    char path[4200];
    int step, nfv, hints_logged;
    char hints[1024]; /* "key asked kept\n" for each hint set ("-": dropped) */
    double time;
    int *fvars;
    int64_t *runs;
    size_t runs_cap;
    /* statistics */
    double t_ref, t_create, t_life0;
    gale_writer_stats_t s;
    char *files;
    size_t flen, fcap;
};

/* ---- small helpers ---- */

static int rowlen(const gale_writer_t *w, int var)
{
    const gale_outvar_t *v = &w->vars[var];
    return v->vert == GALE_OUT_2D ? 1 : v->vert == GALE_OUT_LAYERS ? w->o.nlev : w->o.nlev + 1;
}

static int64_t nrows_local(const gale_writer_t *w, int var)
{
    return w->vars[var].loc == GALE_OUT_FACE ? w->o.ncell : w->o.nedge;
}

static int set_failed(gale_writer_t *w)
{
    pthread_mutex_lock(&w->mu);
    w->failed = 1;
    pthread_mutex_unlock(&w->mu);
    return GALE_ERR_IO;
}

int gale_writer_failed(gale_writer_t *w)
{
    pthread_mutex_lock(&w->mu);
    int f = w->failed;
    pthread_mutex_unlock(&w->mu);
    return f;
}

/* A local error: shared writers hold it until the next agreement. */
static void local_error(gale_writer_t *w)
{
    if (w->o.mode == GALE_WRITER_SHARED) w->pending = 1;
    else set_failed(w);
}

/* Shared mode: 1 if no writer has an error pending; else every writer fails. */
static int agree(gale_writer_t *w)
{
    int bad = w->pending, out = 1;
    MPI_Request req;
    if (MPI_Iallreduce(&bad, &out, 1, MPI_INT, MPI_MAX, w->comm, &req) != MPI_SUCCESS ||
        gale_io_wait(1, &req) != GALE_OK)
        out = 1;
    bad = out;
    if (!bad) return 1;
    set_failed(w);
    return 0;
}

static void record_file(gale_writer_t *w, const char *path, long long bytes)
{
    size_t n = strlen(path) + 1;
    if (w->flen + n + 1 > w->fcap) {
        size_t cap = 2 * (w->fcap + n + 1);
        char *p = realloc(w->files, cap);
        if (!p) return; /* the list is a report, not the output */
        w->files = p;
        w->fcap = cap;
    }
    memcpy(w->files + w->flen, path, n - 1);
    w->flen += n;
    w->files[w->flen - 1] = '\n';
    w->files[w->flen] = '\0';
    w->s.bytes += bytes;
    w->s.nfiles++;
    gale_log(GALE_LOG_DEBUG, "io: wrote %s (%lld bytes)", path, bytes);
}

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : 0;
}

static void mark_open(gale_writer_t *w)
{
    if (w->s.t_first_open < 0) w->s.t_first_open = gale_wtime() - w->t_ref;
}

/* ---- the writer's side: turning pieces into files ---- */

static void file_spec(gale_writer_t *w, gale_outfile_spec_t *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->mode = w->o.mode;
    sp->o = &w->o;
    sp->step = w->step;
    sp->time = w->time;
    sp->nfv = w->nfv;
    sp->fvars = w->fvars;
    switch (w->o.mode) {
    case GALE_WRITER_SHARED:
        sp->nface = w->o.cs->ncells;
        sp->nedge = w->o.cs->nedges;
        sp->part = w->rank;
        sp->nparts = w->nranks;
        break;
    case GALE_WRITER_PER_RANK:
        sp->nface = w->o.ncell;
        sp->nedge = w->o.nedge;
        sp->face_gid = w->cell_gid;
        sp->edge_gid = w->edge_gid;
        sp->part = w->rank;
        sp->nparts = w->nranks;
        break;
    default:
        sp->nface = w->grows[0];
        sp->nedge = w->grows[1];
        sp->face_gid = w->ggid[0];
        sp->edge_gid = w->ggid[1];
        sp->part = w->group;
        sp->nparts = w->ngroups;
    }
}

/* The file failed: say which, once (on rank 0 for a shared file). */
static void file_failed(gale_writer_t *w)
{
    gale_outfile_abort(&w->of);
    w->open = 0;
    if (w->o.mode != GALE_WRITER_SHARED || w->rank == 0)
        gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__,
                         "output file %s was not written (its temporary file was removed)",
                         w->path);
}

/* What the file system kept of each hint gale set: ROMIO drops the ones its
 * driver for this file system does not know (striping outside Lustre). */
static void hints_kept(gale_writer_t *w, const char *in_effect)
{
    size_t len = 0;
    int nkeys = 0;
    if (w->info == MPI_INFO_NULL || MPI_Info_get_nkeys(w->info, &nkeys) != MPI_SUCCESS) return;
    for (int i = 0; i < nkeys && len < sizeof w->hints; i++) {
        char key[MPI_MAX_INFO_KEY + 1], asked[64], pat[MPI_MAX_INFO_KEY + 3], kept[64] = "-";
        int flag = 0;
        if (MPI_Info_get_nthkey(w->info, i, key) != MPI_SUCCESS ||
            MPI_Info_get(w->info, key, sizeof asked - 1, asked, &flag) != MPI_SUCCESS || !flag)
            continue;
        snprintf(pat, sizeof pat, "%s=", key);
        for (const char *at = strstr(in_effect, pat); at; at = strstr(at + 1, pat))
            if (at == in_effect || at[-1] == ' ') {
                snprintf(kept, sizeof kept, "%.*s", (int)strcspn(at + strlen(pat), " "), at + strlen(pat));
                break;
            }
        len += (size_t)snprintf(w->hints + len, sizeof w->hints - len, "%s %s %s\n", key, asked, kept);
    }
}

static void on_begin(gale_writer_t *w, piece_t *p)
{
    free(w->fvars);
    w->fvars = p->fvars; /* the writer owns the list now */
    p->fvars = NULL;
    w->nfv = p->nfv;
    w->step = p->step;
    w->time = p->time;
    const int mode = w->o.mode;
    if (mode == GALE_WRITER_SHARED) snprintf(w->path, sizeof w->path, "%s/gale_%06d.nc", w->dir, w->step);
    else if (mode == GALE_WRITER_PER_RANK)
        snprintf(w->path, sizeof w->path, "%s/gale_%06d_r%05d.nc", w->dir, w->step, w->rank);
    else snprintf(w->path, sizeof w->path, "%s/gale_%06d_g%04d.nc", w->dir, w->step, w->group);
    if (gale_writer_failed(w)) return;
    /* a full disk is met here, before any HDF5 write (gale_outfile_room):
     * the one who writes the file checks its file system */
    gale_outfile_spec_t sp;
    file_spec(w, &sp);
    const long long need = gale_outfile_need(&sp);
    const int holder = mode == GALE_WRITER_SHARED ? w->rank == 0
                       : mode == GALE_WRITER_AGGREGATED ? w->grank == 0 : 1;
    char why[4400];
    if (holder && gale_outfile_room(w->path, need, why, sizeof why) != GALE_OK) {
        gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__, "%s", why);
        local_error(w);
    }
    if (mode == GALE_WRITER_SHARED && !agree(w)) return;
    if (gale_writer_failed(w) || (!holder && mode == GALE_WRITER_AGGREGATED)) return;
    mark_open(w);
    int st = gale_outfile_create(&w->of, w->path, w->fapl, &sp);
    w->open = w->of.nc != NULL;
    if (st == GALE_OK && holder && gale_outfile_hold(w->path, need, why, sizeof why) != GALE_OK) {
        gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__, "%s", why);
        st = GALE_ERR_IO;
    }
    if (st != GALE_OK) {
        /* shared: the writers abandon the file together at the next agreement */
        local_error(w);
        if (mode != GALE_WRITER_SHARED) file_failed(w);
        return;
    }
    if (mode == GALE_WRITER_SHARED && !w->hints_logged) {
        char hints[2048];
        w->hints_logged = 1;
        if (gale_nc4_hints(w->of.nc, hints, sizeof hints) == GALE_OK) {
            gale_log(GALE_LOG_INFO, "io: MPI-IO hints in effect: %s", hints);
            hints_kept(w, hints);
        }
    }
}

/* Shared: this rank's rows of a piece are rows of the global variable in
 * runs of consecutive gids. */
static int put_shared(gale_writer_t *w, const piece_t *p, const double *data)
{
    const int *gid = w->vars[p->var].loc == GALE_OUT_FACE ? w->cell_gid : w->edge_gid;
    size_t need = 2 * (size_t)(p->nrows + 1);
    if (need > w->runs_cap) {
        int64_t *r = realloc(w->runs, need * sizeof *r);
        if (!r) GALE_ERROR(GALE_ERR_MEM, "out of memory for %lld runs", (long long)p->nrows);
        w->runs = r;
        w->runs_cap = need;
    }
    int64_t *start = w->runs, *count = w->runs + p->nrows + 1;
    int n = 0;
    for (int64_t r = p->row0; r < p->row0 + p->nrows; r++) {
        if (n && gid[r] == start[n - 1] + count[n - 1]) count[n - 1]++;
        else start[n] = gid[r], count[n++] = 1;
    }
    return gale_nc4_put_runs(w->of.nc, w->of.varid[p->var], 0, n, start, count, data);
}

/* Aggregated: the leader receives every member's rows of the piece and
 * writes each member's block; the members send theirs. */
static int put_group(gale_writer_t *w, const piece_t *p, const double *data)
{
    const int loc = w->vars[p->var].loc, rl = rowlen(w, p->var);
    const int64_t rpp = w->rpp[p->var];
    if (w->grank != 0) {
        MPI_Request req;
        if (p->nrows > 0 &&
            (MPI_Isend(data, (int)(p->nrows * rl), MPI_DOUBLE, 0, 0, w->gcomm, &req) != MPI_SUCCESS ||
             gale_io_wait(1, &req) != GALE_OK))
            GALE_ERROR(GALE_ERR_MPI, "sending output rows to the group's writer failed");
        return GALE_OK;
    }
    int64_t rows[w->gsize], total = 0;
    for (int m = 0; m < w->gsize; m++) {
        int64_t left = w->mrows[loc][m] - p->row0;
        rows[m] = left < 0 ? 0 : left < rpp ? left : rpp;
        total += rows[m];
    }
    if ((size_t)(total * rl) > w->gbuf_cap) {
        double *g = realloc(w->gbuf, (size_t)(total * rl) * sizeof *g);
        if (!g) GALE_ERROR(GALE_ERR_MEM, "out of memory gathering output rows");
        w->gbuf = g;
        w->gbuf_cap = (size_t)(total * rl);
    }
    MPI_Request req[w->gsize];
    int nreq = 0;
    double *at[w->gsize];
    size_t off = 0;
    for (int m = 0; m < w->gsize; m++) {
        at[m] = m == 0 ? (double *)data : w->gbuf + off;
        if (m > 0 && rows[m] > 0) {
            if (MPI_Irecv(at[m], (int)(rows[m] * rl), MPI_DOUBLE, m, 0, w->gcomm, &req[nreq++]) !=
                MPI_SUCCESS)
                GALE_ERROR(GALE_ERR_MPI, "receiving output rows from the group failed");
            off += (size_t)(rows[m] * rl);
        }
    }
    if (gale_io_wait(nreq, req) != GALE_OK)
        GALE_ERROR(GALE_ERR_MPI, "receiving output rows from the group failed");
    if (!w->open) return GALE_OK; /* failed earlier: the messages still had to be taken */
    for (int m = 0; m < w->gsize; m++) {
        if (rows[m] == 0) continue;
        int64_t start = w->moff[loc][m] + p->row0;
        GALE_CALL(gale_nc4_put_runs(w->of.nc, w->of.varid[p->var], 0, 1, &start, &rows[m], at[m]));
    }
    return GALE_OK;
}

static void on_data(gale_writer_t *w, const piece_t *p, const double *data)
{
    int st = GALE_OK;
    switch (w->o.mode) {
    case GALE_WRITER_SHARED:
        if (gale_writer_failed(w)) return;
        if (!agree(w)) {
            file_failed(w);
            return;
        }
        if (w->of.varid[p->var] >= 0) st = put_shared(w, p, data);
        break;
    case GALE_WRITER_PER_RANK:
        if (!w->open || w->of.varid[p->var] < 0 || p->nrows == 0) return;
        st = gale_nc4_put_runs(w->of.nc, w->of.varid[p->var], 0, 1, &p->row0, &p->nrows, data);
        break;
    default:
        st = put_group(w, p, data);
    }
    if (st == GALE_OK) {
        w->s.data_bytes += p->nrows * rowlen(w, p->var) * (int64_t)sizeof(double);
        return;
    }
    local_error(w);
    if (w->o.mode != GALE_WRITER_SHARED) file_failed(w); /* shared: at the agreement */
}

static void on_end(gale_writer_t *w)
{
    if (w->o.mode == GALE_WRITER_SHARED) {
        if (gale_writer_failed(w)) return;
        if (!agree(w)) {
            file_failed(w);
            return;
        }
    }
    if (!w->open) return;
    w->open = 0;
    if (gale_outfile_commit(&w->of) != GALE_OK) {
        /* a parallel commit agrees by itself */
        if (w->o.mode == GALE_WRITER_SHARED) set_failed(w);
        else local_error(w);
        file_failed(w);
        return;
    }
    w->s.t_last_close = gale_wtime() - w->t_ref;
    if (w->o.mode == GALE_WRITER_SHARED && w->rank != 0) return;
    gale_outfile_release(w->path); /* the reserved blocks past its end */
    record_file(w, w->path, file_size(w->path));
    if (w->o.mode == GALE_WRITER_SHARED && w->o.xdmf) {
        char xmf[4200], ncname[64];
        long long bytes = 0;
        snprintf(xmf, sizeof xmf, "%s/gale_%06d.xmf", w->dir, w->step);
        snprintf(ncname, sizeof ncname, "gale_%06d.nc", w->step);
        gale_outfile_spec_t sp;
        file_spec(w, &sp);
        if (gale_outfile_xdmf(xmf, ncname, "mesh.nc", &sp, &bytes) != GALE_OK) local_error(w);
        else record_file(w, xmf, bytes);
        w->s.t_last_close = gale_wtime() - w->t_ref;
    }
}

/* I/O servers: the piece goes to the server; a failure the server reported
 * is this writer's (the clients agree on it as on their own). */
static void send_piece(gale_writer_t *w, piece_t *p)
{
    int st = GALE_OK;
    if (p->kind == P_BEGIN) {
        st = gale_ioclient_begin(w->cl, p->step, p->time, p->nfv, p->fvars);
        free(p->fvars); /* the piece owned it: sent */
        p->fvars = NULL;
    } else if (p->kind == P_DATA) {
        st = gale_ioclient_data(w->cl, (const double *)(w->ring + p->off), p->nrows * rowlen(w, p->var));
        if (st == GALE_OK) w->s.data_bytes += p->nrows * rowlen(w, p->var) * (int64_t)sizeof(double);
    }
    if (st != GALE_OK || gale_ioclient_failed(w->cl)) set_failed(w);
}

static void process(gale_writer_t *w, piece_t *p)
{
    double t = gale_wtime();
    if (w->cl) send_piece(w, p);
    else if (p->kind == P_BEGIN) on_begin(w, p);
    else if (p->kind == P_DATA) on_data(w, p, (const double *)(w->ring + p->off));
    else on_end(w);
    w->s.t_writing += gale_wtime() - t;
}

/* Writes the next handed-over piece and frees its space; called with mu
 * held, returns with it held. */
static void write_next(gale_writer_t *w)
{
    piece_t *p = &w->q[w->qdone % QCAP];
    pthread_mutex_unlock(&w->mu);
    process(w, p);
    pthread_mutex_lock(&w->mu);
    w->used -= p->span;
    w->qdone++;
    pthread_cond_broadcast(&w->cv_free);
}

/* On the HDF5 thread, before the first file: the file access property list
 * and the mesh file (which per-rank and group files refer to, and which
 * holds the 3-D grid of the XDMF sidecars). */
static void writer_start(gale_writer_t *w)
{
    int st = GALE_OK;
    const int shared = w->o.mode == GALE_WRITER_SHARED;
    w->t_life0 = gale_wtime();
    GALE_H5(H5Eset_auto2(H5E_DEFAULT, NULL, NULL));
    if (w->cl) return; /* the servers write the files and the mesh */
    GALE_H5(w->fapl = H5Pcreate(H5P_FILE_ACCESS));
    if (shared) {
        GALE_H5(H5Pset_fapl_mpio(w->fapl, w->comm, w->info));
        /* Metadata reads and writes as collective operations: one rank
         * reads and broadcasts instead of every rank hitting the file. */
        GALE_H5(H5Pset_all_coll_metadata_ops(w->fapl, 1));
        GALE_H5(H5Pset_coll_metadata_write(w->fapl, 1));
    }
    if (w->o.alignment > 0)
        GALE_H5(H5Pset_alignment(w->fapl, (hsize_t)w->o.alignment, (hsize_t)w->o.alignment));
    if ((!shared || w->o.xdmf) && w->rank == 0 && !w->o.no_mesh) {
        double t = gale_wtime();
        gale_io_grid3d_t g = {w->o.nlev, w->o.z_if,
                              gale_outfile_exaggeration(w->o.cs->radius, w->o.z_if[w->o.nlev])};
        snprintf(w->path, sizeof w->path, "%s/mesh.nc", w->dir);
        mark_open(w);
        if (gale_io_write_mesh_ex(w->o.cs, w->path, w->config, shared ? &g : NULL, 0) != GALE_OK) {
            gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__,
                             "the mesh file %s was not written", w->path);
            local_error(w);
        } else {
            record_file(w, w->path, file_size(w->path));
            w->s.t_last_close = gale_wtime() - w->t_ref;
        }
        w->s.t_writing += gale_wtime() - t;
    }
done:
    if (st != GALE_OK) local_error(w);
}

/* On the HDF5 thread, after the last buffer: shared writers settle a last
 * pending error (every writer gets here after the same pieces). */
static void writer_stop(gale_writer_t *w)
{
    if (w->cl) {
        char *files = NULL;
        int failed = 0;
        /* the servers' bytes were counted; their files are counted here */
        if (gale_ioclient_stop(w->cl, &w->s, &files, &failed) != GALE_OK || failed) set_failed(w);
        for (char *f = files, *nl; f && *f; f = nl + 1) {
            if (!(nl = strchr(f, '\n'))) break;
            *nl = '\0';
            record_file(w, f, 0);
        }
        free(files);
    } else if (w->o.mode == GALE_WRITER_SHARED && !gale_writer_failed(w)) agree(w);
    if (w->fapl >= 0) H5Pclose(w->fapl);
    w->fapl = H5I_INVALID_HID;
    w->s.t_writer_life = gale_wtime() - (w->threaded ? w->t_life0 : w->t_create);
}

static void *thread_main(void *arg)
{
    gale_writer_t *w = arg;
    writer_start(w);
    pthread_mutex_lock(&w->mu);
    for (;;) {
        if (w->qdone < w->qready) {
            write_next(w);
        } else if (w->exec_fn) {
            int (*fn)(void *) = w->exec_fn;
            pthread_mutex_unlock(&w->mu);
            int st = fn(w->exec_arg);
            pthread_mutex_lock(&w->mu);
            w->exec_fn = NULL;
            w->exec_status = st;
            w->exec_done = 1;
            pthread_cond_broadcast(&w->cv_free);
        } else if (w->stop) {
            break;
        } else {
            pthread_cond_wait(&w->cv_full, &w->mu);
        }
    }
    pthread_mutex_unlock(&w->mu);
    writer_stop(w);
    return NULL;
}

/* ---- the client's side ---- */

/* Hands over every piece queued so far (all are complete: the client fills
 * a piece before its next call); called with mu held. Synchronous mode
 * writes them now, on this thread, as the client's blocked time. */
static void hand_over(gale_writer_t *w)
{
    w->qready = w->qn;
    if (w->threaded) {
        pthread_cond_signal(&w->cv_full);
        return;
    }
    double t = gale_wtime();
    while (w->qdone < w->qready) write_next(w);
    w->s.t_blocked += gale_wtime() - t;
}

/* Queues a piece with `bytes` of ring space (64-byte aligned), waiting
 * while the ring is full. */
static int add_piece(gale_writer_t *w, const piece_t *p, size_t bytes, piece_t **out)
{
    if (w->finished) GALE_ERROR(GALE_ERR_INTERNAL, "output after the writer finished");
    bytes = (bytes + 63) / 64 * 64;
    pthread_mutex_lock(&w->mu);
    hand_over(w);
    if (w->used == 0) w->head = 0; /* an empty ring starts again at 0 */
    size_t off = w->head + bytes > w->cap ? 0 : w->head;
    size_t span = off == 0 && w->head ? w->cap - w->head + bytes : bytes;
    if (w->used + span > w->cap || w->qn - w->qdone >= QCAP) {
        double t = gale_wtime();
        w->s.full_waits++;
        while (w->used + span > w->cap || w->qn - w->qdone >= QCAP)
            pthread_cond_wait(&w->cv_free, &w->mu);
        w->s.t_blocked += gale_wtime() - t;
        if (w->used == 0) off = 0, span = bytes;
    }
    w->used += span;
    w->head = off + bytes;
    piece_t *q = &w->q[w->qn % QCAP];
    *q = *p;
    q->off = off;
    q->span = span;
    w->qn++;
    pthread_mutex_unlock(&w->mu);
    *out = q;
    return GALE_OK;
}

int gale_writer_npieces(const gale_writer_t *w, int var) { return w->npieces[var]; }

void gale_writer_piece_rows(const gale_writer_t *w, int var, int piece, int *r0, int *r1)
{
    int64_t n = nrows_local(w, var), a = (int64_t)piece * w->rpp[var];
    a = a < n ? a : n;
    *r0 = (int)a;
    *r1 = (int)(a + w->rpp[var] < n ? a + w->rpp[var] : n);
}

int gale_writer_begin(gale_writer_t *w, int step, double time, int nvars, const int *vars)
{
    piece_t p = {.kind = P_BEGIN, .step = step, .time = time, .nfv = nvars}, *q;
    GALE_ASSERT(nvars >= 1);
    if (!(p.fvars = malloc((size_t)nvars * sizeof *p.fvars)))
        GALE_ERROR(GALE_ERR_MEM, "out of memory");
    memcpy(p.fvars, vars, (size_t)nvars * sizeof *vars);
    int st = add_piece(w, &p, 0, &q);
    if (st != GALE_OK) free(p.fvars);
    return st;
}

int gale_writer_put(gale_writer_t *w, int var, int piece, double **dst)
{
    GALE_ASSERT(var >= 0 && var < w->o.nvars && piece >= 0 && piece < w->npieces[var]);
    int r0, r1;
    gale_writer_piece_rows(w, var, piece, &r0, &r1);
    piece_t p = {.kind = P_DATA, .var = var, .row0 = r0, .nrows = r1 - r0}, *q;
    GALE_CALL(add_piece(w, &p, (size_t)(r1 - r0) * (size_t)rowlen(w, var) * sizeof(double), &q));
    *dst = (double *)(w->ring + q->off);
    return GALE_OK;
}

int gale_writer_end(gale_writer_t *w)
{
    piece_t p = {.kind = P_END}, *q;
    GALE_CALL(add_piece(w, &p, 0, &q));
    pthread_mutex_lock(&w->mu);
    hand_over(w);
    pthread_mutex_unlock(&w->mu);
    return GALE_OK;
}

int gale_writer_exec(gale_writer_t *w, int (*fn)(void *), void *arg)
{
    if (!w->threaded || w->finished) return fn(arg);
    pthread_mutex_lock(&w->mu);
    hand_over(w);
    w->exec_fn = fn;
    w->exec_arg = arg;
    w->exec_done = 0;
    pthread_cond_signal(&w->cv_full);
    while (!w->exec_done) pthread_cond_wait(&w->cv_free, &w->mu);
    int st = w->exec_status;
    pthread_mutex_unlock(&w->mu);
    return st;
}

int gale_writer_finish(gale_writer_t *w)
{
    if (w->finished || !w->started) return GALE_OK;
    pthread_mutex_lock(&w->mu);
    hand_over(w); /* synchronous: writes what is left, as blocked time */
    if (w->threaded) {
        /* The final drain: the thread writes every piece handed over before
         * it looks at stop. */
        double t = gale_wtime();
        w->stop = 1;
        pthread_cond_signal(&w->cv_full);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->thread, NULL);
        w->threaded = 0;
        w->s.t_blocked += gale_wtime() - t;
    } else {
        pthread_mutex_unlock(&w->mu);
        writer_stop(w);
    }
    w->finished = 1;
    return GALE_OK;
}

void gale_writer_stats(const gale_writer_t *w, gale_writer_stats_t *s)
{
    *s = w->s;
    s->files = w->files ? w->files : "";
    s->hints = w->hints;
}

/* ---- set-up ---- */

/* Groups of [io] aggregators consecutive ranks, or one per node (0). The
 * leader (lowest rank) learns every member's rows and their global ids. */
static int setup_groups(gale_writer_t *w)
{
    int color = w->rank / (w->o.aggregators > 0 ? w->o.aggregators : 1);
    if (w->o.aggregators == 0) {
        MPI_Comm node;
        GALE_MPI(MPI_Comm_split_type(w->comm, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &node));
        color = w->rank;
        GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &color, 1, MPI_INT, MPI_MIN, node));
        GALE_MPI(MPI_Comm_free(&node));
    }
    GALE_MPI(MPI_Comm_split(w->comm, color, w->rank, &w->gcomm));
    GALE_MPI(MPI_Comm_rank(w->gcomm, &w->grank));
    GALE_MPI(MPI_Comm_size(w->gcomm, &w->gsize));
    int leader = w->grank == 0, before;
    GALE_MPI(MPI_Scan(&leader, &before, 1, MPI_INT, MPI_SUM, w->comm));
    GALE_MPI(MPI_Allreduce(&leader, &w->ngroups, 1, MPI_INT, MPI_SUM, w->comm));
    w->group = before - 1;
    GALE_MPI(MPI_Bcast(&w->group, 1, MPI_INT, 0, w->gcomm));
    const int mine[2] = {w->o.ncell, w->o.nedge};
    const int *gid[2] = {w->cell_gid, w->edge_gid};
    int cnt[2][w->gsize], displ[w->gsize];
    for (int l = 0; l < 2; l++) {
        GALE_MPI(MPI_Gather(&mine[l], 1, MPI_INT, cnt[l], 1, MPI_INT, 0, w->gcomm));
        if (leader) {
            GALE_ALLOC(w->mrows[l], w->gsize);
            GALE_ALLOC(w->moff[l], w->gsize);
            int64_t sum = 0;
            for (int m = 0; m < w->gsize; m++) {
                w->mrows[l][m] = cnt[l][m];
                w->moff[l][m] = sum;
                displ[m] = (int)sum;
                sum += cnt[l][m];
            }
            w->grows[l] = sum;
            GALE_ALLOC(w->ggid[l], sum + 1);
        }
        GALE_MPI(MPI_Gatherv(gid[l], mine[l], MPI_INT, w->ggid[l], cnt[l], displ, MPI_INT, 0,
                             w->gcomm));
    }
    return GALE_OK;
}

static int set_hint(MPI_Info info, const char *key, int value)
{
    char v[32];
    snprintf(v, sizeof v, "%d", value);
    if (value > 0) GALE_MPI(MPI_Info_set(info, key, v));
    return GALE_OK;
}

int gale_writer_create(gale_writer_t **wp, const gale_writer_opts_t *o, MPI_Comm comm)
{
    gale_writer_t *w = calloc(1, sizeof *w);
    *wp = w;
    if (!w) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    w->o = *o;
    w->comm = w->gcomm = MPI_COMM_NULL;
    w->info = MPI_INFO_NULL;
    w->fapl = H5I_INVALID_HID;
    w->s.t_first_open = w->s.t_last_close = -1;
    w->t_create = gale_wtime();
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv_full, NULL);
    pthread_cond_init(&w->cv_free, NULL);
    GALE_MPI(MPI_Comm_dup(comm, &w->comm));
    GALE_MPI(MPI_Comm_rank(w->comm, &w->rank));
    GALE_MPI(MPI_Comm_size(w->comm, &w->nranks));
    if (o->cs->nedges > INT_MAX || o->cs->nverts * (o->nlev + 1) > INT_MAX)
        GALE_ERROR(GALE_ERR_INPUT, "mesh C%d with %d levels is too large for output (int ids)",
                   o->cs->n, o->nlev);

    /* Own copies of everything the writer thread reads. */
    w->dir = strdup(o->dir);
    w->config = o->config_text ? strdup(o->config_text) : NULL;
    if (!w->dir || (o->config_text && !w->config)) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    w->o.dir = w->dir;
    w->o.config_text = w->config;
    GALE_ALLOC(w->vars, o->nvars);
    memcpy(w->vars, o->vars, (size_t)o->nvars * sizeof *w->vars);
    w->o.vars = w->vars;
    GALE_ALLOC(w->cell_gid, o->ncell + 1);
    GALE_ALLOC(w->edge_gid, o->nedge + 1);
    for (int i = 0; i < o->ncell; i++) w->cell_gid[i] = (int)o->cell_gid[i];
    for (int i = 0; i < o->nedge; i++) w->edge_gid[i] = (int)o->edge_gid[i];
    w->o.cell_gid = w->o.edge_gid = NULL;
    double *z;
    GALE_ALLOC(z, 2 * o->nlev + 1);
    memcpy(z, o->z_c, (size_t)o->nlev * sizeof *z);
    memcpy(z + o->nlev, o->z_if, (size_t)(o->nlev + 1) * sizeof *z);
    w->o.z_c = z;
    w->o.z_if = z + o->nlev;
    gale_cs_t *cs;
    GALE_ALLOC(cs, 1);
    *cs = *o->cs;
    w->o.cs = cs;

    /* Pieces: as many per variable on every rank, each fitting a buffer. */
    w->bufbytes = (size_t)(o->buffer_mib * 1048576.0) / 64 * 64;
    int64_t most[2] = {o->ncell, o->nedge};
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, most, 2, MPI_INT64_T, MPI_MAX, w->comm));
    GALE_ALLOC(w->rpp, o->nvars);
    GALE_ALLOC(w->npieces, o->nvars);
    for (int v = 0; v < o->nvars; v++) {
        int64_t rl = rowlen(w, v), rpp = (int64_t)(w->bufbytes / (size_t)(rl * 8));
        if (rpp > MAX_PIECE_DOUBLES / rl) rpp = MAX_PIECE_DOUBLES / rl;
        if (rpp < 1)
            GALE_ERROR(GALE_ERR_INPUT,
                       "[io] buffer_mib = %g is too small for one column of '%s' (%lld bytes)",
                       o->buffer_mib, o->vars[v].name, (long long)rl * 8);
        int64_t n = most[o->vars[v].loc];
        w->rpp[v] = rpp;
        w->npieces[v] = (int)((n + rpp - 1) / rpp);
        if (w->npieces[v] < 1) w->npieces[v] = 1;
    }
    /* The ring (synchronous: one buffer): untouched memory costs nothing
     * until the model fills it. */
    w->threaded = !o->synchronous;
    w->cap = (size_t)(w->threaded ? o->nbuffers : 1) * w->bufbytes;
    GALE_ALLOC(w->q, QCAP);
    if (!(w->ring = malloc(w->cap)))
        GALE_ERROR(GALE_ERR_MEM, "cannot allocate %d output buffers of %g MiB",
                   w->threaded ? o->nbuffers : 1, o->buffer_mib);

    if (o->link) GALE_CALL(gale_ioclient_connect(&w->cl, o->link, &w->o, w->cell_gid, w->edge_gid,
                                                 w->rpp, w->npieces));
    else if (o->mode == GALE_WRITER_AGGREGATED) GALE_CALL(setup_groups(w));
    else if (o->mode == GALE_WRITER_SHARED) {
        static const char *const cbw[3] = {NULL, "enable", "disable"};
        GALE_MPI(MPI_Info_create(&w->info));
        GALE_CALL(set_hint(w->info, "cb_nodes", o->cb_nodes));
        GALE_CALL(set_hint(w->info, "cb_buffer_size", o->cb_buffer_size));
        GALE_CALL(set_hint(w->info, "striping_factor", o->striping_factor));
        GALE_CALL(set_hint(w->info, "striping_unit", o->striping_unit));
        if (cbw[o->romio_cb_write]) GALE_MPI(MPI_Info_set(w->info, "romio_cb_write", cbw[o->romio_cb_write]));
    }
    /* A common start, so that first-open and last-close times compare
     * across ranks (the write rate spans all of them). */
    GALE_MPI(MPI_Barrier(w->comm));
    w->t_ref = w->s.t_ref = gale_wtime();
    w->started = 1;
    if (w->threaded) {
        if (pthread_create(&w->thread, NULL, thread_main, w) != 0) {
            w->threaded = w->started = 0;
            GALE_ERROR(GALE_ERR_INTERNAL, "cannot start the writer thread");
        }
    } else {
        writer_start(w);
        w->s.t_blocked += gale_wtime() - w->t_ref;
    }
    return GALE_OK;
}

/* An MPI call of a cleanup without a status to return: a failure is reported. */
#define MPI_REPORT(expr)                                                        \
    do {                                                                        \
        int gale_e_ = (expr);                                                   \
        if (gale_e_ != MPI_SUCCESS) gale_error_mpi(gale_e_, #expr, __FILE__, __LINE__, __func__); \
    } while (0)

void gale_writer_free(gale_writer_t **wp)
{
    gale_writer_t *w = *wp;
    if (!w) return;
    gale_writer_finish(w);
    if (w->open) gale_outfile_abort(&w->of);
    for (long i = w->qdone; w->q && i < w->qn; i++) free(w->q[i % QCAP].fvars);
    gale_free(w->q);
    free(w->ring);
    gale_ioclient_free(&w->cl);
    for (int l = 0; l < 2; l++) {
        gale_free(w->mrows[l]);
        gale_free(w->moff[l]);
        gale_free(w->ggid[l]);
    }
    gale_free(w->vars);
    gale_free(w->cell_gid);
    gale_free(w->edge_gid);
    gale_free((void *)w->o.z_c);
    gale_free((void *)w->o.cs);
    gale_free(w->rpp);
    gale_free(w->npieces);
    free(w->gbuf);
    free(w->runs);
    free(w->fvars);
    free(w->files);
    free(w->dir);
    free(w->config);
    if (w->info != MPI_INFO_NULL) MPI_REPORT(MPI_Info_free(&w->info));
    if (w->gcomm != MPI_COMM_NULL) MPI_REPORT(MPI_Comm_free(&w->gcomm));
    if (w->comm != MPI_COMM_NULL) MPI_REPORT(MPI_Comm_free(&w->comm));
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv_full);
    pthread_cond_destroy(&w->cv_free);
    free(w);
    *wp = NULL;
}
