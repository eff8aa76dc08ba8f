/* The PSy layer (docs/architecture.md): field-level launches. The science
 * (model, transport, solver) says "apply this kernel to these fields"; this
 * layer owns what LFRic's generated PSy layer owns:
 *  - halo validity: every field carries the depth to which its halo holds
 *    current values (gale_field_t.halo_valid); a launch exchanges a read
 *    argument only when it is staler than the kernel's stencil needs, and
 *    marks what it wrote as valid to the depth it computed;
 *  - loop bounds: owned entities, owned + halo to depth d (redundant
 *    computation), or inner then boundary cells around an exchange
 *    ([halo] overlap);
 *  - global reductions: one call per reduction, reproducible or plain.
 * A kernel is described once, beside its body (gale_kdesc.h: access,
 * location and stencil depth per argument, the entity it iterates over);
 * the typed launches below are derived from those rows (psy/kernels.c).
 *
 * Every launch is collective over the ranks when it may exchange (all ranks
 * make the same launches in the same order, so they agree on validity and
 * on which exchanges happen); the reductions are collective. */
#ifndef GALE_PSY_H
#define GALE_PSY_H

#include "gale_halo.h"
#include "gale_kdesc.h"

#include <mpi.h>

typedef struct gale_psy gale_psy_t;

/* [halo]: how far to exchange and whether loops may compute into the halo. */
typedef struct {
    int depth;      /* [halo] depth */
    int redundant;  /* [halo] redundant_computation */
    int overlap;    /* [halo] overlap */
    int progress;   /* [halo] progress_points: test pending sums between launches */
} gale_psy_opts_t;

/* Collective. Picks this rank's device, checks [offload] memory and
 * [halo] gpu_aware against it and the MPI library (GALE_ERR_INPUT on every
 * rank when one fails) and logs what it found. Before gale_psy_create. */
int gale_psy_device_setup(int memory, int gpu_aware, MPI_Comm comm);

/* Not collective. lm and km must outlive it; the caller fills km (the
 * geometry and operator coefficients) and then calls gale_psy_kernels_init
 * before the first launch. */
int gale_psy_create(gale_psy_t **p, const gale_psy_opts_t *o, MPI_Comm comm,
                    const gale_local_t *lm, gale_kmesh_t *km);
/* Hands km to the launch layer (the offload layer maps it to the device). */
int gale_psy_kernels_init(gale_psy_t *p);
/* Collective (frees the halo plans); releases km from the launch layer. */
void gale_psy_destroy(gale_psy_t **p);
/* Bytes and messages this rank receives per exchange of f to the depth the
 * launches use ([halo] depth with redundant computation, else 1).
 * Collective the first time a field of f's shape is asked for. */
int gale_psy_halo_size(gale_psy_t *p, const gale_field_t *f, long long *bytes, long long *msgs);
MPI_Comm gale_psy_comm(const gale_psy_t *p);
const gale_psy_opts_t *gale_psy_options(const gale_psy_t *p);
const gale_local_t *gale_psy_local_mesh(const gale_psy_t *p);
const gale_kmesh_t *gale_psy_kmesh(const gale_psy_t *p);

/* ---- fields ---- */
/* A field the kernels use (placed on the device in the offload build); its
 * halo starts stale. elem 8 (double) or 4 (float). */
int gale_psy_field_create(gale_psy_t *p, gale_field_t *f, const char *name, gale_loc_t loc,
                          int layers, int elem);
void gale_psy_field_free(gale_field_t *f);
/* The host copy is current (before the host reads it). */
int gale_psy_to_host(gale_field_t *f);
/* The host wrote f: on every local column, halos included (all = 1: its
 * halo is valid to the full depth), or on owned entities only (all = 0). */
int gale_psy_host_wrote(gale_psy_t *p, gale_field_t *f, int all);
/* Entities (columns) of loc: owned, or every local one (halos included). */
int gale_psy_owned(const gale_psy_t *p, gale_loc_t loc);
int gale_psy_local(const gale_psy_t *p, gale_loc_t loc);
/* The edges of the owned cells (more than the owned edges), and the cells
 * all of whose vertex neighbours are local (every depth but the last). */
