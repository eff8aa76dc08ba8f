/* The model side of output (gale_output.h): the [diagnostics] schedule, the
 * derived fields, packing owned columns in gid order into the writer's ring,
 * failure agreement and the metrics defined in docs/output.md (Metrics). */
#include "gale_output.h"

#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_io.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef enum {
    D_U, D_W, D_B, D_P, D_B_LEVEL, D_W_LEVEL, D_P_LEVEL, D_P_COLINT, D_W_COLINT, D_B_COLINT,
    D_ENERGY,
    /* the nonlinear core's (docs/nonlinear.md) */
    D_THETA, D_PI, D_RHO, D_PS, D_ZETA, D_UZON, D_VMER
} dkind_t;

typedef struct {
    int kind, level, period; /* period in steps */
} diag_t;

struct gale_output {
    MPI_Comm comm;
    int rank, on_error, mode, synchronous, nbuffers;
    double buffer_mib;
    int servers, pools, placement;
    long long buffer_size;                      /* I/O servers: the client buffer [bytes] */
    int *server_rank;                           /* [servers] their ranks in the job */
    int ndiag;
    diag_t *diag;
    gale_outvar_t *vars;          /* one per diagnostic: the writer's variable ids */
    int *cperm, *eperm;           /* owned cells / edges (local index) in gid order */
    gale_writer_t *w;             /* NULL: no output (none asked, or stopped) */
    int failed;                   /* output failed and was stopped */
    double t_init, t_final;       /* the client's life: init to the end of the drain */
    /* metrics (after finalize) */
    int reduced;
    double wait[3], busy[3], rate, busy_rate;
    long long bytes, data_bytes;
    int nfiles, full_waits;
    double server_busy;           /* the servers' writers: busy share of their life [%] */
    char *files;                  /* rank 0: every rank's file names, '\n'-separated */
    char hints[1024];             /* rank 0, shared: the hints set, asked and kept (gale_io.h) */
};

/* ---- [diagnostics] fields ---- */

static const char *const plain_names[] = {"u", "w", "b", "p"};

/* The nonlinear core's b and p are theta and Pi: it has its own names. */
static int nonlinear(const gale_config_t *c) { return c->dynamics.equations == GALE_EQ_NONLINEAR; }

static int valid_names(const gale_config_t *c, char *buf, size_t n)
{
    const int nl = c->extrusion.levels;
    if (nonlinear(c))
        return snprintf(buf, n, "u, w, theta, pi, rho, surface_pressure, vorticity, u_zonal, "
                                "v_meridional (the nonlinear core's)");
    return snprintf(buf, n,
                    "u, w, b, p, b_level<k> and w_level<k> (k = 0..%d), p_level<k> (k = 0..%d), "
                    "p_colint, w_colint, b_colint, energy_density", nl, nl - 1);
}

/* name -> kind and level; -1 if unknown or the level is out of range. */
static int parse_name(const gale_config_t *c, const char *s, int *level)
{
    static const struct { const char *name; int kind; } fixed[] = {
        {"u", D_U}, {"w", D_W}, {"b", D_B}, {"p", D_P}, {"p_colint", D_P_COLINT},
        {"w_colint", D_W_COLINT}, {"b_colint", D_B_COLINT}, {"energy_density", D_ENERGY}};
    static const struct { const char *prefix; int kind, top; } lev[] = {
        {"b_level", D_B_LEVEL, 0}, {"w_level", D_W_LEVEL, 0}, {"p_level", D_P_LEVEL, -1}};
    static const struct { const char *name; int kind; } nl[] = {
        {"u", D_U}, {"w", D_W}, {"theta", D_THETA}, {"pi", D_PI}, {"rho", D_RHO},
        {"surface_pressure", D_PS}, {"vorticity", D_ZETA}, {"u_zonal", D_UZON},
        {"v_meridional", D_VMER}};
    *level = 0;
    if (nonlinear(c)) {
        for (size_t i = 0; i < sizeof nl / sizeof nl[0]; i++)
            if (strcmp(s, nl[i].name) == 0) return nl[i].kind;
        return -1;
    }
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (strcmp(s, fixed[i].name) == 0) return fixed[i].kind;
    for (size_t i = 0; i < sizeof lev / sizeof lev[0]; i++) {
        size_t n = strlen(lev[i].prefix);
        if (strncmp(s, lev[i].prefix, n) != 0 || !isdigit((unsigned char)s[n])) continue;
        char *end;
        long k = strtol(s + n, &end, 10);
        if (*end || k > c->extrusion.levels + lev[i].top) return -1;
        *level = (int)k;
        return lev[i].kind;
    }
    return -1;
}

/* "@3" steps, or model time "@600s", "@10min", "@1h": a whole number of
 * steps. at: where the fields came from (gale_config_origin). */
