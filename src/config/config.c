/* Configuration: defaults, the file (an INI file, config_ini.c, or an LFRic
 * namelist, config_nml.c), command-line overrides, the rules between keys,
 * the resolved dump and the key table's help. Everything is driven by
 * gale_keys[] (config_keys.c) through the value layer (config_value.c). */
#include "config_internal.h"
#include "gale_base.h"
#include "gale_config.h"
#include "gale_config_mpi.h"
#include "gale_extrusion.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define GALE_CONFIG_MAX_BYTES (1 << 20)

static const char *const type_names[] = {"int", "real", "bool", "string", "enum", "mesh"};

void gale_config_defaults(gale_config_t *cfg)
{
    char why[256];
    memset(cfg, 0, sizeof *cfg); /* padding too: configs compare with memcmp */
    for (int i = 0; i < gale_nkeys; i++)
        (void)gale_config_parse_value_(&gale_keys[i], gale_keys[i].def, cfg, why, sizeof why);
}

/* ---------------- command-line overrides ---------------- */

static int apply_override(gale_config_t *cfg, const char *raw)
{
    /* messages quote the argument with its control characters shown as '?'
     * (a newline would split the message) */
    char arg[2 * GALE_STR + 8];
    snprintf(arg, sizeof arg, "%s", raw);
    for (char *c = arg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    char buf[2 * GALE_STR], why[1024], sugg[1024];
    const char *cand[MAXC];
    if (strlen(raw) >= sizeof buf)
        GALE_ERROR(GALE_ERR_INPUT, "command line: '%.40s...': longer than %zu characters", arg,
                   sizeof buf - 1);
    snprintf(buf, sizeof buf, "%s", raw);
    char *s = strncmp(buf, "--", 2) == 0 ? buf + 2 : buf;
    char *eq = strchr(s, '='), *dot = strchr(s, '.');
    if (!eq || !dot || dot > eq)
        GALE_ERROR(GALE_ERR_INPUT, "command line: %s: expected --section.key=value", arg);
    *eq = *dot = '\0';
    const char *section = s, *key = dot + 1;
    if (!gale_config_has_section_(section)) {
        gale_config_suggest_(sugg, sizeof sugg, section, cand, gale_config_section_names_(cand), "[", "]");
        GALE_ERROR(GALE_ERR_INPUT, "command line: %s: unknown section [%s]; %s", arg, section,
                   sugg);
    }
    const gale_key_t *k = gale_config_find_key_(section, key);
    if (!k) {
        gale_config_suggest_(sugg, sizeof sugg, key, cand, gale_config_section_keys_(section, cand), "'", "'");
        GALE_ERROR(GALE_ERR_INPUT, "command line: %s: unknown key [%s] %s; %s", arg, section, key,
                   sugg);
    }
    char *val;
    if (gale_config_value_text_(eq + 1, 0, &val, why, sizeof why) || gale_config_parse_value_(k, val, cfg, why, sizeof why))
        GALE_ERROR(GALE_ERR_INPUT, "command line: %s: %s", arg, why);
    gale_config_set_origin_(cfg, section, key, -1, ""); /* no longer the file's */
    return GALE_OK;
}

/* ---------------- public entry points ---------------- */

/* Configuration files are small: a device, a pipe or a directory, or a file
 * over GALE_CONFIG_MAX_BYTES, is refused before reading (gale run /dev/zero
 * read without end). A missing file is left to the reader's message. */
static int check_file(const char *path)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        /* "gale run mesh.name=C4": an override without its leading -- */
        const char *eq = strchr(path, '='), *dot = strchr(path, '.');
        if (errno == ENOENT && eq && dot && dot < eq && strcspn(path, "/") > (size_t)(eq - path) &&
            *path != '-')
            GALE_ERROR(GALE_ERR_INPUT, "cannot open configuration file '%s': %s; did you mean "
                       "--%s? (overrides start with --)", path, strerror(ENOENT), path);
        return GALE_OK;
    }
    if (!S_ISREG(sb.st_mode))
        GALE_ERROR(GALE_ERR_INPUT, "configuration file '%s' is not a regular file (%s)", path,
                   gale_file_kind(sb.st_mode));
    if (sb.st_size > GALE_CONFIG_MAX_BYTES)
        GALE_ERROR(GALE_ERR_INPUT,
                   "configuration file '%s' is %lld bytes: configuration files are at most %d "
                   "bytes (1 MiB)", path, (long long)sb.st_size, GALE_CONFIG_MAX_BYTES);
    return GALE_OK;
}

