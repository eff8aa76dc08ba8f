/* `gale iobench`: the I/O proxy (io/gale_iobench.h, docs/iobench.md).
 *
 * The command line is parsed before MPI starts, identically on every rank,
 * so a bad argument ends every rank with exit 2 and one message (rank 0's;
 * the others stay quiet) without MPI. Then cases run one after another: the
 * pattern x API table, or one sweep (sizes, writers, transfer sizes, MPI-IO
 * hints) over the chosen patterns and APIs. Rank 0 prints the table and
 * writes CSV and JSON. */
#include "gale_app.h"
#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_config.h"
#include "gale_io.h"
#include "gale_iobench.h"
#include "gale_output.h"
#include "gale_report.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { SW_NONE = 0, SW_SIZES, SW_WRITERS, SW_TRANSFER, SW_HINTS };
static const char *const sweep_names[] = {"none", "sizes", "writers", "transfer", "hints"};
#define MAXV 32

typedef struct {
    int pat[GALE_IOB_NPATTERN], npat, api[GALE_IOB_NAPI], napi;
    int64_t block, transfer; /* transfer 0: the pattern's default */
    int iterations, fsync, collective, aggregators, read, drop_cache, keep;
    const char *dir, *out, *hints;
    int sweep, nval;
    int64_t ival[MAXV];      /* sizes, writers, transfers */
    char hval[MAXV][256];    /* hint sets */
} args_t;

typedef struct {
    char value[64]; /* the swept value, as text */
    gale_iob_opts_t o;
    char hints[256];
    gale_iob_result_t r;
} row_t;

static int quiet; /* ranks other than 0 print no argument errors */

static void help(FILE *out)
{
    fputs("usage: mpiexec -n P gale iobench [options]\n"
          "\n"
          "An IOR-like I/O proxy: write then read back (and verify) a block per rank, timed as\n"
          "IOR does: rate = bytes / 2^20 / (last close end - first open start).\n"
          "\n"
          "  --pattern LIST     fpp (file per process, large transfers), shared (one file,\n"
          "                     interleaved collective small transfers), aggregated (groups\n"
          "                     gather on aggregators, which write one file); or all (default)\n"
          "  --api LIST         posix, mpiio, hdf5 (parallel HDF5), netcdf (HDF5 in the\n"
          "                     netCDF-4 layout of io/nc4.c); or all (default)\n"
          "  --block SIZE       bytes per rank per iteration (default 16M)\n"
          "  --transfer SIZE    bytes per I/O call (default: fpp 4M, shared 64K, aggregated 4M)\n"
          "  --iterations N     repetitions, each with fresh files (default 1)\n"
          "  --fsync|--no-fsync data on disk before the close ends (default --fsync)\n"
          "  --collective|--independent  MPI-IO/HDF5 calls of shared/aggregated (default collective)\n"
          "  --aggregators N    aggregated: writer ranks (default one per node)\n"
          "  --hints K=V[,K=V]  MPI-IO hints (cb_nodes, cb_buffer_size, romio_cb_write,\n"
          "                     striping_factor, striping_unit, ...) for mpiio, hdf5, netcdf\n"
          "  --no-read          write phase only\n"
          "  --keep-cache       do not evict written files from the page cache before reading\n"
          "  --dir DIR          directory for the files (default ./gale_iobench.tmp)\n"
          "  --keep             keep the files (default: removed)\n"
          "  --out DIR          also write DIR/iobench.csv and DIR/iobench.json\n"
          "  --sizes[=LIST]     sweep the data per iteration (all ranks; default\n"
          "                     1M,4M,16M,64M,256M): write and read time against file size\n"
          "  --sweep KIND[=LIST] one sweep: writers (aggregators; default 1,2,4..P),\n"
          "                     transfer (default 64K,256K,1M,4M), hints (sets separated by ';',\n"
          "                     'none' for no hints; default: a standard list), sizes\n"
          "\n"
          "SIZE: bytes with an optional K, M or G (powers of 2), a multiple of 8.\n"
          "LIST: comma-separated. Without --pattern/--api a sweep uses shared/netcdf (sizes),\n"
          "aggregated/mpiio (writers), shared/mpiio (transfer, hints). docs/iobench.md.\n"
          "\n"
          "gale iobench --ior-proxy CONFIG --ranks P [--nodes M] [--dir DIR] [--json]\n"
          "             [--section.key=value ...]\n"
          "  runs nothing: prints each I/O phase of `gale run CONFIG` on P ranks (the field\n"
          "  output in each [io] mode, the checkpoints) as the ior command line that writes\n"
          "  the same bytes in as many files (--nodes: aggregated's groups with aggregators = 0;\n"
          "  --dir: where ior's files go). docs/iobench.md, \"IOR proxies\".\n",
          out);
}

static int bad(const char *opt, const char *val, const char *allowed)
{
    if (!quiet) fprintf(stderr, "gale iobench: %s '%s': %s\n", opt, val, allowed);
    return 2;
}

