/* The kernels as the PSy layer sees them: one description per kernel (how
 * it accesses each field, the entity it iterates over, how far its loop
 * reaches) and its typed launch (gale_psy.h). The loop bodies are in
 * kernels/ and run through the launch-layer interface. */
#include "gale_psy.h"

#include "gale_base.h"

enum { R = GALE_PSY_READ, W = GALE_PSY_WRITE };

static int prec_of(const gale_field_t *f) { return f->elem == 8 ? GALE_F64 : GALE_F32; }
static double *D(const gale_psy_call_t *c, int i) { return c->f[i] ? gale_fd(c->f[i]) : NULL; }
static void *V(const gale_psy_call_t *c, int i) { return c->f[i]->data; }

static int launch(gale_psy_t *p, const gale_psy_kernel_t *k, gale_psy_call_t c, gale_field_t *also)
{
    return gale_psy_launch(p, k, &c, also);
}

/* ---- dynamics: the explicit and implicit halves of the time step ---- */

static void run_grad_h(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_grad_h(c->km, i0, i1, c->s[0], D(c, 0), D(c, 1), D(c, 2));
}
static const gale_psy_kernel_t k_grad_h = {
    "grad_h", GALE_PSY_ON_EDGES, 0, 0, 3, {{R, 0}, {R, 1}, {W, 0}}, run_grad_h};
int gale_psy_grad_h(gale_psy_t *p, double s, gale_field_t *in, gale_field_t *pc, gale_field_t *out)
{
    return launch(p, &k_grad_h, (gale_psy_call_t){.f = {in, pc, out}, .s = {s}, .km = gale_psy_kmesh(p)}, NULL);
}

static void run_col_explicit(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_col_explicit(c->km, i0, i1, c->s[0], D(c, 0), D(c, 1), D(c, 2), D(c, 3), D(c, 4));
}
static const gale_psy_kernel_t k_col_explicit = {
    "col_explicit", GALE_PSY_ON_CELLS, 0, 0, 5, {{R, 0}, {R, 0}, {R, 0}, {W, 0}, {W, 0}},
    run_col_explicit};
int gale_psy_col_explicit(gale_psy_t *p, double cw, gale_field_t *w, gale_field_t *b,
                          gale_field_t *pc, gale_field_t *rb, gale_field_t *ws)
{
    return launch(p, &k_col_explicit,
                  (gale_psy_call_t){.f = {w, b, pc, rb, ws}, .s = {cw}, .km = gale_psy_kmesh(p)}, NULL);
}

static void run_col_backsub(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_col_backsub(c->km, i0, i1, D(c, 0), D(c, 1), D(c, 2), D(c, 3), D(c, 4));
}
static const gale_psy_kernel_t k_col_backsub = {
    "col_backsub", GALE_PSY_ON_CELLS, 0, 0, 5, {{R, 0}, {R, 0}, {R, 0}, {W, 0}, {W, 0}},
    run_col_backsub};
int gale_psy_col_backsub(gale_psy_t *p, gale_field_t *pc, gale_field_t *ws, gale_field_t *rb,
                         gale_field_t *w, gale_field_t *b)
{
    return launch(p, &k_col_backsub,
                  (gale_psy_call_t){.f = {pc, ws, rb, w, b}, .km = gale_psy_kmesh(p)}, NULL);
}

/* fu is read on the cell's own edges: stencil 0 of an edge field */
static void run_rhs(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_rhs(c->km, i0, i1, D(c, 0), D(c, 1), D(c, 2), D(c, 3));
}
static const gale_psy_kernel_t k_rhs = {
    "rhs", GALE_PSY_ON_CELLS, 0, 0, 4, {{R, 0}, {R, 0}, {R, 0}, {W, 0}}, run_rhs};
int gale_psy_rhs(gale_psy_t *p, gale_field_t *pc, gale_field_t *fu, gale_field_t *fw,
                 gale_field_t *rhs)
{
    return launch(p, &k_rhs, (gale_psy_call_t){.f = {pc, fu, fw, rhs}, .km = gale_psy_kmesh(p)},
                  NULL);
}

/* ---- the mixed system (docs/numerics.md) ---- */

/* the mimetic row reads the edges of both of the edge's cells: stencil 1 */
static void run_mix_u(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_mix_u(c->km, i0, i1, c->s[0], c->s[1], D(c, 0), D(c, 1), D(c, 2));
}
static const gale_psy_kernel_t k_mix_u = {
    "mix_u", GALE_PSY_ON_EDGES, 0, 0, 3, {{R, 1}, {R, 1}, {W, 0}}, run_mix_u};
