/* placeholder */
#include "gale_app.h"
#include <stdio.h>
int gale_cmd_mesh(int argc, char **argv) { fprintf(stderr, "not yet\n"); return 1; }