static int parse_size(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    if (!s[0] || s[0] == '-') return -1;
    double v = strtod(s, &end);
    int64_t mult = 1;
    if (*end == 'K' || *end == 'k') mult = 1 << 10, end++;
    else if (*end == 'M' || *end == 'm') mult = 1 << 20, end++;
    else if (*end == 'G' || *end == 'g') mult = 1 << 30, end++;
    if (*end == 'i' && end[1] == 'B') end += 2;
    else if (*end == 'B' && mult > 1) end++;
    if (errno || end == s || *end || !(v > 0) || v * mult > 1e15) return -1;
    double b = v * (double)mult;
    if (b != floor(b) || (int64_t)b % 8) return -1;
    *out = (int64_t)b;
    return 0;
}

/* "a,b,c" of names: sets the flags of the chosen items. */
static int parse_names(const char *opt, const char *s, int (*parse)(const char *), int n, int *out,
                       int *nout, const char *allowed)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    *nout = 0;
    if (strcmp(s, "all") == 0) {
        for (int i = 0; i < n; i++) out[(*nout)++] = i;
        return 0;
    }
    for (char *sv = NULL, *t = strtok_r(buf, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
        int v = parse(t);
        if (v < 0) return bad(opt, t, allowed);
        for (int i = 0; i < *nout; i++)
            if (out[i] == v) return bad(opt, t, "given twice");
        out[(*nout)++] = v;
    }
    if (*nout == 0) return bad(opt, s, allowed);
    return 0;
}

static int parse_values(args_t *a, const char *s)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", s);
    const char *sep = a->sweep == SW_HINTS ? ";" : ",";
    a->nval = 0;
    for (char *sv = NULL, *t = strtok_r(buf, sep, &sv); t; t = strtok_r(NULL, sep, &sv)) {
        if (a->nval == MAXV) return bad("--sweep", s, "at most 32 values");
        if (a->sweep == SW_HINTS) {
            if (strcmp(t, "none") != 0)
                for (const char *p = t; *p;) {
                    const char *c = strchr(p, ','), *eq = strchr(p, '=');
                    if (!eq || eq == p || (c && eq > c) || eq[1] == ',' || !eq[1])
                        return bad("--sweep hints", t, "hint sets are key=value[,key=value] or none");
                    p = c ? c + 1 : p + strlen(p);
                }
            snprintf(a->hval[a->nval++], sizeof a->hval[0], "%s", strcmp(t, "none") ? t : "");
        } else if (a->sweep == SW_WRITERS) {
            int v;
            if (gale_parse_int(t, 1, 1 << 24, &v)) return bad("--sweep writers", t, "a count >= 1");
            a->ival[a->nval++] = v;
        } else {
            int64_t v;
            if (parse_size(t, &v))
                return bad(a->sweep == SW_SIZES ? "--sizes" : "--sweep transfer", t,
                           "a size in bytes (K, M, G suffixes), a positive multiple of 8");
            a->ival[a->nval++] = v;
        }
    }
    if (a->nval == 0) return bad("--sweep", s, "an empty list");
    return 0;
}

