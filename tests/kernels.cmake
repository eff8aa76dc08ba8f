# The kernels' shared schedules on the CPU launch layer (kernels/gale_kbodies.h):
# the dot product's carry and its bit-identity with the offload layer's
# per-column path, the NaN search of maxabs, transport min/max.
gale_test(test_kdots SOURCES test_kdots.c LIBS gale_kernels_cpu LABELS unit)

# The kernel descriptions (kernels/gale_kdesc.h): swapped fields are caught
# naming both, precisions are checked, the rows are well formed and a
# launch's minimum bytes follow from its fields' locations.
add_executable(test_kdesc test_kdesc.c)
target_link_libraries(test_kdesc PRIVATE gale_app)
gale_mpi_test(kernel_descriptions 1 $<TARGET_FILE:test_kdesc>)

# gale_kbench kernels measures every described kernel in each of its
# precisions (recorded from model steps and replayed): none missing, each
# with its bytes, flops and a time; and the committed results name every
# described kernel, and no other (tests/check_kbench.py).
add_test(NAME kernels_every_kernel
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_kbench.py $<TARGET_FILE:gale_kbench>
                 ${CMAKE_CURRENT_BINARY_DIR}/kbench_every.json ${PROJECT_SOURCE_DIR})
set_tests_properties(kernels_every_kernel PROPERTIES LABELS unit TIMEOUT 300)
