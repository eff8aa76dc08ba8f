/* The run summary (text) and the run report (JSON, docs/report.md). */
#ifndef GALE_REPORT_H
#define GALE_REPORT_H

#include "gale_base.h"
#include "gale_json.h"
#include "gale_model.h"

#include <stdio.h>

/* The resolved configuration as {section: {key: value}} (the JSON writer:
 * base/gale_json.h). */
void gale_json_config(gale_json_t *j, const char *key, const gale_config_t *cfg);

/* Timers reduced over ranks: min/mean/max seconds and the max count, for
 * every registered timer plus "other" (wall minus the categories), and the
 * minimum bytes the kernel timers' launches moved, all ranks. */
typedef struct {
    int n;
    const char *name[GALE_MAX_TIMERS + 1];
    int parent[GALE_MAX_TIMERS + 1];
    double min[GALE_MAX_TIMERS + 1], mean[GALE_MAX_TIMERS + 1], max[GALE_MAX_TIMERS + 1];
    long count[GALE_MAX_TIMERS + 1];
    double bytes[GALE_MAX_TIMERS + 1];
} gale_timing_t;
/* Collective. */
int gale_timing_reduce(MPI_Comm comm, double wall, gale_timing_t *t);
void gale_timing_print(const gale_timing_t *t, FILE *out);

/* "%016llx" of the bit pattern of x */
void gale_hex_bits(double x, char out[17]);

#endif
