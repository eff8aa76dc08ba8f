/* Global partitions (issue 2): every cell owned once, sfc balance and curve
 * continuity, panel blocks, compact sfc pieces, bad rank counts. */
#include "gale_base.h"
#include "gale_partition.h"
#include "gale_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int edge_adjacent(const gale_cs_t *cs, gale_gid_t a, gale_gid_t b)
{
    for (int s = 0; s < 4; s++)
        if (gale_cs_cell_nbr(cs, a, s) == b) return 1;
    return 0;
}

/* Owner in range, every rank's count as the floor formula says (so sizes
 * differ by at most one and no rank is empty). */
static void check_sfc_balance(int n, int P)
{
    gale_cs_t cs;
    gale_partition_t part;
    CHECK_OK(gale_cs_init(&cs, n, 1.0));
    if (gale_partition_build(&cs, P, GALE_PART_SFC, &part) != GALE_OK) {
        CHECK(0, "C%d P=%d sfc failed", n, P);
        return;
    }
    CHECK(part.nranks == P && part.method == GALE_PART_SFC, "C%d P=%d header", n, P);
    int64_t nc = cs.ncells;
    int *cnt = calloc((size_t)P, sizeof *cnt), bad = 0;
    for (int64_t c = 0; c < nc; c++) {
        int r = part.owner[c];
        if (r < 0 || r >= P) bad++;
        else cnt[r]++;
    }
    CHECK(bad == 0, "C%d P=%d: %d cells with an owner outside 0..P-1", n, P, bad);
    int lo = cnt[0], hi = cnt[0];
    for (int r = 0; r < P; r++) {
        int64_t want = (r + 1) * nc / P - r * nc / P;
        CHECK(cnt[r] == want, "C%d P=%d rank %d owns %d cells, expected %lld", n, P, r, cnt[r],
              (long long)want);
        lo = cnt[r] < lo ? cnt[r] : lo;
        hi = cnt[r] > hi ? cnt[r] : hi;
    }
    CHECK(hi - lo <= 1 && lo >= 1, "C%d P=%d: owned counts %d..%d", n, P, lo, hi);
    free(cnt);
    gale_partition_free(&part);
}

/* With one cell per rank, rank r's cell is the r-th along the curve: every
 * step inside a panel must cross an edge (the square gilbert curve has no
 * diagonal steps), and panels 0-1, 1-2, 2-3, 3-4 must join edge to edge (4
 * and 5 are opposite faces, so that step is a jump). */
static void check_curve(int n)
{
    gale_cs_t cs;
    gale_partition_t part;
    CHECK_OK(gale_cs_init(&cs, n, 1.0));
    int P = (int)cs.ncells, nn = n * n;
    CHECK_OK(gale_partition_build(&cs, P, GALE_PART_SFC, &part));
    gale_gid_t *cell = malloc((size_t)P * sizeof *cell);
    for (gale_gid_t c = 0; c < cs.ncells; c++) cell[part.owner[c]] = c;
    int breaks = 0, joins = 0;
    for (int r = 0; r + 1 < P; r++) {
        CHECK(cell[r] / nn == r / nn, "C%d: curve position %d is not on panel %d", n, r, r / nn);
        int adj = edge_adjacent(&cs, cell[r], cell[r + 1]);
        if ((r + 1) % nn) breaks += !adj;
        else joins += adj;
    }
    CHECK(breaks == 0, "C%d: %d non-adjacent steps inside panels", n, breaks);
    CHECK(joins == 4, "C%d: %d of the panel joins 0-1..3-4 are edge to edge", n, joins);
    free(cell);
    gale_partition_free(&part);
}

/* Panel blocks against the definition: block a of px covers
 * i in [a n / px, (a+1) n / px), ranks panel-major then j-block then i-block. */
static void check_panel(int n, int P, int px, int py)
{
    gale_cs_t cs;
    gale_partition_t part;
    CHECK_OK(gale_cs_init(&cs, n, 1.0));
    if (gale_partition_build(&cs, P, GALE_PART_PANEL, &part) != GALE_OK) {
        CHECK(0, "C%d P=%d panel failed", n, P);
        return;
    }
    CHECK(part.px == px && part.py == py, "C%d P=%d: blocks %d x %d, expected %d x %d", n, P,
          part.px, part.py, px, py);
    int bad = 0;
    for (int p = 0; p < 6; p++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int a = 0, b = 0;
                while ((a + 1) * n / px <= i) a++;
                while ((b + 1) * n / py <= j) b++;
                bad += part.owner[gale_cs_cell(&cs, p, i, j)] != (p * py + b) * px + a;
            }
    CHECK(bad == 0, "C%d P=%d: %d cells in the wrong block", n, P, bad);
    gale_partition_free(&part);
}

