/* gale partition: statistics of a partition of C<N> into P ranks, for
 * planning runs on machines one does not have. Serial: it never initialises
 * MPI, so it runs on a login node without mpiexec. */
#include "gale_app.h"
#include "gale_base.h"
#include "gale_config.h"
#include "gale_model.h"
#include "gale_chain.h"
#include "gale_partition.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 8192 /* gale_cs_init's limit */

static void help(FILE *out)
{
    fprintf(out,
            "usage: gale partition --mesh C<N> --levels L --ranks P [--halo-depth d]\n"
            "                      [--method sfc|panel] [--multigrid M] [--json]\n"
            "       gale partition --config FILE [--section.key=value ...] --ranks P [...]\n"
            "\n"
            "Partition statistics without MPI and without running the model: owned cells,\n"
            "halo cells per depth, halo edges, neighbour ranks, halo bytes per exchange\n"
            "(one cell field and one edge field, L levels of doubles), imbalance and the\n"
            "number of messages per exchange, as min/mean/max over ranks.\n"
            "\n"
            "  --mesh C<N>        cubed sphere with N x N cells per panel (1 <= N <= %d)\n"
            "  --levels L         vertical levels (>= 1)\n"
            "  --ranks P          ranks, 1 .. 6 N^2\n"
            "  --halo-depth d     halo depth, 1 .. %d (default 1)\n"
            "  --method sfc|panel space-filling curve, any P (default); or panel blocks,\n"
            "                     P = 1 or 6 px py\n"
            "  --multigrid M      the nested partition of a multigrid run with [multigrid]\n"
            "                     levels = M: the coarsest mesh of the chain partitioned, finer\n"
            "                     cells inheriting its ranks (docs/multigrid.md)\n"
            "  --config FILE      a gale run configuration (INI or LFRic namelist): its mesh,\n"
            "                     levels, halo depth, partitioning method and multigrid levels\n"
            "                     unless given above, and its solvers, core and output for\n"
            "                     the memory estimate (default: gale run's defaults, no output)\n"
            "  --section.key=value  overrides of that configuration, as for gale run\n"
            "  --json             one JSON object instead of the table\n"
            "\n"
            "Options take their value as the next argument or after '='.\n"
            "docs/partitioning.md explains the numbers.\n",
            MAX_N, GALE_MAX_DEPTH);
}

static int bad(const char *opt, const char *val, const char *allowed)
{
    fprintf(stderr, "gale partition: %s '%s': %s\n", opt, val, allowed);
    return 2;
}

static void json_mmm(const char *key, gale_mmm_t m, int comma)
{
    printf("\"%s\": {\"min\": %.10g, \"mean\": %.10g, \"max\": %.10g}%s", key, m.min, m.mean,
           m.max, comma ? ", " : "");
}

static void row(const char *what, gale_mmm_t m, double scale, const char *fmt)
{
    char a[32], b[32], c[32];
    snprintf(a, sizeof a, fmt, m.min / scale);
    snprintf(b, sizeof b, scale == 1 ? "%.2f" : "%.4f", m.mean / scale);
    snprintf(c, sizeof c, fmt, m.max / scale);
    printf("  %-36s %12s %12s %12s\n", what, a, b, c);
}

/* gale run's estimate for this mesh, levels, ranks and halo depth: of the
 * configuration given (--config and overrides), else of the defaults with no
 * output (docs/memory.md) */
static const gale_config_t *run_cfg;

static double memory_estimate(int n, int nlev, int P, int depth)
{
    gale_config_t c;
    if (run_cfg) {
        c = *run_cfg;
    } else {
        gale_config_defaults(&c);
        c.diagnostics.fields[0] = '\0';
    }
    c.mesh.n = n, c.extrusion.levels = nlev, c.halo.depth = depth;
    return gale_model_memory_estimate(&c, P);
}

/* An I/O server's, serving P model ranks: 0 without servers */
static double server_estimate(int n, int nlev, int P)
{
    if (!run_cfg) return 0;
    gale_config_t c = *run_cfg;
    c.mesh.n = n, c.extrusion.levels = nlev;
    return gale_model_server_memory_estimate(&c, P);
}

static const char *estimate_of(void)
{
    return !run_cfg ? "default solver, no output" : run_cfg->source[0] ? run_cfg->source
                                                                        : "defaults + overrides";
}

