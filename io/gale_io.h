/* Files: netCDF-4 (HDF5) with CF and UGRID-1.0 conventions, written with the
 * HDF5 C API in the layout netCDF readers expect. Only io/ includes HDF5;
 * this header does not, so src/ can use it. */
#ifndef GALE_IO_H
#define GALE_IO_H

#include "gale_mesh.h"

#include <mpi.h>
#include <stddef.h>

/* Serial (one process, no MPI needed): the global mesh C_N as a UGRID-1.0
 * mesh file. Written to "path.tmp" and renamed, so a failure never leaves a
 * half-written file under the final name. config_text (may be NULL) is stored
 * as the global attribute "configuration". docs/output.md lists the contents.
 * Calls HDF5: not while an asynchronous writer lives (use gale_writer_exec). */
int gale_io_write_mesh(const gale_cs_t *cs, const char *path, const char *config_text);
/* The final names the writer makes in [io] dir, as gale_dir_prepare's
 * patterns ('#': digits): one file per output time (shared, per rank, per
 * group), its XDMF index, the mesh. NULL-terminated. */
extern const char *const gale_io_output_names[];
/* "HDF5 1.10.8" etc. Calls HDF5, as above. */
void gale_io_version(char *buf, size_t n);

/* GALE_IO_FAULT=enospc@N (N >= 1) makes the process's N-th write to an
 * output file fail as a full disk would; kill@N kills the process there, as
 * a rank that dies (docs/output.md). Parses spec (NULL or "" = no fault,
 * *nth = 0; *die, if not NULL, set for kill); GALE_ERR_INPUT if malformed.
 * No HDF5. */
int gale_io_fault_parse(const char *spec, long *nth, int *die);

/* ---- the output writer (io/writer.c) ----
 *
 * The model ("client") copies fields into a ring of buffers and carries on;
 * a writer thread per rank makes every HDF5 call, on its own duplicate of
 * the model's communicator (MPI must be initialised with
 * MPI_THREAD_MULTIPLE). While a writer thread lives no other thread may call
 * HDF5 (it is not thread-safe here): run such work through gale_writer_exec.
 * Synchronous mode does the same writes on the calling thread.
 *
 * An output time is one file (or one per rank / per group): begin, then
 * every piece of every variable in that file, then end. Every rank makes the
 * same calls in the same order with the same arguments (they are the
 * collective hand-off points); only the rows differ. Failures of the writer
 * are not returned by these calls: they are printed when they happen, the
 * writer then writes nothing more, and gale_writer_failed says so; the
 * client agrees on it across ranks (docs/output.md). The calls return an
 * error only for a broken invariant or a failed MPI call. */

/* Layouts, in the order of [io] mode's choices. */
enum { GALE_WRITER_SHARED = 0, GALE_WRITER_PER_RANK = 1, GALE_WRITER_AGGREGATED = 2 };
/* Where a variable lives: horizontally, and in the vertical. */
enum { GALE_OUT_FACE = 0, GALE_OUT_EDGE = 1 };
enum { GALE_OUT_2D = 0, GALE_OUT_LAYERS = 1, GALE_OUT_INTERFACES = 2 };

typedef struct {
    char name[32], long_name[256], units[24], standard_name[64], cell_methods[48];
    int loc, vert;
} gale_outvar_t;

typedef struct {
    /* [io] */
    const char *dir;
    int mode, aggregators, synchronous, nbuffers;
    double buffer_mib;
    int xdmf, cb_nodes, cb_buffer_size, romio_cb_write /* 0 auto, 1 enable, 2 disable */,
        striping_factor, striping_unit, alignment, chunk_columns;
    /* the mesh */
    const gale_cs_t *cs;
    int nlev;
    const double *z_c, *z_if;  /* [nlev] layer centres, [nlev + 1] interfaces [m] */
    /* this rank's owned faces and edges, in increasing gid order: the order
     * of the rows the client packs */
    int ncell, nedge;
    const gale_gid_t *cell_gid, *edge_gid;
    /* every variable the run may write; the writer's variable ids index it */
    int nvars;
    const gale_outvar_t *vars;
    const char *config_text;   /* stored in every file */
    /* I/O servers: the clients' writer sends its pieces to the servers
     * instead of writing them (NULL: it writes); a server's writer with
     * no_mesh set leaves mesh.nc to the first pool's */
    struct gale_io_link *link;
    int no_mesh;
} gale_writer_opts_t;

typedef struct gale_writer gale_writer_t;

/* Collective over comm. Copies what it needs from o. The directory must
 * exist. In asynchronous mode starts the writer thread. */
int gale_writer_create(gale_writer_t **w, const gale_writer_opts_t *o, MPI_Comm comm);
/* Pieces of variable var: the same count on every rank. Piece i holds this
 * rank's rows [r0, r1) (possibly none). */