/* ---------------- the configuration as a whole ---------------- */

/* Rules between keys, checked once defaults, file and overrides are all in:
 * a key may be fine alone and wrong with another. [mixed_solver]'s gcr and
 * prec_only go with any [solver] (the preconditioner's inner Helmholtz
 * solve is whatever [solver] says), its pipelined_gcr only with a linear
 * one, and with [dynamics] mass_matrix = lumped its keys are unused, not
 * wrong. */
static int check_whole(const gale_config_t *c)
{
    const char *pc = gale_config_choice("solver", "preconditioner", c->solver.preconditioner);
    size_t len = strlen(c->source);
    const int nml = len > 4 && strcasecmp(c->source + len - 4, ".nml") == 0;
    char a[GALE_STR + GALE_ORIGIN], b[GALE_STR + GALE_ORIGIN];
    if (strcmp(gale_config_choice("solver", "method", c->solver.method), "prec_only") == 0 &&
        strcmp(pc, "multigrid") != 0)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s%s[solver] method = prec_only with [solver] preconditioner = %s%s: prec_only "
                   "applies one multigrid V-cycle per solve and needs preconditioner = multigrid",
                   c->source, len ? ": " : "", pc,
                   nml ? " (&helmholtz_solver method and preconditioner)" : "");
    /* pipelined_gcr recurs the next preconditioned residual from P applied
     * to the new image, which holds for a linear P: one V-cycle, not a
     * Krylov solve (docs/numerics.md, "The mixed solve") */
    if (c->dynamics.mass_matrix == GALE_MASS_CONSISTENT &&
        strcmp(gale_config_choice("mixed_solver", "method", c->mixed_solver.method),
               "pipelined_gcr") == 0 &&
        strcmp(gale_config_choice("solver", "method", c->solver.method), "prec_only") != 0) {
        gale_config_origin(c, "mixed_solver", "method", a, sizeof a);
        gale_config_origin(c, "solver", "method", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s with %s: pipelined_gcr recurs P r from P applied to the "
                   "new image, which needs a linear preconditioner: [solver] method = prec_only "
                   "(one multigrid V-cycle), not a Krylov solve", a, b);
    }
    _Static_assert(GALE_EXT_UM_L85 == (int)GALE_EXTRUDE_UM_L85, "the extrusion enums' order");
    const int fixed = gale_extrusion_fixed_layers((gale_extrude_t)c->extrusion.method);
    if (fixed && c->extrusion.levels != fixed)
        GALE_ERROR(GALE_ERR_INPUT,
                   "%s%s[extrusion] method = %s with levels = %d%s: that level set has %d layers",
                   c->source, len ? ": " : "",
                   gale_config_choice("extrusion", "method", c->extrusion.method),
                   c->extrusion.levels, nml ? " (&extrusion method and number_of_layers)" : "",
                   fixed);
    /* the Krylov solver keeps at most 16 gcr directions (solver/krylov.c):
     * refused here, where the key's origin is known */
    if (strcmp(gale_config_choice("solver", "method", c->solver.method), "gcr") == 0 &&
        c->solver.gcr_restart > 16) {
        gale_config_origin(c, "solver", "gcr_restart", a, sizeof a);
        gale_config_origin(c, "solver", "method", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s with %s: gale's gcr keeps at most 16 directions before a "
                   "restart (LFRic's example's 18 is for its bicgstab, which keeps none)", a, b);
    }
    /* a relative tolerance of 0 is met only by an exact solve, unless an
     * absolute one stops it: the run would fail at its first solve */
    static const char *const solvers[2] = {"solver", "mixed_solver"};
    const double rel[2] = {c->solver.tolerance, c->mixed_solver.tolerance},
                 abs_[2] = {c->solver.abs_tolerance, c->mixed_solver.abs_tolerance};
    for (int i = 0; i < 2; i++)
        if (rel[i] == 0 && abs_[i] == 0) {
            gale_config_origin(c, solvers[i], "tolerance", a, sizeof a);
            gale_config_origin(c, solvers[i], "abs_tolerance", b, sizeof b);
            GALE_ERROR(GALE_ERR_INPUT, "%s with %s: a relative tolerance of 0 is never met "
                       "without an absolute one: give a tolerance in (0, 1] or a positive "
                       "abs_tolerance", a, b);
        }
    /* the writer's ring is one allocation of buffers x buffer_mib per rank
     * (io/writer.c); the memory check at set-up compares it with the node */
    if (c->io.buffers * c->io.buffer_mib > GALE_RING_MAX_MIB) {
        gale_config_origin(c, "io", "buffers", a, sizeof a);
        gale_config_origin(c, "io", "buffer_mib", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s with %s: an output ring of %.0f MiB per rank; buffers x "
                   "buffer_mib is at most %d MiB (1 TiB)", a, b,
                   c->io.buffers * c->io.buffer_mib, GALE_RING_MAX_MIB);
    }
    /* I/O servers write the shared layout, whole files per pool; the client
     * buffer is theirs */
    if (c->io.servers > 0 && strcmp(gale_config_choice("io", "mode", c->io.mode), "shared") != 0) {
        gale_config_origin(c, "io", "servers", a, sizeof a);
        gale_config_origin(c, "io", "mode", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s with %s: I/O servers write the shared layout (one file an "
                   "output time); use [io] mode = shared", a, b);
    }
    if (c->io.servers > 0 && c->io.servers % c->io.pools != 0) {
        gale_config_origin(c, "io", "servers", a, sizeof a);
        gale_config_origin(c, "io", "pools", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s with %s: the servers must divide into pools of equal size",
                   a, b);
    }
    static const char *const server_keys[2] = {"pools", "buffer_size"};
    const int server_set[2] = {c->io.pools != 1, c->io.buffer_size != 0};
    for (int i = 0; i < 2; i++)
        if (c->io.servers == 0 && server_set[i]) {
            gale_config_origin(c, "io", server_keys[i], a, sizeof a);
            GALE_ERROR(GALE_ERR_INPUT, "%s applies to I/O servers only: set [io] servers > 0 (the "
                       "writers' ring is [io] buffers x buffer_mib)", a);
        }
    if (c->io.buffer_size > 0 && c->io.buffer_size / c->io.buffers < (c->extrusion.levels + 1) * 8) {
        gale_config_origin(c, "io", "buffer_size", a, sizeof a);
        gale_config_origin(c, "io", "buffers", b, sizeof b);
        GALE_ERROR(GALE_ERR_INPUT, "%s with %s: a piece of %d bytes cannot hold one column of "
                   "%d levels (%d bytes)", a, b, c->io.buffer_size / c->io.buffers,
                   c->extrusion.levels + 1, (c->extrusion.levels + 1) * 8);
    }
    GALE_CALL(gale_output_check_fields(c));
    /* LFRic's transport methods that gale's method of lines does not
     * implement: refused unless the user lets it stand in for them */
    if (c->stand_in.first[0] && !c->dynamics.transport_stand_in)
        GALE_ERROR(GALE_ERR_INPUT, "%s; --dynamics.transport_stand_in=true lets gale's method of "
                   "lines stand in for LFRic's (the log then lists every such key)",
                   c->stand_in.first);
    if (c->stand_in.keys[0])
        gale_log(GALE_LOG_INFO, "LFRic namelist %s: LFRic's transport methods, stood in for by "
                 "gale's method of lines ([dynamics] transport_stand_in = true; upwind-biased "
                 "reconstruction, SSP-RK3, substeps at [dynamics] transport_courant): %s",
                 c->source, c->stand_in.keys);
    return GALE_OK;
}

