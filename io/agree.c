/* Failures agreed between ranks (gale_agree.h). */
#include "gale_agree.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

void gale_agree_fail(gale_agree_t *a, const char *fmt, ...)
{
    if (a->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    a->failed = 1;
}

void gale_agree_fail_mpi(gale_agree_t *a, int rc, const char *what, const char *path)
{
    char es[MPI_MAX_ERROR_STRING];
    int n = 0;
    MPI_Error_string(rc, es, &n);
    gale_agree_fail(a, "%s '%s': %s", what, path, es);
}

int gale_agree(gale_agree_t *a, MPI_Comm comm)
{
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    int who = a->failed ? rank : INT_MAX;
    if (MPI_Allreduce(MPI_IN_PLACE, &who, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) {
        gale_agree_fail(a, "MPI_Allreduce failed while agreeing on a status");
        return 1;
    }
    if (who == INT_MAX) return 0;
    if (MPI_Bcast(a->msg, (int)sizeof a->msg, MPI_CHAR, who, comm) != MPI_SUCCESS)
        snprintf(a->msg, sizeof a->msg, "rank %d failed (MPI_Bcast of its message failed)", who);
    a->failed = 1;
    return 1;
}
