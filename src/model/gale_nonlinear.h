/* The nonlinear core: GungHo's compressible Euler equations on the rotating
 * sphere with the iterated semi-implicit step (docs/nonlinear.md). Part of
 * the algorithm layer beside the linear core: set-up (nonlinear.c), the
 * step over bundles of the state (semi_implicit.c), the reference state
 * (reference.c), the budgets (budget.c); the cases are cases.c's. Every
 * loop over columns of a step is a PSy-layer launch. */
#ifndef GALE_NONLINEAR_H
#define GALE_NONLINEAR_H

#include "gale_config.h"
#include "gale_psy.h"
#include "gale_transport.h"
#include "gale_vecinv.h"

struct gale_model;

/* The per-step budgets (collective to compute, the same on every rank). */
typedef struct {
    double mass;          /* integral of rho [kg] */
    double energy;        /* integral of rho (K + cv T + g z) [J] */
    double kinetic, internal, potential;
    double entropy;       /* integral of rho cp ln(theta) [J K-1] */
    double ps_min, ps_max;/* surface pressure [Pa] */
    double max_v;         /* max |meridional wind| at cell centres [m s-1] */
    double max_dps;       /* max |surface pressure - its initial value| [Pa] */
    double max_grid;      /* max |u - NPu|: the wind the cell reconstruction does not see [m s-1] */
    double max_cfl;       /* max horizontal Courant number of u at dt (outflow over content) */
} gale_nl_budget_t;

#define GALE_NL_NHIST 6

/* The state's components: GungHo's igh_u, igh_t, igh_d, igh_p, the wind
 * in its horizontal (edges) and vertical (interfaces) parts. */
enum { GALE_NL_U, GALE_NL_W, GALE_NL_T, GALE_NL_D, GALE_NL_P, GALE_NL_NCOMP };

/* A bundle: one field per component, NULL where it has none (the advected
 * state has no Pi, the mixed system no rho, the wind only u and w). */
typedef struct {
    gale_field_t *f[GALE_NL_NCOMP];
} gale_nl_state_t;

/* One wind's cell reconstruction (nl_recon): its east and north components
 * and the kinetic energy. */
typedef struct {
    gale_field_t ue, vn, ke;
} gale_nl_recon_t;

