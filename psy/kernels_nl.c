/* The nonlinear core's kernels as the PSy layer sees them (gale_knl.h has
 * what each computes): access and stencil per field, the entity iterated,
 * and whether redundant computation may extend the loop into the halo. */
#include "gale_psy.h"

enum { R = GALE_PSY_READ, W = GALE_PSY_WRITE, RW = GALE_PSY_READWRITE };

static void run_nl(const gale_psy_call_t *c, int i0, int i1)
{
    double *f[GALE_NL_MAXF];
    for (int i = 0; i < GALE_NL_MAXF; i++) f[i] = c->f[i] ? gale_fd(c->f[i]) : NULL;
    gale_k_nl(c->opt, c->km, c->knl, i0, i1, c->s, f);
}

#define CELLS GALE_PSY_ON_CELLS
#define EDGES GALE_PSY_ON_EDGES
static const gale_psy_kernel_t k_nl[GALE_NL_NK] = {
    [GALE_NL_EOS] = {"nl_eos", CELLS, 0, 1, 3, {{R, 0}, {R, 0}, {W, 0}}, run_nl},
    /* an edge reads its two cells: stencil 1 */
    [GALE_NL_PGRAD] = {"nl_pgrad", EDGES, 0, 0, 4, {{R, 1}, {R, 1}, {R, 1}, {W, 0}}, run_nl},
    [GALE_NL_VFORCE] = {"nl_vforce", CELLS, 0, 1, 3, {{R, 0}, {R, 0}, {W, 0}}, run_nl},
    [GALE_NL_RHS] = {"nl_rhs", CELLS, 0, 0, 6, {{R, 0}, {R, 0}, {R, 0}, {W, 0}, {W, 0}, {W, 0}},
                     run_nl},
    /* u is read on the cell's own edges: stencil 0 of an edge field */
    [GALE_NL_MIXCOL] = {"nl_mixcol", CELLS, 0, 0, 7,
                        {{R, 0}, {R, 0}, {R, 0}, {R, 0}, {W, 0}, {W, 0}, {W, 0}}, run_nl},
    [GALE_NL_UPDATE] = {"nl_update", CELLS, 0, 1, 8,
                        {{R, 0}, {R, 0}, {R, 0}, {R, 0}, {R, 0}, {RW, 0}, {RW, 0}, {RW, 0}}, run_nl},
    [GALE_NL_FLUXES] = {"nl_fluxes", EDGES, 0, 1, 3, {{R, 0}, {W, 0}, {W, 0}}, run_nl},
    [GALE_NL_ADVI] = {"nl_advi", CELLS, 0, 1, 5, {{R, 0}, {R, 0}, {R, 0}, {R, 0}, {W, 0}}, run_nl},
    /* the vorticity reads the edges about the cell's corners: stencil 1 */
    [GALE_NL_RECON] = {"nl_recon", CELLS, 0, 1, 4, {{R, 0}, {W, 0}, {W, 0}, {W, 0}}, run_nl},
    /* the edges about the cell's corners: their cells are vertex neighbours, stencil 1 */
    [GALE_NL_TLIN] = {"nl_tlin", CELLS, 0, 0, 4, {{R, 0}, {R, 0}, {RW, 0}, {RW, 0}}, run_nl},
    [GALE_NL_CORW] = {"nl_corw", EDGES, 0, 0, 4, {{R, 1}, {R, 1}, {R, 1}, {W, 0}}, run_nl},
    [GALE_NL_BUDGET] = {"nl_budget", CELLS, 0, 0, 8,
                        {{R, 0}, {R, 0}, {R, 0}, {R, 0}, {R, 0}, {W, 0}, {W, 0}, {W, 0}}, run_nl},
    /* the face values (tr_faces, extent 1) and u on the cell's own edges */
    [GALE_NL_APVM] = {"nl_apvm", CELLS, 0, 0, 4, {{R, 0}, {R, 0}, {R, 0}, {W, 0}}, run_nl},
    [GALE_NL_VORT] = {"nl_vort", CELLS, 0, 1, 3, {{R, 1}, {R, 1}, {W, 0}}, run_nl},
    [GALE_NL_GRID] = {"nl_grid", EDGES, 0, 1, 4, {{R, 0}, {R, 1}, {R, 1}, {W, 0}}, run_nl},
    [GALE_NL_MOM] = {"nl_mom", EDGES, 0, 0, 4, {{R, 1}, {R, 1}, {R, 1}, {W, 0}}, run_nl},
};

int gale_psy_nl(gale_psy_t *p, const gale_knl_t *nk, int id, double s0, double s1,
                gale_field_t *const *f)
{
    gale_psy_call_t c = {.s = {s0, s1}, .opt = id, .km = gale_psy_kmesh(p), .knl = nk};
    for (int i = 0; i < k_nl[id].narg; i++) c.f[i] = f[i];
    return gale_psy_launch(p, &k_nl[id], &c, NULL);
}
