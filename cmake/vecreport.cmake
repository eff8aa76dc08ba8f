# `cmake --build --preset <p> --target vecreport`: the vectorisation report of
# this build (its compiler, ISA and flags, read from compile_commands.json)
# for the CPU kernels, written to <build>/vecreport/<compiler>-<isa>.{json,md}.
# See docs/vecreport.md. Not part of `all`: it recompiles kernels_cpu/*.c
# with the compiler's optimisation records switched on (seconds to a minute),
# and prints the kernel guard.
set(GALE_VECREPORT_PYTHON /usr/bin/python3 CACHE FILEPATH "Python for tools/vecreport (standard library only)")
add_custom_target(vecreport
  COMMAND ${GALE_VECREPORT_PYTHON} ${PROJECT_SOURCE_DIR}/tools/vecreport report
          --build-dir ${PROJECT_BINARY_DIR} --isa-name ${GALE_ISA_NAME}
          --out ${PROJECT_BINARY_DIR}/vecreport
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  COMMENT "Vectorisation report for ${CMAKE_C_COMPILER_ID} ${GALE_ISA_NAME} -> ${PROJECT_BINARY_DIR}/vecreport"
  VERBATIM USES_TERMINAL)
