# bench/campaign (issue 27, docs/benchmarks.md "bench/campaign") and what it
# plans with.

# gale partition --config: the estimate, halo depth and multigrid levels of a
# configuration are gale run's (the nonlinear core; the linear one with output)
add_test(NAME partition_config
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_partition_config.py
                 ${GALE_MPIEXEC} ${GALE_EXE} ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/partition_config)
set_tests_properties(partition_config PROPERTIES LABELS "mpi;bad-input" TIMEOUT 120 PROCESSORS 2)
