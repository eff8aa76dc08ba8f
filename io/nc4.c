/* The netCDF-4 writer layer (gale_nc4.h): HDF5 calls laid out as netCDF-C does. */
#include "gale_nc4.h"
#include "gale_io.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5_hl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* netCDF-C's names (netcdf.h, nc4internal.h): readers depend on them. */
#define DIM_WITHOUT_VARIABLE "This is a netCDF dimension but not a netCDF variable."
#define NC_DIMID_ATT "_Netcdf4Dimid"
#define NC_COORDS_ATT "_Netcdf4Coordinates"
#define NC_PROPS_ATT "_NCProperties"

typedef struct {
    char *name;
    hsize_t len;
    hid_t scale; /* the hidden dimension dataset, or the coordinate variable's */
    int coord;   /* varid of the coordinate variable, or -1 */
} dim_t;

typedef struct {
    hid_t dset;
    gale_nc4_type_t type;
    int ndims;
    int dimids[H5S_MAX_RANK];
    char *name; /* for messages */
} var_t;

struct gale_nc4 {
    hid_t file, root;
    hid_t dxpl;       /* H5P_DEFAULT, or MPI-IO transfers (collective or independent) */
    char *path, *tmp;
    dim_t *dims;
    var_t *vars;
    int ndims, nvars, cap_dims, cap_vars;
    int par, rank;    /* parallel (MPI-IO) file, and this rank in its communicator */
    int coll;         /* parallel: data transfers are collective */
    MPI_Comm comm;    /* HDF5's copy of the file's communicator (parallel only) */
};

void gale_io_version(char *buf, size_t n)
{
    unsigned a = 0, b = 0, c = 0;
    H5get_libversion(&a, &b, &c);
    snprintf(buf, n, "HDF5 %u.%u.%u", a, b, c);
}

/* ---- errors ---- */

typedef struct { int n; char top[512], bottom[512]; } h5msg_t;

static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *data)
{
    h5msg_t *m = data;
    if (m->n++ == 0) snprintf(m->top, sizeof m->top, "%s", e->desc ? e->desc : "");
    snprintf(m->bottom, sizeof m->bottom, "%s", e->desc ? e->desc : "");
    return 0;
}

int gale_h5_error(const char *call, const char *file, int line, const char *func)
{
    /* Name the HDF5 function, not the whole expression it sits in. */
    const char *p = strstr(call, "H5");
    if (!p) p = call;
    int len = (int)strcspn(p, "(");
    h5msg_t m = {0};
    /* Take (and clear) the stack, then walk the copy: top = the API call's
     * own message, bottom = the innermost cause (e.g. errno's text). */
    hid_t stack = H5Eget_current_stack();
    if (stack >= 0) {
        H5Ewalk2(stack, H5E_WALK_DOWNWARD, walk_cb, &m);
        H5Eclose_stack(stack);
    }
    if (m.n == 0)
        return gale_error_raise(GALE_ERR_IO, file, line, func, "%.*s failed (no HDF5 message)",
                                len, p);
    /* the file drivers' record ("file write failed: time = ..., filename =
     * ..., errno = 28, error message = 'No space left on device', buf =
     * ...") shortened to its file and errno's text */
    const char *fn = strstr(m.bottom, "name = '"), *em = strstr(m.bottom, "error message = '");
    if (em) {
        char cause[sizeof m.bottom];
        int k = snprintf(cause, sizeof cause, "%.*s", (int)strcspn(m.bottom, ":"), m.bottom);
        if (fn)
            k += snprintf(cause + k, sizeof cause - (size_t)k, " '%.*s'", (int)strcspn(fn + 8, "'"),
                          fn + 8);
        if (k < (int)sizeof cause)
            snprintf(cause + k, sizeof cause - (size_t)k, ": %.*s", (int)strcspn(em + 17, "'"),
                     em + 17);
        memcpy(m.bottom, cause, sizeof cause);
    }
    if (m.n == 1 || strcmp(m.top, m.bottom) == 0)
        return gale_error_raise(GALE_ERR_IO, file, line, func, "%.*s failed: %s", len, p, m.top);
    return gale_error_raise(GALE_ERR_IO, file, line, func, "%.*s failed: %s: %s", len, p, m.top,
                            m.bottom);
}

