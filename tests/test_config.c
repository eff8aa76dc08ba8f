/* Configuration: defaults, every value type, precedence, every class of bad
 * input (status and the message's content), the dump round trip, the key
 * table printout and LFRic namelists. */
#include "gale_base.h"
#include "config_internal.h"
#include "gale_config.h"
#include "gale_solver.h" /* GALE_KRYLOV_*, GALE_PC_* */
#include "gale_test.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/gale_test_config_XXXXXX";
static char out[32768]; /* what the last captured call printed */

/* Writes text to tmpdir/name; returns the path (valid until the next call). */
/* n bytes of text (a NUL included) as a file in tmpdir. */
static const char *put_bytes(const char *name, const char *text, size_t n)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fwrite(text, 1, n, f);
    fclose(f);
    return path;
}

static const char *put_file(const char *name, const char *text)
{
    return put_bytes(name, text, strlen(text));
}

/* gale_config_parse with file descriptor fd (1 or 2) sent to a file; what
 * was printed there ends up in out. */
static int parse_captured(int fd, gale_config_t *cfg, const char *path, int no, char **ov)
{
    char cap[512];
    snprintf(cap, sizeof cap, "%s/captured.txt", tmpdir);
    fflush(stdout);
    fflush(stderr);
    int saved = dup(fd), f = open(cap, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(f, fd);
    close(f);
    int st = gale_config_parse(cfg, path, no, ov);
    fflush(stdout);
    fflush(stderr);
    dup2(saved, fd);
    close(saved);
    FILE *in = fopen(cap, "r");
    size_t n = in ? fread(out, 1, sizeof out - 1, in) : 0;
    out[n] = '\0';
    if (in) fclose(in);
    return st;
}

/* a and b hold the same values (where each was set from aside) */
static int same_values(const gale_config_t *a, const gale_config_t *b)
{
    static gale_config_t x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    memset(x.origin, 0, sizeof x.origin);
    memset(y.origin, 0, sizeof y.origin);
    return memcmp(&x, &y, sizeof x) == 0;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

/* ---------------- defaults and types ---------------- */

/* What gale's defaults share with LFRic's gravity_wave example namelist:
 * 10 uniform layers to 10 km, the planet, the physics, 36 steps of 100 s
 * (c by value: the checks name c.<key>). */
static void check_gravity_wave(const gale_config_t c)
{
    CHECK(c.extrusion.levels == 10 && c.extrusion.method == GALE_EXT_UNIFORM, "extrusion");
    CHECK_REL(c.extrusion.top, 10000.0, 0);
    CHECK_REL(c.planet.radius, 6371229.0, 0);
    CHECK_REL(c.planet.scaling, 125.0, 0);
    CHECK_REL(c.physics.bvf_square, 1e-4, 0);
    CHECK_REL(c.physics.speed_of_sound, 340.0, 0);
    CHECK_REL(c.timestepping.dt, 100.0, 0);
    CHECK(c.timestepping.steps == 36, "steps %d", c.timestepping.steps);
    CHECK_REL(c.timestepping.alpha, 0.5, 0);
}

static void test_defaults(void)
{
    gale_config_t c, d;
    gale_config_defaults(&c);
    CHECK(c.mesh.n == 24, "mesh %d", c.mesh.n);
    check_gravity_wave(c);
    CHECK(c.initial.kase == GALE_CASE_GRAVITY_WAVE, "case");
    CHECK(c.solver.method == GALE_KRYLOV_CG && c.solver.preconditioner == GALE_PC_TRIDIAGONAL,
          "solver");
    CHECK(c.solver.reproducible_sums == 1 && c.solver.monitor_convergence == 0, "bools");
    /* LFRic's multigrid settings (gravity_wave's &multigrid) */
    CHECK(c.multigrid.levels == 4 && c.multigrid.n_presmooth == 2 && c.multigrid.n_postsmooth == 2 &&
              c.multigrid.n_coarsesmooth == 4,
          "multigrid levels %d sweeps %d/%d/%d", c.multigrid.levels, c.multigrid.n_presmooth,
          c.multigrid.n_postsmooth, c.multigrid.n_coarsesmooth);
    CHECK_REL(c.multigrid.smooth_relaxation, 0.8, 0);
    /* the consistent mass matrix, its mixed solve at LFRic's &mixed_solver settings */
    CHECK(c.dynamics.mass_matrix == GALE_MASS_CONSISTENT, "mass_matrix %d", c.dynamics.mass_matrix);
    CHECK(c.mixed_solver.method == GALE_MIXED_GCR && c.mixed_solver.max_iterations == 20 &&
              c.mixed_solver.gcrk == 4 && c.mixed_solver.fail_on_non_converged == 1 &&
              c.mixed_solver.monitor_convergence == 0,
          "mixed_solver method %d it %d gcrk %d bools %d/%d", c.mixed_solver.method,
          c.mixed_solver.max_iterations, c.mixed_solver.gcrk, c.mixed_solver.fail_on_non_converged,
          c.mixed_solver.monitor_convergence);
    CHECK_REL(c.mixed_solver.tolerance, 1e-4, 0);
    CHECK(c.mixed_solver.abs_tolerance == 0.0, "mixed_solver abs_tolerance");
    CHECK(c.logging.level == GALE_LOG_INFO, "log level %d", c.logging.level);
    CHECK(c.source[0] == '\0', "source");
    /* the nonlinear core's keys: LFRic's &planet and GungHo's &timestepping defaults */
    CHECK(c.dynamics.equations == GALE_EQ_LINEAR, "equations %d", c.dynamics.equations);
    CHECK_REL(c.planet.omega, 7.292116e-5, 0);
    CHECK_REL(c.planet.cp, 1005.0, 0);
    CHECK_REL(c.planet.rd, 287.05, 0);
    CHECK_REL(c.planet.p_zero, 100000.0, 0);
    CHECK(c.timestepping.outer_iterations == 2 && c.timestepping.inner_iterations == 2,
          "iterations %d/%d", c.timestepping.outer_iterations, c.timestepping.inner_iterations);
    CHECK_REL(c.timestepping.reference_reset_time, 3600.0, 0);
    CHECK(c.initial.profile == GALE_PROFILE_ISOTHERMAL, "profile %d", c.initial.profile);
    CHECK_REL(c.initial.u0, 20.0, 0);
    CHECK_REL(c.initial.perturbation, 0.5, 0); /* DCMIP 2016 pertu0 */
    {
        char *ov[] = {"--initial.case=baroclinic_wave", "--dynamics.equations=nonlinear",
                      "--initial.profile=constant_n"};
        int st = parse_captured(2, &d, NULL, 3, ov);
        CHECK(st == GALE_OK && d.initial.kase == GALE_CASE_BAROCLINIC_WAVE &&
                  d.dynamics.equations == GALE_EQ_NONLINEAR &&
                  d.initial.profile == GALE_PROFILE_CONSTANT_N, "new enums: %d\n%s", st, out);
        char *o2[] = {"--initial.case=resting"}, *o3[] = {"--initial.case=dcmip31"};
        st = parse_captured(2, &d, NULL, 1, o2);
        CHECK(st == GALE_OK && d.initial.kase == GALE_CASE_RESTING, "resting");
        st = parse_captured(2, &d, NULL, 1, o3);
        CHECK(st == GALE_OK && d.initial.kase == GALE_CASE_DCMIP31, "dcmip31");
    }

    /* Every default, given as an override, parses (a bad default would be
     * silently zero in gale_config_defaults) and gives the default struct. */
    for (int i = 0; i < gale_nkeys; i++) {
        char arg[512], *ov[] = {arg};
        snprintf(arg, sizeof arg, "--%s.%s=%s", gale_keys[i].section, gale_keys[i].key,
                 gale_keys[i].def);
        int st = parse_captured(2, &d, NULL, 1, ov);
        CHECK(st == GALE_OK, "default of [%s] %s does not parse: %s", gale_keys[i].section,
              gale_keys[i].key, out);
        CHECK(same_values(&c, &d), "[%s] %s: default differs", gale_keys[i].section,
              gale_keys[i].key);
    }
    /* parse without a file or overrides is the defaults */
    CHECK_OK(gale_config_parse(&d, NULL, 0, NULL));
    CHECK(memcmp(&c, &d, sizeof c) == 0, "parse(NULL) differs from defaults");
}

static void test_types(void)
{
    gale_config_t c;
    CHECK_OK(gale_config_parse(&c, GALE_TEST_DATA "/good.ini", 0, NULL));
    CHECK(c.mesh.n == 48, "mesh %d", c.mesh.n);
    CHECK(c.extrusion.levels == 20, "levels %d", c.extrusion.levels);
    CHECK_REL(c.extrusion.top, 12000.5, 0);
    CHECK(c.extrusion.method == GALE_EXT_QUADRATIC, "method %d", c.extrusion.method);
    CHECK(c.solver.method == GALE_KRYLOV_BICGSTAB, "solver %d", c.solver.method);
    CHECK_REL(c.solver.tolerance, 1e-12, 0);
    CHECK(c.solver.reproducible_sums == 0 && c.solver.monitor_convergence == 1, "bools");
    CHECK(c.initial.kase == GALE_CASE_BALANCED, "case %d", c.initial.kase);
    CHECK_REL(c.initial.dtheta, -0.25, 0);
    CHECK_REL(c.initial.centre_lat, 10.5, 0);
    CHECK(strcmp(c.source, GALE_TEST_DATA "/good.ini") == 0, "source '%s'", c.source);

    /* every boolean spelling */
    const char *yes[] = {"true", "Yes", "ON", "1"}, *no[] = {"FALSE", "no", "off", "0"};
    for (int i = 0; i < 4; i++) {
        char a[64], b[64], *ov[] = {a, b};
        snprintf(a, sizeof a, "halo.overlap=%s", no[i]);
        snprintf(b, sizeof b, "halo.gpu_aware=%s", yes[i]);
        CHECK_OK(gale_config_parse(&c, NULL, 2, ov));
        CHECK(c.halo.overlap == 0 && c.halo.gpu_aware == 1, "bool spelling %s/%s", no[i], yes[i]);
    }
    /* range ends are inclusive; mesh accepts c<N> */
    char *ov[] = {"timestepping.alpha=1", "--extrusion.levels=4096", "mesh.name=c8192",
                  "--initial.centre_lat=-90"};
    CHECK_OK(gale_config_parse(&c, NULL, 4, ov));
    CHECK(c.timestepping.alpha == 1.0 && c.extrusion.levels == 4096 && c.mesh.n == 8192 &&
              c.initial.centre_lat == -90.0, "range ends");
    /* [multigrid]: every key at both ends of its range; (0, 2] includes 2 */
    char *mg_lo[] = {"multigrid.levels=1", "multigrid.smooth_relaxation=1e-300",
                     "multigrid.n_presmooth=0", "multigrid.n_postsmooth=0",
                     "multigrid.n_coarsesmooth=1"},
         *mg_hi[] = {"multigrid.levels=16", "multigrid.smooth_relaxation=2",
                     "multigrid.n_presmooth=100", "multigrid.n_postsmooth=100",
                     "multigrid.n_coarsesmooth=1000"};
    CHECK_OK(gale_config_parse(&c, NULL, 5, mg_lo));
    CHECK(c.multigrid.levels == 1 && c.multigrid.smooth_relaxation == 1e-300 &&
              c.multigrid.n_presmooth == 0 && c.multigrid.n_postsmooth == 0 &&
              c.multigrid.n_coarsesmooth == 1, "multigrid range starts");
    CHECK_OK(gale_config_parse(&c, NULL, 5, mg_hi));
    CHECK(c.multigrid.levels == 16 && c.multigrid.smooth_relaxation == 2.0 &&
              c.multigrid.n_presmooth == 100 && c.multigrid.n_postsmooth == 100 &&
              c.multigrid.n_coarsesmooth == 1000, "multigrid range ends");
    /* prec_only with the multigrid preconditioner, from a file and from overrides */
    const char *mg = put_file("mg.ini", "[solver]\nmethod = prec_only\npreconditioner = multigrid\n"
                                        "[multigrid]\nlevels = 3\nsmooth_relaxation = 0.7\n");
    CHECK_OK(gale_config_parse(&c, mg, 0, NULL));
    CHECK(c.solver.method == GALE_KRYLOV_PREC_ONLY && c.solver.preconditioner == GALE_PC_MULTIGRID && c.multigrid.levels == 3 &&
              c.multigrid.smooth_relaxation == 0.7,
          "prec_only file: method %d pc %d levels %d", c.solver.method, c.solver.preconditioner,
          c.multigrid.levels);
    char *po[] = {"--solver.preconditioner=multigrid", "--solver.method=prec_only"};
    CHECK_OK(gale_config_parse(&c, NULL, 2, po));
    CHECK(c.solver.method == GALE_KRYLOV_PREC_ONLY && c.solver.preconditioner == GALE_PC_MULTIGRID, "prec_only overrides");

    /* [dynamics] and [mixed_solver]: every key from a file, values unlike the defaults */
    const char *mx = put_file("mixed.ini", "[dynamics]\nmass_matrix = lumped\n"
                                           "[mixed_solver]\nmethod = prec_only\ntolerance = 1e-6\n"
                                           "abs_tolerance = 1e-9\nmax_iterations = 50\ngcrk = 7\n"
                                           "fail_on_non_converged = false\n"
                                           "monitor_convergence = true\n");
    CHECK_OK(gale_config_parse(&c, mx, 0, NULL));
    CHECK(c.dynamics.mass_matrix == GALE_MASS_LUMPED && c.mixed_solver.method == GALE_MIXED_PREC_ONLY &&
              c.mixed_solver.max_iterations == 50 && c.mixed_solver.gcrk == 7 &&
              c.mixed_solver.fail_on_non_converged == 0 && c.mixed_solver.monitor_convergence == 1,
          "mixed.ini: mass %d method %d it %d gcrk %d bools %d/%d", c.dynamics.mass_matrix,
          c.mixed_solver.method, c.mixed_solver.max_iterations, c.mixed_solver.gcrk,
          c.mixed_solver.fail_on_non_converged, c.mixed_solver.monitor_convergence);
    CHECK_REL(c.mixed_solver.tolerance, 1e-6, 0);
    CHECK_REL(c.mixed_solver.abs_tolerance, 1e-9, 0);
    /* mixed prec_only goes with any [solver] (unlike [solver] method = prec_only) */
    char *mpo[] = {"--mixed_solver.method=prec_only", "--solver.preconditioner=diagonal",
                   "--dynamics.mass_matrix=consistent"};
    CHECK_OK(gale_config_parse(&c, NULL, 3, mpo));
    CHECK(c.mixed_solver.method == GALE_MIXED_PREC_ONLY && c.solver.preconditioner == GALE_PC_DIAGONAL,
          "mixed prec_only with a diagonal [solver]");
    /* [mixed_solver] at both ends of its ranges */
    char *mx_lo[] = {"mixed_solver.gcrk=1", "mixed_solver.max_iterations=1",
                     "mixed_solver.tolerance=0", "mixed_solver.abs_tolerance=1e-300"},
         *mx_hi[] = {"mixed_solver.gcrk=10", "mixed_solver.max_iterations=1000",
                     "mixed_solver.tolerance=1", "mixed_solver.abs_tolerance=1e300"};
    CHECK_OK(gale_config_parse(&c, NULL, 4, mx_lo));
    CHECK(c.mixed_solver.gcrk == 1 && c.mixed_solver.max_iterations == 1 &&
              c.mixed_solver.tolerance == 0.0 && c.mixed_solver.abs_tolerance == 1e-300,
          "mixed_solver range starts");
    CHECK_OK(gale_config_parse(&c, NULL, 4, mx_hi));
    CHECK(c.mixed_solver.gcrk == 10 && c.mixed_solver.max_iterations == 1000 &&
              c.mixed_solver.tolerance == 1.0 && c.mixed_solver.abs_tolerance == 1e300,
          "mixed_solver range ends");
    CHECK(strcmp(gale_config_choice("dynamics", "mass_matrix", GALE_MASS_LUMPED), "lumped") == 0 &&
              strcmp(gale_config_choice("dynamics", "mass_matrix", GALE_MASS_CONSISTENT),
                     "consistent") == 0, "choice mass_matrix");
    CHECK(strcmp(gale_config_choice("mixed_solver", "method", GALE_MIXED_GCR), "gcr") == 0 &&
              strcmp(gale_config_choice("mixed_solver", "method", GALE_MIXED_PREC_ONLY),
                     "prec_only") == 0 &&
              strcmp(gale_config_choice("mixed_solver", "method", GALE_MIXED_PIPEGCR),
                     "pipelined_gcr") == 0 &&
              strcmp(gale_mixed_method_name(GALE_MIXED_PIPEGCR), "pipelined_gcr") == 0,
          "choice mixed_solver method");

    CHECK(strcmp(gale_config_choice("solver", "method", GALE_KRYLOV_GCR), "gcr") == 0, "choice");
    CHECK(strcmp(gale_config_choice("logging", "level", 3), "debug") == 0, "choice");
    /* the solver's enums for the multigrid choices (GALE_KRYLOV_PREC_ONLY, GALE_PC_MULTIGRID) */
    CHECK(strcmp(gale_config_choice("solver", "method", GALE_KRYLOV_PREC_ONLY), "prec_only") == 0,
          "choice prec_only");
    CHECK(strcmp(gale_config_choice("solver", "preconditioner", GALE_PC_MULTIGRID), "multigrid") == 0,
          "choice multigrid");
    CHECK(strcmp(gale_config_choice("solver", "method", 5), "?") == 0, "choice out of range");
    CHECK(strcmp(gale_config_choice("solver", "tolerance", 0), "?") == 0, "choice of a real");
}

static void test_precedence(void)
{
    gale_config_t c;
    const char *p = put_file("prec.ini", "[timestepping]\ndt = 50\nsteps = 10\n");
    char *ov[] = {"--timestepping.dt=25", "timestepping.alpha=0.75", "--timestepping.dt=20"};
    CHECK_OK(gale_config_parse(&c, p, 3, ov));
    CHECK_REL(c.timestepping.dt, 20.0, 0);   /* override beats file; the last override wins */
    CHECK(c.timestepping.steps == 10, "file beats default");
    CHECK_REL(c.timestepping.alpha, 0.75, 0); /* override of a key the file leaves alone */
    CHECK(c.mesh.n == 24, "default stays");
}

/* ---------------- bad input ---------------- */

typedef struct {
    const char *file; /* INI text, or NULL: no file */
    const char *arg;  /* an override, or NULL */
    const char *want[3];
} bad_t;

static const bad_t bad_cases[] = {
    {"[solver]\ntolerence = 1e-6\n", NULL,
     {"bad.ini:2: [solver] tolerence: unknown key; did you mean 'tolerance'?"}},
    {"[solver]\nfoo = 1\n", NULL, {"[solver] foo: unknown key; allowed: 'method',", "'replace_every'"}},
    {"# c\n[solvr]\n", NULL, {"bad.ini:2: [solvr]: unknown section; did you mean [solver]?"}},
    {"[zzzzzzz]\n", NULL, {"unknown section; allowed: [mesh], [extrusion]"}},
    {"[timestepping]\n\ndt = 1O0\n", NULL, {"bad.ini:3: [timestepping] dt = '1O0': not a number"}},
    {"[timestepping]\ndt = inf\n", NULL, {"dt = 'inf': not a finite number"}},
    {"[timestepping]\ndt = 0\n", NULL, {"dt = '0': out of range [1e-09, inf)"}},
    {"[timestepping]\nalpha = 0.3\n", NULL, {"bad.ini:2: [timestepping] alpha = '0.3': out of range [0.5, 1]"}},
    {"[extrusion]\nlevels = 10.5\n", NULL, {"[extrusion] levels = '10.5': not an integer"}},
    {"[extrusion]\nlevels = 0\n", NULL, {"levels = '0': out of range [1, 4096]"}},
    {"[extrusion]\nlevels = 99999999999999999999\n", NULL, {"out of range [1, 4096]"}},
    {"[extrusion]\nlevels = 1e3\n", NULL, {"levels = '1e3': not an integer"}},
    {"[mesh]\nname = C0\n", NULL, {"[mesh] name = 'C0': expected C<N> with N in [1, 8192]"}},
    {"[mesh]\nname = 24\n", NULL, {"[mesh] name = '24': expected C<N>"}},
    {"[mesh]\nname = C-4\n", NULL, {"name = 'C-4': expected C<N>"}},
    {"[solver]\nreproducible_sums = maybe\n", NULL, {"reproducible_sums = 'maybe': not a boolean"}},
    {"[solver]\nmethod = cgg\n", NULL,
     {"[solver] method = 'cgg': not one of cg|pipelined_cg|bicgstab|gcr|prec_only; did you mean 'cg'?"}},
    {"[solver]\nmethod = gmres\n", NULL,
     {"method = 'gmres': not one of cg|pipelined_cg|bicgstab|gcr|prec_only"}},
    {"[solver]\npreconditioner = multigird\n", NULL,
     {"not one of none|diagonal|tridiagonal|multigrid; did you mean 'multigrid'?"}},
    /* [multigrid] keys outside their ranges */
    {"[multigrid]\nlevels = 0\n", NULL, {"bad.ini:2: [multigrid] levels = '0': out of range [1, 16]"}},
    {"[multigrid]\nlevels = 17\n", NULL, {"[multigrid] levels = '17': out of range [1, 16]"}},
    {"[multigrid]\nsmooth_relaxation = 0\n", NULL,
     {"[multigrid] smooth_relaxation = '0': out of range (0, 2]"}},
    {"[multigrid]\nsmooth_relaxation = -0.5\n", NULL, {"smooth_relaxation = '-0.5': out of range (0, 2]"}},
    {"[multigrid]\nsmooth_relaxation = 2.0000001\n", NULL, {"out of range (0, 2]"}},
    {"[multigrid]\nn_presmooth = -1\n", NULL, {"[multigrid] n_presmooth = '-1': out of range [0, 100]"}},
    {"[multigrid]\nn_postsmooth = 101\n", NULL, {"[multigrid] n_postsmooth = '101': out of range [0, 100]"}},
    {"[multigrid]\nn_coarsesmooth = 0\n", NULL, {"[multigrid] n_coarsesmooth = '0': out of range [1, 1000]"}},
    {NULL, "--multigrid.n_coarsesmooth=1001", {"--multigrid.n_coarsesmooth=1001: out of range [1, 1000]"}},
    {NULL, "--multigrid.smooth_relaxation=0", {"--multigrid.smooth_relaxation=0: out of range (0, 2]"}},
    /* [dynamics] and [mixed_solver]: ranges and choices */
    {"[mixed_solver]\ngcrk = 0\n", NULL, {"bad.ini:2: [mixed_solver] gcrk = '0': out of range [1, 10]"}},
    {"[mixed_solver]\ngcrk = 11\n", NULL, {"bad.ini:2: [mixed_solver] gcrk = '11': out of range [1, 10]"}},
    {NULL, "--mixed_solver.gcrk=11", {"--mixed_solver.gcrk=11: out of range [1, 10]"}},
    {"[mixed_solver]\nmax_iterations = 1001\n", NULL,
     {"[mixed_solver] max_iterations = '1001': out of range [1, 1000]"}},
    {"[mixed_solver]\ntolerance = 2\n", NULL, {"[mixed_solver] tolerance = '2': out of range [0, 1]"}},
    {"[mixed_solver]\nmethod = gmres\n", NULL,
     {"bad.ini:2: [mixed_solver] method = 'gmres': not one of gcr|prec_only"}},
    {"[mixed_solver]\nmethod = gcrr\n", NULL, {"[mixed_solver] method = 'gcrr': not one of gcr|prec_only|pipelined_gcr; did you mean 'gcr'?"}},
    {"[dynamics]\nmass_matrix = diagonal\n", NULL,
     {"bad.ini:2: [dynamics] mass_matrix = 'diagonal': not one of consistent|lumped"}},
    {NULL, "--dynamics.mass_matrix=lumpd", {"--dynamics.mass_matrix=lumpd: not one of consistent|lumped; did you mean 'lumped'?"}},
    /* the nonlinear core's keys */
    {"[dynamics]\nequations = nonlinar\n", NULL,
     {"bad.ini:2: [dynamics] equations = 'nonlinar': not one of linear|nonlinear; did you mean 'nonlinear'?"}},
    {"[initial]\nprofile = constant\n", NULL,
     {"bad.ini:2: [initial] profile = 'constant': not one of isothermal|constant_n"}},
    {NULL, "--initial.case=baroclinic",
     {"--initial.case=baroclinic: not one of gravity_wave|balanced|normal_mode|cosine_bell|"
      "deformational|gravity_wave_advected|resting|dcmip31|baroclinic_wave"}},
    {"[planet]\nomega = -1e-5\n", NULL, {"bad.ini:2: [planet] omega = '-1e-5': out of range [0, inf)"}},
    {"[planet]\ncp = 0\n", NULL, {"bad.ini:2: [planet] cp = '0': out of range (0, inf)"}},
    {"[planet]\nrd = -287\n", NULL, {"bad.ini:2: [planet] rd = '-287': out of range (0, inf)"}},
    {NULL, "--planet.p_zero=0", {"--planet.p_zero=0: out of range (0, inf)"}},
    {"[timestepping]\nouter_iterations = 0\n", NULL,
     {"bad.ini:2: [timestepping] outer_iterations = '0': out of range [1, 20]"}},
    {"[timestepping]\ninner_iterations = 21\n", NULL,
     {"bad.ini:2: [timestepping] inner_iterations = '21': out of range [1, 20]"}},
    {"[timestepping]\nreference_reset_time = -1\n", NULL,
     {"bad.ini:2: [timestepping] reference_reset_time = '-1': out of range [0, inf)"}},
    {NULL, "--initial.u0=-20", {"--initial.u0=-20: out of range [0, inf)"}},
    {"[initial]\nperturbation = -1.0\n", NULL,
     {"bad.ini:2: [initial] perturbation = '-1.0': out of range [0, inf)"}},
    {"[mixed_solver]\ngcr_k = 4\n", NULL, {"[mixed_solver] gcr_k: unknown key; did you mean 'gcrk'?"}},
    /* prec_only is one multigrid V-cycle: any other preconditioner is an error,
     * from a file or an override, and the message names both keys */
    {"[solver]\nmethod = prec_only\n", NULL,
     {"bad.ini: [solver] method = prec_only with [solver] preconditioner = tridiagonal: prec_only "
      "applies one multigrid V-cycle per solve and needs preconditioner = multigrid"}},
    {"[solver]\nmethod = prec_only\npreconditioner = multigrid\n", "--solver.preconditioner=diagonal",
     {"[solver] method = prec_only with [solver] preconditioner = diagonal"}},
    {NULL, "--solver.method=prec_only",
     {"gale: error: [solver] method = prec_only with [solver] preconditioner = tridiagonal:"}},
    {"[solver]\ntolerance = 1e-6\nmethod = cg\ntolerance = 1e-7\n", NULL,
     {"bad.ini:4: [solver] tolerance: duplicate key (first set on line 2)"}},
    {"levels = 3\n[extrusion]\n", NULL,
     {"bad.ini:1: levels = '3': key outside any section; put it under [extrusion]"}},
    {"[solver]\njust some words\n", NULL,
     {"bad.ini:2: 'just some words': expected 'key = value', '[section]' or a comment"}},
    {"[solver]\nmax iterations = 3\n", NULL, {"'max iterations = 3': expected 'key = value'"}},
    {"[solver]\n= 3\n", NULL, {"'= 3': expected 'key = value'"}},
    {"[solver\n", NULL, {"bad.ini:1: '[solver': missing ']'"}},
    {"[solver] x\n", NULL, {"unexpected text 'x' after the section header"}},
    {"[initial]\ncase = 'balanced\n", NULL, {"[initial] case: unterminated quote '"}},
    {"[initial]\ncase = 'balanced' x\n", NULL, {"unexpected text 'x' after the closing quote"}},
    {NULL, "--solver.tolerance=abc", {"command line: --solver.tolerance=abc: not a number"}},
    {NULL, "solver.tolerence=1", {"command line: solver.tolerence=1: unknown key [solver] tolerence; did you mean 'tolerance'?"}},
    {NULL, "--solvr.method=cg", {"unknown section [solvr]; did you mean [solver]?"}},
    {NULL, "--solver", {"command line: --solver: expected --section.key=value"}},
    {NULL, "--solver=cg", {"expected --section.key=value"}},
    {NULL, "--timestepping.alpha=2", {"command line: --timestepping.alpha=2: out of range [0.5, 1]"}},
    /* issue 40: underflow and overflow, a relative tolerance of 0 alone, the
     * output's fields and ring, checked as the configuration is read and
     * naming where each value came from */
    {"[initial]\nperturbation = 1e-400\n", NULL,
     {"bad.ini:2: [initial] perturbation = '1e-400': underflows"}},
    {NULL, "--initial.amplitude=4.9e-324", {"command line: --initial.amplitude=4.9e-324: underflows"}},
    {NULL, "--timestepping.dt=1e400", {"--timestepping.dt=1e400: overflows"}},
    {"[solver]\ntolerance = 0\n", NULL,
     {"bad.ini:2: [solver] tolerance = 0 with [solver] abs_tolerance = 0: a relative tolerance of 0 "
      "is never met without an absolute one"}},
    {NULL, "--mixed_solver.tolerance=0",
     {"command line: [mixed_solver] tolerance = 0 with [mixed_solver] abs_tolerance = 0"}},
    {NULL, "--planet.gravity=0", {"--planet.gravity=0: out of range (0, inf)"}},
    {"[diagnostics]\nfields = p@nanh\n", NULL,
     {"bad.ini:2: [diagnostics] fields = \"p@nanh\": bad period '@nanh' of 'p'"}},
    {NULL, "--diagnostics.fields=p@1e-400h", {"bad period '@1e-400h' of 'p'"}},
    {NULL, "--diagnostics.fields=p,theta",
     {"command line: [diagnostics] fields = \"p,theta\": unknown field 'theta' (valid: u, w, b, p,"}},
    {"[io]\nbuffers = 1024\n", "--io.buffer_mib=1048576",
     {"bad.ini:2: [io] buffers = 1024 with command line: [io] buffer_mib = 1048576: an output ring "
      "of 1073741824 MiB per rank; buffers x buffer_mib is at most 1048576 MiB (1 TiB)"}},
    /* a good file does not excuse a bad override */
    {"[solver]\nmethod = gcr\n", "--halo.depth=4", {"--halo.depth=4: out of range [1, 3]"}},
};

static void test_bad_input(void)
{
    gale_config_t c, keep;
    memset(&keep, 0x5a, sizeof keep);
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_t *b = &bad_cases[i];
        char *ov[] = {(char *)b->arg};
        memcpy(&c, &keep, sizeof c);
        int st = parse_captured(2, &c, b->file ? put_file("bad.ini", b->file) : NULL, b->arg != NULL, ov);
        CHECK(st == GALE_ERR_INPUT, "case %zu: status %d, expected GALE_ERR_INPUT", i, st);
        CHECK(lines(out) == 1 && strncmp(out, "gale: error: ", 13) == 0,
              "case %zu: expected one 'gale: error:' line, got:\n%s", i, out);
        for (int w = 0; w < 3 && b->want[w]; w++)
            CHECK(strstr(out, b->want[w]), "case %zu: message lacks \"%s\":\n%s", i, b->want[w], out);
        CHECK(memcmp(&c, &keep, sizeof c) == 0, "case %zu: cfg changed on failure", i);
    }

    /* an override without its leading --, taken for a file name */
    int st0 = parse_captured(2, &c, "mesh.name=C4", 0, NULL);
    CHECK(st0 == GALE_ERR_INPUT && lines(out) == 1 && strstr(out, "'mesh.name=C4'") &&
              strstr(out, "did you mean --mesh.name=C4?"),
          "mesh.name=C4 as a file: %d\n%s", st0, out);
    /* zero in any spelling is not an underflow; a UTF-8 byte-order mark is skipped */
    char *zeros[] = {"--initial.dtheta=-0", "--initial.amplitude=0e5", "--transport.u0=0.0"};
    CHECK_OK(gale_config_parse(&c, NULL, 3, zeros));
    CHECK(c.initial.dtheta == 0 && c.initial.amplitude == 0 && c.transport.u0 == 0, "zeros");
    static const char bom_ini[] = "\xEF\xBB\xBF[mesh]\nname = C12\n",
                      bom_nml[] = "\xEF\xBB\xBF&base_mesh prime_mesh_name = 'C12' /\n";
    st0 = parse_captured(1, &c, put_bytes("bom.ini", bom_ini, sizeof bom_ini - 1), 0, NULL);
    CHECK(st0 == GALE_OK && c.mesh.n == 12, "byte-order mark, INI: %d\n%s", st0, out);
    st0 = parse_captured(1, &c, put_bytes("bom.nml", bom_nml, sizeof bom_nml - 1), 0, NULL);
    CHECK(st0 == GALE_OK && c.mesh.n == 12, "byte-order mark, namelist: %d\n%s", st0, out);
    /* where a key was set: the INI file's line */
    char at[GALE_STR + GALE_ORIGIN];
    CHECK_OK(gale_config_parse(&c, put_file("at.ini", "# x\n[solver]\n\nmethod = gcr\n"), 0, NULL));
    gale_config_origin(&c, "solver", "method", at, sizeof at);
    CHECK(strstr(at, "at.ini:4: [solver] method = gcr"), "origin in an INI file: %s", at);

    /* missing file, and a directory instead of a file */
    int st = parse_captured(2, &c, "nofile.ini", 0, NULL);
    CHECK(st == GALE_ERR_INPUT && lines(out) == 1 &&
              strstr(out, "cannot open configuration file 'nofile.ini': No such file or directory"),
          "missing file: %d\n%s", st, out);
    st = parse_captured(2, &c, "nofile.nml", 0, NULL);
    CHECK(st == GALE_ERR_INPUT && strstr(out, "cannot open configuration file 'nofile.nml'"),
          "missing namelist: %d\n%s", st, out);
    st = parse_captured(2, &c, tmpdir, 0, NULL);
    CHECK(st == GALE_ERR_INPUT && lines(out) == 1 && strstr(out, "is not a regular file (a directory)"),
          "directory: %d\n%s", st, out);
    /* a device, also under a .nml name, would be read without end */
    st = parse_captured(2, &c, "/dev/zero", 0, NULL);
    CHECK(st == GALE_ERR_INPUT && lines(out) == 1 &&
              strstr(out, "'/dev/zero' is not a regular file (a character device)"),
          "/dev/zero: %d\n%s", st, out);
    char link[600];
    snprintf(link, sizeof link, "%s/zero.nml", tmpdir);
    CHECK(symlink("/dev/zero", link) == 0, "symlink %s", link);
    st = parse_captured(2, &c, link, 0, NULL);
    CHECK(st == GALE_ERR_INPUT && strstr(out, "is not a regular file (a character device)"),
          "a .nml link to /dev/zero: %d\n%s", st, out);
    /* one byte over 1 MiB: refused by its size; exactly 1 MiB of comments reads */
    static char big[(1 << 20) + 2];
    memset(big, '#', sizeof big - 1);
    big[sizeof big - 2] = '\n';
    big[sizeof big - 1] = '\0';
    st = parse_captured(2, &c, put_file("big.ini", big), 0, NULL);
    CHECK(st == GALE_ERR_INPUT && strstr(out, "is 1048577 bytes: configuration files are at most "
                                              "1048576 bytes"),
          "a file over 1 MiB: %d\n%s", st, out);
    big[sizeof big - 3] = '\n';
    big[sizeof big - 2] = '\0';
    CHECK_OK(gale_config_parse(&c, put_file("big.ini", big), 0, NULL));
}

/* ---------------- dump ---------------- */

static void round_trip(const gale_config_t *c, const char *what)
{
    char buf[8192];
    gale_config_t back;
    size_t need = gale_config_dump(c, NULL, 0);
    size_t len = gale_config_dump(c, buf, sizeof buf);
    CHECK(len == need && len == strlen(buf) && len < sizeof buf, "%s: dump length", what);
    char small[16];
    CHECK(gale_config_dump(c, small, sizeof small) == need && strlen(small) == sizeof small - 1,
          "%s: truncated dump", what);
    CHECK_OK(gale_config_parse(&back, put_file("dump.ini", buf), 0, NULL));
    gale_config_t a;
    memcpy(&a, c, sizeof a);
    memset(a.source, 0, sizeof a.source);
    memset(back.source, 0, sizeof back.source);
    CHECK(same_values(&a, &back), "%s: dump does not round-trip:\n%s", what, buf);
}

static void test_dump(void)
{
    gale_config_t c;
    char buf[8192];
    gale_config_defaults(&c);
    round_trip(&c, "defaults");
    gale_config_dump(&c, buf, sizeof buf);
    CHECK(strstr(buf, "[mesh]\nname = C24\n") && strstr(buf, "\n[solver]\nmethod = cg\n") &&
              strstr(buf, "tolerance = 1e-10\n") && strstr(buf, "reproducible_sums = true\n") &&
              strstr(buf, "level = info\n"),
          "dump text:\n%s", buf);
    int nsec = 1;
    for (int i = 1; i < gale_nkeys; i++) nsec += strcmp(gale_keys[i].section, gale_keys[i - 1].section) != 0;
    /* a comment, then per section a blank line (but the first), a header and its keys */
    CHECK(lines(buf) == 1 + 2 * nsec - 1 + gale_nkeys, "dump: one line per key and section:\n%s", buf);

    CHECK_OK(gale_config_parse(&c, GALE_TEST_DATA "/good.ini", 0, NULL));
    round_trip(&c, "good.ini");
    /* reals that need all 17 digits, tiny and negative */
    char *ov[] = {"initial.dtheta=0.30000000000000004", "initial.amplitude=2.2250738585072014e-308",
                  "initial.centre_lon=-123.456789012345678", "solver.abs_tolerance=1.7976931348623157e308"};
    CHECK_OK(gale_config_parse(&c, NULL, 4, ov));
    round_trip(&c, "17 digits");
}

static void test_print_keys(void)
{
    char cap[512];
    snprintf(cap, sizeof cap, "%s/keys.md", tmpdir);
    fflush(stdout);
    int saved = dup(1), f = open(cap, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(f, 1);
    close(f);
    gale_config_print_keys(1);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    FILE *in = fopen(cap, "r");
    size_t n = fread(out, 1, sizeof out - 1, in);
    out[n] = '\0';
    fclose(in);
    CHECK(lines(out) == gale_nkeys + 2, "markdown table: %d lines", lines(out));
    CHECK(strstr(out, "| solver | method | enum | `cg` | cg\\|pipelined_cg\\|bicgstab\\|gcr\\|prec_only |"),
          "markdown row for [solver] method:\n%s", out);
    CHECK(strstr(out, "| solver | preconditioner | enum | `tridiagonal` | "
                      "none\\|diagonal\\|tridiagonal\\|multigrid |"), "preconditioner row");
    CHECK(strstr(out, "| multigrid | smooth_relaxation | real | `0.8` | (0, 2] |"),
          "smooth_relaxation row:\n%s", out);
    /* [multigrid] follows [solver]: the dump, the README table and the JSON report */
    const char *sv = strstr(out, "| solver | replace_every |"), *mg = strstr(out, "| multigrid |");
    CHECK(sv && mg && mg > sv && strstr(sv, "\n") + 1 == mg, "[multigrid] after [solver]");
    CHECK(strstr(out, "| timestepping | alpha | real | `0.5` | [0.5, 1] |"), "alpha row");
    CHECK(strstr(out, "| dynamics | mass_matrix | enum | `consistent` | consistent\\|lumped |") &&
              strstr(out, "| mixed_solver | method | enum | `gcr` | gcr\\|prec_only\\|pipelined_gcr |") &&
              strstr(out, "| mixed_solver | gcrk | int | `4` | [1, 10] |"),
          "[dynamics] and [mixed_solver] rows:\n%s", out);
}

/* ---------------- LFRic namelists ---------------- */

static void test_namelist(void)
{
    gale_config_t c;
    int st = parse_captured(1, &c, GALE_CONFIGS "/lfric_gravity_wave.nml", 0, NULL);
    CHECK(st == GALE_OK, "example namelist: %d", st);
    CHECK(c.mesh.n == 16, "mesh %d", c.mesh.n);
    check_gravity_wave(c);
    CHECK_REL(c.planet.gravity, 9.80665, 0);
    CHECK(c.solver.method == GALE_KRYLOV_BICGSTAB && c.solver.preconditioner == GALE_PC_MULTIGRID,
          "solver %d %d", c.solver.method, c.solver.preconditioner);
    CHECK_REL(c.solver.tolerance, 1e-4, 0); /* LFRic's: the preconditioner's inner solve */
    CHECK(c.solver.max_iterations == 100 && c.solver.gcr_restart == 18, "solver ints");
    /* &mixed_solver, LFRic's gravity_wave settings, with the consistent mass matrix */
    CHECK(c.dynamics.mass_matrix == GALE_MASS_CONSISTENT, "mass_matrix %d", c.dynamics.mass_matrix);
    CHECK(c.mixed_solver.method == GALE_MIXED_GCR && c.mixed_solver.gcrk == 4 &&
              c.mixed_solver.max_iterations == 20 && c.mixed_solver.fail_on_non_converged == 1,
          "mixed_solver method %d gcrk %d it %d", c.mixed_solver.method, c.mixed_solver.gcrk,
          c.mixed_solver.max_iterations);
    CHECK_REL(c.mixed_solver.tolerance, 1e-4, 0);
    /* LFRic's gravity_wave reads no mixed_solver_a_tol (its solvers take
     * 1e-12): the file's 1e-6 leaves gale's 0 (off) */
    CHECK(c.mixed_solver.abs_tolerance == 0, "abs_tolerance %g", c.mixed_solver.abs_tolerance);
    CHECK(c.multigrid.levels == 4 && c.multigrid.n_presmooth == 2 && c.multigrid.n_postsmooth == 2 &&
              c.multigrid.n_coarsesmooth == 4, "multigrid");
    CHECK_REL(c.multigrid.smooth_relaxation, 0.8, 0);
    CHECK(c.solver.fail_on_non_converged == 1 && c.solver.monitor_convergence == 0, "solver bools");
    CHECK(c.logging.level == GALE_LOG_INFO, "log level");
    /* LFRic keys without a counterpart are logged once, mapped ones are not */
    CHECK(lines(out) == 1 && strstr(out, "not used") && strstr(out, "planet.omega") &&
              !strstr(out, "mixed_solver.si_") && !strstr(out, "finite_element.rehabilitate") &&
              strstr(out, "mixed_solver.mixed_solver_a_tol") &&
              strstr(out, "mixed_solver.eliminate_variables") &&
              strstr(out, "multigrid.coarsen_multigrid_tiles") &&
              !strstr(out, "multigrid.chain_mesh_tags") && !strstr(out, "multigrid.multigrid_chain_nitems") &&
              !strstr(out, "multigrid.smooth_relaxation") && !strstr(out, "multigrid.n_") &&
              !strstr(out, "l_multigrid") && !strstr(out, "planet.radius") &&
              !strstr(out, "base_mesh.prime_mesh_name"),
          "not-used log:\n%s", out);

    /* &multigrid maps key by key (values unlike the defaults, so a key left
     * unmapped or mapped to its neighbour shows): the chain from the mesh of
     * the file name, d exponents, a repeat count of 1, tags over two lines */
    st = parse_captured(1, &c, put_file("mg.nml",
        "&base_mesh filename = 'mesh_C24.nc' /\n"
        "&formulation l_multigrid = .true. /\n"
        "&helmholtz_solver method = 'prec_only', preconditioner = 'multigrid' /\n"
        "&multigrid multigrid_chain_nitems = 4, chain_mesh_tags = 'C24', \"C12\",\n"
        "  1*'C6' 'C3'\n smooth_relaxation = 0.6d0 n_presmooth = 1 n_postsmooth = 3\n"
        "  n_coarsesmooth = 10 /\n"), 0, NULL);
    CHECK(st == GALE_OK, "&multigrid namelist: %d\n%s", st, out);
    CHECK(c.mesh.n == 24 && c.multigrid.levels == 4 && c.multigrid.n_presmooth == 1 &&
              c.multigrid.n_postsmooth == 3 && c.multigrid.n_coarsesmooth == 10,
          "&multigrid: mesh %d levels %d sweeps %d/%d/%d", c.mesh.n, c.multigrid.levels,
          c.multigrid.n_presmooth, c.multigrid.n_postsmooth, c.multigrid.n_coarsesmooth);
    CHECK_REL(c.multigrid.smooth_relaxation, 0.6, 0);
    CHECK(c.solver.method == GALE_KRYLOV_PREC_ONLY && c.solver.preconditioner == GALE_PC_MULTIGRID,
          "prec_only: method %d pc %d", c.solver.method, c.solver.preconditioner);
    /* the levels from the chain alone, from multigrid_chain_nitems alone; the
     * older layout's &multigrid l_multigrid = .false. with another preconditioner */
    st = parse_captured(1, &c, put_file("mg.nml",
        "&base_mesh prime_mesh_name = 'C16' /\n&multigrid chain_mesh_tags = 'C16', 'C8' /\n"), 0, NULL);
    CHECK(st == GALE_OK && c.multigrid.levels == 2, "chain alone: %d, levels %d\n%s", st,
          c.multigrid.levels, out);
    st = parse_captured(1, &c, put_file("mg.nml", "&multigrid multigrid_chain_nitems = 3 /\n"), 0, NULL);
    CHECK(st == GALE_OK && c.multigrid.levels == 3, "nitems alone: %d, levels %d", st, c.multigrid.levels);
    st = parse_captured(1, &c, put_file("mg.nml",
        "&multigrid l_multigrid = .false. /\n&helmholtz_solver preconditioner = 'tridiagonal' /\n"),
        0, NULL);
    CHECK(st == GALE_OK && c.solver.preconditioner == GALE_PC_TRIDIAGONAL,
          "l_multigrid false, tridiagonal: %d\n%s", st, out);

    /* &mixed_solver: LFRic's gravity_wave values; then key by key with values
     * unlike the defaults; the mass matrix is consistent whatever
     * &finite_element rehabilitate says, unless the command line says lumped */
    st = parse_captured(1, &c, put_file("mixed.nml",
        "&mixed_solver si_method='gcr', gcrk=4, si_tolerance=1e-4, si_maximum_iterations=20 /\n"),
        0, NULL);
    CHECK(st == GALE_OK && c.mixed_solver.method == GALE_MIXED_GCR && c.mixed_solver.gcrk == 4 &&
              c.mixed_solver.max_iterations == 20 && c.dynamics.mass_matrix == GALE_MASS_CONSISTENT,
          "&mixed_solver: %d method %d gcrk %d it %d mass %d\n%s", st, c.mixed_solver.method,
          c.mixed_solver.gcrk, c.mixed_solver.max_iterations, c.dynamics.mass_matrix, out);
    CHECK_REL(c.mixed_solver.tolerance, 1e-4, 0);
    CHECK(!strstr(out, "mixed_solver."), "&mixed_solver keys are used:\n%s", out);
    st = parse_captured(1, &c, put_file("mixed.nml",
        "&section_choice dynamics = 'gungho' /\n&idealised test = 'isot_atm' /\n"
        "&finite_element rehabilitate = .false. /\n"
        "&mixed_solver\n si_method = 'prec_only', gcrk = 7, si_tolerance = 1.0d-6\n"
        " si_maximum_iterations = 33, mixed_solver_a_tol = 1.e-9, fail_on_non_converged = .F.\n"
        " monitor_convergence = T, si_preconditioner = 'PRESSURE', eliminate_variables = 'discrete'\n"
        " guess_np1 = .false., split_w = .false., normalise = .true. /\n"), 0, NULL);
    CHECK(st == GALE_OK && c.mixed_solver.method == GALE_MIXED_PREC_ONLY &&
              c.mixed_solver.gcrk == 7 && c.mixed_solver.max_iterations == 33 &&
              c.mixed_solver.fail_on_non_converged == 0 && c.mixed_solver.monitor_convergence == 1 &&
              c.dynamics.mass_matrix == GALE_MASS_CONSISTENT,
          "&mixed_solver key by key: %d method %d gcrk %d it %d bools %d/%d mass %d\n%s", st,
          c.mixed_solver.method, c.mixed_solver.gcrk, c.mixed_solver.max_iterations,
          c.mixed_solver.fail_on_non_converged, c.mixed_solver.monitor_convergence,
          c.dynamics.mass_matrix, out);
    CHECK_REL(c.mixed_solver.tolerance, 1e-6, 0);
    CHECK_REL(c.mixed_solver.abs_tolerance, 1e-9, 0);
    CHECK(lines(out) == 1 && strstr(out, "mixed_solver.guess_np1") && strstr(out, "mixed_solver.split_w") &&
              strstr(out, "mixed_solver.normalise") && strstr(out, "finite_element.rehabilitate") &&
              !strstr(out, "si_") && !strstr(out, "mixed_solver.gcrk") &&
              !strstr(out, "eliminate_variables") && !strstr(out, "mixed_solver_a_tol") &&
              !strstr(out, "mixed_solver.monitor") && !strstr(out, "mixed_solver.fail"),
          "&mixed_solver: the not-used log:\n%s", out);
    /* the older lfric_core example's gmres is gcr (the same iterates) */
    char *lumped[] = {"--dynamics.mass_matrix=lumped"};
    st = parse_captured(1, &c, put_file("mixed.nml",
        "&finite_element rehabilitate = .true. /\n&mixed_solver si_method = 'GMRES' /\n"), 1, lumped);
    CHECK(st == GALE_OK && c.mixed_solver.method == GALE_MIXED_GCR &&
              c.dynamics.mass_matrix == GALE_MASS_LUMPED,
          "gmres, lumped override: %d method %d mass %d\n%s", st, c.mixed_solver.method,
          c.dynamics.mass_matrix, out);

    /* syntax: several per line, both quotes, d exponents, T/F, mesh from the
     * file name, translated words; overrides still beat the namelist */
    const char *p = put_file("syntax.nml",
        "! comment\n&base_mesh prime_mesh_name=\"dynamics\", filename='mesh_C24_MG.nc' /\n"
        "&extrusion method='QUADRATIC' number_of_layers=40, domain_top=3.0D4 ! top\n/\n"
        "&planet\n/\n&helmholtz_solver si_pressure_tolerance=1.d-12 method=\"gcr\" monitor_convergence=T\n"
        "  preconditioner='none' /\n&logging run_log_level='trace' /\n"
        "&files diag_stem_name='it''s', orography_ancil_path='a/b' /\n"
        "&time timestep_end=12 /\n&multigrid ugrid = 'a', 'b',\n 'c' /\n"
        "&external_forcing temp_tend_data = 3*0.0 /\n");
    char *ov[] = {"--extrusion.levels=30"};
    st = parse_captured(1, &c, p, 1, ov);
    CHECK(st == GALE_OK, "syntax namelist: %d", st);
    CHECK(c.mesh.n == 24 && c.extrusion.method == GALE_EXT_QUADRATIC && c.extrusion.levels == 30,
          "mesh %d method %d levels %d", c.mesh.n, c.extrusion.method, c.extrusion.levels);
    CHECK_REL(c.extrusion.top, 3e4, 0);
    CHECK_REL(c.solver.tolerance, 1e-12, 0);
    CHECK(c.solver.method == GALE_KRYLOV_GCR && c.solver.preconditioner == GALE_PC_NONE &&
              c.solver.monitor_convergence == 1, "solver");
    CHECK(c.logging.level == GALE_LOG_DEBUG && c.timestepping.steps == 12, "level, steps");
    CHECK(strstr(out, "files.orography_ancil_path") && strstr(out, "multigrid.ugrid") &&
              strstr(out, "external_forcing.temp_tend_data"), "%s", out);
    /* a gravity_wave namelist: the linear core; GungHo's keys stay not used
     * (rotating = .false. leaves omega alone) */
    st = parse_captured(1, &c, GALE_CONFIGS "/lfric_gravity_wave.nml", 0, NULL);
    CHECK(st == GALE_OK, "example namelist again: %d", st);
    CHECK(c.dynamics.equations == GALE_EQ_LINEAR, "gravity_wave: equations %d", c.dynamics.equations);
    CHECK_REL(c.planet.omega, 7.292116e-5, 0);
    CHECK(strstr(out, "planet.omega") && strstr(out, "timestepping.outer_iterations"), "%s", out);
}

/* GungHo's example configuration, reduced to what gale reads: the nonlinear
 * core with LFRic's values. */
static void test_namelist_gungho(void)
{
    gale_config_t c;
    int st = parse_captured(1, &c, GALE_CONFIGS "/lfric_gungho.nml", 0, NULL);
    CHECK(st == GALE_OK, "lfric_gungho.nml: %d\n%s", st, out);
    CHECK(c.dynamics.equations == GALE_EQ_NONLINEAR, "equations %d", c.dynamics.equations);
    CHECK(c.initial.kase == GALE_CASE_BAROCLINIC_WAVE, "case %d", c.initial.kase);
    CHECK(c.mesh.n == 16 && c.extrusion.levels == 30 && c.extrusion.method == GALE_EXT_DCMIP,
          "mesh %d levels %d method %d", c.mesh.n, c.extrusion.levels, c.extrusion.method);
    CHECK_REL(c.extrusion.top, 30000.0, 0);
    CHECK_REL(c.planet.radius, 6371229.0, 0);
    CHECK_REL(c.planet.scaling, 1.0, 0);
    CHECK_REL(c.planet.gravity, 9.80665, 0);
    CHECK_REL(c.planet.omega, 7.292116e-5, 0); /* rotating = .true. */
    CHECK_REL(c.planet.cp, 1005.0, 0);
    CHECK_REL(c.planet.rd, 287.05, 0);
    CHECK_REL(c.planet.p_zero, 100000.0, 0);
    CHECK_REL(c.initial.theta0, 300.0, 0);
    CHECK_REL(c.timestepping.dt, 3600.0, 0);
    CHECK_REL(c.timestepping.alpha, 0.55, 0);
    CHECK(c.timestepping.steps == 10 && c.timestepping.outer_iterations == 2 &&
              c.timestepping.inner_iterations == 2,
          "steps %d outer %d inner %d", c.timestepping.steps, c.timestepping.outer_iterations,
          c.timestepping.inner_iterations);
    CHECK_REL(c.timestepping.reference_reset_time, 3600.0, 0);
    CHECK(c.dynamics.vector_invariant == 0 && c.dynamics.grid_damping == 0.0 &&
              c.dynamics.shallow == 0 && c.dynamics.transport_courant == 1.0,
          "vector_invariant %d grid_damping %g shallow %d transport_courant %g",
          c.dynamics.vector_invariant, c.dynamics.grid_damping, c.dynamics.shallow,
          c.dynamics.transport_courant);
    CHECK(c.mixed_solver.method == GALE_MIXED_GCR && c.mixed_solver.gcrk == 4 &&
              c.mixed_solver.max_iterations == 10 && c.mixed_solver.monitor_convergence == 1,
          "mixed_solver %d %d %d", c.mixed_solver.method, c.mixed_solver.gcrk,
          c.mixed_solver.max_iterations);
    CHECK_REL(c.mixed_solver.tolerance, 0.1, 0);
    CHECK_REL(c.mixed_solver.abs_tolerance, 1e-3, 0);
    CHECK(c.solver.method == GALE_KRYLOV_PREC_ONLY && c.solver.preconditioner == GALE_PC_MULTIGRID &&
              c.solver.max_iterations == 400 && c.solver.gcr_restart == 8 && c.multigrid.levels == 4,
          "solver %d pc %d it %d gcrk %d mg %d", c.solver.method, c.solver.preconditioner,
          c.solver.max_iterations, c.solver.gcr_restart, c.multigrid.levels);
    /* the keys GungHo's namelist uses are not in the "not used" log */
    CHECK(!strstr(out, "planet.omega") && !strstr(out, "outer_iterations") &&
              !strstr(out, "reference_reset_time") && !strstr(out, "idealised.test") &&
              !strstr(out, "section_choice.dynamics") && !strstr(out, "theta_surf") &&
              !strstr(out, "vector_invariant"),
          "gungho: the log:\n%s", out);

    /* rotating = .false. stops the rotation whatever &planet omega says, in
     * either order; the isothermal atmosphere at rest is gale's resting case */
    st = parse_captured(1, &c, put_file("gh.nml",
                                        "&formulation rotating = .false. /\n"
                                        "&planet omega = 1.0e-4 /\n"
                                        "&idealised test = 'isot_atm' /\n"
                                        "&section_choice dynamics = 'gungho' /\n"), 0, NULL);
    CHECK(st == GALE_OK && c.planet.omega == 0.0 && c.dynamics.equations == GALE_EQ_NONLINEAR &&
              c.initial.kase == GALE_CASE_RESTING && c.initial.profile == GALE_PROFILE_ISOTHERMAL,
          "rotating false: %d omega %g\n%s", st, c.planet.omega, out);
    /* LFRic's transport: the example's forms are honoured, cfl_mol_2d_stab
     * is the substep limit; its split FFSL method is refused, naming the
     * scheme (the method's first key) at its line, unless gale's method of
     * lines may stand in, which lists the keys it stands in for */
    const char *tr = put_file("gh.nml",
                              "&section_choice dynamics = 'gungho' /\n"
                              "&idealised test = 'deep_baroclinic_wave' /\n"
                              "&transport cfl_mol_2d_stab = 0.8, equation_form = 1,3,2,3,\n"
                              " field_names = 'density','potential_temperature','wind',"
                              "'moisture', horizontal_method = 4*2, scheme = 4*3,\n"
                              " panel_edge_treatment = 'remapping' /\n");
    st = parse_captured(2, &c, tr, 0, NULL);
    CHECK(st == GALE_ERR_INPUT && lines(out) == 1 &&
              strstr(out, "gh.nml:4: &transport scheme = 3: gale implements only the method of "
                          "lines (scheme = 1: the method of lines in 3-D)") &&
              strstr(out, "--dynamics.transport_stand_in=true"),
          "LFRic's transport methods refused: %d\n%s", st, out);
    char *stand[] = {"--dynamics.transport_stand_in=true"};
    st = parse_captured(1, &c, tr, 1, stand);
    CHECK(st == GALE_OK && c.dynamics.transport_courant == 0.8 &&
              strstr(out, "stood in for by gale's method of lines") &&
              strstr(out, "): transport.horizontal_method, transport.scheme\n") &&
              !strstr(out, "cfl_mol_2d_stab") && !strstr(out, "equation_form") &&
              !strstr(out, "panel_edge_treatment"),
          "LFRic's transport stood in for: %d courant %g\n%s", st, c.dynamics.transport_courant,
          out);
    /* shallow = .false. selects the deep atmosphere */
    st = parse_captured(1, &c, put_file("gh.nml", "&formulation shallow = .false. /\n"
                                                  "&idealised test = 'deep_baroclinic_wave' /\n"
                                                  "&section_choice dynamics = 'gungho' /\n"), 0, NULL);
    CHECK(st == GALE_OK && c.dynamics.shallow == 0 && !strstr(out, "shallow"),
          "shallow F: %d %d\n%s", st, c.dynamics.shallow, out);
    /* in a gravity_wave namelist (the linear core) the forms are not used */
    st = parse_captured(1, &c, put_file("gw.nml", "&transport equation_form = 1, 2\n"
                                                  " field_names = 'density', 'wind' /\n"), 0, NULL);
    CHECK(st == GALE_OK && strstr(out, "transport.equation_form") &&
              strstr(out, "transport.field_names"),
          "gravity_wave namelist's transport forms: %d\n%s", st, out);
    /* vector_invariant = .true. selects gale's other wind form */
    st = parse_captured(1, &c, put_file("gh.nml", "&formulation vector_invariant = T /\n"
                                                  "&idealised test = 'isot_atm' /\n"
                                                  "&section_choice dynamics = 'gungho' /\n"), 0, NULL);
    CHECK(st == GALE_OK && c.dynamics.vector_invariant == 1, "vector_invariant T: %d %d\n%s", st,
          c.dynamics.vector_invariant, out);
    st = parse_captured(1, &c, put_file("gh.nml",
                                        "&section_choice dynamics = 'gungho' /\n"
                                        "&idealised test = 'gravity_wave' /\n"
                                        "&planet omega = 1.0d-4 /\n"), 0, NULL);
    CHECK(st == GALE_OK && c.initial.kase == GALE_CASE_DCMIP31, "gravity_wave -> dcmip31");
    CHECK_REL(c.planet.omega, 1e-4, 0);
    /* a gravity_wave namelist keeps the linear core, whose test is always
     * the gravity wave: LFRic's gravity_wave reads no &idealised test, so any
     * is listed as without effect; the wind profile is checked */
    st = parse_captured(1, &c, put_file("gh.nml", "&section_choice dynamics = 'none' /\n"
                                                  "&idealised test = 'deep_baroclinic_wave' /\n"
                                                  "&initial_wind profile = 'none' /\n"), 0, NULL);
    CHECK(st == GALE_OK && c.dynamics.equations == GALE_EQ_LINEAR &&
              c.initial.kase == GALE_CASE_GRAVITY_WAVE && strstr(out, "idealised.test") &&
              !strstr(out, "initial_wind.profile"),
          "gravity_wave namelist: %d\n%s", st, out);
}

/* The two layouts LFRic users have: every group and key of the gravity_wave
 * example configuration of lfric_apps (applications/gravity_wave, the
 * current one) and of lfric_core's older miniapps/gravity_wave, as public
 * key lists with values; the test writes the files from them. */
typedef struct { const char *group, *keys; } nml_layout_t;
static const nml_layout_t lfric_apps_layout[] = {
    {"base_mesh", "file_prefix='mesh_C16_MG' geometry='spherical' prepartitioned=.false. "
                  "prime_mesh_name='C16' topology='fully_periodic' fplane=.false. f_lat_deg=45.0"},
    {"section_choice", "dynamics='none'"},
    {"extrusion", "domain_height=10000.0 method='uniform' number_of_layers=10 planet_radius=6371229.0"},
    {"files", "ancil_directory='' coarse_ancil_directory='' checkpoint_stem_name='restartGravityWave' "
              "diag_stem_name='diagGravityWave' orography_mean_ancil_path='' "
              "start_dump_directory='' start_dump_filename=''"},
    {"finite_element", "cellshape='quadrilateral' coord_order=1 coord_order_nonprime=1 "
                       "coord_space='Wchi' coord_system='native' element_order_h=0 "
                       "element_order_v=0 rehabilitate=.true. vorticity_in_w1=.true."},
    {"formulation", "dlayer_on=.false. dry_static_adjust=.false. exner_from_eos=.false. "
                    "horizontal_physics_predictor=.false. horizontal_transport_predictor=.false. "
                    "init_exner_bt=.false. l_multigrid=.true. moisture_formulation='dry' "
                    "rotating=.false. shallow=.true. si_momentum_equation=.false. "
                    "theta_moist_source=.false. use_physics=.false. use_wavedynamics=.false. "
                    "vector_invariant=.true."},
    {"initial_temperature", "bvf_square=0.0001 pert_width_scaling=1.0 theta_surf=340.0"},
    {"initial_pressure", "method='projected' surface_pressure=1000.0e2"},
    {"gravity_wave_constants", "b_space='wtheta' speed_of_sound=340.0"},
    {"initial_wind", "nl_constant=0.0 profile='none' sbr_angle_lat=0.0 sbr_angle_lon=0.0 "
                     "smp_init_wind=.false. u0=0.0 v0=0.0 wind_time_period=0.0"},
    {"initialization", "ancil_option='none' init_option='analytic' lbc_option='none' "
                       "coarse_aerosol_ancil=.false. zero_w2v_wind=.false."},
    {"io", "checkpoint_read=.false. checkpoint_write=.false. diagnostic_frequency=36 "
           "file_convention='UGRID' nodal_output_on_w3=.true. subroutine_counters=.false. "
           "subroutine_timers=.true. use_xios_io=.true. write_conservation_diag=.false. "
           "write_diag=.true. write_dump=.false. write_fluxes=.false. write_minmax_tseries=.false."},
    {"idealised", "perturb_init=.false."},
    {"logging", "run_log_level='info'"},
    {"time", "calendar='timestep' timestep_end='36' timestep_start='1' calendar_type='gregorian' "
             "calendar_start='2016-01-01' calendar_origin='2016-01-01'"},
    {"planet", "cp=1005.0 gravity=9.80665 omega=7.292116E-5 p_zero=100000.0 rd=287.05 "
               "scaling_factor=125.0"},
    {"solver", "fail_on_non_converged=.true. gcrk=1 maximum_iterations=399 method='bicgstab' "
               "monitor_convergence=.true. preconditioner='diagonal' tolerance=1.0e-12"},
    {"mixed_solver", "eliminate_variables='discrete' fail_on_non_converged=.true. gcrk=4 "
                     "guess_np1=.false. mixed_solver_a_tol=1.e-6 monitor_convergence=.true. "
                     "normalise=.true. reference_reset_time=100.0 si_maximum_iterations=20 "
                     "si_method='gcr' si_preconditioner='pressure' si_tolerance=1.0e-4 split_w=.false."},
    {"helmholtz_solver", "fail_on_non_converged=.true. gcrk=18 method='bicgstab' "
                         "monitor_convergence=.true. normalise=.true. preconditioner='multigrid' "
                         "si_pressure_maximum_iterations=100 si_pressure_tolerance=1.0e-4"},
    {"multigrid", "multigrid_chain_nitems=4 chain_mesh_tags='C16','C8','C4','C2' "
                  "smooth_relaxation=0.8 n_presmooth=2 n_postsmooth=2 n_coarsesmooth=4 "
                  "coarsen_multigrid_tiles=.false. max_tiled_multigrid_level=1"},
    {"timestepping", "alpha=0.5 dt=100.0 inner_iterations=2 method='semi_implicit' "
                     "outer_iterations=2 runge_kutta_method='ssp3' spinup_alpha=.false. tau_r=0.0 "
                     "tau_t=0.0 tau_u=0.0"},
    {"partitioning", "partitioner='cubedsphere' panel_decomposition='auto' panel_xproc=1 "
                     "panel_yproc=1 tile_size_x=1 tile_size_y=1 inner_halo_tiles=.false."},
    {"boundaries", "limited_area=.false. transport_overwrite_freq='final'"},
    {NULL, NULL}};
static const nml_layout_t lfric_core_layout[] = {
    {"base_mesh", "filename='mesh_C24.nc' prime_mesh_name='dynamics' geometry='spherical' "
                  "partitioner='cubedsphere' fplane=.false. f_lat_deg=45.0"},
    {"boundaries", "limited_area=.false."},
    {"extrusion", "method='uniform' domain_top=10000.0 number_of_layers=10"},
    {"finite_element", "cellshape='quadrilateral' element_order=0 coordinate_order=2 "
                       "rehabilitate=.true. vorticity_in_w1=.true."},
    {"initial_temperature", "bvf_square=0.0001 pert_width_scaling=1.0"},
    {"gravity_wave_constants", "speed_of_sound=340.0 b_space='wtheta'"},
    {"initial_wind", "profile='none' u0=0.0 v0=0.0 sbr_angle_lat=0.0 sbr_angle_lon=0.0"},
    {"initialization", "init_option='analytic' ancil_option='none'"},
    {"files", "diag_stem_name='gravity_wave' checkpoint_stem_name=\"restartGravityWave\" "
              "start_dump_filename='UM2LFRic_dump' start_dump_directory='./'"},
    {"io", "use_xios_io=.true. write_diag=.true. write_dump=.false. diagnostic_frequency=36 "
           "nodal_output_on_w3=.false. subroutine_timers=.true. subroutine_counters=.false. "
           "checkpoint_read=.false. checkpoint_write=.false."},
    {"logging", "run_log_level='info'"},
    {"time", "calendar='timestep' timestep_start='1' timestep_end='36'"},
    {"planet", "gravity=9.80665 radius=6371229.0 omega=7.292116E-5 rd=287.05 cp=1005.0 "
               "p_zero=100000.0 scaling_factor=125.0"},
    {"solver", "method='bicgstab' preconditioner='diagonal' maximum_iterations=399 "
               "tolerance=1.0e-12 gcrk=18"},
    {"mixed_solver", "si_method='gmres', si_preconditioner='pressure', si_maximum_iterations=20, "
                     "gcrk=4, si_tolerance=1.0e-4, guess_np1=.F reference_reset_freq=1 "
                     "normalise=.true.,"},
    {"helmholtz_solver", "gcrk=4, method='bicgstab', preconditioner='tridiagonal', "
                         "si_pressure_tolerance=1.0e-4, si_pressure_maximum_iterations=199, "
                         "normalise=.true.,"},
    {"timestepping", "method='semi_implicit' dt=100.0 alpha=0.5 outer_iterations=2 "
                     "inner_iterations=2 runge_kutta_method='ssp3'"},
    {"partitioning", "panel_decomposition='auto'"},
    {"domain_size", "planar_domain_min_x=-1.0 planar_domain_max_x=1.0 planar_domain_min_y=-1.0 "
                    "planar_domain_max_y=1.0"},
    {"multigrid", "l_multigrid=.false. multigrid_chain_nitems=4 "
                  "ugrid='prime','mesh_C12.nc','mesh_C6.nc','mesh_C3.nc'"},
    {"section_choice", "radiation='none', boundary_layer='none', convection='none', "
                       "microphysics='none', cloud='none'"},
    {"development", "implement_consolidated_multigrid=.false."},
    {NULL, NULL}};

/* The namelist file of a layout: one key per line. */
static const char *layout_file(const char *name, const nml_layout_t *l)
{
    static char text[16384];
    size_t n = 0;
    for (; l->group; l++) {
        n += (size_t)snprintf(text + n, sizeof text - n, "&%s\n", l->group);
        for (const char *k = l->keys; *k;) {
            size_t len = strcspn(k, " ");
            n += (size_t)snprintf(text + n, sizeof text - n, "  %.*s\n", (int)len, k);
            k += len + strspn(k + len, " ");
        }
        n += (size_t)snprintf(text + n, sizeof text - n, "/\n\n");
    }
    return put_file(name, text);
}

/* Reads layout l and checks what both example files resolve to: mesh C<mesh>,
 * 10 layers to 10 km, dt 100 s, 36 steps, BiCGStab + preconditioner pc to
 * 1e-4 with maxit iterations and restart gcrk, a 4-level multigrid chain with
 * LFRic's smoother settings (the defaults in the older layout). */
static void check_layout(const char *name, const nml_layout_t *l, int mesh, int pc, int maxit,
                         int gcrk)
{
    gale_config_t c;
    int st = parse_captured(1, &c, layout_file(name, l), 0, NULL);
    CHECK(st == GALE_OK, "%s: %d\n%s", name, st, out);
    CHECK(c.mesh.n == mesh && c.extrusion.levels == 10 && c.timestepping.steps == 36,
          "%s: mesh %d levels %d steps %d", name, c.mesh.n, c.extrusion.levels, c.timestepping.steps);
    CHECK_REL(c.extrusion.top, 10000.0, 0);
    CHECK_REL(c.planet.radius, 6371229.0, 0);
    CHECK_REL(c.timestepping.dt, 100.0, 0);
    CHECK(c.solver.method == GALE_KRYLOV_BICGSTAB && c.solver.preconditioner == pc &&
              c.solver.max_iterations == maxit && c.solver.gcr_restart == gcrk,
          "%s: solver %d pc %d it %d gcrk %d", name, c.solver.method, c.solver.preconditioner,
          c.solver.max_iterations, c.solver.gcr_restart);
    CHECK_REL(c.solver.tolerance, 1e-4, 0);
    CHECK(c.multigrid.levels == 4 && c.multigrid.n_presmooth == 2 && c.multigrid.n_postsmooth == 2 &&
              c.multigrid.n_coarsesmooth == 4, "%s: multigrid", name);
    CHECK_REL(c.multigrid.smooth_relaxation, 0.8, 0);
    /* &mixed_solver: GCR (the older layout's gmres) with 4 directions, 1e-4 in
     * at most 20 iterations; the consistent mass matrix */
    CHECK(c.mixed_solver.method == GALE_MIXED_GCR && c.mixed_solver.gcrk == 4 &&
              c.mixed_solver.max_iterations == 20 && c.dynamics.mass_matrix == GALE_MASS_CONSISTENT,
          "%s: mixed_solver method %d gcrk %d it %d mass %d", name, c.mixed_solver.method,
          c.mixed_solver.gcrk, c.mixed_solver.max_iterations, c.dynamics.mass_matrix);
    CHECK_REL(c.mixed_solver.tolerance, 1e-4, 0);
}

static void test_namelist_layouts(void)
{
    /* lfric_apps: the mesh from prime_mesh_name 'C16' (file_prefix agrees),
     * the top from domain_height, the radius from &extrusion planet_radius,
     * BiCGStab + multigrid over its chain C16, C8, C4, C2 */
    check_layout("apps.nml", lfric_apps_layout, 16, GALE_PC_MULTIGRID, 100, 18);
    /* LFRic's gravity_wave reads none of GungHo's &formulation keys (its
     * example's use_wavedynamics = .false. and vector_invariant = .true.
     * included), nor eliminate_variables: they have no effect */
    CHECK(lines(out) == 1 && strstr(out, "not used (no effect on gale's answers") &&
              !strstr(out, "base_mesh.topology") && !strstr(out, "multigrid.chain_mesh_tags") &&
              !strstr(out, "formulation.l_multigrid") && strstr(out, "multigrid.coarsen_multigrid_tiles") &&
              strstr(out, "mixed_solver.reference_reset_time") && strstr(out, "mixed_solver.split_w") &&
              !strstr(out, "mixed_solver.si_") && strstr(out, "mixed_solver.eliminate_variables") &&
              strstr(out, "formulation.use_wavedynamics") && strstr(out, "formulation.use_physics") &&
              strstr(out, "formulation.vector_invariant") && strstr(out, "formulation.rotating") &&
              strstr(out, "partitioning.tile_size_x") &&
              !strstr(out, "extrusion.domain_height") && !strstr(out, "base_mesh.file_prefix"),
          "apps: the log:\n%s", out);
    /* lfric_core: prime_mesh_name 'dynamics', so the mesh from filename */
    check_layout("core.nml", lfric_core_layout, 24, GALE_PC_TRIDIAGONAL, 199, 4);
    CHECK(lines(out) == 1 && strstr(out, "domain_size.planar_domain_min_x") &&
              strstr(out, "mixed_solver.guess_np1") && !strstr(out, "mixed_solver.si_") &&
              strstr(out, "development.implement_consolidated_multigrid"),
          "core: the log:\n%s", out);
    /* the mesh from file_prefix alone */
    gale_config_t c;
    int st = parse_captured(1, &c, put_file("prefix.nml", "&base_mesh file_prefix = 'mesh_C12_MG' /\n"),
                            0, NULL);
    CHECK(st == GALE_OK && c.mesh.n == 12, "file_prefix alone: %d, mesh %d", st, c.mesh.n);
}

#define GH "&section_choice dynamics = 'gungho' /\n&idealised test = 'deep_baroclinic_wave' /\n"
static const struct { const char *text, *want[2]; } bad_nml[] = {
    /* a missing '=': the value list ends at "name =", and a name there is a
     * key without its '=', at its own line (not more values of the key
     * before, unused or used) */
    {"&base_mesh topology='fully_periodic'\n prime_mesh_name 'C8' /\n",
     {"bad.nml:2: &base_mesh prime_mesh_name: expected '=' after the key name"}},
    {"&planet omega = 7.292116e-5\n rd 287.05\n cp = 1005.0 /\n",
     {"bad.nml:2: &planet rd: expected '=' after the key name"}},
    {"&planet radius = 1.0,\n :2 /\n", {"bad.nml:2: &planet radius: ':2' is not a value"}},
    /* CR and CRLF end lines as LF does (a NUL byte: test_namelist_errors) */
    {"! CR only\r&planet\r radius = 1.0\r gravity = -1\r/\r",
     {"bad.nml:4: &planet gravity = '-1' (gale [planet] gravity = -1): out of range"}},
    {"! CRLF\r\n&planet\r\n radius = 1.0\r\n gravity = -1\r\n/\r\n",
     {"bad.nml:4: &planet gravity = '-1' (gale [planet] gravity = -1): out of range"}},
    /* values gale cannot take */
    {"&section_choice\n dynamics = 'gungh0'\n/\n",
     {"bad.nml:2: &section_choice dynamics = 'gungh0': not one of 'gungho' (the nonlinear core) "
      "and 'none'"}},
    {"&time\n timestep_start = 'garbage'\n/\n",
     {"bad.nml:2: &time timestep_start = 'garbage': not a time-step number (an integer in [1, "
      "2147483647])"}},
    {"&time timestep_end = '10',\n timestep_start = '-9223372036854775807' /\n",
     {"bad.nml:2: &time timestep_start = '-9223372036854775807': not a time-step number"}},
    {"&time timestep_end = '99999999999999999999' /\n",
     {"bad.nml:1: &time timestep_end = '99999999999999999999': not a time-step number"}},
    {"&planet\n radius = 0x1p3\n/\n",
     {"bad.nml:2: &planet radius = '0x1p3': not a number (Fortran: digits, one '.', an e or d "
      "exponent)"}},
    {"&planet gravity = inf /\n", {"bad.nml:1: &planet gravity = 'inf': not a number"}},
    /* mesh settings that disagree */
    {"&base_mesh prime_mesh_name = 'C2'\n filename = 'mesh_C24.nc' /\n",
     {"bad.nml:2: &base_mesh filename = 'mesh_C24.nc' names mesh C24, but prime_mesh_name = 'C2' "
      "(line 1) names C2: make them agree"}},
    {"&base_mesh prime_mesh_name = 'C4' /\n&multigrid\n multigrid_chain_nitems = 16\n/\n",
     {"bad.nml:3: &multigrid multigrid_chain_nitems = 16: mesh C4 allows at most 3 levels"}},
    /* issue 40: every value's syntax, whatever its key (also one gale does
     * not use); numbers that underflow or overflow */
    {"&transport\n min_val_method= = 1\n/\n",
     {"bad.nml:2: &transport min_val_method = '=': not a value"}},
    {"&transport enforce_min_value= -1*5 /\n",
     {"bad.nml:1: &transport enforce_min_value = '-1*5': a repeat count r*value needs r an "
      "unsigned integer"}},
    {"&io\n write_diag= 1.0q3\n/\n", {"bad.nml:2: &io write_diag = '1.0q3': not a number"}},
    {"&transport\n min_val_method = abc'\n/\n",
     {"bad.nml:2: &transport min_val_method = 'abc'': unbalanced quote"}},
    {"&transport\n min_val_method = 2*'abc\n/\n", {"bad.nml:2: &transport min_val_method = "
                                                    "'2*'abc': unbalanced quote '"}},
    {"&transport min_value = 2*1.0, 0*2.0 /\n",
     {"bad.nml:1: &transport min_value = '0*2.0': a repeat count r* needs r >= 1"}},
    {"&mixed_solver si_tolerance = 1.0d-400 /\n",
     {"bad.nml:1: &mixed_solver si_tolerance = '1.0d-400': underflows"}},
    {"&transport min_value = 1.0D-310 /\n", {"min_value = '1.0D-310': underflows"}},
    {"&mixed_solver si_tolerance = 1.0d400 /\n", {"si_tolerance = '1.0d400': overflows"}},
    /* a relative tolerance of 0 alone is never met */
    {"&helmholtz_solver\n si_pressure_tolerance = 0\n/\n",
     {"bad.nml:2: &helmholtz_solver si_pressure_tolerance = 0 with [solver] abs_tolerance = 0: a "
      "relative tolerance of 0 is never met without an absolute one"}},
    {"&mixed_solver si_tolerance = 0.0d0 /\n",
     {"bad.nml:1: &mixed_solver si_tolerance = 0.0d0 with [mixed_solver] abs_tolerance = 0: a "
      "relative tolerance of 0 is never met without an absolute one"}},
    /* keys that change the equations or the test: gale's value or an error */
    {"&formulation\n shallow = .maybe.\n/\n",
     {"bad.nml:2: &formulation shallow = '.maybe.': not a logical (.true. or .false.)"}},
    {GH "&formulation vector_invariant = maybe /\n",
     {"bad.nml:3: &formulation vector_invariant = 'maybe': not a logical (.true. or .false.)"}},
    {"&section_choice dynamics = 'gungho' /\n",
     {"bad.nml:1: &section_choice dynamics = 'gungho' needs &idealised test"}},
    {"&section_choice dynamics = 'gungho' /\n&idealised test = 'deep_baroclinic_wave' /\n"
     "&initial_wind\n profile = 'solid_body_rotation' /\n",
     {"bad.nml:4: &initial_wind profile = 'solid_body_rotation': gale's case baroclinic_wave sets "
      "its own wind, LFRic's profile 'deep_baroclinic_perturbed'"}},
    /* the transport: each field's form honoured or an error, LFRic's methods
     * among its own values */
    {"&section_choice dynamics = 'gungho' /\n&idealised test = 'deep_baroclinic_wave' /\n"
     "&transport\n field_names = 'density', 'potential_temperature'\n equation_form = 2, 2\n/\n",
     {"bad.nml:5: &transport equation_form = 2 for 'density': gale transports the density in "
      "conservative (flux) form only (1)"}},
    {"&section_choice dynamics = 'gungho' /\n&idealised test = 'deep_baroclinic_wave' /\n"
     "&transport\n equation_form = 1, 3, 1\n field_names = 'density', 'potential_temperature', "
     "'wind'\n/\n",
     {"bad.nml:4: &transport equation_form = 1 (conservative) for 'wind': gale transports it in "
      "advective form only"}},
    {"&section_choice dynamics = 'gungho' /\n&idealised test = 'deep_baroclinic_wave' /\n"
     "&transport equation_form = 4*3 /\n",
     {"bad.nml:3: &transport equation_form needs field_names"}},
    {"&section_choice dynamics = 'gungho' /\n&idealised test = 'deep_baroclinic_wave' /\n"
     "&transport equation_form = 1, 3\n field_names = 'density' /\n",
     {"bad.nml:3: &transport equation_form has 2 values, field_names (line 4) 1"}},
    {"&section_choice dynamics = 'gungho' /\n&idealised test = 'deep_baroclinic_wave' /\n"
     "&transport equation_form = 1, 7\n field_names = 'density', 'wind' /\n",
     {"bad.nml:3: &transport equation_form = '7' (field 'wind'): not 1 (conservative), 2 "
      "(advective) or 3 (consistent)"}},
    {GH "&transport panel_edge_treatment = 3*'extended_mush' /\n",
     {"bad.nml:3: &transport panel_edge_treatment = 'extended_mush': not one of LFRic's values "
      "(remapping none extended_mesh special_edges)"}},
    {GH "&transport\n scheme = 4*3, 9\n/\n",
     {"bad.nml:4: &transport scheme = '9': not one of LFRic's values (1 2 3)"}},
    {GH "&transport theta_variable = 'moist' /\n",
     {"bad.nml:3: &transport theta_variable = 'moist': gale's atmosphere is dry"}},
    {"&extrusion\n number_of_layer = 10\n/\n",
     {"bad.nml:2: &extrusion number_of_layer: not a key of LFRic's gravity_wave or GungHo namelists; did you mean 'number_of_layers'?"}},
    {"&extrusion domain_hieght = 1.0e4 /\n", {"&extrusion domain_hieght: not a key", "did you mean 'domain_height'?"}},
    {"&extrusions\n/\n", {"bad.nml:1: &extrusions: not a group of LFRic's gravity_wave or GungHo namelists; did you mean &extrusion?"}},
    {"&timestepping\n dt = 100.0\n alpha = 0.3\n/\n",
     {"bad.nml:3: &timestepping alpha = '0.3' (gale [timestepping] alpha = 0.3): out of range [0.5, 1]"}},
    {"&gravity_wave_constants speed_of_sound = 3.4O2 /\n", {"speed_of_sound = '3.4O2'", "not a number"}},
    {"&helmholtz_solver method = 'gmres' /\n",
     {"&helmholtz_solver method = 'gmres': no gale counterpart; allowed: 'cg', 'bicgstab', 'gcr', 'prec_only'"}},
    /* &multigrid: the chain starts at the prime mesh, halves N at every step
     * and has multigrid_chain_nitems meshes */
    {"&base_mesh prime_mesh_name = 'C16' /\n&multigrid\n chain_mesh_tags = 'C16', 'C4'\n/\n",
     {"bad.nml:3: &multigrid chain_mesh_tags = 'C16', 'C4': mesh 2, 'C4', should halve N of the "
      "mesh before it ('C16'): expected 'C8'"}},
    {"&base_mesh prime_mesh_name = 'C16' /\n&multigrid multigrid_chain_nitems = 4\n"
     " chain_mesh_tags = 'C16', 'C8', 'C4' /\n",
     {"bad.nml:3: &multigrid chain_mesh_tags = 'C16', 'C8', 'C4': 3 meshes, but "
      "multigrid_chain_nitems = 4 (line 2): expected as many meshes as multigrid_chain_nitems says"}},
    {"&base_mesh prime_mesh_name = 'C16' /\n&multigrid chain_mesh_tags = 'C8', 'C4' /\n",
     {"bad.nml:2: &multigrid chain_mesh_tags = 'C8', 'C4': the first mesh, 'C8', should be the "
      "prime mesh 'C16' (from &base_mesh prime_mesh_name)"}},
    {"&multigrid chain_mesh_tags = 'C16', 'C8' /\n",
     {"the first mesh, 'C16', should be the prime mesh 'C24' (gale's default [mesh] name"}},
    {"&base_mesh prime_mesh_name = 'C16' /\n&multigrid chain_mesh_tags = 'C16', 'coarse' /\n",
     {"chain_mesh_tags = 'C16', 'coarse': mesh 2, 'coarse', is not a cubed-sphere mesh name gale "
      "knows: expected C<N>"}},
    {"&base_mesh prime_mesh_name = 'C12' /\n&multigrid chain_mesh_tags = 'C12','C6','C3','C1' /\n",
     {"mesh 4, 'C1', should halve N of the mesh before it ('C3'): expected none: N = 3 is odd"}},
    {"&base_mesh prime_mesh_name = 'C16' /\n&multigrid chain_mesh_tags = 17*'C16' /\n",
     {"&multigrid chain_mesh_tags = 'C16', 'C16',", "(gale [multigrid] levels = 17): out of range [1, 16]"}},
    {"&base_mesh prime_mesh_name = 'C16' /\n&multigrid chain_mesh_tags = 'C16', 99999999999*'C8' /\n",
     {"chain_mesh_tags = 'C16', 'C8', 'C8',", "(gale [multigrid] levels = 100000000000): out of range [1, 16]"}},
    {"&multigrid multigrid_chain_nitems = 0 /\n",
     {"bad.nml:1: &multigrid multigrid_chain_nitems = '0' (gale [multigrid] levels = 0): out of range [1, 16]"}},
    {"&multigrid n_presmooth = 101 /\n",
     {"&multigrid n_presmooth = '101' (gale [multigrid] n_presmooth = 101): out of range [0, 100]"}},
    {"&multigrid smooth_relaxation = 0.0 /\n",
     {"&multigrid smooth_relaxation = '0.0' (gale [multigrid] smooth_relaxation = 0.0): out of range (0, 2]"}},
    {"&multigrid n_coarsesmooth = 0 /\n", {"[multigrid] n_coarsesmooth = 0): out of range [1, 1000]"}},
    /* a multigrid preconditioner needs l_multigrid, in either layout's group */
    {"&formulation l_multigrid = .false. /\n&helmholtz_solver\n preconditioner = 'multigrid'\n/\n",
     {"bad.nml:3: &helmholtz_solver preconditioner = 'multigrid' needs the multigrid mesh chain, but "
      "&formulation l_multigrid = .false. (line 1) has none", "set l_multigrid = .true. or choose another"}},
    {"&multigrid l_multigrid = F /\n&helmholtz_solver preconditioner = 'multigrid' /\n",
     {"&multigrid l_multigrid = .false. (line 1) has none"}},
    {"&formulation l_multigrid = yes /\n", {"&formulation l_multigrid = 'yes': not a logical"}},
    /* prec_only needs multigrid, from a namelist too */
    {"&helmholtz_solver method = 'prec_only', preconditioner = 'tridiagonal' /\n",
     {"bad.nml: [solver] method = prec_only with [solver] preconditioner = tridiagonal "
      "(&helmholtz_solver method and preconditioner)"}},
    {"&helmholtz_solver\n preconditioner = 'jacobi'\n/\n",
     {"&helmholtz_solver preconditioner = 'jacobi': no gale counterpart; allowed: 'none', 'diagonal', 'tridiagonal', 'multigrid'"}},
    {"&extrusion method = 'um_L70_50t_20s_40km' /\n",
     {"allowed: 'uniform', 'quadratic', 'geometric', 'dcmip', 'um_L38_29t_9s_40km', "
      "'um_L70_50t_20s_80km', 'um_L70_61t_9s_40km', 'um_L85_50t_35s_85km'"}},
    /* &mixed_solver: gale's methods, its one preconditioner and elimination */
    {"&mixed_solver\n si_preconditioner = 'diagonal'\n/\n",
     {"bad.nml:2: &mixed_solver si_preconditioner = 'diagonal': only 'pressure' is implemented"}},
    {GH "&mixed_solver eliminate_variables = 'analytic' /\n",
     {"bad.nml:3: &mixed_solver eliminate_variables = 'analytic': only 'discrete' is implemented",
      "gale eliminates u, w and b discretely"}},
    {"&mixed_solver si_method = 'bicgstab' /\n",
     {"&mixed_solver si_method = 'bicgstab': no gale counterpart; allowed: 'gcr', 'prec_only', 'gmres'"}},
    {"&mixed_solver gcrk = 11 /\n",
     {"&mixed_solver gcrk = '11' (gale [mixed_solver] gcrk = 11): out of range [1, 10]"}},
    {"&mixed_solver si_maximum_iterations = 0 /\n",
     {"(gale [mixed_solver] max_iterations = 0): out of range [1, 1000]"}},
    {"&mixed_solver si_tolerance = 1.5d0 /\n",
     {"&mixed_solver si_tolerance = '1.5d0' (gale [mixed_solver] tolerance = 1.5e0): out of range [0, 1]"}},
    {"&mixed_solver fail_on_non_converged = yes /\n",
     {"&mixed_solver fail_on_non_converged = 'yes': not a logical"}},
    {"&mixed_solver si_methd = 'gcr' /\n", {"&mixed_solver si_methd: not a key", "did you mean 'si_method'?"}},
    {GH "&formulation rotating = maybe /\n", {"bad.nml:3: &formulation rotating = 'maybe': not a logical"}},
    /* the Krylov gcr keeps at most 16 directions: refused naming the keys */
    {"&helmholtz_solver method = 'gcr'\n gcrk = 18 /\n",
     {"bad.nml:2: &helmholtz_solver gcrk = 18 with ",
      "bad.nml:1: &helmholtz_solver method = 'gcr': gale's gcr keeps at most 16 directions"}},
    /* GungHo values gale does not have */
    {"&section_choice dynamics = 'gungho' /\n&idealised\n test = 'warm_bubble'\n/\n",
     {"bad.nml:3: &idealised test = 'warm_bubble': gale's nonlinear core has no such case; it runs "
      "'deep_baroclinic_wave' (gale's baroclinic_wave), 'gravity_wave' (the DCMIP 3-1 gravity "
      "wave, gale's dcmip31) and 'isot_atm'"}},
    {"&extrusion\n method = 'um_L120_50t_70s_80km'\n/\n",
     {"bad.nml:2: &extrusion method = 'um_L120_50t_70s_80km': no gale counterpart; "
      "allowed: 'uniform'"}},
    {"&extrusion method = 'um_L85_50t_35s_85km', number_of_layers = 70 /\n",
     {"um_L85_50t_35s_85km with levels = 70 (&extrusion method and number_of_layers): that level "
      "set has 85 layers"}},
    {"&extrusion method = 'um_L38_29t_9s_40km', number_of_layers = 30 /\n",
     {"um_L38_29t_9s_40km with levels = 30 (&extrusion method and number_of_layers): that level "
      "set has 38 layers"}},
    {"&section_choice dynamics = 'gungho' /\n&timestepping outer_iterations = 21 /\n",
     {"bad.nml:2: &timestepping outer_iterations = '21' (gale [timestepping] outer_iterations = 21): out of range [1, 20]"}},
    {"&base_mesh geometry = 'planar' /\n", {"&base_mesh geometry = 'planar': gale models only 'spherical'"}},
    {"&helmholtz_solver monitor_convergence = yes /\n", {"monitor_convergence = 'yes': not a logical"}},
    {"&base_mesh\n prime_mesh_name = 'dynamics'\n filename = 'mesh.nc'\n/\n",
     {"bad.nml:2: &base_mesh: cannot tell the cubed-sphere mesh", "'dynamics'"}},
    {"&base_mesh prime_mesh_name = 'C0' /\n", {"prime_mesh_name = 'C0' (gale [mesh] name = C0): expected C<N> with N in [1, 8192]"}},
    {"&time timestep_end = 'x' /\n", {"&time timestep_end = 'x': not a time-step number"}},
    {"&time timestep_start = '10' timestep_end = '5' /\n", {"steps = -4): out of range"}},
    {"&extrusion\n number_of_layers = 10\n", {"&extrusion (opened on line 1): missing '/' at its end"}},
    {"&extrusion number_of_layers = 10, number_of_layers = 20 /\n", {"&extrusion number_of_layers: duplicate key"}},
    {"&planet /\n&planet /\n", {"bad.nml:2: &planet: group given twice (first on line 1)"}},
    {"&planet radius = 1.0, 2.0 /\n", {"&planet radius: expected one value, got 2"}},
    {"&planet radius = /\n", {"&planet radius: no value"}},
    {"&planet radius 1.0 /\n", {"&planet radius: expected '=' after the key name"}},
    {"&files diag_stem_name = 'abc\n/\n", {"&files diag_stem_name: unterminated string"}},
    {"radius = 1.0\n", {"bad.nml:1: expected '&group', found 'radius = 1.0'"}},
    {"&planet\n 1.0 /\n", {"bad.nml:2: &planet: expected a key name, found '1.0 /'"}},
};


/* Issue 39 item 4: each key that would run other equations either is gale's
 * value (accepted, not logged) or is refused, exit 2, naming the file, the
 * line, the group and the key and what gale would need; where LFRic's
 * gravity_wave never reads the key (gw_read 0), it has no effect there:
 * accepted and logged. */
static const struct {
    const char *group, *key, *bad, *good, *why;
    int gw_read; /* 1: refused in a gravity_wave namelist too */
} changing[] = {
    {"mixing", "viscosity", ".true.", ".false.", "gale has no viscosity", 0},
    {"mixing", "smagorinsky", "T", "F", "gale has no turbulence scheme", 0},
    {"base_mesh", "fplane", ".true.", ".false.", "gale has no f-plane", 1},
    {"formulation", "use_physics", ".true.", ".false.", "gale has no physics", 0},
    {"formulation", "moisture_formulation", "'traditional'", "'dry'", "gale's atmosphere is dry",
     0},
    {"formulation", "use_wavedynamics", ".false.", ".true.", "gale always solves the wave dynamics",
     0},
    {"formulation", "dlayer_on", ".true.", ".false.", "gale has no damping layer", 0},
    {"orography", "orog_init_option", "'analytic'", "'none'", "gale's surface is flat", 0},
    {"io", "checkpoint_read", ".true.", ".false.", "LFRic's it cannot read", 1},
    {"initialization", "init_option", "'fd_start_dump'", "'analytic'", "start dumps", 0},
    {"section_choice", "iau", ".true.", ".false.", "no data assimilation", 0},
    {"transport", "consistent_metric", ".true.", ".false.", "planar meshes only", 0},
};

/* &transport's method keys: gale's method of lines' values pass, LFRic's
 * others are refused unless [dynamics] transport_stand_in */
static const struct { const char *key, *bad, *good; } methods[] = {
    {"scheme", "2", "1"},
    {"splitting", "2", "1"},
    {"horizontal_method", "3", "1"},
    {"vertical_method", "2", "1"},
    {"operators", "'fem'", "'fv'"},
    {"runge_kutta_method", "'ssp2'", "'ssp3'"},
    {"fv_horizontal_order", "4", "2"},
    {"fv_vertical_order", "4", "2"},
    {"oned_reconstruction", ".true.", ".false."},
    {"panel_edge_treatment", "'extended_mesh'", "'remapping'"},
    {"reversible", ".true.", ".false."},
    {"cheap_update", ".true.", ".false."},
    {"si_outer_transport", "'advective'", "'none'"},
    {"substep_transport", "'adaptive'", "'off'"},
    {"use_density_predictor", ".true.", ".false."},
};

/* A GungHo (gh != 0) or gravity_wave namelist with &group key = value on
 * its line 4. */
static const char *kind_file(int gh, const char *group, const char *key, const char *value)
{
    char text[1024];
    if (strcmp(group, "section_choice") == 0)
        snprintf(text, sizeof text, "&section_choice\n dynamics = '%s'\n\n %s = %s\n/\n"
                 "&idealised test = 'deep_baroclinic_wave' /\n", gh ? "gungho" : "none", key,
                 value);
    else
        snprintf(text, sizeof text, "&section_choice dynamics = '%s' /\n"
                 "&idealised test = 'deep_baroclinic_wave' /\n&%s\n %s = %s\n/\n",
                 gh ? "gungho" : "none", group, key, value);
    return put_file("kind.nml", text);
}

static void test_namelist_refusals(void)
{
    gale_config_t c;
    char want[512], name[256];
    for (size_t i = 0; i < sizeof changing / sizeof changing[0]; i++) {
        const char *g = changing[i].group, *k = changing[i].key;
        snprintf(name, sizeof name, "%s.%s", g, k);
        snprintf(want, sizeof want, "kind.nml:4: &%s %s = %s: ", g, k, changing[i].bad);
        for (int gh = 1; gh >= 0; gh--) {
            int st = parse_captured(2, &c, kind_file(gh, g, k, changing[i].bad), 0, NULL);
            if (gh || changing[i].gw_read)
                CHECK(st == GALE_ERR_INPUT && lines(out) == 1 && strstr(out, want) &&
                          strstr(out, changing[i].why),
                      "%s namelist, &%s %s = %s: refused, naming it: %d\n%s",
                      gh ? "GungHo" : "gravity_wave", g, k, changing[i].bad, st, out);
            else { /* LFRic's gravity_wave reads no such key: no effect, logged */
                st = parse_captured(1, &c, kind_file(gh, g, k, changing[i].bad), 0, NULL);
                CHECK(st == GALE_OK && c.dynamics.equations == GALE_EQ_LINEAR && strstr(out, name),
                      "gravity_wave namelist, &%s %s = %s: no effect, logged: %d\n%s", g, k,
                      changing[i].bad, st, out);
            }
            st = parse_captured(1, &c, kind_file(gh, g, k, changing[i].good), 0, NULL);
            CHECK(st == GALE_OK && c.dynamics.equations == (gh ? GALE_EQ_NONLINEAR : GALE_EQ_LINEAR) &&
                      (!strstr(out, name) || (!gh && !changing[i].gw_read)),
                  "%s namelist, gale's &%s %s = %s: accepted%s: %d\n%s",
                  gh ? "GungHo" : "gravity_wave", g, k, changing[i].good,
                  gh ? ", not logged" : "", st, out);
        }
    }
    /* without effect in both kinds (leonard_term: LFRic's slow physics;
     * viscosity_mu: only with viscosity), whatever the value */
    static const char *const noeff[][3] = {{"mixing", "leonard_term", ".true."},
                                           {"mixing", "viscosity_mu", "1.0e3"},
                                           {"orography", "orography_order", "3"}};
    for (size_t i = 0; i < sizeof noeff / sizeof noeff[0]; i++)
        for (int gh = 0; gh < 2; gh++) {
            snprintf(name, sizeof name, "%s.%s", noeff[i][0], noeff[i][1]);
            int st = parse_captured(1, &c, kind_file(gh, noeff[i][0], noeff[i][1], noeff[i][2]), 0,
                                    NULL);
            CHECK(st == GALE_OK && strstr(out, name), "&%s %s = %s: no effect, logged: %d\n%s",
                  noeff[i][0], noeff[i][1], noeff[i][2], st, out);
        }
    /* the transport's method keys, one at a time, in a GungHo namelist */
    char *stand[] = {"--dynamics.transport_stand_in=true"};
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        const char *k = methods[i].key;
        snprintf(want, sizeof want, "kind.nml:4: &transport %s = %s: gale implements only the "
                 "method of lines (%s = ", k, methods[i].bad, k);
        int st = parse_captured(2, &c, kind_file(1, "transport", k, methods[i].bad), 0, NULL);
        CHECK(st == GALE_ERR_INPUT && lines(out) == 1 && strstr(out, want) &&
                  strstr(out, "--dynamics.transport_stand_in=true"),
              "&transport %s = %s: refused: %d\n%s", k, methods[i].bad, st, out);
        st = parse_captured(1, &c, kind_file(1, "transport", k, methods[i].bad), 1, stand);
        snprintf(want, sizeof want, "method of lines ([dynamics] transport_stand_in = true; "
                 "upwind-biased reconstruction, SSP-RK3, substeps at [dynamics] "
                 "transport_courant): transport.%s\n", k);
        CHECK(st == GALE_OK && strstr(out, want), "&transport %s = %s, stood in for: %d\n%s", k,
              methods[i].bad, st, out);
        st = parse_captured(1, &c, kind_file(1, "transport", k, methods[i].good), 0, NULL);
        CHECK(st == GALE_OK && !strstr(out, "stood in") && !strstr(out, k),
              "&transport %s = %s, gale's: %d\n%s", k, methods[i].good, st, out);
        /* a gravity_wave namelist transports nothing: not read */
        st = parse_captured(1, &c, kind_file(0, "transport", k, methods[i].bad), 0, NULL);
        snprintf(name, sizeof name, "transport.%s", k);
        CHECK(st == GALE_OK && strstr(out, name) && !strstr(out, "stood in"),
              "gravity_wave namelist, &transport %s = %s: not read: %d\n%s", k, methods[i].bad,
              st, out);
    }
    /* GungHo's example, unchanged: refused naming its &transport scheme (at
     * its line), run with the stand-in */
    int st = parse_captured(2, &c, GALE_TEST_DATA "/../lfric/gungho_example.nml", 0, NULL);
    CHECK(st == GALE_ERR_INPUT && lines(out) == 1 &&
              strstr(out, "gungho_example.nml:331: &transport scheme = 3: gale implements only "
                          "the method of lines") &&
              strstr(out, "--dynamics.transport_stand_in=true"),
          "GungHo's example without the stand-in: %d\n%s", st, out);
    st = parse_captured(1, &c, GALE_TEST_DATA "/../lfric/gungho_example.nml", 1, stand);
    CHECK(st == GALE_OK && c.dynamics.equations == GALE_EQ_NONLINEAR &&
              strstr(out, "transport.horizontal_method, transport.reversible, transport.scheme, "
                          "transport.splitting, transport.vertical_method\n"),
          "GungHo's example with the stand-in: %d\n%s", st, out);
    /* the DCMIP 3-1 perturbation's place and width: LFRic scales its 625 km
     * by pert_width_scaling and 1 / scaling_factor, in either order */
    st = parse_captured(1, &c, put_file("pert.nml",
                                        "&initial_temperature pert_width_scaling = 2.0d0\n"
                                        " pert_centre = -60.0 /\n&planet scaling_factor = 50.0 /\n"),
                        0, NULL);
    CHECK(st == GALE_OK && c.initial.half_width == 2.0 * 625000.0 / 50.0 &&
              c.initial.centre_lon == -60.0,
          "pert_width_scaling: %d half_width %g centre_lon %g\n%s", st, c.initial.half_width,
          c.initial.centre_lon, out);
}

/* Where a key came from: a namelist's file, line, group and key, until the
 * command line sets it; gale's [section] key otherwise. */
static void test_origin(void)
{
    gale_config_t c;
    char buf[GALE_STR + GALE_ORIGIN];
    char *ov[] = {"--dynamics.shallow=true"};
    int st = parse_captured(1, &c, put_file("origin.nml",
                                            "&section_choice dynamics = 'gungho' /\n"
                                            "&idealised test = 'isot_atm' /\n&formulation\n"
                                            " vector_invariant = T, shallow = .false.\n/\n"
                                            "&base_mesh prime_mesh_name = 'C12' /\n"),
                            1, ov);
    CHECK(st == GALE_OK, "origin.nml: %d\n%s", st, out);
    CHECK(gale_config_origin(&c, "dynamics", "vector_invariant", buf, sizeof buf) == 1 &&
              strstr(buf, "origin.nml:4: &formulation vector_invariant = T") &&
              !strstr(buf, "[dynamics]"),
          "vector_invariant from the namelist: %s", buf);
    CHECK(gale_config_origin(&c, "dynamics", "equations", buf, sizeof buf) == 1 &&
              strstr(buf, "origin.nml:1: &section_choice dynamics = 'gungho'"),
          "equations from &section_choice: %s", buf);
    CHECK(gale_config_origin(&c, "initial", "case", buf, sizeof buf) == 1 &&
              strstr(buf, "origin.nml:2: &idealised test = 'isot_atm'"), "case: %s", buf);
    CHECK(gale_config_origin(&c, "mesh", "name", buf, sizeof buf) == 1 &&
              strstr(buf, "origin.nml:6: &base_mesh prime_mesh_name = 'C12'"), "mesh: %s", buf);
    CHECK(gale_config_origin(&c, "dynamics", "shallow", buf, sizeof buf) == 0 &&
              strcmp(buf, "command line: [dynamics] shallow = true") == 0,
          "shallow from the command line: %s", buf);
    CHECK(gale_config_origin(&c, "solver", "method", buf, sizeof buf) == 0 &&
              strcmp(buf, "[solver] method = cg") == 0, "a default: %s", buf);
}

/* The namelist table: every key of LFRic's namelists has exactly one row
 * per namelist kind; the counts the docs give */
static void test_namelist_table(void)
{
    char why[256];
    int count[2][5];
    CHECK(gale_config_nml_check_(why, sizeof why, count) == 0, "the table: %s", why);
    int n[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int j = 0; j < 5; j++) n[k] += count[k][j];
    CHECK(n[0] == n[1] && n[0] > 900, "keys: %d in gravity_wave namelists, %d in GungHo's", n[0],
          n[1]);
    /* GungHo's transport methods may be stood in for; nothing in a
     * gravity_wave namelist is, and almost every key is read by GungHo */
    CHECK(count[0][4] == 0 && count[1][4] == 15 && count[1][0] == 2,
          "stood in: %d, %d; not read by GungHo: %d", count[0][4], count[1][4], count[1][0]);
}

static void test_namelist_errors(void)
{
    gale_config_t c;
    for (size_t i = 0; i < sizeof bad_nml / sizeof bad_nml[0]; i++) {
        int st = parse_captured(2, &c, put_file("bad.nml", bad_nml[i].text), 0, NULL);
        CHECK(st == GALE_ERR_INPUT, "nml case %zu: status %d", i, st);
        CHECK(lines(out) == 1, "nml case %zu: expected one line:\n%s", i, out);
        for (int w = 0; w < 2 && bad_nml[i].want[w]; w++)
            CHECK(strstr(out, bad_nml[i].want[w]), "nml case %zu: message lacks \"%s\":\n%s", i,
                  bad_nml[i].want[w], out);
    }
    /* a NUL byte, in a namelist or an INI file, is refused at its line
     * rather than silently ending the file (what follows it is bad too) */
    static const char nml[] = "&planet radius = 1.0 /\n&extrusion\0 number_of_layers = -1 /\n",
                      ini[] = "[planet]\nradius = 1.0\n\0\n[extrusion]\nlevels = -1\n";
    int st = parse_captured(2, &c, put_bytes("nul.nml", nml, sizeof nml - 1), 0, NULL);
    CHECK(st == GALE_ERR_INPUT && strstr(out, "nul.nml:2: a NUL byte: a configuration file is text"),
          "NUL in a namelist: %d\n%s", st, out);
    st = parse_captured(2, &c, put_bytes("nul.ini", ini, sizeof ini - 1), 0, NULL);
    CHECK(st == GALE_ERR_INPUT && strstr(out, "nul.ini:3: a NUL byte: a configuration file is text"),
          "NUL in an INI file: %d\n%s", st, out);
    /* CR line ends in an INI file: every line read, the line numbers right */
    st = parse_captured(2, &c, put_file("cr.ini", "# CR only\r[planet]\rradius = 1.0\rgravity = x\r"),
                        0, NULL);
    CHECK(st == GALE_ERR_INPUT && strstr(out, "cr.ini:4: [planet] gravity = 'x': not a number"),
          "CR in an INI file: %d\n%s", st, out);
    st = parse_captured(2, &c, put_file("crlf.ini", "[planet]\r\nradius = 2.0\r\n"), 0, NULL);
    CHECK(st == GALE_OK && c.planet.radius == 2.0, "CRLF in an INI file: %d\n%s", st, out);
    /* Fortran's repeat counts and null values, doubled quotes and zeros read */
    st = parse_captured(1, &c, put_file("fortran.nml", "&transport\n min_value = 3*, 2*1.0, 1, , 2\n"
                                        " min_val_method = 'it''s', enforce_min_value = -0.0d0\n"
                                        " dry_field_name = 2*\"a\"\n/\n"), 0, NULL);
    CHECK(st == GALE_OK, "repeat counts, nulls, doubled quotes: %d\n%s", st, out);
    /* no fixed limit on the keys of a group: 70 <field>_ancil_path keys
     * read, and a duplicate past the 64th still found at its line */
    char many[8192];
    size_t len = (size_t)snprintf(many, sizeof many, "&files\n");
    for (int i = 0; i < 70; i++)
        len += (size_t)snprintf(many + len, sizeof many - len, " f%d_ancil_path = 'a'\n", i);
    snprintf(many + len, sizeof many - len, "/\n");
    st = parse_captured(1, &c, put_file("many.nml", many), 0, NULL);
    CHECK(st == GALE_OK, "70 ancil paths: %d\n%s", st, out);
    snprintf(many + len, sizeof many - len, " f3_ancil_path = 'b'\n/\n");
    st = parse_captured(2, &c, put_file("many.nml", many), 0, NULL);
    CHECK(st == GALE_ERR_INPUT && strstr(out, "many.nml:72: &files f3_ancil_path: duplicate key"),
          "70 ancil paths and a duplicate: %d\n%s", st, out);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_defaults();
    test_types();
    test_precedence();
    test_bad_input();
    test_dump();
    test_print_keys();
    test_namelist();
    test_namelist_layouts();
    test_namelist_gungho();
    test_namelist_errors();
    test_namelist_refusals();
    test_origin();
    test_namelist_table();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
    return gale_test_result("test_config");
}
