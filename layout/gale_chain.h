/* The multigrid mesh chain C_N -> C_N/2 -> ... (docs/multigrid.md): the
 * meshes, partitions that nest, the parent-child maps and the geometry every
 * level's kernels read. Serial and MPI-free like the rest of layout/.
 *
 * Coarse cell (p, I, J) of C_n has the four children (p, 2I+a, 2J+b),
 * a, b in {0, 1}, of C_2n: the equiangular panels of the two meshes share
 * their lines, so the children tile the parent exactly. */
#ifndef GALE_CHAIN_H
#define GALE_CHAIN_H

#include "gale_partition.h"

#define GALE_CHAIN_MAX 16

typedef struct {
    int levels;                            /* level 0 is the finest */
    gale_cs_t cs[GALE_CHAIN_MAX];          /* C_n, C_n/2, ... */
    gale_partition_t part[GALE_CHAIN_MAX]; /* part[l].owner over cs[l]'s cells */
} gale_chain_t;

/* Levels of the chain of C_n: at most want (>= 1), and n divisible by
 * 2^(levels-1). */
int gale_chain_levels(int n, int want);

/* The chain from the fine mesh (levels from gale_chain_levels). With one
 * level this is the ordinary partition of the fine mesh. With more, the
 * coarsest level is partitioned by method and every finer cell inherits its
 * parent's owner: a coarse cell and its children live on one rank, so
 * restriction and prolongation never communicate. The coarsest level must
 * have at least one cell per rank (GALE_ERR_INPUT naming the limits). */
int gale_chain_build(gale_chain_t *ch, const gale_cs_t *fine, int levels, int nranks, int method);
void gale_chain_free(gale_chain_t *ch);

/* child[4 c + q] for the owned coarse cells c of `coarse` (a rank's local
 * mesh of level l + 1): the local indices in `fine` (the same rank, level
 * l) of its children, q = b*2 + a. Every child is owned (nested
 * partitions); GALE_ERR_INTERNAL if not. */
int gale_chain_children(const gale_cs_t *fine_cs, const gale_local_t *fine,
                        const gale_cs_t *coarse_cs, const gale_local_t *coarse, int *child);

/* One rank's mesh geometry, from the closed form: per local cell its area
 * and, per side, +1 if it is the edge's first cell (else -1); per local edge
 * its length l_e, 1 / the distance d_e between its cells' centres, and l_e d_e
 * (the velocity's energy weight). area has ncell_alloc entries (the tail is
 * zero). */
typedef struct {
    double *area, *cell_sign, *elen, *erdist, *eweight;
    /* per local cell, the mimetic inner product (gale_cs_cell_mfd) in the
     * edges' own orientation: mfd[16 c + 4 i + j] times the signs of sides
     * i and j */
    double *mfd;
    int *edge_side; /* [2 nedge] the edge's side (W,S,E,N) in its first and second cell (0 outside) */
} gale_geom_t;
int gale_geom_build(const gale_cs_t *cs, const gale_local_t *lm, int ncell_alloc, gale_geom_t *g);
void gale_geom_free(gale_geom_t *g);

#endif