/* ---- types ---- */

static hid_t file_type(gale_nc4_type_t t)
{
    /* Little-endian in the file whatever the host: files are portable. */
    return t == GALE_NC4_INT ? H5T_STD_I32LE : t == GALE_NC4_FLOAT ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
}

static hid_t mem_type(gale_nc4_type_t t)
{
    return t == GALE_NC4_INT ? H5T_NATIVE_INT : t == GALE_NC4_FLOAT ? H5T_NATIVE_FLOAT
                                                                     : H5T_NATIVE_DOUBLE;
}

/* netCDF's default fill values (NC_FILL_INT/FLOAT/DOUBLE): what a reader
 * assumes unwritten data hold when a variable has no _FillValue. */
static const int fill_int = -2147483647;
static const float fill_float = 9.9692099683868690e+36f;
static const double fill_double = 9.9692099683868690e+36;

static const void *default_fill(gale_nc4_type_t t)
{
    return t == GALE_NC4_INT ? (const void *)&fill_int
         : t == GALE_NC4_FLOAT ? (const void *)&fill_float : (const void *)&fill_double;
}

/* ---- fault injection (GALE_IO_FAULT) ---- */

int gale_io_fault_parse(const char *spec, long *nth, int *die)
{
    char *end;
    *nth = 0;
    if (die) *die = 0;
    if (!spec || !*spec) return GALE_OK;
    const int k = strncmp(spec, "kill@", 5) == 0;
    if (!k && strncmp(spec, "enospc@", 7) != 0) return GALE_ERR_INPUT;
    if (die) *die = k;
    errno = 0;
    long n = strtol(spec + (k ? 5 : 7), &end, 10);
    if (errno || *end || n < 1) return GALE_ERR_INPUT;
    *nth = n;
    return GALE_OK;
}

/* Counts this process's writes; the N-th fails as a full disk would, or
 * (kill@N) the process dies there as a crashed rank does. It sits where a
 * real write error surfaces (before H5Dwrite), so the error takes the same
 * path. Only the thread that owns HDF5 gets here, so no lock. */
static int fault_check(const gale_nc4_t *f, const var_t *v)
{
    static long nth = -1, count = 0;
    static int die = 0;
    if (nth < 0 && gale_io_fault_parse(getenv("GALE_IO_FAULT"), &nth, &die) != GALE_OK) nth = 0;
    if (nth == 0 || ++count != nth) return GALE_OK;
    if (die) {
        fprintf(stderr, "gale: [rank %d] killed writing '%s' to %s (injected by GALE_IO_FAULT=%s)\n",
                gale_log_rank(), v->name, f->tmp, getenv("GALE_IO_FAULT"));
        fflush(stderr);
        raise(SIGKILL);
    }
    return gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__,
                            "H5Dwrite of '%s' to %s failed: %s (injected by GALE_IO_FAULT=%s)",
                            v->name, f->tmp, strerror(ENOSPC), getenv("GALE_IO_FAULT"));
}

/* ---- file ---- */

