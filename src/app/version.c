/* `gale --version` and the build description stored in every report. */
#include "gale_app.h"
#include "gale_io.h"

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

const char *gale_version(void) { return GALE_VERSION; }
const char *gale_build_compiler(void) { return GALE_COMPILER; }
const char *gale_build_flags(void) { return GALE_FLAGS; }
const char *gale_build_isa(void)
{
    /* The ISA the compiler actually targeted, not just the preset's name. */
#if defined(__AVX512F__)
    return GALE_ISA " (AVX-512)";
#elif defined(__AVX2__)
    return GALE_ISA " (AVX2)";
#elif defined(__AVX__)
    return GALE_ISA " (AVX)";
#else
    return GALE_ISA " (SSE2)";
#endif
}
const char *gale_build_offload(void) { return GALE_OFFLOAD; }

void gale_build_mpi(char *buf, size_t n)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0, major = 0, minor = 0;
    /* Both may be called before MPI_Init. */
    MPI_Get_library_version(lib, &len);
    MPI_Get_version(&major, &minor);
    for (int i = 0; lib[i]; i++)
        if (lib[i] == '\n' || lib[i] == '\t') lib[i] = lib[i] == '\t' ? ' ' : '\0';
    snprintf(buf, n, "%s (MPI %d.%d)", lib, major, minor);
}

int gale_cmd_version(void)
{
    char mpi[MPI_MAX_LIBRARY_VERSION_STRING + 32], h5[64];
    gale_build_mpi(mpi, sizeof mpi);
    gale_io_version(h5, sizeof h5);
    printf("gale %s\n", GALE_VERSION);
    printf("compiler: %s\n", gale_build_compiler());
    printf("flags:    %s\n", gale_build_flags());
    printf("isa:      %s\n", gale_build_isa());
    printf("offload:  %s\n", gale_build_offload());
    printf("mpi:      %s\n", mpi);
    printf("hdf5:     %s\n", h5);
    return 0;
}