static int parse_period(const gale_config_t *c, const char *at, const char *field, const char *s,
                        int *steps)
{
    const double dt = c->timestepping.dt;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    double mult = 0;
    /* decimal only: strtod would also take nan, inf and hexadecimal */
    if (end != s && !errno && strspn(s, "0123456789.eE+-") == (size_t)(end - s) && v > 0) {
        if (*end == '\0' && strspn(s, "0123456789") == strlen(s)) mult = -1;
        else if (strcmp(end, "s") == 0) mult = 1;
        else if (strcmp(end, "min") == 0) mult = 60;
        else if (strcmp(end, "h") == 0) mult = 3600;
    }
    if (mult == 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s: bad period '@%s' of '%s' (expected a number of steps N >= 1, or model "
                   "time with s, min or h, e.g. @3, @600s, @10min, @1h)", at, s, field);
    double n = mult < 0 ? v : v * mult / dt;
    if (!(n >= 0.5 && n <= 1e9) || fabs(n - nearbyint(n)) > 1e-9 * n)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s: period '@%s' of '%s' is not a whole number of time steps from 1 to "
                   "1e9 (dt = %g s)", at, s, field, dt);
    *steps = (int)nearbyint(n);
    return GALE_OK;
}

/* A diagnostic's variable; z_c, z_if: the layers' centres and interfaces
 * (for the names of single levels). */
static void describe(const double *z_c, const double *z_if, const diag_t *d, gale_outvar_t *v)
{
    const int k = d->level;
    memset(v, 0, sizeof *v);
    v->loc = GALE_OUT_FACE;
    v->vert = GALE_OUT_2D;
    switch (d->kind) {
    case D_U:
        snprintf(v->long_name, sizeof v->long_name,
                 "normal velocity on the vertical faces, positive from the edge's first face to "
                 "its second");
        snprintf(v->units, sizeof v->units, "m s-1");
        v->loc = GALE_OUT_EDGE;
        v->vert = GALE_OUT_LAYERS;
        break;
    case D_W:
    case D_W_LEVEL:
        snprintf(v->standard_name, sizeof v->standard_name, "upward_air_velocity");
        snprintf(v->units, sizeof v->units, "m s-1");
        break;
    case D_B:
    case D_B_LEVEL: snprintf(v->units, sizeof v->units, "m s-2"); break;
    case D_P:
    case D_P_LEVEL: snprintf(v->units, sizeof v->units, "m2 s-2"); break;
    case D_P_COLINT: snprintf(v->units, sizeof v->units, "m3 s-2"); break;
    case D_W_COLINT: snprintf(v->units, sizeof v->units, "m2 s-1"); break;
    case D_B_COLINT: snprintf(v->units, sizeof v->units, "m2 s-2"); break;
    default:
        snprintf(v->units, sizeof v->units, "m5 s-2");
        snprintf(v->cell_methods, sizeof v->cell_methods, "area: sum");
    }
    if (d->kind >= D_THETA) {
        static const struct { const char *name, *units, *standard, *lng; int vert; } nd[] = {
            {"theta", "K", "air_potential_temperature", "potential temperature at the layer interfaces", GALE_OUT_INTERFACES},
            {"pi", "1", "dimensionless_exner_function", "Exner pressure at the layer centres", GALE_OUT_LAYERS},
            {"rho", "kg m-3", "air_density", "density at the layer centres", GALE_OUT_LAYERS},
            {"surface_pressure", "Pa", "surface_air_pressure", "surface pressure, hydrostatic from the lowest layer's centre", GALE_OUT_2D},
            {"vorticity", "s-1", "atmosphere_relative_vorticity", "relative vorticity at the face centres (the mean of its corners' circulations)", GALE_OUT_LAYERS},
            {"u_zonal", "m s-1", "eastward_wind", "eastward wind at the face centres (reconstructed from the normal winds)", GALE_OUT_LAYERS},
            {"v_meridional", "m s-1", "northward_wind", "northward wind at the face centres (reconstructed from the normal winds)", GALE_OUT_LAYERS}};
        const int i = d->kind - D_THETA;
        snprintf(v->name, sizeof v->name, "%s", nd[i].name);
        snprintf(v->units, sizeof v->units, "%s", nd[i].units);
        snprintf(v->standard_name, sizeof v->standard_name, "%s", nd[i].standard);
        snprintf(v->long_name, sizeof v->long_name, "%s", nd[i].lng);
        v->cell_methods[0] = '\0';
        v->vert = nd[i].vert;
        return;
    }
    const char *what = d->kind == D_W || d->kind == D_W_LEVEL || d->kind == D_W_COLINT
                           ? "vertical velocity"
                       : d->kind == D_B || d->kind == D_B_LEVEL || d->kind == D_B_COLINT
                           ? "buoyancy"
                           : "pressure divided by the reference density";
    switch (d->kind) {
    case D_U: snprintf(v->name, sizeof v->name, "u"); break;
    case D_W:
    case D_B:
        snprintf(v->name, sizeof v->name, "%s", plain_names[d->kind]);
        snprintf(v->long_name, sizeof v->long_name, "%s at the layer interfaces", what);
        v->vert = GALE_OUT_INTERFACES;
        break;
    case D_P:
        snprintf(v->name, sizeof v->name, "p");
        snprintf(v->long_name, sizeof v->long_name, "%s at the layer centres", what);
        v->vert = GALE_OUT_LAYERS;
        break;
    case D_B_LEVEL:
    case D_W_LEVEL:
        snprintf(v->name, sizeof v->name, "%c_level%d", d->kind == D_B_LEVEL ? 'b' : 'w', k);
        snprintf(v->long_name, sizeof v->long_name, "%s at interface %d (z = %g m)", what, k,
                 z_if[k]);
        break;
    case D_P_LEVEL:
        snprintf(v->name, sizeof v->name, "p_level%d", k);
        snprintf(v->long_name, sizeof v->long_name, "%s in layer %d (z = %g m)", what, k, z_c[k]);
        break;
    case D_P_COLINT:
    case D_W_COLINT:
    case D_B_COLINT:
        snprintf(v->name, sizeof v->name, "%c_colint", d->kind == D_P_COLINT ? 'p' : d->kind == D_W_COLINT ? 'w' : 'b');
        snprintf(v->long_name, sizeof v->long_name,
                 "column integral of %s: sum over %s of the value times %s", what,
                 d->kind == D_P_COLINT ? "layers" : "interfaces",
                 d->kind == D_P_COLINT ? "the layer depth" : "the distance between layer centres");
        break;
    default:
        snprintf(v->name, sizeof v->name, "energy_density");
        snprintf(v->long_name, sizeof v->long_name,
                 "energy of the column, 1/2 (|u|^2 + p^2/c^2 + b^2/N^2) dV with the model's "
                 "weights (u: the cell's own mimetic form, or with the lumped operator each "
                 "edge shared equally by its two faces): the sum over faces is the model's "
                 "energy");
    }
}

