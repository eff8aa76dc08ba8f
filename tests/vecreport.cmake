# Vectorisation report tests (label vecreport; docs/vecreport.md). They
# compile the CPU launch layer (every kernels_cpu/*.c) with the compiler's
# optimisation records on: a few seconds to a minute each, no MPI, no build
# products needed.
#
# vecreport_hot_gcc_native: the kernel guard with gcc on the native ISA (the
#   flags of preset cpu-gnu): every kernel row's GALE_SIMD loops (in the code
#   its launch reaches) and its simd launch loop vectorise, or are excepted
#   with a reason in tools/vecreport_exceptions.txt; on failure the output
#   names the kernel, the loop and gcc's reason.
# vecreport_hot_clang_native: the same with clang-19.
# vecreport_guard: the guard can fail: copies of gcc's report with a kernel's
#   loop not vectorised or missing, exception lists with a kernel left out or
#   a kernel that does not exist, a row added to a copy of the sources, and
#   (with clang-19) a copy of the tree whose grad_h loop cannot vectorise,
#   compiled; each fails naming the kernel (tests/check_vecreport_guard.py).
# vecreport_hot_build: the guard for this build's own compiler and ISA, when
#   that is gcc with another ISA (cpu-avx2, cpu-avx512, cpu-broadwell).
# vecreport_unmacro: re-expanding the loop-holding macros and the kernel
#   table (so their loops get line numbers of their own) leaves gcc's
#   generated code unchanged.
# vecreport_diff: `vecreport diff` of the committed gcc AVX2 and AVX-512
#   reports finds the loops whose width or status changes (named ones among
#   them), a report against itself none, and a copy with one loop changed by
#   hand exactly that loop (tests/check_vecreport_diff.py; no compiler needed).
# vecreport_guard_unit, vecreport_diff_unit (labels unit and vecreport): unit
#   tests of the guard and of the diff (tools/gale_vecreport/guard.py,
#   diff.py) on hand-written inputs: a miniature kernel source, report rows,
#   exception lists, -fopt-info text; exact verdicts, counts and messages.
#   No compiler, well under a second each.
find_program(GALE_VECREPORT_GCC gcc)
set(_vr ${PROJECT_SOURCE_DIR}/tools/vecreport)
set(_vr_out ${CMAKE_BINARY_DIR}/vecreport/test)

if(GALE_VECREPORT_GCC)
  add_test(NAME vecreport_hot_gcc_native
           COMMAND ${GALE_PYTHON} ${_vr} report --compiler gcc --isa native
                   --out ${_vr_out} --name hot-gcc-native --check
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(vecreport_hot_gcc_native PROPERTIES LABELS "vecreport" TIMEOUT 300
                       FIXTURES_SETUP vecreport_gcc_report)

  add_test(NAME vecreport_guard
           COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_vecreport_guard.py
                   ${_vr_out}/hot-gcc-native.json ${_vr_out}/guard)
  set_tests_properties(vecreport_guard PROPERTIES LABELS "vecreport" TIMEOUT 300
                       FIXTURES_REQUIRED vecreport_gcc_report)

  add_test(NAME vecreport_unmacro
           COMMAND ${GALE_PYTHON} ${_vr} verify-unmacro --compiler gcc --isa native
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(vecreport_unmacro PROPERTIES LABELS "vecreport" TIMEOUT 300)
endif()

add_test(NAME vecreport_diff
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_vecreport_diff.py ${_vr_out}/diff)
set_tests_properties(vecreport_diff PROPERTIES LABELS "vecreport" TIMEOUT 120)

add_test(NAME vecreport_guard_unit
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_vecreport_guard_unit.py)
add_test(NAME vecreport_diff_unit
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_vecreport_diff_unit.py)
set_tests_properties(vecreport_guard_unit vecreport_diff_unit PROPERTIES LABELS "unit;vecreport" TIMEOUT 60)

# the same guard with clang-19 (the offload builds' compiler)
find_program(GALE_VECREPORT_CLANG clang-19)
if(GALE_VECREPORT_CLANG)
  add_test(NAME vecreport_hot_clang_native
           COMMAND ${GALE_PYTHON} ${_vr} report --compiler clang --isa native
                   --out ${_vr_out} --name hot-clang-native --check
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(vecreport_hot_clang_native PROPERTIES LABELS "vecreport" TIMEOUT 300)
endif()

if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND GALE_OFFLOAD STREQUAL "none"
   AND NOT GALE_ISA_NAME STREQUAL "native" AND NOT GALE_NOVEC)
  add_test(NAME vecreport_hot_build
           COMMAND ${GALE_PYTHON} ${_vr} report --build-dir ${CMAKE_BINARY_DIR}
                   --isa-name ${GALE_ISA_NAME} --out ${_vr_out} --name hot-build --check
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(vecreport_hot_build PROPERTIES LABELS "vecreport" TIMEOUT 300)
endif()
