/* The algorithm layer of the linear gravity-wave core: set-up, initial
 * states, the semi-implicit time step and its diagnostics. Every loop over
 * columns of the time step, every exchange and every global reduction is a
 * PSy-layer call (psy/); solver/ does the Helmholtz solve. Host loops over
 * columns appear only in set-up and diagnostics. */
#ifndef GALE_MODEL_H
#define GALE_MODEL_H

#include "gale_config.h"
#include "gale_chain.h"
#include "gale_nonlinear.h"
#include "gale_psy.h"
#include "gale_solver.h"
#include "gale_transport.h"

#include <mpi.h>

/* What the case transports: nothing, a tracer only (the advection test
 * cases: no dynamics), or the gravity-wave fields in a background wind. */
#define GALE_NPROG_MAX 5

enum { GALE_TRANSPORT_NONE = 0, GALE_TRANSPORT_ONLY = 1, GALE_TRANSPORT_ADVECTED_GW = 2 };

typedef struct gale_model {
    gale_config_t cfg;
    MPI_Comm comm;
    int rank, nranks, nthreads;
    gale_cs_t cs;
    gale_chain_t chain;             /* the partition (of every multigrid level) */
    gale_local_t lm;
    gale_psy_t *psy;                /* halos, loop ranges, reductions */
    /* geometry (local), owned here and pointed to by km; area, cell_sign,
     * elen, erdist and eweight are geom's */
    gale_geom_t geom;
    double *area, *area_rn2, *cell_sign, *lon, *lat;
    double *elen, *erdist, *eweight; /* eweight = l_e d_e */
    double *z_if, *z_c, *dz, *dzi, *rdzi;
    /* the linear core's layers: spherical shells with [dynamics] shallow =
     * false, else flat (the nonlinear core keeps its own, nl->shell) */
    gale_shell_t shell;
    double *dzqi;                   /* qi dzi: M_w / A_c */
    gale_kmesh_t km;
    gale_helm_t helm;
    /* prognostics and work fields; the nonlinear core keeps theta in b and
     * Pi in p (its rho and its work fields are nl's) */
    gale_field_t u, w, b, p;
    gale_field_t ru, fu, rb, ws, fw, rhs, pn;
    gale_gsum_t gsum;               /* the solver's: [solver] reproducible_sums */
    gale_gsum_t gsum_diag;          /* energy, checksums: always reproducible */
    gale_gsum_t gsum_mixed;         /* the mixed solve's own: [solver] reproducible_sums */
    gale_solver_t *solver;          /* the Helmholtz problem's */
    int consistent;                 /* [dynamics] mass_matrix = consistent */
    gale_mixed_t *mixed;            /* its mixed solve (NULL when lumped) */
    gale_nl_t *nl;                  /* the nonlinear core ([dynamics] equations = nonlinear), or NULL */
    /* the prognostics the checksums, restart and checks cover, and their names */
    int nprog;
    gale_field_t *prog[GALE_NPROG_MAX];
    const char *const *prog_names;
    /* transport (NULL when the case has none) */
    int transport;                  /* GALE_TRANSPORT_* */
    gale_transport_t *tr;
    /* state of the run */
    int steps;                      /* steps of the run ([timestepping] steps, or from the CFL) */
    double dt;                      /* model time step */
    int step;
    double time;
    double energy0, energy, max_step_increase, max_u, max_w;
    double run_max_u, run_max_w;    /* over every step so far */
    double setup_s;
    int threads_auto;           /* OMP_NUM_THREADS unset: node cores over node ranks */
    int node_ranks, node_cores; /* of this rank's node */
    double mem_estimate; /* gale_model_memory_estimate of this run [bytes per rank] */
    /* normal-mode probe: projection of the oscillating field on its initial shape */
    double *probe;                  /* [steps+1] */
    double probe_norm;
} gale_model_t;

/* Collective. cfg must be the same on every rank. */
int gale_model_setup(gale_model_t *m, const gale_config_t *cfg, MPI_Comm comm);
/* The most memory one rank of an nranks run of cfg needs [bytes], before
 * anything is allocated: global mesh arrays, the rank's columns with their
 * halo (fields, geometry, solver vectors), measured coefficients
 * (docs/memory.md). gale_model_setup refuses a run whose estimate exceeds
 * the node's available memory divided by its ranks, unless [run]
 * allow_overcommit. */
double gale_model_memory_estimate(const gale_config_t *cfg, int nranks);
/* The same for an I/O server rank ([io] servers) serving nclients model
 * ranks; 0 without servers or output. */
double gale_model_server_memory_estimate(const gale_config_t *cfg, int nclients);
/* Serial. The halo depth of cfg's local numbering: [halo] depth, at least 2
 * for the transport cases and the nonlinear core (their stencils read two
 * cells out). Fails (GALE_ERR_INPUT) on a [transport] wind the case refuses. */
int gale_model_halo_depth(const gale_config_t *cfg, int *depth);
void gale_model_free(gale_model_t *m);
/* Collective: one time step, then the checks (NaN/Inf naming field, cell and
 * level) and the energy. */
int gale_model_step(gale_model_t *m);
/* Collective: the step's explicit halves and the Helmholtz right-hand side
 * (m->rhs) from the current state, as gale_model_step starts with the
 * lumped operator (whose step is one Helmholtz solve). */
int gale_model_rhs(gale_model_t *m);

/* Collective diagnostics. */
int gale_model_energy(gale_model_t *m, double *e);
/* sum(x*x) over owned entities and all levels of each of m->prog (u, w,
 * b, p; the nonlinear core's u, w, theta, Pi, rho), reproducibly. */
int gale_model_checksums(gale_model_t *m, double sums[GALE_NPROG_MAX]);

/* Collective: max |b(lon,lat) - b(lon,-lat)| / max |b| over all cells and
 * levels (the mirror cell of (p,i,j) is (p,i,N-1-j), panels 4 and 5 swapped). */
int gale_model_equator_asymmetry(gale_model_t *m, double *asym);

/* Normal modes: the measured and the analytic angular frequency [1/s];
 * measured is 0 when fewer than two zero crossings were seen. */
void gale_model_mode_frequency(const gale_model_t *m, double *measured, double *analytic);

#endif