static void print_table(int n, const gale_cs_t *cs, const gale_partition_t *part,
                        const gale_part_stats_t *st, const gale_chain_t *ch, double secs)
{
    const double mib = 1024.0 * 1024.0;
    printf("gale partition: C%d (%lld cells), %d levels, %d ranks, method %s", n,
           (long long)cs->ncells, st->nlev, st->nranks, gale_part_method_name(part->method));
    if (part->method == GALE_PART_PANEL && part->px > 0)
        printf(" (%d x %d blocks per panel)", part->px, part->py);
    printf(", halo depth %d\n", st->depth);
    if (ch->levels > 1)
        printf("multigrid: %d levels, C%d partitioned (%lld cells), finer cells inherit its ranks\n",
               ch->levels, ch->cs[ch->levels - 1].n, (long long)ch->cs[ch->levels - 1].ncells);
    printf("\n");
    printf("  %-36s %12s %12s %12s\n", "per rank", "min", "mean", "max");
    row("owned cells", st->owned, 1, "%.0f");
    for (int d = 1; d <= st->depth; d++) {
        char what[48];
        snprintf(what, sizeof what, "halo cells at depth %d", d);
        row(what, st->halo[d], 1, "%.0f");
    }
    row("halo edges (not owned, all depths)", st->halo_edges, 1, "%.0f");
    row("neighbour ranks", st->nbrs, 1, "%.0f");
    char what[64];
    snprintf(what, sizeof what, "halo MiB/exchange, cell field x %d", st->nlev);
    row(what, st->bytes_cell, mib, "%.4f");
    snprintf(what, sizeof what, "halo MiB/exchange, edge field x %d", st->nlev);
    row(what, st->bytes_edge, mib, "%.4f");
    printf("\n  imbalance (max owned / mean - 1)     %.4f\n", st->imbalance);
    printf("  messages per cell-field exchange     %.0f (all ranks)\n", st->total_messages);
    printf("  memory per rank for gale run         %.1f MiB (estimate: %s)\n",
           memory_estimate(n, st->nlev, st->nranks, st->depth) / mib, estimate_of());
    if (run_cfg && run_cfg->io.servers > 0)
        printf("  memory per I/O server                %.1f MiB (%d more ranks: [io] servers)\n",
               server_estimate(n, st->nlev, st->nranks) / mib, run_cfg->io.servers);
    printf("  time                                 %.2f s\n", secs);
}

/* a JSON string: the configuration's path may hold quotes or backslashes */
static void json_text(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", (unsigned char)*s);
        else putchar(*s);
    }
    putchar('"');
}

static void print_json(int n, const gale_partition_t *part, const gale_part_stats_t *st,
                       const gale_chain_t *ch, double secs)
{
    printf("{\"mesh\": \"C%d\", \"levels\": %d, \"ranks\": %d, \"method\": \"%s\", "
           "\"halo_depth\": %d, \"multigrid_levels\": %d, ",
           n, st->nlev, st->nranks, gale_part_method_name(part->method), st->depth, ch->levels);
    json_mmm("owned", st->owned, 1);
    printf("\"halo_cells\": {");
    for (int d = 1; d <= st->depth; d++) {
        char key[8];
        snprintf(key, sizeof key, "%d", d);
        json_mmm(key, st->halo[d], d < st->depth);
    }
    printf("}, ");
    json_mmm("halo_edges", st->halo_edges, 1);
    json_mmm("neighbours", st->nbrs, 1);
    json_mmm("halo_bytes_cell", st->bytes_cell, 1);
    json_mmm("halo_bytes_edge", st->bytes_edge, 1);
    printf("\"imbalance\": %.10g, \"messages_per_exchange\": %.0f, "
           "\"memory_estimate_bytes_per_rank\": %.0f, \"memory_estimate_of\": ",
           st->imbalance, st->total_messages, memory_estimate(n, st->nlev, st->nranks, st->depth));
    json_text(estimate_of());
    printf(", \"memory_estimate_bytes_per_io_server\": %.0f, \"seconds\": %.3f}\n",
           server_estimate(n, st->nlev, st->nranks), secs);
}

