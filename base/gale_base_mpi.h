/* The MPI part of the base layer (library gale_base_mpi): what every MPI
 * layer shares. GALE_MPI's MPI error messages (gale_error_mpi, declared in
 * gale_base.h); the one error agreement across ranks; the one min/mean/max
 * over ranks. The serial part, gale_base.h, has no MPI; layout/ links only
 * that. */
#ifndef GALE_BASE_MPI_H
#define GALE_BASE_MPI_H

#include "gale_base.h"

#include <mpi.h>
#include <stddef.h>

/* ---- the error agreement: a rank's first failure, agreed between ranks
 * after each phase so that no rank enters a collective the others have
 * left (checkpoints, iobench, the device set-up) ---- */
typedef struct {
    int failed;      /* this rank's first failure (or, after gale_agree, any rank's) */
    int rank;        /* after gale_agree returned 1: the lowest failing rank */
    char msg[1024];  /* its message */
} gale_agree_t;

/* Records the first failure of this rank; later ones are dropped. */
void gale_agree_fail(gale_agree_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for an MPI error code: "<what> '<path>': <MPI's message>". */
void gale_agree_fail_mpi(gale_agree_t *a, int rc, const char *what, const char *path);
/* For an MPI call in code that must go on to the next gale_agree rather than
 * return (every rank has to make the same collective calls): a failure is
 * recorded as "<call> failed (file:line): <MPI's message>". Evaluates to 1
 * when the call succeeded, 0 when it failed. */
#define GALE_AGREE_MPI(a, expr) gale_agree_mpi((a), (expr), #expr, __FILE__, __LINE__)
int gale_agree_mpi(gale_agree_t *a, int rc, const char *call, const char *file, int line);
/* Collective over comm: 1 if any rank failed; every rank then holds the
 * message and the rank of the lowest failing rank. An MPI failure here cannot
 * be agreed on, so it counts as a failure of this rank. */
int gale_agree(gale_agree_t *a, MPI_Comm comm);
/* Collective over comm, for a status: when any rank has st != GALE_OK, every
 * rank raises GALE_ERR_INPUT "<msg> (rank r)" with the message of the lowest
 * failing rank r (copied into msg, n bytes, on every rank; at most
 * sizeof(gale_agree_t.msg) - 1 characters of it travel) and returns it;
 * otherwise GALE_OK. A failed MPI call of the agreement itself returns
 * GALE_ERR_MPI (as GALE_MPI would). */
int gale_agree_status(int st, char *msg, size_t n, MPI_Comm comm);

/* ---- min/mean/max over ranks ---- */
/* Collective over comm: mn[i], mean[i] and mx[i] are the minimum, mean and
 * maximum over the ranks of each rank's x[i], i < n (the same n on every
 * rank); mean = sum / number of ranks. One MPI_Allreduce per operation over
 * the n values. x may be one of the outputs. */
int gale_mmm(MPI_Comm comm, int n, const double *x, double *mn, double *mean, double *mx);
/* The same over the ranks that have each value: have[i] != 0 on this rank
 * (have NULL: every rank has every value, which is gale_mmm); mean = sum /
 * number of ranks that have it; all three are 0 where no rank has it. */
int gale_mmm_some(MPI_Comm comm, int n, const double *x, const int *have, double *mn, double *mean,
                  double *mx);

/* ---- ranks on a node ---- */
/* Collective over comm: this rank's index among the ranks of its node
 * (shared memory) and their number. Either pointer may be NULL. */
int gale_node_ranks(MPI_Comm comm, int *local_rank, int *local_size);

/* Waits of the time loop (halo exchanges, global sums, reductions). MPI
 * libraries spin in a wait; when a node holds more ranks x threads than
 * cores, a spinning rank takes the core from the one it waits for (a
 * 3-rank run on 2 cores took 17x a 2-rank one). With gale_mpi_set_yield(1)
 * these wait by MPI_Test and sched_yield instead: the same completion, the
 * core given up between tests. They return MPI's error code (for GALE_MPI). */
void gale_mpi_set_yield(int on);
int gale_mpi_yield(void);
int gale_mpi_wait(MPI_Request *req);
int gale_mpi_waitall(int n, MPI_Request *req, MPI_Status *st);
int gale_mpi_allreduce(void *buf, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm);

/* ---- start and end of an MPI command ---- */
/* MPI_Init_thread with `required`, then errors returned as codes
 * (MPI_ERRORS_RETURN), this rank and the size of MPI_COMM_WORLD, the log set
 * up for this rank, and a warning when the library provides less than
 * required. Before MPI is initialised nothing of MPI can be asked, so a
 * failed MPI_Init_thread is reported plainly on stderr (GALE_ERR_MPI). */
int gale_mpi_start(int *argc, char ***argv, int required, int *rank, int *size);
/* The end of a command that returns status st: a code that every rank has
 * raised together ends through MPI_Finalize, any other aborts the job (a
 * rank alone cannot finalize). Together: gale_error_collective(st), or
 * every failure when `agreed` (a command that agrees on each one, as
 * iobench does). Returns the exit status; a failed MPI_Finalize is reported
 * by its code. */
int gale_mpi_finish(int st, int agreed);

#endif
