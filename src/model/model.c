/* The linear gravity-wave core: set-up, initial states, the semi-implicit
 * Crank-Nicolson step and its diagnostics. docs/numerics.md derives it. */
#include "gale_model.h"

#include "gale_cases.h"

#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_extrusion.h"
#include "gale_io.h" /* GALE_WRITER_*: [io] mode */

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const linear_names[4] = {"u", "w", "b", "p"};
static const char *const nonlinear_names[5] = {"u", "w", "theta", "pi", "rho"};

/* ---- set-up ---- */

static int setup_vertical(gale_model_t *m)
{
    const int nl = m->cfg.extrusion.levels;
    const double top = m->cfg.extrusion.top;
    GALE_ALLOC(m->z_if, nl + 1);
    GALE_ALLOC(m->z_c, nl);
    GALE_ALLOC(m->dz, nl);
    GALE_ALLOC(m->dzi, nl + 1);
    GALE_ALLOC(m->rdzi, nl + 1);
    GALE_CALL(gale_extrusion_eta((gale_extrude_t)m->cfg.extrusion.method, nl, m->z_if));
    for (int k = 0; k <= nl; k++) m->z_if[k] *= top;
    for (int k = 0; k < nl; k++) {
        m->dz[k] = m->z_if[k + 1] - m->z_if[k];
        m->z_c[k] = 0.5 * (m->z_if[k] + m->z_if[k + 1]);
    }
    /* interior interfaces only: w = 0 at the ground and the top */
    for (int k = 1; k < nl; k++) {
        m->dzi[k] = m->z_c[k] - m->z_c[k - 1];
        m->rdzi[k] = 1.0 / m->dzi[k];
    }
    /* the linear core's metric: the deep atmosphere's shells, or flat
     * columns (whose factors are dz, 1 and dzi exactly: the same bits) */
    const int deep = !m->cfg.dynamics.shallow && m->cfg.dynamics.equations == GALE_EQ_LINEAR;
    GALE_CALL(gale_shell_build(nl, gale_pad8(nl), gale_pad8(nl + 1), m->z_if, m->z_c,
                               m->cs.radius, m->cfg.planet.gravity, deep, &m->shell));
    GALE_ALLOC(m->dzqi, nl + 1);
    for (int k = 1; k < nl; k++) m->dzqi[k] = m->shell.qi[k] * m->dzi[k];
    return GALE_OK;
}

static int setup_geometry(gale_model_t *m)
{
    const gale_local_t *lm = &m->lm;
    const int nc = gale_psy_local(m->psy, GALE_LOC_CELL);
    const int na = (nc + GALE_LANES - 1) / GALE_LANES * GALE_LANES;
    GALE_CALL(gale_geom_build(&m->cs, lm, na, &m->geom));
    m->area = m->geom.area, m->cell_sign = m->geom.cell_sign;
    m->elen = m->geom.elen, m->erdist = m->geom.erdist, m->eweight = m->geom.eweight;
    GALE_ALLOC(m->area_rn2, na);
    GALE_ALLOC(m->lon, nc);
    GALE_ALLOC(m->lat, nc);
    for (int c = 0; c < nc; c++) {
        double x[3];
        m->area_rn2[c] = m->area[c] / m->cfg.physics.bvf_square;
        gale_cs_cell_centre(&m->cs, lm->cell_gid[c], x);
        gale_lonlat(x, &m->lon[c], &m->lat[c]);
    }
    gale_kmesh_t *km = &m->km;
    memset(km, 0, sizeof *km);
    km->nlev = m->cfg.extrusion.levels;
    km->sc = gale_pad8(km->nlev);
    km->si = gale_pad8(km->nlev + 1);
    gale_kmesh_set_mesh(km, lm, &m->geom, na);
    km->dz = m->dz;
    km->dzi = m->dzi;
    km->rdzi = m->rdzi;
    km->dzv = m->shell.dzv;
    km->dzf = m->shell.dzf;
    km->hl = m->shell.hl;
    km->qi = m->shell.qi;
    km->dzqi = m->dzqi;
    km->deep = m->shell.deep;
    km->c2 = m->cfg.physics.speed_of_sound * m->cfg.physics.speed_of_sound;
    km->n2 = m->cfg.physics.bvf_square;
    /* the nonlinear core's preconditioner: constants of its case's reference */
    if (m->cfg.dynamics.equations == GALE_EQ_NONLINEAR) gale_nl_constants(&m->cfg, &km->c2, &km->n2);
    km->tau = m->cfg.timestepping.alpha * m->cfg.timestepping.dt;
    GALE_CALL(gale_helmholtz_setup(km, 1.0, &m->helm));
    GALE_CALL(gale_psy_kernels_init(m->psy));
    return GALE_OK;
}

static int field(gale_model_t *m, gale_field_t *f, const char *name, gale_loc_t loc)
{
    return gale_psy_field_create(m->psy, f, name, loc, m->cfg.extrusion.levels, 8);
}

/* ---- initial states (on every local column: a function of position) ---- */

