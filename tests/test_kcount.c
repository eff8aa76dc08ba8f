/* Every kernel row's bytes and flops (kernels/gale_kdesc.h) against a count
 * of what its body does (test kernel_counts).
 *
 * The launches are those of gale_kbench's model set-ups and steps
 * (bench/gale_kbench.c), and of four more for the variants they leave out,
 * on one rank of a small whole sphere (C4, 5 levels). Linked with
 * -Wl,--wrap=gale_k_run, every launch runs as usual and is then counted,
 * once per shape (what its counts can depend on; shape()): on copies of its
 * fields filled with values in [0.5, 1.5) (no zero skips a division, the
 * run is left as it was, and the values do not matter), through
 * tests/kcount_probe.c, the dispatch built by clang -O0 with every load and
 * store traced and every floating-point operation counted
 * (tests/kcount_ir.py). The rules
 * (docs/report.md, "Minimum bytes and flops"):
 *
 *  bytes  what an ideal cache moves in the launch: each byte of a field
 *         argument and of the static data indexed by column (coefficients,
 *         connectivity, a weight per column) once when its first access
 *         reads it and once when it is written. Not counted: the arrays
 *         every column shares (indexed by level, and the reference rows
 *         when one column serves all), the structs, the stack, BATCH's
 *         scratch. Must equal gale_k_launch_bytes to 1e-9 (the rounding of
 *         the rows' divisions): on one rank every column a stencil reads is
 *         a loop column, so the model's columns by location are exact.
 *  flops  the operations of the body functions as the source writes them
 *         (-O0, no contraction; kcount_ir.py says which count), per unit:
 *         a column (FLAT: an element; BATCH: a batch inside the range). The
 *         largest unit of a launch must equal the row's (1e-9), the launch
 *         may not exceed the row's total (the cube's corners leave out part
 *         of nl_vort's stencil).
 *
 * The first launch of a kernel that disagrees is named with both numbers and
 * every array it touched; so is each kernel's first launch with -v.
 * --dump FILE writes one line per counted launch (the body's numbers, to fit
 * a row).
 *
 * usage: test_kcount [--mesh CN] [--levels L] [-v] [--dump FILE] */
#include "gale_base.h"
#include "gale_config_mpi.h"
#include "gale_ksources.h"
#include "gale_model.h"

#include <malloc.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* tests/kcount_probe.c */
void gale_kc_run(int id, const gale_kargs_t *a, int i0, int i1, void *T);
void __wrap_gale_k_run(int id, const gale_kargs_t *a, int i0, int i1);

/* ---- what the probe calls ---- */

enum { R_FIELD, R_COLUMN, R_SHARED, R_IGNORE };
static const char *const kind_name[] = {"field", "column data", "shared", "ignored"};
typedef struct {
    char name[48];
    uintptr_t lo, hi;
    int kind, arg;    /* arg: the first field argument at this address (R_FIELD) */
    int shared_reads; /* reads of one column that serves every column: not counted */
    double shared_rd;
    unsigned char *m; /* per byte: 1 touched, 2 first touched by a load, 4 written */
} region_t;
#define MAXR 128
static region_t reg[MAXR];
static int nreg;
static uintptr_t stack_hi;
static long unattributed;
static uintptr_t first_unattributed;

static long long flops_now;   /* since the current unit began */
static long long *unit_flops; /* per unit */
static long nunit, unit_cap;

void gale_kc_flops(long long n) { flops_now += n; }
void gale_kc_unit(void)
{
    if (nunit == unit_cap) {
        unit_cap = unit_cap ? 2 * unit_cap : 1024;
        unit_flops = realloc(unit_flops, (size_t)unit_cap * sizeof *unit_flops);
        if (!unit_flops) abort();
    }
    if (nunit > 0) unit_flops[nunit - 1] = flops_now;
    flops_now = 0;
    nunit++;
}

static region_t *find(uintptr_t a)
{
    int lo = 0, hi = nreg - 1;
    while (lo <= hi) { /* the last region starting at or below a */
        const int mid = (lo + hi) / 2;
        if (reg[mid].lo <= a) lo = mid + 1;
        else hi = mid - 1;
    }
    return hi >= 0 && a < reg[hi].hi ? &reg[hi] : NULL;
}

