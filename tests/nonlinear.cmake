# The nonlinear dynamical core (docs/nonlinear.md), driven by
# check_nonlinear.py: a resting atmosphere stays at rest, dcmip31 is linear
# at small amplitude, checksums are bit-identical over ranks, threads and
# halo strategies and across a restart on another rank count, the balanced
# jet stays balanced, and bad input is refused. Small meshes (C6, C8), few
# levels and steps, but for the balanced jet (C24, 2 days: 15 s on 2 cores).
set(GALE_NONLINEAR_OUT ${CMAKE_CURRENT_BINARY_DIR}/nonlinear)
set(GALE_NONLINEAR_CMD ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_nonlinear.py
    ${GALE_MPIEXEC} ${GALE_EXE} ${GALE_NONLINEAR_OUT})

# one rank, one thread: resting, linearity, grid_mode, output, gungho,
# newton; one rank, two threads: balanced_jet (the issue's C24, 2 days),
# substeps; two
# or more ranks (oversubscribed to 5): reproducible, restart
foreach(mode resting linearity reproducible restart balanced_jet grid_mode output gungho substeps
             newton)
  set(np 1)
  set(timeout 180)
  if(mode MATCHES "reproducible|restart|balanced_jet|substeps")
    set(np 2)
  endif()
  if(mode STREQUAL "balanced_jet")
    set(timeout 450)
  endif()
  add_test(NAME nonlinear_${mode} COMMAND ${GALE_NONLINEAR_CMD} ${mode})
  set_tests_properties(nonlinear_${mode} PROPERTIES LABELS "regression;mpi" PROCESSORS ${np}
                       TIMEOUT ${timeout})
endforeach()

add_test(NAME nonlinear_bad_input COMMAND ${GALE_NONLINEAR_CMD} bad_input)
set_tests_properties(nonlinear_bad_input PROPERTIES LABELS "mpi;bad-input" PROCESSORS 2
                     TIMEOUT 120)

# The baroclinic wave's initial state against the DCMIP 2016 reference formulas
gale_test(test_cases SOURCES test_cases.c LIBS gale_app LABELS unit regression)
target_compile_definitions(test_cases PRIVATE GALE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
