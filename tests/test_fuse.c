/* Fused groups (docs/fusion.md) on a decomposed mesh:
 *  - each declared group gives the bits of its launches made one by one
 *    (rk_stage on a cell and an edge field; resid_u, whose mix_u reads
 *    through a stencil, so that its input is exchanged first);
 *  - an illegal group is refused, naming the group, the kernels and the
 *    argument: resid_u's last axpby writing mix_u's input, which mix_u
 *    reads through a stencil earlier in the group (its neighbours' values
 *    may be read after this column overwrote them), and a launch that is
 *    not the declared one.
 * Arguments are more --section.key=value overrides. */
#include "gale_base.h"
#include "gale_model.h"
#include "gale_test.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng = 0x2545f4914f6cdd1du;
static double value(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53 - 0.5;
}

/* random values everywhere the field has them (halo included) */
static void fill(gale_psy_t *p, gale_field_t *f)
{
    double *d = gale_fd(f);
    for (size_t j = 0; j < (size_t)f->n * f->stride; j++) d[j] = value();
    gale_psy_host_wrote(p, f, 0); /* owned only: launches must exchange what they read */
}

/* the owned entries of a and b are the same bits */
static int same(gale_psy_t *p, gale_field_t *a, gale_field_t *b)
{
    const int n = gale_psy_owned(p, a->loc);
    return memcmp(gale_fd(a), gale_fd(b), sizeof(double) * (size_t)n * a->stride) == 0;
}

/* What this process writes to stderr between capture() and captured(). */
static int saved_fd = -1;
static FILE *cap;
static void capture(void)
{
    fflush(stderr);
    cap = tmpfile();
    saved_fd = dup(2);
    dup2(fileno(cap), 2);
}
static void captured(char *buf, size_t n)
{
    fflush(stderr);
    dup2(saved_fd, 2);
    close(saved_fd);
    rewind(cap);
    const size_t k = fread(buf, 1, n - 1, cap);
    buf[k] = 0;
    fclose(cap);
    printf("%s", buf); /* the messages, for the log */
}

