/* Checkpoint files (gale_checkpoint.h): binary, MPI-IO, global-id order.
 *
 * Layout (native byte order, recorded and checked; docs/checkpoint.md):
 *   [0, H)        header region, H a multiple of 4096:
 *                   head_t (fixed, 800 bytes), z_if[nlev+1], probe[nprobe],
 *                   configuration text (NUL-terminated), zero padding,
 *                   and in its last 8 bytes the hash of bytes [0, H-8)
 *   field data    for each field, ncol columns of nlev doubles in gid order
 *   trailer       32 bytes: "GALECKPT_TRAILER", file size, combined hash
 * Every byte of the file is covered by a check: the header hash, a field
 * hash or the trailer. */
#include "gale_checkpoint.h"

#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_extrusion.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "GALECKPT"
#define TRAILER_MAGIC "GALECKPT_TRAILER"
#define BYTE_ORDER_MARK 0x01020304u
#define HEAD_ALIGN 4096
#define TRAILER_BYTES 32

typedef struct {
    char name[8];
    int64_t nlev, ncol;
    uint64_t offset, bytes, hash;
    double sumsq;
    int64_t reserved;
} frec_t;

/* Only 8-byte members (and 4+4): no padding on any LP64 ABI. */
typedef struct {
    char magic[8];
    uint32_t version, byte_order;
    uint64_t header_bytes, file_bytes;
    int64_t mesh_n, nlev, ext_method, nfield;
    double radius, scaling, top;
    int64_t step, nprobe, config_bytes;
    double time, energy0, energy, max_step_increase, max_u, max_w, run_max_u, run_max_w;
    double spare[6];            /* zero: room for state without a new version */
    char writer[64];
    frec_t field[GALE_CKPT_MAXFIELDS];
} head_t;
_Static_assert(sizeof(frec_t) == 64, "frec_t has padding");
_Static_assert(sizeof(head_t) == 800, "head_t has padding");

typedef struct {
    char magic[16];
    uint64_t file_bytes, hash;
} trailer_t;
_Static_assert(sizeof(trailer_t) == TRAILER_BYTES, "trailer_t has padding");

/* ---- hashes ---- */

/* FNV-1a over 64-bit words, then the splitmix64 finaliser. Every step is a
 * bijection of the state, so changing any one word of a column always
 * changes the column's hash; the field hash is the (mod 2^64) sum of column
 * hashes, so it does not depend on which rank hashed which column, and a
 * change confined to one column always changes it. */
static uint64_t hash_words(uint64_t h, const void *p, size_t nwords)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < nwords; i++) {
        uint64_t w;
        memcpy(&w, c + 8 * i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    return h;
}

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t column_hash(gale_gid_t gid, const double *col, int nlev)
{
    uint64_t g = (uint64_t)gid;
    return mix(hash_words(hash_words(0xcbf29ce484222325ull, &g, 1), col, (size_t)nlev));
}

/* failures agreed between ranks: gale_agree_t (base/gale_base_mpi.h) */

/* ---- field views ---- */

typedef struct { gale_gid_t gid; int idx; } gk_t;

static int gk_cmp(const void *x, const void *y)
{
    const gk_t *a = x, *b = y;
    return (a->gid > b->gid) - (a->gid < b->gid);
}

/* The file type of n columns at the given gids (sorted, as MPI-IO views must
 * be monotonic), each nlev doubles. */
static int view_type(const gk_t *k, int n, int nlev, MPI_Datatype col, MPI_Datatype *type)
{
    MPI_Aint *disp = malloc(((size_t)n + 1) * sizeof *disp);
    if (!disp) return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) disp[i] = (MPI_Aint)k[i].gid * nlev * (MPI_Aint)sizeof(double);
    int rc = MPI_Type_create_hindexed_block(n, 1, disp, col, type);
    if (rc == MPI_SUCCESS) rc = MPI_Type_commit(type);
    free(disp);
    return rc;
}

/* Frees what one field's transfer holds: the MPI-IO view, the keys and the
 * packed columns (an MPI failure is agreed on in a). */
static void free_transfer(gale_agree_t *a, MPI_Datatype *typep, MPI_Datatype *colp, gk_t **keys,
                          double **buf)
{
    MPI_Datatype type = *typep, col = *colp;
    if (type != MPI_DATATYPE_NULL) GALE_AGREE_MPI(a, MPI_Type_free(&type));
    if (col != MPI_DATATYPE_NULL) GALE_AGREE_MPI(a, MPI_Type_free(&col));
    *typep = type, *colp = col;
    free(*keys), *keys = NULL;
    free(*buf), *buf = NULL;
}

/* Sorted (gid, local index) keys of the first n local columns; NULL when out
 * of memory (n == 0 gives a valid one-element allocation). */
static gk_t *sorted_keys(const gale_ckpt_field_t *f, int n)
{
    gk_t *k = malloc(((size_t)n + 1) * sizeof *k);
    if (!k) return NULL;
    for (int i = 0; i < n; i++) k[i] = (gk_t){f->gid[i], i};
    qsort(k, (size_t)n, sizeof *k, gk_cmp);
    return k;
}

