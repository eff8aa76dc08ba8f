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
 * Not supported: groups, unlimited dimensions, compression, NC_STRING
 * variables, other numeric types. There is no define mode: definitions,
 * attributes and writes may come in any order.
 *
 * All data go to "<path>.tmp"; gale_nc4_commit flushes, closes, fsyncs and
 * renames it to path, and any failure removes it, so the final name never
 * holds a half-written file.
 *
 * Serial (default sec2 driver, no MPI needed) unless the file access property
 * list given to gale_nc4_create has the MPI-IO driver (H5Pset_fapl_mpio):
 * then every call is collective over that communicator, with the same
 * arguments on every rank except the rows each rank writes; data transfers
 * are collective MPI-IO unless gale_nc4_collective(f, 0) made them
 * independent (then the puts are not collective: a rank without rows may
 * skip them); gale_nc4_put_var writes from rank 0 only; commit and abort
 * agree over the ranks and rank 0 alone fsyncs, renames or removes.
 *
 * GALE_IO_FAULT=enospc@N makes the process's N-th write (put_var, put_rows,
 * put_runs; counted over all files) fail as a full disk would.
 *
 * Every function returns a gale status; HDF5 failures become GALE_ERR_IO
 * messages naming the call and HDF5's own message. Not thread-safe (nor is
 * HDF5 here): one thread at a time, and io/writer.c makes that one thread. */
#ifndef GALE_NC4_H
#define GALE_NC4_H

#include "gale_base.h"
#include "gale_mesh.h"

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

/* Options of gale_nc4_def_var_ex. chunk: NULL (contiguous) or one chunk
 * length per dimension (clamped to the dimension). nofill: never write fill
 * values (netCDF's NC_NOFILL), for variables whose every element is written:
 * a parallel file otherwise writes the whole variable twice. */
typedef struct {
    const int64_t *chunk;
    int nofill;
} gale_nc4_varopt_t;
int gale_nc4_def_var_ex(gale_nc4_t *f, const char *name, gale_nc4_type_t type, int ndims,
                        const int *dimids, const void *fill, const gale_nc4_varopt_t *opt,
                        int *varid);

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
/* Runs of rows, packed one after the other in data: rows [start[r],
 * start[r] + count[r]) for r < nruns. rec < 0: rows of the first dimension;
 * rec >= 0: rows of the second dimension at index rec of the first (a record
 * of a variable over (time, rows, ...)). On a parallel file each rank gives
 * its own runs (none is fine) and the write is one collective transfer. */
int gale_nc4_put_runs(gale_nc4_t *f, int varid, int64_t rec, int nruns, const int64_t *start,
                      const int64_t *count, const void *data);

/* Flush, close, fsync, rename to the final name; frees *f and sets it to
 * NULL. On failure the temporary file is removed. */
int gale_nc4_commit(gale_nc4_t **f);
/* Close and remove the temporary file, free *f (NULL is fine). For error
 * paths; on a parallel file every rank must abort together. */
void gale_nc4_abort(gale_nc4_t **f);
/* Parallel file: collective (on != 0, the default) or independent data
 * transfers from now on. Collective, as a mode switch every rank makes. */
int gale_nc4_collective(gale_nc4_t *f, int on);
/* The MPI-IO hints in effect on an open parallel file (MPI_File_get_info),
 * as "key=value key=value ..."; "" for a serial file. */
int gale_nc4_hints(gale_nc4_t *f, char *buf, size_t n);

/* ---- the UGRID mesh (io/mesh_file.c), in any file ---- */

typedef struct {
    int dnode, dedge, dface, dtwo, dfour;                   /* dimids */
    int node[2], edge[2], face[2], fnodes, enodes, fedges, efaces, flinks, area, /* varids */
        fbnds[2];
} gale_io_mesh_t;
/* Defines the mesh dimensions (nMesh2d_node/edge/face, Two, Four), the
 * topology variable Mesh2d with its coordinates and connectivity, the face
 * areas and the faces' CF bounds (their corners' lon/lat), and the global
 * attributes mesh_name, mesh_n, radius. */
int gale_io_mesh_def(gale_nc4_t *f, const gale_cs_t *cs, gale_io_mesh_t *m);
/* Writes share `part` of `nparts` of every mesh variable's rows (on a
 * parallel file: part = rank, nparts = ranks, and every rank calls it).
 * threads != 0 computes the rows with OpenMP; the writer thread passes 0 so
 * as not to start a second team of threads next to the model's. */
int gale_io_mesh_put(gale_nc4_t *f, const gale_cs_t *cs, const gale_io_mesh_t *m, int part,
                     int nparts, int threads);

/* A partial file's faces (per rank, per group): their lon/lat, CF bounds and
 * areas under the mesh's variable names, over the file's rows (dimension
 * dface) and dfour (4 corners), so that CDO sees their cells. Defines, then
 * writes the n rows of faces gid[0..n). Serial file. */
typedef struct {
    int face[2], fbnds[2], area; /* varids */
} gale_io_faces_t;
int gale_io_faces_def(gale_nc4_t *f, int dface, int dfour, gale_io_faces_t *v);
int gale_io_faces_put(gale_nc4_t *f, const gale_cs_t *cs, const gale_io_faces_t *v, int64_t n,
                      const int *gid);

/* The 3-D grid for XDMF readers: node positions at every interface (radius +
 * exaggeration * z_if[k]) and the cells, interface faces and edge faces. */
typedef struct {
    int nlev;
    const double *z_if;  /* [nlev + 1] interface heights [m] */
    double exaggeration; /* vertical scale factor of the drawing */
} gale_io_grid3d_t;
/* The mesh file of gale_io_write_mesh, plus the 3-D grid when grid3d is not
 * NULL (docs/output.md). Serial. */
int gale_io_write_mesh_ex(const gale_cs_t *cs, const char *path, const char *config_text,
                          const gale_io_grid3d_t *grid3d, int threads);

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
/* GALE_MPI for the same kind of function: record MPI's message, jump to cleanup. */
#define GALE_MPI_TRY(expr)                                                      \
    do {                                                                        \
        int gale_e_ = (expr);                                                   \
        if (gale_e_ != 0) {                                                     \
            st = gale_error_mpi(gale_e_, #expr, __FILE__, __LINE__, __func__);  \
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
