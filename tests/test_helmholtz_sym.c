/* The Helmholtz operator is symmetric on a decomposed mesh, as CG needs
 * (HPCG's TestSymmetry): x . A y == y . A x to rounding, for two vectors
 * whose values depend only on each cell's global id and level (the same on
 * any decomposition), with reproducible global sums; x . A x > 0. Symmetry
 * alone cannot see a halo that was never exchanged (dropping the coupling
 * across ranks keeps A symmetric), so the program prints the bits of x . A y
 * and the test compares them between 1, 3 and 4 ranks (tests/dynamics.cmake).
 * Arguments are more --section.key=value overrides. */
#include "gale_base.h"
#include "gale_model.h"
#include "gale_report.h"
#include "gale_test_sym.h"

#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdint.h>

/* parity 0: the columns of even global id, 1: odd. Disjoint supports keep
 * the (large, trivially symmetric) diagonal and vertical couplings out of
 * x . A y: what is left are the horizontal couplings between columns, those
 * across ranks included, where a halo or sign error would show. */
static void fill(gale_model_t *m, gale_field_t *f, uint64_t seed, int parity)
{
    for (int c = 0; c < gale_psy_owned(m->psy, GALE_LOC_CELL); c++)
        for (int k = 0; k < f->nlev; k++)
            gale_fd(f)[(size_t)c * f->stride + k] =
                m->lm.cell_gid[c] % 2 == parity ? val(m->lm.cell_gid[c], k, seed) : 0;
    gale_psy_host_wrote(m->psy, f, 0); /* owned only: the apply must exchange */
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    gale_log_setup(rank, GALE_LOG_WARN);
    /* more overrides from the command line (the deep atmosphere's shells) */
    char *ov[16] = {"--mesh.name=C12", "--extrusion.levels=10", "--diagnostics.fields=",
                    "--halo.overlap=true"};
    int nov = 4;
    for (int i = 1; i < argc && nov < 16; i++) ov[nov++] = argv[i];
    gale_config_t cfg;
    gale_model_t m;
    int ok = gale_config_parse(&cfg, NULL, nov, ov) == GALE_OK &&
             gale_model_setup(&m, &cfg, MPI_COMM_WORLD) == GALE_OK;
    if (!ok) {
        MPI_Finalize();
        return 1;
    }
    /* x, y and A-products in the model's cell fields p, rhs, pn */
    gale_field_t *x = &m.p, *y = &m.rhs, *t = &m.pn;
    fill(&m, x, 1, 0);
    fill(&m, y, 2, 1);
    ok = gale_solver_apply(m.solver, y, t) == GALE_OK;
    const double xAy = dot(&m, x, t);
    ok = ok && gale_solver_apply(m.solver, x, t) == GALE_OK;
    const double yAx = dot(&m, y, t), xAx = dot(&m, x, t);
    /* the departure relative to the product, in units of machine epsilon */
    const double dep = fabs(xAy - yAx) / (fabs(xAy) * DBL_EPSILON);
    ok = ok && isfinite(dep) && dep < 64 && xAy != 0 && xAx > 0;
    if (rank == 0)
    {
        char hex[17];
        gale_hex_bits(xAy, hex);
        printf("%s: %d ranks: x.Ay = %.17g, y.Ax = %.17g, departure %.3g eps (bound 64), "
               "x.Ax = %.6g\nx.Ay bits %s\n", ok ? "symmetric" : "FAIL", size, xAy, yAx, dep, xAx,
               hex);
    }
    gale_model_free(&m);
    MPI_Finalize();
    return ok ? 0 : 1;
}