int gale_nc4_create(gale_nc4_t **fp, const char *path, hid_t fapl)
{
    int st = GALE_OK;
    hid_t access = H5I_INVALID_HID, fcpl = H5I_INVALID_HID;
    gale_nc4_t *f = calloc(1, sizeof *f);
    *fp = f;
    if (!f) GALE_ERROR(GALE_ERR_MEM, "out of memory opening %s", path);
    f->file = f->root = H5I_INVALID_HID;
    f->dxpl = H5P_DEFAULT;
    f->comm = MPI_COMM_NULL;
    size_t n = strlen(path);
    f->path = malloc(n + 1);
    f->tmp = malloc(n + 5);
    if (!f->path || !f->tmp) {
        st = gale_error_raise(GALE_ERR_MEM, __FILE__, __LINE__, __func__, "out of memory");
        goto done;
    }
    memcpy(f->path, path, n + 1);
    snprintf(f->tmp, n + 5, "%s.tmp", path);

    /* gale reports HDF5 errors itself (gale_h5_error), once. */
    GALE_H5(H5Eset_auto2(H5E_DEFAULT, NULL, NULL));
    GALE_H5(access = fapl == H5P_DEFAULT ? H5Pcreate(H5P_FILE_ACCESS) : H5Pcopy(fapl));
    if (H5Pget_driver(access) == H5FD_MPIO) {
        /* Parallel: every call below is then collective over the file's
         * communicator, and data go through collective MPI-IO transfers. */
        MPI_Info info = MPI_INFO_NULL;
        GALE_H5(H5Pget_fapl_mpio(access, &f->comm, &info));
        if (info != MPI_INFO_NULL) GALE_MPI_TRY(MPI_Info_free(&info));
        GALE_MPI_TRY(MPI_Comm_rank(f->comm, &f->rank));
        f->par = f->coll = 1;
        GALE_H5(f->dxpl = H5Pcreate(H5P_DATASET_XFER));
        GALE_H5(H5Pset_dxpl_mpio(f->dxpl, H5FD_MPIO_COLLECTIVE));
    }
    /* netCDF-C 4.9 asks for (V18, LATEST); capping at V18 keeps the same
     * format (superblock 2) and the file readable by HDF5 1.8 based tools. */
    GALE_H5(H5Pset_libver_bounds(access, H5F_LIBVER_V18, H5F_LIBVER_V18));
    /* Closing the file closes whatever an error path left open. */
    GALE_H5(H5Pset_fclose_degree(access, H5F_CLOSE_STRONG));
    GALE_H5(fcpl = H5Pcreate(H5P_FILE_CREATE));
    GALE_H5(H5Pset_obj_track_times(fcpl, 0)); /* same bytes for the same data */
    GALE_H5(H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    GALE_H5(H5Pset_attr_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    GALE_H5(f->file = H5Fcreate(f->tmp, H5F_ACC_TRUNC, fcpl, access));
    GALE_H5(f->root = H5Gopen2(f->file, "/", H5P_DEFAULT));

    /* Provenance, as netCDF-C writes it (hidden by netCDF readers; ncdump -s
     * shows it). Unknown keys are allowed by netCDF's parser. */
    unsigned a, b, c;
    char props[128];
    GALE_H5(H5get_libversion(&a, &b, &c));
    snprintf(props, sizeof props, "version=2,gale=%s,hdf5=%u.%u.%u", GALE_VERSION, a, b, c);
    GALE_TRY(gale_nc4_put_att_text(f, GALE_NC4_GLOBAL, NC_PROPS_ATT, props));
done:
    GALE_H5_CLOSE(H5Pclose, access);
    GALE_H5_CLOSE(H5Pclose, fcpl);
    if (st != GALE_OK) gale_nc4_abort(fp);
    return st;
}

/* Closes every object and the file; returns the first failure, reported
 * only when st (the status so far) is GALE_OK. */
static int close_all(gale_nc4_t *f, int st)
{
    for (int v = 0; v < f->nvars; v++) GALE_H5_CLOSE(H5Dclose, f->vars[v].dset);
    for (int d = 0; d < f->ndims; d++) {
        if (f->dims[d].coord < 0) GALE_H5_CLOSE(H5Dclose, f->dims[d].scale);
        f->dims[d].scale = H5I_INVALID_HID;
    }
    GALE_H5_CLOSE(H5Gclose, f->root);
    GALE_H5_CLOSE(H5Fclose, f->file);
    return st;
}

/* Frees f; returns the status of freeing its communicator. */
static int free_file(gale_nc4_t *f)
{
    int st = GALE_OK, rc;
    for (int d = 0; d < f->ndims; d++) free(f->dims[d].name);
    for (int v = 0; v < f->nvars; v++) free(f->vars[v].name);
    if (f->dxpl != H5P_DEFAULT) H5Pclose(f->dxpl);
    if (f->comm != MPI_COMM_NULL && (rc = MPI_Comm_free(&f->comm)) != MPI_SUCCESS)
        st = gale_error_mpi(rc, "MPI_Comm_free(&f->comm)", __FILE__, __LINE__, __func__);
    free(f->dims);
    free(f->vars);
    free(f->path);
    free(f->tmp);
    free(f);
    return st;
}

void gale_nc4_abort(gale_nc4_t **fp)
{
    gale_nc4_t *f = *fp;
    if (!f) return;
    /* Already failing: the first error has been reported; what matters now
     * is that the temporary file goes. Every object is closed by its own
     * call, quietly. */
    H5E_BEGIN_TRY { (void)close_all(f, GALE_ERR_IO); } H5E_END_TRY;
    if (f->tmp && (!f->par || f->rank == 0)) remove(f->tmp);
    free_file(f); /* a failure there is reported; the first one is the caller's */
    *fp = NULL;
}

int gale_nc4_commit(gale_nc4_t **fp)
{
    gale_nc4_t *f = *fp;
    int st = GALE_OK, fd = -1;
    char why[8400];
    /* Flush and close even after a failed flush: both are collective on a
     * parallel file, and every rank must make the same calls. The flush of
     * an MPI-IO file is an MPI_File_sync of every rank's data. */
    if (H5Fflush(f->file, H5F_SCOPE_GLOBAL) < 0)
        st = gale_h5_error("H5Fflush", __FILE__, __LINE__, __func__);
    int st2 = close_all(f, GALE_OK);
    if (st == GALE_OK) st = st2;
    if (f->par) {
        /* One rank names the file complete, and only if every rank's part is. */
        int bad = st != GALE_OK;
        const int rc = MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, f->comm);
        if (rc != MPI_SUCCESS && st == GALE_OK)
            st = gale_error_mpi(rc, "MPI_Allreduce", __FILE__, __LINE__, __func__);
        else if (bad && st == GALE_OK)
            st = gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__,
                                  "%s: another rank failed to write its part", f->path);
    }
    if (st == GALE_OK && (!f->par || f->rank == 0)) {
        /* The data must be on disk before the name says the file is complete. */
        if ((fd = open(f->tmp, O_RDONLY)) < 0 || fsync(fd) != 0)
            st = gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__, "fsync %s: %s",
                                  f->tmp, strerror(errno));
        else if (gale_file_publish(f->tmp, f->path, why, sizeof why) != 0)
            st = gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__, "%s", why);
    }
    if (f->par) {
        int bad = st != GALE_OK;
        const int rc = MPI_Bcast(&bad, 1, MPI_INT, 0, f->comm);
        if (rc != MPI_SUCCESS && st == GALE_OK)
            st = gale_error_mpi(rc, "MPI_Bcast", __FILE__, __LINE__, __func__);
        else if (bad && st == GALE_OK)
            st = GALE_ERR_IO; /* rank 0 said why */
    }
    if (fd >= 0) close(fd);
    if (st != GALE_OK) {
        gale_nc4_abort(fp);
        return st;
    }
    st = free_file(f);
    *fp = NULL;
    return st;
}

