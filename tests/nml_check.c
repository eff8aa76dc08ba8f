/* nml_check FILE [--section.key=value ...]: reads a configuration (an LFRic
 * namelist or an INI file) as `gale run` does, without MPI or a model, and
 * exits with its status: 0, or gale's error code (2 for bad input). The
 * namelist fuzz test (check_nml_fuzz.py) runs it on every mutated file. */
#include "gale_base.h"
#include "gale_config.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: nml_check FILE [--section.key=value ...]\n");
        return 2;
    }
    gale_config_t cfg;
    return gale_config_parse(&cfg, argv[1], argc - 2, argv + 2);
}
