# Model output (docs/output.md): `gale run` on the default case, 2 ranks,
# every layout asynchronous and synchronous, read back with ncdump and
# Python's netCDF4; the output faults; bad [diagnostics] input.
set(GALE_OUTPUT_WORK ${CMAKE_CURRENT_BINARY_DIR}/output)
file(MAKE_DIRECTORY ${GALE_OUTPUT_WORK})

function(gale_output_test name label)
  add_test(NAME ${name}
           COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_output.py ${GALE_EXE}
                   ${GALE_NCDUMP} ${GALE_MPIEXEC} ${GALE_OUTPUT_WORK} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "${label}" TIMEOUT 180 PROCESSORS 2)
endfunction()

foreach(mode shared per_rank aggregated)
  gale_output_test(output_${mode}_async mpi values ${mode} false)
  gale_output_test(output_${mode}_sync mpi values ${mode} true)
endforeach()
# chunking, HDF5 alignment and MPI-IO hints, applied and logged
gale_output_test(output_shared_tuned mpi values shared false --io.chunk_columns=500
                 --io.alignment=4096 --io.cb_nodes=1 --io.cb_buffer_size=1048576
                 --io.romio_cb_write=enable --io.striping_factor=4 --io.buffers=2
                 --io.buffer_mib=0.25)
gale_output_test(output_aggregated_pairs mpi values aggregated false --io.aggregators=1
                 --io.chunk_columns=100)
gale_output_test(output_fault_enospc_abort mpi enospc_abort)
gale_output_test(output_fault_enospc_continue mpi enospc_continue)
gale_output_test(output_fault_rank_fails mpi rank_fails)
gale_output_test(output_fault_bad_dir "mpi;bad-input" bad_dir)
gale_output_test(output_bad_fields "mpi;bad-input" bad_fields)

# The writer API without the model (one rank).
add_executable(test_output_writer test_output_writer.c)
target_include_directories(test_output_writer PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_output_writer PRIVATE gale_io gale_base MPI::MPI_C m)
gale_mpi_test(test_output_writer 1 $<TARGET_FILE:test_output_writer> ${GALE_OUTPUT_WORK})
# a real full disk (a 3 MiB tmpfs; needs root, skipped otherwise)
add_test(NAME output_full_disk
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_fulldisk.py ${GALE_MPIEXEC}
                 ${GALE_EXE} ${GALE_OUTPUT_WORK})
set_tests_properties(output_full_disk PROPERTIES LABELS mpi TIMEOUT 400 PROCESSORS 2
                     SKIP_RETURN_CODE 77)

# every path a run writes checked before any work; no final name that is not
# a regular file replaced; temporaries of a killed run removed and named;
# a full disk named as the cause (docs/output.md, "Files and final names")
add_test(NAME output_paths
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_paths.py ${GALE_MPIEXEC}
                 ${GALE_EXE} ${CMAKE_CURRENT_BINARY_DIR}/paths)
set_tests_properties(output_paths PROPERTIES LABELS "mpi;bad-input;io;sanitize" TIMEOUT 300 PROCESSORS 2)

# I/O servers (docs/output.md, "I/O servers"): 1 to 3 clients a server, pools,
# the job's last ranks, against the shared mode value for value; a full client
# buffer; a server's full disk and a killed server; refused settings. 3 to 5
# ranks: oversubscribed here.
foreach(case values full faults refused)
  add_test(NAME output_servers_${case}
           COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_ioserver.py ${GALE_EXE}
                   ${GALE_MPIEXEC} ${GALE_OUTPUT_WORK}/servers_${case} ${case})
  set_tests_properties(output_servers_${case} PROPERTIES LABELS "mpi;io" TIMEOUT 300 PROCESSORS 2)
endforeach()
set_tests_properties(output_servers_refused PROPERTIES LABELS "mpi;io;bad-input")
# .ci/run runs these under AddressSanitizer too (label sanitize): the protocol's
# buffers, the servers' row maps and the pieces' ownership
set_tests_properties(output_servers_values output_servers_faults PROPERTIES LABELS "mpi;io;sanitize")