static uint64_t owned_hash(const gale_ckpt_field_t *f)
{
    uint64_t h = 0;
    for (int i = 0; i < f->nowned; i++)
        h += column_hash(f->gid[i], f->data + (size_t)i * f->stride, f->nlev);
    return h;
}

static uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* ---- writing ---- */

/* Rank 0: the header region (allocated) for ck with hashes set. */
static int build_header(const gale_ckpt_t *ck, uint64_t *hbytes, uint64_t *fbytes, char **out)
{
    const size_t cfgb = strlen(ck->config ? ck->config : "") + 1;
    const uint64_t var = sizeof(head_t) + 8 * ((uint64_t)ck->nlev + 1 + ck->nprobe) + cfgb + 8;
    const uint64_t H = round_up(var, HEAD_ALIGN);
    char *buf = calloc(1, H);
    if (!buf) GALE_ERROR(GALE_ERR_MEM, "cannot allocate a %llu-byte checkpoint header",
                         (unsigned long long)H);
    head_t h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, MAGIC, 8);
    h.version = GALE_CKPT_VERSION;
    h.byte_order = BYTE_ORDER_MARK;
    h.header_bytes = H;
    h.mesh_n = ck->mesh_n, h.nlev = ck->nlev, h.ext_method = ck->ext_method;
    h.nfield = ck->nfield;
    h.radius = ck->radius, h.scaling = ck->scaling, h.top = ck->top;
    h.step = ck->step, h.nprobe = ck->nprobe, h.config_bytes = (int64_t)cfgb;
    h.time = ck->time, h.energy0 = ck->energy0, h.energy = ck->energy;
    h.max_step_increase = ck->max_step_increase, h.max_u = ck->max_u, h.max_w = ck->max_w;
    h.run_max_u = ck->run_max_u, h.run_max_w = ck->run_max_w;
    snprintf(h.writer, sizeof h.writer, "%s", ck->writer);
    uint64_t off = H;
    for (int i = 0; i < ck->nfield; i++) {
        const gale_ckpt_field_t *f = &ck->field[i];
        frec_t *r = &h.field[i];
        memcpy(r->name, f->name, sizeof r->name);
        r->nlev = f->nlev, r->ncol = f->ncol;
        r->offset = off;
        r->bytes = (uint64_t)f->ncol * f->nlev * sizeof(double);
        r->hash = f->hash;
        r->sumsq = f->sumsq;
        off += r->bytes;
    }
    h.file_bytes = off + TRAILER_BYTES;
    memcpy(buf, &h, sizeof h);
    char *p = buf + sizeof h;
    memcpy(p, ck->z_if, 8 * ((size_t)ck->nlev + 1));
    p += 8 * ((size_t)ck->nlev + 1);
    if (ck->nprobe) memcpy(p, ck->probe, 8 * (size_t)ck->nprobe);
    p += 8 * (size_t)ck->nprobe;
    memcpy(p, ck->config ? ck->config : "", cfgb);
    uint64_t hh = hash_words(0xcbf29ce484222325ull, buf, (H - 8) / 8);
    memcpy(buf + H - 8, &hh, 8);
    *hbytes = H;
    *fbytes = h.file_bytes;
    *out = buf;
    return GALE_OK;
}

static uint64_t combined_hash(const char *header, uint64_t H, const gale_ckpt_t *ck)
{
    uint64_t h;
    memcpy(&h, header + H - 8, 8);
    for (int i = 0; i < ck->nfield; i++) h += ck->field[i].hash;
    return h;
}

/* Rank 0: make the rename durable too. Failure here is not fatal: the data
 * are synced, only the directory entry might be lost on a crash. */
