/* A NaN in a prognostic stops the step on every rank with GALE_ERR_NUMERIC,
 * naming the field, the cell and the level (tests/ranks.py checks every rank's
 * exit status and the message). */
#include "gale_base.h"
#include "gale_model.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    gale_log_setup(rank, GALE_LOG_WARN);
    char *ov[] = {"--mesh.name=C6", "--extrusion.levels=5"};
    gale_config_t cfg;
    gale_model_t m;
    int ok = gale_config_parse(&cfg, NULL, 2, ov) == GALE_OK &&
             gale_model_setup(&m, &cfg, MPI_COMM_WORLD) == GALE_OK &&
             gale_model_step(&m) == GALE_OK;
    /* cell 100 of C6 is panel 2, i 4, j 4; poison level 3 of w there (on
     * the host copy, then back where the kernels read it) */
    ok = ok && gale_k_field_to_host(&m.w) == GALE_OK;
    for (int c = 0; ok && c < m.lm.ncell[0]; c++)
        if (m.lm.cell_gid[c] == 100) gale_fd(&m.w)[(size_t)c * m.km.si + 3] = NAN;
    ok = ok && gale_k_field_to_device(&m.w) == GALE_OK;
    int st = ok ? gale_model_step(&m) : -1;
    ok = st == GALE_ERR_NUMERIC;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0) printf(ok ? "every rank stopped with GALE_ERR_NUMERIC\n" : "FAIL: status %d\n", st);
    MPI_Finalize();
    return ok ? 0 : 1;
}