/* the bytes counted so far under the timer named name */
static double timer_bytes(const char *name)
{
    for (int t = 0; t < gale_timer_ntimers(); t++)
        if (strcmp(gale_timer_name(t), name) == 0) return gale_timer_bytes(t);
    return -1;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    gale_log_setup(rank, GALE_LOG_WARN);
    char *ov[16] = {"--mesh.name=C8", "--extrusion.levels=7", "--diagnostics.fields="};
    int nov = 3;
    for (int i = 1; i < argc && nov < 16; i++) ov[nov++] = argv[i];
    gale_config_t cfg;
    gale_model_t m;
    if (gale_config_parse(&cfg, NULL, nov, ov) != GALE_OK ||
        gale_model_setup(&m, &cfg, MPI_COMM_WORLD) != GALE_OK) {
        MPI_Finalize();
        return 1;
    }
    gale_psy_t *p = m.psy;
    const gale_loc_t locs[2] = {GALE_LOC_CELL, GALE_LOC_EDGE};
    /* rk_stage: xa = aa x0 + b (xa + h tend) */
    for (int l = 0; l < 2; l++) {
        gale_field_t x0, xa, xb, t;
        CHECK_OK(gale_psy_field_create(p, &x0, "fz_x0", locs[l], 7, 8));
        CHECK_OK(gale_psy_field_create(p, &xa, "fz_xa", locs[l], 7, 8));
        CHECK_OK(gale_psy_field_create(p, &xb, "fz_xb", locs[l], 7, 8));
        CHECK_OK(gale_psy_field_create(p, &t, "fz_t", locs[l], 7, 8));
        fill(p, &x0), fill(p, &xa), fill(p, &t);
        memcpy(gale_fd(&xb), gale_fd(&xa), sizeof(double) * (size_t)xa.n * xa.stride);
        gale_psy_host_wrote(p, &xb, 0);
        const double h = 0.37, aa = 0.75, b = 1.0 - aa;
        const double a0 = timer_bytes("axpby"), g0 = timer_bytes("rk_stage");
        CHECK_OK(gale_psy_axpby(p, &xa, 1.0, &xa, h, &t));
        CHECK_OK(gale_psy_axpby(p, &xa, aa, &x0, b, &xa));
        CHECK_OK(gale_psy_fuse_begin(p, GALE_KG_rk_stage));
        CHECK_OK(gale_psy_axpby(p, &xb, 1.0, &xb, h, &t));
        CHECK_OK(gale_psy_axpby(p, &xb, aa, &x0, b, &xb));
        CHECK_OK(gale_psy_fuse_end(p));
        if (l == 0) { /* minimum bytes on the owned cells' column blocks: one by one
                         xa is read and written twice and t, x0 read once each (6
                         streams); fused, xa, t, x0 read and xa written once (4) */
            const double col = (double)gale_psy_owned(p, GALE_LOC_CELL) * xa.stride * 8;
            CHECK_REL(timer_bytes("axpby") - a0, 6 * col, 1e-12);
            CHECK_REL(timer_bytes("rk_stage") - g0, 4 * col, 1e-12);
        }
        CHECK(same(p, &xa, &xb), "rk_stage on %s fields: fused and one by one differ",
              l ? "edge" : "cell");
        gale_field_t *f[4] = {&x0, &xa, &xb, &t};
        for (int i = 0; i < 4; i++) gale_psy_field_free(f[i]);
    }
    /* resid_u: y = M_u R; y += c F; z = -y + e Fn */
    gale_field_t R, F, Fn, y[2], z[2];
    CHECK_OK(gale_psy_field_create(p, &R, "fz_R", GALE_LOC_EDGE, 7, 8));
    CHECK_OK(gale_psy_field_create(p, &F, "fz_F", GALE_LOC_EDGE, 7, 8));
    CHECK_OK(gale_psy_field_create(p, &Fn, "fz_Fn", GALE_LOC_EDGE, 7, 8));
    for (int v = 0; v < 2; v++) {
        CHECK_OK(gale_psy_field_create(p, &y[v], "fz_y", GALE_LOC_EDGE, 7, 8));
        CHECK_OK(gale_psy_field_create(p, &z[v], "fz_z", GALE_LOC_EDGE, 7, 8));
    }
    fill(p, &F), fill(p, &Fn);
    for (int v = 0; v < 2; v++) {
        rng = 0x2545f4914f6cdd1du; /* the same values both times, owned only: */
        fill(p, &R);                /* both ways exchange them */
        if (v) CHECK_OK(gale_psy_fuse_begin(p, GALE_KG_resid_u));
        CHECK_OK(gale_psy_mix_u(p, 1.0, 0.0, &R, NULL, &y[v]));
        CHECK_OK(gale_psy_axpby(p, &y[v], 1.0, &y[v], 0.3, &F));
        CHECK_OK(gale_psy_axpby(p, &z[v], -1.0, &y[v], -0.7, &Fn));
        if (v) CHECK_OK(gale_psy_fuse_end(p));
    }
    CHECK(same(p, &y[0], &y[1]) && same(p, &z[0], &z[1]),
          "resid_u: fused and one by one differ");
    /* illegal: the last axpby writes R, which mix_u reads through a stencil */
    char msg[4096];
    CHECK_OK(gale_psy_fuse_begin(p, GALE_KG_resid_u));
    CHECK_OK(gale_psy_mix_u(p, 1.0, 0.0, &R, NULL, &y[0]));
    CHECK_OK(gale_psy_axpby(p, &y[0], 1.0, &y[0], 0.3, &F));
    capture();
    const int st = gale_psy_axpby(p, &R, -1.0, &y[0], -0.7, &Fn);
    captured(msg, sizeof msg);
    CHECK(st == GALE_ERR_INTERNAL && strstr(msg, "fused group resid_u: kernel axpby writes 'out' "
                                                 "(field 'fz_R'), which mix_u reads ('u') through "
                                                 "a stencil of depth 1 earlier in the group"),
          "a write of a stencil's input was not refused as it should be: %d %s", st, msg);
    /* illegal: not the declared kernel (the group above was abandoned) */
    gale_psy_t *q = NULL;
    gale_psy_opts_t o = *gale_psy_options(p);
    CHECK_OK(gale_psy_create(&q, &o, MPI_COMM_WORLD, &m.lm, (gale_kmesh_t *)gale_psy_kmesh(p)));
    CHECK_OK(gale_psy_fuse_begin(q, GALE_KG_rk_stage));
    capture();
    const int st2 = gale_psy_copy(q, &y[0], &F);
    captured(msg, sizeof msg);
    CHECK(st2 == GALE_ERR_INTERNAL &&
              strstr(msg, "fused group rk_stage: launch 1 is copy, but the group declares axpby"),
          "an undeclared launch was not refused as it should be: %d %s", st2, msg);
    gale_psy_destroy(&q); /* it shares p's kmesh, which it did not initialise */
    gale_field_t *f[7] = {&R, &F, &Fn, &y[0], &y[1], &z[0], &z[1]};
    for (int i = 0; i < 7; i++) gale_psy_field_free(f[i]);
    gale_model_free(&m);
    const int bad = gale_test_result(rank ? "test_fuse (rank > 0)" : "test_fuse");
    MPI_Finalize();
    return bad;
}
