/* The client's half of the I/O servers (io/server.c), for io/writer.c:
 * private to io/. docs/output.md, "I/O servers". */
#ifndef GALE_IOSERVER_H
#define GALE_IOSERVER_H

#include "gale_io.h"

#include <stdint.h>

/* Waits for n requests by polling with short sleeps: MPICH's blocking waits
 * spin, and a thread spinning while it waits for other ranks would take its
 * core from the model. */
int gale_io_wait(int n, MPI_Request *req);

typedef struct gale_ioclient gale_ioclient_t;

/* On the model thread, at the writer's creation (the clients together): the
 * servers learn the mesh, the variables and the pieces (client 0) and this
 * client's rows, in gid order (every client). */
int gale_ioclient_connect(gale_ioclient_t **c, gale_io_link_t *l, const gale_writer_opts_t *o,
                          const int *cell_gid, const int *edge_gid, const int64_t *rpp,
                          const int *npieces);
/* On the writer thread, in the order the client hands them over: an output
 * time (to the pool whose turn it is), then each piece of its variables. */
int gale_ioclient_begin(gale_ioclient_t *c, int step, double time, int nfv, const int *fvars);
int gale_ioclient_data(gale_ioclient_t *c, const double *data, int64_t count);
/* Nonzero once one of this client's servers said its output failed (the
 * server printed why; this prints which server). */
int gale_ioclient_failed(gale_ioclient_t *c);
/* After the last piece: the servers finish and report. The first client of
 * each server receives its statistics, added to *s, and its file names
 * (*files, malloc'ed, '\n'-separated; NULL for none). Returns nonzero in
 * *failed when a server's output failed. */
int gale_ioclient_stop(gale_ioclient_t *c, gale_writer_stats_t *s, char **files, int *failed);
void gale_ioclient_free(gale_ioclient_t **c);

#endif