int gale_nc4_collective(gale_nc4_t *f, int on)
{
    int st = GALE_OK;
    if (!f->par || f->coll == !!on) return GALE_OK;
    GALE_H5(H5Pset_dxpl_mpio(f->dxpl, on ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT));
    f->coll = !!on;
done:
    return st;
}

int gale_nc4_hints(gale_nc4_t *f, char *buf, size_t n)
{
    int st = GALE_OK;
    hid_t fapl = H5I_INVALID_HID;
    MPI_File *fh = NULL;
    MPI_Info info = MPI_INFO_NULL;
    size_t len = 0;
    buf[0] = '\0';
    if (!f->par) return GALE_OK;
    GALE_H5(fapl = H5Fget_access_plist(f->file));
    GALE_H5(H5Fget_vfd_handle(f->file, fapl, (void **)&fh));
    int e = MPI_File_get_info(*fh, &info);
    if (e != MPI_SUCCESS) {
        st = gale_error_mpi(e, "MPI_File_get_info", __FILE__, __LINE__, __func__);
        goto done;
    }
    int nkeys = 0;
    GALE_MPI_TRY(MPI_Info_get_nkeys(info, &nkeys));
    for (int i = 0; i < nkeys && len < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1], val[256];
        int flag = 0;
        GALE_MPI_TRY(MPI_Info_get_nthkey(info, i, key));
        GALE_MPI_TRY(MPI_Info_get(info, key, sizeof val - 1, val, &flag));
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", i ? " " : "", key, flag ? val : "?");
    }
