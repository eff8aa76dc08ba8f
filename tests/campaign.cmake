# bench/campaign (issue 27, docs/benchmarks.md "bench/campaign") and what it
# plans with.

# gale partition --config: the estimate, halo depth and multigrid levels of a
# configuration are gale run's (the nonlinear core; the linear one with output)
add_test(NAME partition_config
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_partition_config.py
                 ${GALE_MPIEXEC} ${GALE_EXE} ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/partition_config)
set_tests_properties(partition_config PROPERTIES LABELS "mpi;bad-input" TIMEOUT 120 PROCESSORS 2)

# bench/campaign without Slurm: the LFRic paper's study for ARCHER2 and
# Setonix (--no-submit): runs, node counts, scripts, memory skips against
# gale partition's estimates, a run gale refuses at start, and bad profiles
# and studies (exit 2, the key); its I/O servers (Figs. 7-9): the --io
# options, the combinations gale refuses skipped, the servers' memory per
# node, --collect of reports made here into the new columns and figure
add_test(NAME campaign_plan
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_campaign.py plan --gale ${GALE_EXE}
                 --gale-mpiexec ${GALE_MPIEXEC} --source ${PROJECT_SOURCE_DIR} --work ${CMAKE_CURRENT_BINARY_DIR}/campaign)
set_tests_properties(campaign_plan PROPERTIES LABELS "mpi;bad-input" TIMEOUT 120 PROCESSORS 2)

# bench/campaign end to end on a private local Slurm (tests/slurm_local.py):
# the scaled-down study (bench/studies/local.json) through sbatch, one run
# skipped for memory, results and figures checked against the run reports;
# its I/O servers' runs (1 server of the node's 2 ranks) the same way
add_test(NAME campaign_local
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_campaign.py local --gale ${GALE_EXE}
                 --source ${PROJECT_SOURCE_DIR} --work ${CMAKE_CURRENT_BINARY_DIR}/campaign --deadline 100)
set_tests_properties(campaign_local PROPERTIES LABELS "slurm;mpi" TIMEOUT 120 PROCESSORS 2
                     SKIP_RETURN_CODE 77)
