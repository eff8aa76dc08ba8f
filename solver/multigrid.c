/* Geometric multigrid over the mesh chain, as LFRic's Helmholtz solver uses
 * it (docs/multigrid.md): a V-cycle with block-Jacobi smoothing by the exact
 * column solve, unweighted-average restriction, injection prolongation and
 * smoothing only on the coarsest level. Every launch is a PSy-layer call on
 * the level's own psy, so each level exchanges its own halos and no global
 * sum happens inside a V-cycle.
 *
 * The operator is integrated over cell volumes, and a coarse cell holds four
 * fine cells: averaging the residual (LFRic's restriction) leaves it per
 * fine cell, so each coarse operator is re-discretised on its mesh and
 * scaled by 4^-l. A V-cycle is then the same as one with summed residuals
 * and unscaled coarse operators, and it is symmetric (the same smoother
 * before and after, restriction the adjoint of prolongation up to the
 * scale), as cg needs. */
#include "gale_solver.h"

#include "gale_base.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    gale_psy_t *psy;            /* level 0: the solver's; coarser: made here */
    gale_local_t lm;            /* coarse levels: the rank's mesh, its geometry, */
    gale_geom_t geom;           /* operator and child map */
    gale_kmesh_t km;
    gale_helm_t helm;
    int *child;
    gale_field_t x, b;          /* coarse levels: the correction and its right-hand side */
    gale_field_t t, r;          /* the smoother's second buffer; the residual (not on the coarsest) */
    gale_mg_level_stats_t st;
} level_t;

struct gale_mg {
    gale_mg_opts_t o;
    int nl;
    level_t lev[GALE_CHAIN_MAX];
};
typedef struct gale_mg M;

int gale_mg_levels(const gale_mg_t *mg) { return mg->nl; }
void gale_mg_level_stats(const gale_mg_t *mg, int l, gale_mg_level_stats_t *st) { *st = mg->lev[l].st; }

/* A level's local mesh, geometry, operator (scaled, see the top) and psy;
 * fine is level l - 1's. */
static int level_create(level_t *lv, const gale_chain_t *ch, int l, gale_psy_t *fine_psy,
                        const gale_local_t *fine_lm)
{
    const gale_psy_opts_t *po = gale_psy_options(fine_psy);
    GALE_CALL(gale_local_build(&ch->cs[l], &ch->part[l], fine_lm->rank, po->depth, &lv->lm));
    GALE_CALL(gale_psy_create(&lv->psy, po, gale_psy_comm(fine_psy), &lv->lm, &lv->km));
    const int nc = gale_psy_local(lv->psy, GALE_LOC_CELL), owned = gale_psy_owned(lv->psy, GALE_LOC_CELL);
    const int na = (nc + GALE_LANES - 1) / GALE_LANES * GALE_LANES;
    GALE_CALL(gale_geom_build(&ch->cs[l], &lv->lm, na, &lv->geom));
    GALE_ALLOC(lv->child, 4 * (size_t)(owned > 0 ? owned : 1));
    GALE_CALL(gale_chain_children(&ch->cs[l - 1], fine_lm, &ch->cs[l], &lv->lm, lv->child));
    gale_kmesh_t *km = &lv->km;
    *km = *gale_psy_kmesh(fine_psy); /* the vertical grid and the physics */
    km->impl = NULL;
    gale_kmesh_set_mesh(km, &lv->lm, &lv->geom, na);
    km->nchild = owned;
    km->child = lv->child;
    double scale = 1.0;
    for (int i = 0; i < l; i++) scale *= 0.25;
    GALE_CALL(gale_helmholtz_setup(km, scale, &lv->helm));
    GALE_CALL(gale_psy_kernels_init(lv->psy));
    return GALE_OK;
}

static int field(level_t *lv, gale_field_t *f, const char *what, int l, int elem)
{
    char name[32];
    snprintf(name, sizeof name, "mg%d_%s", l, what);
    return gale_psy_field_create(lv->psy, f, name, GALE_LOC_CELL, gale_psy_kmesh(lv->psy)->nlev, elem);
}

