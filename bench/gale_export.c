/* gale_export: the Helmholtz problem of one solve, as gale_kbench solve
 * builds it (a model set up on ONE rank, --warm-steps model steps, then the
 * next step's right-hand side with gale_model_rhs), written for another
 * solver (bench/solver_peer: PETSc).
 *
 *   gale_export [--mesh C48] [--levels 30] [--warm-steps 3] --out DIR
 *               [--section.key=value ...]
 *
 * DIR/A.petsc (the matrix, AIJ), DIR/b.petsc (m->rhs), DIR/x0.petsc (the
 * first guess m->p) in PETSc's binary format (big-endian: MAT_FILE_CLASSID,
 * rows, columns, non-zeros, row lengths, column indices, values;
 * VEC_FILE_CLASSID, n, values), and DIR/meta.json. Row and column (c, k) is
 * c * nlev + k for the local cell c (on one rank every cell is owned).
 *
 * The matrix is assembled from the kernel mesh's coefficients (the 7-point
 * column stencil of gale_kb_helm_col: docs/numerics.md) and checked against
 * gale_solver_apply, the operator the solver applies, on a random vector and
 * on the first guess: the exporter fails (status 1) unless they agree to
 * rounding, and unless the matrix is symmetric to rounding. */
#include "gale_base.h"
#include "gale_base_mpi.h"
#include "gale_config.h"
#include "gale_config_mpi.h"
#include "gale_model.h"

#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXOV 64
#define MAT_FILE_CLASSID 1211216
#define VEC_FILE_CLASSID 1211214
#define APPLY_TOL 1e-12 /* max |A x - apply(x)| / max |apply(x)| */
#define SYM_TOL 1e-12   /* max |a_ij - a_ji| / max |a_ii| */

typedef struct {
    int n, nnz;
    int *rowlen, *col; /* rowlen[n], col[nnz] */
    double *val;
    long *start; /* [n+1] */
} csr_t;

static void usage(FILE *f)
{
    fputs("usage: gale_export [--mesh C48] [--levels 30] [--warm-steps 3] --out DIR "
          "[--section.key=value ...]\n"
          "  writes DIR/A.petsc, DIR/b.petsc, DIR/x0.petsc (PETSc binary) and DIR/meta.json:\n"
          "  the Helmholtz matrix, right-hand side and first guess of the solve after the\n"
          "  warm steps (one rank), checked against gale_solver_apply\n", f);
}

/* ---- big-endian output ---- */

/* n values of `size` bytes (4: int32, 8: double) from v, big-endian */
static int put_be(FILE *f, const void *v, size_t n, int size)
{
    const unsigned char *p = v;
    unsigned char b[4096];
    size_t i = 0;
    while (i < n) {
        size_t m = 0;
        for (; i < n && m + (size_t)size <= sizeof b; i++) {
            uint64_t u = 0;
            if (size == 4) {
                uint32_t w;
                memcpy(&w, p + i * 4, 4);
                u = w;
            } else {
                memcpy(&u, p + i * 8, 8);
            }
            for (int s = 8 * (size - 1); s >= 0; s -= 8) b[m++] = (unsigned char)(u >> s);
        }
        if (fwrite(b, 1, m, f) != m) return -1;
    }
    return 0;
}

/* The files, as gale_dir_prepare's patterns: checked before the run. */
static const char *const out_names[] = {"A.petsc", "b.petsc", "x0.petsc", "meta.json", NULL};

/* DIR/NAME.tmp for writing; finish() renames it (docs/output.md, "Files and final names"). */
static FILE *start(const char *dir, const char *name, char *path, char *tmp, size_t n)
{
    snprintf(path, n, "%s/%s", dir, name);
    snprintf(tmp, n + 4, "%s.tmp", path);
    return fopen(tmp, "wb");
}

static int finish(FILE *f, int bad, const char *path, const char *tmp)
{
    char why[8400];
    if (bad) {
        fclose(f);
        remove(tmp);
        GALE_ERROR(GALE_ERR_IO, "writing '%s' failed", path);
    }
    if (gale_file_finish(f, tmp, path, why, sizeof why) != 0) GALE_ERROR(GALE_ERR_IO, "%s", why);
    return GALE_OK;
}

static int write_vec(const char *dir, const char *name, const double *v, int n)
{
    char path[4096], tmp[4100];
    FILE *f = start(dir, name, path, tmp, sizeof path);
    if (!f) GALE_ERROR(GALE_ERR_IO, "cannot write '%s'", tmp);
    int hdr[2] = {VEC_FILE_CLASSID, n};
    return finish(f, put_be(f, hdr, 2, 4) || put_be(f, v, (size_t)n, 8), path, tmp);
}