int gale_config_parse(gale_config_t *cfg, const char *path, int noverrides, char **overrides)
{
    gale_config_t c; /* filled aside so that *cfg is untouched on failure */
    gale_config_defaults(&c);
    if (path) {
        GALE_CALL(check_file(path));
        size_t len = strlen(path);
        if (len > 4 && strcasecmp(path + len - 4, ".nml") == 0)
            GALE_CALL(gale_config_read_nml_(&c, path));
        else
            GALE_CALL(gale_config_read_ini_(&c, path));
        snprintf(c.source, sizeof c.source, "%s", path);
    }
    for (int i = 0; i < noverrides; i++) GALE_CALL(apply_override(&c, overrides[i]));
    GALE_CALL(check_whole(&c));
    GALE_CALL(gale_config_emulate_(&c));
    memcpy(cfg, &c, sizeof c);
    return GALE_OK;
}

int gale_config_load(gale_config_t *cfg, const char *path, int noverrides, char **overrides,
                     MPI_Comm comm)
{
    int rank, st = GALE_OK;
    GALE_MPI(MPI_Comm_rank(comm, &rank));
    /* Rank 0 alone reads and reports; the others learn the outcome from the
     * broadcast status, so bad input stops every rank with one message and no hang. */
    if (rank == 0) st = gale_config_parse(cfg, path, noverrides, overrides);
    GALE_MPI(MPI_Bcast(&st, 1, MPI_INT, 0, comm));
    if (st != GALE_OK) return st;
    GALE_MPI(MPI_Bcast(cfg, (int)sizeof *cfg, MPI_BYTE, 0, comm)); /* same binary on every rank */
    return GALE_OK;
}