static void sync_dir(const char *path)
{
    char *copy = strdup(path);
    if (!copy) return;
    int fd = open(dirname(copy), O_RDONLY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(copy);
}

/* Fault injection for the tests: GALE_CKPT_FAULT=N makes the N-th
 * checkpoint write of the run fail on the last rank only, after every byte
 * has been written and before the sync and rename -- the worst moment, and
 * one rank alone, so the test sees that the others do not rename. */
static int injected_fault(MPI_Comm comm, gale_agree_t *a)
{
    static int writes = 0;
    const char *e = getenv("GALE_CKPT_FAULT");
    int rank, size;
    writes++;
    if (!e || atoi(e) != writes) return 0;
    if (!GALE_AGREE_MPI(a, MPI_Comm_rank(comm, &rank)) || !GALE_AGREE_MPI(a, MPI_Comm_size(comm, &size)))
        return 0;
    return rank == size - 1;
}

int gale_ckpt_write(const char *path, gale_ckpt_t *ck, MPI_Comm comm, MPI_Info info,
                    gale_ckpt_stats_t *st)
{
    const double t0 = gale_wtime();
    gale_agree_t a = {0};
    int rank;
    GALE_MPI(MPI_Comm_rank(comm, &rank));
    GALE_ASSERT(ck->nfield >= 1 && ck->nfield <= GALE_CKPT_MAXFIELDS);

    /* Field hashes (and a check that the owned columns tile the mesh). */
    uint64_t hash[GALE_CKPT_MAXFIELDS];
    long long owned[GALE_CKPT_MAXFIELDS];
    for (int i = 0; i < ck->nfield; i++) {
        hash[i] = owned_hash(&ck->field[i]);
        owned[i] = ck->field[i].nowned;
    }
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, hash, ck->nfield, MPI_UINT64_T, MPI_SUM, comm));
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, owned, ck->nfield, MPI_LONG_LONG, MPI_SUM, comm));
    for (int i = 0; i < ck->nfield; i++) {
        GALE_ASSERT(owned[i] == ck->field[i].ncol);
        ck->field[i].hash = hash[i];
    }

    char tmp[PATH_MAX + 8];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        GALE_ERROR(GALE_ERR_INPUT, "checkpoint path too long: '%s'", path);
    char *header = NULL;
    uint64_t H = 0, fbytes = 0;
    if (rank == 0) {
        int s = build_header(ck, &H, &fbytes, &header);
        if (s != GALE_OK) gale_agree_fail(&a, "cannot build the header of '%s'", path);
    }
    MPI_File fh = MPI_FILE_NULL;
    MPI_Datatype col = MPI_DATATYPE_NULL, type = MPI_DATATYPE_NULL;
    gk_t *keys = NULL;
    double *buf = NULL;
    int rc;
    uint64_t sizes[2] = {H, fbytes}, off;
    if (gale_agree(&a, comm)) goto done;
    GALE_MPI(MPI_Bcast(sizes, 2, MPI_UINT64_T, 0, comm));
    H = sizes[0], fbytes = sizes[1];

    /* MPI_MODE_CREATE does not truncate: set_size drops what a stale
     * temporary file of an earlier failed attempt might hold beyond ours. */
    rc = MPI_File_open(comm, tmp, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
    if (rc != MPI_SUCCESS) {
        fh = MPI_FILE_NULL;
        gale_agree_fail_mpi(&a, rc, "cannot create checkpoint", tmp);
    }
    if (gale_agree(&a, comm)) goto done;
    rc = MPI_File_set_size(fh, (MPI_Offset)fbytes);
    if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "cannot size checkpoint", tmp);
    if (rank == 0 && !a.failed) {
        rc = MPI_File_write_at(fh, 0, header, (int)H, MPI_BYTE, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "cannot write the header of", tmp);
    }
    if (gale_agree(&a, comm)) goto done;

    off = H;
    for (int i = 0; i < ck->nfield; i++) {
        const gale_ckpt_field_t *f = &ck->field[i];
        const int n = f->nowned, nl = f->nlev;
        keys = sorted_keys(f, n);
        buf = malloc(((size_t)n * nl + 1) * sizeof *buf);
        if (!keys || !buf) gale_agree_fail(&a, "out of memory writing field %s of '%s'", f->name, path);
        if (!a.failed) {
            for (int j = 0; j < n; j++)
                memcpy(buf + (size_t)j * nl, f->data + (size_t)keys[j].idx * f->stride,
                       (size_t)nl * sizeof *buf);
            if ((rc = MPI_Type_contiguous(nl, MPI_DOUBLE, &col)) != MPI_SUCCESS ||
                (rc = MPI_Type_commit(&col)) != MPI_SUCCESS ||
                (rc = view_type(keys, n, nl, col, &type)) != MPI_SUCCESS)
                gale_agree_fail_mpi(&a, rc, "cannot build the MPI-IO view of", tmp);
        }
        if (gale_agree(&a, comm)) goto done;
        /* collective: ROMIO's two-phase I/O turns the scattered columns of
         * every rank into large contiguous writes */
        rc = MPI_File_set_view(fh, (MPI_Offset)off, MPI_DOUBLE, type, "native", MPI_INFO_NULL);
        if (rc == MPI_SUCCESS) rc = MPI_File_write_all(fh, buf, n, col, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "cannot write field data to", tmp);
        free_transfer(&a, &type, &col, &keys, &buf);
        if (gale_agree(&a, comm)) goto done;
        off += (uint64_t)f->ncol * nl * sizeof(double);
    }
    rc = MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
    if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "cannot reset the view of", tmp);
    if (rank == 0 && !a.failed) {
        trailer_t t;
        memcpy(t.magic, TRAILER_MAGIC, 16);
        t.file_bytes = fbytes;
        t.hash = combined_hash(header, H, ck);
        rc = MPI_File_write_at(fh, (MPI_Offset)(fbytes - TRAILER_BYTES), &t, TRAILER_BYTES, MPI_BYTE,
                               MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "cannot write the trailer of", tmp);
    }
    if (injected_fault(comm, &a))
        gale_agree_fail(&a, "writing '%s': injected fault (GALE_CKPT_FAULT=%s)", tmp, getenv("GALE_CKPT_FAULT"));
    if (gale_agree(&a, comm)) goto done;
    /* the data must be on disk before the final name says the file is complete */
    rc = MPI_File_sync(fh);
    if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "cannot sync", tmp);
    rc = MPI_File_close(&fh);
    if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "cannot close", tmp);
    fh = MPI_FILE_NULL;
    if (gale_agree(&a, comm)) goto done;
    if (rank == 0) {
        char why[2 * PATH_MAX + 128];
        if (gale_file_publish(tmp, path, why, sizeof why) != 0)
            gale_agree_fail(&a, "%s", why);
        else
            sync_dir(path);
    }
    gale_agree(&a, comm);

