/* Errors, logging, aligned allocation, clock, timers: serial, no MPI
 * (gale_error_mpi is in base_mpi.c). */
#include "gale_base.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int g_rank = 0;
static int g_level = GALE_LOG_INFO;

void gale_log_setup(int rank, int level)
{
    g_rank = rank;
    g_level = level;
}

int gale_log_rank(void) { return g_rank; }

static void vlog(int level, int all, const char *fmt, va_list ap)
{
    if (level > g_level) return;
    FILE *out = level <= GALE_LOG_WARN ? stderr : stdout;
    if (all) fprintf(out, "[%d] ", g_rank);
    if (level == GALE_LOG_WARN) fputs("warning: ", out);
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    fflush(out);
}

void gale_log(int level, const char *fmt, ...)
{
    if (g_rank != 0) return;
    va_list ap;
    va_start(ap, fmt);
    vlog(level, 0, fmt, ap);
    va_end(ap);
}

void gale_log_all(int level, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(level, 1, fmt, ap);
    va_end(ap);
}

int gale_error_raise(int code, const char *file, int line, const char *func,
                     const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* Bad input, a failed solve and a NaN are found by every rank together:
     * rank 0 says it once, and the message alone says what. Anything else
     * may be one rank's: say which and where. */
    if (gale_error_collective(code)) {
        if (g_rank == 0) fprintf(stderr, "gale: error: %s\n", msg);
    } else {
        fprintf(stderr, "gale: error [rank %d] %s:%d (%s): %s\n", g_rank, file, line, func,
                msg);
    }
    fflush(stderr);
    return code;
}

int gale_error_collective(int code)
{
    return code == GALE_ERR_INPUT || code == GALE_ERR_SOLVER || code == GALE_ERR_NUMERIC ||
           code == GALE_ERR_OUTPUT;
}

int gale_error_trace(int code, const char *file, int line, const char *func)
{
    if (!gale_error_collective(code) || (g_level >= GALE_LOG_DEBUG && g_rank == 0)) {
        fprintf(stderr, "gale:   [rank %d] called from %s:%d (%s)\n", g_rank, file, line, func);
        fflush(stderr);
    }
    return code;
}

int gale_alloc_impl(void **p, size_t bytes, const char *what, const char *file, int line,
                    const char *func)
{
    *p = NULL;
    if (bytes == 0) return GALE_OK;
    size_t rounded = (bytes + GALE_ALIGN - 1) / GALE_ALIGN * GALE_ALIGN;
    void *q = aligned_alloc(GALE_ALIGN, rounded);
    if (!q)
        return gale_error_raise(GALE_ERR_MEM, file, line, func,
                                "cannot allocate %zu bytes for %s", bytes, what);
    memset(q, 0, rounded);
    *p = q;
    return GALE_OK;
}

void gale_free(void *p) { free(p); }

double gale_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double gale_proc_bytes(const char *path, const char *key)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    const size_t n = strlen(key);
    double b = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0 && line[n] == ':') b = atof(line + n + 1) * 1024.0;
    fclose(f);
    return b;
}

/* ---- timers ---- */
static struct { const char *name; int parent; double s; long n; double bytes; } g_timers[GALE_MAX_TIMERS] = {
    {"compute", -1, 0, 0, 0},       {"halo_pack", -1, 0, 0, 0},  {"halo_wait", -1, 0, 0, 0},
    {"global_sums", -1, 0, 0, 0},   {"h2d", -1, 0, 0, 0},        {"d2h", -1, 0, 0, 0},
    {"io_handoff", -1, 0, 0, 0},    {"io_wait", -1, 0, 0, 0},
};
static int g_ntimers = GALE_T_NCAT;
static double g_counted; /* seconds added to categories (top-level timers) */

int gale_timer_register(const char *name, int parent)
{
    for (int i = GALE_T_NCAT; i < g_ntimers; i++)
        if (strcmp(g_timers[i].name, name) == 0) return i;
    if (g_ntimers == GALE_MAX_TIMERS) return parent;
    g_timers[g_ntimers].name = name;
    g_timers[g_ntimers].parent = parent;
    return g_ntimers++;
}

void gale_timer_add(int id, double seconds)
{
    g_timers[id].s += seconds;
    g_timers[id].n++;
    g_counted += seconds;
    int p = g_timers[id].parent;
    if (p >= 0) {
        g_timers[p].s += seconds;
        g_timers[p].n++;
    }
}

void gale_timer_add_bytes(int id, double bytes) { g_timers[id].bytes += bytes; }

double gale_timer_counted(void) { return g_counted; }

void gale_timer_add_region(int id, double t0, double counted0)
{
    const double own = gale_wtime() - t0 - (g_counted - counted0);
    gale_timer_add(id, own > 0 ? own : 0);
}

int gale_timer_ntimers(void) { return g_ntimers; }
const char *gale_timer_name(int id) { return g_timers[id].name; }
int gale_timer_parent(int id) { return g_timers[id].parent; }
double gale_timer_seconds(int id) { return g_timers[id].s; }
long gale_timer_count(int id) { return g_timers[id].n; }
double gale_timer_bytes(int id) { return g_timers[id].bytes; }

void gale_timer_reset(void)
{
    for (int i = 0; i < g_ntimers; i++) g_timers[i].s = 0, g_timers[i].n = 0, g_timers[i].bytes = 0;
}
