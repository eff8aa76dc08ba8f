# Vectorisation report tests (label vecreport; docs/vecreport.md). They
# compile kernels_cpu/launch.c once with the compiler's optimisation records
# on: a few seconds each, no MPI, no build products needed.
#
# vecreport_hot_gcc_native: every loop of tools/vecreport_hot.txt vectorises
#   with gcc on the native ISA (the flags of preset cpu-gnu); on failure the
#   output names the loop and gcc's reason.
# vecreport_hot_clang_native: the same with clang-19.
# vecreport_hot_build: the same for this build's own compiler and ISA, when
#   that is gcc with another ISA (cpu-avx2, cpu-avx512, cpu-broadwell).
# vecreport_unmacro: re-expanding the loop-holding macros (so their loops get
#   line numbers of their own) leaves gcc's generated code unchanged.
# vecreport_diff: `vecreport diff` of the committed gcc AVX2 and AVX-512
#   reports finds the 32 loops whose width or status changes (named ones among
#   them), a report against itself none, and a copy with one loop changed by
#   hand exactly that loop (tests/check_vecreport_diff.py; no compiler needed).
find_program(GALE_VECREPORT_GCC gcc)
set(_vr ${PROJECT_SOURCE_DIR}/tools/vecreport)
set(_vr_out ${CMAKE_BINARY_DIR}/vecreport/test)

if(GALE_VECREPORT_GCC)
  add_test(NAME vecreport_hot_gcc_native
           COMMAND ${GALE_PYTHON} ${_vr} report --compiler gcc --isa native
                   --out ${_vr_out} --name hot-gcc-native --check
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(vecreport_hot_gcc_native PROPERTIES LABELS "vecreport" TIMEOUT 300)

  add_test(NAME vecreport_unmacro
           COMMAND ${GALE_PYTHON} ${_vr} verify-unmacro --compiler gcc --isa native
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(vecreport_unmacro PROPERTIES LABELS "vecreport" TIMEOUT 300)
endif()

add_test(NAME vecreport_diff
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_vecreport_diff.py ${_vr_out}/diff)
set_tests_properties(vecreport_diff PROPERTIES LABELS "vecreport" TIMEOUT 120)

# the same hot loops with clang-19 (the offload builds' compiler)
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
