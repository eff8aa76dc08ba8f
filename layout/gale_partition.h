/* Partitioning, local numbering and halo index lists. Serial and MPI-free:
 * every rank computes its own lists from the global partition (the closed-form
 * mesh plus one owner per cell), so no set-up communication is needed and the
 * whole thing is unit-testable without mpiexec.
 *
 * Halo definition (as LFRic): halo depth 1 is every cell that shares a vertex
 * with an owned cell and is not owned; depth d+1 is every cell sharing a vertex
 * with depth d that is not yet included. */
#ifndef GALE_PARTITION_H
#define GALE_PARTITION_H

#include "gale_mesh.h"

#define GALE_MAX_DEPTH 3

typedef enum { GALE_PART_SFC = 0, GALE_PART_PANEL = 1 } gale_part_method_t;

typedef struct {
    int nranks;
    int method;     /* gale_part_method_t */
    int px, py;     /* panel blocks per panel (panel method only) */
    int *owner;     /* [ncells] rank owning each cell */
} gale_partition_t;

/* Any nranks in 1..6N^2 for sfc (balanced to within one cell along a
 * generalised Hilbert curve); panel needs nranks == 1 or 6*px*py (px, py
 * chosen as close to square as possible). Bad counts are GALE_ERR_INPUT with
 * a message saying what is allowed. */
int gale_partition_build(const gale_cs_t *cs, int nranks, int method, gale_partition_t *part);
void gale_partition_free(gale_partition_t *part);
/* "sfc" / "panel" <-> method; returns -1 for an unknown name. */
int gale_part_method_parse(const char *name);
const char *gale_part_method_name(int method);

/* Index lists for one kind of entity (cells or edges) and one direction.
 * Neighbour q (0 <= q < nnbr) has entries idx[start[q] .. start[q+1]), sorted
 * by the depth at which the receiver needs them and then by gid, so that an
 * exchange of depth d moves the first count[q*(GALE_MAX_DEPTH+1)+d] of them. */
typedef struct {
    int *start;   /* [nnbr + 1] */
    int *count;   /* [nnbr * (GALE_MAX_DEPTH + 1)] */
    int *idx;     /* local indices */
} gale_xlist_t;

/* One rank's view of the mesh.
 * Cells are numbered [inner owned | boundary owned | halo 1 | ... | halo depth]:
 *  - inner: owned cells none of whose vertex neighbours is in the halo
 *    (a depth-1 stencil on them needs no halo data);
 *  - ncell[0] = owned, ncell[d] = owned + halo to depth d (prefix ranges);
 *    entries beyond `depth` repeat ncell[depth].
 * Edges are numbered [owned | other edges of owned cells | edges first reached
 * by halo 1 cells | ...]: nedge[d] counts the edges of the cells in ncell[d];
 * an edge is owned by the owner of its first cell.
 * Within each class entities are sorted by gid. */
typedef struct {
    int rank, nranks, depth;
    int ncell_inner;
    int ncell[GALE_MAX_DEPTH + 1];
    gale_gid_t *cell_gid;    /* [ncell[depth]] */
    int *cell_nbr;           /* [4 * ncell[depth]] local cell across W,S,E,N, -1 if not local */
    int *cell_edge;          /* [4 * ncell[depth]] local edge on W,S,E,N */
    int nedge_owned;
    int nedge[GALE_MAX_DEPTH + 1];
    gale_gid_t *edge_gid;    /* [nedge[depth]] */
    int *edge_cell;          /* [2 * nedge[depth]] local first and second cell, -1 if not local */
    int nnbr;                /* neighbour ranks: those owning a halo cell or edge, or needing ours */
    int *nbr_rank;           /* [nnbr], increasing */
    gale_xlist_t send_cell, recv_cell, send_edge, recv_edge;
} gale_local_t;

/* Build rank's local mesh with halos to `depth` (1..GALE_MAX_DEPTH). */
int gale_local_build(const gale_cs_t *cs, const gale_partition_t *part, int rank, int depth,
                     gale_local_t *lm);
void gale_local_free(gale_local_t *lm);

/* Statistics of a partition for `gale partition`, over all ranks, without
 * building every local mesh. min/mean/max over ranks. */
typedef struct { double min, mean, max; } gale_mmm_t;
typedef struct {
    int nranks, depth, nlev;
    gale_mmm_t owned;                       /* owned cells */
    gale_mmm_t halo[GALE_MAX_DEPTH + 1];    /* halo cells at exactly depth d (d >= 1) */
    gale_mmm_t halo_edges;                  /* non-owned edges to the full depth */
    gale_mmm_t nbrs;                        /* neighbour ranks at the full depth */
    gale_mmm_t bytes_cell;                  /* bytes received per exchange of one cell field, nlev levels, full depth */
    gale_mmm_t bytes_edge;                  /* same for one edge field */
    double imbalance;                       /* max owned / mean owned - 1 */
    double total_messages;                  /* messages per exchange, all ranks */
} gale_part_stats_t;
int gale_partition_stats(const gale_cs_t *cs, const gale_partition_t *part, int depth, int nlev,
                         gale_part_stats_t *st);

#endif