/* Returns 0 to run, 1 for --help, 2 for bad arguments (message printed). */
static int parse_args(int argc, char **argv, args_t *a)
{
    memset(a, 0, sizeof *a);
    a->block = 16 << 20;
    a->iterations = 1;
    a->fsync = a->collective = a->read = a->drop_cache = 1;
    a->dir = "gale_iobench.tmp";
    a->hints = "";
    const char *vals = NULL;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = NULL;
        char opt[64];
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) return 1;
        /* flags */
        if (strcmp(s, "--fsync") == 0) { a->fsync = 1; continue; }
        if (strcmp(s, "--no-fsync") == 0) { a->fsync = 0; continue; }
        if (strcmp(s, "--collective") == 0) { a->collective = 1; continue; }
        if (strcmp(s, "--independent") == 0) { a->collective = 0; continue; }
        if (strcmp(s, "--no-read") == 0) { a->read = 0; continue; }
        if (strcmp(s, "--keep-cache") == 0) { a->drop_cache = 0; continue; }
        if (strcmp(s, "--keep") == 0) { a->keep = 1; continue; }
        if (strcmp(s, "--sizes") == 0) { a->sweep = SW_SIZES; continue; }
        if (strncmp(s, "--sizes=", 8) == 0) { a->sweep = SW_SIZES; vals = s + 8; continue; }
        /* options with a value: next argument or after '=' */
        const char *eq = strchr(s, '=');
        size_t ol = eq ? (size_t)(eq - s) : strlen(s);
        if (strncmp(s, "--", 2) != 0 || ol >= sizeof opt) {
            if (!quiet) fprintf(stderr, "gale iobench: unexpected argument '%s' (see --help)\n", s);
            return 2;
        }
        memcpy(opt, s, ol);
        opt[ol] = '\0';
        static const char *const withval[] = {"--pattern", "--api", "--block", "--transfer",
                                              "--iterations", "--aggregators", "--hints",
                                              "--dir", "--out", "--sweep"};
        int known = 0;
        for (size_t k = 0; k < sizeof withval / sizeof withval[0]; k++) known |= !strcmp(opt, withval[k]);
        if (!known) {
            if (!quiet) fprintf(stderr, "gale iobench: unknown option '%s' (see --help)\n", opt);
            return 2;
        }
        if (eq) v = eq + 1;
        else if (i + 1 < argc) v = argv[++i];
        else {
            if (!quiet) fprintf(stderr, "gale iobench: %s needs a value\n", opt);
            return 2;
        }
        if (!strcmp(opt, "--pattern")) {
            if (parse_names(opt, v, gale_iob_pattern_parse, GALE_IOB_NPATTERN, a->pat, &a->npat,
                            "patterns are fpp, shared, aggregated or all"))
                return 2;
        } else if (!strcmp(opt, "--api")) {
            if (parse_names(opt, v, gale_iob_api_parse, GALE_IOB_NAPI, a->api, &a->napi,
                            "APIs are posix, mpiio, hdf5, netcdf or all"))
                return 2;
        } else if (!strcmp(opt, "--block")) {
            if (parse_size(v, &a->block))
                return bad(opt, v, "a size in bytes (K, M, G suffixes), a positive multiple of 8");
        } else if (!strcmp(opt, "--transfer")) {
            if (parse_size(v, &a->transfer))
                return bad(opt, v, "a size in bytes (K, M, G suffixes), a positive multiple of 8");
        } else if (!strcmp(opt, "--iterations")) {
            if (gale_parse_int(v, 1, 1000000, &a->iterations)) return bad(opt, v, "a count from 1");
        } else if (!strcmp(opt, "--aggregators")) {
            if (gale_parse_int(v, 1, 1 << 24, &a->aggregators)) return bad(opt, v, "a count from 1");
        } else if (!strcmp(opt, "--hints")) {
            for (const char *p = v; *p;) {
                const char *c = strchr(p, ','), *e = strchr(p, '=');
                if (!e || e == p || (c && e > c) || e[1] == ',' || !e[1])
                    return bad(opt, v, "key=value[,key=value]");
                p = c ? c + 1 : p + strlen(p);
            }
            a->hints = v;
        } else if (!strcmp(opt, "--dir")) {
            if (!v[0]) return bad(opt, v, "a directory name");
            a->dir = v;
        } else if (!strcmp(opt, "--out")) {
            if (!v[0]) return bad(opt, v, "a directory name");
            a->out = v;
        } else if (!strcmp(opt, "--sweep")) {
            char kind[32];
            const char *e = strchr(v, '=');
            size_t kl = e ? (size_t)(e - v) : strlen(v);
            snprintf(kind, sizeof kind, "%.*s", (int)(kl < 31 ? kl : 31), v);
            a->sweep = SW_NONE;
            for (int k = 1; k <= SW_HINTS; k++)
                if (!strcmp(kind, sweep_names[k])) a->sweep = k;
            if (a->sweep == SW_NONE) return bad(opt, v, "sizes, writers, transfer or hints");
            vals = e ? e + 1 : NULL;
        }
    }
    /* (a size sweep sets the block itself, rounded to the transfer) */
    if (a->sweep != SW_SIZES && a->transfer && (a->transfer > a->block || a->block % a->transfer)) {
        if (!quiet)
            fprintf(stderr, "gale iobench: --block %lld is not a multiple of --transfer %lld\n",
                    (long long)a->block, (long long)a->transfer);
        return 2;
    }
    if (vals && parse_values(a, vals)) return 2;
    /* a sweep's default patterns and APIs, unless chosen */
    static const int dpat[] = {-1, GALE_IOB_SHARED, GALE_IOB_AGGREGATED, GALE_IOB_SHARED, GALE_IOB_SHARED};
    static const int dapi[] = {-1, GALE_IOB_NETCDF, GALE_IOB_MPIIO, GALE_IOB_MPIIO, GALE_IOB_MPIIO};
    if (!a->npat) {
        if (a->sweep) a->pat[a->npat++] = dpat[a->sweep];
        else for (int i = 0; i < GALE_IOB_NPATTERN; i++) a->pat[a->npat++] = i;
    }
    if (!a->napi) {
        if (a->sweep) a->api[a->napi++] = dapi[a->sweep];
        else for (int i = 0; i < GALE_IOB_NAPI; i++) a->api[a->napi++] = i;
    }
    if (a->sweep == SW_WRITERS)
        for (int i = 0; i < a->npat; i++)
            if (a->pat[i] != GALE_IOB_AGGREGATED)
                return bad("--sweep", "writers", "needs --pattern aggregated");
    return 0;
}

static int64_t default_transfer(int pattern)
{
    return pattern == GALE_IOB_SHARED ? 64 << 10 : 4 << 20;
}

static void fmt_size(int64_t b, char *out, size_t n)
{
    if (b % (1 << 30) == 0) snprintf(out, n, "%lldG", (long long)(b >> 30));
    else if (b % (1 << 20) == 0) snprintf(out, n, "%lldM", (long long)(b >> 20));
    else if (b % (1 << 10) == 0) snprintf(out, n, "%lldK", (long long)(b >> 10));
    else snprintf(out, n, "%lld", (long long)b);
}

