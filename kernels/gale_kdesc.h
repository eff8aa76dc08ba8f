/* Kernel descriptions: one row per kernel, beside its body (PSyclone's
 * meta_args, in C; docs/architecture.md "Kernels"). Everything that lists
 * kernels is derived from the rows: the ids and names, the timers, the PSy
 * layer's descriptors and typed launches (psy/), the one dispatch both launch
 * layers compile (gale_kdispatch.h), the minimum bytes and flops of every
 * launch (the run report's roofline), the kernel benchmark's list and the
 * vectorisation report's kernel guard.
 *
 * A row, in a body header's GALE_KROWS_<GROUP>(K) list:
 *
 *   K(name, space, aux, prec, extent, redundant, bytes, flops,
 *     ((arg, loc, access, stencil), ...), call_d, call_f)
 *
 *  name      the kernel (and its timer): launched as gale_psy_<name>
 *  space     what one body call covers: CELLS (a cell column), EDGES (an edge
 *            column), FLAT (one element of whole column blocks), COLS (one
 *            whole column block of the first written field's location), BATCH
 *            (GALE_LANES cell columns, with scratch T); or a reduction over
 *            the owned columns of its fields' location into the launch's
 *            result (gale_kred_t), which names its kind: SUM (the body is a
 *            column's value, added by the sum schedule of gale_kbodies.h,
 *            reproducible or plain), MAXABS (the body folds the column's
 *            max |x| into m and its column into bc, the first bad column;
 *            the launch adds the first field's first bad level), MINMAX (the
 *            body folds the column into lo and hi)
 *  aux       the static data the body reads besides the kmesh: M none, T the
 *            transport's (TR), N the nonlinear core's (NK)
 *  prec      D: double only; DF: double and single precision bodies, the
 *            first field argument's precision choosing
 *  extent    the halo depth the loop always reaches (0: owned)
 *  redundant with [halo] redundant_computation the loop goes as far into the
 *            halo as its inputs are valid (1) or not (0)
 *  bytes     the launch's minimum bytes per point besides its field
 *            arguments' whole columns (whose bytes follow from their
 *            locations and levels, gale_k_launch_bytes): the static data
 *            the body reads by column (coefficients, connectivity, int or
 *            floating point, a weight per column), less the levels of a
 *            field's columns it never touches (an interface field read only
 *            inside: its ground and top; a field of several rows of padded
 *            levels: the padding). Minimum bytes: what an ideal cache moves
 *            in one launch, each byte once when first read and once when
 *            written; arrays every column shares (indexed by level, and NK's
 *            reference rows when one column serves all) are not counted. A
 *            point is a column and level of the first field argument
 *  flops     floating-point operations per point: the body's as its source
 *            writes them, a column whose data take every branch (add, sub,
 *            mul, div, sqrt, min, max and a comparison 1, fma 2, a libm call
 *            1; conversions, negation, fabs 0)
 *            bytes and flops are expressions in the launch (kdesc.c): NL the
 *            first field's levels, NLAY the mesh's layers, ES the element's
 *            bytes (8; 4 in single precision), DEEP the linear core's deep
 *            atmosphere (km), TDEEP the transport's (TR), LIM limited
 *            transport, PS NK's reference rows per column, FILL (BATCH) the
 *            share of the batches' lanes inside the range; the row's scalars
 *            by name, its fields and weights by name (1 given, 0 NULL) and
 *            field_nlev. Both are checked against every body by the test
 *            kernel_counts (tests/test_kcount.c; the rules: docs/report.md,
 *            "Minimum bytes and flops")
 *  args      in the typed launch's order: loc C (cell), E (edge), I
 *            (interface), CI (cell or interface), A (any), S (a scalar,
 *            double), WC, WL (a reduction's weight per column, per level of
 *            its first field: const double *, NULL for 1, a weight per column
 *            counted in the row's bytes; unchanged during the run: the
 *            offload layer copies it when it first sees it); access R, W, RW;
 *            stencil: the halo depth read beyond the loop's columns
 *  call_d    the body call: the arguments by name (void * for fields; per
 *            field also <arg>_nlev, <arg>_stride), i the column (FLAT: the
 *            element; BATCH: the batch, lanes l0, l1, scratch T), KM, TR, NK
 *  call_f    the single-precision call (DF), else 0
 *
 * A reduction's typed launch takes n sets of the row's arguments (fields of
 * one shape), run as one launch, and a result per set. */
#ifndef GALE_KDESC_H
#define GALE_KDESC_H

#include "gale_kpp.h"

#include "gale_kbodies.h"
#include "gale_kbodies_nl.h"
#include "gale_kbodies_transport.h"

