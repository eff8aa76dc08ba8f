/* gale base layer: status codes, the error macros, logging, aligned memory,
 * the clock and timers. Every folder links this (library gale_base); it is
 * serial and includes no MPI or HDF5 header, so layout/ stays MPI-free. The
 * MPI part every MPI layer shares is gale_base_mpi.h (library gale_base_mpi).
 * Model: PETSc's PetscCall -- every function returns a status, the first
 * failure prints "file:line (function): message" and callers add a trace. */
#ifndef GALE_BASE_H
#define GALE_BASE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define GALE_PI 3.14159265358979323846

typedef enum {
    GALE_OK = 0,
    GALE_ERR_INPUT = 2,    /* bad configuration, command line or input file (collective) */
    GALE_ERR_MEM = 3,      /* allocation failed */
    GALE_ERR_MPI = 4,      /* an MPI call failed */
    GALE_ERR_IO = 5,       /* file system or HDF5 failure */
    GALE_ERR_SOLVER = 6,   /* Krylov solver did not converge (collective) */
    GALE_ERR_NUMERIC = 7,  /* NaN/Inf found by a global check (collective) */
    GALE_ERR_INTERNAL = 8, /* a broken invariant: a bug in gale */
    GALE_ERR_OUTPUT = 9    /* output failed and every rank has agreed to stop (collective) */
} gale_status_t;

/* Codes that every rank raises together (bad input, a solve that did not
 * converge, a NaN found by a global check): printed once, by rank 0, and
 * the run ends through MPI_Finalize; any other code aborts the job. */
int gale_error_collective(int code);
/* Prints "gale: error [rank r] file:line (func): message" (collective codes:
 * "gale: error: message" on rank 0 only) and returns code. */