static void print_table(const args_t *a, const row_t *rows, int nrows, int ranks)
{
    const char *sw = a->sweep == SW_SIZES ? "file_size" : a->sweep == SW_WRITERS ? "aggregators"
                   : a->sweep == SW_TRANSFER ? "transfer" : a->sweep == SW_HINTS ? "hints" : NULL;
    int vw = sw ? (int)strlen(sw) : 0;
    for (int i = 0; sw && i < nrows; i++)
        if ((int)strlen(rows[i].value) > vw) vw = (int)strlen(rows[i].value);
    if (sw) printf("%-*s ", vw, sw);
    printf("%-10s %-6s %4s %5s %6s %6s %9s %9s %11s %23s %9s %11s %6s\n", "pattern", "api",
           "wrtr", "files", "block", "xfer", "MiB", "write_s", "write_MiB/s",
           "rank_write min/mean/max", "read_s", "read_MiB/s", "bad");
    for (int i = 0; i < nrows; i++) {
        const row_t *w = &rows[i];
        char bs[24], xs[24], mm[64];
        fmt_size(w->o.block, bs, sizeof bs);
        fmt_size(w->o.transfer, xs, sizeof xs);
        snprintf(mm, sizeof mm, "%.0f/%.0f/%.0f", w->r.rank_write_rate.min,
                 w->r.rank_write_rate.mean, w->r.rank_write_rate.max);
        if (sw) printf("%-*s ", vw, w->value);
        printf("%-10s %-6s %4d %5d %6s %6s %9.2f %9.4f %11.1f %23s ", gale_iob_pattern_name(w->o.pattern),
               gale_iob_api_name(w->o.api), w->r.writers, w->r.files, bs, xs,
               w->r.bytes / 1048576.0, w->r.write_s, w->r.write_rate, mm);
        if (w->o.read) printf("%9.4f %11.1f %6lld\n", w->r.read_s, w->r.read_rate, (long long)w->r.verify_errors);
        else printf("%9s %11s %6s\n", "-", "-", "-");
    }
    (void)ranks;
}

static const char *csv_header =
    "sweep,value,pattern,api,ranks,writers,files,block_bytes,transfer_bytes,iterations,fsync,"
    "collective,hints,hints_applied,bytes,write_s,write_MiB_s,rank_write_MiB_s_min,"
    "rank_write_MiB_s_mean,rank_write_MiB_s_max,read_s,read_MiB_s,rank_read_MiB_s_min,"
    "rank_read_MiB_s_mean,rank_read_MiB_s_max,verify_errors\n";


static int write_outputs(const args_t *a, const row_t *rows, int nrows, int ranks, int nodes)
{
    char why[512] = "", path[PATH_MAX], tmp[PATH_MAX + 8]; /* --out checked before the run */
    /* CSV */
    snprintf(path, sizeof path, "%s/iobench.csv", a->out);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) GALE_ERROR(GALE_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
    fputs(csv_header, f);
    for (int i = 0; i < nrows; i++) {
        const row_t *w = &rows[i];
        const gale_iob_result_t *r = &w->r;
        fprintf(f, "%s,\"%s\",%s,%s,%d,%d,%d,%lld,%lld,%d,%d,%d,\"%s\",\"%s\",%lld,%.6f,%.3f,%.3f,"
                "%.3f,%.3f,%.6f,%.3f,%.3f,%.3f,%.3f,%lld\n",
                sweep_names[a->sweep], w->value, gale_iob_pattern_name(w->o.pattern),
                gale_iob_api_name(w->o.api), ranks, r->writers, r->files, (long long)w->o.block,
                (long long)w->o.transfer, w->o.iterations, w->o.fsync, w->o.collective, w->hints,
                r->hints_applied, (long long)r->bytes, r->write_s, r->write_rate,
                r->rank_write_rate.min, r->rank_write_rate.mean, r->rank_write_rate.max, r->read_s,
                r->read_rate, r->rank_read_rate.min, r->rank_read_rate.mean, r->rank_read_rate.max,
                (long long)r->verify_errors);
    }
    if (gale_file_finish(f, tmp, path, why, sizeof why) != 0) GALE_ERROR(GALE_ERR_IO, "%s", why);
    /* JSON */
    snprintf(path, sizeof path, "%s/iobench.json", a->out);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!(f = fopen(tmp, "w"))) GALE_ERROR(GALE_ERR_IO, "cannot write '%s': %s", tmp, strerror(errno));
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING + 32];
    gale_build_mpi(mpi, sizeof mpi);
    gale_json_t j;
    gale_json_open(&j, f);
    gale_json_str(&j, "gale_version", gale_version());
    gale_json_str(&j, "mpi", mpi);
    gale_json_int(&j, "ranks", ranks);
    gale_json_int(&j, "nodes", nodes);
    gale_json_str(&j, "dir", a->dir);
    gale_json_str(&j, "sweep", sweep_names[a->sweep]);
    gale_json_bool(&j, "fsync", a->fsync);
    gale_json_bool(&j, "page_cache_dropped_before_read", a->drop_cache);
    gale_json_str(&j, "rate_definition", "bytes / 2^20 / (last close end - first open start), "
                                         "times summed over iterations");
    gale_json_str(&j, "netcdf_api", "parallel HDF5 in the netCDF-4 layout of io/nc4.c "
                                    "(not the netCDF-C library)");
    gale_json_arr(&j, "rows");
    for (int i = 0; i < nrows; i++) {
        const row_t *w = &rows[i];
        const gale_iob_result_t *r = &w->r;
        gale_json_obj(&j, NULL);
        gale_json_str(&j, "value", w->value);
        gale_json_str(&j, "pattern", gale_iob_pattern_name(w->o.pattern));
        gale_json_str(&j, "api", gale_iob_api_name(w->o.api));
        gale_json_int(&j, "writers", r->writers);
        gale_json_int(&j, "files", r->files);
        gale_json_int(&j, "block_bytes", w->o.block);
        gale_json_int(&j, "transfer_bytes", w->o.transfer);
        gale_json_int(&j, "iterations", w->o.iterations);
        gale_json_bool(&j, "collective", w->o.collective);
        gale_json_str(&j, "hints", w->hints);
        gale_json_str(&j, "hints_applied", r->hints_applied);
        gale_json_int(&j, "bytes", r->bytes);
        gale_json_num(&j, "write_s", r->write_s);
        gale_json_num(&j, "write_rate_MiB_s", r->write_rate);
        gale_json_obj(&j, "rank_write_rate_MiB_s");
        gale_json_num(&j, "min", r->rank_write_rate.min);
        gale_json_num(&j, "mean", r->rank_write_rate.mean);
        gale_json_num(&j, "max", r->rank_write_rate.max);
        gale_json_end(&j, '}');
        if (w->o.read) {
            gale_json_num(&j, "read_s", r->read_s);
            gale_json_num(&j, "read_rate_MiB_s", r->read_rate);
            gale_json_obj(&j, "rank_read_rate_MiB_s");
            gale_json_num(&j, "min", r->rank_read_rate.min);
            gale_json_num(&j, "mean", r->rank_read_rate.mean);
            gale_json_num(&j, "max", r->rank_read_rate.max);
            gale_json_end(&j, '}');
            gale_json_int(&j, "verify_errors", r->verify_errors);
        }
        gale_json_end(&j, '}');
    }
    gale_json_end(&j, ']');
    gale_json_close(&j);
    if (gale_file_finish(f, tmp, path, why, sizeof why) != 0) GALE_ERROR(GALE_ERR_IO, "%s", why);
    gale_log(GALE_LOG_INFO, "results: %s/iobench.csv, %s/iobench.json", a->out, a->out);
    return GALE_OK;
}