/* The row lists, in id order. */
#define GALE_KERNELS(K)                                                                    \
    GALE_KROWS_DYNAMICS(K) GALE_KROWS_VECTOR(K) GALE_KROWS_SOLVER(K) GALE_KROWS_PRECOND(K)    \
    GALE_KROWS_REDUCE(K) GALE_KROWS_TRANSPORT(K) GALE_KROWS_NL(K) GALE_KROWS_NL_TRANSPORT(K)

/* Each row list's category: a kernel's is its list's (gale_kdesc_t.category;
 * the run report writes it beside the kernel's timer, and the benchmarks'
 * time categories are derived from it, docs/report.md). A list missing here,
 * or named twice, fails to compile (kdesc.c).
 *
 *   dynamics   the linear core's operators (GALE_KROWS_DYNAMICS)
 *   vector     whole-field vector operations: axpby, copy, convert, lincomb
 *   solver     the Helmholtz operator (GALE_KROWS_SOLVER)
 *   precond    the preconditioners: pc_diag, pc_tridiag, the multigrid's
 *              residual, smooth, restrict, prolong (GALE_KROWS_PRECOND)
 *   reduce     the dot products and the health checks (the transport's
 *              min/max is a transport kernel)
 *   transport  the transport scheme: tr_* and the nonlinear core's
 *              transport (GALE_KROWS_NL_TRANSPORT)
 *   nonlinear  the rest of the nonlinear core: equation of state, forcing
 *              (the vorticity force too), its residual, the update, the
 *              reference state, the budgets (GALE_KROWS_NL) */
#define GALE_KCATEGORIES(C)                                                                \
    C(DYNAMICS, dynamics) C(VECTOR, vector) C(SOLVER, solver) C(PRECOND, precond)          \
    C(REDUCE, reduce) C(TRANSPORT, transport) C(NL, nonlinear) C(NL_TRANSPORT, transport)

#define GALE_KID_(name, ...) GALE_K_##name,
enum { GALE_KERNELS(GALE_KID_) GALE_K_N };
#undef GALE_KID_

/* the reductions last: GALE_KS_SUM and after */
enum { GALE_KS_CELLS, GALE_KS_EDGES, GALE_KS_FLAT, GALE_KS_COLS, GALE_KS_BATCH, GALE_KS_SUM,
       GALE_KS_MAXABS, GALE_KS_MINMAX };
#define GALE_KS_REDUCES(space) ((space) >= GALE_KS_SUM)
enum { GALE_KAUX_M, GALE_KAUX_T, GALE_KAUX_N };
/* locations: a bit per gale_loc_t (GALE_LOC_CELL, _EDGE, _IFACE) */
enum { GALE_KL_C = 1, GALE_KL_E = 2, GALE_KL_I = 4, GALE_KL_CI = 5, GALE_KL_A = 7, GALE_KL_S = 0 };
enum { GALE_KA_R = 1, GALE_KA_W = 2, GALE_KA_RW = 3 };
/* Fused groups (docs/fusion.md): launches over the same columns that the
 * PSy layer runs as one loop, each column's kernels back to back while its
 * levels are in cache. Each is declared once, here, beside the rows:
 *
 *   G(name, category, ((kernel), (kernel), ...))
 *
 *  name      the group (its timer; launched between gale_psy_fuse_begin(p,
 *            GALE_KG_<name>) and gale_psy_fuse_end(p))
 *  category  its kernels' category (GALE_KCATEGORIES), for the benchmarks
 *  kernels   the launches, in order: column kernels (CELLS, EDGES, COLS)
 *            and FLAT kernels, of one column location, at one loop extent
 *
 * What may be fused is the rows' to say: the PSy layer checks each group's
 * launches against them when they are made (docs/fusion.md, "Legality"). */
#define GALE_KGROUPS(G)                                                                    \
    G(rk_stage, transport, ((axpby), (axpby)))                                             \
    G(resid_u, nonlinear, ((mix_u), (axpby), (axpby)))
#define GALE_KG_ID_(name, cat, ks) GALE_KG_##name,
enum { GALE_KGROUPS(GALE_KG_ID_) GALE_KG_N };
#undef GALE_KG_ID_
#define GALE_KG_MAX 8 /* launches in one group */
typedef struct {
    const char *name, *category;
    int n;                /* its launches */
    int k[GALE_KG_MAX];   /* their kernels (GALE_K_*), in order */
} gale_kgroup_t;

#define GALE_KMAXF 8 /* field arguments of one kernel */
#define GALE_KMAXS 8 /* scalar arguments */
#define GALE_KMAXW 2 /* weights */