typedef struct gale_nl {
    gale_knl_t k;
    /* host tables (k points at them) */
    gale_vecinv_t geo;     /* the vector-invariant terms' horizontal geometry */
    double *rd2i, *rd2c;
    gale_shell_t shell;    /* the layers' metric: flat, or spherical shells ([dynamics] shallow) */
    int deep;
    double *mode_ref;      /* normal_mode: the resting Pi of each layer [nl] and cp theta there [nl] */
    gale_field_t prof;     /* the operator's reference rows, per column (gale_knl.h) */
    gale_field_t rhoe;     /* rho* on the edges */
    gale_field_t mth, mpi; /* reference_state = mean: the mean theta and lowest Pi in every column */
    double next_reset;     /* model time of the next reference reset [s] */
    double grid_rate;      /* the grid-mode filter's rate, [dynamics] grid_damping / dt [1/s] */
    int vecinv;            /* [dynamics] vector_invariant: the wind's form */
    int resets;
    gale_psy_sum_t *ref_sum; /* reference_state = mean: its sums in flight (reference.c) */
    int ref_nsum, ref_pending;
    gale_transport_t tr;   /* reconstruction stencils and their scratch */
    /* fields: rho is prognostic (u, w, theta = m->b, Pi = m->p are the model's) */
    gale_field_t rho;
    /* the step's bundles (semi_implicit.c; created by nonlinear.c) */
    gale_nl_state_t x;             /* the state, latest estimate: m->u, m->w, m->b, rho, m->p */
    gale_nl_state_t xn;            /* at time level n (u, w, theta, rho) */
    gale_nl_state_t xa;            /* advected: x^n transported with the time-centred wind */
    gale_nl_state_t xs;            /* the advected state at the start of a transport substep */
    gale_nl_state_t tend;          /* the transport's tendencies of xa's latest stage */
    gale_nl_state_t ubar;          /* the time-centred (advecting) wind (u, w) */
    gale_nl_state_t xo;            /* the wind the transport last saw (u, w) */
    gale_nl_state_t fn, fl;        /* the forcing at n and of the latest estimate (u weak, w) */
    gale_nl_state_t res;           /* x - xa, then the residuals of w, theta, rho */
    gale_nl_state_t dwind;         /* the wind's change since the transport ran (u, w) */
    gale_nl_state_t rhs, inc;      /* the mixed system's right-hand side and solution (u, w,
                                      theta, Pi) */
    gale_field_t resu_w;           /* u's residual, weak */
    gale_field_t pe;               /* Pi from the equation of state of the latest rho, theta */
    gale_field_t vflux, vflux_i;   /* the advecting wind's volume fluxes: layers, interfaces */
    gale_field_t divi;             /* -div_h of vflux_i (the advective form's correction) */
    gale_field_t divc;             /* -div_h of vflux (the advective wind's) */
    gale_field_t cart[3], tcart[3];/* the advective wind: the reconstructed wind's Cartesian
                                      components, their flux-form tendencies */
    gale_field_t tq;               /* an interface field's flux-form tendency */
    gale_nl_recon_t rx;            /* of the state's u: the forcing's, the budget's, the output's */
    gale_nl_recon_t ra;            /* of the advected u's latest stage: the transport's */
    gale_nl_recon_t rg;            /* of (I - NP) u: the grid-mode filter's (only with it) */
    gale_field_t zeta, zf, qabs;   /* per cell: the state's vorticity, its face values (APVM;
                                      vector-invariant only), the absolute vorticity the force
                                      uses */
    gale_field_t cor;              /* the vorticity force */
    gale_field_t gridu, gridu2, gridm; /* (I - NP) u (the filter's and the budget's),
                                          (I - NP)^2 u, M_u (I - NP)^2 u */
    gale_field_t be, bent, bps, bps0, bdps, one, one2; /* the budgets' densities */
    gale_field_t bcfl;                             /* the Courant number per cell and layer */
    gale_field_t tcfl;                             /* the advecting wind's, at dt */
    double transport_courant;                      /* a substep's largest Courant number
                                                      (0: no limit) */
    int substeps_max;                              /* the most transport substeps one outer
                                                      iteration took */
    long substeps;                                 /* transport substeps taken in all */
    gale_nl_budget_t b0, b;                        /* at the start, now */
    double max_mass_change, max_energy_change;     /* relative: to step 0, and per step */
    double *wl, *wl_int, *wl_kin; /* the budgets' level weights: g z dz [nlev]; dz in e's
                                     first, second half [2 sc] */
    int have_ps0;
    int recon_fresh; /* rx and zeta are of the state's u as it is: whoever changes u clears it */
    double *hist;          /* [GALE_NL_NHIST (steps + 1)]: mass, energy, entropy, min surface
                              pressure, max_grid, max_cfl after each step */
} gale_nl_t;

/* Collective, from gale_model_setup once the mesh, psy and geometry exist:
 * the case's initial state, the reference state, the kernels' tables. */
int gale_nl_setup(struct gale_model *m);
void gale_nl_free(struct gale_model *m);
/* Collective: the reference state from the current theta and Pi (each
 * column's, or the horizontal mean) and the operator's rows (reference.c):
 * start takes the mean's local parts and starts its sums, finish (a no-op
 * when none is pending) completes them and writes the rows; the theta and
 * Pi are those at the start. */
int gale_nl_reference(struct gale_model *m);
int gale_nl_reference_start(struct gale_model *m);
int gale_nl_reference_finish(struct gale_model *m);
/* Collective: one step of length m->dt. */
int gale_nl_step(struct gale_model *m);
/* Collective: the budgets of the current state. */
int gale_nl_budget(struct gale_model *m, gale_nl_budget_t *b);
/* Keeps m->nl->b in the per-step record. */
void gale_nl_record(struct gale_model *m);
/* The largest Courant number of the steps recorded so far. */
double gale_nl_max_cfl(const struct gale_model *m);
/* The reference c^2 and N^2 of the case (the preconditioner's constants),
 * before anything is set up. */
void gale_nl_constants(const gale_config_t *cfg, double *c2, double *n2);

#endif
