# Runs that once tripped the sanitizers, kept as tests: under the debug-asan
# preset (.ci/run runs label `sanitize` there: these, output_paths and
# config_bad_numbers) a report aborts the run and fails the test; in any
# other build they are plain runs.

# C1 on 6 ranks by panel: one cell a rank, so some neighbours' exchange
# lists are empty; halo/halo.c copied them with memcpy(NULL, ., 0), which
# UBSan reports (issue 40). ranks.py: exit 0 on every rank.
add_test(NAME halo_empty_lists
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/ranks.py ${GALE_MPIEXEC} 6 --timeout 120
                 -- ${GALE_EXE} run --mesh.name=C1 --partitioning.method=panel
                 --timestepping.steps=2 --logging.progress_every=0)
set_tests_properties(halo_empty_lists PROPERTIES LABELS "mpi;sanitize" TIMEOUT 180 PROCESSORS 2)