static int write_mat(const char *dir, const csr_t *a)
{
    char path[4096], tmp[4100];
    FILE *f = start(dir, "A.petsc", path, tmp, sizeof path);
    if (!f) GALE_ERROR(GALE_ERR_IO, "cannot write '%s'", tmp);
    int hdr[4] = {MAT_FILE_CLASSID, a->n, a->n, a->nnz};
    return finish(f,
                  put_be(f, hdr, 4, 4) || put_be(f, a->rowlen, (size_t)a->n, 4) ||
                      put_be(f, a->col, (size_t)a->nnz, 4) || put_be(f, a->val, (size_t)a->nnz, 8),
                  path, tmp);
}

/* ---- assembly: the 7-point column stencil of gale_kb_helm_col ---- */

static void row_add(int *cols, double *vals, int *len, int j, double v)
{
    for (int i = 0; i < *len; i++)
        if (cols[i] == j) {
            vals[i] += v;
            return;
        }
    int i = (*len)++;
    /* keep the columns sorted (insertion) */
    while (i > 0 && cols[i - 1] > j) {
        cols[i] = cols[i - 1];
        vals[i] = vals[i - 1];
        i--;
    }
    cols[i] = j;
    vals[i] = v;
}

static int assemble(const gale_kmesh_t *km, int nc, csr_t *a)
{
    const int nl = km->nlev;
    a->n = nc * nl;
    a->rowlen = malloc((size_t)a->n * sizeof *a->rowlen);
    a->start = malloc(((size_t)a->n + 1) * sizeof *a->start);
    a->col = malloc((size_t)a->n * 7 * sizeof *a->col);
    a->val = malloc((size_t)a->n * 7 * sizeof *a->val);
    if (!a->rowlen || !a->start || !a->col || !a->val) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    long p = 0;
    for (int c = 0; c < nc; c++) {
        const int *nb = km->cell_nbr + 4 * c;
        const double *hs = km->h_hs + 4 * c;
        const double av = km->h_av[c], ad = km->h_ad[c], hsum = (hs[0] + hs[1]) + (hs[2] + hs[3]);
        const double *dzh = km->h_dzh, *rho = km->h_rho, *rq = km->h_rq; /* the kernel's factors */
        for (int q = 0; q < 4; q++)
            if (nb[q] < 0 || nb[q] >= nc)
                GALE_ERROR(GALE_ERR_INTERNAL,
                           "cell %d: neighbour %d is %d, not an owned cell (0..%d): export needs "
                           "one rank", c, q, nb[q], nc - 1);
        for (int k = 0; k < nl; k++) {
            const int r = c * nl + k;
            int *cols = a->col + p, len = 0;
            double *vals = a->val + p;
            row_add(cols, vals, &len, r, dzh[k] * (ad * rho[k] + hsum) + av * (rq[k] + rq[k + 1]));
            for (int q = 0; q < 4; q++) row_add(cols, vals, &len, nb[q] * nl + k, -dzh[k] * hs[q]);
            if (k > 0 && rq[k] != 0) row_add(cols, vals, &len, r - 1, -av * rq[k]);
            if (k < nl - 1 && rq[k + 1] != 0) row_add(cols, vals, &len, r + 1, -av * rq[k + 1]);
            a->start[r] = p;
            a->rowlen[r] = len;
            p += len;
        }
    }
    a->start[a->n] = p;
    a->nnz = (int)p;
    return GALE_OK;
}

static void csr_mult(const csr_t *a, const double *x, double *y)
{
    for (int r = 0; r < a->n; r++) {
        double s = 0;
        for (long i = a->start[r]; i < a->start[r + 1]; i++) s += a->val[i] * x[a->col[i]];
        y[r] = s;
    }
}

static double csr_get(const csr_t *a, int r, int c)
{
    for (long i = a->start[r]; i < a->start[r + 1]; i++)
        if (a->col[i] == c) return a->val[i];
    return 0;
}

/* max |a_ij - a_ji| / max |a_ii| */
static double asymmetry(const csr_t *a)
{
    double d = 0, dmax = 0;
    for (int r = 0; r < a->n; r++)
        for (long i = a->start[r]; i < a->start[r + 1]; i++) {
            const int c = a->col[i];
            if (c == r) dmax = fmax(dmax, fabs(a->val[i]));
            else if (c > r) d = fmax(d, fabs(a->val[i] - csr_get(a, c, r)));
        }
    return dmax > 0 ? d / dmax : d;
}

