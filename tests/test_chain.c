/* The multigrid mesh chain (layout/gale_chain.h, docs/multigrid.md): how many
 * levels a mesh allows, partitions that nest (a coarse cell's children have
 * its owner, on every level, for any rank count), the child maps of every
 * rank's local meshes, a coarse cell's area as the sum of its children's,
 * and the error when the coarsest level has fewer cells than ranks. */
#include "gale_base.h"
#include "gale_chain.h"
#include "gale_test.h"

#include <stdlib.h>
#include <string.h>

static void check_chain(int n, int want, int P, int method, int expect_levels)
{
    gale_cs_t cs;
    gale_chain_t ch;
    CHECK_OK(gale_cs_init(&cs, n, 1.0));
    const int L = gale_chain_levels(n, want);
    CHECK(L == expect_levels, "C%d, %d wanted: %d levels, expected %d", n, want, L, expect_levels);
    if (gale_chain_build(&ch, &cs, L, P, method) != GALE_OK) {
        CHECK(0, "C%d %d levels on %d ranks: build failed", n, L, P);
        return;
    }
    CHECK(ch.levels == L && ch.cs[L - 1].n == n >> (L - 1), "C%d: coarsest C%d", n, ch.cs[L - 1].n);
    for (int l = 0; l + 1 < L; l++) {
        const gale_cs_t *f = &ch.cs[l], *c = &ch.cs[l + 1];
        int bad = 0;
        double worst = 0;
        for (gale_gid_t g = 0; g < c->ncells; g++) {
            int p, i, j;
            gale_cs_cell_pij(c, g, &p, &i, &j);
            double sum = 0;
            for (int q = 0; q < 4; q++) {
                gale_gid_t k = gale_cs_cell(f, p, 2 * i + (q & 1), 2 * j + (q >> 1));
                bad += ch.part[l].owner[k] != ch.part[l + 1].owner[g];
                sum += gale_cs_cell_area(f, k);
            }
            double a = gale_cs_cell_area(c, g);
            worst = fmax(worst, fabs(sum - a) / a);
        }
        CHECK(bad == 0, "C%d -> C%d on %d ranks: %d children with another owner", f->n, c->n, P, bad);
        CHECK(worst < 1e-12, "C%d -> C%d: children's areas differ from the parent's by %.3g", f->n,
              c->n, worst);
    }
    /* every rank owns cells on every level; the local child maps name owned
     * fine cells of the right global ids */
    for (int r = 0; r < P; r++) {
        gale_local_t lm[GALE_CHAIN_MAX];
        memset(lm, 0, sizeof lm);
        for (int l = 0; l < L; l++) {
            CHECK_OK(gale_local_build(&ch.cs[l], &ch.part[l], r, 1, &lm[l]));
            CHECK(lm[l].ncell[0] > 0, "rank %d owns nothing on level %d", r, l);
        }
        for (int l = 0; l + 1 < L; l++) {
            const int nc = lm[l + 1].ncell[0];
            int *child = malloc(sizeof(int) * 4 * (size_t)(nc ? nc : 1));
            CHECK_OK(gale_chain_children(&ch.cs[l], &lm[l], &ch.cs[l + 1], &lm[l + 1], child));
            int bad = 0;
            for (int c = 0; c < nc; c++) {
                int p, i, j;
                gale_cs_cell_pij(&ch.cs[l + 1], lm[l + 1].cell_gid[c], &p, &i, &j);
                for (int q = 0; q < 4; q++) {
                    const int f = child[4 * c + q];
                    bad += f < 0 || f >= lm[l].ncell[0] ||
                           lm[l].cell_gid[f] !=
                               gale_cs_cell(&ch.cs[l], p, 2 * i + (q & 1), 2 * j + (q >> 1));
                }
            }
            /* the owned fine cells are exactly the children of the owned coarse ones */
            CHECK(4 * nc == lm[l].ncell[0], "rank %d level %d: %d owned, 4 x %d coarse", r, l,
                  lm[l].ncell[0], nc);
            CHECK(bad == 0, "rank %d level %d: %d wrong children", r, l, bad);
            free(child);
        }
        for (int l = 0; l < L; l++) gale_local_free(&lm[l]);
    }
    gale_chain_free(&ch);
}

int main(void)
{
    gale_log_setup(0, GALE_LOG_ERROR);
    CHECK(gale_chain_levels(16, 4) == 4 && gale_chain_levels(12, 4) == 3 &&
              gale_chain_levels(96, 4) == 4 && gale_chain_levels(96, 16) == 6 &&
              gale_chain_levels(7, 4) == 1 && gale_chain_levels(16, 1) == 1,
          "levels a mesh allows");
    check_chain(12, 3, 7, GALE_PART_SFC, 3);   /* the case: C12 on 7 ranks, 3 levels */
    check_chain(16, 4, 5, GALE_PART_SFC, 4);
    check_chain(24, 4, 6, GALE_PART_PANEL, 4);
    check_chain(12, 4, 1, GALE_PART_SFC, 3);
    /* one level: the ordinary partition, bit for bit */
    {
        gale_cs_t cs;
        gale_chain_t ch;
        gale_partition_t part;
        CHECK_OK(gale_cs_init(&cs, 12, 1.0));
        CHECK_OK(gale_chain_build(&ch, &cs, 1, 5, GALE_PART_SFC));
        CHECK_OK(gale_partition_build(&cs, 5, GALE_PART_SFC, &part));
        CHECK(memcmp(ch.part[0].owner, part.owner, sizeof(int) * (size_t)cs.ncells) == 0,
              "one level differs from gale_partition_build");
        gale_partition_free(&part);
        gale_chain_free(&ch);
    }
    /* C4 with 3 levels: the coarsest, C1, has 6 cells, fewer than 7 ranks */
    {
        gale_cs_t cs;
        gale_chain_t ch;
        CHECK_OK(gale_cs_init(&cs, 4, 1.0));
        int err = gale_chain_build(&ch, &cs, 3, 7, GALE_PART_SFC);
        CHECK(err == GALE_ERR_INPUT, "C4, 3 levels, 7 ranks: %d, expected an input error", err);
        CHECK_OK(gale_chain_build(&ch, &cs, 3, 6, GALE_PART_SFC));
        gale_chain_free(&ch);
    }
    return gale_test_result("test_chain");
}
