/* The network model of docs/emulate.md: machines, the times of an allreduce
 * and of a message, an emulated allreduce's steps, the emulation in force
 * and the counters of the run report's "comm" (gale_netmodel.h). */
#include "gale_netmodel.h"

#include "gale_base.h"

#include <ctype.h>
#include <errno.h>
#include <math.h> /* isfinite: a macro, no libm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The figures and where each comes from: docs/emulate.md, "Parameters".
 * Both machines: two 64-core EPYCs a node, the allreduce fitted to
 * ARCHER2's osu_allreduce (no Setonix figure was found: an assumption), the
 * shared-memory messages assumed alike; they differ in the network port. */
#define GALE_EPYC_SLINGSHOT_NODE                                                           \
    .cores_per_node = 128, .shm_step_us = {0.260, 0.842}, .shm_step_gbs = {0.544, 3.34},   \
    .net_round_us = {3.48, 7.26}, .net_round_gbs = {0.280, 0.135}, .large_bytes = 512,     \
    .p2p_net_us = 2.0, .node_injection_gbs = 25.0, .p2p_shm_us = 0.26, .p2p_shm_gbs = 10.0
static const gale_netmodel_t builtin[] = {
    {.name = "archer2", GALE_EPYC_SLINGSHOT_NODE, .p2p_net_gbs = 12.5},
    {.name = "setonix", GALE_EPYC_SLINGSHOT_NODE, .p2p_net_gbs = 25.0},
};

