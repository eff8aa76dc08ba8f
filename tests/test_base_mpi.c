/* The MPI part of base/ (gale_base_mpi.h): the min/mean/max over ranks gives
 * the bits of the reductions it replaced (mean = sum / ranks; over the ranks
 * that have a value, sum / count), and the error agreement hands every rank
 * the lowest failing rank's message. Run on 1 and 3 ranks. */
#include "gale_base_mpi.h"
#include "gale_test.h"

#include <string.h>

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    gale_log_setup(rank, GALE_LOG_INFO);
    const MPI_Comm comm = MPI_COMM_WORLD;

    /* gale_mmm against the reductions of src/output/report.c and src/output/output.c */
    enum { N = 5 };
    double x[N], mn[N], mean[N], mx[N], rmn[N], rmx[N], rsum[N];
    for (int i = 0; i < N; i++) x[i] = 0.1 * (rank + 1) + 1.0 / (3 + i + rank);
    CHECK_OK(gale_mmm(comm, N, x, mn, mean, mx));
    MPI_Allreduce(x, rmn, N, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(x, rmx, N, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(x, rsum, N, MPI_DOUBLE, MPI_SUM, comm);
    for (int i = 0; i < N; i++) {
        CHECK(same_bits(mn[i], rmn[i]), "min[%d] %.17g != %.17g", i, mn[i], rmn[i]);
        CHECK(same_bits(mx[i], rmx[i]), "max[%d] %.17g != %.17g", i, mx[i], rmx[i]);
        CHECK(same_bits(mean[i], rsum[i] / size), "mean[%d] %.17g != %.17g", i, mean[i],
              rsum[i] / size);
    }
    /* x may be an output */
    double y[N];
    memcpy(y, x, sizeof y);
    CHECK_OK(gale_mmm(comm, N, y, mn, y, mx));
    for (int i = 0; i < N; i++) CHECK(same_bits(y[i], mean[i]), "aliased mean[%d]", i);

    /* gale_mmm_some against io/iobench.c's reduction ({v, have} summed together) */
    const double v = 7.25 + rank;
    const int have = rank % 2 == 0;
    double smn, smean, smx;
    CHECK_OK(gale_mmm_some(comm, 1, &v, &have, &smn, &smean, &smx));
    double s[2] = {have ? v : 0, have};
    MPI_Allreduce(MPI_IN_PLACE, s, 2, MPI_DOUBLE, MPI_SUM, comm);
    CHECK(same_bits(smean, s[0] / s[1]), "mean over havers %.17g != %.17g", smean, s[0] / s[1]);
    CHECK(smn == 7.25 && smx == 7.25 + (size - 1) / 2 * 2, "min %g max %g", smn, smx);
    /* more values than one reduction takes (32), some that no rank has */
    enum { M = 70 };
    double z[M], zmn[M], zmean[M], zmx[M];
    int zh[M];
    for (int i = 0; i < M; i++) {
        z[i] = i + 10.0 * rank;
        zh[i] = i % 3 == 0 ? 0 : i % 3 == 1 ? 1 : rank == size - 1;
    }
    CHECK_OK(gale_mmm_some(comm, M, z, zh, zmn, zmean, zmx));
    for (int i = 0; i < M; i++) {
        if (i % 3 == 0) {
            CHECK(zmn[i] == 0 && zmean[i] == 0 && zmx[i] == 0, "value %d that no rank has", i);
        } else if (i % 3 == 1) {
            CHECK(zmn[i] == i && zmx[i] == i + 10.0 * (size - 1) &&
                      zmean[i] == i + 10.0 * (size - 1) / 2,
                  "value %d: %g %g %g", i, zmn[i], zmean[i], zmx[i]);
        } else {
            const double last = i + 10.0 * (size - 1);
            CHECK(zmn[i] == last && zmean[i] == last && zmx[i] == last, "value %d of the last rank", i);
        }
    }

    /* gale_agree_status: the lowest failing rank's message, everywhere */
    char msg[64] = "all is well";
    CHECK(gale_agree_status(GALE_OK, msg, sizeof msg, comm) == GALE_OK, "no failure");
    CHECK(strcmp(msg, "all is well") == 0, "msg changed: %s", msg);
    const int fails = rank == size - 1 || rank == 1;
    const int first = size > 1 ? 1 : 0;
    snprintf(msg, sizeof msg, "bad on rank %d", rank);
    int st = gale_agree_status(fails ? GALE_ERR_INPUT : GALE_OK, msg, sizeof msg, comm);
    char want[64];
    snprintf(want, sizeof want, "bad on rank %d", first);
    CHECK(st == GALE_ERR_INPUT, "status %d", st);
    CHECK(strcmp(msg, want) == 0, "msg '%s', expected '%s'", msg, want);

    /* gale_agree and GALE_AGREE_MPI: a failed MPI call is recorded, not fatal */
    gale_agree_t a = {0};
    CHECK(gale_agree(&a, comm) == 0 && !a.failed, "nothing failed");
    CHECK(GALE_AGREE_MPI(&a, MPI_Barrier(comm)) == 1 && !a.failed, "a call that works");
    int word = 0;
    CHECK(GALE_AGREE_MPI(&a, MPI_Bcast(&word, 1, MPI_INT, size + 5, comm)) == 0 && a.failed,
          "a broadcast from no rank fails");
    CHECK(strstr(a.msg, "MPI_Bcast(&word") != NULL, "message: %s", a.msg);
    CHECK(gale_agree(&a, comm) == 1 && a.rank == 0, "agreed: rank %d", a.rank);
    gale_agree_t b = {0};
    if (rank == size - 1) {
        gale_agree_fail(&b, "last rank says %d", 42);
        gale_agree_fail(&b, "dropped: not the first failure");
    }
    CHECK(gale_agree(&b, comm) == 1 && b.rank == size - 1 && strcmp(b.msg, "last rank says 42") == 0,
          "rank %d, msg '%s'", b.rank, b.msg);

    MPI_Finalize();
    return gale_test_result("test_base_mpi");
}
