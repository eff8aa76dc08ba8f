/* A rank's first failure, agreed between ranks after each phase so that no
 * rank enters a collective the others have left (checkpoints, iobench).
 * Internal to io/. */
#ifndef GALE_AGREE_H
#define GALE_AGREE_H

#include <mpi.h>

typedef struct {
    int failed;      /* this rank's first failure (or, after gale_agree, any rank's) */
    char msg[1024];  /* its message */
} gale_agree_t;

/* Records the first failure of this rank; later ones are dropped. */
void gale_agree_fail(gale_agree_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same for an MPI error code: "<what> '<path>': <MPI's message>". */
void gale_agree_fail_mpi(gale_agree_t *a, int rc, const char *what, const char *path);
/* Collective over comm: 1 if any rank failed; every rank then holds the
 * message of the lowest failing rank. An MPI failure here cannot be agreed
 * on, so it counts as a failure of this rank. */
int gale_agree(gale_agree_t *a, MPI_Comm comm);

#endif
