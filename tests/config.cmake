# config tests: the INI reader, overrides, dump, key table and LFRic namelists
# (unit + bad-input), and gale_config_load's broadcast on 3 ranks (mpi).
gale_test(test_config SOURCES test_config.c LIBS gale_app LABELS unit bad-input)
target_compile_definitions(test_config PRIVATE
  GALE_TEST_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data/config"
  GALE_CONFIGS="${PROJECT_SOURCE_DIR}/configs")

add_executable(test_config_mpi test_config_mpi.c)
target_include_directories(test_config_mpi PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_config_mpi PRIVATE gale_app)
gale_mpi_test(test_config_mpi 3 $<TARGET_FILE:test_config_mpi>
  ${CMAKE_CURRENT_SOURCE_DIR}/data/config/good.ini ${CMAKE_CURRENT_SOURCE_DIR}/data/config/bad.ini
  ${PROJECT_SOURCE_DIR}/configs/lfric_gravity_wave.nml)
set_tests_properties(test_config_mpi PROPERTIES LABELS "mpi;bad-input")

# `gale help config --markdown` (the README's key table) prints a row per key.
gale_expect_test(config_help_markdown unit "\\| solver \\| tolerance \\| real \\|"
                 ${GALE_EXE} help config --markdown)

# every input gale reads fuzzed (check_nml_fuzz.py): mutated namelists, INI
# files, command-line overrides and restart files each end in exit 0 (with a
# reason) or 2 naming the input, never hang, leave no file. The sanitizer
# build (.ci/run's debug-asan step, where any report fails it) runs 1,440
# cases, 40 of them restarts on 2 ranks; any other build 708, in seconds.
add_executable(nml_check nml_check.c)
target_link_libraries(nml_check PRIVATE gale_app)
if(CMAKE_BUILD_TYPE STREQUAL "Debug" AND CMAKE_C_FLAGS_DEBUG MATCHES "-fsanitize=")
  set(GALE_FUZZ_CASES 400 --ini 350 --override 350 --restart 300 --runs 40)
else()
  set(GALE_FUZZ_CASES 400 --ini 100 --override 100 --restart 100 --runs 8)
endif()
add_test(NAME nml_fuzz
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_nml_fuzz.py
                 $<TARGET_FILE:nml_check> ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/nml_fuzz
                 ${GALE_FUZZ_CASES} --gale ${GALE_EXE} --mpiexec ${GALE_MPIEXEC})
set_tests_properties(nml_fuzz PROPERTIES LABELS "bad-input;fuzz" TIMEOUT 600 PROCESSORS 2)

# docs/lfric-namelist.md's table of every LFRic namelist key is config_nml_table.c's
# table (`gale help namelist --markdown`): a key or category changed in one
# and not the other fails
add_test(NAME docs_namelist_table
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_readme.py ${GALE_EXE}
                 ${PROJECT_SOURCE_DIR}/docs/lfric-namelist.md --table namelist)
set_tests_properties(docs_namelist_table PROPERTIES LABELS unit)

# bad numbers, lists and namelist values refused before any work, each
# naming its input (issue 40), and docs/configuration.md's string limit and
# override syntax checked against the code (check_bad_numbers.py)
add_test(NAME config_bad_numbers
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_bad_numbers.py ${GALE_MPIEXEC}
                 ${GALE_EXE} ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/bad_numbers)
set_tests_properties(config_bad_numbers PROPERTIES LABELS "bad-input;mpi;sanitize" TIMEOUT 120 PROCESSORS 2)
