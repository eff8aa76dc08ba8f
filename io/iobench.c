/* `gale iobench`: see gale_iobench.h and docs/iobench.md.
 *
 * One case = iterations x (write phase, read phase). A phase starts with a
 * barrier; each rank stamps its open start and close end against its own
 * clock read right after the barrier (clocks of different nodes need not
 * agree), and the phase time is max(close end) - min(open start) over the
 * ranks that open files -- IOR's definition. Buffers are filled before the
 * clock starts and verified after it stops. */
#include "gale_iobench.h"

#include "gale_base.h"
#include "gale_base_mpi.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <hdf5_hl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const pattern_names[] = {"fpp", "shared", "aggregated"};
static const char *const api_names[] = {"posix", "mpiio", "hdf5", "netcdf"};
/* as setup() below names them: iobench.<api>.<rank|shared>.<ext> */
const char *const gale_iob_file_names[] = {
    "iobench.posix.#.dat", "iobench.mpiio.#.dat", "iobench.hdf5.#.h5", "iobench.netcdf.#.nc",
    "iobench.posix.shared.dat", "iobench.mpiio.shared.dat", "iobench.hdf5.shared.h5",
    "iobench.netcdf.shared.nc", NULL};

const char *gale_iob_pattern_name(int p) { return p >= 0 && p < GALE_IOB_NPATTERN ? pattern_names[p] : "?"; }
const char *gale_iob_api_name(int a) { return a >= 0 && a < GALE_IOB_NAPI ? api_names[a] : "?"; }

int gale_iob_pattern_parse(const char *s)
{
    for (int i = 0; i < GALE_IOB_NPATTERN; i++)
        if (strcmp(s, pattern_names[i]) == 0) return i;
    return -1;
}

int gale_iob_api_parse(const char *s)
{
    for (int i = 0; i < GALE_IOB_NAPI; i++)
        if (strcmp(s, api_names[i]) == 0) return i;
    return -1;
}

/* ---- failures: the first one of this rank, agreed after every phase so
 * that no rank enters a collective the others have left (gale_base_mpi.h);
 * HDF5's own message added here ---- */

static herr_t h5_walk(unsigned n, const H5E_error2_t *err, void *data)
{
    (void)n;
    char *out = data;
    if (!out[0] && err->desc) snprintf(out, 256, "%s", err->desc);
    return 0;
}

static void efail_h5(gale_agree_t *e, const char *what, const char *path)
{
    char desc[256] = "";
    hid_t stack = H5Eget_current_stack();
    if (stack >= 0) {
        H5Ewalk2(stack, H5E_WALK_DOWNWARD, h5_walk, desc);
        H5Eclose_stack(stack);
    }
    gale_agree_fail(e, "%s '%s' failed%s%s", what, path, desc[0] ? ": " : "", desc);
}

/* ---- one open file, any API ---- */

typedef struct {
    int api, parallel, collective, writing;
    MPI_Comm comm;
    const char *path;
    int fd;
    MPI_File fh;
    hid_t file, dset, dxpl;
} file_t;

#define NC_DIM_NAME "This is a netCDF dimension but not a netCDF variable."

/* The netCDF-4 layout io/nc4.c writes (gale_nc4.h explains each item): a
 * hidden dimension dataset as a scale, the variable with its scale attached
 * and _Netcdf4Coordinates, creation order tracked and indexed, _NCProperties.
 * io/nc4.c itself is serial (it renames a temporary file on commit), so the
 * parallel cases need these calls here. */