/* The cases to run: patterns x APIs x the sweep's values. */
static int build_rows(const args_t *a, int ranks, row_t **out, int *nout)
{
    int nv = a->sweep ? (a->nval ? a->nval : 0) : 1;
    int64_t vals[MAXV];
    char hv[MAXV][256];
    if (a->sweep && !a->nval) { /* the defaults */
        if (a->sweep == SW_SIZES) {
            const int64_t d[] = {1 << 20, 4 << 20, 16 << 20, 64 << 20, 256 << 20};
            for (int i = 0; i < 5; i++) vals[nv++] = d[i];
        } else if (a->sweep == SW_WRITERS) {
            for (int w = 1; w < ranks; w *= 2) vals[nv++] = w;
            vals[nv++] = ranks;
        } else if (a->sweep == SW_TRANSFER) {
            const int64_t d[] = {64 << 10, 256 << 10, 1 << 20, 4 << 20};
            for (int i = 0; i < 4; i++)
                if (d[i] <= a->block) vals[nv++] = d[i];
        } else {
            const char *d[] = {"", "romio_cb_write=enable", "romio_cb_write=disable", "cb_nodes=1",
                               "cb_buffer_size=1048576", "cb_buffer_size=16777216",
                               "striping_factor=4,striping_unit=1048576"};
            for (int i = 0; i < 7; i++) snprintf(hv[nv++], sizeof hv[0], "%s", d[i]);
        }
    } else {
        for (int i = 0; i < a->nval; i++) {
            vals[i] = a->ival[i];
            snprintf(hv[i], sizeof hv[0], "%s", a->hval[i]);
        }
    }
    row_t *rows = calloc((size_t)a->npat * a->napi * nv + 1, sizeof *rows);
    if (!rows) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    int n = 0;
    for (int v = 0; v < nv; v++)
        for (int p = 0; p < a->npat; p++)
            for (int q = 0; q < a->napi; q++) {
                row_t *w = &rows[n++];
                gale_iob_opts_t *o = &w->o;
                o->pattern = a->pat[p];
                o->api = a->api[q];
                o->block = a->block;
                o->transfer = a->transfer ? a->transfer : default_transfer(o->pattern);
                o->iterations = a->iterations;
                o->fsync = a->fsync;
                /* as it takes effect: posix and a file per process are independent */
                o->collective = a->collective && o->pattern != GALE_IOB_FPP && o->api != GALE_IOB_POSIX;
                o->aggregators = a->aggregators;
                o->read = a->read;
                o->drop_cache = a->drop_cache;
                o->keep = a->keep;
                o->dir = a->dir;
                snprintf(w->hints, sizeof w->hints, "%.255s", a->hints);
                switch (a->sweep) {
                case SW_SIZES: /* total per iteration -> a block per rank */
                    o->block = vals[v] / ranks / 8 * 8;
                    if (o->block < 8) o->block = 8;
                    fmt_size(vals[v], w->value, sizeof w->value);
                    break;
                case SW_WRITERS:
                    o->aggregators = (int)vals[v];
                    snprintf(w->value, sizeof w->value, "%lld", (long long)vals[v]);
                    break;
                case SW_TRANSFER:
                    o->transfer = vals[v];
                    fmt_size(vals[v], w->value, sizeof w->value);
                    break;
                case SW_HINTS:
                    snprintf(w->hints, sizeof w->hints, "%.255s", hv[v]);
                    snprintf(w->value, sizeof w->value, "%.63s", hv[v][0] ? hv[v] : "none");
                    break;
                }
                if (o->transfer > o->block) {
                    if (a->sweep == SW_TRANSFER || a->transfer) {
                        if (!quiet)
                            fprintf(stderr, "gale iobench: transfer %lld larger than the block %lld\n",
                                    (long long)o->transfer, (long long)o->block);
                        free(rows);
                        return GALE_ERR_INPUT;
                    }
                    o->transfer = o->block;
                }
                o->block = o->block / o->transfer * o->transfer;
                o->hints = w->hints;
            }
    *out = rows;
    *nout = n;
    return GALE_OK;
}