static void touch(uintptr_t a, int n, int store)
{
    region_t *r = find(a);
    if (!r) {
        /* the body's locals (-O0 keeps every variable on the stack) */
        if (a >= (uintptr_t)__builtin_frame_address(0) && a < stack_hi) return;
        if (!unattributed++) first_unattributed = a;
        return;
    }
    if (r->kind == R_IGNORE) return;
    for (int i = 0; i < n; i++) {
        unsigned char *b = &r->m[a + i - r->lo];
        if (store) *b |= 1 | 4;
        else if (!(*b & 1)) *b |= 1 | 2;
    }
}
#define GALE_KC_TRACE(n)                                                                   \
    void __sanitizer_cov_load##n(void *p) { touch((uintptr_t)p, n, 0); }                  \
    void __sanitizer_cov_store##n(void *p) { touch((uintptr_t)p, n, 1); }
GALE_KC_TRACE(1)
GALE_KC_TRACE(2)
GALE_KC_TRACE(4)
GALE_KC_TRACE(8)
GALE_KC_TRACE(16)

/* ---- the regions of one launch ---- */

static void add(const void *p, size_t bytes, int kind, int arg, const char *name)
{
    if (!p || !bytes) return;
    for (int i = 0; i < nreg; i++)
        if (reg[i].lo == (uintptr_t)p) return; /* a field argument first, then the first name */
    if (nreg == MAXR) {
        fprintf(stderr, "test_kcount: more than %d regions\n", MAXR);
        exit(1);
    }
    region_t *r = &reg[nreg++];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->lo = (uintptr_t)p, r->hi = (uintptr_t)p + bytes;
    r->kind = kind, r->arg = arg, r->shared_reads = 0, r->shared_rd = 0;
    r->m = kind == R_IGNORE ? NULL : calloc(bytes, 1);
    if (kind != R_IGNORE && !r->m) abort();
}
#define COL(s, m, n) add((s)->m, (size_t)(n) * sizeof *(s)->m, R_COLUMN, -1, #s "->" #m)
#define SHR(s, m, n) add((s)->m, (size_t)(n) * sizeof *(s)->m, R_SHARED, -1, #s "->" #m)

