/* An MPI library that grants no MPI_THREAD_MULTIPLE (as Cray MPICH without
 * MPICH_MAX_THREAD_SAFETY=multiple), made from any MPI through the profiling
 * interface: LD_PRELOAD this library and MPI_Init_thread asks for and
 * reports at most MPI_THREAD_SERIALIZED. The test mpi_serialized_output
 * (tests/cli.cmake) runs gale under it. */
#include <mpi.h>

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    return PMPI_Init_thread(argc, argv,
                            required > MPI_THREAD_SERIALIZED ? MPI_THREAD_SERIALIZED : required,
                            provided);
}

int MPI_Query_thread(int *provided)
{
    const int e = PMPI_Query_thread(provided);
    if (*provided > MPI_THREAD_SERIALIZED) *provided = MPI_THREAD_SERIALIZED;
    return e;
}