static int iobench(const args_t *a, MPI_Comm comm, int rank, int ranks)
{
    /* the directories, before the run: rank 0 makes them; a bad one, or a
     * name the benchmark writes that is not a regular file, is bad input */
    static const char *const results[] = {"iobench.csv", "iobench.json", NULL};
    char why[PATH_MAX + 256] = "", msg[sizeof why + 16] = "";
    int created = 0;
    if (rank == 0) {
        struct stat sb;
        created = stat(a->dir, &sb) != 0;
        if (gale_dir_prepare(a->dir, gale_iob_file_names, why, sizeof why))
            snprintf(msg, sizeof msg, "--dir: %s", why);
        else if (a->out && gale_dir_prepare(a->out, results, why, sizeof why))
            snprintf(msg, sizeof msg, "--out: %s", why);
    }
    GALE_MPI(MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, 0, comm));
    if (msg[0]) GALE_ERROR(GALE_ERR_INPUT, "%s", msg);
    row_t *rows = NULL;
    int nrows = 0, st = build_rows(a, ranks, &rows, &nrows);
    if (st != GALE_OK) {
        if (rank == 0 && created) rmdir(a->dir);
        return st;
    }
    MPI_Comm node;
    int nodes, nrank;
    GALE_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node));
    GALE_MPI(MPI_Comm_rank(node, &nrank));
    GALE_MPI(MPI_Comm_free(&node));
    nodes = nrank == 0;
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &nodes, 1, MPI_INT, MPI_SUM, comm));
    if (rank == 0) {
        printf("gale iobench %s: %d ranks on %d node(s), dir %s, %s, %s, %d iteration(s)\n",
               gale_version(), ranks, nodes, a->dir, a->fsync ? "fsync" : "no fsync",
               !a->read ? "no read" : a->drop_cache ? "page cache dropped before reads"
                                                    : "reads may hit the page cache",
               a->iterations);
        printf("rate = bytes / 2^20 / (last close end - first open start); netcdf = parallel HDF5 "
               "in the netCDF-4 layout of io/nc4.c, not the netCDF-C library\n");
        if (a->hints[0]) printf("hints: %s\n", a->hints);
        printf("\n");
        fflush(stdout);
    }
    for (int i = 0; i < nrows && st == GALE_OK; i++) st = gale_iob_run(&rows[i].o, comm, &rows[i].r);
    if (st == GALE_OK && rank == 0) {
        print_table(a, rows, nrows, ranks);
        for (int i = 0; i < nrows; i++)
            if (rows[i].r.hints_applied[0] && (i == 0 || strcmp(rows[i].r.hints_applied, rows[i - 1].r.hints_applied))) {
                printf("\nMPI-IO hints in effect (%s/%s%s%s): %s", gale_iob_pattern_name(rows[i].o.pattern),
                       gale_iob_api_name(rows[i].o.api), rows[i].hints[0] ? ", asked " : "",
                       rows[i].hints, rows[i].r.hints_applied);
            }
        printf("\n");
        int64_t badw = 0;
        for (int i = 0; i < nrows; i++) badw += rows[i].r.verify_errors;
        if (badw) printf("WARNING: %lld words read back differ from what was written\n", (long long)badw);
        fflush(stdout);
        if (a->out) st = write_outputs(a, rows, nrows, ranks, nodes);
    }
    GALE_MPI(MPI_Bcast(&st, 1, MPI_INT, 0, comm));
    int64_t badw = 0;
    for (int i = 0; i < nrows; i++) badw += rows[i].r.verify_errors;
    free(rows);
    if (rank == 0 && created && !a->keep) rmdir(a->dir); /* only if empty */
    if (st == GALE_OK && badw) return GALE_ERR_IO; /* data read back wrong: the exit says so */
    return st == GALE_OK ? GALE_OK : GALE_ERR_IO;
}