static int initial_state(gale_model_t *m)
{
    const gale_config_t *cfg = &m->cfg;
    const int nc = gale_psy_local(m->psy, GALE_LOC_CELL), nl = cfg->extrusion.levels;
    const int sc = m->km.sc, si = m->km.si;
    double *b = gale_fd(&m->b), *p = gale_fd(&m->p);
    const double amp = cfg->initial.amplitude, c2 = m->km.c2, n2 = m->km.n2;
    /* u, w start at rest in every case (fields are zero-filled) */
    switch (cfg->initial.kase) {
    case GALE_CASE_COSINE_BELL:
    case GALE_CASE_DEFORMATIONAL: break; /* the tracer is set up by the transport */
    case GALE_CASE_GRAVITY_WAVE:
    case GALE_CASE_GRAVITY_WAVE_ADVECTED: {
        /* DCMIP 2012 test 3-1 perturbation, b = g dtheta / theta0 */
        const double lonc = cfg->initial.centre_lon * GALE_PI / 180.0;
        const double latc = cfg->initial.centre_lat * GALE_PI / 180.0;
        const double xc[3] = {cos(latc) * cos(lonc), cos(latc) * sin(lonc), sin(latc)};
        const double d = cfg->initial.half_width, lz = cfg->initial.vertical_wavelength;
        const double b0 = cfg->planet.gravity * cfg->initial.dtheta / cfg->initial.theta0;
        for (int c = 0; c < nc; c++) {
            double x[3] = {cos(m->lat[c]) * cos(m->lon[c]), cos(m->lat[c]) * sin(m->lon[c]),
                           sin(m->lat[c])};
            double r = m->cs.radius * gale_arc(xc, x);
            double s = d * d / (d * d + r * r);
            for (int k = 0; k <= nl; k++)
                b[(size_t)c * si + k] = b0 * s * sin(2.0 * GALE_PI * m->z_if[k] / lz);
        }
        break;
    }
    case GALE_CASE_BALANCED:
        /* p(z), and b = dp/dz with the model's own vertical gradient, so that
         * dw/dt = -G_z p + b is zero to the bit */
        for (int c = 0; c < nc; c++) {
            double *pc = p + (size_t)c * sc, *bc = b + (size_t)c * si;
            for (int k = 0; k < nl; k++) pc[k] = amp * cos(GALE_PI * m->z_c[k] / cfg->extrusion.top);
            for (int k = 1; k < nl; k++) bc[k] = (pc[k] - pc[k - 1]) * m->rdzi[k];
        }
        break;
    case GALE_CASE_NORMAL_MODE:
        for (int c = 0; c < nc; c++) {
            double x;
            for (int k = 0; k < nl; k++)
                gale_case_normal_mode(cfg, c2, n2, m->cs.radius, m->shell.deep, m->lat[c],
                                      m->z_c[k], &p[(size_t)c * sc + k], &x);
            for (int k = 1; k < nl; k++)
                gale_case_normal_mode(cfg, c2, n2, m->cs.radius, m->shell.deep, m->lat[c],
                                      m->z_if[k], &x, &b[(size_t)c * si + k]);
        }
        break;
    default: GALE_ERROR(GALE_ERR_INTERNAL, "unknown case %d", cfg->initial.kase);
    }
    gale_field_t *f[4] = {&m->u, &m->w, &m->b, &m->p};
    for (int i = 0; i < 4; i++) GALE_CALL(gale_psy_host_wrote(m->psy, f[i], 1));
    return GALE_OK;
}

/* The normal-mode probe: the oscillating field projected on its initial shape. */
static int probe_value(gale_model_t *m, gale_rsum_t *acc0, gale_rsum_t *acc1)
{
    const int nl = m->km.nlev, c0 = gale_psy_owned(m->psy, GALE_LOC_CELL);
    const gale_config_t *cfg = &m->cfg;
    gale_rsum_t *acc[2] = {acc0, acc1};
    const gale_shell_t *sh = m->nl ? &m->nl->shell : &m->shell; /* the core's layers */
    GALE_CALL(gale_psy_to_host(cfg->initial.mode == GALE_MODE_VERTICAL ? &m->w : &m->p));
    /* a short serial loop on owned cells: it runs once per step on a small case */
    if (cfg->initial.mode == GALE_MODE_VERTICAL) {
        /* on the mode's own w shape: deep, (a/r) sin(mz), whose other
         * modes are orthogonal to it in this weight (docs/numerics.md) */
        const double mm = gale_case_mode_m(cfg), *w = gale_fd(&m->w), a = m->cs.radius;
        for (int c = 0; c < c0; c++)
            for (int k = 1; k < nl; k++) {
                double s = sin(mm * m->z_if[k]), wt = m->area[c] * (sh->qi[k] * m->dzi[k]);
                if (sh->deep) s *= a / (a + m->z_if[k]);
                gale_rsum_add(acc[0], wt * s * w[(size_t)c * m->km.si + k]);
                gale_rsum_add(acc[1], wt * s * s);
            }
    } else {
        /* the nonlinear core's p = cp theta* (Pi - Pi*), Pi* the resting state's */
        const double *p = gale_fd(&m->p), *ref = m->nl ? m->nl->mode_ref : NULL;
        for (int c = 0; c < c0; c++) {
            double y = gale_case_sph_harm(cfg->initial.degree, m->lat[c]);
            for (int k = 0; k < nl; k++) {
                double wt = m->area[c] * sh->dzv[k], x = p[(size_t)c * m->km.sc + k];
                if (ref) x = ref[nl + k] * (x - ref[k]);
                gale_rsum_add(acc[0], wt * y * x);
                gale_rsum_add(acc[1], wt * y * y);
            }
        }
    }
    return GALE_OK;
}

/* The nonlinear core's probe alone (its energy is its budget's). */
static int mode_probe(gale_model_t *m, double *probe)
{
    gale_psy_sum_t sum;
    gale_psy_sum_init(&sum);
    gale_rsum_t *t0 = gale_psy_sum_term(&sum), *t1 = gale_psy_sum_term(&sum);
    GALE_CALL(probe_value(m, t0, t1));
    double v[2];
    GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, v));
    *probe = v[1] > 0 ? v[0] / v[1] : 0;
    return GALE_OK;
}