int gale_psy_mix_u(gale_psy_t *p, double a, double s, gale_field_t *u, gale_field_t *pc,
                   gale_field_t *yu)
{
    return launch(p, &k_mix_u,
                  (gale_psy_call_t){.f = {a != 0 ? u : NULL, s != 0 ? pc : NULL, yu}, .s = {a, s},
                                    .km = gale_psy_kmesh(p)},
                  NULL);
}

static void run_mix_col(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_mix_col(c->km, i0, i1, c->s[0], c->s[1], D(c, 0), D(c, 1), D(c, 2), D(c, 3), D(c, 4),
                   D(c, 5), D(c, 6));
}
static const gale_psy_kernel_t k_mix_col = {
    "mix_col", GALE_PSY_ON_CELLS, 0, 0, 7, {{R, 0}, {R, 0}, {R, 0}, {R, 0}, {W, 0}, {W, 0}, {W, 0}},
    run_mix_col};
int gale_psy_mix_col(gale_psy_t *p, double a, double s, gale_field_t *u, gale_field_t *w,
                     gale_field_t *b, gale_field_t *pc, gale_field_t *yw, gale_field_t *yb,
                     gale_field_t *yp)
{
    return launch(p, &k_mix_col,
                  (gale_psy_call_t){.f = {u, w, b, pc, yw, yb, yp}, .s = {a, s},
                                    .km = gale_psy_kmesh(p)},
                  NULL);
}

static void run_schur_u(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_schur_u(c->km, i0, i1, D(c, 0), D(c, 1));
}
static const gale_psy_kernel_t k_schur_u = {
    "schur_u", GALE_PSY_ON_EDGES, 0, 0, 2, {{R, 0}, {W, 0}}, run_schur_u};
int gale_psy_schur_u(gale_psy_t *p, gale_field_t *r_u, gale_field_t *ru)
{
    return launch(p, &k_schur_u, (gale_psy_call_t){.f = {r_u, ru}, .km = gale_psy_kmesh(p)}, NULL);
}

static void run_schur_col(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_schur_col(c->km, i0, i1, D(c, 0), D(c, 1), D(c, 2), D(c, 3), D(c, 4), D(c, 5), D(c, 6));
}
static const gale_psy_kernel_t k_schur_col = {
    "schur_col", GALE_PSY_ON_CELLS, 0, 0, 7, {{R, 0}, {R, 0}, {R, 0}, {R, 0}, {W, 0}, {W, 0}, {W, 0}},
    run_schur_col};
int gale_psy_schur_col(gale_psy_t *p, gale_field_t *ru, gale_field_t *r_w, gale_field_t *r_b,
                       gale_field_t *r_p, gale_field_t *rb, gale_field_t *ws, gale_field_t *h)
{
    return launch(p, &k_schur_col,
                  (gale_psy_call_t){.f = {ru, r_w, r_b, r_p, rb, ws, h}, .km = gale_psy_kmesh(p)},
                  NULL);
}

/* ---- vectors: pointwise, so redundant computation extends them ---- */

static void run_axpby(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_axpby(prec_of(c->f[2]), i0, i1, c->f[2]->stride, c->s[0], V(c, 0), c->s[1], V(c, 1),
                 V(c, 2));
}
static const gale_psy_kernel_t k_axpby = {
    "axpby", GALE_PSY_ON_FIELD, 0, 1, 3, {{R, 0}, {R, 0}, {W, 0}}, run_axpby};
int gale_psy_axpby(gale_psy_t *p, gale_field_t *out, double a, gale_field_t *x, double b,
                   gale_field_t *y)
{
    return launch(p, &k_axpby, (gale_psy_call_t){.f = {x, y, out}, .s = {a, b}}, NULL);
}

/* out takes x's shape (transport keeps stage copies of either shape in one buffer) */
static void run_copy(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_copy(prec_of(c->f[1]), i0, i1, c->f[0]->stride, V(c, 0), V(c, 1));
}
static const gale_psy_kernel_t k_copy = {
    "copy", GALE_PSY_ON_FIELD, 0, 1, 2, {{R, 0}, {W, 0}}, run_copy};
int gale_psy_copy(gale_psy_t *p, gale_field_t *out, gale_field_t *x)
{
    return launch(p, &k_copy, (gale_psy_call_t){.f = {x, out}}, NULL);
}

static void run_convert(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_convert(prec_of(c->f[0]), V(c, 0), prec_of(c->f[1]), V(c, 1), i0, i1, c->f[1]->stride);
}
static const gale_psy_kernel_t k_convert = {
    "convert", GALE_PSY_ON_FIELD, 0, 1, 2, {{R, 0}, {W, 0}}, run_convert};