static int nc4_objects(file_t *f, hid_t space, hsize_t n, gale_agree_t *e)
{
    int ok = 0;
    hid_t dcpl = H5I_INVALID_HID, dim = H5I_INVALID_HID, sc = H5I_INVALID_HID,
          att = H5I_INVALID_HID, str = H5I_INVALID_HID;
    char sname[sizeof NC_DIM_NAME + 24];
    const int dimid = 0;
    const char *props = "version=2,gale=iobench";
    if ((dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 || H5Pset_obj_track_times(dcpl, 0) < 0 ||
        H5Pset_attr_creation_order(dcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0 ||
        H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0)
        goto done;
    if ((dim = H5Dcreate2(f->file, "n", H5T_IEEE_F32BE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT)) < 0)
        goto done;
    snprintf(sname, sizeof sname, "%s%10lld", NC_DIM_NAME, (long long)n);
    if (H5DSset_scale(dim, sname) < 0 || (sc = H5Screate(H5S_SCALAR)) < 0 ||
        (att = H5Acreate2(dim, "_Netcdf4Dimid", H5T_NATIVE_INT, sc, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
        H5Awrite(att, H5T_NATIVE_INT, &dimid) < 0 || H5Aclose(att) < 0)
        goto done;
    att = H5I_INVALID_HID;
    if ((f->dset = H5Dcreate2(f->file, "data", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl,
                              H5P_DEFAULT)) < 0)
        goto done;
    hsize_t one = 1;
    hid_t s1 = H5Screate_simple(1, &one, NULL);
    if (s1 < 0) goto done;
    att = H5Acreate2(f->dset, "_Netcdf4Coordinates", H5T_NATIVE_INT, s1, H5P_DEFAULT, H5P_DEFAULT);
    H5Sclose(s1);
    if (att < 0 || H5Awrite(att, H5T_NATIVE_INT, &dimid) < 0 || H5Aclose(att) < 0) goto done;
    att = H5I_INVALID_HID;
    if (H5DSattach_scale(f->dset, dim, 0) < 0) goto done;
    if ((str = H5Tcopy(H5T_C_S1)) < 0 || H5Tset_size(str, strlen(props) + 1) < 0 ||
        H5Tset_strpad(str, H5T_STR_NULLTERM) < 0 ||
        (att = H5Acreate2(f->file, "_NCProperties", str, sc, H5P_DEFAULT, H5P_DEFAULT)) < 0 ||
        H5Awrite(att, str, props) < 0)
        goto done;
    ok = 1;
done:
    if (!ok) efail_h5(e, "creating the netCDF-4 objects of", f->path);
    if (att >= 0) H5Aclose(att);
    if (str >= 0) H5Tclose(str);
    if (sc >= 0) H5Sclose(sc);
    if (dim >= 0) H5Dclose(dim);
    if (dcpl >= 0) H5Pclose(dcpl);
    return ok;
}

static void h5_open(file_t *f, int64_t size, MPI_Info info, gale_agree_t *e)
{
    hid_t fapl = H5I_INVALID_HID, fcpl = H5I_INVALID_HID, space = H5I_INVALID_HID,
          dcpl = H5I_INVALID_HID;
    const int nc = f->api == GALE_IOB_NETCDF;
    hsize_t n = (hsize_t)(size / 8);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if ((fapl = H5Pcreate(H5P_FILE_ACCESS)) < 0) goto fail;
    if (f->parallel && H5Pset_fapl_mpio(fapl, f->comm, info) < 0) goto fail;
    if (nc && H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0) goto fail;
    if (!f->writing) {
        if ((f->file = H5Fopen(f->path, H5F_ACC_RDONLY, fapl)) < 0) goto fail;
        if ((f->dset = H5Dopen2(f->file, "data", H5P_DEFAULT)) < 0) goto fail;
    } else {
        if ((fcpl = H5Pcreate(H5P_FILE_CREATE)) < 0) goto fail;
        if (nc && (H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0 ||
                   H5Pset_attr_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED) < 0))
            goto fail;
        if ((f->file = H5Fcreate(f->path, H5F_ACC_TRUNC, fcpl, fapl)) < 0) goto fail;
        if ((space = H5Screate_simple(1, &n, NULL)) < 0) goto fail;
        if (nc) {
            if (!nc4_objects(f, space, n, e)) goto out;
        } else {
            /* never write fill values: the benchmark's bytes are its own */
            if ((dcpl = H5Pcreate(H5P_DATASET_CREATE)) < 0 ||
                H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER) < 0)
                goto fail;
            if ((f->dset = H5Dcreate2(f->file, "data", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                                      dcpl, H5P_DEFAULT)) < 0)
                goto fail;
        }
    }
    if ((f->dxpl = H5Pcreate(H5P_DATASET_XFER)) < 0) goto fail;
    if (f->parallel &&
        H5Pset_dxpl_mpio(f->dxpl, f->collective ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT) < 0)
        goto fail;
    goto out;
fail:
    efail_h5(e, f->writing ? "creating" : "opening", f->path);
out:
    if (fapl >= 0) H5Pclose(fapl);
    if (fcpl >= 0) H5Pclose(fcpl);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (space >= 0) H5Sclose(space);
}

static void f_open(file_t *f, int64_t size, MPI_Info info, gale_agree_t *e)
{
    f->fd = -1;
    f->fh = MPI_FILE_NULL;
    f->file = f->dset = f->dxpl = H5I_INVALID_HID;
    int crank = 0, rc;
    GALE_AGREE_MPI(e, MPI_Comm_rank(f->comm, &crank));
    switch (f->api) {
    case GALE_IOB_POSIX:
        /* a shared file: one rank creates it, then the others open it */
        if (f->writing && crank == 0) f->fd = open(f->path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (f->parallel) GALE_AGREE_MPI(e, MPI_Barrier(f->comm));
        if (f->writing && crank != 0) f->fd = open(f->path, O_WRONLY);
        if (!f->writing) f->fd = open(f->path, O_RDONLY);
        if (f->fd < 0) gale_agree_fail(e, "cannot open '%s': %s", f->path, strerror(errno));
        break;
    case GALE_IOB_MPIIO:
        rc = MPI_File_open(f->comm, f->path,
                           f->writing ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY, info,
                           &f->fh);
        if (rc != MPI_SUCCESS) {
            f->fh = MPI_FILE_NULL;
            gale_agree_fail_mpi(e, rc, "MPI_File_open", f->path);
        }
        break;
    default: h5_open(f, size, info, e);
    }
}

/* len 0: take part in a collective call with nothing to move. */
static void f_xfer(file_t *f, int64_t off, int64_t len, void *buf, gale_agree_t *e)
{
    int rc = MPI_SUCCESS;
    switch (f->api) {
    case GALE_IOB_POSIX:
        for (int64_t done = 0; done < len && !e->failed;) {
            ssize_t n = f->writing ? pwrite(f->fd, (char *)buf + done, (size_t)(len - done), off + done)
                                   : pread(f->fd, (char *)buf + done, (size_t)(len - done), off + done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0)
                gale_agree_fail(e, "%s '%s' at offset %lld: %s", f->writing ? "pwrite" : "pread", f->path,
                      (long long)(off + done), n < 0 ? strerror(errno) : "end of file");
            else
                done += n;
        }
        return;
    case GALE_IOB_MPIIO: {
        const int cnt = (int)(len / 8);
        if (f->collective)
            rc = f->writing ? MPI_File_write_at_all(f->fh, off, buf, cnt, MPI_DOUBLE, MPI_STATUS_IGNORE)
                            : MPI_File_read_at_all(f->fh, off, buf, cnt, MPI_DOUBLE, MPI_STATUS_IGNORE);
        else if (cnt)
            rc = f->writing ? MPI_File_write_at(f->fh, off, buf, cnt, MPI_DOUBLE, MPI_STATUS_IGNORE)
                            : MPI_File_read_at(f->fh, off, buf, cnt, MPI_DOUBLE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) gale_agree_fail_mpi(e, rc, f->writing ? "MPI-IO write to" : "MPI-IO read from", f->path);
        return;
    }
    default: {
        if (!f->collective && len == 0) return;
        hsize_t start = (hsize_t)(off / 8), cnt = (hsize_t)(len / 8), one = 1;
        hid_t fs = H5Dget_space(f->dset);
        hid_t ms = H5Screate_simple(1, cnt ? &cnt : &one, NULL);
        herr_t s = fs < 0 || ms < 0 ? -1 : 0;
        if (s >= 0)
            s = cnt ? H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &cnt, NULL)
                    : (H5Sselect_none(fs) < 0 ? -1 : H5Sselect_none(ms));
        if (s >= 0)
            s = f->writing ? H5Dwrite(f->dset, H5T_NATIVE_DOUBLE, ms, fs, f->dxpl, buf)
                           : H5Dread(f->dset, H5T_NATIVE_DOUBLE, ms, fs, f->dxpl, buf);
        if (s < 0) efail_h5(e, f->writing ? "H5Dwrite to" : "H5Dread from", f->path);
        if (fs >= 0) H5Sclose(fs);
        if (ms >= 0) H5Sclose(ms);
    }
    }
}

/* Hints MPI-IO reports for an open file: what ROMIO actually uses (none
 * when it reports none). */
static void applied_hints(const file_t *f, char *out, size_t n, gale_agree_t *e)
{
    MPI_File fh = f->fh;
    if (f->api == GALE_IOB_POSIX) return;
    if (f->api != GALE_IOB_MPIIO) {
        void *h = NULL;
        hid_t fapl = H5Fget_access_plist(f->file);
        if (!f->parallel || fapl < 0 || H5Fget_vfd_handle(f->file, fapl, &h) < 0 || !h) {
            if (fapl >= 0) H5Pclose(fapl);
            return;
        }
        H5Pclose(fapl);
        fh = *(MPI_File *)h;
    }
    MPI_Info info;
    if (MPI_File_get_info(fh, &info) != MPI_SUCCESS) return;
    static const char *const keys[] = {"cb_nodes", "cb_buffer_size", "romio_cb_write",
                                       "romio_cb_read", "romio_ds_write", "striping_factor",
                                       "striping_unit", "romio_no_indep_rw"};
    size_t len = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char v[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        if (!GALE_AGREE_MPI(e, MPI_Info_get(info, keys[i], MPI_MAX_INFO_VAL, v, &flag))) break;
        if (flag && len < n)
            len += (size_t)snprintf(out + len, n - len, "%s%s=%s", len ? "," : "", keys[i], v);
    }
    GALE_AGREE_MPI(e, MPI_Info_free(&info));
}

static void f_close(file_t *f, int do_fsync, gale_agree_t *e)
{
    int rc, crank = 0;
    GALE_AGREE_MPI(e, MPI_Comm_rank(f->comm, &crank));
    switch (f->api) {
    case GALE_IOB_POSIX:
        if (f->fd >= 0 && do_fsync && f->writing && fsync(f->fd) != 0)
            gale_agree_fail(e, "fsync '%s': %s", f->path, strerror(errno));
        if (f->fd >= 0 && close(f->fd) != 0) gale_agree_fail(e, "close '%s': %s", f->path, strerror(errno));
        f->fd = -1;
        return;
    case GALE_IOB_MPIIO:
        if (f->fh == MPI_FILE_NULL) return;
        if (do_fsync && f->writing && (rc = MPI_File_sync(f->fh)) != MPI_SUCCESS)
            gale_agree_fail_mpi(e, rc, "MPI_File_sync", f->path);
        if ((rc = MPI_File_close(&f->fh)) != MPI_SUCCESS) gale_agree_fail_mpi(e, rc, "MPI_File_close", f->path);
        return;
    default:
        if (f->dxpl >= 0) H5Pclose(f->dxpl);
        if (f->dset >= 0 && H5Dclose(f->dset) < 0) efail_h5(e, "H5Dclose", f->path);
        if (f->file >= 0 && H5Fclose(f->file) < 0) efail_h5(e, "H5Fclose", f->path);
        f->dxpl = f->dset = f->file = H5I_INVALID_HID;
        /* HDF5 has no fsync: the file's first rank syncs it after the close */
        if (do_fsync && f->writing && crank == 0) {
            int fd = open(f->path, O_RDONLY);
            if (fd < 0 || fsync(fd) != 0) gale_agree_fail(e, "fsync '%s': %s", f->path, strerror(errno));
            if (fd >= 0) close(fd);
        }
    }
}

/* ---- a case ---- */

typedef struct {
    const gale_iob_opts_t *o;
    MPI_Comm comm;
    int rank, size;
    int node_leader;            /* lowest rank of this node */
    /* aggregated */
    MPI_Comm gcomm, acomm;      /* my group; the aggregators (MPI_COMM_NULL elsewhere) */
    int gsize, *gmembers;       /* on aggregators: the group's world ranks */
    int naggr;
    /* this rank's role */
    int opener;
    char path[PATH_MAX];        /* the file this rank writes */
    char rpath[PATH_MAX];       /* the file this rank reads (fpp: the next rank's) */
    int src;                    /* whose data this rank reads back */
    int64_t nx, nmax;           /* transfers here, max over the file's ranks */
    double *block, *gbuf, *rbuf;
} ctx_t;

static double pattern_word(int rank, int64_t w) { return (double)rank * 4294967296.0 + (double)w; }

/* Offset in the file and place in memory of transfer t, for the data of
 * `owner` (fpp, shared) or the t-th transfer of the group (aggregated). */
static int64_t xfer_offset(const ctx_t *c, int64_t t, int owner, double *base, double **buf)
{
    const int64_t x = c->o->transfer, b = c->o->block;
    switch (c->o->pattern) {
    case GALE_IOB_FPP: *buf = base + t * x / 8; return t * x;
    case GALE_IOB_SHARED: *buf = base + t * x / 8; return (t * c->size + owner) * x;
    default: {
        const int64_t per = b / x, m = t / per, tt = t % per;
        *buf = base + (m * b + tt * x) / 8;
        return c->gmembers[m] * b + tt * x;
    }
    }
}

static int64_t count_bad(const double *buf, int64_t words, int owner)
{
    int64_t bad = 0;
    for (int64_t w = 0; w < words; w++) bad += buf[w] != pattern_word(owner, w);
    return bad;
}

/* One timed phase; returns this rank's (open start, close end) relative to
 * the barrier, or +-inf when it opens nothing. */
static void phase(ctx_t *c, int writing, MPI_Info info, int first, gale_iob_result_t *r,
                  double *t_open, double *t_close, gale_agree_t *e)
{
    const gale_iob_opts_t *o = c->o;
    const int agg = o->pattern == GALE_IOB_AGGREGATED;
    const int64_t words = o->block / 8;
    file_t f = {.api = o->api, .writing = writing,
                .parallel = o->pattern != GALE_IOB_FPP,
                .collective = o->collective && o->pattern != GALE_IOB_FPP,
                .comm = o->pattern == GALE_IOB_FPP ? MPI_COMM_SELF
                        : agg ? c->acomm : c->comm,
                .path = writing ? c->path : c->rpath};
    double *mem = agg ? c->gbuf : writing ? c->block : c->rbuf;
    const int owner = writing ? c->rank : c->src;
    *t_open = INFINITY, *t_close = -INFINITY;
    GALE_AGREE_MPI(e, MPI_Barrier(c->comm));
    const double t0 = MPI_Wtime();
    if (c->opener) {
        *t_open = MPI_Wtime() - t0;
        f_open(&f, o->pattern == GALE_IOB_FPP ? o->block : o->block * c->size, info, e);
    }
    if (gale_agree(e, c->comm)) goto done;
    /* every opener: H5Fget_access_plist duplicates the file's communicator,
     * a collective call (rank 0 keeps the answer) */
    if (first && writing && c->opener) {
        char h[sizeof r->hints_applied] = "";
        applied_hints(&f, h, sizeof h, e);
        if (c->rank == 0) memcpy(r->hints_applied, h, sizeof h);
    }
    /* aggregated: the group's blocks meet on its aggregator, inside the timed window */
    if (agg && writing)
        GALE_AGREE_MPI(e, MPI_Gather(c->block, (int)words, MPI_DOUBLE, c->gbuf, (int)words, MPI_DOUBLE,
                                     0, c->gcomm));
    if (c->opener) {
        /* collective calls: every rank of the file makes nmax of them, padding with empty ones */
        for (int64_t t = 0; t < c->nmax && (f.collective || !e->failed); t++) {
            double *buf = mem;
            int64_t off = t < c->nx ? xfer_offset(c, t, owner, mem, &buf) : 0;
            f_xfer(&f, off, t < c->nx ? o->transfer : 0, buf, e);
        }
    }
    if (agg && !writing)
        GALE_AGREE_MPI(e, MPI_Scatter(c->gbuf, (int)words, MPI_DOUBLE, c->rbuf, (int)words, MPI_DOUBLE,
                                      0, c->gcomm));
    if (c->opener) {
        f_close(&f, writing && o->fsync, e);
        *t_close = MPI_Wtime() - t0;
    }
done:
    if (c->opener) f_close(&f, 0, e); /* after a failure: no-op when closed */
    gale_agree(e, c->comm);
}

/* Evicts written files from this node's page cache, so that reads measure
 * the file system: fdatasync first (clean pages can be dropped). */
static void drop_cache(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    fdatasync(fd);
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
}

static void remove_files(ctx_t *c, gale_agree_t *e)
{
    if (c->o->pattern == GALE_IOB_FPP || c->rank == 0) unlink(c->path);
    GALE_AGREE_MPI(e, MPI_Barrier(c->comm));
}

/* min/mean/max of v over the ranks that have it (0 where none has) */
static void mmm(double v, int have, MPI_Comm comm, gale_iob_mmm_t *out, gale_agree_t *e)
{
    if (gale_mmm_some(comm, 1, &v, &have, &out->min, &out->mean, &out->max) != GALE_OK)
        gale_agree_fail(e, "the min/mean/max of the rates per rank failed (see above)");
}

static int setup(ctx_t *c, gale_agree_t *e)
{
    static const char *const exts[] = {"dat", "dat", "h5", "nc"};
    const gale_iob_opts_t *o = c->o;
    MPI_Comm node = MPI_COMM_NULL;
    int nrank = 0;
    GALE_AGREE_MPI(e, MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &node));
    if (node != MPI_COMM_NULL) GALE_AGREE_MPI(e, MPI_Comm_rank(node, &nrank));
    c->node_leader = nrank == 0;
    c->gcomm = c->acomm = MPI_COMM_NULL;
    const int64_t words = o->block / 8, per = o->block / o->transfer;
    c->block = malloc((size_t)o->block);
    c->rbuf = malloc((size_t)o->block);
    if (!c->block || !c->rbuf) gale_agree_fail(e, "cannot allocate 2 x %lld bytes", (long long)o->block);
    else
        for (int64_t w = 0; w < words; w++) c->block[w] = pattern_word(c->rank, w);
    c->src = c->rank;
    if (o->pattern == GALE_IOB_FPP) {
        /* read the next rank's file: on several nodes, data another node wrote */
        c->src = (c->rank + 1) % c->size;
        snprintf(c->path, sizeof c->path, "%s/iobench.%s.%06d.%s", o->dir, api_names[o->api],
                 c->rank, exts[o->api]);
        snprintf(c->rpath, sizeof c->rpath, "%s/iobench.%s.%06d.%s", o->dir, api_names[o->api],
                 c->src, exts[o->api]);
        c->opener = 1;
        c->nx = c->nmax = per;
    } else {
        snprintf(c->path, sizeof c->path, "%s/iobench.%s.shared.%s", o->dir, api_names[o->api],
                 exts[o->api]);
        snprintf(c->rpath, sizeof c->rpath, "%s", c->path);
        if (o->pattern == GALE_IOB_SHARED) {
            c->src = (c->rank + 1) % c->size;
            c->opener = 1;
            c->nx = c->nmax = per;
        }
    }
    if (o->pattern == GALE_IOB_AGGREGATED) {
        if (o->aggregators <= 0) {
            /* one aggregator per node, as MOM5 */
            if (node != MPI_COMM_NULL) GALE_AGREE_MPI(e, MPI_Comm_dup(node, &c->gcomm));
        } else {
            int a = o->aggregators < c->size ? o->aggregators : c->size;
            int g = (int)((int64_t)c->rank * a / c->size); /* contiguous groups */
            GALE_AGREE_MPI(e, MPI_Comm_split(c->comm, g, c->rank, &c->gcomm));
        }
        int grank = 0;
        if (c->gcomm != MPI_COMM_NULL) {
            GALE_AGREE_MPI(e, MPI_Comm_rank(c->gcomm, &grank));
            GALE_AGREE_MPI(e, MPI_Comm_size(c->gcomm, &c->gsize));
        }
        c->opener = grank == 0;
        GALE_AGREE_MPI(e, MPI_Comm_split(c->comm, c->opener ? 0 : MPI_UNDEFINED, c->rank, &c->acomm));
        c->naggr = c->opener;
        GALE_AGREE_MPI(e, MPI_Allreduce(MPI_IN_PLACE, &c->naggr, 1, MPI_INT, MPI_SUM, c->comm));
        c->gmembers = malloc((size_t)c->gsize * sizeof *c->gmembers);
        if (c->opener) c->gbuf = malloc((size_t)c->gsize * (size_t)o->block);
        if (!c->gmembers || (c->opener && !c->gbuf))
            gale_agree_fail(e, "cannot allocate the aggregation buffer (%d x %lld bytes)", c->gsize,
                  (long long)o->block);
        else
            GALE_AGREE_MPI(e, MPI_Gather(&c->rank, 1, MPI_INT, c->gmembers, 1, MPI_INT, 0, c->gcomm));
        c->nx = c->opener ? (int64_t)c->gsize * per : 0;
        c->nmax = c->nx;
        GALE_AGREE_MPI(e, MPI_Allreduce(MPI_IN_PLACE, &c->nmax, 1, MPI_INT64_T, MPI_MAX, c->comm));
    }
    if (node != MPI_COMM_NULL) GALE_AGREE_MPI(e, MPI_Comm_free(&node));
    return !gale_agree(e, c->comm);
}

static int parse_hints(const char *s, MPI_Info *info, gale_agree_t *e)
{
    if (!GALE_AGREE_MPI(e, MPI_Info_create(info))) {
        *info = MPI_INFO_NULL;
        return 0;
    }
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", s ? s : "");
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq || eq == kv || !eq[1]) {
            gale_agree_fail(e, "hint '%s' is not key=value", kv);
            return 0;
        }
        *eq = '\0';
        if (!GALE_AGREE_MPI(e, MPI_Info_set(*info, kv, eq + 1))) return 0;
    }
    return 1;
}