/* Energy (and the probe) in one reproducible global sum. */
static int energy_and_probe(gale_model_t *m, double *e, double *probe)
{
    gale_psy_sum_t sum;
    gale_psy_sum_init(&sum);
    if (m->consistent) { /* u^T M_u u with the mimetic M_u (in m->ru, free in this step) */
        GALE_CALL(gale_psy_mix_u(m->psy, 1.0, 0.0, &m->u, NULL, &m->ru));
        gale_psy_sum_dot(&sum, &m->u, &m->ru, NULL, NULL);
    } else {
        gale_psy_sum_dot(&sum, &m->u, &m->u, m->eweight, m->shell.dzv);
    }
    gale_psy_sum_dot(&sum, &m->w, &m->w, m->area, m->dzqi);
    gale_psy_sum_dot(&sum, &m->b, &m->b, m->area_rn2, m->dzqi);
    gale_psy_sum_dot(&sum, &m->p, &m->p, m->km.h_ad, m->shell.dzv);
    gale_rsum_t *t0 = gale_psy_sum_term(&sum), *t1 = gale_psy_sum_term(&sum);
    if (m->cfg.initial.kase == GALE_CASE_NORMAL_MODE) GALE_CALL(probe_value(m, t0, t1));
    double v[6];
    GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, v));
    *e = 0.5 * (v[0] + v[1] + v[2] + v[3]);
    if (probe) *probe = v[5] > 0 ? v[4] / v[5] : 0;
    return GALE_OK;
}

int gale_model_energy(gale_model_t *m, double *e)
{
    if (!m->nl) return energy_and_probe(m, e, NULL);
    GALE_CALL(gale_nl_budget(m, &m->nl->b));
    *e = m->nl->b.energy;
    return GALE_OK;
}

int gale_model_checksums(gale_model_t *m, double sums[GALE_NPROG_MAX])
{
    gale_psy_sum_t sum;
    gale_psy_sum_init(&sum);
    for (int i = 0; i < m->nprog; i++) gale_psy_sum_dot(&sum, m->prog[i], m->prog[i], NULL, NULL);
    GALE_CALL(gale_psy_sum(&m->gsum_diag, &sum, sums));
    return GALE_OK;
}

/* Which transport the configuration asks for; bad combinations are input errors. */
static int transport_kind(const gale_config_t *cfg, int *kind)
{
    const int kase = cfg->initial.kase, wind = cfg->transport.wind;
    *kind = GALE_TRANSPORT_NONE;
    if (kase == GALE_CASE_COSINE_BELL || kase == GALE_CASE_DEFORMATIONAL) {
        *kind = GALE_TRANSPORT_ONLY;
        if (wind != GALE_WIND_NONE)
            GALE_ERROR(GALE_ERR_INPUT, "[transport] wind = %s: case %s sets its own wind; leave wind = none",
                       gale_config_choice("transport", "wind", wind),
                       gale_config_choice("initial", "case", kase));
    } else if (kase == GALE_CASE_GRAVITY_WAVE_ADVECTED ||
               (kase == GALE_CASE_GRAVITY_WAVE && wind == GALE_WIND_SOLID)) {
        *kind = GALE_TRANSPORT_ADVECTED_GW;
        if (wind == GALE_WIND_DEFORM)
            GALE_ERROR(GALE_ERR_INPUT, "[transport] wind = deformational: only case = deformational "
                       "uses it; the gravity wave is advected by solid_body");
    } else if (wind != GALE_WIND_NONE) {
        char from[GALE_STR + GALE_ORIGIN]; /* the case may be a GungHo namelist's test */
        gale_config_origin(cfg, "initial", "case", from, sizeof from);
        GALE_ERROR(GALE_ERR_INPUT, "[transport] wind = %s: %s (case %s) is not advected (use case = "
                   "gravity_wave or gravity_wave_advected)",
                   gale_config_choice("transport", "wind", wind), from,
                   gale_config_choice("initial", "case", kase));
    }
    /* the linear core's tracer transport moves over flat columns */
    if (*kind != GALE_TRANSPORT_NONE && !cfg->dynamics.shallow)
        GALE_ERROR(GALE_ERR_INPUT, "[dynamics] shallow = false (the deep atmosphere) with case %s: the "
                   "linear core's transport cases are shallow; set shallow = true",
                   gale_config_choice("initial", "case", kase));
    return GALE_OK;
}

/* Transport set-up; the advection cases take their time step from the CFL
 * number and their length from [transport] days, the advected gravity wave
 * sub-steps its transport within the model step. */
static int setup_transport(gale_model_t *m)
{
    GALE_ALLOC(m->tr, 1);
    GALE_CALL(gale_transport_setup(m->tr, m));
    double h;
    int n;
    if (m->transport == GALE_TRANSPORT_ONLY) {
        GALE_CALL(gale_transport_dt(m->tr, m, m->cfg.transport.cfl, m->cfg.transport.days * 86400.0,
                                    &h, &n));
        m->steps = n;
        m->dt = h;
        m->tr->nsub = 1;
    } else {
        GALE_CALL(gale_transport_dt(m->tr, m, m->cfg.transport.cfl, 0.0, &h, &n));
        m->tr->nsub = (int)ceil(m->dt / h);
    }
    m->tr->dt = m->dt / m->tr->nsub;
    gale_log(GALE_LOG_INFO, "transport: %s wind, dt %.6g s (%d sub-step%s per model step), %d steps",
             m->tr->wind == GALE_WIND_DEFORM ? "deformational (DCMIP 1-1)" : "solid-body",
             m->tr->dt, m->tr->nsub, m->tr->nsub > 1 ? "s" : "", m->steps);
    return GALE_OK;
}