done:
    /* after a failure (a success has freed them all): the first failure is the one reported */
    if (fh != MPI_FILE_NULL) GALE_AGREE_MPI(&a, MPI_File_close(&fh));
    free_transfer(&a, &type, &col, &keys, &buf);
    free(header);
    if (a.failed) {
        /* never leave a half-written file behind, under any name */
        if (rank == 0) {
            remove(tmp);
            gale_error_raise(GALE_ERR_IO, __FILE__, __LINE__, __func__, "checkpoint: %s", a.msg);
        }
        /* GALE_ERR_IO makes `gale run` abort: the others wait until rank 0
         * has said why, or MPI_Abort could kill it before it does */
        GALE_MPI(MPI_Barrier(comm));
        return GALE_ERR_IO;
    }
    if (st) {
        st->seconds = gale_wtime() - t0;
        st->bytes = fbytes;
    }
    return GALE_OK;
}

/* ---- reading ---- */

/* The stored configuration is gale_config_dump text: a comment, then
 * "[section]" and "key = value" lines, each key once. Anything else (a
 * duplicate key would be read as its first value) means a forged or corrupt
 * file. 1, or 0 with why set. */
typedef struct { const char *sec, *key; size_t nsec, nkey; int line; } ckey_t;

static int ckey_cmp(const void *x, const void *y)
{
    const ckey_t *a = x, *b = y;
    int c = strncmp(a->sec, b->sec, a->nsec < b->nsec ? a->nsec : b->nsec);
    if (!c) c = (a->nsec > b->nsec) - (a->nsec < b->nsec);
    if (!c) c = strncmp(a->key, b->key, a->nkey < b->nkey ? a->nkey : b->nkey);
    if (!c) c = (a->nkey > b->nkey) - (a->nkey < b->nkey);
    return c ? c : a->line - b->line;
}

static int check_config_text(const char *text, size_t n, char *why, size_t nwhy)
{
    const char *nul = memchr(text, '\0', n);
    if (!nul) {
        snprintf(why, nwhy, "stored configuration: no NUL byte ends its %llu bytes (the file is "
                 "forged or corrupt)", (unsigned long long)n);
        return 0;
    }
    if (nul != text + n - 1) {
        snprintf(why, nwhy, "stored configuration: a NUL byte at %lld of its %llu bytes, not at "
                 "the end (the file is forged or corrupt)", (long long)(nul - text),
                 (unsigned long long)n);
        return 0;
    }
    size_t nlines = 1;
    for (const char *p = text; *p; p++) nlines += *p == '\n';
    ckey_t *k = malloc(nlines * sizeof *k);
    if (!k) {
        snprintf(why, nwhy, "out of memory checking the stored configuration");
        return 0;
    }
    const char *sec = NULL;
    size_t nsec = 0, nk = 0;
    int ln = 0, ok = 1;
    for (const char *p = text; *p && ok; ln++) {
        const size_t len = strcspn(p, "\n");
        const char *eq = len ? memchr(p, '=', len) : NULL;
        const size_t kl = eq && eq - p >= 2 && eq[-1] == ' ' ? (size_t)(eq - p) - 1 : 0;
        if (len == 0 || p[0] == '#') {
        } else if (p[0] == '[' && p[len - 1] == ']' && len > 2 && !memchr(p, ' ', len)) {
            sec = p + 1, nsec = len - 2;
        } else if (sec && kl && eq + 2 < p + len && eq[1] == ' ' && !memchr(p, ' ', kl)) {
            k[nk++] = (ckey_t){sec, p, nsec, kl, ln + 1};
        } else {
            snprintf(why, nwhy, "stored configuration, line %d: '%.*s': expected '[section]', "
                     "'key = value' or a comment (the file is forged or corrupt)", ln + 1,
                     (int)(len < 80 ? len : 80), p);
            ok = 0;
        }
        p += len + (p[len] == '\n');
    }
    qsort(k, nk, sizeof *k, ckey_cmp);
    for (size_t i = 1; i < nk && ok; i++)
        if (k[i].nsec == k[i - 1].nsec && k[i].nkey == k[i - 1].nkey &&
            !memcmp(k[i].sec, k[i - 1].sec, k[i].nsec) &&
            !memcmp(k[i].key, k[i - 1].key, k[i].nkey)) {
            snprintf(why, nwhy, "stored configuration, line %d: [%.*s] %.*s: duplicate key (first "
                     "set on line %d)", k[i].line, (int)k[i].nsec, k[i].sec, (int)k[i].nkey,
                     k[i].key, k[i - 1].line);
            ok = 0;
        }
    free(k);
    return ok;
}

static int finite_in(const char *what, double v, double lo, char *why, size_t nwhy)
{
    if (isfinite(v) && v >= lo) return 1;
    snprintf(why, nwhy, "%s = %.17g: %s (the file is forged or corrupt)", what, v,
             !isfinite(v) ? "not a finite number" : lo == 0 ? "negative" : "not positive");
    return 0;
}