int gale_writer_npieces(const gale_writer_t *w, int var);
void gale_writer_piece_rows(const gale_writer_t *w, int var, int piece, int *r0, int *r1);
/* Starts the output of time `time` [s] after `step` steps, holding the nvars
 * variables vars[]. */
int gale_writer_begin(gale_writer_t *w, int step, double time, int nvars, const int *vars);
/* Space for piece `piece` of var: (r1 - r0) rows of the variable's levels,
 * doubles, to be filled before the next call. Blocks while no buffer is free. */
int gale_writer_put(gale_writer_t *w, int var, int piece, double **dst);
/* Hands the output over (synchronous mode: writes it now). */
int gale_writer_end(gale_writer_t *w);
/* Local: nonzero once this rank's writer failed (the message was printed). */
int gale_writer_failed(gale_writer_t *w);
/* Runs fn(arg) on the thread that owns HDF5, after everything handed over so
 * far is written, and returns its status. For other HDF5 users (checkpoints)
 * while the writer lives. Not collective by itself. */
int gale_writer_exec(gale_writer_t *w, int (*fn)(void *), void *arg);

typedef struct {
    double t_blocked;      /* client: waiting for a free buffer, the final drain and
                            * (synchronous mode) the writes themselves [s] */
    double t_writing;      /* writer: creating, writing and closing files [s] */
    double t_writer_life;  /* writer: thread start to end (synchronous: create to finish) */
    double t_first_open, t_last_close; /* since the common start in create; -1: none */
    long long bytes;       /* sizes of the files this rank completed */
    long long data_bytes;  /* the values of this rank's rows handed to files (8 bytes each;
                            * aggregated: the group's writer writes them) */
    int nfiles;
    const char *files;     /* their names, each followed by '\n' */
    int full_waits;        /* client: the times it found the ring full */
    const char *hints;     /* shared, rank 0: each MPI-IO hint gale set, "key asked kept\n",
                            * kept "-" when the file system dropped it ("" before a file) */
    double t_ref;          /* the common start the times above count from (gale_wtime) */
    /* I/O servers: the first client of each server holds its bytes, files,
     * first open and last close above, and its writer's times here */
    double t_server_writing, t_server_life;
} gale_writer_stats_t;
/* Collective: writes everything handed over, stops the thread. After it the
 * writer takes no more output; stats and gale_writer_exec still work. */
int gale_writer_finish(gale_writer_t *w);
void gale_writer_stats(const gale_writer_t *w, gale_writer_stats_t *s);
/* Finishes if needed (collective then) and frees; *w = NULL. */
void gale_writer_free(gale_writer_t **w);

/* ---- I/O servers (io/server.c; docs/output.md, "I/O servers") ----
 *
 * [io] servers ranks of the job leave the model and write its output, as
 * XIOS's servers do: every model rank (a client) sends its pieces of each
 * output time to one server of the pool whose turn it is (output times go
 * to the [io] pools in turn, each pool writing whole files), out of its
 * writer's ring (the client buffer), and waits only when that is full. A
 * pool's servers gather their clients' rows and write the shared layout's
 * file together with gale's writer: the same variables and values as the
 * shared mode's. */
enum { GALE_SERVERS_SPREAD = 0, GALE_SERVERS_LAST = 1 };
typedef struct gale_io_link {
    MPI_Comm link;         /* a duplicate of the job's communicator: clients and servers */
    int servers, pools, nclients;
    int *server_rank;      /* [servers] their ranks in link; pool p holds p*S/P .. */
    int *client_rank;      /* [nclients] the clients' ranks in link, in model rank order */
    int is_server, index;  /* this rank: a server (index: its number) or a client (model rank) */
    int connected;         /* a client's writer reached the servers */
} gale_io_link_t;
/* Collective over job. With servers = 0 *sub is a duplicate of job and l
 * says so (l->servers = 0). Otherwise the ranks placed as servers (spread:
 * the last rank of each of `servers` equal blocks of the job's ranks; last:
 * the job's last ranks) get *sub = their own communicator and is_server,
 * the others *sub = the model's. GALE_ERR_INPUT on every rank when no
 * client would be left. */
int gale_io_split(MPI_Comm job, int servers, int pools, int placement, gale_io_link_t *l,
                  MPI_Comm *sub);
/* On server ranks, collective over them (comm): serves the clients until
 * they stop. o holds the [io] settings of the servers' writers (dir, hints,
 * buffers, synchronous); the mesh, rows and variables come from the
 * clients. Returns the clients' final status (gale_io_release), or
 * GALE_ERR_OUTPUT when this server's output failed and abort is 1. */
int gale_io_serve(gale_io_link_t *l, MPI_Comm comm, const gale_writer_opts_t *o, int abort);
/* On the clients, after the run and after the writer was freed: the
 * servers learn the run's status (and that no output comes, if no writer
 * reached them). The clients' status is the same on all (a collective
 * error or none): client 0 sends it. */
int gale_io_release(gale_io_link_t *l, int status);
void gale_io_link_free(gale_io_link_t *l);

#endif