/* Threads per rank: OMP_NUM_THREADS when it is set, with a warning when the
 * node is oversubscribed; else the node's cores over its ranks, at least 1.
 * OpenMP barriers spin: its own default, every core in every rank, ran the
 * default case on 2 ranks x 2 threads on 2 cores in 148.5 s instead of 0.78 s
 * (issue 14's measurement). */
static int choose_threads(gale_model_t *m)
{
    int local;
    GALE_CALL(gale_node_ranks(m->comm, NULL, &local));
    const long cores = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env = getenv("OMP_NUM_THREADS");
    m->node_ranks = local;
    m->node_cores = (int)cores;
    m->threads_auto = !env || !env[0];
    if (m->threads_auto) {
        const long t = cores > 0 ? cores / local : 1;
        omp_set_num_threads(t > 1 ? (int)t : 1);
    }
    m->nthreads = omp_get_max_threads();
    const int over = cores > 0 && (long)local * m->nthreads > cores;
    gale_mpi_set_yield(over); /* docs/halo.md, "Waits" */
    if (!m->threads_auto && over)
        gale_log(GALE_LOG_WARN,
                 "%d ranks x %d threads on a node with %ld cores: oversubscribed, expect a slow "
                 "run (set OMP_NUM_THREADS); MPI waits yield the core", local, m->nthreads, cores);
    return GALE_OK;
}

int gale_model_halo_depth(const gale_config_t *cfg, int *depth)
{
    /* the transport stencil and the nonlinear core's reach two cells out */
    int transport;
    GALE_CALL(transport_kind(cfg, &transport));
    const int nonlinear = cfg->dynamics.equations == GALE_EQ_NONLINEAR;
    *depth = (transport != GALE_TRANSPORT_NONE || nonlinear) && cfg->halo.depth < 2
                 ? 2 : cfg->halo.depth;
    return GALE_OK;
}

/* The output fields' width in cell columns (u lives on edges: two per
 * cell), all of them and the widest. */
static void output_columns(const gale_config_t *cfg, double *nf, double *widest)
{
    *nf = 0, *widest = 1;
    for (const char *c = cfg->diagnostics.fields; *c;) {
        c += strspn(c, " ,");
        const size_t len = strcspn(c, " ,@");
        const double w = len == 1 && *c == 'u' ? 2 : 1;
        if (len) *nf += w, *widest = w > *widest ? w : *widest;
        c += len;
        c += strcspn(c, ",");
    }
}

double gale_model_server_memory_estimate(const gale_config_t *cfg, int nclients)
{
    if (cfg->io.servers <= 0 || !gale_config_output_on(cfg)) return 0;
    /* a server's clients share the mesh with the other servers of its
     * pool: their rows' ids (16 bytes a row), the largest field gathered
     * whole (io/server.c), its own writer's ring as far as one output time
     * fills it, HDF5 and ROMIO's buffers */
    const double spp = cfg->io.servers / cfg->io.pools, n = cfg->mesh.n, nl = cfg->extrusion.levels;
    const double cols = 6 * n * n / (spp < nclients ? spp : nclients), col = cols * (nl + 1) * 8;
    double nf, widest;
    output_columns(cfg, &nf, &widest);
    const double once = nf * col, cap = cfg->io.buffer_mib * 1048576;
    const int nbuf = cfg->io.synchronous ? 1 : cfg->io.buffers;
    return 24.0 * 1048576 + 48 * 6 * n * n + cols * 3 * 16 + widest * col +
           nbuf * (once < cap ? once : cap) + 20.0 * 1048576;
}