int gale_psy_cell_edges(const gale_psy_t *p);
int gale_psy_stencil_cells(const gale_psy_t *p);

/* ---- kernel launches ----
 * Every kernel is described once, beside its body (gale_kdesc.h: the
 * iteration space, each argument's location, access and stencil, the loop's
 * extent and redundancy); the launches below are derived from the rows. */
enum { GALE_PSY_READ = GALE_KA_R, GALE_PSY_WRITE = GALE_KA_W, GALE_PSY_READWRITE = GALE_KA_RW };
/* One launch's arguments: the field arguments in the row's order (a NULL
 * field is an absent optional argument), the scalars, the static data. */
typedef struct {
    gale_field_t *f[GALE_KMAXF];
    double s[GALE_KMAXS];
    const double *w[GALE_KMAXW]; /* a reduction's weights */
    const gale_ktr_t *tr;     /* the transport's static data (aux T) */
    const gale_knl_t *nk;     /* the nonlinear core's (aux N) */
    gale_field_t *also;       /* exchanged with this launch's exchanges if they happen and
                                 it is staler than them: a field the caller reads in the
                                 halo next (redundant computation) */
    gale_kred_t *red;         /* a reduction's result */
    int nset;                 /* a reduction: c[0..nset) in one launch (0: 1) */
} gale_psy_call_t;
/* Kernel id (GALE_K_*) on c. Checks every field against the row: its
 * location, its precision, the halo its stencil reads (GALE_ERR_INTERNAL,
 * naming the kernel, the arguments and the fields). Collective when it
 * exchanges; a reduction reads no halo, so never. */
int gale_psy_launch(gale_psy_t *p, int id, gale_psy_call_t *c);
/* A fused group (GALE_KG_*, declared in kernels/gale_kdesc.h): the
 * launches between begin and end are its kernels in its order; each is
 * checked and its inputs exchanged when it is made, and end runs them all
 * as one loop over columns (docs/fusion.md). A group that breaks its
 * declaration or the rows' rules is GALE_ERR_INTERNAL, naming the kernels
 * and the argument. The answers are the unfused launches' bits. */
int gale_psy_fuse_begin(gale_psy_t *p, int group);
int gale_psy_fuse_end(gale_psy_t *p);

/* The typed launches, one per row: int gale_psy_<kernel>(gale_psy_t *p
 * [, const gale_ktr_t *tr | const gale_knl_t *nk], <the row's arguments>):
 * a field argument is a gale_field_t *, a scalar a double. A reduction's
 * (SUM, MAXABS, MINMAX rows):
 *   int gale_psy_<kernel>(gale_psy_t *p, int n, const gale_psy_<kernel>_t *a,
 *                         gale_kred_t *r)
 * runs n sets of the row's arguments, a[j] (a field a const gale_field_t *,
 * a weight a const double *; the fields of every set of one shape), in one
 * launch over the owned columns of their location (an edge is owned by the
 * owner of its first cell), set j into r[j], which the caller sets first. */
#define GALE_PSY_P_(n, loc, acc, st) GALE_PSY_P_##loc(n)
#define GALE_PSY_P_C(n) , gale_field_t *n
#define GALE_PSY_P_E(n) , gale_field_t *n
#define GALE_PSY_P_I(n) , gale_field_t *n
#define GALE_PSY_P_CI(n) , gale_field_t *n
#define GALE_PSY_P_A(n) , gale_field_t *n
#define GALE_PSY_P_S(n) , double n
#define GALE_PSY_AUXP_M
#define GALE_PSY_AUXP_T , const gale_ktr_t *tr_
#define GALE_PSY_AUXP_N , const gale_knl_t *nk_
#define GALE_PSY_SIG_(name, aux, args)                                                     \
    int gale_psy_##name(gale_psy_t *psy_ GALE_PSY_AUXP_##aux GALE_PP_MAPT(GALE_PSY_P_, args))