/* The values of a header whose checksums hold: what no gale writes. Only
 * what the file alone tells; the restart checks them against the run
 * (src/output/restart.c). 1, or 0 with why set. */
static int check_values(const head_t *h, const char *buf, char *why, size_t nwhy)
{
    const double pos = DBL_MIN; /* "> 0" for finite_in */
    if (h->step < 0 || h->step > INT_MAX) {
        snprintf(why, nwhy, "step = %lld: outside 0..%d (the file is forged or corrupt)",
                 (long long)h->step, INT_MAX);
        return 0;
    }
    if (h->mesh_n < 1 || h->mesh_n > INT_MAX) {
        snprintf(why, nwhy, "mesh N = %lld: outside 1..%d (the file is forged or corrupt)",
                 (long long)h->mesh_n, INT_MAX);
        return 0;
    }
    if (h->nprobe != 0 && h->nprobe != h->step + 1) {
        snprintf(why, nwhy, "probe length = %lld at step = %lld: the writer stores step + 1 "
                 "values or none (the file is forged or corrupt)", (long long)h->nprobe,
                 (long long)h->step);
        return 0;
    }
    if (h->ext_method < GALE_EXTRUDE_UNIFORM || h->ext_method > GALE_EXTRUDE_UM_L85) {
        snprintf(why, nwhy, "extrusion method = %lld: not one of gale's %d methods (0..%d; the "
                 "file is forged or corrupt)", (long long)h->ext_method, GALE_EXTRUDE_UM_L85 + 1,
                 GALE_EXTRUDE_UM_L85);
        return 0;
    }
    const struct { const char *name; double v, lo; } d[] = {
        {"radius", h->radius, pos}, {"scaling", h->scaling, pos}, {"top", h->top, pos},
        {"time", h->time, 0}, {"energy0", h->energy0, -DBL_MAX}, {"energy", h->energy, -DBL_MAX},
        {"max_step_increase", h->max_step_increase, -DBL_MAX}, {"max|u|", h->max_u, 0},
        {"max|w|", h->max_w, 0}, {"run max|u|", h->run_max_u, 0}, {"run max|w|", h->run_max_w, 0}};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        if (!finite_in(d[i].name, d[i].v, d[i].lo, why, nwhy)) return 0;
    char what[64];
    for (int i = 0; i < h->nfield; i++) {
        snprintf(what, sizeof what, "field %.8s: sum of squares", h->field[i].name);
        if (!finite_in(what, h->field[i].sumsq, 0, why, nwhy)) return 0;
    }
    const char *p = buf + sizeof *h;
    double z, zlast = -DBL_MAX;
    for (int64_t k = 0; k <= h->nlev; k++, zlast = z) {
        memcpy(&z, p + 8 * k, 8);
        snprintf(what, sizeof what, "interface height z_if[%lld]", (long long)k);
        if (!finite_in(what, z, -DBL_MAX, why, nwhy)) return 0;
        if (z <= zlast) {
            snprintf(why, nwhy, "interface height z_if[%lld] = %.17g, not above z_if[%lld] = "
                     "%.17g (the file is forged or corrupt)", (long long)k, z, (long long)k - 1,
                     zlast);
            return 0;
        }
    }
    p += 8 * ((size_t)h->nlev + 1);
    for (int64_t s = 0; s < h->nprobe; s++) {
        memcpy(&z, p + 8 * s, 8);
        snprintf(what, sizeof what, "probe history value %lld", (long long)s);
        if (!finite_in(what, z, -DBL_MAX, why, nwhy)) return 0;
    }
    p += 8 * (size_t)h->nprobe;
    return check_config_text(p, (size_t)h->config_bytes, why, nwhy);
}