/* field (column blocks) <-> vector (c * nlev + k) */
static void gather(const gale_kmesh_t *km, int nc, const gale_field_t *f, double *v)
{
    const double *d = gale_fd(f);
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < km->nlev; k++) v[(size_t)c * km->nlev + k] = d[(size_t)c * km->sc + k];
}

/* max |A x - apply(x)| / max |apply(x)| for the vector x (in field x) */
static int check_apply(gale_model_t *m, const csr_t *a, gale_field_t *x, gale_field_t *y,
                       double *xv, double *yv, double *rel)
{
    const int nc = gale_psy_owned(m->psy, GALE_LOC_CELL);
    GALE_CALL(gale_solver_apply(m->solver, x, y));
    GALE_CALL(gale_psy_to_host(y));
    gather(&m->km, nc, x, xv);
    csr_mult(a, xv, yv);
    const double *yd = gale_fd(y);
    double dmax = 0, ymax = 0;
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < m->km.nlev; k++) {
            const double g = yd[(size_t)c * m->km.sc + k];
            dmax = fmax(dmax, fabs(g - yv[(size_t)c * m->km.nlev + k]));
            ymax = fmax(ymax, fabs(g));
        }
    *rel = ymax > 0 ? dmax / ymax : dmax;
    return GALE_OK;
}

static double norm2(const double *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i] * v[i];
    return sqrt(s);
}

static int run(const char *out, int warm_steps, const gale_config_t *cfg)
{
    gale_model_t *m = calloc(1, sizeof *m);
    if (!m) GALE_ERROR(GALE_ERR_MEM, "out of memory");
    GALE_CALL(gale_model_setup(m, cfg, MPI_COMM_WORLD));
    if (m->nranks != 1) GALE_ERROR(GALE_ERR_INPUT, "gale_export runs on one rank (not %d)", m->nranks);
    for (int s = 0; s < warm_steps; s++) GALE_CALL(gale_model_step(m));
    GALE_CALL(gale_model_rhs(m)); /* the next step's Helmholtz problem */
    GALE_CALL(gale_psy_to_host(&m->rhs));
    GALE_CALL(gale_psy_to_host(&m->p));
    const gale_kmesh_t *km = &m->km;
    const int nc = gale_psy_owned(m->psy, GALE_LOC_CELL), nl = km->nlev;
    csr_t a;
    memset(&a, 0, sizeof a);
    GALE_CALL(assemble(km, nc, &a));
    const int n = a.n;
    double *xv = malloc((size_t)n * sizeof *xv), *yv = malloc((size_t)n * sizeof *yv);
    double *bv = malloc((size_t)n * sizeof *bv), *pv = malloc((size_t)n * sizeof *pv);
    if (!xv || !yv || !bv || !pv) GALE_ERROR(GALE_ERR_MEM, "out of memory");

    /* the check: A x against gale_solver_apply, on a random x and on the first guess */
    gale_field_t x, y;
    GALE_CALL(gale_psy_field_create(m->psy, &x, "ex_x", GALE_LOC_CELL, nl, 8));
    GALE_CALL(gale_psy_field_create(m->psy, &y, "ex_y", GALE_LOC_CELL, nl, 8));
    double *xd = gale_fd(&x);
    uint64_t z = 12345;
    for (int c = 0; c < nc; c++)
        for (int k = 0; k < nl; k++) {
            z = z * 6364136223846793005ULL + 1442695040888963407ULL;
            xd[(size_t)c * km->sc + k] = (double)(z >> 11) / 9007199254740992.0 - 0.5;
        }
    GALE_CALL(gale_psy_host_wrote(m->psy, &x, 0));
    double rel_random, rel_guess;
    GALE_CALL(check_apply(m, &a, &x, &y, xv, yv, &rel_random));
    GALE_CALL(gale_psy_copy(m->psy, &x, &m->p));
    GALE_CALL(gale_psy_to_host(&x));
    GALE_CALL(check_apply(m, &a, &x, &y, xv, yv, &rel_guess));
    const double asym = asymmetry(&a);
    gather(km, nc, &m->rhs, bv);
    gather(km, nc, &m->p, pv);
    csr_mult(&a, pv, yv);
    for (int i = 0; i < n; i++) yv[i] = bv[i] - yv[i];
    const double bnorm = norm2(bv, n), r0 = norm2(yv, n);
    printf("gale_export: C%d L%d, %d cells, n %d, nnz %d; A x vs gale_solver_apply: %.3g (random x), "
           "%.3g (first guess); asymmetry %.3g; |b| %.6g, |b - A x0|/|b| %.6g\n",
           cfg->mesh.n, nl, nc, n, a.nnz, rel_random, rel_guess, asym, bnorm,
           bnorm > 0 ? r0 / bnorm : 0);
    if (!(rel_random <= APPLY_TOL && rel_guess <= APPLY_TOL))
        GALE_ERROR(GALE_ERR_INTERNAL, "the assembled matrix differs from gale_solver_apply "
                   "(%.3g, %.3g > %g)", rel_random, rel_guess, APPLY_TOL);
    if (!(asym <= SYM_TOL))
        GALE_ERROR(GALE_ERR_INTERNAL, "the assembled matrix is not symmetric (%.3g > %g)", asym, SYM_TOL);

    GALE_CALL(write_mat(out, &a));
    GALE_CALL(write_vec(out, "b.petsc", bv, n));
    GALE_CALL(write_vec(out, "x0.petsc", pv, n));
    char path[4096], tmp[4100];
    FILE *f = start(out, "meta.json", path, tmp, sizeof path);
    if (!f) GALE_ERROR(GALE_ERR_IO, "cannot write '%s'", tmp);
    fprintf(f, "{\n \"program\": \"gale_export\",\n \"mesh_name\": \"C%d\",\n \"levels\": %d,\n"
               " \"cells\": %d,\n \"warm_steps\": %d,\n \"rows\": %d,\n \"nnz\": %d,\n"
               " \"apply_check_random\": %.17g,\n \"apply_check_first_guess\": %.17g,\n"
               " \"asymmetry\": %.17g,\n \"b_norm\": %.17g,\n \"initial_residual_rel\": %.17g,\n"
               " \"files\": {\"matrix\": \"A.petsc\", \"rhs\": \"b.petsc\", \"first_guess\": \"x0.petsc\"},\n"
               " \"ordering\": \"row c*levels+k: local cell c, level k\"\n}\n",
            cfg->mesh.n, nl, nc, warm_steps, n, a.nnz, rel_random, rel_guess, asym, bnorm,
            bnorm > 0 ? r0 / bnorm : 0);
    GALE_CALL(finish(f, 0, path, tmp));
    gale_psy_field_free(&x);
    gale_psy_field_free(&y);
    free(xv), free(yv), free(bv), free(pv);
    free(a.rowlen), free(a.start), free(a.col), free(a.val);
    gale_model_free(m);
    free(m);
    return GALE_OK;
}