int gale_error_raise(int code, const char *file, int line, const char *func,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Adds one traceback line ("  called from file:line (func)") and returns code. */
int gale_error_trace(int code, const char *file, int line, const char *func);
/* Turns an MPI error code into its MPI_Error_string message and raises
 * GALE_ERR_MPI. Declared here for GALE_MPI, which needs no MPI header, but
 * defined in base/base_mpi.c: a library that uses either links gale_base_mpi. */
int gale_error_mpi(int mpierr, const char *call, const char *file, int line,
                   const char *func);

/* Raise an error from the current function and return its code. */
#define GALE_ERROR(code, ...) \
    return gale_error_raise((code), __FILE__, __LINE__, __func__, __VA_ARGS__)
/* Call a status-returning function; on failure add a trace line and return. */
#define GALE_CALL(expr)                                                         \
    do {                                                                        \
        int gale_e_ = (expr);                                                   \
        if (gale_e_ != GALE_OK)                                                 \
            return gale_error_trace(gale_e_, __FILE__, __LINE__, __func__);     \
    } while (0)
/* Call an MPI function (MPI_SUCCESS is 0 by the standard); on failure raise
 * GALE_ERR_MPI with MPI's message and return. Links gale_base_mpi. Where every
 * rank must reach the next agreement instead of returning, GALE_AGREE_MPI
 * (gale_base_mpi.h). */
#define GALE_MPI(expr)                                                          \
    do {                                                                        \
        int gale_e_ = (expr);                                                   \
        if (gale_e_ != 0)                                                       \
            return gale_error_mpi(gale_e_, #expr, __FILE__, __LINE__, __func__); \
    } while (0)
/* Check a condition that must hold whatever the input: failure is a gale bug. */
#define GALE_ASSERT(cond)                                                       \
    do {                                                                        \
        if (!(cond))                                                            \
            GALE_ERROR(GALE_ERR_INTERNAL, "internal check failed: %s", #cond); \
    } while (0)

/* ---- logging ---- */
typedef enum { GALE_LOG_ERROR = 0, GALE_LOG_WARN, GALE_LOG_INFO, GALE_LOG_DEBUG } gale_loglevel_t;

void gale_log_setup(int rank, int level);
int gale_log_rank(void);
/* Rank 0 only. */
void gale_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Every rank, prefixed with the rank. */
void gale_log_all(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- memory: 64-byte aligned, zero-filled ---- */
#define GALE_ALIGN 64
int gale_alloc_impl(void **p, size_t bytes, const char *what, const char *file, int line,
                    const char *func);
#define GALE_ALLOC(ptr, count)                                                  \
    GALE_CALL(gale_alloc_impl((void **)&(ptr), (size_t)(count) * sizeof(*(ptr)), #ptr, \
                              __FILE__, __LINE__, __func__))
void gale_free(void *p);
#define GALE_FREE(ptr) do { gale_free(ptr); (ptr) = NULL; } while (0)

/* ---- the files gale writes (base/files.c; docs/output.md, "Files and
 * final names"): written as NAME.tmp, renamed to NAME when complete; a
 * final name that is not a regular file (absent is fine) is never replaced.
 * Each returns 0, or -1 with what is wrong in why. ---- */
/* "a directory", "a pipe", ... for a stat's st_mode, for messages. */
const char *gale_file_kind(unsigned mode);
/* tmp renamed to path when path is replaceable; tmp removed on failure. */
int gale_file_publish(const char *tmp, const char *path, char *why, size_t n);
/* Closes f, written as tmp, synced to disk, and publishes it as path; on
 * failure tmp is removed and why says why (errno's text: a full disk). */
int gale_file_finish(FILE *f, const char *tmp, const char *path, char *why, size_t n);
/* Before any work: path and path.tmp are replaceable and path.tmp can be
 * created (made and removed). */
int gale_file_writable(const char *path, char *why, size_t n);
/* Before any work: dir made (with its parents), a directory, writable; in
 * it, each entry that matches one of names (NULL-terminated patterns, '#'
 * one or more digits: the final names gale writes there) must be
 * replaceable, and each such name + ".tmp" (a temporary a killed run left)
 * is removed and named in the log. Nothing else is touched. Serial. */
int gale_dir_prepare(const char *dir, const char *const *names, char *why, size_t n);

/* Wall clock in seconds (monotonic). */
double gale_wtime(void);
/* The "KEY: N kB" line of a /proc file, in bytes (VmHWM of /proc/self/status,
 * MemAvailable of /proc/meminfo); -1 when absent. */
double gale_proc_bytes(const char *path, const char *key);

/* ---- timers by category (HPCG style), accumulated per rank on the master
 * thread; src/ reduces them to min/mean/max over ranks. Compute is split
 * further into named kernel timers registered at start-up. ---- */
typedef enum {
    GALE_T_COMPUTE = 0, GALE_T_HALO_PACK, GALE_T_HALO_WAIT, GALE_T_GLOBAL_SUM,
    GALE_T_H2D, GALE_T_D2H, GALE_T_IO_HANDOFF, GALE_T_IO_WAIT, GALE_T_NCAT
} gale_timer_cat_t;
#define GALE_MAX_TIMERS 96
/* Registers a sub-timer of category parent (returns its id >= GALE_T_NCAT, or
 * the parent if the table is full). Time added to a sub-timer also counts in
 * its parent. */
int gale_timer_register(const char *name, int parent);
void gale_timer_add(int id, double seconds);
/* The minimum bytes a kernel timer's launches moved (gale_kdesc.h): the run
 * report's bytes and GB/s per kernel and its roofline. */
void gale_timer_add_bytes(int id, double bytes);
/* A region that calls timed code (a checkpoint takes checksums; output
 * copies fields off the device): t0 = gale_wtime() and c0 =
 * gale_timer_counted() at its start, then gale_timer_add_region(id, t0, c0)
 * counts its wall time less what categories counted meanwhile, so that every
 * second is in one category and "other" (wall less all categories) stays >= 0. */
double gale_timer_counted(void);
void gale_timer_add_region(int id, double t0, double counted0);
int gale_timer_ntimers(void);
const char *gale_timer_name(int id);
int gale_timer_parent(int id); /* -1 for a category */
double gale_timer_seconds(int id);
long gale_timer_count(int id);
double gale_timer_bytes(int id);
void gale_timer_reset(void);

#endif