int gale_iob_run(const gale_iob_opts_t *o, MPI_Comm comm, gale_iob_result_t *r)
{
    memset(r, 0, sizeof *r);
    gale_agree_t e = {0};
    ctx_t c = {.o = o, .comm = comm};
    GALE_AGREE_MPI(&e, MPI_Comm_rank(comm, &c.rank));
    GALE_AGREE_MPI(&e, MPI_Comm_size(comm, &c.size));
    MPI_Info info = MPI_INFO_NULL;
    GALE_ASSERT(o->block > 0 && o->transfer > 0 && o->transfer % 8 == 0 &&
                o->block % o->transfer == 0 && o->iterations >= 1);
    parse_hints(o->hints, &info, &e);
    if (!gale_agree(&e, comm) && setup(&c, &e)) {
        double wsum = 0, rsum = 0, wrank = 0, rrank = 0;
        int64_t bad = 0;
        /* agreed before each iteration and after the last: a failed
         * reduction below is one rank's until then */
        for (int it = 0; !gale_agree(&e, comm) && it < o->iterations; it++) {
            double t0, t1;
            remove_files(&c, &e);
            phase(&c, 1, info, it == 0, r, &t0, &t1, &e);
            if (e.failed) break;
            double w[2] = {-t0, t1};
            GALE_AGREE_MPI(&e, MPI_Allreduce(MPI_IN_PLACE, w, 2, MPI_DOUBLE, MPI_MAX, comm));
            wsum += w[0] + w[1];
            if (c.opener) wrank += t1 - t0;
            if (!o->read) continue;
            /* a file per process: its writer; a shared file: one rank per node */
            if (o->drop_cache && (o->pattern == GALE_IOB_FPP ? c.opener : c.node_leader))
                drop_cache(c.path);
            memset(c.rbuf, 0, (size_t)o->block);
            phase(&c, 0, info, 0, r, &t0, &t1, &e);
            if (e.failed) break;
            double rr[2] = {-t0, t1};
            GALE_AGREE_MPI(&e, MPI_Allreduce(MPI_IN_PLACE, rr, 2, MPI_DOUBLE, MPI_MAX, comm));
            rsum += rr[0] + rr[1];
            if (c.opener) rrank += t1 - t0;
            bad += count_bad(c.rbuf, o->block / 8, c.src);
        }
        if (!e.failed) {
            const double mib = (double)o->block * c.size * o->iterations / 1048576.0;
            /* per rank: the bytes it moved through the API over its own window */
            const double my = c.opener ? (double)(c.nx * o->transfer) * o->iterations / 1048576.0 : 0;
            GALE_AGREE_MPI(&e, MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT64_T, MPI_SUM, comm));
            r->bytes = o->block * c.size * o->iterations;
            r->write_s = wsum;
            r->read_s = rsum;
            r->write_rate = wsum > 0 ? mib / wsum : 0;
            r->read_rate = rsum > 0 ? mib / rsum : 0;
            mmm(wrank > 0 ? my / wrank : 0, c.opener, comm, &r->rank_write_rate, &e);
            mmm(rrank > 0 ? my / rrank : 0, c.opener && o->read, comm, &r->rank_read_rate, &e);
            r->writers = c.opener;
            GALE_AGREE_MPI(&e, MPI_Allreduce(MPI_IN_PLACE, &r->writers, 1, MPI_INT, MPI_SUM, comm));
            r->files = o->pattern == GALE_IOB_FPP ? c.size : 1;
            r->verify_errors = bad;
            gale_agree(&e, comm);
        }
        if (!o->keep || e.failed) remove_files(&c, &e);
    }
    if (info != MPI_INFO_NULL) GALE_AGREE_MPI(&e, MPI_Info_free(&info));
    if (c.gcomm != MPI_COMM_NULL) GALE_AGREE_MPI(&e, MPI_Comm_free(&c.gcomm));
    if (c.acomm != MPI_COMM_NULL) GALE_AGREE_MPI(&e, MPI_Comm_free(&c.acomm));
    free(c.block), free(c.rbuf), free(c.gbuf), free(c.gmembers);
    if (gale_agree(&e, comm)) {
        if (c.rank == 0)
            gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__, "iobench %s/%s: %s",
                             pattern_names[o->pattern], api_names[o->api], e.msg);
        return GALE_ERR_IO;
    }
    return GALE_OK;
}