done:
    if (info != MPI_INFO_NULL) {
        const int rc = MPI_Info_free(&info);
        if (rc != MPI_SUCCESS && st == GALE_OK)
            st = gale_error_mpi(rc, "MPI_Info_free(&info)", __FILE__, __LINE__, __func__);
    }
    GALE_H5_CLOSE(H5Pclose, fapl);
    return st;
}

/* ---- attributes ---- */

static int att_loc(const gale_nc4_t *f, int varid, hid_t *loc)
{
    if (varid == GALE_NC4_GLOBAL) *loc = f->root;
    else if (varid >= 0 && varid < f->nvars) *loc = f->vars[varid].dset;
    else GALE_ERROR(GALE_ERR_INTERNAL, "no variable %d in %s", varid, f->path);
    return GALE_OK;
}

/* A 1-D attribute of n values (n >= 1). */
static int put_att(gale_nc4_t *f, int varid, const char *name, hid_t ftype, hid_t mtype, size_t n,
                   const void *v)
{
    int st = GALE_OK;
    hid_t loc = H5I_INVALID_HID, space = H5I_INVALID_HID, att = H5I_INVALID_HID;
    GALE_CALL(att_loc(f, varid, &loc));
    GALE_ASSERT(n >= 1);
    hsize_t len = n;
    GALE_H5(space = H5Screate_simple(1, &len, NULL));
    GALE_H5(att = H5Acreate2(loc, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT));
    GALE_H5(H5Awrite(att, mtype, v));
done:
    GALE_H5_CLOSE(H5Aclose, att);
    GALE_H5_CLOSE(H5Sclose, space);
    return st;
}

int gale_nc4_put_att_int(gale_nc4_t *f, int varid, const char *name, size_t n, const int *v)
{
    return put_att(f, varid, name, H5T_STD_I32LE, H5T_NATIVE_INT, n, v);
}

int gale_nc4_put_att_double(gale_nc4_t *f, int varid, const char *name, size_t n,
                            const double *v)
{
    return put_att(f, varid, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, n, v);
}

int gale_nc4_put_att_text(gale_nc4_t *f, int varid, const char *name, const char *text)
{
    int st = GALE_OK;
    hid_t loc = H5I_INVALID_HID, type = H5I_INVALID_HID, space = H5I_INVALID_HID, att = H5I_INVALID_HID;
    GALE_CALL(att_loc(f, varid, &loc));
    size_t len = strlen(text);
    /* netCDF's NC_CHAR attribute: a fixed-length string of exactly the text's
     * length in a scalar dataspace (a variable-length string would be read as
     * NC_STRING and shown by ncdump as `string name = ...`). HDF5 cannot have
     * a zero-size string type: "" is size 1 with a null dataspace. */
    GALE_H5(type = H5Tcopy(H5T_C_S1));
    GALE_H5(H5Tset_size(type, len ? len : 1));
    GALE_H5(H5Tset_strpad(type, H5T_STR_NULLTERM));
    GALE_H5(space = H5Screate(len ? H5S_SCALAR : H5S_NULL));
    GALE_H5(att = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
    if (len) GALE_H5(H5Awrite(att, type, text));
done:
    GALE_H5_CLOSE(H5Aclose, att);
    GALE_H5_CLOSE(H5Sclose, space);
    GALE_H5_CLOSE(H5Tclose, type);
    return st;
}

/* ---- dimensions and variables ---- */

static int grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap) return GALE_OK;
    int cap2 = *cap ? 2 * *cap : 16;
    void *q = realloc(*p, (size_t)cap2 * size);
    if (!q) GALE_ERROR(GALE_ERR_MEM, "out of memory defining netCDF objects");
    *p = q;
    *cap = cap2;
    return GALE_OK;
}