/* Parses and checks a header region of H bytes (every rank, same bytes). */
static int parse_header(const char *buf, uint64_t H, uint64_t fsize,
                        gale_ckpt_t *ck, char *why, size_t nwhy)
{
    head_t h;
    memcpy(&h, buf, sizeof h);
    uint64_t stored, hh = hash_words(0xcbf29ce484222325ull, buf, (H - 8) / 8);
    memcpy(&stored, buf + H - 8, 8);
    if (stored != hh) {
        snprintf(why, nwhy, "header checksum mismatch (stored %016llx, computed %016llx): the "
                 "file is corrupt", (unsigned long long)stored, (unsigned long long)hh);
        return 0;
    }
    const uint64_t var = sizeof h + 8 * ((uint64_t)h.nlev + 1 + (uint64_t)h.nprobe) +
                         (uint64_t)h.config_bytes + 8;
    if (h.nlev < 1 || h.nlev > 100000 || h.nprobe < 0 || h.nprobe > 100000001 ||
        h.config_bytes < 1 || var > H || h.nfield < 1 || h.nfield > GALE_CKPT_MAXFIELDS) {
        snprintf(why, nwhy, "inconsistent header (levels %lld, probe %lld, config %lld bytes, "
                 "%lld fields)", (long long)h.nlev, (long long)h.nprobe,
                 (long long)h.config_bytes, (long long)h.nfield);
        return 0;
    }
    uint64_t off = H;
    for (int i = 0; i < h.nfield; i++) {
        const frec_t *r = &h.field[i];
        if (r->offset != off || r->nlev < 1 || r->ncol < 1 ||
            r->bytes != (uint64_t)r->ncol * (uint64_t)r->nlev * 8 || memchr(r->name, 0, 8) == NULL) {
            snprintf(why, nwhy, "inconsistent header: field %d's extent", i);
            return 0;
        }
        off += r->bytes;
    }
    if (off + TRAILER_BYTES != h.file_bytes || fsize != h.file_bytes) {
        snprintf(why, nwhy, "header describes %llu bytes, the file has %llu",
                 (unsigned long long)(off + TRAILER_BYTES), (unsigned long long)fsize);
        return 0;
    }
    if (!check_values(&h, buf, why, nwhy)) return 0;
    const char *p = buf + sizeof h;
    memset(ck, 0, sizeof *ck);
    ck->version = (int)h.version;
    ck->mesh_n = (int)h.mesh_n, ck->nlev = (int)h.nlev, ck->ext_method = (int)h.ext_method;
    ck->radius = h.radius, ck->scaling = h.scaling, ck->top = h.top;
    ck->step = h.step, ck->time = h.time, ck->energy0 = h.energy0, ck->energy = h.energy;
    ck->max_step_increase = h.max_step_increase, ck->max_u = h.max_u, ck->max_w = h.max_w;
    ck->run_max_u = h.run_max_u, ck->run_max_w = h.run_max_w;
    memcpy(ck->writer, h.writer, sizeof ck->writer);
    ck->writer[sizeof ck->writer - 1] = '\0';
    ck->nprobe = (int)h.nprobe;
    ck->z_if = malloc(8 * ((size_t)h.nlev + 1));
    ck->probe = malloc(8 * ((size_t)h.nprobe + 1));
    ck->config = malloc((size_t)h.config_bytes);
    if (!ck->z_if || !ck->probe || !ck->config) {
        snprintf(why, nwhy, "out of memory reading the header");
        return 0;
    }
    memcpy(ck->z_if, p, 8 * ((size_t)h.nlev + 1));
    p += 8 * ((size_t)h.nlev + 1);
    memcpy(ck->probe, p, 8 * (size_t)h.nprobe);
    p += 8 * (size_t)h.nprobe;
    memcpy(ck->config, p, (size_t)h.config_bytes);
    ck->config[h.config_bytes - 1] = '\0';
    ck->nfield = (int)h.nfield;
    for (int i = 0; i < ck->nfield; i++) {
        gale_ckpt_field_t *f = &ck->field[i];
        memcpy(f->name, h.field[i].name, 8);
        f->nlev = (int)h.field[i].nlev;
        f->ncol = h.field[i].ncol;
        f->offset = h.field[i].offset;
        f->hash = h.field[i].hash;
        f->sumsq = h.field[i].sumsq;
    }
    return 1;
}

/* Rank 0: opens and checks everything that needs no field data. Returns the
 * header region (allocated) or NULL with why set. */