double gale_model_memory_estimate(const gale_config_t *cfg, int nranks)
{
    /* Coefficients from peak resident sizes (docs/memory.md): per global
     * cell (partition and mesh arrays every rank holds), per local column
     * (geometry, numbering, halo lists), per local cell and level (the 11
     * fields, the kernels' factors, the solver's vectors). */
    const double n = cfg->mesh.n, ncells = 6 * n * n, nl = cfg->extrusion.levels;
    const double own = ncells / (nranks > 0 ? nranks : 1);
    const int depth = cfg->halo.depth > 2 ? cfg->halo.depth : 2;
    /* a square block's halo ring, at most the whole mesh */
    double local = own + 4.0 * depth * (sqrt(own) + depth);
    if (local > ncells) local = ncells;
    double per_level = 176; /* cg */
    switch (cfg->solver.method) {
    case GALE_KRYLOV_PIPECG: per_level += 48; break;
    case GALE_KRYLOV_BICGSTAB: per_level += 32; break;
    case GALE_KRYLOV_GCR: per_level += 8.0 * (2 * cfg->solver.gcr_restart - 2); break;
    default: break;
    }
    /* the mixed solve: its work vectors (u, w, b, p: 40 bytes per cell and
     * level, u on two edges per cell, 20 in single precision; gcr 1 + 2k,
     * pipelined_gcr 2 + 3k, solver/mixed.c) and the preconditioner's scratch
     * (one more); in single precision one more float vector (the correction,
     * or prec_only's r) and one double (the correction made double) */
    if (cfg->dynamics.mass_matrix == GALE_MASS_CONSISTENT) {
        const int k = cfg->mixed_solver.gcrk, mm = cfg->mixed_solver.method;
        const int single = cfg->solver.precision == GALE_PREC_SINGLE;
        per_level += (single ? 20.0 : 40.0) *
                         (mm == GALE_MIXED_PREC_ONLY ? 2 : mm == GALE_MIXED_PIPEGCR ? 3 + 3 * k
                                                                                     : 2 + 2 * k) +
                     (single ? 20.0 + 40.0 : 0.0);
    }
    /* the nonlinear core's fields (src/model/nonlinear.c): 38 on cells or
     * interfaces, 19 on edges (two per cell), the budgets' four more; the
     * advective wind's seven on cells, or the vorticity's four face values;
     * the filter's reconstruction, three */
    if (cfg->dynamics.equations == GALE_EQ_NONLINEAR)
        per_level += 8.0 * (38 + 2 * 19 + 4 + (cfg->dynamics.vector_invariant ? 4 : 7) +
                            (cfg->dynamics.grid_damping > 0.0 ? 3 : 0));
    /* multigrid: two more vectors on the fine level; each coarse level a
     * quarter of the one above (sum 1/3) with its own numbering, geometry,
     * four vectors and the operator's factors (docs/multigrid.md) */
    double coarse = 0;
    if (cfg->solver.preconditioner == GALE_PC_MULTIGRID) {
        per_level += 16;
        coarse = local / 3.0 * (1200 + 72 * nl);
    }
    double b = 24.0 * 1048576 + 48 * ncells + local * (1200 + per_level * nl) + coarse;
    /* output: the ring's buffers as far as one output time fills them (u
     * counted on edges: two per cell), HDF5 and ROMIO's collective buffer;
     * aggregated, the group's writer also gathers a piece (at most a
     * buffer) of the largest field from each other rank of its group (all
     * ranks stand in for a node's with aggregators = 0) */
    if (gale_config_output_on(cfg)) {
        double nf, widest;
        output_columns(cfg, &nf, &widest);
        const double col = local * (nl + 1) * 8, once = nf * col, cap = gale_config_io_piece_bytes(cfg);
        const int nbuf = cfg->io.synchronous ? 1 : cfg->io.buffers;
        b += nbuf * (once < cap ? once : cap) +
             (cfg->io.mode == GALE_WRITER_PER_RANK ? 8.0 : 20.0) * 1048576;
        if (cfg->io.mode == GALE_WRITER_AGGREGATED) {
            const int g = cfg->io.aggregators > 0 && cfg->io.aggregators < nranks
                              ? cfg->io.aggregators : nranks;
            b += (g - 1) * (widest * col < cap ? widest * col : cap);
        }
    }
    return b;
}

/* The writer's ring, allocated whole at its start (io/writer.c): buffers x
 * buffer_mib (one buffer when synchronous), 0 without output. */
static double ring_bytes(const gale_config_t *cfg)
{
    if (!gale_config_output_on(cfg)) return 0;
    return (cfg->io.synchronous ? 1 : cfg->io.buffers) * gale_config_io_piece_bytes(cfg);
}

/* Refuses a run that cannot fit (it would allocate until the machine dies):
 * the estimate against MemAvailable over the ranks of this node. */
