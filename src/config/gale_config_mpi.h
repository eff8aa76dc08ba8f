/* The configuration read once and broadcast: the part of gale_config.h's
 * interface that needs MPI (config.c), apart so that gale_config.h stays
 * MPI-free. */
#ifndef GALE_CONFIG_MPI_H
#define GALE_CONFIG_MPI_H

#include "gale_config.h"

#include <mpi.h>

/* Rank 0 reads path (may be NULL: defaults only) and applies the overrides
 * ("--section.key=value" or "section.key=value"), then broadcasts the result.
 * Collective over comm. Bad input: GALE_ERR_INPUT on every rank, the message
 * printed once by rank 0. */
int gale_config_load(gale_config_t *cfg, const char *path, int noverrides, char **overrides,
                     MPI_Comm comm);

#endif
