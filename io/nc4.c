/* placeholder */
#include "gale_io.h"
#include <hdf5.h>
#include <stdio.h>
void gale_io_version(char *buf, size_t n) { unsigned a, b, c; H5get_libversion(&a, &b, &c); snprintf(buf, n, "HDF5 %u.%u.%u", a, b, c); }