static int check_memory(gale_model_t *m)
{
    const double need = gale_model_memory_estimate(&m->cfg, m->nranks);
    /* GALE_MEM_AVAILABLE=BYTES stands in for MemAvailable (tests) */
    const char *fake = getenv("GALE_MEM_AVAILABLE");
    const double avail = fake ? atof(fake) : gale_proc_bytes("/proc/meminfo", "MemAvailable");
    const int local = m->node_ranks; /* choose_threads counted them */
    /* the tightest node decides, the same on every rank */
    double each = avail >= 0 ? avail / local : 1e300, mean, most;
    GALE_CALL(gale_mmm(m->comm, 1, &each, &each, &mean, &most));
    m->mem_estimate = need;
    /* the estimate counts the ring as far as output fills it; the ring is
     * allocated whole, and fills up when the writer falls behind */
    const double ring = ring_bytes(&m->cfg);
    if (need <= each && ring <= each) return GALE_OK;
    const double G = 1024.0 * 1048576;
    if (m->cfg.run.allow_overcommit) {
        gale_log(GALE_LOG_WARN,
                 "memory: about %.2f GiB per rank needed, an output ring of %.2f GiB, %.2f GiB "
                 "available to each ([run] allow_overcommit = true: carrying on)", need / G,
                 ring / G, each / G);
        return GALE_OK;
    }
    if (need <= each) {
        char a[GALE_STR + GALE_ORIGIN], b[GALE_STR + GALE_ORIGIN];
        gale_config_origin(&m->cfg, "io", "buffers", a, sizeof a);
        gale_config_origin(&m->cfg, "io", "buffer_mib", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s with %s: the output ring of %.2f GiB per rank (allocated whole, filled "
                   "when the writer falls behind) is more than the %.2f GiB available to each "
                   "(MemAvailable / %d ranks on the node): use fewer or smaller buffers, or [run] "
                   "allow_overcommit = true", a, b, ring / G, each / G, local);
    }
    GALE_ERROR(GALE_ERR_INPUT,
               "mesh C%d with %d levels on %d ranks needs about %.2f GiB per rank, more than the "
               "%.2f GiB available to each (MemAvailable / %d ranks on the node): use more ranks "
               "or nodes, a smaller mesh or fewer levels, or [run] allow_overcommit = true",
               m->cfg.mesh.n, m->cfg.extrusion.levels, m->nranks, need / G, each / G, local);
}

int gale_model_setup(gale_model_t *m, const gale_config_t *cfg, MPI_Comm comm)
{
    double t0 = gale_wtime();
    memset(m, 0, sizeof *m);
    m->cfg = *cfg;
    m->comm = comm;
    GALE_MPI(MPI_Comm_rank(comm, &m->rank));
    GALE_MPI(MPI_Comm_size(comm, &m->nranks));
    GALE_CALL(choose_threads(m));
    GALE_CALL(check_memory(m));
    GALE_CALL(gale_psy_device_setup(cfg->offload.memory, cfg->halo.gpu_aware, comm));
    GALE_CALL(gale_cs_init(&m->cs, cfg->mesh.n, cfg->planet.radius / cfg->planet.scaling));
    if (m->nranks > m->cs.ncells)
        GALE_ERROR(GALE_ERR_INPUT, "%d ranks for mesh C%d: at most %lld (one column each)",
                   m->nranks, cfg->mesh.n, (long long)m->cs.ncells);
    GALE_CALL(transport_kind(cfg, &m->transport));
    /* multigrid partitions the coarsest mesh of its chain, and finer cells
     * inherit their parent's rank (docs/multigrid.md); else one level */
    const int mg = cfg->solver.preconditioner == GALE_PC_MULTIGRID;
    const int levels = mg ? gale_chain_levels(cfg->mesh.n, cfg->multigrid.levels) : 1;
    if (mg && levels < cfg->multigrid.levels)
        gale_log(GALE_LOG_INFO, "multigrid: C%d halves %d times, so %d levels, not [multigrid] "
                 "levels = %d", cfg->mesh.n, levels - 1, levels, cfg->multigrid.levels);
    GALE_CALL(gale_chain_build(&m->chain, &m->cs, levels, m->nranks, cfg->partitioning.method));
    const int nonlinear = cfg->dynamics.equations == GALE_EQ_NONLINEAR;
    int depth = 0;
    GALE_CALL(gale_model_halo_depth(cfg, &depth));
    GALE_CALL(gale_local_build(&m->cs, &m->chain.part[0], m->rank, depth, &m->lm));
    const gale_psy_opts_t po = {cfg->halo.depth, cfg->halo.redundant_computation, cfg->halo.overlap,
                                cfg->halo.progress_points};
    GALE_CALL(gale_psy_create(&m->psy, &po, comm, &m->lm, &m->km));
    GALE_CALL(setup_vertical(m));
    GALE_CALL(setup_geometry(m));
    GALE_CALL(field(m, &m->u, "u", GALE_LOC_EDGE));
    GALE_CALL(field(m, &m->w, "w", GALE_LOC_IFACE));
    GALE_CALL(field(m, &m->b, "b", GALE_LOC_IFACE));
    GALE_CALL(field(m, &m->p, "p", GALE_LOC_CELL));
    GALE_CALL(field(m, &m->ru, "ru", GALE_LOC_EDGE));
    GALE_CALL(field(m, &m->fu, "fu", GALE_LOC_EDGE));
    GALE_CALL(field(m, &m->rb, "rb", GALE_LOC_IFACE));
    GALE_CALL(field(m, &m->ws, "ws", GALE_LOC_IFACE));
    GALE_CALL(field(m, &m->fw, "fw", GALE_LOC_IFACE));
    GALE_CALL(field(m, &m->rhs, "rhs", GALE_LOC_CELL));
    GALE_CALL(field(m, &m->pn, "pn", GALE_LOC_CELL));
    gale_gsum_init(&m->gsum, m->psy, cfg->solver.reproducible_sums);
    gale_gsum_init(&m->gsum_diag, m->psy, 1);
    gale_solver_opts_t so = {
        .method = cfg->solver.method, .preconditioner = cfg->solver.preconditioner,
        .precision = cfg->solver.precision, .rtol = cfg->solver.tolerance,
        .atol = cfg->solver.abs_tolerance, .max_iterations = cfg->solver.max_iterations,
        .fail_on_non_converged = cfg->solver.fail_on_non_converged,
        .monitor = cfg->solver.monitor_convergence, .gcr_restart = cfg->solver.gcr_restart,
        .replace_every = cfg->solver.replace_every,
        .mg = {.relaxation = cfg->multigrid.smooth_relaxation, .npre = cfg->multigrid.n_presmooth,
               .npost = cfg->multigrid.n_postsmooth, .ncoarse = cfg->multigrid.n_coarsesmooth},
        .chain = &m->chain};
    GALE_CALL(gale_solver_create(&m->solver, &so, m->psy, &m->gsum));
    m->consistent = cfg->dynamics.mass_matrix == GALE_MASS_CONSISTENT;
    m->nprog = 4;
    m->prog_names = linear_names;
    gale_field_t *lin[4] = {&m->u, &m->w, &m->b, &m->p};
    memcpy(m->prog, lin, sizeof lin);
    m->steps = cfg->timestepping.steps;
    m->dt = cfg->timestepping.dt;
    if (nonlinear) {
        GALE_CALL(gale_nl_setup(m));
        m->nprog = 5;
        m->prog_names = nonlinear_names;
        m->prog[4] = &m->nl->rho;
    }
    if (m->consistent) {
        gale_gsum_init(&m->gsum_mixed, m->psy, cfg->solver.reproducible_sums);
        const gale_mixed_opts_t mo = {
            .method = cfg->mixed_solver.method, .rtol = cfg->mixed_solver.tolerance,
            .atol = cfg->mixed_solver.abs_tolerance, .lookahead = cfg->mixed_solver.lookahead,
            .max_iterations = cfg->mixed_solver.max_iterations, .gcrk = cfg->mixed_solver.gcrk,
            .fail_on_non_converged = cfg->mixed_solver.fail_on_non_converged,
            .monitor = cfg->mixed_solver.monitor_convergence, .nl = m->nl ? &m->nl->k : NULL,
            .single = cfg->solver.precision == GALE_PREC_SINGLE};
        GALE_CALL(gale_mixed_create(&m->mixed, &mo, m->psy, &m->gsum_mixed, m->solver));
    }
    if (!nonlinear) GALE_CALL(initial_state(m));
    if (m->transport) GALE_CALL(setup_transport(m));
    GALE_ALLOC(m->probe, m->steps + 1);
    if (nonlinear) {
        m->energy0 = m->nl->b0.energy;
        if (cfg->initial.kase == GALE_CASE_NORMAL_MODE) GALE_CALL(mode_probe(m, &m->probe[0]));
    } else
        GALE_CALL(energy_and_probe(m, &m->energy0, &m->probe[0]));
    m->energy = m->energy0;
    m->setup_s = gale_wtime() - t0;
    return GALE_OK;
}

void gale_model_free(gale_model_t *m)
{
    if (m->tr) {
        gale_transport_free(m->tr);
        GALE_FREE(m->tr);
    }
    gale_mixed_destroy(&m->mixed);
    gale_solver_destroy(&m->solver);
    gale_nl_free(m);
    gale_field_t *f[] = {&m->u, &m->w, &m->b, &m->p, &m->ru, &m->fu, &m->rb, &m->ws, &m->fw,
                         &m->rhs, &m->pn};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) gale_psy_field_free(f[i]);
    gale_psy_destroy(&m->psy);
    gale_helmholtz_free(&m->helm);
    void *a[] = {m->area_rn2, m->lon, m->lat, m->z_if, m->z_c, m->dz, m->dzi, m->rdzi,
                 m->dzqi, m->probe};
    for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) gale_free(a[i]);
    gale_shell_free(&m->shell);
    gale_geom_free(&m->geom);
    gale_local_free(&m->lm);
    gale_chain_free(&m->chain);
}