/* [diagnostics] fields as a list of (kind, level, period) in *diag (to free). */
static int parse_fields(const gale_config_t *c, diag_t **diag, int *ndiag)
{
    const char *spec = c->diagnostics.fields;
    char tok[GALE_STR], names[256], at[GALE_STR + GALE_ORIGIN];
    int cap = 0;
    gale_config_origin(c, "diagnostics", "fields", at, sizeof at);
    for (const char *s = spec; *s;) {
        size_t n = strcspn(s, ",");
        /* trim blanks */
        const char *a = s, *b = s + n;
        while (a < b && isspace((unsigned char)*a)) a++;
        while (b > a && isspace((unsigned char)b[-1])) b--;
        s += n + (s[n] == ',');
        if (a == b) continue;
        snprintf(tok, sizeof tok, "%.*s", (int)(b - a), a);
        char *p = strchr(tok, '@');
        if (p) *p++ = '\0';
        diag_t d = {0, 0, c->diagnostics.period};
        if ((d.kind = parse_name(c, tok, &d.level)) < 0) {
            char lv[GALE_STR + GALE_ORIGIN] = "";
            valid_names(c, names, sizeof names);
            /* a level out of range: the levels may have come from elsewhere */
            if (!nonlinear(c) && strstr(tok, "_level")) {
                size_t k = (size_t)snprintf(lv, sizeof lv, "; the levels: ");
                gale_config_origin(c, "extrusion", "levels", lv + k, sizeof lv - k);
            }
            GALE_ERROR(GALE_ERR_INPUT, "%s: unknown field '%s' (valid: %s)%s", at, tok, names, lv);
        }
        if (p) GALE_CALL(parse_period(c, at, tok, p, &d.period));
        for (int i = 0; i < *ndiag; i++)
            if ((*diag)[i].kind == d.kind && (*diag)[i].level == d.level)
                GALE_ERROR(GALE_ERR_INPUT, "%s: '%s' is listed twice", at, tok);
        if (*ndiag == cap) {
            cap = cap ? 2 * cap : 16;
            diag_t *q = realloc(*diag, (size_t)cap * sizeof *q);
            if (!q) GALE_ERROR(GALE_ERR_MEM, "out of memory");
            *diag = q;
        }
        (*diag)[(*ndiag)++] = d;
    }
    return GALE_OK;
}

int gale_output_check_fields(const gale_config_t *cfg)
{
    diag_t *diag = NULL;
    int n = 0, st = parse_fields(cfg, &diag, &n);
    free(diag);
    return st;
}

/* ---- the output's plan, without a model (gale iobench --ior-proxy) ---- */

int gale_output_plan(const gale_config_t *c, gale_output_plan_t *p)
{
    memset(p, 0, sizeof *p);
    diag_t *diag = NULL;
    int nd = 0;
    GALE_CALL(parse_fields(c, &diag, &nd));
    const int nl = c->extrusion.levels;
    double *z;
    GALE_ALLOC(z, nl + 1); /* the names of single levels are not needed */
    const long long faces = 6LL * c->mesh.n * c->mesh.n, edges = 2 * faces;
    for (int s = 1; s <= c->timestepping.steps; s++) {
        long long bytes = 0;
        for (int i = 0; i < nd; i++) {
            if (s % diag[i].period) continue;
            gale_outvar_t v;
            describe(z, z, &diag[i], &v);
            const int rl = v.vert == GALE_OUT_2D ? 1 : v.vert == GALE_OUT_LAYERS ? nl : nl + 1;
            bytes += (v.loc == GALE_OUT_EDGE ? edges : faces) * rl * (long long)sizeof(double);
        }
        if (!bytes) continue;
        /* output times of the same fields form one phase: those due at s and
         * at the phase's first step are the same */
        int k = 0;
        for (; k < p->nphases; k++) {
            int i = 0;
            while (i < nd && !(s % diag[i].period) == !(p->phase[k].first_step % diag[i].period)) i++;
            if (i == nd) break;
        }
        if (k == p->nphases) {
            if (k == GALE_OUTPUT_MAX_PHASES) {
                gale_free(z);
                free(diag);
                GALE_ERROR(GALE_ERR_INPUT, "[diagnostics] fields: more than %d different sets of "
                           "fields due together", GALE_OUTPUT_MAX_PHASES);
            }
            p->phase[k] = (gale_output_phase_t){.bytes = bytes, .first_step = s};
            for (int i = 0; i < nd; i++) {
                if (s % diag[i].period) continue;
                gale_outvar_t v;
                describe(z, z, &diag[i], &v);
                size_t u = strlen(p->phase[k].names);
                snprintf(p->phase[k].names + u, sizeof p->phase[k].names - u, "%s%s", u ? "," : "",
                         v.name);
            }
            p->nphases++;
        }
        p->phase[k].times++;
        p->outputs++;
    }
    gale_free(z);
    free(diag);
    return GALE_OK;
}

