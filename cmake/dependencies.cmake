# MPI and parallel HDF5, found the standard way (docs/sites.md), included by
# the top-level CMakeLists.txt. Nothing here names a system's paths: those
# belong to the Debian presets (CMakePresets.json) and tools/install-deps.
#
# MPI: CMake's FindMPI, for any MPI-3 library. It takes an MPI compiler
# wrapper (MPI_C_COMPILER, or mpicc on PATH), a prefix (MPI_HOME), or a
# compiler that compiles and links MPI by itself, as Cray's cc does (then
# CC=cc is all it needs).
find_package(MPI 3.0 REQUIRED COMPONENTS C)

# HDF5: CMake's FindHDF5, parallel preferred. In the order FindHDF5 tries
# them: the C compiler itself (Cray's cc with cray-hdf5-parallel: "Included
# by compiler wrappers"), an hdf5-config.cmake (HDF5_DIR), h5pcc
# (HDF5_C_COMPILER_EXECUTABLE, or on PATH / under HDF5_ROOT), or a prefix
# (HDF5_ROOT: lib/ and include/ searched directly). Many sites' modules
# (Cray's cray-hdf5-parallel among them) set HDF5_DIR to the install prefix
# rather than to a CMake package folder: it is taken as HDF5_ROOT too.
set(HDF5_PREFER_PARALLEL TRUE)
# A build folder configured before gale used FindHDF5 holds pkg-config's
# HDF5_* entries (HDF5_MODULE_NAME among them), which FindHDF5 would take
# as its own result: drop them once.
if(DEFINED CACHE{HDF5_MODULE_NAME})
  get_cmake_property(_vars CACHE_VARIABLES)
  foreach(_v IN LISTS _vars)
    get_property(_t CACHE ${_v} PROPERTY TYPE)
    if(_v MATCHES "^pkgcfg_lib_HDF5_|^__pkg_config" OR (_v MATCHES "^HDF5_" AND _t STREQUAL "INTERNAL"))
      unset(${_v} CACHE)
    endif()
  endforeach()
endif()
if(NOT HDF5_ROOT AND NOT DEFINED ENV{HDF5_ROOT} AND DEFINED ENV{HDF5_DIR})
  set(HDF5_ROOT "$ENV{HDF5_DIR}")
endif()
find_package(HDF5 COMPONENTS C HL)
if(NOT HDF5_FOUND)
  message(FATAL_ERROR "gale needs parallel HDF5 (built with MPI) and found none. Give its "
                      "prefix (-DHDF5_ROOT=PREFIX), its h5pcc (-DHDF5_C_COMPILER_EXECUTABLE=PATH), "
                      "its CMake package (-DHDF5_DIR=DIR), or a compiler wrapper that links it "
                      "(CC=cc on a Cray EX). docs/sites.md")
endif()
if(HDF5_METHOD STREQUAL "Included by compiler wrappers")
  set(_h5 "HDF5 ${HDF5_C_VERSION} included by the compiler ${CMAKE_C_COMPILER}")
else()
  list(GET HDF5_LIBRARIES 0 _lib)
  set(_h5 "HDF5 ${HDF5_VERSION}: ${_lib}, include ${HDF5_INCLUDE_DIRS}")
  string(REPLACE ";" " " _h5 "${_h5}")
endif()
if(NOT HDF5_IS_PARALLEL)
  # Output and checkpoints are written collectively through MPI-IO
  # (H5Pset_fapl_mpio): a serial HDF5 cannot build gale.
  message(FATAL_ERROR "the HDF5 found is serial, not parallel: ${_h5}. gale writes its files "
                      "with parallel HDF5 (MPI-IO). Point CMake at a parallel build of HDF5 for "
                      "the same MPI (-DHDF5_ROOT=PREFIX, -DHDF5_C_COMPILER_EXECUTABLE=.../h5pcc); "
                      "docs/sites.md")
endif()
message(STATUS "gale: parallel ${_h5}")
# One target for io/ and its tests: FindHDF5's, with the high-level library
# (dimension scales) that HDF5::HDF5 leaves out.
add_library(gale_hdf5 INTERFACE)
target_link_libraries(gale_hdf5 INTERFACE ${HDF5_HL_LIBRARIES} HDF5::HDF5)