/* ---- the time step ---- */

/* NaN/Inf anywhere stops the run on every rank, naming the first bad entry
 * in global order; max |w| comes out of the same reduction. */
static int check_state(gale_model_t *m)
{
    const gale_field_t *const *f = (const gale_field_t *const *)m->prog;
    double mx[GALE_NPROG_MAX];
    int64_t gid[GALE_NPROG_MAX];
    int lev[GALE_NPROG_MAX];
    GALE_CALL(gale_psy_check_finite(m->psy, m->nprog, f, mx, gid, lev));
    for (int i = 0; i < m->nprog; i++)
        if (gid[i] >= 0) {
            if (f[i]->loc == GALE_LOC_EDGE)
                GALE_ERROR(GALE_ERR_NUMERIC, "step %d: %s is not finite at edge %lld, level %d",
                           m->step, m->prog_names[i], (long long)gid[i], lev[i]);
            int p = 0, ci = 0, cj = 0;
            gale_cs_cell_pij(&m->cs, gid[i], &p, &ci, &cj);
            GALE_ERROR(GALE_ERR_NUMERIC,
                       "step %d: %s is not finite at cell %lld (panel %d, i %d, j %d), level %d",
                       m->step, m->prog_names[i], (long long)gid[i], p, ci, cj, lev[i]);
        }
    m->max_u = mx[0];
    m->max_w = mx[1];
    m->run_max_u = fmax(m->run_max_u, m->max_u);
    m->run_max_w = fmax(m->run_max_w, m->max_w);
    return GALE_OK;
}

int gale_model_rhs(gale_model_t *m)
{
    gale_psy_t *psy = m->psy;
    const double dt = m->dt, alpha = m->cfg.timestepping.alpha;
    const double cw = (1.0 - alpha) * dt, tau = alpha * dt;
    /* explicit halves: Ru = u - cw G_h p, (Rb, W*) per column */
    GALE_CALL(gale_psy_grad_h(psy, cw, &m->u, &m->p, &m->ru));
    GALE_CALL(gale_psy_col_explicit(psy, cw, &m->w, &m->b, &m->p, &m->rb, &m->ws));
    /* the divergence of the old and the explicit-new fluxes in one pass */
    GALE_CALL(gale_psy_axpby(psy, &m->fu, cw, &m->u, tau, &m->ru));
    GALE_CALL(gale_psy_axpby(psy, &m->fw, cw, &m->w, tau, &m->ws));
    GALE_CALL(gale_psy_rhs(psy, &m->p, &m->fu, &m->fw, &m->rhs));
    return GALE_OK;
}

/* The lumped operator: u, w and b eliminated exactly, one Helmholtz solve. */
static int step_lumped(gale_model_t *m)
{
    gale_psy_t *psy = m->psy;
    const double tau = m->cfg.timestepping.alpha * m->dt;
    GALE_CALL(gale_model_rhs(m));
    /* the Helmholtz problem for p^{n+1}, from p^n as first guess */
    GALE_CALL(gale_psy_copy(psy, &m->pn, &m->p));
    GALE_CALL(gale_solver_solve(m->solver, &m->rhs, &m->pn));
    /* back-substitution */
    GALE_CALL(gale_psy_grad_h(psy, tau, &m->ru, &m->pn, &m->u));
    GALE_CALL(gale_psy_col_backsub(psy, &m->pn, &m->ws, &m->rb, &m->w, &m->b));
    gale_field_t t = m->p;
    m->p = m->pn;
    m->pn = t;
    return GALE_OK;
}

/* The consistent operator: (M + tau K) d = -dt K x^n, x^{n+1} = x^n + d,
 * the mixed solve (docs/numerics.md, "The mixed solve"). */
static int step_mixed(gale_model_t *m)
{
    gale_psy_t *psy = m->psy;
    GALE_CALL(gale_psy_mix_u(psy, 0.0, -m->dt, NULL, &m->p, &m->fu));
    GALE_CALL(gale_psy_mix_col(psy, 0.0, -m->dt, &m->u, &m->w, &m->b, &m->p, &m->fw, &m->rb,
                               &m->rhs));
    gale_field_t *r[4] = {&m->fu, &m->fw, &m->rb, &m->rhs}, *x[4] = {&m->u, &m->w, &m->b, &m->p};
    return gale_mixed_solve(m->mixed, r, x);
}

