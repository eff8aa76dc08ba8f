/* The mimetic velocity inner product (gale_cs_cell_mfd, docs/numerics.md,
 * "The consistent operator"): every cell's matrix is symmetric positive
 * definite, and the global form u^T M_u u of a solid-body rotation's normal
 * components converges to the exact integral of |v|^2 at second order, where
 * the two-point (lumped) form does not converge on the non-orthogonal cube. */
#include "gale_base.h"
#include "gale_chain.h"
#include "gale_test.h"

#include <stdlib.h>
#include <string.h>

/* Cholesky of a symmetric 4x4: 1 when positive definite */
static int spd4(const double *m)
{
    double l[4][4] = {{0}};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j <= i; j++) {
            double s = m[4 * i + j];
            for (int k = 0; k < j; k++) s -= l[i][k] * l[j][k];
            if (i == j) {
                if (!(s > 0)) return 0;
                l[i][i] = sqrt(s);
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    return 1;
}

/* relative errors of the mimetic and the lumped |v|^2 integral on C_n */
static void errors(int n, double *err_mfd, double *err_lumped)
{
    const double a = 6371229.0 / 125.0;
    gale_cs_t cs;
    gale_chain_t ch;
    gale_local_t lm;
    gale_geom_t g;
    CHECK_OK(gale_cs_init(&cs, n, a));
    CHECK_OK(gale_chain_build(&ch, &cs, 1, 1, 0));
    CHECK_OK(gale_local_build(&cs, &ch.part[0], 0, 1, &lm));
    const int nc = lm.ncell[0], ne = lm.nedge[lm.depth];
    CHECK_OK(gale_geom_build(&cs, &lm, nc, &g));
    /* a solid-body rotation about a tilted axis, normal components at the midpoints */
    const double w[3] = {1 / sqrt(14.0), 2 / sqrt(14.0), 3 / sqrt(14.0)};
    double *u = calloc((size_t)ne, sizeof *u);
    for (int e = 0; e < ne; e++) {
        gale_edge_geom_t eg;
        gale_cs_edge_geom(&cs, lm.edge_gid[e], &eg);
        const double *x = eg.mid;
        const double v[3] = {a * (w[1] * x[2] - w[2] * x[1]), a * (w[2] * x[0] - w[0] * x[2]),
                             a * (w[0] * x[1] - w[1] * x[0])};
        u[e] = v[0] * eg.normal[0] + v[1] * eg.normal[1] + v[2] * eg.normal[2];
    }
    double em = 0, el = 0;
    int asym = 0, notpd = 0;
    for (int c = 0; c < nc; c++) {
        const double *m = g.mfd + 16 * (size_t)c;
        const int *ce = lm.cell_edge + 4 * c;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                em += u[ce[i]] * m[4 * i + j] * u[ce[j]];
                asym += m[4 * i + j] != m[4 * j + i];
            }
        notpd += !spd4(m);
    }
    for (int e = 0; e < lm.nedge_owned; e++) el += g.eweight[e] * u[e] * u[e];
    CHECK(asym == 0, "C%d: %d entries not symmetric", n, asym);
    CHECK(notpd == 0, "C%d: %d cells' matrices not positive definite", n, notpd);
    const double exact = a * a * a * a * 8.0 * GALE_PI / 3.0;
    *err_mfd = fabs(em - exact) / exact;
    *err_lumped = fabs(el - exact) / exact;
    printf("C%-3d |v|^2 integral: mimetic rel. error %.3e, lumped %.3e\n", n, *err_mfd, *err_lumped);
    free(u);
    gale_geom_free(&g);
    gale_local_free(&lm);
    gale_chain_free(&ch);
}

int main(void)
{
    double m12, l12, m24, l24, m48, l48;
    errors(12, &m12, &l12);
    errors(24, &m24, &l24);
    errors(48, &m48, &l48);
    CHECK(m12 / m24 > 3.0 && m24 / m48 > 3.0, "mimetic error not second order: %.3e %.3e %.3e",
          m12, m24, m48);
    CHECK(m48 < 1e-3, "mimetic error at C48 %.3e", m48);
    CHECK(l24 / l48 < 1.5 && l48 > 10 * m48, "lumped error converges? %.3e %.3e", l24, l48);
    return gale_test_result("test_mfd");
}