typedef struct {
    const char *name; /* the argument's name in the row (and the typed launch) */
    int loc;          /* GALE_KL_*: the locations it may have */
    int access;       /* GALE_KA_* */
    int stencil;
} gale_karg_t;

typedef struct {
    const char *name;
    int space, aux, two_prec, extent, redundant;
    int nfield, nscalar;
    gale_karg_t field[GALE_KMAXF];
    const char *scalar[GALE_KMAXS + 1];
    const char *call;     /* call_d as written in the row */
    const char *category; /* its row list's (GALE_KCATEGORIES) */
} gale_kdesc_t;
extern const gale_kdesc_t gale_kdesc[GALE_K_N]; /* by GALE_K_* id (kdesc.c) */
extern const gale_kgroup_t gale_kgroup[GALE_KG_N]; /* by GALE_KG_* id (kdesc.c) */
/* Whether kernel id is in some group: a constant for a constant id, so that
 * a layer's group loop compiles only the groups' kernels (gale_kdispatch.h). */
#define GALE_KG_IS_(k) || id_ == GALE_K_##k
#define GALE_KG_ANY_(name, cat, ks) GALE_PP_MAPT(GALE_KG_IS_, ks)
static inline int gale_kg_member(int id_) { return 0 GALE_KGROUPS(GALE_KG_ANY_); }
#undef GALE_KG_IS_
#undef GALE_KG_ANY_

/* ---- one launch, as the launch layers see it ---- */
typedef struct {
    void *p;            /* host address (the launch layer maps it to the device) */
    int nlev, stride, elem, loc;
} gale_kfield_t;
/* A reduction's result: the launch folds its columns into what the caller
 * set (an empty launch leaves it). */
typedef struct {
    int reproducible;      /* SUM, set by the caller: the fixed-point words, else only plain */
    gale_rsum_t sum;       /* SUM: += the columns' values */
    double min, max;       /* MINMAX: min and max; MAXABS: max |x|, NaN if an entry is not finite */
    int bad_col, bad_lev;  /* MAXABS: the first NaN or Inf (least column, its least level), or -1 */
} gale_kred_t;
typedef struct {
    const gale_kmesh_t *km;
    const gale_ktr_t *tr;
    const gale_knl_t *nk;
    int prec;           /* GALE_F64 / GALE_F32: the body of a DF kernel */
    int flat;           /* FLAT, COLS: elements per column (the smallest field stride) */
    int nlev;           /* levels of the first field argument: points = columns x nlev */
    int nset;           /* a reduction: this and the next nset - 1 of the array run as one
                           launch, each into its own result (0 or 1: this one alone) */
    double s[GALE_KMAXS];
    const double *w[GALE_KMAXW]; /* the weights in the row's order (host addresses) */
    gale_kfield_t f[GALE_KMAXF]; /* the field arguments in the row's order (NULL: absent) */
    gale_kred_t *red;   /* a reduction's result */
} gale_kargs_t;
/* Kernel id on columns [i0, i1) (cells or edges; FLAT and BATCH: the columns
 * whose elements or batches are covered). Times the launch under the
 * kernel's timer and counts its minimum bytes. Not collective. */
void gale_k_run(int id, const gale_kargs_t *a, int i0, int i1);
/* Minimum bytes of that launch (the count gale_k_run adds to the timer): the
 * fields' columns follow from their locations (an edge loop touches half a
 * cell column per edge, a cell loop two edges per cell; on one rank exactly
 * the columns a stencil reads, on many the halo columns it reads are left
 * out), a field passed for several arguments (x . x) moves once, a
 * single-precision launch counts 4-byte elements, and the row adds its bytes
 * per point (BATCH: of whole batches); a reduction's sets add up. */
double gale_k_launch_bytes(int id, const gale_kargs_t *a, int i0, int i1);
/* Floating-point operations of that launch: the row's flops per point
 * (BATCH: of whole batches, whose sweeps run every lane). */
double gale_k_launch_flops(int id, const gale_kargs_t *a, int i0, int i1);
/* The kernels' timers: registered once, sub-timers of "compute". */
/* A fused group's minimum bytes (each field once: docs/fusion.md). */
double gale_k_group_bytes(int n, const int *ids, const gale_kargs_t *a, int i0, int i1);
/* Fused group g: its n launches ids[], a[] on columns [i0, i1) as one loop,
 * each column's kernels in order (FLAT: the column's elements), under the
 * group's timer. The PSy layer has checked that it may (docs/fusion.md). */
void gale_k_run_group(int g, int n, const int *ids, const gale_kargs_t *a, int i0, int i1);
void gale_k_timers_register(int *kt);

#endif
