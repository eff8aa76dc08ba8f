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
 * A kernel is described once (gale_psy_kernel_t: access and stencil depth
 * per field argument, the entity it iterates over); psy/kernels.c holds the
 * descriptions and the typed launches below.
 *
 * Every launch is collective over the ranks when it may exchange (all ranks
 * make the same launches in the same order, so they agree on validity and
 * on which exchanges happen); the reductions are collective. */
#ifndef GALE_PSY_H
#define GALE_PSY_H

#include "gale_halo.h"
#include "gale_kernels.h"
#include "gale_knl.h"
#include "gale_ktransport.h"

#include <mpi.h>

typedef struct gale_psy gale_psy_t;

/* [halo]: how far to exchange and whether loops may compute into the halo. */
typedef struct {
    int depth;      /* [halo] depth */
    int redundant;  /* [halo] redundant_computation */
    int overlap;    /* [halo] overlap */
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

/* ---- kernel descriptions ---- */
enum { GALE_PSY_READ = 1, GALE_PSY_WRITE = 2, GALE_PSY_READWRITE = 3 };
enum { GALE_PSY_ON_CELLS = 0, GALE_PSY_ON_EDGES = 1, GALE_PSY_ON_FIELD = 2 };
#define GALE_PSY_MAXARG 8
typedef struct gale_psy_call gale_psy_call_t;
typedef struct {
    const char *name;
    int iterates;   /* GALE_PSY_ON_*: ON_FIELD iterates over the columns of the first written field */
    int extent;     /* the loop always reaches this halo depth (0: owned) */
    int redundant;  /* with [halo] redundant_computation, the loop extends as far into the halo
                       as its inputs are valid */
    int narg;
    struct { int access, stencil; } arg[GALE_PSY_MAXARG]; /* stencil: halo depth read beyond the loop */
    void (*run)(const gale_psy_call_t *c, int i0, int i1); /* the launch-layer call on [i0, i1) */
} gale_psy_kernel_t;
/* One launch's arguments: fields in the description's order (a NULL field
 * is an absent optional argument), scalars, static data. */
struct gale_psy_call {
    gale_field_t *f[GALE_PSY_MAXARG];
    double s[2];
    int opt;                  /* a kernel's variant (the preconditioner) */
    const gale_kmesh_t *km;
    const gale_ktr_t *ktr;
    const gale_knl_t *knl;    /* the nonlinear core's kernels */
};
/* Collective when it exchanges. `also`, when not NULL, is exchanged with
 * this launch's exchanges if they happen and it is staler than them: a
 * field the caller will read in the halo next (redundant computation). */
int gale_psy_launch(gale_psy_t *p, const gale_psy_kernel_t *k, gale_psy_call_t *c,
                    gale_field_t *also);

/* ---- typed launches (psy/kernels.c): the fields' roles, from the kernel bodies ---- */
/* dynamics (double) */
int gale_psy_grad_h(gale_psy_t *p, double s, gale_field_t *in, gale_field_t *pc, gale_field_t *out);
int gale_psy_col_explicit(gale_psy_t *p, double cw, gale_field_t *w, gale_field_t *b,
                          gale_field_t *pc, gale_field_t *rb, gale_field_t *ws);
int gale_psy_col_backsub(gale_psy_t *p, gale_field_t *pc, gale_field_t *ws, gale_field_t *rb,
                         gale_field_t *w, gale_field_t *b);
int gale_psy_rhs(gale_psy_t *p, gale_field_t *pc, gale_field_t *fu, gale_field_t *fw,
                 gale_field_t *rhs);
/* the mixed system of the consistent operator (docs/numerics.md): y = a M x + s K x
 * for x = (u, w, b, p); u may be NULL when a = 0 and p when s = 0 (in mix_u) */
int gale_psy_mix_u(gale_psy_t *p, double a, double s, gale_field_t *u, gale_field_t *pc,
                   gale_field_t *yu);
int gale_psy_mix_col(gale_psy_t *p, double a, double s, gale_field_t *u, gale_field_t *w,
                     gale_field_t *b, gale_field_t *pc, gale_field_t *yw, gale_field_t *yb,
                     gale_field_t *yp);
/* the approximate Schur complement's right-hand side: ru = r_u / M_u (lumped), then per
 * column rb, ws and h = r_p - tau V D(ru, ws) */
int gale_psy_schur_u(gale_psy_t *p, gale_field_t *r_u, gale_field_t *ru);
int gale_psy_schur_col(gale_psy_t *p, gale_field_t *ru, gale_field_t *r_w, gale_field_t *r_b,
                       gale_field_t *r_p, gale_field_t *rb, gale_field_t *ws, gale_field_t *h);
/* vectors (either precision, from the fields' element size) */
int gale_psy_axpby(gale_psy_t *p, gale_field_t *out, double a, gale_field_t *x, double b,
                   gale_field_t *y);
int gale_psy_copy(gale_psy_t *p, gale_field_t *out, gale_field_t *x);
int gale_psy_convert(gale_psy_t *p, gale_field_t *out, gale_field_t *x);
/* solver operators; the preconditioners in the order [solver] preconditioner lists them */
enum { GALE_PC_NONE = 0, GALE_PC_DIAGONAL = 1, GALE_PC_TRIDIAGONAL = 2, GALE_PC_MULTIGRID = 3 };
int gale_psy_helmholtz(gale_psy_t *p, gale_field_t *x, gale_field_t *y, gale_field_t *also);
/* none, diagonal, tridiagonal (multigrid is solver/'s V-cycle of the launches below) */
int gale_psy_precond(gale_psy_t *p, int pc, gale_field_t *r, gale_field_t *z);
/* multigrid (docs/multigrid.md): r = b - A x; one smoother sweep
 * xn = x + rho H_z^-1 (b - A x) (x NULL: zero); and, launched on the coarse
 * level of a pair, restriction (the average of the four children) and
 * prolongation (fine += its coarse cell) */
int gale_psy_residual(gale_psy_t *p, gale_field_t *x, gale_field_t *b, gale_field_t *r);
int gale_psy_smooth(gale_psy_t *p, double rho, gale_field_t *x, gale_field_t *b, gale_field_t *xn);
int gale_psy_restrict(gale_psy_t *coarse, gale_field_t *fine, gale_field_t *xc);
int gale_psy_prolong(gale_psy_t *coarse, gale_field_t *xc, gale_field_t *fine);
/* transport (docs/transport.md) */
int gale_psy_tr_ratio(gale_psy_t *p, gale_field_t *out, gale_field_t *x, gale_field_t *y);
int gale_psy_tr_faces(gale_psy_t *p, const gale_ktr_t *tr, gale_field_t *q, gale_field_t *qf);
int gale_psy_tr_hflux(gale_psy_t *p, const gale_ktr_t *tr, gale_field_t *f, gale_field_t *qf,
                      gale_field_t *fq);
int gale_psy_tr_vflux(gale_psy_t *p, const gale_ktr_t *tr, gale_field_t *q, gale_field_t *w,
                      gale_field_t *slope, gale_field_t *wq);
int gale_psy_tr_tend(gale_psy_t *p, const gale_ktr_t *tr, gale_field_t *fq, gale_field_t *wq,
                     gale_field_t *out);

/* the nonlinear core (docs/nonlinear.md): kernel id of gale_knl.h on its
 * fields in the order gale_knl.h lists them (NULL: absent), scalars s0, s1 */
int gale_psy_nl(gale_psy_t *p, const gale_knl_t *nk, int id, double s0, double s1,
                gale_field_t *const *f);

/* ---- global reductions ---- */
typedef struct {
    const gale_psy_t *psy;
    MPI_Comm comm;
    int reproducible;   /* fixed-point integer sums (order-free) or plain MPI_SUM */
    long count;         /* global sums done (one call = one, however many values) */
    double seconds;     /* wall time in them (start and finish; the wait is most of it) */
} gale_gsum_t;
#define GALE_GSUM_MAX 48 /* values per global sum: the mixed gcr's 4 fields x (gcrk + 1) */
void gale_gsum_init(gale_gsum_t *g, const gale_psy_t *p, int reproducible);

/* A global sum under construction: up to GALE_GSUM_MAX values, each a dot
 * product of two fields over their owned entities and all levels, or terms
 * the host adds. The dots are launched when the sum starts, consecutive
 * ones of one shape together. */
typedef struct {
    int n;
    struct { const gale_field_t *x, *y; const double *wc, *wl; } dot[GALE_GSUM_MAX];
    gale_rsum_t acc[GALE_GSUM_MAX];
    MPI_Request req;
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

/* Collective: the global max of v[i], i < n (host values), in place. */
int gale_psy_max(gale_psy_t *p, int n, double *v);
/* Collective: global min and max of a double field over owned entities. */
int gale_psy_minmax(gale_psy_t *p, const gale_field_t *f, double *mn, double *mx);
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