static char *check_file(const char *path, uint64_t *Hout, uint64_t *fsize, char *why, size_t nwhy)
{
    char *buf = NULL;
    struct stat sb;
    head_t h;
    trailer_t t;
    /* the type before the open: opening a pipe blocks until a writer comes
     * (every rank then waits for ever), a device's open may act */
    if (stat(path, &sb) != 0) {
        snprintf(why, nwhy, "cannot open it: %s", strerror(errno));
        return NULL;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(why, nwhy, "not a regular file (%s)", gale_file_kind(sb.st_mode));
        return NULL;
    }
    /* O_NONBLOCK and fstat: a file swapped for a pipe after the stat
     * neither blocks nor passes */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        snprintf(why, nwhy, "cannot open it: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    if (fstat(fd, &sb) != 0) {
        snprintf(why, nwhy, "cannot stat it: %s", strerror(errno));
        goto fail;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(why, nwhy, "not a regular file (%s)", gale_file_kind(sb.st_mode));
        goto fail;
    }
    *fsize = (uint64_t)sb.st_size;
    memset(&h, 0, sizeof h);
    size_t got = fread(&h, 1, sizeof h, f);
    /* most specific first: what it is, then which version, then whether whole */
    if (got < 8 || memcmp(h.magic, MAGIC, 8) != 0) {
        snprintf(why, nwhy, "not a gale checkpoint (it does not begin with \"%s\")", MAGIC);
        goto fail;
    }
    if (got < 16) {
        snprintf(why, nwhy, "truncated: %llu bytes, shorter than the header",
                 (unsigned long long)*fsize);
        goto fail;
    }
    if (h.byte_order != BYTE_ORDER_MARK) {
        snprintf(why, nwhy, "written on a machine of the other byte order (mark %08x)",
                 h.byte_order);
        goto fail;
    }
    if (h.version != GALE_CKPT_VERSION) {
        /* no conversion: an older file's text may lack keys that define its
         * experiment, and their values then are not known (docs/checkpoint.md) */
        char writer[sizeof h.writer + 1] = "an unknown gale";
        if (got >= sizeof h && memchr(h.writer, '\0', sizeof h.writer))
            memcpy(writer, h.writer, sizeof h.writer);
        if (h.version >= 1 && h.version < GALE_CKPT_VERSION)
            snprintf(why, nwhy, "checkpoint format version %u; this gale reads version %d only. "
                     "A version-%u file may not record every key that defines its experiment "
                     "(one written before the consistent operator has no [dynamics] section, "
                     "though the lumped operator ran it), so it cannot be restarted exactly: "
                     "rerun from step 0, or restart it with the gale that wrote it (%s)",
                     h.version, GALE_CKPT_VERSION, h.version, writer);
        else
            snprintf(why, nwhy, "checkpoint format version %u, which this gale does not know; "
                     "it reads version %d only (the file names its writer: %s)", h.version,
                     GALE_CKPT_VERSION, writer);
        goto fail;
    }
    if (got < sizeof h || h.header_bytes < sizeof h + 16 || h.header_bytes % HEAD_ALIGN ||
        h.header_bytes > (1u << 30) || *fsize < h.file_bytes || *fsize < h.header_bytes) {
        if (got == sizeof h && h.file_bytes > *fsize)
            snprintf(why, nwhy, "truncated: %llu bytes, the header says %llu",
                     (unsigned long long)*fsize, (unsigned long long)h.file_bytes);
        else if (got < sizeof h || *fsize < h.header_bytes)
            snprintf(why, nwhy, "truncated: %llu bytes, shorter than its header",
                     (unsigned long long)*fsize);
        else
            snprintf(why, nwhy, "inconsistent header (header size %llu)",
                     (unsigned long long)h.header_bytes);
        goto fail;
    }
    if (*fsize != h.file_bytes) {
        snprintf(why, nwhy, "%llu bytes, but the header says %llu (extra data appended?)",
                 (unsigned long long)*fsize, (unsigned long long)h.file_bytes);
        goto fail;
    }
    buf = malloc(h.header_bytes);
    if (!buf || fseek(f, 0, SEEK_SET) != 0 || fread(buf, 1, h.header_bytes, f) != h.header_bytes) {
        snprintf(why, nwhy, "cannot read its header: %s", buf ? strerror(errno) : "out of memory");
        goto fail;
    }
    if (fseek(f, (long)(h.file_bytes - TRAILER_BYTES), SEEK_SET) != 0 ||
        fread(&t, 1, sizeof t, f) != sizeof t || memcmp(t.magic, TRAILER_MAGIC, 16) != 0 ||
        t.file_bytes != h.file_bytes) {
        snprintf(why, nwhy, "the trailer is missing or damaged (an incomplete or corrupt file)");
        goto fail;
    }
    *Hout = h.header_bytes;
    /* the trailer's combined hash must match header + field hashes: a flip in
     * the trailer's hash word is caught here, one in the data by the fields */
    uint64_t comb;
    memcpy(&comb, buf + h.header_bytes - 8, 8);
    for (int i = 0; i < GALE_CKPT_MAXFIELDS && i < h.nfield; i++) comb += h.field[i].hash;
    if (comb != t.hash) {
        snprintf(why, nwhy, "trailer checksum mismatch: the file is corrupt");
        goto fail;
    }
    fclose(f);
    return buf;
fail:
    free(buf);
    fclose(f);
    return NULL;
}

/* Rank 0's part: the file's checks and its header parsed into ck. Returns
 * the header region (allocated) and its size in meta[0] (0: bad, why set),
 * the file's size in meta[1]. */
static char *read_header0(const char *path, gale_ckpt_t *ck, uint64_t meta[2], char *why,
                          size_t nwhy)
{
    char *buf = check_file(path, &meta[0], &meta[1], why, nwhy);
    if (buf && !parse_header(buf, meta[0], meta[1], ck, why, nwhy)) {
        free(buf);
        buf = NULL;
    }
    if (!buf) meta[0] = 0;
    return buf;
}

int gale_ckpt_check_header(const char *path, gale_ckpt_t *ck)
{
    memset(ck, 0, sizeof *ck);
    char why[512] = "";
    uint64_t meta[2] = {0, 0};
    char *buf = read_header0(path, ck, meta, why, sizeof why);
    const int ok = buf != NULL;
    free(buf);
    if (!ok) {
        gale_ckpt_free(ck);
        GALE_ERROR(GALE_ERR_INPUT, "restart file '%s': %s", path, why[0] ? why : "unreadable");
    }
    return GALE_OK;
}

int gale_ckpt_read_header(const char *path, gale_ckpt_t *ck, MPI_Comm comm)
{
    int rank;
    GALE_MPI(MPI_Comm_rank(comm, &rank));
    memset(ck, 0, sizeof *ck);
    char why[512] = "";
    uint64_t meta[2] = {0, 0}; /* header bytes (0: bad), file size */
    char *buf = NULL;
    /* rank 0 alone touches the file and judges it; the others parse the
     * same bytes after it has accepted them */
    if (rank == 0) buf = read_header0(path, ck, meta, why, sizeof why);
    GALE_MPI(MPI_Bcast(meta, 2, MPI_UINT64_T, 0, comm));
    GALE_MPI(MPI_Bcast(why, (int)sizeof why, MPI_CHAR, 0, comm));
    int ok = meta[0] > 0;
    if (ok && rank != 0) {
        buf = malloc(meta[0]);
        ok = buf != NULL; /* a failure here is agreed on below */
    }
    int all = ok;
    GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm));
    if (all) {
        GALE_MPI(MPI_Bcast(buf, (int)meta[0], MPI_BYTE, 0, comm));
        if (rank != 0) ok = parse_header(buf, meta[0], meta[1], ck, why, sizeof why);
        all = ok; /* same bytes everywhere: the same verdict, bar memory */
        GALE_MPI(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, comm));
    } else if (!why[0]) {
        snprintf(why, sizeof why, "out of memory for its header");
    }
    free(buf);
    if (!all) {
        gale_ckpt_free(ck);
        GALE_ERROR(GALE_ERR_INPUT, "restart file '%s': %s", path, why[0] ? why : "unreadable");
    }
    return GALE_OK;
}

