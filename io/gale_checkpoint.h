/* Checkpoint files: the model state in a self-describing binary format
 * written and read with MPI-IO (docs/checkpoint.md has the byte layout).
 *
 * Why not HDF5: HDF5 here is not thread-safe and, during a run, the writer
 * thread owns every HDF5 call. A checkpoint written with plain MPI-IO can be
 * taken on the model thread at any step boundary without asking the writer
 * for anything (MPI is initialised with MPI_THREAD_MULTIPLE, and these calls
 * use their own file handle and communicator traffic).
 *
 * Why it is decomposition-independent: every field is stored in global id
 * order, one column of nlev doubles per entity (cell or edge), so its place
 * in the file depends on the gid alone. Each rank writes its owned columns and
 * reads back whatever local columns it holds (owned and halo), on any rank
 * count. The per-field hash is a sum over columns of a hash of (gid, column
 * bytes), which is order-free and so can be summed over ranks; the reproducible
 * sum of squares (computed by the caller) is stored next to it.
 *
 * Atomicity: data go to "<path>.tmp", are synced (MPI_File_sync), and rank 0
 * renames the file and syncs the directory. A file under its final name is
 * complete. All functions are collective over comm; failures are agreed
 * between ranks, so every rank returns the same status. */
#ifndef GALE_CHECKPOINT_H
#define GALE_CHECKPOINT_H

#include "gale_mesh.h"

#include <mpi.h>
#include <stdint.h>

/* The format version written, and the only one read (docs/checkpoint.md
 * "Format versions"). It goes up when a change would make an older file
 * restart differently: its layout, or a key that defines the experiment
 * added with a default other than what older files ran. 2: the same layout
 * as 1, but a version-1 file may lack [dynamics] (written before the
 * consistent operator, the default now, existed). */
#define GALE_CKPT_VERSION 2
#define GALE_CKPT_MAXFIELDS 8

typedef struct {
    char name[8];
    int nlev;               /* values per column */
    int64_t ncol;           /* columns in the whole mesh */
    /* this rank's columns (set by the caller before writing or reading) */
    int nlocal;             /* local columns; the first nowned are owned here */
    int nowned;
    const gale_gid_t *gid;  /* [nlocal] global ids, distinct */
    double *data;           /* column i at data + i * stride */
    int stride;
    /* stored in the file */
    double sumsq;           /* the caller's reproducible sum(x*x) */
    uint64_t hash;          /* filled in by the writer, read from the file */
    uint64_t offset;        /* of the field's data in a file read */
} gale_ckpt_field_t;

typedef struct {
    /* mesh identity */
    int mesh_n, nlev, ext_method;
    double radius, scaling, top;
    double *z_if;               /* [nlev + 1] interface heights */
    /* state */
    int64_t step;
    double time, energy0, energy, max_step_increase, max_u, max_w, run_max_u, run_max_w;
    int nprobe;                 /* normal-mode probe history, [nprobe] (may be 0) */
    double *probe;
    char *config;               /* the resolved configuration (gale_config_dump text) */
    char writer[64];            /* "gale <version>" of the writer */
    int version;                /* format version of a file read */
    int nfield;
    gale_ckpt_field_t field[GALE_CKPT_MAXFIELDS];
} gale_ckpt_t;

typedef struct {
    double seconds;             /* open start to close end on this rank */
    uint64_t bytes;             /* file size */
} gale_ckpt_stats_t;

/* Collective. Writes ck (every rank passes the same header values and its
 * own columns) to path atomically. Fills field[].hash. info: MPI-IO hints
 * (or MPI_INFO_NULL). Returns GALE_OK, or GALE_ERR_IO on every rank (the
 * message printed once, by rank 0). */
int gale_ckpt_write(const char *path, gale_ckpt_t *ck, MPI_Comm comm, MPI_Info info,
                    gale_ckpt_stats_t *st);

/* Collective. Rank 0 reads and checks the header and the trailer (a regular
 * file, looked at before it is opened; magic, version, byte order, header
 * hash, file size, trailer; then the values: step, time, energies, maxima,
 * extrusion method, levels, probe history, and the stored configuration's
 * lines, each key once) and every rank gets the result: the header values in
 * ck (z_if, probe and config allocated: gale_ckpt_free). A bad file is
 * GALE_ERR_INPUT on every rank with one message naming the file and the
 * problem. */
int gale_ckpt_read_header(const char *path, gale_ckpt_t *ck, MPI_Comm comm);

/* Serial, no MPI: the same checks and result for one process (the fuzz
 * driver tests/nml_check.c, which forks per case). */
int gale_ckpt_check_header(const char *path, gale_ckpt_t *ck);

/* Collective. After gale_ckpt_read_header and after the caller has set the
 * local views (nlocal, nowned, gid, data, stride) of the fields it wants
 * (matched by name): reads every local column and checks each field's hash
 * over all ranks. GALE_ERR_INPUT on every rank for a mismatch (a corrupt file). */
int gale_ckpt_read_fields(const char *path, gale_ckpt_t *ck, MPI_Comm comm);

/* Frees what gale_ckpt_read_header allocated. */
void gale_ckpt_free(gale_ckpt_t *ck);

#endif
