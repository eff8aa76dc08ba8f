/* Model output (the "client" of io/'s writer): which fields at which steps
 * ([diagnostics]), the derived diagnostics, copying into the writer's ring,
 * agreeing on output failures across ranks, and the I/O metrics of the run
 * report. docs/output.md. */
#ifndef GALE_OUTPUT_H
#define GALE_OUTPUT_H

#include "gale_model.h"
#include "gale_io.h"
#include "gale_report.h"

#include <stdio.h>

typedef struct gale_output gale_output_t;

/* Collective, before any work: every path the run will write ([io] dir when
 * output is on, [checkpoint] dir when checkpoints are, the report) is made
 * or checked (a directory that takes files; no final name that is not a
 * regular file; temporaries left by a killed run removed and logged), else
 * GALE_ERR_INPUT on every rank, naming the key or option and why. */
int gale_output_check_paths(const gale_config_t *cfg, const char *report, MPI_Comm comm);
/* Collective, after gale_model_setup. Validates [diagnostics] (unknown
 * field, bad period: GALE_ERR_INPUT naming it and what is allowed), creates
 * [io] dir and starts the writer. With no fields there is no output and no
 * writer, and the other calls do nothing. */
int gale_output_init(gale_output_t **out, gale_model_t *m, gale_io_link_t *link);
/* On I/O server ranks ([io] servers, gale_io_split), collective over them
 * (comm): writes the clients' output until the run ends (gale_io_serve). */
int gale_output_serve(const gale_config_t *c, gale_io_link_t *link, MPI_Comm comm);

/* What a run of configuration c writes in its field output, from the
 * configuration alone: its output times grouped into phases, each a set of
 * fields due together, with the bytes of their values at one output time
 * (all ranks; io.data_bytes of the run's report is the sum over times). */
#define GALE_OUTPUT_MAX_PHASES 16
typedef struct {
    long long bytes;        /* their values at one output time, 8 bytes each */
    int times, first_step;  /* output times of this phase, the first of them */
    char names[256];        /* the variables, comma-separated */
} gale_output_phase_t;
typedef struct {
    int nphases, outputs;
    gale_output_phase_t phase[GALE_OUTPUT_MAX_PHASES];
} gale_output_plan_t;
int gale_output_plan(const gale_config_t *c, gale_output_plan_t *p);
/* Collective, after each step: hands the fields due at m->step to the
 * writer. It is also where ranks agree on output failures: after one,
 * [io] on_error = abort returns GALE_ERR_IO on every rank (the writer has
 * stopped and left no temporary file), continue logs once and carries on
 * without output. */
int gale_output_step(gale_output_t *out, gale_model_t *m);
/* Collective, after the last step: waits for the writer to finish (the
 * final drain), agrees on failures as above and reduces the metrics. */
int gale_output_finalize(gale_output_t *out);
/* Rank 0: the summary lines, and the report's "io" object. */
void gale_output_summary(const gale_output_t *out, FILE *f);
void gale_output_json(const gale_output_t *out, gale_json_t *j);
/* Runs fn(arg) on the thread that owns HDF5 and MPI-IO (see
 * gale_writer_exec): for any HDF5 or MPI-IO use by the model side while
 * output runs (checkpoints). Not collective; out may be NULL. */
int gale_output_exec(gale_output_t *out, int (*fn)(void *), void *arg);
/* Stops the writer if needed and frees; *out = NULL. */
void gale_output_free(gale_output_t **out);

#endif
