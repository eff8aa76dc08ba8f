/* `gale iobench`: an IOR-like I/O proxy for the output and checkpoint
 * patterns of weather and climate codes (docs/iobench.md).
 *
 * Patterns:
 *  - fpp: a file per process, large sequential transfers (iPIC3D restart);
 *  - shared: one file, every rank's block interleaved transfer by transfer
 *    (offset (t*P + r)*xfer: a decomposed field in global order), collective
 *    calls by default (field and moment data);
 *  - aggregated: groups of ranks gather their blocks on one aggregator, and
 *    the aggregators write one shared file (MOM5 io_layout, XIOS servers).
 * APIs: posix (pwrite/pread), mpiio, hdf5 (parallel HDF5, H5Pset_fapl_mpio;
 * sec2 for a file per process), netcdf (the same HDF5 calls plus the
 * netCDF-4 file layout that io/nc4.c writes: dimension scales, creation
 * order, netCDF's hidden attributes -- not the netCDF-C library).
 *
 * Metrics (docs/iobench.md; IOR's definitions): write_rate_MiB_s = bytes / 2^20 /
 * (last close end - first open start), over all ranks that open files, times
 * summed over iterations; read likewise; per-rank rates min/mean/max.
 *
 * Runs on the calling thread only: HDF5 is not thread-safe, and iobench has
 * no writer thread. All functions are collective over comm. */
#ifndef GALE_IOBENCH_H
#define GALE_IOBENCH_H

#include <mpi.h>
#include <stdint.h>

enum { GALE_IOB_FPP = 0, GALE_IOB_SHARED, GALE_IOB_AGGREGATED, GALE_IOB_NPATTERN };
enum { GALE_IOB_POSIX = 0, GALE_IOB_MPIIO, GALE_IOB_HDF5, GALE_IOB_NETCDF, GALE_IOB_NAPI };

typedef struct {
    int pattern, api;
    int64_t block;          /* bytes per rank per iteration, a multiple of transfer */
    int64_t transfer;       /* bytes per I/O call, a multiple of 8 */
    int iterations;
    int fsync;              /* data on disk before close ends */
    int collective;         /* mpiio/hdf5/netcdf, shared and aggregated: collective calls */
    int aggregators;        /* aggregated: writer ranks (0: one per node) */
    int read;               /* read phase (verified) */
    int drop_cache;         /* evict written files from the page cache before reading */
    int keep;               /* keep the last iteration's files */
    const char *dir;        /* existing directory for the files */
    const char *hints;      /* "key=value,key=value" MPI-IO hints, or "" */
} gale_iob_opts_t;

typedef struct { double min, mean, max; } gale_iob_mmm_t;

typedef struct {
    int writers, files;             /* ranks opening files, files per iteration */
    int64_t bytes;                  /* written (and read) over all ranks and iterations */
    double write_s, read_s;         /* sum over iterations of last close end - first open start */
    double write_rate, read_rate;   /* MiB/s */
    gale_iob_mmm_t rank_write_rate, rank_read_rate; /* over ranks that open files, MiB/s */
    int64_t verify_errors;          /* 8-byte words read back wrong, all ranks */
    char hints_applied[1024];       /* what MPI-IO reports after open (mpiio/hdf5/netcdf) */
} gale_iob_result_t;

const char *gale_iob_pattern_name(int pattern);
const char *gale_iob_api_name(int api);
/* The benchmark's files in its directory, as gale_dir_prepare's patterns
 * ('#': digits; per rank or shared, per API). NULL-terminated. */
extern const char *const gale_iob_file_names[];
int gale_iob_pattern_parse(const char *s); /* -1 if unknown */
int gale_iob_api_parse(const char *s);

/* Collective. Runs one case. Fails (every rank, GALE_ERR_IO, printed once)
 * on an I/O error; files are removed unless o->keep. */
int gale_iob_run(const gale_iob_opts_t *o, MPI_Comm comm, gale_iob_result_t *r);

#endif