int gale_mg_create(gale_mg_t **out, const gale_mg_opts_t *o, const gale_chain_t *ch,
                   gale_psy_t *fine, int elem)
{
    M *mg = NULL;
    *out = NULL;
    if (!ch || ch->levels < 1)
        GALE_ERROR(GALE_ERR_INTERNAL, "multigrid without a mesh chain");
    GALE_ALLOC(mg, 1);
    *out = mg;
    mg->o = *o;
    mg->nl = ch->levels;
    for (int l = 0; l < mg->nl; l++) {
        level_t *lv = &mg->lev[l];
        if (l == 0) lv->psy = fine;
        else GALE_CALL(level_create(lv, ch, l, fine, gale_psy_local_mesh(mg->lev[l - 1].psy)));
        if (l > 0) {
            GALE_CALL(field(lv, &lv->x, "x", l, elem));
            GALE_CALL(field(lv, &lv->b, "b", l, elem));
        }
        GALE_CALL(field(lv, &lv->t, "t", l, elem));
        if (l < mg->nl - 1) GALE_CALL(field(lv, &lv->r, "r", l, elem));
        lv->st.n = ch->cs[l].n;
        lv->st.cells = ch->cs[l].ncells;
    }
    return GALE_OK;
}

void gale_mg_destroy(gale_mg_t **pm)
{
    M *mg = *pm;
    if (!mg) return;
    for (int l = mg->nl - 1; l >= 0; l--) {
        level_t *lv = &mg->lev[l];
        gale_field_t *f[] = {&lv->x, &lv->b, &lv->t, &lv->r};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            if (f[i]->data) gale_psy_field_free(f[i]);
        if (l == 0) continue;
        gale_psy_destroy(&lv->psy);
        gale_helmholtz_free(&lv->helm);
        gale_geom_free(&lv->geom);
        gale_free(lv->child);
        gale_local_free(&lv->lm);
    }
    gale_free(mg);
    *pm = NULL;
}

/* ---- the V-cycle ---- */

/* Runs one launch of level lv and adds its cost to the level's. */
#define ON(lv, call)                                                                       \
    do {                                                                                   \
        const double t0_ = gale_wtime(), w0_ = gale_timer_seconds(GALE_T_HALO_WAIT),       \
                     p0_ = gale_timer_seconds(GALE_T_HALO_PACK);                           \
        const long x0_ = gale_timer_count(GALE_T_HALO_WAIT);                               \
        GALE_CALL(call);                                                                   \
        (lv)->st.seconds += gale_wtime() - t0_;                                            \
        (lv)->st.halo_wait += gale_timer_seconds(GALE_T_HALO_WAIT) - w0_;                  \
        (lv)->st.halo_pack += gale_timer_seconds(GALE_T_HALO_PACK) - p0_;                  \
        (lv)->st.exchanges += gale_timer_count(GALE_T_HALO_WAIT) - x0_;                    \
    } while (0)

/* n smoother sweeps on level lv from x0 (NULL: zero), the result in a: the
 * sweeps alternate between a and the level's second buffer, so that the
 * last one writes a (a copy only when x0 is a and n is odd). */
static int sweeps(M *mg, level_t *lv, int n, gale_field_t *b, gale_field_t *x0, gale_field_t *a)
{
    const double rho = mg->o.relaxation;
    if (n == 0) {
        if (!x0) ON(lv, gale_psy_axpby(lv->psy, a, 0.0, b, 0.0, b));
        return GALE_OK;
    }
    gale_field_t *cur = x0;
    for (int i = 0; i < n; i++) {
        gale_field_t *out = x0 ? (i % 2 == 0 ? &lv->t : a) : ((n - 1 - i) % 2 == 0 ? a : &lv->t);
        ON(lv, gale_psy_smooth(lv->psy, rho, cur, b, out));
        cur = out;
    }
    if (cur != a) ON(lv, gale_psy_copy(lv->psy, a, cur));
    return GALE_OK;
}

/* x = the V-cycle's approximation of A_l^-1 b on level l */
static int vcycle(M *mg, int l, gale_field_t *b, gale_field_t *x)
{
    level_t *lv = &mg->lev[l];
    if (l == mg->nl - 1) return sweeps(mg, lv, mg->o.ncoarse, b, NULL, x);
    level_t *cl = &mg->lev[l + 1];
    GALE_CALL(sweeps(mg, lv, mg->o.npre, b, NULL, x));
    ON(lv, gale_psy_residual(lv->psy, x, b, &lv->r));
    ON(cl, gale_psy_restrict(cl->psy, &lv->r, &cl->b));
    GALE_CALL(vcycle(mg, l + 1, &cl->b, &cl->x));
    ON(cl, gale_psy_prolong(cl->psy, &cl->x, x));
    return sweeps(mg, lv, mg->o.npost, b, x, x);
}

int gale_mg_vcycle(gale_mg_t *mg, gale_field_t *b, gale_field_t *x) { return vcycle(mg, 0, b, x); }
