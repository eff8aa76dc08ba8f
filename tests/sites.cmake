# What other machines meet (docs/sites.md).

# `cmake --install` and the modulefile (docs/sites.md, tests/check_install.sh):
# install_gale: the installed tree, and the installed gale run by its path
# (no module system): its --version and checksums are the build's;
# install_modulefile, on that install: `module load gale` under Lmod, also
# after the prefix is moved (this part alone exits 77 without Lmod).
add_test(NAME install_gale
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_install.sh ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install_check gale)
set_tests_properties(install_gale PROPERTIES LABELS unit TIMEOUT 120
                     FIXTURES_SETUP gale_installed)
add_test(NAME install_modulefile
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_install.sh ${PROJECT_SOURCE_DIR}
                 ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install_check module)
set_tests_properties(install_modulefile PROPERTIES LABELS unit TIMEOUT 120 SKIP_RETURN_CODE 77
                     FIXTURES_REQUIRED gale_installed)

# An MPI without MPI_THREAD_MULTIPLE (tests/mpi_serialized.c, preloaded):
# gale says so, writes its output on the model thread, and the default case
# still gives the README's checksums with its files written (docs/sites.md).
add_library(gale_mpi_serialized MODULE mpi_serialized.c)
target_link_libraries(gale_mpi_serialized PRIVATE MPI::MPI_C)
gale_case(mpi_serialized_output "regression;mpi" run --np 2
  --stderr "grants no MPI_THREAD_MULTIPLE.*MPICH_MAX_THREAD_SAFETY=multiple"
  --check "r['io']['synchronous'] is True and len(r['io']['files']) > 0"
  --check "all(f'{k}  {v}' in open('${PROJECT_SOURCE_DIR}/README.md').read() for k, v in r['checksums'].items())"
  -- ${DEFAULT_INI})
set_tests_properties(mpi_serialized_output PROPERTIES
                     ENVIRONMENT LD_PRELOAD=$<TARGET_FILE:gale_mpi_serialized>)
