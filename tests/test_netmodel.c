/* The network model of docs/emulate.md, without MPI: a sum's modelled time
 * from the parameters (exact arithmetic), the fit against the ARCHER2
 * measurements it came from, a halo message, the emulated node of a rank,
 * an emulated allreduce's steps with and without polls, and machine files:
 * the shipped ones read as the built-in machines, bad ones are refused
 * naming the file and line. Usage: test_netmodel CONFIGS_EMULATE_DIR */
#include "gale_netmodel.h"
#include "gale_test.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *write_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/gale_netmodel_%d.ini", (int)getpid());
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* a machine file with one line replaced (or dropped when with is ""): its
 * refusal names the file and line */
static void bad_file(const char *line, const char *with, const char *want)
{
    char text[4096] = "";
    static const char *const good[] = {
        "name = test", "cores_per_node = 128", "shm_step_us = 0.26", "shm_step_gbs = 0.544",
        "shm_step_large_us = 0.842", "shm_step_large_gbs = 3.34", "net_round_us = 3.48",
        "net_round_gbs = 0.28", "net_round_large_us = 7.26", "net_round_large_gbs = 0.135",
        "large_bytes = 512", "p2p_net_us = 2", "p2p_net_gbs = 12.5", "node_injection_gbs = 25",
        "p2p_shm_us = 0.26", "p2p_shm_gbs = 10"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        const char *l = strncmp(good[i], line, strlen(line)) == 0 ? with : good[i];
        if (*l) strcat(strcat(text, l), "\n");
    }
    const char *p = write_file(text);
    gale_netmodel_t m;
    char why[512] = "";
    CHECK(gale_netmodel_read(p, &m, why, sizeof why) != 0, "'%s' read", with);
    CHECK(strstr(why, want) != NULL, "'%s': message '%s' lacks '%s'", with, why, want);
    remove(p);
}

