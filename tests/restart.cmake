# Checkpoint/restart tests (docs/checkpoint.md), driven by check_restart.py:
# bit-identical continuation on the same and on other rank counts, atomic
# writes under an injected failure, and refused restart files. C12, 10
# levels, 8 steps, a checkpoint every 4: about a second per test.
set(GALE_RESTART_OUT ${CMAKE_CURRENT_BINARY_DIR}/restart)
set(GALE_RESTART_CMD ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_restart.py
    ${GALE_MPIEXEC} ${GALE_EXE} ${GALE_RESTART_OUT})

# straight runs: their checkpoints and reports are the fixtures
foreach(np 2 3)
  add_test(NAME restart_straight_${np} COMMAND ${GALE_RESTART_CMD} straight ${np})
  set_tests_properties(restart_straight_${np} PROPERTIES FIXTURES_SETUP restart_np${np}
                       LABELS mpi PROCESSORS ${np} TIMEOUT 120)
endforeach()

foreach(pair "2;2" "2;3" "3;1")
  list(GET pair 0 from)
  list(GET pair 1 to)
  add_test(NAME restart_${from}to${to} COMMAND ${GALE_RESTART_CMD} restart ${from} ${to})
  set_tests_properties(restart_${from}to${to} PROPERTIES FIXTURES_REQUIRED restart_np${from}
                       LABELS mpi PROCESSORS ${to} TIMEOUT 120)
endforeach()

add_test(NAME restart_atomic_fault COMMAND ${GALE_RESTART_CMD} fault)
add_test(NAME restart_bad_dir COMMAND ${GALE_RESTART_CMD} bad_dir)
set_tests_properties(restart_atomic_fault restart_bad_dir PROPERTIES
                     LABELS "mpi;bad-input" PROCESSORS 2 TIMEOUT 120)

# fifo, directory: refused by type before an open (a pipe blocked every rank);
# forged_*: impossible header values with consistent checksums (issue 40)
foreach(kind truncated corrupt corrupt_header wrong_version older_version unrecorded_key
             not_checkpoint missing wrong_mesh wrong_dt wrong_operator beyond_steps
             fifo directory forged_step forged_time_nan forged_time_inf forged_time
             forged_energy0_nan forged_energy_inf forged_ext_method forged_duplicate_key)
  add_test(NAME restart_refuse_${kind} COMMAND ${GALE_RESTART_CMD} refuse ${kind})
  set_tests_properties(restart_refuse_${kind} PROPERTIES FIXTURES_REQUIRED restart_np2
                       LABELS "mpi;bad-input" PROCESSORS 2 TIMEOUT 120)
endforeach()

# Output and a checkpoint on one step: one thread of a rank makes every
# MPI-IO and HDF5 call (docs/checkpoint.md). 20 runs of the case that hung
# when the checkpoint ran on the model thread (2 ranks x 2 threads on 2
# cores; passive OpenMP waits so that oversubscribed threads yield: the old
# code hung as readily, at the 2nd run, and each run takes under a second),
# each killed and failed after 30 s.
add_test(NAME restart_output_no_hang COMMAND ${GALE_RESTART_CMD} hang 20 30)
set_tests_properties(restart_output_no_hang PROPERTIES LABELS mpi PROCESSORS 2 TIMEOUT 700
                     ENVIRONMENT OMP_WAIT_POLICY=passive)
# output, a checkpoint and the last step on step 10 in every [io] mode; the
# restart from it continues bit for bit
foreach(iomode shared per_rank aggregated)
  add_test(NAME restart_same_step_${iomode} COMMAND ${GALE_RESTART_CMD} same_step ${iomode})
  set_tests_properties(restart_same_step_${iomode} PROPERTIES LABELS mpi PROCESSORS 2 TIMEOUT 180)
endforeach()