#define GALE_PSY_DECL_(name, space, aux, prec, ext, red, bytes, flops, args, cd, cf)         \
    GALE_PSY_DECL_##space(name, aux, args)
#define GALE_PSY_DECL_CELLS(name, aux, args) GALE_PSY_SIG_(name, aux, args);
#define GALE_PSY_DECL_EDGES(name, aux, args) GALE_PSY_SIG_(name, aux, args);
#define GALE_PSY_DECL_FLAT(name, aux, args) GALE_PSY_SIG_(name, aux, args);
#define GALE_PSY_DECL_COLS(name, aux, args) GALE_PSY_SIG_(name, aux, args);
#define GALE_PSY_DECL_BATCH(name, aux, args) GALE_PSY_SIG_(name, aux, args);
#define GALE_PSY_M_(n, loc, acc, st) GALE_PSY_M_##loc(n)
#define GALE_PSY_M_C(n) const gale_field_t *n;
#define GALE_PSY_M_E(n) const gale_field_t *n;
#define GALE_PSY_M_I(n) const gale_field_t *n;
#define GALE_PSY_M_CI(n) const gale_field_t *n;
#define GALE_PSY_M_A(n) const gale_field_t *n;
#define GALE_PSY_M_S(n) double n;
#define GALE_PSY_M_WC(n) const double *n;
#define GALE_PSY_M_WL(n) const double *n;
#define GALE_PSY_RSIG_(name)                                                               \
    int gale_psy_##name(gale_psy_t *psy_, int n_, const gale_psy_##name##_t *a_, gale_kred_t *r_)
#define GALE_PSY_DECL_RED_(name, aux, args)                                                \
    typedef struct {                                                                       \
        GALE_PP_MAPT(GALE_PSY_M_, args)                                                    \
    } gale_psy_##name##_t;                                                                 \
    GALE_PSY_RSIG_(name);
#define GALE_PSY_DECL_SUM(name, aux, args) GALE_PSY_DECL_RED_(name, aux, args)
#define GALE_PSY_DECL_MAXABS(name, aux, args) GALE_PSY_DECL_RED_(name, aux, args)
#define GALE_PSY_DECL_MINMAX(name, aux, args) GALE_PSY_DECL_RED_(name, aux, args)
GALE_KERNELS(GALE_PSY_DECL_)

/* The kernel benchmark's recorder (bench/gale_kbench.c): while set, the
 * first launch of each kernel in each precision is kept, whole column range
 * and all, in rec[2 * id + prec] (GALE_K_N * 2 entries), so that it can be
 * replayed through gale_k_run while its fields live. NULL stops. */
typedef struct {
    int have, i0, i1;
    gale_kargs_t a;
    gale_kred_t red; /* a reduction's result, while replayed (a.red: here; one set) */
} gale_psy_rec_t;
void gale_psy_record(gale_psy_rec_t *rec);
/* The same for fused groups (docs/fusion.md): the first run of each group,
 * in grec[GALE_KG_*] (GALE_KG_N entries), for gale_k_run_group. NULL stops. */
typedef struct {
    int have, n, i1;
    int ids[GALE_KG_MAX];
    gale_kargs_t a[GALE_KG_MAX];
} gale_psy_grec_t;
void gale_psy_record_groups(gale_psy_grec_t *grec);

/* The machine's limit where the kernels run: the STREAM triad on arrays of
 * `bytes` in all, GB/s (gale_k_triad). Not collective. */
double gale_psy_triad(double bytes, int ntimes);

/* y = A x, exchanging `also` with x when it is staler (gale_psy_call_t). */
int gale_psy_helmholtz_also(gale_psy_t *p, gale_field_t *x, gale_field_t *y, gale_field_t *also);
/* The preconditioners in the order [solver] preconditioner lists them; none
 * copies, multigrid is solver/'s V-cycle of the launches above. */
