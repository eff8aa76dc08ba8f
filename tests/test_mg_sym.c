/* The multigrid V-cycle is a symmetric positive definite operator M, as a
 * preconditioner of cg needs (docs/multigrid.md): x . M y == y . M x to
 * rounding and x . M x > 0, for two vectors whose values depend only on each
 * cell's global id and level, with reproducible global sums. The program
 * prints the bits of x . M y; the test compares them between 1, 3 and 7
 * ranks (tests/multigrid.cmake), which a missing exchange on any level or a
 * restriction that reached a halo cell would change. C12 with 3 levels. */
#include "gale_base.h"
#include "gale_model.h"
#include "gale_report.h"
#include "gale_test_sym.h"

#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>

static void fill(gale_model_t *m, gale_field_t *f, uint64_t seed)
{
    for (int c = 0; c < gale_psy_owned(m->psy, GALE_LOC_CELL); c++)
        for (int k = 0; k < f->nlev; k++)
            gale_fd(f)[(size_t)c * f->stride + k] = val(m->lm.cell_gid[c], k, seed);
    gale_psy_host_wrote(m->psy, f, 0);
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    gale_log_setup(rank, GALE_LOG_WARN);
    char *ov[] = {"--mesh.name=C12", "--extrusion.levels=10", "--diagnostics.fields=",
                  "--solver.preconditioner=multigrid", "--multigrid.levels=3"};
    gale_config_t cfg;
    gale_model_t m;
    int ok = gale_config_parse(&cfg, NULL, 5, ov) == GALE_OK &&
             gale_model_setup(&m, &cfg, MPI_COMM_WORLD) == GALE_OK;
    gale_mg_t *mg = ok ? (gale_mg_t *)gale_solver_mg(m.solver) : NULL;
    if (!mg) {
        MPI_Finalize();
        return 1;
    }
    gale_field_t *x = &m.p, *y = &m.rhs, *t = &m.pn;
    fill(&m, x, 1);
    fill(&m, y, 2);
    ok = gale_mg_vcycle(mg, y, t) == GALE_OK;
    const double xMy = dot(&m, x, t), yMy = dot(&m, y, t);
    ok = ok && gale_mg_vcycle(mg, x, t) == GALE_OK;
    const double yMx = dot(&m, y, t), xMx = dot(&m, x, t);
    /* the departure against the Cauchy-Schwarz bound |x.My| <= sqrt(x.Mx y.My) */
    const double dep = fabs(xMy - yMx) / (sqrt(xMx * yMy) * DBL_EPSILON);
    ok = ok && isfinite(dep) && dep < 1e3 && xMx > 0 && yMy > 0 && gale_mg_levels(mg) == 3;
    if (rank == 0) {
        char hex[17];
        gale_hex_bits(xMy, hex);
        printf("%s: %d ranks, %d levels: x.My = %.17g, y.Mx = %.17g, departure %.3g eps "
               "(bound 1e3), x.Mx = %.6g\nx.My bits %s\n",
               ok ? "symmetric" : "FAIL", size, gale_mg_levels(mg), xMy, yMx, dep, xMx, hex);
    }
    gale_model_free(&m);
    MPI_Finalize();
    return ok ? 0 : 1;
}
