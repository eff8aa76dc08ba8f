/* gale_partition_stats (issue 2) against the same figures summed over
 * gale_local_build for every rank, on small meshes. */
#include "gale_base.h"
#include "gale_partition.h"
#include "gale_test.h"

#include <stdlib.h>

#define NDC (GALE_MAX_DEPTH + 1)

typedef struct { double min, max, sum; } acc_t;

static void add(acc_t *a, double v, int first)
{
    if (first || v < a->min) a->min = v;
    if (first || v > a->max) a->max = v;
    a->sum += v;
}

static void check_mmm(const char *what, gale_mmm_t got, acc_t want, int P, int n, int D)
{
    CHECK(got.min == want.min && got.max == want.max, "C%d P=%d D=%d %s: min/max %g/%g, local "
          "meshes give %g/%g", n, P, D, what, got.min, got.max, want.min, want.max);
    CHECK_REL(got.mean, want.sum / P, 1e-12);
}

static void check(int n, int P, int method, int D, int nlev)
{
    gale_cs_t cs;
    gale_partition_t part;
    gale_part_stats_t st;
    CHECK_OK(gale_cs_init(&cs, n, 1.0));
    CHECK_OK(gale_partition_build(&cs, P, method, &part));
    CHECK_OK(gale_partition_stats(&cs, &part, D, nlev, &st));
    acc_t owned = {0}, halo[NDC] = {{0}}, hedge = {0}, nbrs = {0}, bc = {0}, be = {0};
    double messages = 0;
    for (int r = 0; r < P; r++) {
        gale_local_t lm;
        CHECK_OK(gale_local_build(&cs, &part, r, D, &lm));
        add(&owned, lm.ncell[0], r == 0);
        for (int d = 1; d <= D; d++) add(&halo[d], lm.ncell[d] - lm.ncell[d - 1], r == 0);
        add(&hedge, lm.nedge[D] - lm.nedge_owned, r == 0);
        add(&nbrs, lm.nnbr, r == 0);
        add(&bc, 8.0 * nlev * (lm.ncell[D] - lm.ncell[0]), r == 0);
        add(&be, 8.0 * nlev * (lm.nedge[D] - lm.nedge_owned), r == 0);
        for (int q = 0; q < lm.nnbr; q++) messages += lm.recv_cell.count[q * NDC + D] > 0;
        gale_local_free(&lm);
    }
    CHECK(st.nranks == P && st.depth == D && st.nlev == nlev, "header");
    check_mmm("owned", st.owned, owned, P, n, D);
    for (int d = 1; d <= D; d++) check_mmm("halo", st.halo[d], halo[d], P, n, D);
    check_mmm("halo edges", st.halo_edges, hedge, P, n, D);
    check_mmm("neighbours", st.nbrs, nbrs, P, n, D);
    check_mmm("cell bytes", st.bytes_cell, bc, P, n, D);
    check_mmm("edge bytes", st.bytes_edge, be, P, n, D);
    CHECK_REL(st.imbalance + 1, owned.max / (owned.sum / P), 1e-12);
    CHECK(st.total_messages == messages, "C%d P=%d D=%d: %g messages, local meshes give %g", n, P,
          D, st.total_messages, messages);
    gale_partition_free(&part);
}

int main(void)
{
    const int ns[] = {3, 6, 10}, Ps[] = {1, 2, 5, 7, 24, 50};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof Ps / sizeof *Ps; b++)
            for (int D = 1; D <= GALE_MAX_DEPTH; D++)
                if (Ps[b] <= 6 * ns[a] * ns[a]) check(ns[a], Ps[b], GALE_PART_SFC, D, 1 + D * 40);
    check(6, 24, GALE_PART_PANEL, 2, 10);
    check(2, 24, GALE_PART_SFC, 3, 10);
    check(1, 6, GALE_PART_SFC, 1, 10);

    gale_cs_t cs;
    gale_partition_t part;
    gale_part_stats_t st;
    CHECK_OK(gale_cs_init(&cs, 4, 1.0));
    CHECK_OK(gale_partition_build(&cs, 4, GALE_PART_SFC, &part));
    fprintf(stderr, "(the error messages below are expected)\n");
    CHECK(gale_partition_stats(&cs, &part, 0, 10, &st) == GALE_ERR_INPUT, "depth 0 accepted");
    CHECK(gale_partition_stats(&cs, &part, 1, 0, &st) == GALE_ERR_INPUT, "0 levels accepted");
    gale_partition_free(&part);
    return gale_test_result("test_partition_stats");
}