/* MPI up, with errors returned (not fatal) on MPI_COMM_WORLD. */
/* ---- --ior-proxy: a run's I/O phases as IOR command lines (docs/iobench.md) ---- */

/* The transfer of a block: the largest whole share of it, a multiple of 8,
 * not above cap (gale's writer moves at most one ring buffer a piece). */
static int64_t ior_transfer(int64_t block, int64_t cap)
{
    for (int64_t k = (block + cap - 1) / cap; k <= block / 8; k++)
        if (block % k == 0 && (block / k) % 8 == 0) return block / k;
    return 8;
}

typedef struct {
    char phase[24]; /* "output" and a phase number, or "checkpoint" */
    const char *layout, *api;
    char fields[256];
    int tasks, times, files_per_time, shared, collective;
    long long data_bytes; /* one output time, all tasks */
} ior_phase_t;

static void ior_line(const ior_phase_t *ph, int64_t cap, const char *dir, int json, int first)
{
    /* each task's block: the phase's bytes shared out, whole doubles */
    const int64_t block = ((ph->data_bytes + ph->tasks - 1) / ph->tasks + 7) / 8 * 8;
    const int64_t xfer = ior_transfer(block, cap);
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "mpiexec -n %d ior -a %s -w%s%s -b %lld -t %lld -s 1 -i %d -m -o %s/gale_ior_%s_%s",
             ph->tasks, ph->api, ph->collective ? " -c" : "", ph->shared ? "" : " -F",
             (long long)block, (long long)xfer, ph->times, dir, ph->phase, ph->layout);
    const long long files = (long long)ph->times * ph->files_per_time;
    const long long data = (long long)ph->times * ph->data_bytes;
    const long long ior = (long long)ph->times * ph->tasks * block;
    if (json) {
        printf("%s\n  {\"phase\": \"%s\", \"layout\": \"%s\", \"fields\": \"%s\", "
               "\"tasks\": %d, \"times\": %d, \"files\": %lld, \"data_bytes_per_time\": %lld, "
               "\"data_bytes\": %lld, \"block\": %lld, \"transfer\": %lld, \"ior_bytes\": %lld, "
               "\"command\": \"%s\"}",
               first ? "" : ",", ph->phase, ph->layout, ph->fields, ph->tasks, ph->times, files,
               ph->data_bytes, data, (long long)block, (long long)xfer, ior, cmd);
        return;
    }
    printf("%-10s %-10s %5d %6d %7lld %14lld %14lld  %s\n", ph->phase, ph->layout, ph->tasks,
           ph->times, files, data, ior, ph->fields);
    printf("    %s\n", cmd);
}

