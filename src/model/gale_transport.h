/* Transport: flux-form finite-volume advection of cell-centred scalars by a
 * prescribed wind (docs/transport.md). Part of the algorithm layer: set-up,
 * the winds of the test cases, the SSP-RK3 stepper and the error norms; every
 * loop over columns of a step is a PSy-layer launch (psy/). */
#ifndef GALE_TRANSPORT_H
#define GALE_TRANSPORT_H

#include "gale_extrusion.h"
#include "gale_psy.h"

struct gale_model;

/* A transported quantity: q itself (no density), or a mixing ratio carried as
 * the mass density m = rho q next to the air density rho. */
typedef struct {
    gale_field_t *x;     /* the field advanced: q, or m when there is a density */
    int loc;             /* GALE_LOC_CELL or GALE_LOC_IFACE */
} gale_tracer_t;

typedef struct {
    int wind;            /* GALE_WIND_* */
    double u0, alpha;    /* solid body: speed at the equator of the rotation [m/s], axis tilt [rad] */
    double radius;
    int has_rho;         /* deformational: prognostic air density */
    gale_ktr_t ktr;
    /* stencil storage (owned here) */
    int *nb, *eside;
    double *rc, *rarea, *rdz;
    /* per-edge and per-column wind geometry */
    double *emid_lon, *emid_lat, *en_lon, *en_lat; /* edge midpoint, normal's east/north parts */
    double *ev0, *ev1;                             /* end vertices (unit vectors, 3 each) */
    /* fields */
    gale_field_t q, m, one, rho, q0, f, fi, wflux, fq, fqi, wq, tend, trho, s0, r0;
    gale_field_t qf;                               /* face values [(4*c + s)*stride + k] */
    int nsub;                                      /* sub-steps per model step */
    double dt;                                     /* transport step */
    /* diagnostics */
    double mass0, qmin0, qmax0, qmin, qmax;
} gale_transport_t;

enum { GALE_WIND_NONE = 0, GALE_WIND_SOLID = 1, GALE_WIND_DEFORM = 2 };

/* Collective. Sets up the transport of the model's case; m must have a local
 * mesh of halo depth >= 2. */
int gale_transport_setup(gale_transport_t *t, struct gale_model *m);
/* Collective: only the reconstruction stencils and the scratch of the flux
 * kernels (qf, fq, fqi, wq; gale_transport_tendency's), for a caller with its own winds (the
 * nonlinear core), the face values limited or not (gale_ktr_t.limit), the
 * layers flat (shell NULL or shallow) or spherical shells (shell->deep; its
 * arrays must outlive t). gale_transport_free frees either. */
int gale_transport_stencils(gale_transport_t *t, struct gale_model *m, int limit,
                            const gale_shell_t *shell);
void gale_transport_free(gale_transport_t *t);
/* Collective: out = -div(flux q) per unit volume, q (cells or interfaces)
 * carried by the horizontal volume fluxes flux and, unless NULL, the
 * vertical wflux; the face values and fluxes are t's own scratch, used
 * within the call. */
int gale_transport_tendency(gale_transport_t *t, gale_psy_t *psy, gale_field_t *q,
                            gale_field_t *flux, gale_field_t *wflux, gale_field_t *out);
/* Collective: advance the tracer (transport-only cases) or the advected
 * gravity-wave fields by one model step of length dt from time t0. */
int gale_transport_step(gale_transport_t *t, struct gale_model *m, double t0, double dt);
/* Collective: tracer mass (volume integral of m or q) and the current extrema. */
int gale_transport_mass(gale_transport_t *t, struct gale_model *m, double *mass);
/* Collective: sum(x*x) of the transported tracer (m = rho q, or q) over
 * owned cells, reproducibly: the tracer's checksum. */
int gale_transport_checksum(gale_transport_t *t, struct gale_model *m, double *sum);
/* Collective: Williamson (1992) norms of q against the analytic solution at time t. */
int gale_transport_norms(gale_transport_t *t, struct gale_model *m, double time, double norms[3]);
/* The time step the CFL number allows and the number of steps of a run of
 * `seconds` (collective). */
int gale_transport_dt(gale_transport_t *t, struct gale_model *m, double cfl, double seconds,
                      double *dt, int *steps);

#endif
