/* Run configuration: an INI file whose sections mirror LFRic namelists,
 * command-line overrides --section.key=value, precedence
 * defaults < file < command line. Strict: unknown sections/keys, malformed or
 * out-of-range values and missing files are errors that name the file, line,
 * key, value and what is allowed. An LFRic gravity_wave or GungHo namelist
 * (.nml) is accepted too (docs/lfric-namelist.md has what every key does).
 *
 * Every key is described once, in gale_keys[] (config_keys.c): type, default,
 * range or choices and a one-line help. The parser, `gale help config`, the
 * resolved-config dump and the README table all come from that table.
 * gale_config_mpi.h has gale_config_load (MPI); config_internal.h what the
 * files of src/config/ share. */
#ifndef GALE_CONFIG_H
#define GALE_CONFIG_H

#include "gale_netmodel.h"

#include <stddef.h>

typedef enum {
    GALE_KT_INT, GALE_KT_REAL, GALE_KT_BOOL, GALE_KT_STRING, GALE_KT_ENUM,
    GALE_KT_MESH /* "C<N>" stored as int N */
} gale_keytype_t;

typedef struct {
    const char *section, *key;
    int type;            /* gale_keytype_t */
    size_t offset;       /* of the int/double/char[] member in gale_config_t */
    const char *def;     /* default, as text */
    double min, max;     /* inclusive range for INT/REAL/MESH */
    const char *choices; /* ENUM: "a|b|c", stored as the index */
    const char *help;
    int min_open;        /* INT/REAL: 1 when min itself is excluded, (min, max] */
} gale_key_t;

#define GALE_STR 1024
/* [io] buffers x buffer_mib at most (the writer's ring, per rank) */
#define GALE_RING_MAX_MIB 1048576
/* gale_keys[] has at most GALE_MAXKEYS keys (config_keys.c checks); an
 * origin, "&group key = value", at most GALE_ORIGIN - 1 characters */
#define GALE_MAXKEYS 128
#define GALE_ORIGIN 160

/* Enum values: the index in the key's choices list. */
/* the order of gale_extrude_t (layout/gale_extrusion.h) */
enum { GALE_EXT_UNIFORM, GALE_EXT_QUADRATIC, GALE_EXT_GEOMETRIC, GALE_EXT_DCMIP, GALE_EXT_UM_L38,
       GALE_EXT_UM_L70_50T, GALE_EXT_UM_L70_61T, GALE_EXT_UM_L85 };
enum {
    GALE_CASE_GRAVITY_WAVE = 0, GALE_CASE_BALANCED = 1, GALE_CASE_NORMAL_MODE = 2,
    GALE_CASE_COSINE_BELL = 3, GALE_CASE_DEFORMATIONAL = 4, GALE_CASE_GRAVITY_WAVE_ADVECTED = 5,
    /* the nonlinear core's ([dynamics] equations = nonlinear) */
    GALE_CASE_RESTING = 6, GALE_CASE_DCMIP31 = 7, GALE_CASE_BAROCLINIC_WAVE = 8
};
/* [initial] profile of the resting case: the isothermal atmosphere at theta0
 * [K] surface temperature, or constant Brunt-Vaisala frequency ([physics]
 * bvf_square) with surface potential temperature theta0. */
enum { GALE_PROFILE_ISOTHERMAL = 0, GALE_PROFILE_CONSTANT_N = 1 };
enum { GALE_REFERENCE_COLUMN = 0, GALE_REFERENCE_MEAN = 1 }; /* [timestepping] reference_state */
/* [dynamics] equations: linear = LFRic's gravity_wave mini-app, nonlinear =
 * GungHo's compressible Euler equations (docs/nonlinear.md). */
enum { GALE_EQ_LINEAR = 0, GALE_EQ_NONLINEAR = 1 };
enum { GALE_MODE_VERTICAL = 0, GALE_MODE_HORIZONTAL = 1 };
enum { GALE_IO_SHARED = 0, GALE_IO_PER_RANK = 1, GALE_IO_AGGREGATED = 2 };
enum { GALE_IO_ON_ERROR_ABORT = 0, GALE_IO_ON_ERROR_CONTINUE = 1 };
enum { GALE_ROMIO_AUTO = 0, GALE_ROMIO_ENABLE = 1, GALE_ROMIO_DISABLE = 2 };
/* [dynamics] mass_matrix: the horizontal velocity inner product. consistent:
 * the mimetic, non-diagonal one, the mixed (u, w, b, p) system solved by
 * [mixed_solver]; lumped: two-point and diagonal, u, w, b eliminated exactly
 * and one Helmholtz solve ([solver]) per step. */
enum { GALE_MASS_CONSISTENT = 0, GALE_MASS_LUMPED = 1 };
/* [mixed_solver] method: gcr, or prec_only (one application of the
 * approximate-Schur preconditioner, no global sum; LFRic's si_method):
 * GALE_MIXED_* in solver/gale_solver.h, in the order of the choices here. */
/* [solver] method, preconditioner, precision: GALE_KRYLOV_*, GALE_PC_*,
 * GALE_PREC_* in solver/gale_solver.h and psy/gale_psy.h, in the order of
 * their choices here (method prec_only is 4, preconditioner multigrid 3). */