/* ---- the output directory ---- */

/* ---- set-up ---- */

typedef struct { gale_gid_t gid; int local; } gl_t;

static int cmp_gl(const void *a, const void *b)
{
    const gl_t *x = a, *y = b;
    return x->gid < y->gid ? -1 : x->gid > y->gid;
}

/* Local indices [0, n) sorted by gid; the sorted gids too. */
static int sort_by_gid(const gale_gid_t *gid, int n, int **perm, gale_gid_t **sorted)
{
    gl_t *t;
    GALE_ALLOC(t, n + 1);
    for (int i = 0; i < n; i++) t[i] = (gl_t){gid[i], i};
    qsort(t, (size_t)n, sizeof *t, cmp_gl);
    GALE_ALLOC(*perm, n + 1);
    GALE_ALLOC(*sorted, n + 1);
    for (int i = 0; i < n; i++) (*perm)[i] = t[i].local, (*sorted)[i] = t[i].gid;
    gale_free(t);
    return GALE_OK;
}

/* The [io] settings of a writer: the model's, or the I/O servers'. */
static gale_writer_opts_t writer_opts(const gale_config_t *c)
{
    return (gale_writer_opts_t){
        .dir = c->io.dir, .mode = c->io.mode, .aggregators = c->io.aggregators,
        .synchronous = c->io.synchronous, .nbuffers = c->io.buffers,
        .buffer_mib = c->io.buffer_mib, .xdmf = c->io.xdmf, .cb_nodes = c->io.cb_nodes,
        .cb_buffer_size = c->io.cb_buffer_size, .romio_cb_write = c->io.romio_cb_write,
        .striping_factor = c->io.striping_factor, .striping_unit = c->io.striping_unit,
        .alignment = c->io.alignment, .chunk_columns = c->io.chunk_columns};
}

int gale_output_serve(const gale_config_t *c, gale_io_link_t *link, MPI_Comm comm)
{
    const gale_writer_opts_t o = writer_opts(c);
    return gale_io_serve(link, comm, &o, c->io.on_error == GALE_IO_ON_ERROR_ABORT);
}

