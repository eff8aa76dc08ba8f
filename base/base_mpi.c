/* The MPI part of the base layer (gale_base_mpi.h): MPI error messages, the
 * error agreement across ranks, min/mean/max over ranks. */
#include "gale_base_mpi.h"

#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* MPI's message for an error code (MPI_Error_string), or "code N". */
static void error_string(int rc, char es[MPI_MAX_ERROR_STRING])
{
    int len = 0;
    if (MPI_Error_string(rc, es, &len) != MPI_SUCCESS) snprintf(es, MPI_MAX_ERROR_STRING, "code %d", rc);
}

int gale_error_mpi(int mpierr, const char *call, const char *file, int line, const char *func)
{
    char msg[MPI_MAX_ERROR_STRING];
    error_string(mpierr, msg);
    return gale_error_raise(GALE_ERR_MPI, file, line, func, "%s failed: %s", call, msg);
}

/* ---- the error agreement ---- */

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
    error_string(rc, es);
    gale_agree_fail(a, "%s '%s': %s", what, path, es);
}

int gale_agree_mpi(gale_agree_t *a, int rc, const char *call, const char *file, int line)
{
    if (rc == MPI_SUCCESS) return 1;
    char es[MPI_MAX_ERROR_STRING];
    error_string(rc, es);
    gale_agree_fail(a, "%s failed (%s:%d): %s", call, file, line, es);
    return 0;
}

/* The agreement: MPI_SUCCESS, or the error code of its first failed MPI
 * call (named in *call), after which a is as far as it got. */
static int agree(gale_agree_t *a, MPI_Comm comm, int *rank, const char **call)
{
    int rc;
    *rank = -1;
    *call = "MPI_Comm_rank";
    if ((rc = MPI_Comm_rank(comm, rank)) != MPI_SUCCESS) return rc;
    int who = a->failed ? *rank : INT_MAX;
    *call = "MPI_Allreduce";
    if ((rc = MPI_Allreduce(MPI_IN_PLACE, &who, 1, MPI_INT, MPI_MIN, comm)) != MPI_SUCCESS) return rc;
    if (who == INT_MAX) return MPI_SUCCESS;
    a->failed = 1;
    a->rank = who;
    *call = "MPI_Bcast";
    return MPI_Bcast(a->msg, (int)sizeof a->msg, MPI_CHAR, who, comm);
}

/* What a failed agreement leaves in a: the failure of the rank it found,
 * without its message (the broadcast failed), or else one of this rank. */
static void agree_failed(gale_agree_t *a, int rc, int rank, const char *call)
{
    char es[MPI_MAX_ERROR_STRING];
    error_string(rc, es);
    if (strcmp(call, "MPI_Bcast") == 0) {
        snprintf(a->msg, sizeof a->msg, "rank %d failed (%s of its message failed: %s)", a->rank,
                 call, es);
        return;
    }
    gale_agree_fail(a, "%s failed while agreeing on a status: %s", call, es);
    a->rank = rank;
}

int gale_agree(gale_agree_t *a, MPI_Comm comm)
{
    int rank;
    const char *call;
    const int rc = agree(a, comm, &rank, &call);
    if (rc == MPI_SUCCESS) return a->failed;
    agree_failed(a, rc, rank, call);
    return 1;
}

int gale_agree_status(int st, char *msg, size_t n, MPI_Comm comm)
{
    gale_agree_t a = {0};
    if (st != GALE_OK) gale_agree_fail(&a, "%s", msg);
    int rank;
    const char *call;
    const int rc = agree(&a, comm, &rank, &call);
    if (rc != MPI_SUCCESS) return gale_error_mpi(rc, call, __FILE__, __LINE__, __func__);
    if (!a.failed) return GALE_OK;
    if (n) snprintf(msg, n, "%s", a.msg);
    GALE_ERROR(GALE_ERR_INPUT, "%s (rank %d)", a.msg, a.rank);
}

/* ---- min/mean/max over ranks ---- */

int gale_mmm(MPI_Comm comm, int n, const double *x, double *mn, double *mean, double *mx)
{
    return gale_mmm_some(comm, n, x, NULL, mn, mean, mx);
}