static void check_bad_counts(void)
{
    gale_cs_t cs;
    gale_partition_t part;
    CHECK_OK(gale_cs_init(&cs, 4, 1.0));
    fprintf(stderr, "(the error messages below are expected)\n");
    CHECK(gale_partition_build(&cs, 0, GALE_PART_SFC, &part) == GALE_ERR_INPUT, "P=0 accepted");
    CHECK(gale_partition_build(&cs, 97, GALE_PART_SFC, &part) == GALE_ERR_INPUT, "P=97 on C4");
    CHECK(gale_partition_build(&cs, 9999999, GALE_PART_PANEL, &part) == GALE_ERR_INPUT, "P huge");
    CHECK(gale_partition_build(&cs, 5, GALE_PART_PANEL, &part) == GALE_ERR_INPUT, "panel P=5");
    CHECK(gale_partition_build(&cs, 14, GALE_PART_PANEL, &part) == GALE_ERR_INPUT, "panel P=14");
    /* 6 x 5 x 1 blocks: 5 columns on a 4-wide panel */
    CHECK(gale_partition_build(&cs, 30, GALE_PART_PANEL, &part) == GALE_ERR_INPUT, "panel 5x1 on C4");
    CHECK(part.owner == NULL, "a failed build leaves memory behind");
    CHECK(gale_partition_build(&cs, 6, 7, &part) == GALE_ERR_INPUT, "method 7 accepted");
    CHECK_OK(gale_partition_build(&cs, 1, GALE_PART_PANEL, &part));
    int any = 0;
    for (gale_gid_t c = 0; c < cs.ncells; c++) any |= part.owner[c];
    CHECK(any == 0, "panel P=1 does not put everything on rank 0");
    gale_partition_free(&part);
}

/* Halo-1 size of every rank, brute force. */
static void halo1_sizes(const gale_cs_t *cs, const gale_partition_t *part, int *h)
{
    int P = part->nranks;
    int *seen = malloc((size_t)P * sizeof *seen);
    memset(h, 0, (size_t)P * sizeof *h);
    for (int r = 0; r < P; r++) seen[r] = -1;
    for (gale_gid_t c = 0; c < cs->ncells; c++) {
        gale_gid_t nb[8];
        int k = gale_cs_cell_vnbrs(cs, c, nb);
        for (int t = 0; t < k; t++) {
            int r = part->owner[nb[t]];
            if (r != part->owner[c] && seen[r] != (int)c) seen[r] = (int)c, h[r]++;
        }
    }
    free(seen);
}

/* Compactness. A rank owning a whole panel has a halo of exactly 4N cells
 * (N along each side, no diagonal cell at the cube corners). A compact piece
 * of A cells has about the boundary of a square, 4 ceil(sqrt A) + 4; a
 * Hilbert segment is a union of a few near-square blocks, so it stays within
 * twice that. A random partition instead gives each rank, for each cell it
 * does not own, probability 1 - (1 - 1/P)^8 of a vertex neighbour it owns:
 * expected total halo nc (P - 1)(1 - (1 - 1/P)^8), far more. */
static void check_compact(void)
{
    const int n = 24, Ps[] = {6, 7, 13, 24, 50, 150};
    gale_cs_t cs;
    CHECK_OK(gale_cs_init(&cs, n, 1.0));
    for (size_t t = 0; t < sizeof Ps / sizeof *Ps; t++) {
        int P = Ps[t];
        gale_partition_t part;
        CHECK_OK(gale_partition_build(&cs, P, GALE_PART_SFC, &part));
        int *h = malloc((size_t)P * sizeof *h), *cnt = calloc((size_t)P, sizeof *cnt);
        halo1_sizes(&cs, &part, h);
        for (gale_gid_t c = 0; c < cs.ncells; c++) cnt[part.owner[c]]++;
        long total = 0;
        for (int r = 0; r < P; r++) {
            double square = 4 * ceil(sqrt(cnt[r])) + 4;
            CHECK(h[r] <= 2 * square, "C%d P=%d rank %d: halo-1 %d cells for %d owned", n, P, r,
                  h[r], cnt[r]);
            if (P == 6) CHECK(h[r] == 4 * n, "C%d P=6 rank %d: halo-1 %d, a panel has %d", n, r, h[r], 4 * n);
            total += h[r];
        }
        double random = (double)cs.ncells * (P - 1) * (1 - pow(1 - 1.0 / P, 8));
        CHECK(total < random / 4, "C%d P=%d: total halo-1 %ld vs %.0f for a random partition", n,
              P, total, random);
        free(h);
        free(cnt);
        gale_partition_free(&part);
    }
}

int main(void)
{
    CHECK(gale_part_method_parse("sfc") == GALE_PART_SFC, "sfc");
    CHECK(gale_part_method_parse("panel") == GALE_PART_PANEL, "panel");
    CHECK(gale_part_method_parse("hilbert") == -1, "hilbert");
    CHECK(strcmp(gale_part_method_name(GALE_PART_SFC), "sfc") == 0, "name sfc");
    CHECK(strcmp(gale_part_method_name(GALE_PART_PANEL), "panel") == 0, "name panel");

    const int ns[] = {1, 2, 3, 4, 5, 8, 12, 13};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++) {
        int n = ns[a];
        const int Ps[] = {1, 2, 3, 4, 6, 7, 6 * n * n - 1, 6 * n * n};
        for (size_t b = 0; b < sizeof Ps / sizeof *Ps; b++)
            if (Ps[b] <= 6 * n * n) check_sfc_balance(n, Ps[b]);
        check_curve(n);
    }
    check_curve(24);
    check_curve(31);

    check_panel(4, 6, 1, 1);
    check_panel(4, 24, 2, 2);
    check_panel(5, 24, 2, 2);   /* blocks of 2 and 3 */
    check_panel(7, 36, 3, 2);   /* 6 blocks per panel: 3 x 2 */
    check_panel(12, 6 * 12, 4, 3);
    check_panel(3, 6 * 9, 3, 3); /* one cell per rank */
    check_bad_counts();
    check_compact();
    return gale_test_result("test_partition");
}