int gale_output_init(gale_output_t **outp, gale_model_t *m, gale_io_link_t *link)
{
    const gale_config_t *c = &m->cfg;
    gale_output_t *o = calloc(1, sizeof *o);
    *outp = o;
    if (!o) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    o->t_init = gale_wtime();
    o->comm = m->comm;
    o->rank = m->rank;
    o->on_error = c->io.on_error;
    o->mode = c->io.mode;
    o->synchronous = c->io.synchronous;
    o->nbuffers = c->io.buffers;
    o->buffer_mib = c->io.buffer_mib;
    o->servers = c->io.servers;
    o->pools = c->io.pools;
    o->placement = c->io.server_placement;
    if (o->servers > 0) {
        GALE_ALLOC(o->server_rank, o->servers);
        memcpy(o->server_rank, link->server_rank, (size_t)o->servers * sizeof *o->server_rank);
    }
    /* with servers, the writer's ring is the client buffer, in [io] buffers pieces */
    o->buffer_size = (long long)(gale_config_io_piece_bytes(c) * c->io.buffers);
    GALE_CALL(parse_fields(c, &o->diag, &o->ndiag));
    long nth;
    if (gale_io_fault_parse(getenv("GALE_IO_FAULT"), &nth, NULL) != GALE_OK)
        GALE_ERROR(GALE_ERR_INPUT, "GALE_IO_FAULT = '%s': expected enospc@N or kill@N with N >= 1",
                   getenv("GALE_IO_FAULT"));
    if (o->ndiag == 0) return GALE_OK;

    char msg[GALE_STR + 128] = "";
    /* gale_output_check_paths did it before the run unless on_error = continue */
    int bad = o->rank == 0 &&
              gale_dir_prepare(c->io.dir, gale_io_output_names, msg, sizeof msg) != 0;
    GALE_MPI(MPI_Bcast(&bad, 1, MPI_INT, 0, o->comm));
    if (bad) {
        if (o->on_error == GALE_IO_ON_ERROR_ABORT)
            GALE_ERROR(GALE_ERR_INPUT, "[io] dir: %s", msg);
        gale_log(GALE_LOG_WARN, "[io] dir: %s; the run carries on without output ([io] on_error "
                                "= continue)", msg);
        o->failed = 1;
        return GALE_OK;
    }

    GALE_ALLOC(o->vars, o->ndiag);
    for (int i = 0; i < o->ndiag; i++) describe(m->z_c, m->z_if, &o->diag[i], &o->vars[i]);
    gale_gid_t *cgid = NULL, *egid = NULL;
    GALE_CALL(sort_by_gid(m->lm.cell_gid, gale_psy_owned(m->psy, GALE_LOC_CELL), &o->cperm, &cgid));
    GALE_CALL(sort_by_gid(m->lm.edge_gid, gale_psy_owned(m->psy, GALE_LOC_EDGE), &o->eperm, &egid));
    size_t len = gale_config_dump(c, NULL, 0);
    char *config = malloc(len + 1);
    if (!config) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    gale_config_dump(c, config, len + 1);
    gale_writer_opts_t wo = writer_opts(c);
    wo.cs = &m->cs;
    wo.nlev = c->extrusion.levels, wo.z_c = m->z_c, wo.z_if = m->z_if;
    wo.ncell = gale_psy_owned(m->psy, GALE_LOC_CELL), wo.nedge = gale_psy_owned(m->psy, GALE_LOC_EDGE);
    wo.cell_gid = cgid, wo.edge_gid = egid;
    wo.nvars = o->ndiag, wo.vars = o->vars, wo.config_text = config;
    if (o->servers > 0) {
        wo.link = link;
        wo.buffer_mib = gale_config_io_piece_bytes(c) / 1048576;
    }
    int st = gale_writer_create(&o->w, &wo, o->comm);
    free(config);
    gale_free(cgid);
    gale_free(egid);
    GALE_CALL(st);

    char list[GALE_STR] = "";
    size_t used = 0;
    for (int i = 0; i < o->ndiag && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s@%d", i ? " " : "",
                                 o->vars[i].name, o->diag[i].period);
    if (o->servers > 0)
        gale_log(GALE_LOG_INFO, "output:    %d I/O servers (%s) in %d pools, a client buffer of %lld "
                                "bytes, to %s: %s", o->servers,
                 gale_config_choice("io", "server_placement", o->placement), o->pools,
                 o->buffer_size, c->io.dir, list);
    else
        gale_log(GALE_LOG_INFO, "output:    %s, %s (%d x %g MiB buffers) to %s: %s",
                 gale_config_choice("io", "mode", c->io.mode),
                 c->io.synchronous ? "synchronous" : "asynchronous",
                 c->io.synchronous ? 1 : c->io.buffers, c->io.buffer_mib, c->io.dir, list);
    return GALE_OK;
}

/* ---- hand-off ---- */

/* Every rank learns of a failure on any rank here, at the next hand-off
 * point: the writers have then stopped (drained, temporary files removed). */
static int agree_failure(gale_output_t *o)
{
    gale_agree_t a = {0};
    if (gale_writer_failed(o->w)) gale_agree_fail(&a, "output failed");
    if (!gale_agree(&a, o->comm)) return GALE_OK;
    o->failed = 1;
    if (o->on_error == GALE_IO_ON_ERROR_ABORT) {
        GALE_CALL(gale_writer_finish(o->w)); /* no temporary file is left */
        /* every rank knows: a collective error, the run ends through MPI_Finalize */
        GALE_ERROR(GALE_ERR_OUTPUT, "output failed (see above): stopping the run on every rank "
                                    "([io] on_error = abort)");
    }
    GALE_CALL(gale_writer_finish(o->w));
    gale_log(GALE_LOG_WARN, "output failed (see above): the run carries on without output "
                            "([io] on_error = continue)");
    return GALE_OK;
}