int gale_model_step(gale_model_t *m)
{
    const double dt = m->dt;
    if (m->transport) GALE_CALL(gale_transport_step(m->tr, m, m->time, dt));
    if (m->transport == GALE_TRANSPORT_ONLY) { /* no dynamics */
        m->step++;
        m->time += dt;
        return GALE_OK;
    }
    int st = m->nl ? gale_nl_step(m) : m->consistent ? step_mixed(m) : step_lumped(m);
    if (st == GALE_ERR_NUMERIC) GALE_CALL(check_state(m)); /* name the field if it can */
    GALE_CALL(st);

    m->step++;
    m->time += dt;
    GALE_CALL(check_state(m));
    double e_old = m->energy, probe = 0;
    if (m->nl) {
        GALE_CALL(gale_nl_budget(m, &m->nl->b));
        m->energy = m->nl->b.energy;
        const gale_nl_budget_t *b = &m->nl->b, *b0 = &m->nl->b0;
        m->nl->max_mass_change = fmax(m->nl->max_mass_change, fabs(b->mass - b0->mass) / b0->mass);
        m->nl->max_energy_change = fmax(m->nl->max_energy_change, fabs(b->energy - e_old) / b0->energy);
        gale_nl_record(m);
        if (m->cfg.initial.kase == GALE_CASE_NORMAL_MODE) GALE_CALL(mode_probe(m, &probe));
    } else {
        GALE_CALL(energy_and_probe(m, &m->energy, &probe));
    }
    if (m->probe && m->step <= m->steps) m->probe[m->step] = probe;
    double inc = (m->energy - e_old) / (m->energy0 > 0 ? m->energy0 : 1);
    if (m->step == 1 || inc > m->max_step_increase) m->max_step_increase = inc;
    return GALE_OK;
}

void gale_model_mode_frequency(const gale_model_t *m, double *measured, double *analytic)
{
    const gale_config_t *cfg = &m->cfg;
    const double c2 = m->km.c2, n2 = m->km.n2;
    *measured = 0;
    *analytic = 0;
    if (cfg->initial.kase != GALE_CASE_NORMAL_MODE) return;
    const double a = m->cs.radius, top = cfg->extrusion.top;
    const double ll = cfg->initial.degree * (cfg->initial.degree + 1.0);
    const int deep = m->nl ? m->nl->deep : m->shell.deep;
    if (cfg->initial.mode == GALE_MODE_VERTICAL) {
        const double mm = gale_case_mode_m(cfg);
        double w2 = c2 * mm * mm + n2;
        if (deep) {
            /* r w obeys omega^2 v = -c^2 v'' + (N^2 + 2 c^2 / r^2) v: to first
             * order the mean of 2 c^2 / r^2 over sin^2(mz) (Simpson, 2048 panels) */
            const int np = 2048;
            double sum = 0;
            for (int i = 0; i <= np; i++) {
                const double z = top * i / np, sz = sin(mm * z), r = a + z;
                sum += (i == 0 || i == np ? 1 : i % 2 ? 4 : 2) * sz * sz / (r * r);
            }
            w2 += 2.0 * c2 * (sum * top / (3.0 * np)) / (0.5 * top);
        }
        *analytic = sqrt(w2);
    } else if (deep) {
        /* the Rayleigh quotient of a height-uniform pressure over the shell:
         * omega^2 / c^2 = l(l+1) int dr / int r^2 dr */
        const double b = a + top;
        *analytic = sqrt(c2 * ll * 3.0 * top / (b * b * b - a * a * a));
    } else {
        *analytic = sqrt(c2 * ll) / a;
    }
    /* zero crossings of the probe, linearly interpolated between steps */
    double first = -1, last = -1;
    int n = 0;
    const double dt = m->dt;
    for (int s = 0; s < m->step; s++) {
        double a = m->probe[s], b = m->probe[s + 1];
        if ((a <= 0 && b > 0) || (a >= 0 && b < 0)) {
            double t = (s + a / (a - b)) * dt;
            if (n == 0) first = t;
            last = t;
            n++;
        }
    }
    if (n >= 2) *measured = GALE_PI * (n - 1) / (last - first);
}

int gale_model_equator_asymmetry(gale_model_t *m, double *asym)
{
    /* the whole b field on every rank: a diagnostic for small cases */
    const int n = m->cs.n, nl1 = m->km.nlev + 1;
    const size_t total = (size_t)m->cs.ncells * nl1;
    double *all = NULL;
    GALE_ALLOC(all, total);
    int st = gale_psy_gather_cells(m->psy, &m->b, all, total);
    if (st != GALE_OK) {
        gale_free(all);
        GALE_CALL(st);
    }
    double dmax = 0, bmax = 0;
    for (gale_gid_t g = 0; g < m->cs.ncells; g++) {
        int p, i, j;
        gale_cs_cell_pij(&m->cs, g, &p, &i, &j);
        gale_gid_t mg = gale_cs_cell(&m->cs, p < 4 ? p : 9 - p, i, n - 1 - j);
        for (int k = 0; k < nl1; k++) {
            dmax = fmax(dmax, fabs(all[(size_t)g * nl1 + k] - all[(size_t)mg * nl1 + k]));
            bmax = fmax(bmax, fabs(all[(size_t)g * nl1 + k]));
        }
    }
    gale_free(all);
    *asym = bmax > 0 ? dmax / bmax : 0;
    return GALE_OK;
}