/* A dataset with netCDF's creation properties. */
static int create_dataset(gale_nc4_t *f, const char *name, hid_t ftype, int ndims,
                          const hsize_t *shape, hid_t fill_type, const void *fill,
                          const gale_nc4_varopt_t *opt, hid_t *dset)
{
    int st = GALE_OK;
    hid_t dcpl = H5I_INVALID_HID, space = H5I_INVALID_HID;
    GALE_H5(dcpl = H5Pcreate(H5P_DATASET_CREATE));
    GALE_H5(H5Pset_obj_track_times(dcpl, 0));
    GALE_H5(H5Pset_attr_creation_order(dcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    if (fill) GALE_H5(H5Pset_fill_value(dcpl, fill_type, fill));
    if (opt && opt->nofill) GALE_H5(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER));
    if (opt && opt->chunk && ndims) {
        hsize_t c[H5S_MAX_RANK];
        for (int d = 0; d < ndims; d++)
            c[d] = opt->chunk[d] >= 1 && (hsize_t)opt->chunk[d] < shape[d] ? (hsize_t)opt->chunk[d]
                                                                            : shape[d];
        GALE_H5(H5Pset_chunk(dcpl, ndims, c));
    }
    GALE_H5(space = ndims ? H5Screate_simple(ndims, shape, shape) : H5Screate(H5S_SCALAR));
    GALE_H5(*dset = H5Dcreate2(f->root, name, ftype, space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
done:
    GALE_H5_CLOSE(H5Sclose, space);
    GALE_H5_CLOSE(H5Pclose, dcpl);
    return st;
}

/* Registers dimension `name` whose scale dataset is `scale` (already created
 * and marked as a scale) and writes its dimid, as netCDF-C does. */
static int add_dim(gale_nc4_t *f, const char *name, int64_t len, hid_t scale, int coord, int *dimid)
{
    int st = GALE_OK, id = f->ndims;
    hid_t space = H5I_INVALID_HID, att = H5I_INVALID_HID;
    GALE_H5(space = H5Screate(H5S_SCALAR));
    GALE_H5(att = H5Acreate2(scale, NC_DIMID_ATT, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT));
    GALE_H5(H5Awrite(att, H5T_NATIVE_INT, &id));
    dim_t *d = &f->dims[id];
    if (!(d->name = malloc(strlen(name) + 1))) {
        st = gale_error_raise(GALE_ERR_MEM, __FILE__, __LINE__, __func__, "out of memory");
        goto done;
    }
    strcpy(d->name, name);
    d->len = (hsize_t)len;
    d->scale = scale;
    d->coord = coord;
    *dimid = f->ndims++;
done:
    GALE_H5_CLOSE(H5Aclose, att);
    GALE_H5_CLOSE(H5Sclose, space);
    return st;
}

int gale_nc4_def_dim(gale_nc4_t *f, const char *name, int64_t len, int *dimid)
{
    int st = GALE_OK;
    hid_t ds = H5I_INVALID_HID;
    GALE_ASSERT(len >= 1); /* netCDF's length 0 means unlimited: not supported */
    GALE_CALL(grow((void **)&f->dims, &f->cap_dims, f->ndims + 1, sizeof *f->dims));
    hsize_t n = (hsize_t)len;
    /* netCDF-C's hidden dimension dataset: big-endian float, never written
     * (so it takes no space), named by the scale NAME as not a variable. */
    GALE_CALL(create_dataset(f, name, H5T_IEEE_F32BE, 1, &n, H5I_INVALID_HID, NULL, NULL, &ds));
    char scale_name[sizeof DIM_WITHOUT_VARIABLE + 24];
    snprintf(scale_name, sizeof scale_name, "%s%10lld", DIM_WITHOUT_VARIABLE, (long long)len);
    GALE_H5(H5DSset_scale(ds, scale_name));
    GALE_TRY(add_dim(f, name, len, ds, -1, dimid));
    ds = H5I_INVALID_HID; /* now closed by commit */
done:
    GALE_H5_CLOSE(H5Dclose, ds);
    return st;
}

/* The dataset of a new variable with its fill value and, as netCDF-C 4.9
 * writes for every variable of rank >= 1, _Netcdf4Coordinates (its dimids:
 * readers then need not match scales). */
static int new_var(gale_nc4_t *f, const char *name, gale_nc4_type_t type, int ndims,
                   const int *dimids, const hsize_t *shape, const void *fill,
                   const gale_nc4_varopt_t *opt, int *varid)
{
    GALE_ASSERT(type >= GALE_NC4_INT && type <= GALE_NC4_DOUBLE && ndims >= 0 &&
                ndims <= H5S_MAX_RANK);
    GALE_CALL(grow((void **)&f->vars, &f->cap_vars, f->nvars + 1, sizeof *f->vars));
    var_t *v = &f->vars[f->nvars];
    if (!(v->name = malloc(strlen(name) + 1))) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    strcpy(v->name, name);
    v->dset = H5I_INVALID_HID;
    v->type = type;
    v->ndims = ndims;
    for (int d = 0; d < ndims; d++) v->dimids[d] = dimids[d];
    *varid = f->nvars++; /* from here on, close_all and free_file own it */
    GALE_CALL(create_dataset(f, name, file_type(type), ndims, shape, mem_type(type),
                             fill ? fill : default_fill(type), opt, &v->dset));
    if (ndims)
        GALE_CALL(put_att(f, *varid, NC_COORDS_ATT, H5T_NATIVE_INT, H5T_NATIVE_INT,
                          (size_t)ndims, dimids));
    return GALE_OK;
}

int gale_nc4_def_coord(gale_nc4_t *f, const char *name, int64_t len, gale_nc4_type_t type,
                       int *dimid, int *varid)
{
    int st = GALE_OK;
    GALE_ASSERT(len >= 1);
    GALE_CALL(grow((void **)&f->dims, &f->cap_dims, f->ndims + 1, sizeof *f->dims));
    hsize_t n = (hsize_t)len;
    const int id = f->ndims; /* the dimid add_dim will give it */
    GALE_CALL(new_var(f, name, type, 1, &id, &n, NULL, NULL, varid));
    hid_t dset = f->vars[*varid].dset;
    /* A coordinate variable is its own dimension scale, named as itself. */
    GALE_H5(H5DSset_scale(dset, name));
    GALE_TRY(add_dim(f, name, len, dset, *varid, dimid));
done:
    return st;
}

int gale_nc4_def_var(gale_nc4_t *f, const char *name, gale_nc4_type_t type, int ndims,
                     const int *dimids, const void *fill, int *varid)
{
    return gale_nc4_def_var_ex(f, name, type, ndims, dimids, fill, NULL, varid);
}

int gale_nc4_def_var_ex(gale_nc4_t *f, const char *name, gale_nc4_type_t type, int ndims,
                        const int *dimids, const void *fill, const gale_nc4_varopt_t *opt,
                        int *varid)
{
    int st = GALE_OK;
    hsize_t shape[H5S_MAX_RANK];
    GALE_ASSERT(ndims >= 0 && ndims <= H5S_MAX_RANK);
    for (int d = 0; d < ndims; d++) {
        GALE_ASSERT(dimids[d] >= 0 && dimids[d] < f->ndims);
        shape[d] = f->dims[dimids[d]].len;
    }
    GALE_CALL(new_var(f, name, type, ndims, dimids, shape, fill, opt, varid));
    /* _FillValue: the dataset's fill property (set above) and an attribute. */
    if (fill)
        GALE_TRY(put_att(f, *varid, "_FillValue", file_type(type), mem_type(type), 1, fill));
    hid_t dset = f->vars[*varid].dset;
    for (int d = 0; d < ndims; d++)
        GALE_H5(H5DSattach_scale(dset, f->dims[dimids[d]].scale, (unsigned)d));
done:
    return st;
}

/* ---- data ---- */

int gale_nc4_put_var(gale_nc4_t *f, int varid, const void *data)
{
    int st = GALE_OK;
    hid_t space = H5I_INVALID_HID;
    GALE_ASSERT(varid >= 0 && varid < f->nvars);
    var_t *v = &f->vars[varid];
    GALE_CALL(fault_check(f, v));
    if (f->par && f->rank != 0 && !f->coll) return GALE_OK;
    if (f->par && f->rank != 0) {
        /* The same values from every rank would be written n times: rank 0
         * writes them, the others join the collective call with nothing. */
        GALE_H5(space = H5Dget_space(v->dset));
        GALE_H5(H5Sselect_none(space));
        GALE_H5(H5Dwrite(v->dset, mem_type(v->type), space, space, f->dxpl, data));
    } else {
        GALE_H5(H5Dwrite(v->dset, mem_type(v->type), H5S_ALL, H5S_ALL, f->dxpl, data));
    }
done:
    GALE_H5_CLOSE(H5Sclose, space);
    return st;
}

int gale_nc4_put_rows(gale_nc4_t *f, int varid, int64_t start, int64_t count, const void *data)
{
    return gale_nc4_put_runs(f, varid, -1, 1, &start, &count, data);
}

int gale_nc4_put_runs(gale_nc4_t *f, int varid, int64_t rec, int nruns, const int64_t *start,
                      const int64_t *count, const void *data)
{
    int st = GALE_OK;
    hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
    GALE_ASSERT(varid >= 0 && varid < f->nvars);
    var_t *v = &f->vars[varid];
    const int rd = rec >= 0; /* the dimension the rows run along */
    GALE_ASSERT(v->ndims > rd && (!rd || (hsize_t)rec < f->dims[v->dimids[0]].len));
    const hsize_t nrows = f->dims[v->dimids[rd]].len;
    hsize_t total = 0;
    for (int r = 0; r < nruns; r++) {
        GALE_ASSERT(start[r] >= 0 && count[r] >= 0 && (hsize_t)(start[r] + count[r]) <= nrows);
        total += (hsize_t)count[r];
    }
    GALE_CALL(fault_check(f, v));
    /* A collective write needs every rank, with rows or not. */
    if (total == 0 && !(f->par && f->coll)) return GALE_OK;
    hsize_t off[H5S_MAX_RANK] = {0}, cnt[H5S_MAX_RANK], mdims[H5S_MAX_RANK];
    cnt[0] = 1;
    off[0] = rd ? (hsize_t)rec : 0;
    for (int d = rd + 1; d < v->ndims; d++) cnt[d] = f->dims[v->dimids[d]].len;
    GALE_H5(fspace = H5Dget_space(v->dset));
    GALE_H5(H5Sselect_none(fspace));
    for (int r = 0; r < nruns; r++) {
        if (count[r] == 0) continue;
        off[rd] = (hsize_t)start[r];
        cnt[rd] = (hsize_t)count[r];
        GALE_H5(H5Sselect_hyperslab(fspace, H5S_SELECT_OR, off, NULL, cnt, NULL));
    }
    /* The rows lie packed in memory: (total rows) x (the remaining dims). */
    mdims[0] = total ? total : 1;
    for (int d = rd + 1; d < v->ndims; d++) mdims[d - rd] = cnt[d];
    GALE_H5(mspace = H5Screate_simple(v->ndims - rd, mdims, NULL));
    if (total == 0) GALE_H5(H5Sselect_none(mspace));
    GALE_H5(H5Dwrite(v->dset, mem_type(v->type), mspace, fspace, f->dxpl, data));
done:
    GALE_H5_CLOSE(H5Sclose, mspace);
    GALE_H5_CLOSE(H5Sclose, fspace);
    return st;
}
