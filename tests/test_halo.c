/* MPI halo exchange (issue 2), run under mpiexec with any rank count.
 * Arguments: mesh sizes N (default 6 12). For each mesh, partition method
 * (sfc; panel where the rank count allows) and local depth L = 1 and 3, every
 * exchange depth d <= L of cell, interface and edge fields (double and float):
 * owned entries hold a function of gid and level, everything else poison;
 * after the exchange every entry to depth d must hold its gid's value and
 * everything beyond depth d (and the column padding) must still be poison.
 * Also: persistent requests reused, split begin/end around computation,
 * three plans in flight begun in rank-dependent order and ended in reverse,
 * misuse (begin/end order, plan creation order) reported as an internal error. */
#include "gale_base.h"
#include "gale_field.h"
#include "gale_halo.h"
#include "gale_test.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define LAYERS 10
#define POISON (-1e30) /* representable as a float too */

static int g_rank, g_size;
static char g_cfg[80]; /* current configuration, for failure messages */

/* Exact, and distinct per gid, in float too while gid*1000 < 2^21 (C12: 1728 edges). */
static double value(gale_gid_t gid, int k, int rep)
{
    return (double)gid * 1000 + k + 0.5 + 0.125 * rep;
}

static double get(const gale_field_t *f, int col, int k)
{
    size_t i = (size_t)col * f->stride + k;
    return f->elem == 8 ? gale_fd(f)[i] : gale_ff(f)[i];
}

static void set(gale_field_t *f, int col, int k, double v)
{
    size_t i = (size_t)col * f->stride + k;
    if (f->elem == 8)
        gale_fd(f)[i] = v;
    else
        gale_ff(f)[i] = (float)v;
}

static int is_edge(const gale_field_t *f) { return f->loc == GALE_LOC_EDGE; }
static int n_owned(const gale_local_t *lm, const gale_field_t *f)
{
    return is_edge(f) ? lm->nedge_owned : lm->ncell[0];
}
static int n_to(const gale_local_t *lm, const gale_field_t *f, int d)
{
    return is_edge(f) ? lm->nedge[d] : lm->ncell[d];
}
static gale_gid_t gid(const gale_local_t *lm, const gale_field_t *f, int col)
{
    return is_edge(f) ? lm->edge_gid[col] : lm->cell_gid[col];
}

/* Owned entries get value(rep); halo columns and padding get poison. */
static void fill(const gale_local_t *lm, gale_field_t *f, int rep)
{
    int own = n_owned(lm, f);
    for (int c = 0; c < f->n; c++)
        for (int k = 0; k < f->stride; k++)
            set(f, c, k, c < own && k < f->nlev ? value(gid(lm, f, c), k, rep) : POISON);
}

/* After an exchange of depth d: values to depth d, poison beyond and in padding. */
static void check(const gale_local_t *lm, const gale_field_t *f, int d, int rep, const char *what)
{
    int nd = n_to(lm, f, d), nbad = 0, bc = -1, bk = -1;
    double bg = 0, be = 0;
    for (int c = 0; c < f->n; c++)
        for (int k = 0; k < f->stride; k++) {
            double e = c < nd && k < f->nlev ? value(gid(lm, f, c), k, rep) : POISON;
            if (f->elem == 4) e = (float)e;
            double g = get(f, c, k);
            if (g != e && !nbad++) bc = c, bk = k, bg = g, be = e;
        }
    CHECK(
        nbad == 0,
        "rank %d %s: %s %s elem %d depth %d rep %d: %d wrong entries; first col %d (gid %lld, %s) "
        "k %d: %.10g, expected %.10g",
        g_rank, g_cfg, what, f->name, f->elem, d, rep, nbad, bc,
        bc < 0 ? -1LL : (long long)gid(lm, f, bc),
        bc < n_owned(lm, f) ? "owned"
        : bc < nd           ? "halo"
                            : "beyond depth",
        bk, bg, be);
}

/* A failed creation may be seen by some ranks only (a pair whose lists
 * disagree): abort rather than leave the others in the next collective. */
