/* The writer API (io/gale_io.h) on one rank, without the model: pieces of a
 * variable split to fit a small buffer, a ring smaller than one output time,
 * gale_writer_exec running after the output handed over before it and on the
 * thread that owns HDF5, and the statistics. usage: test_output_writer DIR */
#include "gale_io.h"
#include "gale_test.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    pthread_t caller;
    char path[512];
    int other_thread, file_there;
} probe_t;

static int probe(void *arg)
{
    probe_t *p = arg;
    struct stat sb;
    p->other_thread = !pthread_equal(pthread_self(), p->caller);
    p->file_there = stat(p->path, &sb) == 0;
    return 7;
}

static void run(const char *dir, int synchronous)
{
    gale_cs_t cs;
    CHECK_OK(gale_cs_init(&cs, 3, 1000.0));
    enum { NL = 4 };
    const double zc[NL] = {0.5, 1.5, 2.5, 3.5}, zi[NL + 1] = {0, 1, 2, 3, 4};
    gale_gid_t *cg = malloc(cs.ncells * sizeof *cg), *eg = malloc(cs.nedges * sizeof *eg);
    for (int i = 0; i < cs.ncells; i++) cg[i] = i;
    for (int i = 0; i < cs.nedges; i++) eg[i] = i;
    gale_outvar_t vars[2] = {{.name = "p", .long_name = "test", .units = "1",
                              .loc = GALE_OUT_FACE, .vert = GALE_OUT_LAYERS},
                             {.name = "s", .long_name = "test", .units = "1",
                              .loc = GALE_OUT_FACE, .vert = GALE_OUT_2D}};
    /* 54 faces x 4 levels x 8 bytes; 512-byte buffers hold 16 rows: 4 pieces of p, and a
     * ring of two buffers is smaller than one output time */
    gale_writer_opts_t o = {.dir = dir, .mode = GALE_WRITER_PER_RANK, .synchronous = synchronous,
                            .nbuffers = 2, .buffer_mib = 512.0 / 1048576.0, .cs = &cs,
                            .nlev = NL, .z_c = zc, .z_if = zi, .ncell = (int)cs.ncells,
                            .nedge = (int)cs.nedges, .cell_gid = cg, .edge_gid = eg,
                            .nvars = 2, .vars = vars, .config_text = "[test]\n"};
    gale_writer_t *w = NULL;
    CHECK_OK(gale_writer_create(&w, &o, MPI_COMM_WORLD));
    CHECK(gale_writer_npieces(w, 0) == 4, "p in %d pieces, expected 4", gale_writer_npieces(w, 0));
    CHECK(gale_writer_npieces(w, 1) == 1, "s in %d pieces", gale_writer_npieces(w, 1));
    for (int step = 1; step <= 3; step++) {
        const int fv[2] = {0, 1};
        CHECK_OK(gale_writer_begin(w, step, 10.0 * step, 2, fv));
        for (int v = 0; v < 2; v++)
            for (int piece = 0; piece < gale_writer_npieces(w, v); piece++) {
                int r0, r1;
                double *dst;
                gale_writer_piece_rows(w, v, piece, &r0, &r1);
                CHECK_OK(gale_writer_put(w, v, piece, &dst));
                int rl = v == 0 ? NL : 1;
                for (int r = r0; r < r1; r++)
                    for (int k = 0; k < rl; k++) dst[(r - r0) * rl + k] = step * 1000 + r * 10 + k;
            }
        CHECK_OK(gale_writer_end(w));
    }
    probe_t p = {.caller = pthread_self()};
    snprintf(p.path, sizeof p.path, "%s/gale_000003_r00000.nc", dir);
    CHECK(gale_writer_exec(w, probe, &p) == 7, "exec returns fn's status");
    CHECK(p.file_there, "exec ran before the output handed over earlier was written");
    CHECK(p.other_thread == !synchronous, "exec on the writer thread (asynchronous only)");
    CHECK(!gale_writer_failed(w), "no failure");
    CHECK_OK(gale_writer_finish(w));
    gale_writer_stats_t s;
    gale_writer_stats(w, &s);
    CHECK(s.nfiles == 4 && s.bytes > 0, "%d files (mesh.nc + 3), %lld bytes", s.nfiles, s.bytes);
    CHECK(strstr(s.files, "mesh.nc\n") && strstr(s.files, "gale_000002_r00000.nc\n"), "%s",
          s.files);
    CHECK(s.t_writing > 0 && s.t_writer_life >= s.t_writing, "writing %g of %g s", s.t_writing,
          s.t_writer_life);
    CHECK(s.t_first_open >= 0 && s.t_last_close > s.t_first_open, "open %g close %g",
          s.t_first_open, s.t_last_close);
    CHECK(probe(&p) == 7 && gale_writer_exec(w, probe, &p) == 7 && !p.other_thread,
          "after finish, exec runs on the caller");
    gale_writer_free(&w);
    CHECK(w == NULL, "freed");
    free(cg);
    free(eg);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (argc < 2) return 2;
    char d[512];
    snprintf(d, sizeof d, "%s/async", argv[1]);
    mkdir(d, 0777);
    run(d, 0);
    snprintf(d, sizeof d, "%s/sync", argv[1]);
    mkdir(d, 0777);
    run(d, 1);
    MPI_Finalize();
    return gale_test_result("test_output_writer");
}