/* snprintf-style append: *len counts what the whole text needs. */
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(*len < n ? buf + *len : NULL, *len < n ? n - *len : 0, fmt, ap);
    va_end(ap);
    if (m > 0) *len += (size_t)m;
}

size_t gale_config_dump(const gale_config_t *cfg, char *buf, size_t n)
{
    size_t len = 0;
    char v[GALE_STR + 8];
    if (n) buf[0] = '\0';
    put(buf, n, &len, "# gale resolved configuration%s%s\n", cfg->source[0] ? " from " : "",
        cfg->source);
    for (int i = 0; i < gale_nkeys; i++) {
        const gale_key_t *k = &gale_keys[i];
        if (i == 0 || strcmp(k->section, gale_keys[i - 1].section) != 0)
            put(buf, n, &len, "%s[%s]\n", i ? "\n" : "", k->section);
        gale_config_format_value_(k, cfg, v, sizeof v);
        put(buf, n, &len, "%s = %s\n", k->key, v);
    }
    return len;
}

/* Markdown table cells: '|' and '<' would break the table or vanish as HTML. */
static void md_escape(const char *s, char *out, size_t n)
{
    size_t j = 0;
    for (; *s && j + 2 < n; s++) {
        if (*s == '|' || *s == '<') out[j++] = '\\';
        out[j++] = *s;
    }
    out[j] = '\0';
}

void gale_config_print_keys(int md)
{
    char range[96], allowed[600], a[1200], h[1024];
    if (md)
        puts("| section | key | type | default | allowed | description |\n"
             "|---|---|---|---|---|---|");
    else
        puts("gale configuration keys: [section] key = value in an INI file, or\n"
             "--section.key=value on the command line (defaults < file < command line).");
    for (int i = 0; i < gale_nkeys; i++) {
        const gale_key_t *k = &gale_keys[i];
        switch (k->type) {
        case GALE_KT_INT:
        case GALE_KT_REAL: gale_config_fmt_range_(k, allowed, sizeof allowed); break;
        case GALE_KT_MESH:
            gale_config_fmt_range_(k, range, sizeof range);
            snprintf(allowed, sizeof allowed, "C<N>, N in %s", range);
            break;
        case GALE_KT_BOOL: snprintf(allowed, sizeof allowed, "true|false"); break;
        case GALE_KT_STRING:
            snprintf(allowed, sizeof allowed, "text, < %d characters", GALE_STR);
            break;
        default: snprintf(allowed, sizeof allowed, "%s", k->choices); break;
        }
        if (md) {
            md_escape(allowed, a, sizeof a);
            md_escape(k->help, h, sizeof h);
            printf("| %s | %s | %s | `%s` | %s | %s |\n", k->section, k->key, type_names[k->type],
                   k->def, a, h);
        } else {
            if (i == 0 || strcmp(k->section, gale_keys[i - 1].section) != 0)
                printf("\n[%s]\n", k->section);
            printf("  %-22s %-6s default %-14s %s\n      %s\n", k->key, type_names[k->type], k->def,
                   allowed, k->help);
        }
    }
}