int gale_psy_convert(gale_psy_t *p, gale_field_t *out, gale_field_t *x)
{
    return launch(p, &k_convert, (gale_psy_call_t){.f = {x, out}}, NULL);
}

/* ---- solver operators ---- */

static void run_helmholtz(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_helmholtz(c->km, prec_of(c->f[0]), i0, i1, V(c, 0), V(c, 1));
}
static const gale_psy_kernel_t k_helmholtz = {
    "helmholtz", GALE_PSY_ON_CELLS, 0, 1, 2, {{R, 1}, {W, 0}}, run_helmholtz};
int gale_psy_helmholtz(gale_psy_t *p, gale_field_t *x, gale_field_t *y, gale_field_t *also)
{
    return launch(p, &k_helmholtz, (gale_psy_call_t){.f = {x, y}, .km = gale_psy_kmesh(p)}, also);
}

/* column-local, so as far into the halo as r is valid */
static void run_precond(const gale_psy_call_t *c, int i0, int i1)
{
    const int prec = prec_of(c->f[0]);
    switch (c->opt) {
    case GALE_PC_DIAGONAL: gale_k_pc_diag(c->km, prec, i0, i1, V(c, 0), V(c, 1)); break;
    case GALE_PC_TRIDIAGONAL: gale_k_pc_tridiag(c->km, prec, i0, i1, V(c, 0), V(c, 1)); break;
    default: gale_k_copy(prec, i0, i1, c->f[1]->stride, V(c, 0), V(c, 1)); break;
    }
}
static const gale_psy_kernel_t k_precond = {
    "precond", GALE_PSY_ON_CELLS, 0, 1, 2, {{R, 0}, {W, 0}}, run_precond};
int gale_psy_precond(gale_psy_t *p, int pc, gale_field_t *r, gale_field_t *z)
{
    return launch(p, &k_precond, (gale_psy_call_t){.f = {r, z}, .opt = pc, .km = gale_psy_kmesh(p)}, NULL);
}

/* ---- multigrid (docs/multigrid.md) ---- */

static void *VO(const gale_psy_call_t *c, int i) { return c->f[i] ? c->f[i]->data : NULL; }

static void run_residual(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_residual(c->km, prec_of(c->f[0]), i0, i1, V(c, 0), V(c, 1), V(c, 2));
}
static const gale_psy_kernel_t k_residual = {
    "residual", GALE_PSY_ON_CELLS, 0, 1, 3, {{R, 1}, {R, 0}, {W, 0}}, run_residual};
int gale_psy_residual(gale_psy_t *p, gale_field_t *x, gale_field_t *b, gale_field_t *r)
{
    return launch(p, &k_residual, (gale_psy_call_t){.f = {x, b, r}, .km = gale_psy_kmesh(p)}, NULL);
}

/* x is optional: NULL is a zero first guess */
static void run_smooth(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_smooth(c->km, prec_of(c->f[1]), i0, i1, c->s[0], VO(c, 0), V(c, 1), V(c, 2));
}
static const gale_psy_kernel_t k_smooth = {
    "smooth", GALE_PSY_ON_CELLS, 0, 1, 3, {{R, 1}, {R, 0}, {W, 0}}, run_smooth};
int gale_psy_smooth(gale_psy_t *p, double rho, gale_field_t *x, gale_field_t *b, gale_field_t *xn)
{
    return launch(p, &k_smooth,
                  (gale_psy_call_t){.f = {x, b, xn}, .s = {rho}, .km = gale_psy_kmesh(p)}, NULL);
}

/* Launched on the coarse level: its owned cells, whose children are owned
 * fine cells (nested partitions), so neither level's halo is read. */
static void run_restrict(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_restrict(c->km, prec_of(c->f[0]), i0, i1, V(c, 0), V(c, 1));
}
static const gale_psy_kernel_t k_restrict = {
    "restrict", GALE_PSY_ON_CELLS, 0, 0, 2, {{R, 0}, {W, 0}}, run_restrict};
int gale_psy_restrict(gale_psy_t *coarse, gale_field_t *fine, gale_field_t *xc)
{
    return launch(coarse, &k_restrict, (gale_psy_call_t){.f = {fine, xc}, .km = gale_psy_kmesh(coarse)},
                  NULL);
}