typedef struct {
    struct { int n; } mesh;
    struct { int levels; double top; int method; } extrusion;
    struct { double radius, scaling, gravity, omega, cp, rd, p_zero; } planet;
    struct { double bvf_square, speed_of_sound; } physics;
    struct {
        double dt;
        int steps;
        double alpha;
        int outer_iterations, inner_iterations;
        double reference_reset_time;
        int reference_state; /* GALE_REFERENCE_* */
    } timestepping;
    struct {
        int mass_matrix, equations, vector_invariant, shallow;
        double grid_damping, transport_courant;
        int transport_stand_in;
    } dynamics;
    struct {
        int kase, mode, vertical_wavenumber, degree, profile;
        double amplitude, dtheta, theta0, half_width, vertical_wavelength, centre_lon, centre_lat;
        double u0, perturbation;
    } initial;
    struct {
        int method;
        double tolerance, abs_tolerance, lookahead;
        int max_iterations, gcrk, fail_on_non_converged, monitor_convergence;
    } mixed_solver;
    struct {
        int method, preconditioner;
        double tolerance, abs_tolerance;
        int max_iterations, reproducible_sums, fail_on_non_converged, monitor_convergence;
        int precision, gcr_restart, replace_every;
    } solver;
    struct {
        int levels;
        double smooth_relaxation;
        int n_presmooth, n_postsmooth, n_coarsesmooth;
    } multigrid;
    struct { int wind; double u0, alpha, cfl, days; } transport;
    struct { int method; } partitioning;
    struct { int depth, redundant_computation, overlap, gpu_aware, progress_points; } halo;
    struct { int memory; } offload;
    struct {
        char dir[GALE_STR];
        int mode, aggregators, synchronous, buffers;
        double buffer_mib;
        int on_error, xdmf, cb_nodes, cb_buffer_size, romio_cb_write, striping_factor,
            striping_unit, alignment, chunk_columns;
        int servers, server_placement, pools, buffer_size; /* I/O servers (io/server.c) */
    } io;
    struct { char fields[GALE_STR]; int period; } diagnostics;
    struct { int period; char dir[GALE_STR]; } checkpoint;
    struct { int allow_overcommit; } run;
    struct { int level, progress_every; } logging;
    /* [emulate] (docs/emulate.md): machine "none" (off), a built-in name or
     * a file, resolved by gale_config_parse into model */
    struct {
        char machine[GALE_STR];
        int nodes, ranks_per_node;
        gale_netmodel_t model;
    } emulate;
    char source[GALE_STR]; /* the file read, or "" */
    /* Where each key (gale_keys[] order) was set: its line in source (0: the
     * default, -1: the command line) and, from an LFRic namelist, "&group key
     * = value" ("" from an INI file); read it with gale_config_origin. */
    struct { int line; char text[GALE_ORIGIN]; } origin[GALE_MAXKEYS];
    /* &transport methods of the namelist that gale's method of lines would
     * stand in for: the first, "path:line: &transport key = value: why", and
     * all, "transport.key, ..."; refused unless [dynamics] transport_stand_in */
    struct { char first[GALE_STR], keys[GALE_STR]; } stand_in;
} gale_config_t;

extern const gale_key_t gale_keys[];
extern const int gale_nkeys;

/* Output is on: [diagnostics] fields names something besides blanks and commas. */
static inline int gale_config_output_on(const gale_config_t *cfg)
{
    const char *f = cfg->diagnostics.fields;
    while (*f == ' ' || *f == '\t' || *f == ',') f++;
    return *f != '\0';
}

/* A piece of the writer's ring [bytes]: [io] buffer_mib, or with I/O servers
 * and [io] buffer_size the client buffer in [io] buffers pieces. */
static inline double gale_config_io_piece_bytes(const gale_config_t *cfg)
{
    return cfg->io.servers > 0 && cfg->io.buffer_size > 0
               ? (double)cfg->io.buffer_size / cfg->io.buffers
               : cfg->io.buffer_mib * 1048576;
}

/* All keys at their defaults (cannot fail: the defaults are checked by a test). */
void gale_config_defaults(gale_config_t *cfg);

/* Reads path (may be NULL: defaults only; an INI file, or an LFRic namelist
 * when it ends in .nml) and applies the overrides ("--section.key=value" or
 * "section.key=value"), for one process (gale_config_load in
 * gale_config_mpi.h: on one rank, broadcast). Bad input: GALE_ERR_INPUT, the
 * message printed. */
int gale_config_parse(gale_config_t *cfg, const char *path, int noverrides, char **overrides);

/* The resolved configuration as INI text (every key), NUL-terminated; returns
 * the length it needs (like snprintf). */
size_t gale_config_dump(const gale_config_t *cfg, char *buf, size_t n);
/* Name of the value of an ENUM key, e.g. ("solver", "method", 0) -> "cg". */
const char *gale_config_choice(const char *section, const char *key, int value);
/* `gale help config`: the key table as text (Markdown when md != 0). */
void gale_config_print_keys(int md);
/* `gale help namelist`: what every LFRic namelist key does (config_nml_table.c's
 * table; docs/lfric-namelist.md, "Every key"), Markdown when md != 0. */
void gale_config_print_nml(int md);
/* Where [section] key's value came from, for messages, in buf: "run.nml:61:
 * &formulation vector_invariant = .true." when an LFRic namelist set it,
 * "run.ini:7: [dynamics] vector_invariant = true" from an INI file,
 * "command line: [dynamics] vector_invariant = true", or the default's
 * "[dynamics] vector_invariant = false". Returns 1 for a namelist, else 0. */
int gale_config_origin(const gale_config_t *cfg, const char *section, const char *key,
                       char *buf, size_t n);

/* [diagnostics] fields checked as the output will read them (names for the
 * core and levels, periods in whole steps of dt): GALE_ERR_INPUT naming
 * where the value came from. Defined in output/output.c, which owns the
 * names; gale_config_parse calls it, so a bad list stops before any work. */
int gale_output_check_fields(const gale_config_t *cfg);

#endif