static int cmp_region(const void *a, const void *b)
{
    const region_t *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The weights of a row (WC, WL) in its order: "C" a column's, "L" a level's. */
#define KC_W_(n, loc, acc, st) KC_W_##loc
#define KC_W_C
#define KC_W_E
#define KC_W_I
#define KC_W_CI
#define KC_W_A
#define KC_W_S
#define KC_W_WC "C"
#define KC_W_WL "L"
#define KC_WROW_(name, space, aux, prec, ext, red, bytes, flops, args, cd, cf)               \
    [GALE_K_##name] = "" GALE_PP_MAPT(KC_W_, args),
static const char *const weights[GALE_K_N] = {GALE_KERNELS(KC_WROW_)};

/* The field arguments (whole allocations: gale_field_create's blocks), the
 * static data the bodies may read (gale_kernels.h, gale_ktransport.h,
 * gale_knl.h) and what is not counted. Returns 0, or 1 when two overlap. */
static int regions(const gale_kdesc_t *k, const gale_kargs_t *a, const gale_kargs_t *orig,
                   const size_t *size, int i1, void *T, size_t tbytes)
{
    nreg = 0;
    for (int j = 0; j < k->nfield; j++) {
        char nm[48];
        snprintf(nm, sizeof nm, "field %s", k->field[j].name);
        if (a->f[j].p) add(a->f[j].p, size[j], R_FIELD, j, nm);
    }
    const gale_kmesh_t *km = a->km;
    if (km) {
        const int nc = km->ncell, ne = km->nedge, na = km->ncell_alloc, nl = km->nlev;
        COL(km, cell_nbr, 4 * nc), COL(km, cell_edge, 4 * nc), COL(km, cell_sign, 4 * nc);
        COL(km, edge_cell, 2 * ne), COL(km, edge_side, 2 * ne), COL(km, area, nc);
        COL(km, elen, ne), COL(km, erdist, ne), COL(km, mfd, 16 * nc);
        COL(km, h_ad, na), COL(km, h_av, na), COL(km, h_hs, 4 * na);
        COL(km, h_ad_f, na), COL(km, h_av_f, na), COL(km, h_hs_f, 4 * na);
        COL(km, tri_m, (size_t)na * nl), COL(km, tri_c, (size_t)na * nl);
        COL(km, tri_m_f, (size_t)na * nl), COL(km, tri_c_f, (size_t)na * nl);
        COL(km, diag_inv, (size_t)na * km->sc), COL(km, diag_inv_f, (size_t)na * km->sc);
        COL(km, child, 4 * km->nchild);
        SHR(km, dz, nl), SHR(km, dzi, nl + 1), SHR(km, rdzi, nl + 1), SHR(km, dzv, nl);
        SHR(km, dzf, nl), SHR(km, hl, nl), SHR(km, qi, nl + 1), SHR(km, dzqi, nl + 1);
        SHR(km, h_dzh, nl), SHR(km, h_rho, nl), SHR(km, h_rq, nl + 1);
        SHR(km, h_dzh_f, nl), SHR(km, h_rho_f, nl), SHR(km, h_rq_f, nl + 1);
        add(km, sizeof *km, R_IGNORE, -1, "km");
    }
    const gale_ktr_t *tr = a->tr;
    if (tr) {
        const int nl = km ? km->nlev : 0;
        COL(tr, nb, GALE_TR_NB * tr->ncell), COL(tr, rc, 4 * GALE_TR_NB * tr->ncell);
        COL(tr, eside, 2 * tr->nedge), COL(tr, rarea, tr->ncell);
        SHR(tr, zc, nl), SHR(tr, zi, nl + 1), SHR(tr, rdz, nl), SHR(tr, hl, nl);
        SHR(tr, hi, nl + 1), SHR(tr, qi, nl + 1), SHR(tr, rdzv, nl);
        add(tr, sizeof *tr, R_IGNORE, -1, "tr");
    }
    const gale_knl_t *nk = a->nk;
    if (nk) {
        const int nc = nk->ncell, ne = nk->nedge, sc = nk->sc, si = nk->si;
        /* the reference rows: one column for all (pstride 0) or one each */
        if (nk->pstride) COL(nk, prof, (size_t)nc * nk->pstride);
        else SHR(nk, prof, GALE_NLP_N * si);
        COL(nk, rhoe, (size_t)ne * sc), COL(nk, fcor, nc), COL(nk, enb, 6 * nc);
        COL(nk, prc, 8 * nc), COL(nk, nrm, 4 * ne), COL(nk, vidx, 12 * nc), COL(nk, vw, 12 * nc);
        COL(nk, tng, 4 * ne), COL(nk, fcos, nc);
        SHR(nk, rd2i, si), SHR(nk, rd2c, sc), SHR(nk, dzv, sc), SHR(nk, dzf, sc);
        SHR(nk, dzh, sc), SHR(nk, hl, sc), SHR(nk, qi, si), SHR(nk, gi, si), SHR(nk, rc, sc);
        SHR(nk, ri, si);
        add(nk, sizeof *nk, R_IGNORE, -1, "nk");
        /* a field argument at the reference rows (nl_rhoe's prof) whose
         * readers take one column for all: its reads are the shared column's */
        for (int i = 0; i < nreg && !nk->pstride; i++)
            if (reg[i].kind == R_FIELD && orig->f[reg[i].arg].p == nk->prof)
                reg[i].shared_reads = 1;
    }
    for (int j = 0; weights[k - gale_kdesc][j]; j++) {
        const int col = weights[k - gale_kdesc][j] == 'C';
        add(a->w[j], (size_t)(col ? i1 : a->nlev) * sizeof *a->w[j], col ? R_COLUMN : R_SHARED, -1,
            col ? "weight per column" : "weight per level");
    }
    add(a, sizeof *a, R_IGNORE, -1, "kargs");
    add(T, tbytes, R_IGNORE, -1, "BATCH scratch");
    qsort(reg, (size_t)nreg, sizeof reg[0], cmp_region);
    static int said;
    for (int i = 1; i < nreg; i++)
        if (reg[i].lo < reg[i - 1].hi) {
            if (!said++) printf("FAIL: %s and %s overlap\n", reg[i - 1].name, reg[i].name);
            return 1;
        }
    return 0;
}

static void regions_free(void)
{
    for (int i = 0; i < nreg; i++) free(reg[i].m);
    nreg = 0;
}

static void tally(region_t *r, double *rd, double *wr)
{
    *rd = *wr = 0;
    for (uintptr_t i = 0; r->m && i < r->hi - r->lo; i++) {
        *rd += (r->m[i] & 2) != 0;
        *wr += (r->m[i] & 4) != 0;
    }
    if (r->shared_reads) r->shared_rd = *rd, *rd = 0;
}

/* ---- the launches: gale_kbench's sources (bench/gale_ksources.h), which
 * together launch every row, and more; each launch is run, then counted ---- */
static const gale_ksource_t sources[] = {
    GALE_KSOURCES,
    /* and the variants of the bodies those leave out: the linear core's
     * deep atmosphere, the nonlinear core's reference rows per column,
     * pipelined_gcr's lincomb from a second vector (x = a - sum h y) */
    {"deep_lumped", NULL, {"--dynamics.shallow=false", "--dynamics.mass_matrix=lumped"}},
    {"deep_multigrid", NULL, {"--dynamics.shallow=false", "--solver.preconditioner=multigrid"}},
    {"deep_single", NULL, {"--dynamics.shallow=false", "--solver.precision=single"}},
    {"reference_column", "baroclinic_wave.ini",
     {"--solver.method=prec_only", "--timestepping.reference_state=column"}},
    {"pipelined", "baroclinic_wave.ini",
     {"--solver.method=prec_only", "--mixed_solver.method=pipelined_gcr", "--mixed_solver.lookahead=0"}},
};
#define NSRC ((int)(sizeof sources / sizeof sources[0]))

typedef struct {
    long launches, bad;
    char *first; /* the first disagreement, as printed */
} kstat_t;
static kstat_t kstats[2 * GALE_K_N];
static int verbose;
static const char *cur_src = "";
static FILE *dump; /* --dump: one line per launch */

static int close_to(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fmax(fabs(want), 1.0);
}

/* appends to a growing string */
static void say(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char line[1024];
    const int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    *buf = realloc(*buf, *len + (size_t)n + 1);
    if (!*buf) abort();
    memcpy(*buf + *len, line, (size_t)n + 1);
    *len += (size_t)n;
}

/* Copies of the launch's fields (one for arguments given the same field),
 * filled with values in [0.5, 1.5): no zero takes a shortcut (a division by
 * a zero increment skipped), and the model's own fields stay as they are. */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static double uniform(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return 0.5 + (double)(rng >> 11) * 0x1p-53;
}
static void copies(const gale_kdesc_t *k, const gale_kargs_t *orig, gale_kargs_t *a, size_t *size)
{
    *a = *orig;
    for (int j = 0; j < k->nfield; j++) {
        size[j] = 0;
        if (!orig->f[j].p) continue;
        int same = -1;
        for (int i = 0; i < j && same < 0; i++)
            if (orig->f[i].p == orig->f[j].p) same = i;
        if (same >= 0) {
            a->f[j].p = a->f[same].p, size[j] = size[same];
            continue;
        }
        size[j] = malloc_usable_size(orig->f[j].p);
        void *c = aligned_alloc(64, (size[j] + 63) / 64 * 64);
        if (!c) abort();
        if (orig->f[j].elem == 4)
            for (size_t i = 0; i < size[j] / 4; i++) ((float *)c)[i] = (float)uniform();
        else
            for (size_t i = 0; i < size[j] / 8; i++) ((double *)c)[i] = uniform();
        a->f[j].p = c;
    }
}
static void copies_free(const gale_kdesc_t *k, const gale_kargs_t *orig, gale_kargs_t *a)
{
    for (int j = 0; j < k->nfield; j++) {
        int same = 0;
        for (int i = 0; i < j; i++) same |= orig->f[i].p == orig->f[j].p;
        if (a->f[j].p && !same) free(a->f[j].p);
    }
}

/* Counts one launch through the probe, on copies of its fields, and
 * compares with the row. */
static void count(int id, const gale_kargs_t *orig, int i0, int i1)
{
    const gale_kdesc_t *k = &gale_kdesc[id];
    kstat_t *ks = &kstats[2 * id + (orig->prec == GALE_F32)];
    const char *prec = orig->prec == GALE_F32 ? "single" : "double";
    const gale_kmesh_t *km = orig->km;
    const size_t tbytes = km ? ((size_t)km->nlev * GALE_LANES + (size_t)km->sc) * 8 : 0;
    void *T = tbytes ? calloc(tbytes, 1) : NULL;
    char *msg = NULL;
    size_t len = 0, size[GALE_KMAXF];
    gale_kargs_t copy, *a = &copy;
    copies(k, orig, a, size);
    int bad = regions(k, a, orig, size, i1, T, tbytes);
    unattributed = 0, nunit = 0, flops_now = 0;
    gale_kc_run(id, a, i0, i1, T);
    gale_kc_unit(); /* closes the last unit */
    nunit--;
    /* bytes: the model's, and its part without the fields (all left out) */
    const double model = gale_k_launch_bytes(id, a, i0, i1);
    gale_kargs_t none = *a;
    for (int j = 0; j < k->nfield; j++) none.f[j].p = NULL;
    const double model_static = gale_k_launch_bytes(id, &none, i0, i1);
    double body = 0, body_static = 0, shared = 0;
    for (int i = 0; i < nreg; i++) {
        double rd, wr;
        tally(&reg[i], &rd, &wr);
        if (reg[i].kind == R_FIELD || reg[i].kind == R_COLUMN) body += rd + wr;
        if (reg[i].kind == R_COLUMN) body_static += rd + wr;
        if (reg[i].kind == R_SHARED) shared += rd + wr;
        if (reg[i].kind == R_FIELD) shared += reg[i].shared_rd;
    }
    /* flops: a whole unit (BATCH: a batch inside the range) against the
     * row's, and the launch's total at most the row's (the cube's corners
     * leave out the padding of nl_vort's stencil) */
    long long fmax_ = 0, fmin_ = nunit ? unit_flops[0] : 0, ftot = 0;
    int any_whole = 0;
    for (long u = 0; u < nunit; u++) {
        const long b = i0 / GALE_LANES + u; /* BATCH: the unit's batch */
        const int whole =
            k->space != GALE_KS_BATCH || (b * GALE_LANES >= i0 && (b + 1) * GALE_LANES <= i1);
        any_whole |= whole;
        if (whole && unit_flops[u] > fmax_) fmax_ = unit_flops[u];
        if (unit_flops[u] < fmin_) fmin_ = unit_flops[u];
        ftot += unit_flops[u];
    }
    const double want_unit = k->space == GALE_KS_BATCH  ? gale_k_launch_flops(id, a, 0, GALE_LANES)
                             : k->space == GALE_KS_FLAT ? gale_k_launch_flops(id, a, 0, 1) / a->flat
                                                        : gale_k_launch_flops(id, a, 0, 1);
    const double want_total = gale_k_launch_flops(id, a, i0, i1);
    const char *unit = k->space == GALE_KS_FLAT    ? "element"
                       : k->space == GALE_KS_BATCH ? "batch"
                       : k->space == GALE_KS_EDGES ? "edge"
                                                   : "column";
    if (any_whole && !close_to((double)fmax_, want_unit)) {
        say(&msg, &len, "FAIL: %s (%s): flops: the row gives %.17g per %s, the body does %lld\n",
            k->name, prec, want_unit, unit, fmax_);
        bad = 1;
    }
    if ((double)ftot > want_total * (1 + 1e-9) + 1e-9) {
        say(&msg, &len,
            "FAIL: %s (%s): flops: the row gives %.17g for the launch, the body does %lld\n",
            k->name, prec, want_total, ftot);
        bad = 1;
    }
    if (!close_to(body, model)) {
        say(&msg, &len,
            "FAIL: %s (%s): bytes: the row gives %.17g, the body moves %.17g (besides the fields: "
            "%.6g and %.6g)\n",
            k->name, prec, model, body, model_static, body_static);
        bad = 1;
    }
    if (unattributed) {
        say(&msg, &len,
            "FAIL: %s (%s): %ld loads or stores outside every known array (the first at %#lx): "
            "tests/test_kcount.c's list of the static data lacks one\n",
            k->name, prec, unattributed, (unsigned long)first_unattributed);
        bad = 1;
    }
    if ((bad && !ks->bad) || (verbose && !ks->launches)) {
        say(&msg, &len,
            "  %s (%s) in %s: columns [%d,%d) of %d, %d levels (first field), %ld body calls; "
            "bytes: row %.6g (fields %.6g), body %.6g (fields %.6g; not counted: %.6g of arrays "
            "shared by every column); flops per %s: %lld to %lld\n",
            k->name, prec, cur_src, i0, i1, a->km ? a->km->ncell : 0, a->nlev, nunit, model,
            model - model_static, body, body - body_static, shared, unit, fmin_, fmax_);
        for (int i = 0; i < nreg; i++) {
            double rd, wr;
            tally(&reg[i], &rd, &wr);
            if (reg[i].kind == R_IGNORE || rd + wr + reg[i].shared_rd == 0) continue;
            char extra[96] = "";
            if (reg[i].kind == R_FIELD) {
                gale_kargs_t one = *a;
                one.f[reg[i].arg].p = NULL;
                snprintf(extra, sizeof extra, "; the row's %.6g",
                         model - gale_k_launch_bytes(id, &one, i0, i1));
            }
            say(&msg, &len, "    %-22s %-11s read %8.0f written %8.0f%s\n", reg[i].name,
                kind_name[reg[i].kind], rd + reg[i].shared_rd, wr, extra);
        }
    }
    if (dump) {
        fprintf(dump, "%s %s %s cols=%d units=%ld nlev=%d nlay=%d sc=%d si=%d deep=%d lim=%d ps=%d "
                      "flat=%d tdeep=%d ftot=%lld fwtot=%.17g fields=",
                k->name, prec, cur_src, i1 - i0, nunit, a->nlev, a->km ? a->km->nlev : 0,
                a->km ? a->km->sc : 0, a->km ? a->km->si : 0, a->km ? a->km->deep : 0,
                a->tr ? a->tr->limit : 0, a->nk ? a->nk->pstride != 0 : 0, a->flat,
                a->tr && a->tr->hl, ftot, want_total);
        for (int j = 0; j < k->nfield; j++) fputc(a->f[j].p ? '1' : '0', dump);
        fprintf(dump, " weights=%d%d scalars=", a->w[0] != NULL, a->w[1] != NULL);
        for (int j = 0; j < k->nscalar; j++) fprintf(dump, "%s%g", j ? "," : "", a->s[j]);
        fprintf(dump, " body=%.17g body_static=%.17g model=%.17g model_static=%.17g fmax=%lld "
                      "fmin=%lld fwant=%.17g\n",
                body, body_static, model, model_static, fmax_, fmin_, want_unit);
    }
    if (msg && !ks->first) ks->first = msg;
    else free(msg);
    ks->launches++;
    ks->bad += bad;
    regions_free();
    copies_free(k, orig, a);
    free(T);
}

/* A launch's shape: what the body's bytes and flops can depend on (the
 * static data, the range, each field's presence, shape and aliases, the
 * weights' presence, the scalars); the values in its fields cannot (the
 * count runs on copies). Each shape is counted once. */
static uint64_t mix(uint64_t h, uint64_t v) /* FNV-1a over v's bytes */
{
    for (int b = 0; b < 8; b++, v >>= 8) h = (h ^ (v & 255)) * 1099511628211u;
    return h;
}
static uint64_t shape(int id, const gale_kargs_t *a, int i0, int i1)
{
    const uint64_t head[] = {(uint64_t)id, (uint64_t)i0, (uint64_t)i1, (uint64_t)a->prec,
                             (uint64_t)a->flat, (uint64_t)a->nlev, (uintptr_t)a->km,
                             (uintptr_t)a->tr, (uintptr_t)a->nk};
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) h = mix(h, head[i]);
    for (int j = 0; j < GALE_KMAXF; j++) {
        const gale_kfield_t *f = &a->f[j];
        int same = -1;
        for (int i = 0; i < j && f->p && same < 0; i++)
            if (a->f[i].p == f->p) same = i;
        const uint64_t fv[] = {f->p != NULL, (uint64_t)same, (uint64_t)f->nlev,
                               (uint64_t)f->stride, (uint64_t)f->elem, (uint64_t)f->loc};
        for (size_t i = 0; i < sizeof fv / sizeof fv[0]; i++) h = mix(h, fv[i]);
    }
    for (int j = 0; j < GALE_KMAXW; j++) h = mix(h, a->w[j] != NULL);
    for (int j = 0; j < GALE_KMAXS; j++) {
        uint64_t u;
        memcpy(&u, &a->s[j], sizeof u);
        h = mix(h, u);
    }
    return h;
}
#define NSHAPE (1 << 16)
static uint64_t shapes[NSHAPE]; /* open addressing, 0 empty */
static long launches_seen;
static int seen(uint64_t h)
{
    h |= 1;
    for (size_t i = h % NSHAPE;; i = (i + 1) % NSHAPE) {
        if (shapes[i] == h) return 1;
        if (!shapes[i]) {
            shapes[i] = h;
            return 0;
        }
    }
}

/* Linked with -Wl,--wrap=gale_k_run: every launch of the model's set-up and
 * step is counted instead of run (the probe computes what the launch layer
 * would: the same bodies, with no contraction). */
void __real_gale_k_run(int id, const gale_kargs_t *a, int i0, int i1);
void __wrap_gale_k_run(int id, const gale_kargs_t *a, int i0, int i1)
{
    __real_gale_k_run(id, a, i0, i1);
    /* a reduction's sets are launches of their own (gale_k_launch_bytes) */
    for (int s = 0; i1 > i0 && s < (a->nset > 1 ? a->nset : 1); s++) {
        gale_kargs_t one = a[s];
        one.nset = 1;
        launches_seen++;
        if (!seen(shape(id, &one, i0, i1))) count(id, &one, i0, i1);
    }
}

int main(int argc, char **argv)
{
    volatile char top = 0;
    stack_hi = (uintptr_t)&top + 4096;
    const char *mesh = "C4", *levels = "5";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) verbose = 1;
        else if (!strcmp(argv[i], "--mesh") && i + 1 < argc) mesh = argv[++i];
        else if (!strcmp(argv[i], "--levels") && i + 1 < argc) levels = argv[++i];
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc) {
            if (!(dump = fopen(argv[++i], "w"))) {
                perror(argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: test_kcount [--mesh CN] [--levels L] [-v] [--dump FILE]\n");
            return 2;
        }
    }
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    gale_log_setup(rank, GALE_LOG_WARN);
    char mesh_ov[64], lev_ov[64];
    snprintf(mesh_ov, sizeof mesh_ov, "--mesh.name=%s", mesh);
    snprintf(lev_ov, sizeof lev_ov, "--extrusion.levels=%s", levels);
    for (int si = 0; si < NSRC; si++) {
        const gale_ksource_t *src = &sources[si];
        const char *ov[24];
        int nov = 0;
        for (int i = 0; i < 4 && src->ov[i]; i++) ov[nov++] = src->ov[i];
        ov[nov++] = "--timestepping.steps=1";
        ov[nov++] = "--diagnostics.fields=";
        ov[nov++] = "--checkpoint.period=0";
        ov[nov++] = "--logging.level=warn";
        /* a solve short of its tolerance launches its kernels all the same */
        ov[nov++] = "--solver.fail_on_non_converged=false";
        ov[nov++] = "--mixed_solver.fail_on_non_converged=false";
        ov[nov++] = mesh_ov;
        ov[nov++] = lev_ov;
        char path[1024];
        if (src->config) snprintf(path, sizeof path, "%s/%s", GALE_KCOUNT_CONFIGS, src->config);
        cur_src = src->name;
        gale_config_t cfg;
        gale_model_t *m = calloc(1, sizeof *m);
        int st = m ? gale_config_load(&cfg, src->config ? path : NULL, nov, (char **)ov,
                                      MPI_COMM_WORLD)
                   : GALE_ERR_MEM;
        if (st == GALE_OK) st = gale_model_setup(m, &cfg, MPI_COMM_WORLD);
        if (st == GALE_OK) st = gale_model_step(m);
        if (st != GALE_OK) {
            printf("FAIL: source %s: set-up or step failed (%d)\n", src->name, st);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        gale_model_free(m);
        free(m);
    }
    int bad = 0, missing = 0;
    long launches = 0;
    for (int x = 0; x < 2 * GALE_K_N; x++) {
        const gale_kdesc_t *k = &gale_kdesc[x / 2];
        const kstat_t *ks = &kstats[x];
        if (ks->first) fputs(ks->first, stdout);
        if (ks->bad) printf("  %s (%s): %ld of its %ld launches (shapes) disagree\n", k->name,
                            x % 2 ? "single" : "double", ks->bad, ks->launches);
        bad += ks->bad > 0;
        launches += ks->launches;
        if (!ks->launches && (x % 2 == 0 || k->two_prec)) {
            printf("FAIL: %s (%s): no source launched it\n", k->name, x % 2 ? "single" : "double");
            missing++;
        }
    }
    printf("kernel_counts: %s L%s: %ld launches of %d sources, %ld of a shape of their own "
           "counted, every row's in each of its precisions; %d kernel(s) disagree with their "
           "rows, %d not launched\n",
           mesh, levels, launches_seen, NSRC, launches, bad, missing);
    free(unit_flops);
    if (dump) fclose(dump);
    MPI_Finalize();
    return bad || missing ? 1 : 0;
}