static int ior_proxy(int argc, char **argv)
{
    const char *config = NULL, *dir = ".";
    int ranks = 0, nodes = 1, json = 0, nov = 0, rc = 2;
    char **ov = calloc((size_t)argc + 1, sizeof *ov);
    if (!ov) return 1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *eq = strchr(s, '=');
        const char *v = eq ? eq + 1 : i + 1 < argc ? argv[i + 1] : NULL;
        const size_t ol = eq ? (size_t)(eq - s) : strlen(s);
        if (strcmp(s, "--json") == 0) { json = 1; continue; }
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            help(stdout);
            rc = 0;
            goto done;
        }
        if (strncmp(s, "--", 2) == 0 && memchr(s, '.', ol) && eq) { ov[nov++] = argv[i]; continue; }
        if (!v) { fprintf(stderr, "gale iobench: %s needs a value\n", s); goto done; }
        if (!eq) i++;
        if (ol == 11 && strncmp(s, "--ior-proxy", ol) == 0) config = v;
        else if (ol == 7 && strncmp(s, "--ranks", ol) == 0) {
            if (gale_parse_int(v, 1, 1 << 24, &ranks)) { bad("--ranks", v, "a count >= 1"); goto done; }
        } else if (ol == 7 && strncmp(s, "--nodes", ol) == 0) {
            if (gale_parse_int(v, 1, 1 << 24, &nodes)) { bad("--nodes", v, "a count >= 1"); goto done; }
        } else if (ol == 5 && strncmp(s, "--dir", ol) == 0) dir = v;
        else {
            fprintf(stderr, "gale iobench: --ior-proxy takes --ranks P [--nodes M] [--dir DIR] "
                            "[--json] [--section.key=value ...], not '%s'\n", s);
            goto done;
        }
    }
    if (!ranks) { fprintf(stderr, "gale iobench: --ior-proxy needs --ranks P (the run's ranks)\n"); goto done; }
    if (nodes > ranks) { bad("--nodes", "", "at most --ranks"); goto done; }
    gale_config_t c;
    gale_output_plan_t plan;
    if (gale_config_parse(&c, config, nov, ov) != GALE_OK || gale_output_plan(&c, &plan) != GALE_OK)
        goto done;
    /* --ranks is the job's (mpiexec -n): [io] servers of them do not run the model */
    if (c.io.servers >= ranks) {
        char v[16];
        snprintf(v, sizeof v, "%d", ranks);
        bad("--ranks", v, "more than [io] servers (the model needs a rank)");
        goto done;
    }
    const int model = ranks - c.io.servers, pool = c.io.servers / c.io.pools;
    rc = 0;
    const int64_t cap = (int64_t)(c.io.buffer_mib * 1048576.0);
    /* aggregated: groups of [io] aggregators consecutive ranks, or one per node */
    const int groups = c.io.aggregators > 0 ? (model + c.io.aggregators - 1) / c.io.aggregators : nodes;
    if (json) {
        printf("{\"config\": \"");
        for (const char *q = config ? config : ""; *q; q++) /* a JSON string */
            printf((*q == '"' || *q == '\\') ? "\\%c" : (unsigned char)*q < 32 ? "?" : "%c", *q);
        printf("\", \"mesh\": \"C%d\", \"levels\": %d, \"steps\": %d, \"ranks\": %d, "
               "\"nodes\": %d, \"mode\": \"%s\", \"phases\": [",
               c.mesh.n, c.extrusion.levels, c.timestepping.steps, ranks, nodes,
               gale_config_choice("io", "mode", c.io.mode));
    }
    else
        printf("gale iobench --ior-proxy %s: C%d L%d, %d steps, %d ranks on %d node(s); the run's "
               "[io] mode = %s\n"
               "The field output's values (8 bytes each, no metadata) and the checkpoints' fields, "
               "as IOR runs: each task a block a file, -i one output time each, -m a new file each "
               "(docs/iobench.md, \"IOR proxies\").\n"
               "%-10s %-10s %5s %6s %7s %14s %14s  %s\n",
               config, c.mesh.n, c.extrusion.levels, c.timestepping.steps, ranks, nodes,
               gale_config_choice("io", "mode", c.io.mode), "phase", "layout", "tasks", "times",
               "files", "data bytes", "ior bytes", "fields");
    int first = 1;
    for (int k = 0; k < plan.nphases; k++) {
        const gale_output_phase_t *op = &plan.phase[k];
        /* servers: a pool's servers write each shared file (the pools take
         * the output times in turn; IOR runs them one after another) */
        const ior_phase_t lay[4] = {
            {"", "shared", "HDF5", "", model, op->times, 1, 1, 1, op->bytes},
            {"", "per_rank", "HDF5", "", model, op->times, model, 0, 0, op->bytes},
            {"", "aggregated", "HDF5", "", groups, op->times, groups, 0, 0, op->bytes},
            {"", "servers", "HDF5", "", pool, op->times, 1, 1, 1, op->bytes}};
        for (int l = 0; l < (c.io.servers > 0 ? 4 : 3); l++) {
            ior_phase_t ph = lay[l];
            snprintf(ph.phase, sizeof ph.phase, "output%d", k + 1);
            snprintf(ph.fields, sizeof ph.fields, "%s", op->names);
            ior_line(&ph, cap, dir, json, first);
            first = 0;
        }
    }
    if (c.checkpoint.period > 0 && c.timestepping.steps >= c.checkpoint.period) {
        /* the prognostic fields, in gid order (docs/checkpoint.md): u on edges; w and
         * b (theta) on interfaces, p (pi) in layers, and the nonlinear core's rho */
        const long long f = 6LL * c.mesh.n * c.mesh.n, L = c.extrusion.levels;
        const int nl = c.dynamics.equations == GALE_EQ_NONLINEAR;
        ior_phase_t ph = {"checkpoint", "shared", "MPIIO", "", model,
                          c.timestepping.steps / c.checkpoint.period, 1, 1, 1,
                          8 * (2 * f * L + 2 * f * (L + 1) + f * L + (nl ? f * L : 0))};
        snprintf(ph.fields, sizeof ph.fields, "%s", nl ? "u,w,theta,pi,rho" : "u,w,b,p");
        ior_line(&ph, cap, dir, json, first);
    }
    if (json) printf("\n]}\n");
    else if (first)
        printf("(no I/O phase: [diagnostics] fields is empty and [checkpoint] period is 0)\n");
    else if (c.checkpoint.period > 0)
        printf("A checkpoint file also holds a header of whole 4 KiB pages (the configuration) "
               "and a 32-byte trailer.\n");
done:
    free(ov);
    return rc;
}

int gale_cmd_iobench(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--ior-proxy", 11) == 0) return ior_proxy(argc, argv);
    args_t a;
    /* print argument errors once: only the process that will be rank 0
     * (MPICH and Open MPI both say which in the environment) */
    const char *pr = getenv("PMI_RANK");
    if (!pr) pr = getenv("OMPI_COMM_WORLD_RANK");
    quiet = pr && atoi(pr) != 0;
    int pa = parse_args(argc, argv, &a);
    if (pa == 1) {
        if (!quiet) help(stdout);
        return 0;
    }
    if (pa == 2) return 2;
    int rank = 0, ranks = 1;
    int st = gale_mpi_start(&argc, &argv, MPI_THREAD_FUNNELED, &rank, &ranks);
    if (st != GALE_OK) return st; /* MPI is not usable: nothing to finalize */
    quiet = rank != 0;
    /* every failure of the benchmark is agreed between ranks */
    return gale_mpi_finish(iobench(&a, MPI_COMM_WORLD, rank, ranks), 1);
}
