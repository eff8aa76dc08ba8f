/* The gale commands (src/app/). Each returns a process exit status. */
#ifndef GALE_APP_H
#define GALE_APP_H

#include <stddef.h>

int gale_cmd_run(int argc, char **argv);        /* MPI: the model */
int gale_cmd_partition(int argc, char **argv);  /* serial: partition statistics */
int gale_cmd_mesh(int argc, char **argv);       /* serial: write the mesh file */
int gale_cmd_iobench(int argc, char **argv);    /* MPI: the I/O benchmark */
int gale_cmd_version(void);
const char *gale_version(void);
/* Shared by the commands: the build description printed by --version and
 * stored in reports (compiler, flags, ISA, offload target). */
const char *gale_build_compiler(void);
const char *gale_build_flags(void);
const char *gale_build_isa(void);
const char *gale_build_offload(void);
void gale_build_mpi(char *buf, size_t n);   /* library and standard version */
/* A whole number in [lo, hi], the whole string: 0 and *out set, else -1. */
int gale_parse_int(const char *s, long lo, long hi, int *out);

#endif
