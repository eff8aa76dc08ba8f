# The layer rules (README "Source tree"; the rule table is at the top of
# tests/check_layers.py).
# layers_includes: every #include "..." of base/, layout/, kernels*/, halo/,
#   psy/, solver/ and io/ names a header of a folder that folder may include;
#   no file outside src/, tests/ and bench/ includes a header of src/; base/
#   (but for its MPI part) and layout/ include no mpi.h.
# layers_no_mpi: the serial base (gale_base), layout/ and layout's unit tests
#   have no MPI_/PMPI_ symbol (nm) and the tests load no MPI library (ldd).
#   The tests link with --no-as-needed, so that a library on their link line
#   is recorded in the executable (ldd) even when nothing calls it (Debian's
#   gcc links --as-needed and would drop it).
add_test(NAME layers_includes
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_layers.py includes ${PROJECT_SOURCE_DIR})
set_tests_properties(layers_includes PROPERTIES LABELS unit TIMEOUT 60)

# layers_psy: src/ and solver/ leave halo validity, exchanges, launch-layer
#   calls, loop ranges and (in solver/ and src/model/) MPI to psy/.
add_test(NAME layers_psy
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_layers.py psy ${PROJECT_SOURCE_DIR})
set_tests_properties(layers_psy PROPERTIES LABELS unit TIMEOUT 60)

set(_layer_files $<TARGET_FILE:gale_base> $<TARGET_FILE:gale_layout>)
foreach(_t IN LISTS GALE_LAYOUT_UNIT_TESTS)
  target_link_options(${_t} PRIVATE LINKER:--no-as-needed)
  list(APPEND _layer_files $<TARGET_FILE:${_t}>)
endforeach()
add_test(NAME layers_no_mpi
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_layers.py no-mpi ${_layer_files})
set_tests_properties(layers_no_mpi PROPERTIES LABELS unit TIMEOUT 60)
