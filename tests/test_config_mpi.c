/* gale_config_load on 3 ranks: bad input gives GALE_ERR_INPUT on every rank
 * (only rank 0 reads and prints) without a hang; good input gives every rank
 * the same configuration, byte for byte.
 * usage: test_config_mpi GOOD.ini BAD.ini LFRIC.nml */
#include "gale_base.h"
#include "gale_config.h"
#include "gale_config_mpi.h"
#include "gale_test.h"

#include <mpi.h>
#include <string.h>

/* Every rank holds rank 0's configuration. */
static int same_on_all(const gale_config_t *c)
{
    gale_config_t root;
    memcpy(&root, c, sizeof root);
    MPI_Bcast(&root, (int)sizeof root, MPI_BYTE, 0, MPI_COMM_WORLD);
    return memcmp(&root, c, sizeof root) == 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    gale_log_setup(rank, GALE_LOG_INFO);
    if (argc != 4) {
        if (rank == 0) fprintf(stderr, "usage: %s GOOD.ini BAD.ini LFRIC.nml\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    gale_config_t c;
    char *bad_ov[] = {"--solver.tolerance=abc"}, *good_ov[] = {"--timestepping.steps=7"};

    int st = gale_config_load(&c, argv[2], 0, NULL, MPI_COMM_WORLD);
    CHECK(st == GALE_ERR_INPUT, "rank %d: bad file gave %d", rank, st);
    st = gale_config_load(&c, "does/not/exist.ini", 0, NULL, MPI_COMM_WORLD);
    CHECK(st == GALE_ERR_INPUT, "rank %d: missing file gave %d", rank, st);
    st = gale_config_load(&c, NULL, 1, bad_ov, MPI_COMM_WORLD);
    CHECK(st == GALE_ERR_INPUT, "rank %d: bad override gave %d", rank, st);

    st = gale_config_load(&c, argv[1], 1, good_ov, MPI_COMM_WORLD);
    CHECK(st == GALE_OK, "rank %d: good file gave %d", rank, st);
    CHECK(c.mesh.n == 48 && c.timestepping.steps == 7, "rank %d: mesh %d steps %d", rank, c.mesh.n,
          c.timestepping.steps);
    CHECK(same_on_all(&c), "rank %d: configuration differs from rank 0's", rank);

    st = gale_config_load(&c, argv[3], 0, NULL, MPI_COMM_WORLD);
    CHECK(st == GALE_OK && c.mesh.n == 16 && c.timestepping.steps == 36,
          "rank %d: namelist gave %d, mesh %d", rank, st, c.mesh.n);
    CHECK(same_on_all(&c), "rank %d: namelist configuration differs from rank 0's", rank);

    /* each rank judges itself: mpiexec fails if any rank does */
    int rc = gale_test_result("test_config_mpi");
    MPI_Finalize();
    return rc;
}
