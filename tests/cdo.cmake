# Output for the climate tools (docs/output.md, "CDO and xarray"): the
# baroclinic wave's surface_pressure in every [io] mode, 2 ranks, read by
# Debian's CDO (fldmean, remapcon,r90x45) and xarray. Skipped (77) without cdo.
add_test(NAME output_cdo
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_cdo.py ${GALE_EXE}
                 ${GALE_MPIEXEC} ${CMAKE_CURRENT_BINARY_DIR}/cdo)
set_tests_properties(output_cdo PROPERTIES LABELS "regression;mpi" PROCESSORS 2 TIMEOUT 120
                     SKIP_RETURN_CODE 77)