int gale_cmd_partition(int argc, char **argv)
{
    int n = 0, nlev = 0, P = 0, depth = 0, method = -1, json = 0, mglev = 0;
    const char *ranks_arg = NULL, *config = NULL;
    char **overrides = calloc((size_t)argc + 1, sizeof *overrides);
    int noverrides = 0, rc = 2;
    if (!overrides) return 1;
    for (int a = 1; a < argc; a++) {
        char opt[64];
        const char *val = NULL, *eq = strchr(argv[a], '=');
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            help(stdout);
            rc = 0;
            goto done;
        }
        if (strcmp(argv[a], "--json") == 0) {
            json = 1;
            continue;
        }
        /* --opt value or --opt=value */
        size_t len = eq ? (size_t)(eq - argv[a]) : strlen(argv[a]);
        if (len >= sizeof opt) len = sizeof opt - 1;
        memcpy(opt, argv[a], len);
        opt[len] = 0;
        /* --section.key=value: an override of the run configuration */
        const char *dot = strchr(opt, '.');
        if (dot && eq && opt[0] == '-' && opt[1] == '-') {
            overrides[noverrides++] = argv[a];
            continue;
        }
        int known = strcmp(opt, "--mesh") == 0 || strcmp(opt, "--levels") == 0 ||
                    strcmp(opt, "--ranks") == 0 || strcmp(opt, "--halo-depth") == 0 ||
                    strcmp(opt, "--method") == 0 || strcmp(opt, "--multigrid") == 0 ||
                    strcmp(opt, "--config") == 0;
        if (!known) {
            fprintf(stderr, "gale partition: unknown option '%s' (allowed: --mesh, --levels, "
                            "--ranks, --halo-depth, --method, --multigrid, --config, "
                            "--section.key=value, --json, --help)\n", argv[a]);
            goto done;
        }
        if (eq) val = eq + 1;
        else if (a + 1 < argc) val = argv[++a];
        else {
            fprintf(stderr, "gale partition: option %s needs a value (see gale partition --help)\n",
                    opt);
            goto done;
        }
        if (strcmp(opt, "--mesh") == 0) {
            if ((val[0] != 'C' && val[0] != 'c') || gale_parse_int(val + 1, 1, MAX_N, &n)) {
                rc = bad(opt, val, "expected C<N> with N a whole number from 1 to 8192, e.g. C24");
                goto done;
            }
        } else if (strcmp(opt, "--levels") == 0) {
            if (gale_parse_int(val, 1, INT_MAX, &nlev)) {
                rc = bad(opt, val, "must be a whole number >= 1");
                goto done;
            }
        } else if (strcmp(opt, "--ranks") == 0) {
            if (gale_parse_int(val, 1, INT_MAX, &P)) {
                rc = bad(opt, val, "must be a whole number >= 1 (and at most 6 N^2)");
                goto done;
            }
            ranks_arg = val;
        } else if (strcmp(opt, "--halo-depth") == 0) {
            if (gale_parse_int(val, 1, GALE_MAX_DEPTH, &depth)) {
                rc = bad(opt, val, "must be 1, 2 or 3");
                goto done;
            }
        } else if (strcmp(opt, "--multigrid") == 0) {
            if (gale_parse_int(val, 1, GALE_CHAIN_MAX, &mglev)) {
                rc = bad(opt, val, "must be a whole number of levels from 1 to 16");
                goto done;
            }
        } else if (strcmp(opt, "--config") == 0) {
            config = val;
        } else if ((method = gale_part_method_parse(val)) < 0) {
            rc = bad(opt, val, "allowed are sfc and panel");
            goto done;
        }
    }
    /* a run configuration: what the options leave open comes from it, as
     * gale run would set it up (src/model/model.c) */
    gale_config_t cfg;
    if (config || noverrides) {
        if (gale_config_parse(&cfg, config, noverrides, overrides) != GALE_OK) goto done;
        int run_depth;
        if (gale_model_halo_depth(&cfg, &run_depth) != GALE_OK) goto done;
        if (!n) n = cfg.mesh.n;
        if (!nlev) nlev = cfg.extrusion.levels;
        if (!depth) depth = run_depth;
        if (method < 0) method = cfg.partitioning.method;
        if (!mglev)
            mglev = cfg.solver.preconditioner == GALE_PC_MULTIGRID ? cfg.multigrid.levels : 1;
        run_cfg = &cfg;
    }
    if (!depth) depth = 1;
    if (method < 0) method = GALE_PART_SFC;
    if (!mglev) mglev = 1;
    if (!n || !nlev || !P) {
        fprintf(stderr, "gale partition: missing %s (usage: gale partition --mesh C<N> --levels L "
                        "--ranks P [--halo-depth d] [--method sfc|panel] [--multigrid M] [--json]"
                        "; --config FILE gives the mesh and levels)\n",
                !n ? "--mesh" : !nlev ? "--levels" : "--ranks");
        goto done;
    }
    if ((int64_t)P > 6 * (int64_t)n * n) {
        fprintf(stderr, "gale partition: --ranks '%s': must be between 1 and %lld for C%d "
                        "(6 N^2, one cell per rank)\n", ranks_arg, 6 * (long long)n * n, n);
        goto done;
    }

    double t0 = gale_wtime();
    gale_cs_t cs;
    gale_chain_t ch; /* one level: the ordinary partition */
    gale_part_stats_t st;
    int err = gale_cs_init(&cs, n, 1.0);
    if (!err) err = gale_chain_build(&ch, &cs, gale_chain_levels(n, mglev), P, method);
    if (err) {
        rc = err == GALE_ERR_INPUT ? 2 : 1;
        goto done;
    }
    err = gale_partition_stats(&cs, &ch.part[0], depth, nlev, &st);
    double secs = gale_wtime() - t0;
    if (!err) {
        if (json) print_json(n, &ch.part[0], &st, &ch, secs);
        else print_table(n, &cs, &ch.part[0], &st, &ch, secs);
    }
    gale_chain_free(&ch);
    rc = err == GALE_OK ? 0 : err == GALE_ERR_INPUT ? 2 : 1;
done:
    run_cfg = NULL;
    free(overrides);
    return rc;
}