/* Rows [r0, r1) of diagnostic d in gid order, levels contiguous. */
static void pack(const gale_output_t *o, const gale_model_t *m, const diag_t *d, int r0, int r1,
                 double *dst)
{
    const int nl = m->km.nlev, sc = m->km.sc, si = m->km.si, k = d->level;
    const double *u = gale_fd(&m->u), *w = gale_fd(&m->w), *b = gale_fd(&m->b),
                 *p = gale_fd(&m->p);
    const int *perm = d->kind == D_U ? o->eperm : o->cperm;
    const gale_nl_t *q = m->nl;
    const int layers = d->kind == D_U || d->kind == D_P || d->kind == D_PI || d->kind == D_RHO ||
                       d->kind == D_ZETA || d->kind == D_UZON || d->kind == D_VMER;
    const int ifaces = d->kind == D_W || d->kind == D_B || d->kind == D_THETA;
    const double *nlf = !q ? NULL
                        : d->kind == D_RHO ? gale_fd(&q->rho)
                        : d->kind == D_PS ? gale_fd(&q->bps)
                        : d->kind == D_ZETA ? gale_fd(&q->zeta)
                        : d->kind == D_UZON ? gale_fd(&q->rx.ue)
                        : d->kind == D_VMER ? gale_fd(&q->rx.vn) : NULL;
#pragma omp parallel for schedule(static)
    for (int r = r0; r < r1; r++) {
        const size_t c = (size_t)perm[r];
        double *out = dst + (size_t)(r - r0) * (layers ? nl : ifaces ? nl + 1 : 1);
        double s = 0;
        switch (d->kind) {
        case D_THETA: memcpy(out, b + c * si, (size_t)(nl + 1) * sizeof *out); break;
        case D_PI: memcpy(out, p + c * sc, (size_t)nl * sizeof *out); break;
        case D_RHO:
        case D_ZETA:
        case D_UZON:
        case D_VMER: memcpy(out, nlf + c * sc, (size_t)nl * sizeof *out); break;
        case D_PS: *out = nlf[c * q->bps.stride]; break;
        case D_U: memcpy(out, u + c * sc, (size_t)nl * sizeof *out); break;
        case D_W: memcpy(out, w + c * si, (size_t)(nl + 1) * sizeof *out); break;
        case D_B: memcpy(out, b + c * si, (size_t)(nl + 1) * sizeof *out); break;
        case D_P: memcpy(out, p + c * sc, (size_t)nl * sizeof *out); break;
        case D_B_LEVEL: *out = b[c * si + k]; break;
        case D_W_LEVEL: *out = w[c * si + k]; break;
        case D_P_LEVEL: *out = p[c * sc + k]; break;
        case D_P_COLINT:
            for (int l = 0; l < nl; l++) s += p[c * sc + l] * m->dz[l];
            *out = s;
            break;
        case D_W_COLINT:
        case D_B_COLINT: {
            const double *x = d->kind == D_W_COLINT ? w : b;
            for (int l = 1; l < nl; l++) s += x[c * si + l] * m->dzi[l];
            *out = s;
            break;
        }
        default: {
            /* The terms of gale_model_energy, with its weights; an edge's
             * term goes half to each of its faces. */
            double su = 0, sw = 0, sb = 0, sp = 0;
            const int *ce = m->lm.cell_edge + 4 * c;
            if (m->consistent) { /* the cell's own quadratic form: the cells' forms sum to M_u */
                const double *mc = m->geom.mfd + 16 * c;
                for (int l = 0; l < nl; l++) {
                    double q = 0;
                    for (int i = 0; i < 4; i++)
                        for (int j = 0; j < 4; j++)
                            q += u[(size_t)ce[i] * sc + l] * mc[4 * i + j] * u[(size_t)ce[j] * sc + l];
                    su += m->shell.dzv[l] * q;
                }
            } else {
                for (int q = 0; q < 4; q++) {
                    const size_t e = (size_t)ce[q];
                    for (int l = 0; l < nl; l++)
                        su += 0.5 * ((m->eweight[e] * m->shell.dzv[l] * u[e * sc + l]) * u[e * sc + l]);
                }
            }
            for (int l = 0; l <= nl; l++) {
                sw += (m->area[c] * m->dzqi[l] * w[c * si + l]) * w[c * si + l];
                sb += (m->area_rn2[c] * m->dzqi[l] * b[c * si + l]) * b[c * si + l];
            }
            for (int l = 0; l < nl; l++)
                sp += (m->km.h_ad[c] * m->shell.dzv[l] * p[c * sc + l]) * p[c * sc + l];
            *out = 0.5 * (su + sw + sb + sp);
        }
        }
    }
}

int gale_output_step(gale_output_t *o, gale_model_t *m)
{
    if (!o || !o->w || o->failed) return GALE_OK;
    int due[o->ndiag], n = 0;
    for (int i = 0; i < o->ndiag; i++)
        if (m->step % o->diag[i].period == 0) due[n++] = i;
    if (n == 0) return GALE_OK;
    const double t0 = gale_wtime(), c0 = gale_timer_counted();
    gale_writer_stats_t s0, s1;
    gale_writer_stats(o->w, &s0);
    GALE_CALL(agree_failure(o));
    if (o->failed) return GALE_OK;
    /* The host copies, once (no-ops on the CPU). */
    int need[9] = {0};
    for (int i = 0; i < n; i++) {
        int k = o->diag[due[i]].kind;
        need[0] |= k == D_U || k == D_ENERGY;
        need[1] |= k == D_W || k == D_W_LEVEL || k == D_W_COLINT || k == D_ENERGY;
        need[2] |= k == D_B || k == D_B_LEVEL || k == D_B_COLINT || k == D_ENERGY || k == D_THETA;
        need[3] |= k == D_P || k == D_P_LEVEL || k == D_P_COLINT || k == D_ENERGY || k == D_PI;
        need[4] |= k == D_RHO, need[5] |= k == D_PS, need[6] |= k == D_ZETA;
        need[7] |= k == D_UZON, need[8] |= k == D_VMER;
    }
    gale_nl_t *q = m->nl;
    gale_field_t *f[9] = {&m->u, &m->w, &m->b, &m->p, q ? &q->rho : NULL, q ? &q->bps : NULL,
                          q ? &q->zeta : NULL, q ? &q->rx.ue : NULL, q ? &q->rx.vn : NULL};
    for (int i = 0; i < 9; i++)
        if (need[i] && f[i]) GALE_CALL(gale_psy_to_host(f[i]));
    GALE_CALL(gale_writer_begin(o->w, m->step, m->time, n, due));
    for (int i = 0; i < n; i++) {
        const int v = due[i];
        for (int piece = 0; piece < gale_writer_npieces(o->w, v); piece++) {
            int r0, r1;
            double *dst;
            gale_writer_piece_rows(o->w, v, piece, &r0, &r1);
            GALE_CALL(gale_writer_put(o->w, v, piece, &dst));
            pack(o, m, &o->diag[v], r0, r1, dst);
        }
    }
    GALE_CALL(gale_writer_end(o->w));
    gale_writer_stats(o->w, &s1);
    const double blocked = s1.t_blocked - s0.t_blocked;
    gale_timer_add(GALE_T_IO_WAIT, blocked);
    gale_timer_add_region(GALE_T_IO_HANDOFF, t0, c0); /* less the wait, the d2h copies */
    return GALE_OK;
}

