# io tests: the netCDF-4 writer layer and `gale mesh`, read back with ncdump
# and Python's netCDF4 (Debian's, seen by /usr/bin/python3 only).
find_program(GALE_NCDUMP ncdump)
if(NOT GALE_NCDUMP)
  set(GALE_NCDUMP ncdump) # tests then fail saying so: tools/install-deps installs netcdf-bin
endif()
set(GALE_IO_OUT ${CMAKE_CURRENT_BINARY_DIR}/io)
file(MAKE_DIRECTORY ${GALE_IO_OUT})

# gale_nc4.h includes <hdf5.h>: the test needs HDF5's include path too.
add_executable(test_io_nc4 test_io_nc4.c)
target_include_directories(test_io_nc4 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_io_nc4 PRIVATE gale_io gale_base gale_hdf5 m)
add_test(NAME test_io_nc4 COMMAND test_io_nc4 ${GALE_NCDUMP} ${GALE_IO_OUT})
add_test(NAME test_io_nc4_python
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_io_nc4.py ${GALE_IO_OUT}/io_nc4.nc)
set_tests_properties(test_io_nc4 PROPERTIES FIXTURES_SETUP io_nc4_file)
set_tests_properties(test_io_nc4_python PROPERTIES FIXTURES_REQUIRED io_nc4_file)

add_test(NAME test_io_mesh_c4
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_mesh_file.py
                 ${GALE_EXE} ${GALE_NCDUMP} 4 ${GALE_IO_OUT} --scaling 1)
add_test(NAME test_io_mesh_c12
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_mesh_file.py
                 ${GALE_EXE} ${GALE_NCDUMP} 12 ${GALE_IO_OUT})
set_tests_properties(test_io_nc4 test_io_nc4_python test_io_mesh_c4 test_io_mesh_c12
                     PROPERTIES LABELS unit TIMEOUT 120)

add_test(NAME test_io_mesh_cli
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_mesh_cli.py ${GALE_EXE} ${GALE_IO_OUT})
set_tests_properties(test_io_mesh_cli PROPERTIES LABELS bad-input TIMEOUT 120)
