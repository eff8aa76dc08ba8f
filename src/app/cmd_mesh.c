/* `gale mesh`: write the global cubed-sphere mesh as a UGRID-1.0 netCDF-4
 * file. Serial and MPI-free: HDF5's default driver needs no MPI_Init. */
#include "gale_app.h"
#include "gale_base.h"
#include "gale_io.h"
#include "gale_mesh.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The [mesh] name and [planet] keys' ranges and defaults (config_keys.c). */
#define MESH_N_MAX 8192
#define RADIUS_DEFAULT 6371229.0
#define SCALING_DEFAULT 125.0

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gale mesh --mesh C<N> --out FILE.nc [--radius R] [--scaling X]\n"
            "\n"
            "Writes the cubed-sphere mesh C<N> (6 N^2 faces, 12 N^2 edges, 6 N^2 + 2 nodes) as a\n"
            "netCDF-4 file in UGRID-1.0 conventions (docs/output.md). Serial: no mpiexec.\n"
            "\n"
            "  --mesh C<N>     mesh name, N an integer in 1..%d\n"
            "  --out FILE      output file; written as FILE.tmp and renamed when complete\n"
            "  --radius R      planet radius [m], >= 1 (default %.1f)\n"
            "  --scaling X     small-planet factor, >= 1: face areas are for radius R/X\n"
            "                  (default %.1f, as [planet] scaling in gale run)\n",
            MESH_N_MAX, RADIUS_DEFAULT, SCALING_DEFAULT);
}

static int bad(const char *opt, const char *val, const char *allowed)
{
    gale_error_raise(GALE_ERR_INPUT, __FILE__, __LINE__, __func__,
                     "%s '%s' is invalid: expected %s", opt, val, allowed);
    return 2;
}

static int parse_real(const char *opt, const char *s, double min, double *x)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v < min) {
        char allowed[64];
        snprintf(allowed, sizeof allowed, "a number >= %g", min);
        return bad(opt, s, allowed);
    }
    *x = v;
    return 0;
}

int gale_cmd_mesh(int argc, char **argv)
{
    const char *mesh = NULL, *out = NULL;
    double radius = RADIUS_DEFAULT, scaling = SCALING_DEFAULT;
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        /* "--opt value" or "--opt=value" */
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        static const char *opts[] = {"--mesh", "--out", "--radius", "--scaling"};
        int o = -1;
        for (int k = 0; k < 4; k++)
            if (strlen(opts[k]) == len && strncmp(arg, opts[k], len) == 0) o = k;
        if (o < 0) {
            gale_error_raise(GALE_ERR_INPUT, __FILE__, __LINE__, __func__,
                             "unknown option '%s' (see gale mesh --help)", arg);
            return 2;
        }
        const char *val = eq ? eq + 1 : (a + 1 < argc ? argv[++a] : NULL);
        if (!val) {
            gale_error_raise(GALE_ERR_INPUT, __FILE__, __LINE__, __func__,
                             "option %s needs a value", opts[o]);
            return 2;
        }
        if (o == 0) mesh = val;
        else if (o == 1) out = val;
        else if (parse_real(opts[o], val, 1.0, o == 2 ? &radius : &scaling)) return 2;
    }
    if (!mesh || !out) {
        gale_error_raise(GALE_ERR_INPUT, __FILE__, __LINE__, __func__,
                         "%s is required (see gale mesh --help)",
                         !mesh ? "--mesh C<N>" : "--out FILE");
        return 2;
    }
    char *end = (char *)mesh;
    errno = 0;
    long n = mesh[0] == 'C' && mesh[1] >= '0' && mesh[1] <= '9' ? strtol(mesh + 1, &end, 10) : 0;
    if (n < 1 || n > MESH_N_MAX || *end || errno) {
        char allowed[64];
        snprintf(allowed, sizeof allowed, "C<N> with N an integer in 1..%d", MESH_N_MAX);
        return bad("--mesh", mesh, allowed);
    }
    if (!*out) return bad("--out", out, "a file name");
    char why[8400];
    if (gale_file_writable(out, why, sizeof why) != 0) { /* before the work, not after */
        gale_error_raise(GALE_ERR_INPUT, __FILE__, __LINE__, __func__, "--out: %s", why);
        return 2;
    }

    gale_cs_t cs;
    if (gale_cs_init(&cs, (int)n, radius / scaling) != GALE_OK) return 2;
    /* The inputs, as the [mesh] and [planet] sections of a configuration. */
    char config[256];
    snprintf(config, sizeof config, "[mesh]\nname = C%ld\n\n[planet]\nradius = %.17g\nscaling = %.17g\n",
             n, radius, scaling);
    double t0 = gale_wtime();
    if (gale_io_write_mesh(&cs, out, config) != GALE_OK) {
        fprintf(stderr, "gale mesh: %s was not written (no file left under its name or %s.tmp)\n",
                out, out);
        /* HDF5 1.10's clean-up at exit crashes on a file whose close failed
         * (a full disk): leave without it (serial, nothing else to flush) */
        fflush(NULL);
        _exit(GALE_ERR_IO);
    }
    printf("gale mesh: wrote C%ld (%lld faces, %lld edges, %lld nodes, radius %.6g m) to %s "
           "in %.2f s\n",
           n, (long long)cs.ncells, (long long)cs.nedges, (long long)cs.nverts, cs.radius, out,
           gale_wtime() - t0);
    return 0;
}