int main(int argc, char **argv)
{
    gale_netmodel_t a, s, f;
    CHECK_OK(gale_netmodel_builtin("archer2", &a));
    CHECK_OK(gale_netmodel_builtin("setonix", &s));
    CHECK(gale_netmodel_builtin("archer3", &f) != 0, "an unknown machine");

    /* the tree inside a node and MPICH's recursive doubling */
    const int R[] = {1, 2, 3, 32, 100, 128}, RS[] = {0, 2, 4, 10, 14, 14};
    for (int i = 0; i < 6; i++)
        CHECK(gale_netmodel_node_steps(R[i]) == RS[i], "R = %d: %d steps", R[i],
              gale_netmodel_node_steps(R[i]));
    const int N[] = {1, 2, 3, 6, 48, 768, 1024}, NR[] = {0, 1, 3, 4, 7, 11, 10};
    for (int i = 0; i < 7; i++)
        CHECK(gale_netmodel_rounds(N[i]) == NR[i], "N = %d: %d rounds", N[i],
              gale_netmodel_rounds(N[i]));

    /* a sum's time from the parameters, by hand: 10 steps of the tree
     * (R = 32) and 11 rounds (N = 768), in each regime */
    CHECK_REL(gale_netmodel_allreduce_s(&a, 8, 768, 32),
              10 * (0.260e-6 + 8 / 0.544e9) + 11 * (3.48e-6 + 8 / 0.280e9), 1e-14);
    CHECK_REL(gale_netmodel_allreduce_s(&a, 216, 6, 32),
              10 * (0.260e-6 + 216 / 0.544e9) + 4 * (3.48e-6 + 216 / 0.280e9), 1e-14);
    CHECK_REL(gale_netmodel_allreduce_s(&a, 512, 48, 32),
              10 * (0.842e-6 + 512 / 3.34e9) + 7 * (7.26e-6 + 512 / 0.135e9), 1e-14);
    CHECK_REL(gale_netmodel_allreduce_s(&a, 1440, 1, 1), 0, 1e-14);
    /* ... and against the measurements it was fitted to (osu_allreduce of
     * 8 bytes, N nodes x 128 ranks; docs/emulate.md): within 25% of each,
     * the fit's largest deviation being 22% (32 nodes) */
    const int mn[] = {1, 2, 4, 8, 16, 32, 64, 128};
    const double mus[] = {3.86, 7.03, 10.04, 13.12, 15.20, 17.57, 21.90, 29.33};
    for (int i = 0; i < 8; i++) {
        const double t = 1e6 * gale_netmodel_allreduce_s(&a, 8, mn[i], 128);
        CHECK(fabs(t - mus[i]) <= 0.25 * mus[i], "%d nodes: modelled %.2f us, measured %.2f us",
              mn[i], t, mus[i]);
    }

    /* a halo message: off the node, the node's injection shared by its ranks */
    CHECK_REL(gale_netmodel_message_s(&a, 8000, 1, 32), 2.0e-6 + 8000 / (25e9 / 32), 1e-14);
    CHECK_REL(gale_netmodel_message_s(&a, 8000, 1, 1), 2.0e-6 + 8000 / 12.5e9, 1e-14);
    CHECK_REL(gale_netmodel_message_s(&s, 8000, 1, 1), 2.0e-6 + 8000 / 25e9, 1e-14);
    CHECK_REL(gale_netmodel_message_s(&a, 8000, 0, 32), 0.26e-6 + 8000 / 10e9, 1e-14);
    /* 2 real ranks on 768 nodes: on two nodes; 4 on one node: on one */
    CHECK(gale_netmodel_node_of(0, 2, 768) == 0 && gale_netmodel_node_of(1, 2, 768) == 384,
          "2 ranks on 768 nodes");
    CHECK(gale_netmodel_node_of(3, 4, 1) == 0 && gale_netmodel_node_of(1, 4, 2) == 0 &&
              gale_netmodel_node_of(2, 4, 2) == 1, "4 ranks on 1 and 2 nodes");

    /* an emulated sum: polled without pause from its post, or with a
     * progress thread, it takes the modelled time; polled once, late, the
     * steps after the first wait for that poll */
    const double T = gale_netmodel_allreduce_s(&a, 216, 768, 32);
    const double s0 = gale_netmodel_step_s(&a, 0, 216);
    gale_netop_t op;
    gale_netop_start(&op, &a, 216, 768, 32, 0, 100.0);
    CHECK_REL(op.model_s, T, 1e-15);
    CHECK_REL(gale_netop_done_at(&op, 100.0) - 100.0, T, 1e-9);
    gale_netop_start(&op, &a, 216, 768, 32, 0, 100.0);
    CHECK(!gale_netop_poll(&op, 100.0 + T), "polled: one step done at the poll, not all");
    CHECK_REL(gale_netop_done_at(&op, 100.0 + T) - (100.0 + T), T - s0, 1e-9);
    gale_netop_start(&op, &a, 216, 768, 32, 1, 100.0);
    CHECK(!gale_netop_poll(&op, 100.0 + 0.999 * T), "async: not done before the modelled time");
    CHECK(gale_netop_poll(&op, 100.0 + T * (1 + 1e-6)), "async: done at the modelled time");
    /* a poll at the end of every step keeps the chain going: the modelled time */
    gale_netop_start(&op, &a, 216, 768, 32, 0, 0.0);
    double t = 0;
    for (int i = 0; i < 21; i++) {
        t += gale_netmodel_step_s(&a, i >= 5 && i < 16, 216);
        gale_netop_poll(&op, t);
    }
    CHECK(op.next == 21, "polled at each step's end: %d of 21 steps done", op.next);
    /* inside MPI from t0 to t1 (a halo exchange's wait): the steps run back
     * to back within it, and the tracked operations all advance */
    gale_netop_start(&op, &a, 216, 768, 32, 0, 0.0);
    gale_emulate_track(&op, 1);
    gale_emulate_in_mpi(1.0, 1.0 + 2 * s0 + 1e-12);
    CHECK(op.next == 3, "a span of two steps after a poll: step %d in flight", op.next);
    gale_emulate_track(&op, 0);
    gale_emulate_in_mpi(2.0, 3.0);
    CHECK(op.next == 3, "untracked: step %d in flight", op.next);
    gale_netop_span(&op, 2.0, 3.0);
    CHECK(op.next == 21, "a long span completes it: %d of 21", op.next);

    /* the shipped machine files are the built-in machines, byte for byte */
    char path[1024], why[512] = "";
    static const char *const names[2] = {"archer2", "setonix"};
    for (int i = 0; i < 2 && argc > 1; i++) {
        gale_netmodel_t b;
        snprintf(path, sizeof path, "%s/%s.ini", argv[1], names[i]);
        CHECK(gale_netmodel_read(path, &f, why, sizeof why) == 0, "%s: %s", path, why);
        gale_netmodel_builtin(names[i], &b);
        CHECK(memcmp(&f, &b, sizeof f) == 0, "%s differs from the built-in %s", path, names[i]);
    }
    CHECK(argc > 1, "usage: test_netmodel CONFIGS_EMULATE_DIR");
    /* bad files: file and line, what is wrong */
    bad_file("p2p_shm_gbs", "p2p_shm_gbs = fast", ":16: p2p_shm_gbs = 'fast': not a number");
    bad_file("net_round_us", "net_round_us = 0", ":7: net_round_us = 0: must be > 0");
    bad_file("large_bytes", "large_bites = 512", ":11: unknown key 'large_bites'");
    bad_file("cores_per_node", "cores_per_node = 12.5", ":2: cores_per_node = 12.5: a whole");
    bad_file("name", "name archer", ":1: expected 'key = value'");
    bad_file("p2p_net_us", "", ": no 'p2p_net_us'");
    CHECK(gale_netmodel_read("/nonexistent/m.ini", &f, why, sizeof why) != 0 &&
              strstr(why, "/nonexistent/m.ini: cannot open") != NULL, "%s", why);
    return gale_test_result("test_netmodel");
}