/* ---- the end ---- */

int gale_output_finalize(gale_output_t *o)
{
    if (!o || !o->w) return GALE_OK;
    const int was_failed = o->failed;
    gale_writer_stats_t s;
    /* the final drain on this thread's clock (the writer's own measure of it
     * can start before this call's) */
    const double t0 = gale_wtime(), c0 = gale_timer_counted();
    GALE_CALL(gale_writer_finish(o->w));
    o->t_final = gale_wtime();
    gale_writer_stats(o->w, &s);
    gale_timer_add_region(GALE_T_IO_WAIT, t0, c0);
    if (!was_failed) GALE_CALL(agree_failure(o));

    int nranks;
    GALE_MPI(MPI_Comm_size(o->comm, &nranks));
    const double life = o->t_final - o->t_init;
    /* min/mean/max over ranks of the model's wait and the writer's busy share (%) */
    const double wait_pct = life > 0 ? 100.0 * s.t_blocked / life : 0,
                 busy_pct = s.t_writer_life > 0 ? 100.0 * s.t_writing / s.t_writer_life : 0;
    GALE_CALL(gale_mmm(o->comm, 1, &wait_pct, &o->wait[0], &o->wait[1], &o->wait[2]));
    GALE_CALL(gale_mmm(o->comm, 1, &busy_pct, &o->busy[0], &o->busy[1], &o->busy[2]));
    /* with servers, what was busy writing is the servers' writers */
    double span[2] = {s.t_first_open < 0 ? 1e300 : s.t_first_open, s.t_last_close},
           busy = o->servers > 0 ? s.t_server_writing : s.t_writing;
    long long bytes = s.bytes, data_bytes = s.data_bytes;
    int nfiles = s.nfiles;
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &span[0], 1, MPI_DOUBLE, MPI_MIN, o->comm));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &span[1], 1, MPI_DOUBLE, MPI_MAX, o->comm));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &busy, 1, MPI_DOUBLE, MPI_MAX, o->comm));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_LONG_LONG, MPI_SUM, o->comm));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &data_bytes, 1, MPI_LONG_LONG, MPI_SUM, o->comm));
    o->data_bytes = data_bytes;
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &nfiles, 1, MPI_INT, MPI_SUM, o->comm));
    double srv[2] = {s.t_server_writing, s.t_server_life};
    int waits = s.full_waits;
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, srv, 2, MPI_DOUBLE, MPI_SUM, o->comm));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &waits, 1, MPI_INT, MPI_SUM, o->comm));
    o->server_busy = srv[1] > 0 ? 100.0 * srv[0] / srv[1] : 0;
    o->full_waits = waits;
    o->bytes = bytes;
    o->nfiles = nfiles;
    o->rate = span[1] > span[0] ? bytes / 1048576.0 / (span[1] - span[0]) : 0;
    o->busy_rate = busy > 0 ? bytes / 1048576.0 / busy : 0;

    /* every rank's file names to rank 0 */
    int len = (int)strlen(s.files), lens[o->rank == 0 ? nranks : 1], displ[nranks];
    GALE_MPI(MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, o->comm));
    int total = 0;
    if (o->rank == 0)
        for (int r = 0; r < nranks; r++) displ[r] = total, total += lens[r];
    if (o->rank == 0 && !(o->files = calloc((size_t)total + 1, 1)))
        GALE_ERROR(GALE_ERR_MEM, "out of memory");
    GALE_MPI(MPI_Gatherv(s.files, len, MPI_CHAR, o->files, lens, displ, MPI_CHAR, 0, o->comm));
    snprintf(o->hints, sizeof o->hints, "%s", s.hints ? s.hints : "");
    o->reduced = 1;
    return GALE_OK;
}

/* The line after s's, NULL after the last (o->hints may end cut short). */
static const char *next_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return nl ? nl + 1 : NULL;
}