int gale_mmm_some(MPI_Comm comm, int n, const double *x, const int *have, double *mn, double *mean,
                  double *mx)
{
    GALE_ASSERT(n >= 0);
    if (n == 0) return GALE_OK;
    for (int i = 0; i < n; i++) {
        const double v = x[i]; /* x may alias an output */
        const int h = !have || have[i];
        mn[i] = h ? v : INFINITY;
        mx[i] = h ? v : -INFINITY;
        mean[i] = h ? v : 0;
    }
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, mn, n, MPI_DOUBLE, MPI_MIN, comm));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, mx, n, MPI_DOUBLE, MPI_MAX, comm));
    if (!have) {
        int size;
        GALE_MPI(MPI_Comm_size(comm, &size));
        GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, mean, n, MPI_DOUBLE, MPI_SUM, comm));
        for (int i = 0; i < n; i++) mean[i] /= size;
        return GALE_OK;
    }
    /* the sums and the counts of the ranks that have each value, together
     * in one reduction, CHUNK values at a time */
    enum { CHUNK = 32 };
    for (int i0 = 0; i0 < n; i0 += CHUNK) {
        const int k = n - i0 < CHUNK ? n - i0 : CHUNK;
        double s[2 * CHUNK];
        for (int i = 0; i < k; i++) {
            s[i] = mean[i0 + i];
            s[k + i] = have[i0 + i] != 0;
        }
        GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, s, 2 * k, MPI_DOUBLE, MPI_SUM, comm));
        for (int i = 0; i < k; i++) {
            const double cnt = s[k + i];
            mean[i0 + i] = cnt > 0 ? s[i] / cnt : 0;
            if (!(cnt > 0)) mn[i0 + i] = mx[i0 + i] = 0;
        }
    }
    return GALE_OK;
}

int gale_node_ranks(MPI_Comm comm, int *local_rank, int *local_size)
{
    MPI_Comm node;
    int r, n;
    GALE_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int e = MPI_Comm_rank(node, &r);
    if (e == MPI_SUCCESS) e = MPI_Comm_size(node, &n);
    MPI_Comm_free(&node); /* the split's result decides; a failed free leaks one handle */
    GALE_MPI(e);
    if (local_rank) *local_rank = r;
    if (local_size) *local_size = n;
    return GALE_OK;
}

static int g_yield; /* set once, before the time loop, by the model thread */

void gale_mpi_set_yield(int on) { g_yield = on != 0; }
int gale_mpi_yield(void) { return g_yield; }

int gale_mpi_wait(MPI_Request *req)
{
    if (!g_yield) return MPI_Wait(req, MPI_STATUS_IGNORE);
    for (int done = 0;;) {
        const int e = MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (e != MPI_SUCCESS || done) return e;
        sched_yield();
    }
}

int gale_mpi_waitall(int n, MPI_Request *req, MPI_Status *st)
{
    if (!g_yield) return MPI_Waitall(n, req, st);
    for (int done = 0;;) {
        const int e = MPI_Testall(n, req, &done, st);
        if (e != MPI_SUCCESS || done) return e;
        sched_yield();
    }
}

/* in place, as every reduction of the time loop is */
int gale_mpi_allreduce(void *buf, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (!g_yield) return MPI_Allreduce(MPI_IN_PLACE, buf, n, type, op, comm);
    MPI_Request r;
    const int e = MPI_Iallreduce(MPI_IN_PLACE, buf, n, type, op, comm, &r);
    return e != MPI_SUCCESS ? e : gale_mpi_wait(&r);
}

int gale_mpi_start(int *argc, char ***argv, int required, int *rank, int *size)
{
    int provided;
    const int e = MPI_Init_thread(argc, argv, required, &provided);
    if (e != MPI_SUCCESS) {
        fprintf(stderr, "gale: error: MPI_Init_thread failed (MPI error code %d): gale needs a "
                        "working MPI library (start it with mpiexec)\n", e);
        return GALE_ERR_MPI;
    }
    GALE_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    GALE_MPI(MPI_Comm_rank(MPI_COMM_WORLD, rank));
    GALE_MPI(MPI_Comm_size(MPI_COMM_WORLD, size));
    gale_log_setup(*rank, GALE_LOG_INFO);
    if (provided < required && required != MPI_THREAD_MULTIPLE) /* gale run decides for MULTIPLE */
        gale_log(GALE_LOG_WARN, "the MPI library does not provide MPI_THREAD_FUNNELED");
    return GALE_OK;
}

int gale_mpi_finish(int st, int agreed)
{
    if (st != GALE_OK && !agreed && !gale_error_collective(st)) MPI_Abort(MPI_COMM_WORLD, st); /* no return */
    const int e = MPI_Finalize();
    if (e != MPI_SUCCESS) { /* the code only: MPI_Error_string may not be called now */
        fprintf(stderr, "gale: error [rank %d]: MPI_Finalize failed (MPI error code %d)\n",
                gale_log_rank(), e);
        if (st == GALE_OK) st = GALE_ERR_MPI;
    }
    return st;
}