static void run_prolong(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_prolong(c->km, prec_of(c->f[0]), i0, i1, V(c, 0), V(c, 1));
}
static const gale_psy_kernel_t k_prolong = {
    "prolong", GALE_PSY_ON_CELLS, 0, 0, 2, {{R, 0}, {GALE_PSY_READWRITE, 0}}, run_prolong};
int gale_psy_prolong(gale_psy_t *coarse, gale_field_t *xc, gale_field_t *fine)
{
    return launch(coarse, &k_prolong, (gale_psy_call_t){.f = {xc, fine}, .km = gale_psy_kmesh(coarse)},
                  NULL);
}

/* ---- transport ---- */

static void run_tr_ratio(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_tr_ratio(i0, i1, c->f[2]->stride, D(c, 0), D(c, 1), D(c, 2));
}
static const gale_psy_kernel_t k_tr_ratio = {
    "tr_ratio", GALE_PSY_ON_CELLS, 0, 0, 3, {{R, 0}, {R, 0}, {W, 0}}, run_tr_ratio};
int gale_psy_tr_ratio(gale_psy_t *p, gale_field_t *out, gale_field_t *x, gale_field_t *y)
{
    return launch(p, &k_tr_ratio, (gale_psy_call_t){.f = {x, y, out}}, NULL);
}

/* Face values on owned cells and halo depth 1, so that every edge of an
 * owned cell sees both of its cells' face values without exchanging them
 * (four values per cell and level). */
static void run_tr_faces(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_tr_faces(c->ktr, i0, i1, c->f[0]->nlev, c->f[0]->stride, D(c, 0), D(c, 1));
}
static const gale_psy_kernel_t k_tr_faces = {
    "tr_faces", GALE_PSY_ON_CELLS, 1, 0, 2, {{R, 1}, {W, 0}}, run_tr_faces};
int gale_psy_tr_faces(gale_psy_t *p, const gale_ktr_t *tr, gale_field_t *q, gale_field_t *qf)
{
    return launch(p, &k_tr_faces, (gale_psy_call_t){.f = {q, qf}, .ktr = tr}, NULL);
}

static void run_tr_hflux(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_tr_hflux(c->ktr, c->km, i0, i1, c->f[0]->nlev, c->f[0]->stride, D(c, 0), D(c, 1),
                    D(c, 2));
}
static const gale_psy_kernel_t k_tr_hflux = {
    "tr_hflux", GALE_PSY_ON_EDGES, 0, 0, 3, {{R, 0}, {R, 1}, {W, 0}}, run_tr_hflux};
int gale_psy_tr_hflux(gale_psy_t *p, const gale_ktr_t *tr, gale_field_t *f, gale_field_t *qf,
                      gale_field_t *fq)
{
    return launch(p, &k_tr_hflux, (gale_psy_call_t){.f = {f, qf, fq}, .km = gale_psy_kmesh(p), .ktr = tr},
                  NULL);
}

static void run_tr_vflux(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_tr_vflux(c->ktr, c->km, i0, i1, D(c, 0), D(c, 1), D(c, 2), D(c, 3));
}
static const gale_psy_kernel_t k_tr_vflux = {
    "tr_vflux", GALE_PSY_ON_CELLS, 0, 0, 4, {{R, 0}, {R, 0}, {W, 0}, {W, 0}}, run_tr_vflux};
int gale_psy_tr_vflux(gale_psy_t *p, const gale_ktr_t *tr, gale_field_t *q, gale_field_t *w,
                      gale_field_t *slope, gale_field_t *wq)
{
    return launch(p, &k_tr_vflux,
                  (gale_psy_call_t){.f = {q, w, slope, wq}, .km = gale_psy_kmesh(p), .ktr = tr}, NULL);
}

/* wq is optional (NULL: horizontal only); the tendency has the shape of
 * the transported field, whose levels and stride the fluxes fq share */
static void run_tr_tend(const gale_psy_call_t *c, int i0, int i1)
{
    gale_k_tr_tend(c->ktr, c->km, i0, i1, c->f[0]->nlev, c->f[0]->stride, c->km->si, D(c, 0),
                   D(c, 1), D(c, 2));
}
static const gale_psy_kernel_t k_tr_tend = {
    "tr_tend", GALE_PSY_ON_CELLS, 0, 0, 3, {{R, 0}, {R, 0}, {W, 0}}, run_tr_tend};
int gale_psy_tr_tend(gale_psy_t *p, const gale_ktr_t *tr, gale_field_t *fq, gale_field_t *wq,
                     gale_field_t *out)
{
    return launch(p, &k_tr_tend, (gale_psy_call_t){.f = {fq, wq, out}, .km = gale_psy_kmesh(p), .ktr = tr},
                  NULL);
}
