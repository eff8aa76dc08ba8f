/* Files: netCDF-4 (HDF5) with CF and UGRID-1.0 conventions, written with the
 * HDF5 C API in the layout netCDF readers expect. Only io/ includes HDF5. */
#ifndef GALE_IO_H
#define GALE_IO_H

#include "gale_mesh.h"

#include <stddef.h>

/* Serial (one process, no MPI needed): the global mesh C_N as a UGRID-1.0
 * mesh file. Written to "path.tmp" and renamed, so a failure never leaves a
 * half-written file under the final name. config_text (may be NULL) is stored
 * as the global attribute "configuration". docs/output.md lists the contents. */
int gale_io_write_mesh(const gale_cs_t *cs, const char *path, const char *config_text);
/* "HDF5 1.10.8" etc. */
void gale_io_version(char *buf, size_t n);

#endif
