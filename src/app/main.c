/* gale: command-line entry point. */
#include "gale_app.h"
#include "gale_base.h"
#include "gale_config.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
    fputs("usage: gale <command> [options]\n"
          "\n"
          "commands:\n"
          "  run [CONFIG.ini|CONFIG.nml] [--section.key=value ...] [--report FILE.json]\n"
          "      [--restart CHECKPOINT]\n"
          "                     run the model (under mpiexec for several ranks)\n"
          "  partition --mesh C<N> --levels L --ranks P [--halo-depth d] [--method sfc|panel] [--json]\n"
          "                     partition statistics, without MPI and without running the model\n"
          "  mesh --mesh C<N> --out FILE.nc\n"
          "                     write the cubed-sphere mesh (netCDF-4, UGRID-1.0)\n"
          "  iobench [--pattern fpp,shared,aggregated] [--api posix,mpiio,hdf5,netcdf] [--sizes] ...\n"
          "                     I/O benchmark (IOR-like; under mpiexec), docs/iobench.md\n"
          "  help [config|namelist] [--markdown]\n"
          "                     this text, every configuration key, or what every LFRic\n"
          "                     namelist key does (docs/lfric-namelist.md)\n"
          "  --version          version, compiler, flags, ISA, offload target, MPI, HDF5\n"
          "\n"
          "`gale <command> --help` describes one command.\n",
          out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "run") == 0) return gale_cmd_run(argc - 1, argv + 1);
    if (strcmp(cmd, "partition") == 0) return gale_cmd_partition(argc - 1, argv + 1);
    if (strcmp(cmd, "mesh") == 0) return gale_cmd_mesh(argc - 1, argv + 1);
    if (strcmp(cmd, "iobench") == 0) return gale_cmd_iobench(argc - 1, argv + 1);
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) return gale_cmd_version();
    if (strcmp(cmd, "help") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        if (argc > 2 && strcmp(argv[2], "config") == 0) {
            gale_config_print_keys(argc > 3 && strcmp(argv[3], "--markdown") == 0);
            return 0;
        }
        if (argc > 2 && strcmp(argv[2], "namelist") == 0) {
            gale_config_print_nml(argc > 3 && strcmp(argv[3], "--markdown") == 0);
            return 0;
        }
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "gale: error: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