void gale_output_summary(const gale_output_t *o, FILE *f)
{
    if (o && o->ndiag && !o->reduced) fprintf(f, "io: no output (failed at start-up)\n");
    if (!o || !o->reduced) return;
    if (o->servers > 0)
        fprintf(f, "io: %d I/O servers (%s, %d pools), a client buffer of %lld bytes (%d pieces%s), "
                   "%d files, %.2f MiB%s\n", o->servers,
                gale_config_choice("io", "server_placement", o->placement), o->pools,
                o->buffer_size, o->nbuffers, o->synchronous ? ", sent synchronously: one used" : "",
                o->nfiles, o->bytes / 1048576.0,
                o->failed ? ", STOPPED AFTER A FAILURE" : "");
    else
        fprintf(f, "io: %s, %s (%d x %g MiB buffers), %d files, %.2f MiB%s\n",
                gale_config_choice("io", "mode", o->mode),
                o->synchronous ? "synchronous" : "asynchronous", o->synchronous ? 1 : o->nbuffers,
                o->buffer_mib, o->nfiles, o->bytes / 1048576.0,
                o->failed ? ", STOPPED AFTER A FAILURE" : "");
    if (o->servers > 0)
        fprintf(f, "io: the clients found their buffer full %d times; the servers' writers busy "
                   "%.2f %% of their life\n", o->full_waits, o->server_busy);
    fprintf(f, "io: client wait %.3f / %.3f / %.3f %%, writer busy %.2f / %.2f / %.2f %% "
               "(min / mean / max over ranks)\n",
            o->wait[0], o->wait[1], o->wait[2], o->busy[0], o->busy[1], o->busy[2]);
    fprintf(f, "io: write rate %.2f MiB/s (first open to last close), %.2f MiB/s while writing\n",
            o->rate, o->busy_rate);
    if (o->hints[0]) {
        fprintf(f, "io: MPI-IO hints asked -> kept (\"dropped\": not by this file system):");
        char key[64], asked[64], kept[64];
        for (const char *s = o->hints; s && sscanf(s, "%63s %63s %63s", key, asked, kept) == 3;
             s = next_line(s))
            fprintf(f, " %s %s -> %s", key, asked, strcmp(kept, "-") ? kept : "dropped");
        fprintf(f, "\n");
    }
}

void gale_output_json(const gale_output_t *o, gale_json_t *j)
{
    if (!o) return;
    gale_json_obj(j, "io");
    gale_json_str(j, "mode", gale_config_choice("io", "mode", o->mode));
    gale_json_bool(j, "synchronous", o->synchronous);
    gale_json_bool(j, "enabled", o->reduced);
    gale_json_bool(j, "failed", o->failed);
    gale_json_int(j, "buffers", o->synchronous ? 1 : o->nbuffers);
    gale_json_num(j, "buffer_mib", o->buffer_mib);
    gale_json_int(j, "servers", o->servers);
    gale_json_str(j, "server_placement", gale_config_choice("io", "server_placement", o->placement));
    gale_json_int(j, "pools", o->pools);
    gale_json_arr(j, "server_ranks"); /* where the placement put them, pool by pool */
    for (int i = 0; i < o->servers; i++) gale_json_int(j, NULL, o->server_rank[i]);
    gale_json_end(j, ']');
    gale_json_int(j, "buffer_size", o->servers > 0 ? o->buffer_size : 0);
    gale_json_int(j, "buffer_full_waits", o->full_waits);
    gale_json_num(j, "server_busy_pct", o->server_busy);
    const char *keys[2] = {"client_wait_pct", "writer_busy_pct"};
    const double *v[2] = {o->wait, o->busy};
    for (int i = 0; i < 2; i++) {
        gale_json_obj(j, keys[i]);
        gale_json_num(j, "min", v[i][0]);
        gale_json_num(j, "mean", v[i][1]);
        gale_json_num(j, "max", v[i][2]);
        gale_json_end(j, '}');
    }
    gale_json_num(j, "write_rate_MiB_s", o->rate);
    gale_json_num(j, "busy_write_rate_MiB_s", o->busy_rate);
    gale_json_int(j, "bytes", o->bytes);
    gale_json_int(j, "data_bytes", o->data_bytes);
    gale_json_num(j, "MiB", o->bytes / 1048576.0);
    gale_json_arr(j, "files");
    for (const char *s = o->files; s && *s;) {
        size_t n = strcspn(s, "\n");
        char name[GALE_STR + 64];
        snprintf(name, sizeof name, "%.*s", (int)n, s);
        gale_json_str(j, NULL, name);
        s += n + (s[n] == '\n');
    }
    gale_json_end(j, ']');
    /* what the file system kept of the hints set (null: dropped) */
    gale_json_arr(j, "hints");
    char key[64], asked[64], kept[64];
    for (const char *s = o->hints; s && sscanf(s, "%63s %63s %63s", key, asked, kept) == 3;
         s = next_line(s)) {
        gale_json_obj(j, NULL);
        gale_json_str(j, "key", key);
        gale_json_str(j, "asked", asked);
        if (strcmp(kept, "-")) gale_json_str(j, "kept", kept);
        else gale_json_num(j, "kept", NAN); /* written as null */
        gale_json_end(j, '}');
    }
    gale_json_end(j, ']');
    gale_json_end(j, '}');
}

int gale_output_exec(gale_output_t *o, int (*fn)(void *), void *arg)
{
    return o && o->w ? gale_writer_exec(o->w, fn, arg) : fn(arg);
}

void gale_output_free(gale_output_t **op)
{
    gale_output_t *o = *op;
    if (!o) return;
    gale_writer_free(&o->w);
    free(o->diag);
    gale_free(o->server_rank);
    gale_free(o->vars);
    gale_free(o->cperm);
    gale_free(o->eperm);
    free(o->files);
    free(o);
    *op = NULL;
}
