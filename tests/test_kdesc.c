/* The kernel descriptions (kernels/gale_kdesc.h) and the PSy layer's checks
 * of a launch against them, on a real model set-up (one rank):
 *  - an edge field and a cell field swapped in a launch stop it with
 *    GALE_ERR_INTERNAL and one message that names both arguments and both
 *    fields; the same launch with the fields in place runs;
 *  - a single-precision field among double ones, and a double-only kernel
 *    given single-precision fields, are refused;
 *  - every row is well formed: unique names, the body named, at least one
 *    field, a single-precision call for two-precision rows;
 *  - the minimum bytes of a launch follow from the fields' locations: an
 *    edge loop touches half a cell column per edge (grad_h on all edges:
 *    in and out per edge, p per cell, and the row's edge_cell and 1/d_e). */
#include "gale_base.h"
#include "gale_model.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fails;
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("FAIL: " __VA_ARGS__);                                                  \
            printf("\n");                                                                  \
            fails++;                                                                       \
        }                                                                                  \
    } while (0)

/* Runs a launch with stderr captured into msg. */
#define CAPTURE(st, msg, call)                                                             \
    do {                                                                                   \
        fflush(stderr);                                                                    \
        FILE *tf_ = tmpfile();                                                             \
        int save_ = dup(2);                                                                \
        dup2(fileno(tf_), 2);                                                              \
        st = (call);                                                                       \
        fflush(stderr);                                                                    \
        dup2(save_, 2);                                                                    \
        close(save_);                                                                      \
        rewind(tf_);                                                                       \
        size_t n_ = fread(msg, 1, sizeof msg - 1, tf_);                                    \
        msg[n_] = '\0';                                                                    \
        fclose(tf_);                                                                       \
    } while (0)

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    gale_log_setup(rank, GALE_LOG_WARN);
    char *ov[] = {"--mesh.name=C4", "--extrusion.levels=3", "--diagnostics.fields="};
    gale_config_t cfg;
    static gale_model_t m;
    if (gale_config_parse(&cfg, NULL, 3, ov) != GALE_OK ||
        gale_model_setup(&m, &cfg, MPI_COMM_WORLD) != GALE_OK) {
        printf("FAIL: model set-up\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    char msg[4096];
    int st;

    /* grad_h(s, in: edge, p: cell, out: edge), with in and p swapped */
    CAPTURE(st, msg, gale_psy_grad_h(m.psy, 1.0, &m.p, &m.u, &m.ru));
    CHECK(st == GALE_ERR_INTERNAL, "swapped fields: status %d, not GALE_ERR_INTERNAL", st);
    CHECK(strstr(msg, "kernel grad_h") && strstr(msg, "argument 'in' is an edge field") &&
              strstr(msg, "the cell field 'p'") && strstr(msg, "argument 'p' is a cell field") &&
              strstr(msg, "the edge field 'u'"),
          "swapped fields: the message does not name both arguments and fields: %s", msg);
    st = gale_psy_grad_h(m.psy, 1.0, &m.u, &m.p, &m.ru);
    CHECK(st == GALE_OK, "grad_h with its fields in place: status %d", st);

    /* precisions: a single-precision field among double ones */
    gale_field_t xf;
    st = gale_psy_field_create(m.psy, &xf, "xf", GALE_LOC_CELL, m.km.nlev, 4);
    CHECK(st == GALE_OK, "single-precision field: status %d", st);
    CAPTURE(st, msg, gale_psy_axpby(m.psy, &m.pn, 1.0, &xf, 1.0, &m.p));
    CHECK(st == GALE_ERR_INTERNAL && strstr(msg, "'xf'") && strstr(msg, "single precision"),
          "mixed precisions: status %d, message %s", st, msg);
    CAPTURE(st, msg, gale_psy_rhs(m.psy, &xf, &m.fu, &m.fw, &m.rhs));
    CHECK(st == GALE_ERR_INTERNAL && strstr(msg, "'xf'"),
          "single precision to a double-only kernel: status %d, message %s", st, msg);
    gale_psy_field_free(&xf);

    /* the rows */
    for (int i = 0; i < GALE_K_N; i++) {
        const gale_kdesc_t *k = &gale_kdesc[i];
        for (int j = 0; j < i; j++)
            CHECK(strcmp(k->name, gale_kdesc[j].name), "two rows are named %s", k->name);
        CHECK(k->nfield >= 1 && k->nfield <= GALE_KMAXF, "%s: %d fields", k->name, k->nfield);
        CHECK(!strncmp(k->call, "gale_kb_", 8), "%s: the row's call '%s' is not a body", k->name,
              k->call);
        for (int j = 0; j < k->nfield; j++)
            CHECK(k->field[j].loc && k->field[j].stencil >= 0 && k->field[j].access,
                  "%s: argument %s", k->name, k->field[j].name);
        /* a reduction reads its fields where they are owned: nothing to write or exchange */
        for (int j = 0; GALE_KS_REDUCES(k->space) && j < k->nfield; j++)
            CHECK(k->field[j].access == GALE_KA_R && !k->field[j].stencil && !k->extent &&
                      k->aux == GALE_KAUX_M,
                  "%s: a reduction with argument %s written, read beyond its column, or static "
                  "data", k->name, k->field[j].name);
    }

    /* the minimum bytes of grad_h on every local edge */
    gale_kargs_t a = {.km = &m.km, .prec = GALE_F64, .nlev = m.u.nlev};
    const gale_field_t *f[3] = {&m.u, &m.p, &m.ru};
    for (int j = 0; j < 3; j++)
        a.f[j] = (gale_kfield_t){f[j]->data, f[j]->nlev, f[j]->stride, f[j]->elem, f[j]->loc};
    const int ne = m.km.nedge, nl = m.km.nlev;
    const double want = 8.0 * nl * (ne + 0.5 * ne + ne) + 16.0 * ne; /* + edge_cell, 1/d_e */
    const double got = gale_k_launch_bytes(GALE_K_grad_h, &a, 0, ne);
    CHECK(got == want, "grad_h on %d edges, %d levels: %g bytes, expected %g", ne, nl, got, want);

    gale_model_free(&m);
    if (!fails) printf("kernel descriptions: %d rows; launches checked against them\n", GALE_K_N);
    MPI_Finalize();
    return fails ? 1 : 0;
}