static gale_halo_t *plan(const gale_local_t *lm, const gale_field_t *f, int d)
{
    gale_halo_t *h = NULL;
    if (gale_halo_create(&h, lm, MPI_COMM_WORLD, f->loc, f->nlev, f->stride, f->elem, d) !=
        GALE_OK) {
        fprintf(stderr, "FAIL rank %d %s: %s depth %d: plan creation failed\n", g_rank, g_cfg,
                f->name, d);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return h;
}

/* Every shape at depth d: three exchanges of the same plan with new values,
 * and the reported volume: each halo column to depth d arrives exactly once. */
static void test_shapes(const gale_local_t *lm, int d)
{
    static const struct {
        gale_loc_t loc;
        int elem;
        const char *name;
    } shapes[] = {{GALE_LOC_CELL, 8, "cell"},
                  {GALE_LOC_IFACE, 8, "iface"},
                  {GALE_LOC_EDGE, 8, "edge"},
                  {GALE_LOC_CELL, 4, "cell_f"},
                  {GALE_LOC_EDGE, 4, "edge_f"}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        gale_field_t f;
        CHECK_OK(gale_field_create(&f, shapes[s].name, shapes[s].loc, LAYERS, shapes[s].elem, lm));
        gale_halo_t *h = plan(lm, &f, d);
        for (int rep = 0; rep < 3; rep++) {
            fill(lm, &f, rep);
            CHECK_OK(gale_halo_begin(h, f.data));
            CHECK_OK(gale_halo_end(h, f.data));
            check(lm, &f, d, rep, "exchange");
        }
        size_t want = (size_t)(n_to(lm, &f, d) - n_owned(lm, &f)) * f.nlev * f.elem;
        CHECK(gale_halo_bytes(h) == want,
              "rank %d %s: %s depth %d: %zu bytes received, halo holds %zu", g_rank, g_cfg, f.name,
              d, gale_halo_bytes(h), want);
        CHECK(gale_halo_messages(h) <= lm->nnbr && (want > 0) == (gale_halo_messages(h) > 0),
              "rank %d %s: %s depth %d: %d messages, %d neighbours, %zu bytes", g_rank, g_cfg,
              f.name, d, gale_halo_messages(h), lm->nnbr, want);
        CHECK_OK(gale_halo_destroy(&h));
        gale_field_free(&f);
    }
}

/* Split begin/end around work on owned data, and three plans in flight at
 * once: two of the same shape (identical sizes and neighbours, so only the
 * per-plan isolation keeps their messages apart) begun in an order that
 * differs between even and odd ranks, and an edge plan; ended in reverse. */
static void test_overlap(const gale_local_t *lm, int d)
{
    gale_field_t a, b, e;
    CHECK_OK(gale_field_create(&a, "a", GALE_LOC_CELL, LAYERS, 8, lm));
    CHECK_OK(gale_field_create(&b, "b", GALE_LOC_CELL, LAYERS, 8, lm));
    CHECK_OK(gale_field_create(&e, "e", GALE_LOC_EDGE, LAYERS, 8, lm));
    gale_halo_t *ha = plan(lm, &a, d), *hb = plan(lm, &b, d), *he = plan(lm, &e, d);

    fill(lm, &a, 1);
    CHECK_OK(gale_halo_begin(ha, a.data));
    double sum = 0, want = 0; /* inner work while messages fly */
    for (int c = 0; c < lm->ncell[0]; c++)
        for (int k = 0; k < LAYERS; k++) sum += get(&a, c, k), want += value(lm->cell_gid[c], k, 1);
    CHECK_OK(gale_halo_end(ha, a.data));
    CHECK(sum == want, "owned sum %g, expected %g", sum, want);
    check(lm, &a, d, 1, "split");

    fill(lm, &a, 1), fill(lm, &b, 2), fill(lm, &e, 3);
    gale_halo_t *first = g_rank % 2 ? hb : ha, *second = g_rank % 2 ? ha : hb;
    CHECK_OK(gale_halo_begin(first, first == ha ? a.data : b.data));
    CHECK_OK(gale_halo_begin(second, second == ha ? a.data : b.data));
    CHECK_OK(gale_halo_begin(he, e.data));
    CHECK_OK(gale_halo_end(he, e.data));
    CHECK_OK(gale_halo_end(second, second == ha ? a.data : b.data));
    CHECK_OK(gale_halo_end(first, first == ha ? a.data : b.data));
    check(lm, &a, d, 1, "in flight");
    check(lm, &b, d, 2, "in flight");
    check(lm, &e, d, 3, "in flight");
    CHECK_OK(gale_halo_destroy(&ha));
    CHECK_OK(gale_halo_destroy(&hb));
    CHECK_OK(gale_halo_destroy(&he));
    gale_field_free(&a), gale_field_free(&b), gale_field_free(&e);
}

/* Misuse is an internal error with a message, not a hang: end without
 * begin, begin twice, plans created in different orders on different ranks. */
static void test_misuse(const gale_local_t *lm)
{
    gale_field_t f;
    CHECK_OK(gale_field_create(&f, "misuse", GALE_LOC_CELL, LAYERS, 8, lm));
    gale_halo_t *h = plan(lm, &f, 1);
    if (g_rank == 0) fprintf(stderr, "test_halo: two expected 'internal' errors follow\n");
    MPI_Barrier(MPI_COMM_WORLD); /* keep the note before the errors */
    CHECK(gale_halo_end(h, f.data) == GALE_ERR_INTERNAL, "end without begin accepted");
    CHECK_OK(gale_halo_begin(h, f.data));
    CHECK(gale_halo_begin(h, f.data) == GALE_ERR_INTERNAL, "second begin accepted");
    CHECK_OK(gale_halo_end(h, f.data));
    CHECK_OK(gale_halo_destroy(&h));
    gale_field_free(&f);

    /* Plans created in different orders: every rank sees the shape mismatch
     * in the agreement check and fails, none hangs. */
    if (g_size > 1) {
        if (g_rank == 0) fprintf(stderr, "test_halo: expected shape-mismatch errors follow\n");
        MPI_Barrier(MPI_COMM_WORLD);
        int st =
            gale_halo_create(&h, lm, MPI_COMM_WORLD, GALE_LOC_CELL, g_rank ? 11 : 10, 16, 8, 1);
        CHECK(st == GALE_ERR_INTERNAL && !h, "mismatched plan shapes: status %d", st);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    gale_log_setup(g_rank, GALE_LOG_WARN);
    double t0 = MPI_Wtime();

    int def[] = {6, 12}, nmesh = argc > 1 ? argc - 1 : 2, nconf = 0;
    for (int m = 0; m < nmesh; m++) {
        int n = argc > 1 ? atoi(argv[m + 1]) : def[m];
        gale_cs_t cs;
        CHECK_OK(gale_cs_init(&cs, n, 1.0));
        for (int method = GALE_PART_SFC; method <= GALE_PART_PANEL; method++) {
            if (method == GALE_PART_PANEL && g_size != 1 && g_size % 6) continue;
            gale_partition_t part;
            if (gale_partition_build(&cs, g_size, method, &part) != GALE_OK) {
                CHECK(0, "C%d %s partition for %d ranks failed", n, gale_part_method_name(method),
                      g_size);
                continue;
            }
            /* local depth 1 (exchange depth = mesh depth) and 3 (every d < and = L);
             * 2 adds nothing but time on an oversubscribed machine */
            for (int depth = 1; depth <= GALE_MAX_DEPTH; depth += GALE_MAX_DEPTH - 1) {
                snprintf(g_cfg, sizeof g_cfg, "C%d %s P=%d local depth %d", n,
                         gale_part_method_name(method), g_size, depth);
                gale_local_t lm;
                if (gale_local_build(&cs, &part, g_rank, depth, &lm) != GALE_OK) {
                    CHECK(0, "%s: local build failed", g_cfg);
                    continue;
                }
                for (int d = 1; d <= depth; d++) test_shapes(&lm, d);
                test_overlap(&lm, depth);
                if (!nconf++) test_misuse(&lm);
                gale_local_free(&lm);
            }
            gale_partition_free(&part);
        }
    }

    /* One verdict on every rank. */
    int fail = gale_test_failures > 0, anyfail = 0;
    MPI_Allreduce(&fail, &anyfail, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (fail) gale_test_result("test_halo");
    if (g_rank == 0)
        printf("test_halo: P=%d, %d configurations, %.2f s: %s\n", g_size, nconf, MPI_Wtime() - t0,
               anyfail ? "FAILED" : "all checks passed");
    MPI_Finalize();
    return anyfail;
}
