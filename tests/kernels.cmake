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

# Every row's bytes and flops against a count of what its body does
# (tests/test_kcount.c; the rules: docs/report.md, "Minimum bytes and
# flops"): the kernel dispatch is built apart by clang-19 at -O0 with its
# loads and stores traced (-fsanitize-coverage) and its floating-point
# operations counted (tests/kcount_ir.py), and every launch of gale_kbench's
# model set-ups and steps on C4 (and of four more, for the variants) is
# counted through it, each shape once (linked with --wrap=gale_k_run). About
# 3 s. Skipped (exit
# 77, with the reason) only where clang-19 is not installed (tools/install-deps
# installs it; CI has it, and tests/report_skips.py fails CI on this skip).
find_program(GALE_KCOUNT_CLANG clang-19)
if(GALE_KCOUNT_CLANG)
  set(_kc ${CMAKE_CURRENT_BINARY_DIR}/kcount_probe)
  add_custom_command(
    OUTPUT ${_kc}.o
    COMMAND ${GALE_KCOUNT_CLANG} -std=c11 -O0 -ffp-contract=off -fno-math-errno
            -fsanitize-coverage=func,trace-loads,trace-stores -D_POSIX_C_SOURCE=200809L
            -I${PROJECT_SOURCE_DIR}/kernels -I${PROJECT_SOURCE_DIR}/layout
            -I${PROJECT_SOURCE_DIR}/base -MD -MF ${_kc}.d -MT ${_kc}.o -S -emit-llvm
            ${CMAKE_CURRENT_SOURCE_DIR}/kcount_probe.c -o ${_kc}.ll
    COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/kcount_ir.py ${_kc}.ll ${_kc}_counted.ll
    COMMAND ${GALE_KCOUNT_CLANG} -O0 -c ${_kc}_counted.ll -o ${_kc}.o
    DEPENDS kcount_probe.c kcount_ir.py
    DEPFILE ${_kc}.d
    COMMENT "kcount_probe: the kernel dispatch, traced and counted (clang-19 -O0)"
    VERBATIM)
  add_executable(test_kcount test_kcount.c ${_kc}.o)
  target_compile_definitions(test_kcount PRIVATE GALE_KCOUNT_CONFIGS="${PROJECT_SOURCE_DIR}/configs")
  target_link_libraries(test_kcount PRIVATE gale_app m)
  target_include_directories(test_kcount PRIVATE ${PROJECT_SOURCE_DIR}/bench)
  target_link_options(test_kcount PRIVATE -Wl,--wrap=gale_k_run)
  add_test(NAME kernel_counts COMMAND test_kcount)
else()
  add_test(NAME kernel_counts
           COMMAND sh -c "echo 'SKIPPED: clang-19 not found (tools/install-deps installs it): the kernel dispatch cannot be traced and counted'; exit 77")
endif()
set_tests_properties(kernel_counts PROPERTIES LABELS unit TIMEOUT 120 SKIP_RETURN_CODE 77
                     ENVIRONMENT OMP_NUM_THREADS=1)
