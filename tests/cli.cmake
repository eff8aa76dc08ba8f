# cli tests
# the README's configuration table is the key table
add_test(NAME readme_config_table COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_readme.py
         ${GALE_EXE} ${PROJECT_SOURCE_DIR}/README.md)
set_tests_properties(readme_config_table PROPERTIES LABELS unit)
# --version names the compiler, the ISA, MPI and HDF5
gale_expect_test(version unit "compiler: (GNU|Clang).*isa: .*mpi: +MPICH.*hdf5: +HDF5 1\\.10"
                 ${GALE_EXE} --version)

# the memory estimate per rank against the measured peak, its refusal of a
# run that cannot fit, [run] allow_overcommit (docs/memory.md)
add_test(NAME memory_estimate
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_memory.py ${GALE_MPIEXEC}
                 ${GALE_EXE} ${CMAKE_CURRENT_BINARY_DIR}/memory)
set_tests_properties(memory_estimate PROPERTIES LABELS "mpi;bad-input" TIMEOUT 300 PROCESSORS 2)

# threads per rank with OMP_NUM_THREADS unset (cores / ranks on the node) and set
add_test(NAME threads_per_rank
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_threads.py ${GALE_MPIEXEC}
                 ${GALE_EXE} ${PROJECT_SOURCE_DIR}/configs/default.ini)
set_tests_properties(threads_per_rank PROPERTIES LABELS mpi TIMEOUT 300 PROCESSORS 2)