int gale_netmodel_builtin(const char *name, gale_netmodel_t *m)
{
    for (size_t i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
        if (strcmp(builtin[i].name, name) == 0) {
            memcpy(m, &builtin[i], sizeof *m); /* padding too: configurations compare bytes */
            return 0;
        }
    return -1;
}

/* The keys of a machine file, each a double of gale_netmodel_t but
 * cores_per_node (an int) and name (text). */
#define D(member) offsetof(gale_netmodel_t, member)
static const struct {
    const char *key;
    size_t off;
} fkeys[] = {
    {"shm_step_us", D(shm_step_us[0])},
    {"shm_step_gbs", D(shm_step_gbs[0])},
    {"shm_step_large_us", D(shm_step_us[1])},
    {"shm_step_large_gbs", D(shm_step_gbs[1])},
    {"net_round_us", D(net_round_us[0])},
    {"net_round_gbs", D(net_round_gbs[0])},
    {"net_round_large_us", D(net_round_us[1])},
    {"net_round_large_gbs", D(net_round_gbs[1])},
    {"large_bytes", D(large_bytes)},
    {"p2p_net_us", D(p2p_net_us)},
    {"p2p_net_gbs", D(p2p_net_gbs)},
    {"node_injection_gbs", D(node_injection_gbs)},
    {"p2p_shm_us", D(p2p_shm_us)},
    {"p2p_shm_gbs", D(p2p_shm_gbs)},
};
#undef D
enum { NFKEYS = sizeof fkeys / sizeof fkeys[0], K_NAME = NFKEYS, K_CORES, K_ALL };
static const char *key_name(int k)
{
    return k == K_NAME ? "name" : k == K_CORES ? "cores_per_node" : fkeys[k].key;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* One "key = value" line into m; 0, or -1 with what is wrong in why. */
static int read_line(char *line, gale_netmodel_t *m, int *seen, char *why, size_t n)
{
    char *eq = strchr(line, '=');
    if (!eq) {
        snprintf(why, n, "expected 'key = value', got '%.60s'", line);
        return -1;
    }
    *eq = '\0';
    char *key = trim(line), *val = trim(eq + 1);
    int k = -1;
    for (int i = 0; i < K_ALL; i++)
        if (strcmp(key, key_name(i)) == 0) k = i;
    if (k < 0) {
        size_t len = (size_t)snprintf(why, n, "unknown key '%.40s'; the keys:", key);
        for (int i = 0; i < K_ALL && len < n; i++)
            len += (size_t)snprintf(why + len, n - len, " %s", key_name(i));
        return -1;
    }
    if (seen[k]++) {
        snprintf(why, n, "'%s' given twice", key);
        return -1;
    }
    if (k == K_NAME) {
        if (!*val || strlen(val) >= sizeof m->name) {
            snprintf(why, n, "name: 1 to %zu characters", sizeof m->name - 1);
            return -1;
        }
        snprintf(m->name, sizeof m->name, "%s", val);
        return 0;
    }
    char *end;
    errno = 0;
    const double v = strtod(val, &end);
    if (end == val || *end || errno || !isfinite(v)) {
        snprintf(why, n, "%s = '%.40s': not a number", key, val);
        return -1;
    }
    if (k == K_CORES) {
        if (v < 1 || v > 1e6 || v != (double)(int)v) {
            snprintf(why, n, "cores_per_node = %s: a whole number in [1, 1000000]", val);
            return -1;
        }
        m->cores_per_node = (int)v;
        return 0;
    }
    /* a latency or a rate of 0 would make the model say 0 or infinity */
    if (fkeys[k].off == offsetof(gale_netmodel_t, large_bytes) ? v < 0 : !(v > 0)) {
        snprintf(why, n, "%s = %s: must be %s", key, val,
                 fkeys[k].off == offsetof(gale_netmodel_t, large_bytes) ? ">= 0" : "> 0");
        return -1;
    }
    *(double *)((char *)m + fkeys[k].off) = v;
    return 0;
}

int gale_netmodel_read(const char *path, gale_netmodel_t *m, char *why, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, n, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    gale_netmodel_t r;
    memset(&r, 0, sizeof r);
    int seen[K_ALL] = {0}, lineno = 0;
    char line[512], msg[384];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(why, n, "%s:%d: a line longer than %zu characters", path, lineno,
                     sizeof line - 2);
            fclose(f);
            return -1;
        }
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *s = trim(line);
        if (!*s) continue;
        if (read_line(s, &r, seen, msg, sizeof msg) != 0) {
            snprintf(why, n, "%s:%d: %s", path, lineno, msg);
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    for (int k = 0; k < K_ALL; k++)
        if (!seen[k]) {
            snprintf(why, n, "%s: no '%s' (every key of docs/emulate.md, \"Machine files\", "
                     "once)", path, key_name(k));
            return -1;
        }
    memcpy(m, &r, sizeof r);
    return 0;
}

int gale_netmodel_node_steps(int r)
{
    int s = 0;
    while ((1 << s) < r) s++; /* ceil(log2 r) */
    return 2 * s;
}

int gale_netmodel_rounds(int nodes)
{
    int f = 0;
    while ((2 << f) <= nodes) f++; /* floor(log2 nodes) */
    return (1 << f) == nodes ? f : f + 2;
}

double gale_netmodel_step_s(const gale_netmodel_t *m, int net, double bytes)
{
    const int large = bytes >= m->large_bytes;
    const double us = net ? m->net_round_us[large] : m->shm_step_us[large];
    const double gbs = net ? m->net_round_gbs[large] : m->shm_step_gbs[large];
    return us * 1e-6 + bytes / (gbs * 1e9);
}

double gale_netmodel_allreduce_s(const gale_netmodel_t *m, double bytes, int nodes,
                                 int ranks_per_node)
{
    return gale_netmodel_node_steps(ranks_per_node) * gale_netmodel_step_s(m, 0, bytes) +
           gale_netmodel_rounds(nodes) * gale_netmodel_step_s(m, 1, bytes);
}

double gale_netmodel_message_s(const gale_netmodel_t *m, double bytes, int off_node,
                               int ranks_per_node)
{
    if (!off_node) return m->p2p_shm_us * 1e-6 + bytes / (m->p2p_shm_gbs * 1e9);
    const double share = m->node_injection_gbs / ranks_per_node;
    return m->p2p_net_us * 1e-6 + bytes / ((share < m->p2p_net_gbs ? share : m->p2p_net_gbs) * 1e9);
}

int gale_netmodel_node_of(int rank, int nranks, int nodes)
{
    return (int)((long long)rank * nodes / nranks);
}

/* ---- an emulated allreduce in flight ---- */

static double op_step(const gale_netop_t *op, int i)
{
    return op->step_s[i >= op->half && i < op->half + op->rounds];
}

void gale_netop_start(gale_netop_t *op, const gale_netmodel_t *m, double bytes, int nodes,
                      int ranks_per_node, int async, double t)
{
    op->step_s[0] = gale_netmodel_step_s(m, 0, bytes);
    op->step_s[1] = gale_netmodel_step_s(m, 1, bytes);
    op->half = gale_netmodel_node_steps(ranks_per_node) / 2;
    op->rounds = gale_netmodel_rounds(nodes);
    op->async = async;
    op->model_s = gale_netmodel_allreduce_s(m, bytes, nodes, ranks_per_node);
    op->next = 0;
    op->t_end = t + (2 * op->half + op->rounds > 0 ? op_step(op, 0) : 0);
}

int gale_netop_poll(gale_netop_t *op, double t)
{
    const int n = 2 * op->half + op->rounds;
    /* a step ends; the next starts when it ended (a progress thread) or now */
    while (op->next < n && t >= op->t_end)
        if (++op->next < n) op->t_end = (op->async ? op->t_end : t) + op_step(op, op->next);
    return op->next >= n;
}

double gale_netop_done_at(gale_netop_t *op, double t)
{
    const int n = 2 * op->half + op->rounds;
    if (gale_netop_poll(op, t)) return t;
    double end = op->t_end; /* polled without pause: each step starts as the last ends */
    for (int i = op->next + 1; i < n; i++) end += op_step(op, i);
    return end;
}

void gale_netop_span(gale_netop_t *op, double t0, double t1)
{
    const int n = 2 * op->half + op->rounds;
    if (gale_netop_poll(op, t0)) return;
    while (op->t_end <= t1) /* polled without pause: each step starts as the last ends */
        if (++op->next < n) op->t_end += op_step(op, op->next);
        else return;
}

/* ---- the emulation in force, the operations in flight, the counters ---- */

static gale_emulate_t g_emul;
static int g_emul_on;
static gale_comm_stats_t g_comm;
enum { MAXOPS = 64 };
static gale_netop_t *g_ops[MAXOPS];
static int g_nops;

void gale_emulate_track(gale_netop_t *op, int track)
{
    for (int i = 0; i < g_nops; i++)
        if (g_ops[i] == op) {
            if (!track) g_ops[i] = g_ops[--g_nops];
            return;
        }
    if (track && g_nops < MAXOPS) g_ops[g_nops++] = op; /* the sum layer keeps fewer */
}

void gale_emulate_in_mpi(double t0, double t1)
{
    for (int i = 0; i < g_nops; i++) gale_netop_span(g_ops[i], t0, t1);
}

void gale_emulate_set(const gale_emulate_t *e)
{
    g_emul_on = e != NULL;
    if (e) g_emul = *e;
}

const gale_emulate_t *gale_emulate(void) { return g_emul_on ? &g_emul : NULL; }

void gale_emulate_until(double t)
{
    while (gale_wtime() < t) {
    }
}

gale_comm_stats_t *gale_comm_stats(void) { return &g_comm; }
void gale_comm_reset(void) { memset(&g_comm, 0, sizeof g_comm); }
