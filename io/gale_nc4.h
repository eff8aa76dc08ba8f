/* A small netCDF-4 writer on the HDF5 C API. Private to io/: it includes
 * <hdf5.h>, which no folder outside io/ may see.
 *
 * The files are laid out as netCDF-C 4.x lays them out, so ncdump, Python's
 * netCDF4 and xarray read them as netCDF-4 (docs/output.md):
 *  - link and attribute creation order tracked and indexed on the root group
 *    and on every dataset (netCDF lists names in creation order);
 *  - each dimension is an HDF5 dimension scale: its coordinate variable, or a
 *    hidden float dataset of the dimension's name and length, never written,
 *    whose scale name is "This is a netCDF dimension but not a netCDF
 *    variable.%10d"; both carry the hidden int attribute _Netcdf4Dimid;
 *  - every variable has its dimensions' scales attached, and one of rank >= 1
 *    also carries _Netcdf4Coordinates (its dimids), as netCDF-C 4.9 writes;
 *  - text attributes are fixed-length NUL-terminated strings in a scalar
 *    dataspace (netCDF's NC_CHAR), so ncdump prints `name = "value" ;`;
 *  - a dataset's HDF5 fill value is its _FillValue (also written as an
 *    attribute of the variable's type), otherwise netCDF's default fill.
 *
 * Not (yet) supported: groups, unlimited dimensions, chunking/compression,
 * NC_STRING variables, other numeric types. There is no define mode:
 * definitions, attributes and writes may come in any order.
 *
 * All data go to "<path>.tmp"; gale_nc4_commit flushes, closes, fsyncs and
 * renames it to path, and any failure removes it, so the final name never
 * holds a half-written file.
 *
 * Serial now: one process, default (sec2) driver, no MPI needed. The file
 * access property list is the hook for parallel output: a later caller passes
 * one with H5Pset_fapl_mpio (and would then need collective transfers and a
 * single-rank rename). Every function returns a gale status; HDF5 failures
 * become GALE_ERR_IO messages naming the call and HDF5's own message. */
#ifndef GALE_NC4_H
#define GALE_NC4_H

#include "gale_base.h"

#include <hdf5.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { GALE_NC4_INT = 0, GALE_NC4_FLOAT = 1, GALE_NC4_DOUBLE = 2 } gale_nc4_type_t;

/* varid for attributes of the file (the root group). */
#define GALE_NC4_GLOBAL (-1)

typedef struct gale_nc4 gale_nc4_t;

/* Creates "<path>.tmp" (overwriting it). fapl: H5P_DEFAULT, or a file access
 * property list to copy (the writer adds its own settings to the copy). */
int gale_nc4_create(gale_nc4_t **f, const char *path, hid_t fapl);

/* A dimension without a coordinate variable. */
int gale_nc4_def_dim(gale_nc4_t *f, const char *name, int64_t len, int *dimid);
/* A dimension together with its coordinate variable (same name, 1-D). */
int gale_nc4_def_coord(gale_nc4_t *f, const char *name, int64_t len, gale_nc4_type_t type,
                       int *dimid, int *varid);
/* A variable over ndims dimensions (0: scalar). fill: NULL, or a pointer to
 * one value of the variable's type, stored as _FillValue. */
int gale_nc4_def_var(gale_nc4_t *f, const char *name, gale_nc4_type_t type, int ndims,
                     const int *dimids, const void *fill, int *varid);

/* Attributes of a variable or of the file (varid GALE_NC4_GLOBAL). */
int gale_nc4_put_att_text(gale_nc4_t *f, int varid, const char *name, const char *text);
int gale_nc4_put_att_int(gale_nc4_t *f, int varid, const char *name, size_t n, const int *v);
int gale_nc4_put_att_double(gale_nc4_t *f, int varid, const char *name, size_t n,
                            const double *v);

/* Data in the variable's own type (int, float or double), C order. */
int gale_nc4_put_var(gale_nc4_t *f, int varid, const void *data);
/* Rows [start, start + count) of the first dimension: lets a large variable
 * be written in slices (and, later, each rank its own rows). */
int gale_nc4_put_rows(gale_nc4_t *f, int varid, int64_t start, int64_t count, const void *data);

/* Flush, close, fsync, rename to the final name; frees *f and sets it to
 * NULL. On failure the temporary file is removed. */
int gale_nc4_commit(gale_nc4_t **f);
/* Close and remove the temporary file, free *f (NULL is fine). For error paths. */
void gale_nc4_abort(gale_nc4_t **f);

/* Turns the current HDF5 error stack into a GALE_ERR_IO message naming the
 * call; returns GALE_ERR_IO. Used by the GALE_H5 macro in io/. */
int gale_h5_error(const char *call, const char *file, int line, const char *func);

/* For io/ functions with a `st` status variable and a `done:` cleanup label
 * (HDF5's own HGOTO_ERROR pattern): a negative return from an HDF5 call
 * records the error and jumps to cleanup. */
#define GALE_H5(expr)                                                           \
    do {                                                                        \
        if ((expr) < 0) {                                                       \
            st = gale_h5_error(#expr, __FILE__, __LINE__, __func__);           \
            goto done;                                                          \
        }                                                                       \
    } while (0)
/* GALE_CALL for the same kind of function: trace, record, jump to cleanup. */
#define GALE_TRY(expr)                                                          \
    do {                                                                        \
        int gale_e_ = (expr);                                                   \
        if (gale_e_ != GALE_OK) {                                               \
            st = gale_error_trace(gale_e_, __FILE__, __LINE__, __func__);       \
            goto done;                                                          \
        }                                                                       \
    } while (0)
/* Close an identifier in a cleanup block; a failure counts only if nothing
 * failed before it. */
#define GALE_H5_CLOSE(fn, id)                                                   \
    do {                                                                        \
        if ((id) >= 0 && fn(id) < 0 && st == GALE_OK)                                 \
            st = gale_h5_error(#fn "(" #id ")", __FILE__, __LINE__, __func__);  \
        (id) = H5I_INVALID_HID;                                                 \
    } while (0)

#endif
