# Hygiene of the source tree, from the text alone (tests/check_hygiene.py).
# hygiene_dead_functions: every external gale_ function is used outside its
#   definition and declaration (bench/ and tests/ count), and outside its own
#   file (else it should be static).
add_test(NAME hygiene_dead_functions
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_hygiene.py dead ${PROJECT_SOURCE_DIR})
set_tests_properties(hygiene_dead_functions PROPERTIES LABELS unit TIMEOUT 60)
# hygiene_doc_citations: every docs/*.md that code or docs cite exists, and
#   nothing cites a design file outside the repository.
add_test(NAME hygiene_doc_citations
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_hygiene.py citations ${PROJECT_SOURCE_DIR})
set_tests_properties(hygiene_doc_citations PROPERTIES LABELS unit TIMEOUT 60)
# hygiene_cycles: no call cycle between the .c files of src/config/ (the value
#   layer at the bottom, the INI and namelist readers on it, config.c on top)
#   nor of kernels_offload/ (residency.c at the bottom, the static-data mirror,
#   device discovery and halo buffers on it, the launch files on top).
add_test(NAME hygiene_cycles
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_hygiene.py cycles
                 ${PROJECT_SOURCE_DIR}/src/config ${PROJECT_SOURCE_DIR}/kernels_offload)
set_tests_properties(hygiene_cycles PROPERTIES LABELS unit TIMEOUT 60)