int main(int argc, char **argv)
{
    static char buf[512];
    char *ov[MAXOV];
    const char *out = NULL;
    int nov = 0, warm = 3;
    size_t used = 0;
    ov[nov++] = (char *)"--logging.level=warn";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if ((!strcmp(a, "--mesh") || !strcmp(a, "--levels")) && v) {
            if (nov >= MAXOV || used + strlen(v) + 24 > sizeof buf) return 2;
            ov[nov++] = buf + used;
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s=%s",
                                     a[2] == 'm' ? "--mesh.name" : "--extrusion.levels", v) + 1;
            i++;
        } else if (!strcmp(a, "--warm-steps") && v) warm = atoi(v), i++;
        else if (!strcmp(a, "--out") && v) out = v, i++;
        else if (!strncmp(a, "--", 2) && strchr(a, '.') && strchr(a, '=') && nov < MAXOV)
            ov[nov++] = argv[i];
        else {
            fprintf(stderr, "gale_export: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!out) {
        usage(stderr);
        return 2;
    }
    char why[8400];
    if (gale_dir_prepare(out, out_names, why, sizeof why)) { /* before the run */
        fprintf(stderr, "gale_export: --out: %s\n", why);
        return 2;
    }
    int rank, size;
    if (gale_mpi_start(&argc, &argv, MPI_THREAD_MULTIPLE, &rank, &size) != GALE_OK) return 1;
    gale_log_setup(rank, GALE_LOG_WARN);
    gale_config_t cfg;
    int st = gale_config_load(&cfg, NULL, nov, ov, MPI_COMM_WORLD);
    if (st == GALE_OK) {
        gale_log_setup(rank, cfg.logging.level);
        st = run(out, warm, &cfg);
    }
    return gale_mpi_finish(st, 0) == GALE_OK ? 0 : 1;
}