enum { GALE_PC_NONE = 0, GALE_PC_DIAGONAL = 1, GALE_PC_TRIDIAGONAL = 2, GALE_PC_MULTIGRID = 3 };
int gale_psy_precond(gale_psy_t *p, int pc, gale_field_t *r, gale_field_t *z);

/* ---- global reductions ---- */
typedef struct {
    gale_psy_t *psy;
    MPI_Comm comm;
    int reproducible;   /* fixed-point integer sums (order-free) or plain MPI_SUM */
    long count;         /* global sums done (one call = one, however many values) */
    double seconds;     /* wall time in them (start and finish; the wait is most of it) */
} gale_gsum_t;
#define GALE_GSUM_MAX 48 /* values per global sum: the mixed gcr's 4 fields x (gcrk + 1) */
void gale_gsum_init(gale_gsum_t *g, gale_psy_t *p, int reproducible);

/* A global sum under construction: up to GALE_GSUM_MAX values, each a dot
 * product of two fields over their owned entities and all levels, or terms
 * the host adds. The dots are launched when the sum starts, consecutive
 * ones of one shape together. */
typedef struct {
    int n;
    gale_psy_dots_t dot[GALE_GSUM_MAX]; /* x NULL: a host term */
    gale_kred_t acc[GALE_GSUM_MAX];
    int slot;     /* its request in the sum layer's registry of pending sums */
    int blocking; /* gale_psy_sum: the whole of it is a wait */
    int64_t iw[GALE_GSUM_MAX * (GALE_RSUM_WORDS + 1)];
    double dw[GALE_GSUM_MAX];
} gale_psy_sum_t;
void gale_psy_sum_init(gale_psy_sum_t *s);
/* Adds the value sum over owned entities, levels of (wc[col] wl[lev] x) y
 * (a NULL weight is 1); x and y of one precision and shape. */
void gale_psy_sum_dot(gale_psy_sum_t *s, const gale_field_t *x, const gale_field_t *y,
                      const double *wc, const double *wl);
/* Adds a value the host accumulates itself (gale_rsum_add on the result). */
gale_rsum_t *gale_psy_sum_term(gale_psy_sum_t *s);
/* Collective: out[j] = the global value j. A NaN, Inf or out-of-range term
 * anywhere is GALE_ERR_NUMERIC on every rank. Split into start/finish so
 * that work overlaps the reduction (MPI_Iallreduce). */
int gale_psy_sum(gale_gsum_t *g, gale_psy_sum_t *s, double *out);
int gale_psy_sum_start(gale_gsum_t *g, gale_psy_sum_t *s);
int gale_psy_sum_finish(gale_gsum_t *g, gale_psy_sum_t *s, double *out);
/* A progress point (docs/emulate.md, "Progress points"): MPI_Test on every
 * sum started and not finished, so that a non-blocking sum advances while
 * kernels run, with any MPI (one without a progress thread advances it only
 * inside MPI calls). gale_psy_launch calls it with [halo] progress_points.
 * Not collective. */
int gale_psy_progress(void);

/* Collective: the global max of v[i], i < n (host values), in place. */
int gale_psy_max(gale_psy_t *p, int n, double *v);
/* Collective: global min and max of a double field over owned entities. */
int gale_psy_range(gale_psy_t *p, const gale_field_t *f, double *mn, double *mx);
/* Collective: for each of n double fields, max |x| over owned entities
 * (NaN if any entry is not finite) and the first non-finite entry in global
 * order: bad_gid[i] (-1 if none) and its level bad_lev[i]. */
int gale_psy_check_finite(gale_psy_t *p, int n, const gale_field_t *const *f, double *maxabs,
                          int64_t *bad_gid, int *bad_lev);
/* Collective: every owned column of the double cell/interface field f into
 * all[gid * nlev + k] on every rank (all: ncells_global * nlev, zeroed by
 * the caller). For diagnostics of small cases. */
int gale_psy_gather_cells(gale_psy_t *p, gale_field_t *f, double *all, size_t total);

#endif