int gale_ckpt_read_fields(const char *path, gale_ckpt_t *ck, MPI_Comm comm)
{
    gale_agree_t a = {0};
    int rank;
    GALE_MPI(MPI_Comm_rank(comm, &rank));
    MPI_File fh = MPI_FILE_NULL;
    MPI_Datatype col = MPI_DATATYPE_NULL, type = MPI_DATATYPE_NULL;
    gk_t *keys = NULL;
    double *buf = NULL;
    uint64_t hash[GALE_CKPT_MAXFIELDS] = {0};
    int rc = MPI_File_open(comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    if (rc != MPI_SUCCESS) {
        fh = MPI_FILE_NULL;
        gale_agree_fail_mpi(&a, rc, "cannot open", path);
    }
    if (gale_agree(&a, comm)) goto done;
    for (int i = 0; i < ck->nfield; i++) {
        gale_ckpt_field_t *f = &ck->field[i];
        /* fields the caller did not ask for are skipped: every rank reads
         * nothing, and their hashes are not checked */
        const int n = f->data ? f->nlocal : 0, nl = f->nlev;
        for (int j = 0; j < n; j++)
            if (f->gid[j] < 0 || f->gid[j] >= f->ncol) {
                gale_agree_fail(&a, "field %s: local column %d has gid %lld outside 0..%lld", f->name, j,
                     (long long)f->gid[j], (long long)f->ncol - 1);
                break;
            }
        keys = sorted_keys(f, n);
        buf = malloc(((size_t)n * nl + 1) * sizeof *buf);
        if (!keys || !buf) gale_agree_fail(&a, "out of memory reading field %s", f->name);
        if (!a.failed &&
            ((rc = MPI_Type_contiguous(nl, MPI_DOUBLE, &col)) != MPI_SUCCESS ||
             (rc = MPI_Type_commit(&col)) != MPI_SUCCESS ||
             (rc = view_type(keys, n, nl, col, &type)) != MPI_SUCCESS))
            gale_agree_fail_mpi(&a, rc, "cannot build the MPI-IO view of", path);
        if (gale_agree(&a, comm)) goto done;
        rc = MPI_File_set_view(fh, (MPI_Offset)f->offset, MPI_DOUBLE, type, "native",
                               MPI_INFO_NULL);
        if (rc == MPI_SUCCESS) rc = MPI_File_read_all(fh, buf, n, col, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "cannot read field data from", path);
        if (!a.failed && f->data) {
            for (int j = 0; j < n; j++)
                memcpy(f->data + (size_t)keys[j].idx * f->stride, buf + (size_t)j * nl,
                       (size_t)nl * sizeof *buf);
            hash[i] = owned_hash(f);
        }
        free_transfer(&a, &type, &col, &keys, &buf);
        if (gale_agree(&a, comm)) goto done;
    }
    /* every column is owned by one rank: the sum over ranks is the file's */
    rc = MPI_Allreduce(MPI_IN_PLACE, hash, ck->nfield, MPI_UINT64_T, MPI_SUM, comm);
    if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "MPI_Allreduce of the field hashes of", path);
    for (int i = 0; i < ck->nfield && !a.failed; i++)
        if (ck->field[i].data && hash[i] != ck->field[i].hash)
            gale_agree_fail(&a, "field %s: checksum mismatch (stored %016llx, data give %016llx): the file "
                 "is corrupt", ck->field[i].name, (unsigned long long)ck->field[i].hash,
                 (unsigned long long)hash[i]);
    /* collective: every rank closes before the last agreement */
    rc = MPI_File_close(&fh);
    if (rc != MPI_SUCCESS) gale_agree_fail_mpi(&a, rc, "cannot close", path);
    fh = MPI_FILE_NULL;
    gale_agree(&a, comm);
done:
    /* after a failure only: the first failure is the one reported */
    if (fh != MPI_FILE_NULL) GALE_AGREE_MPI(&a, MPI_File_close(&fh));
    free_transfer(&a, &type, &col, &keys, &buf);
    if (a.failed) GALE_ERROR(GALE_ERR_INPUT, "restart file '%s': %s", path, a.msg);
    return GALE_OK;
}

void gale_ckpt_free(gale_ckpt_t *ck)
{
    free(ck->z_if);
    free(ck->probe);
    free(ck->config);
    ck->z_if = ck->probe = NULL;
    ck->config = NULL;
}
