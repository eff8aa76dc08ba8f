/* What one output file holds (io/output_file.c), for io/writer.c. Private
 * to io/ (includes HDF5 through gale_nc4.h). docs/output.md describes the
 * files. */
#ifndef GALE_OUTFILE_H
#define GALE_OUTFILE_H

#include "gale_io.h"
#include "gale_nc4.h"

typedef struct {
    int mode;                         /* GALE_WRITER_*: shared = global UGRID file */
    const gale_writer_opts_t *o;      /* mesh, levels, variables, configuration */
    int64_t nface, nedge;             /* rows in the file */
    const int *face_gid, *edge_gid;   /* partial files: the global id of each row */
    int part, nparts;                 /* shared: this rank of the ranks (mesh rows it
                                       * writes); partial: the rank or group id and count */
    int step;
    double time;
    int nfv;
    const int *fvars;                 /* the variables in the file */
} gale_outfile_spec_t;

typedef struct {
    gale_nc4_t *nc;
    int *varid; /* [o->nvars]: netCDF varid, -1 if not in the file */
} gale_outfile_t;

/* Creates the file (collective on a parallel fapl), defines everything and
 * writes all but the data variables' values. On failure of->nc is NULL if
 * the file could not be created, else still open: the caller aborts it
 * (with the other ranks, for a parallel file). */
int gale_outfile_create(gale_outfile_t *of, const char *path, hid_t fapl,
                        const gale_outfile_spec_t *sp);
/* Commit or abort, then free. */
int gale_outfile_commit(gale_outfile_t *of);
void gale_outfile_abort(gale_outfile_t *of);

/* Disk space (docs/output.md): a parallel HDF5 file cannot be closed safely
 * once a write of one rank failed (the ranks' metadata flushes part ways),
 * so a full disk must be met before HDF5 writes. gale_outfile_need is an
 * upper bound of the file's size; gale_outfile_room (before create) fails,
 * with the reason in why, when the file system of path has less free;
 * gale_outfile_hold (after create) reserves the blocks of path.tmp
 * (fallocate, the size unchanged; file systems without it are only
 * checked), and gale_outfile_release gives back what the final file does
 * not use. No HDF5 in any of them. */
long long gale_outfile_need(const gale_outfile_spec_t *sp);
int gale_outfile_room(const char *path, long long need, char *why, size_t n);
int gale_outfile_hold(const char *path, long long need, char *why, size_t n);
void gale_outfile_release(const char *path);

/* The XDMF sidecar xmf_path of the shared file nc_name (in the same
 * directory, as mesh_name holding the 3-D grid). Adds its size to *bytes. */
int gale_outfile_xdmf(const char *xmf_path, const char *nc_name, const char *mesh_name,
                      const gale_outfile_spec_t *sp, long long *bytes);

/* The vertical exaggeration of the XDMF drawing: the shell is drawn at least
 * a tenth of the radius thick, so that it shows on an Earth-sized sphere. */
double gale_outfile_exaggeration(double radius, double top);

#endif
