# The offload build's toolchain (docs/offload.md), included by the top-level
# CMakeLists.txt when GALE_OFFLOAD != none. Only kernels_offload/ holds target
# regions, so only it is compiled for the device(s) (GALE_OFFLOAD_COMPILE, used
# there); every link gets the same flags, which bundles the device images,
# plus an rpath to the offload runtime so binaries start without
# LD_LIBRARY_PATH. A preset that cannot build here stops at configure with
# the reason.
if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "GALE_OFFLOAD=${GALE_OFFLOAD} needs clang (clang-19); "
                      "CMAKE_C_COMPILER is ${CMAKE_C_COMPILER_ID}")
endif()
separate_arguments(GALE_OFFLOAD_COMPILE UNIX_COMMAND "${GALE_OFFLOAD_FLAGS}")

execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libomptarget.so
                OUTPUT_VARIABLE _omptarget OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT IS_ABSOLUTE "${_omptarget}" OR NOT EXISTS "${_omptarget}")
  message(FATAL_ERROR "GALE_OFFLOAD=${GALE_OFFLOAD}: ${CMAKE_C_COMPILER} finds no offload "
                      "runtime libomptarget.so (Debian 12: apt-get install libomp-19-dev)")
endif()
get_filename_component(GALE_OMPTARGET_DIR "${_omptarget}" REALPATH)
get_filename_component(GALE_OMPTARGET_DIR "${GALE_OMPTARGET_DIR}" DIRECTORY)
add_link_options(${GALE_OFFLOAD_COMPILE} "-Wl,-rpath,${GALE_OMPTARGET_DIR}")

# clang 19's linker wrapper takes device images from an archive only when it
# is linked whole: without that the binary has no image and libomptarget is
# never initialised (omp_get_num_devices() crashes). The wrapper ignores
# --push-state/--pop-state (CMake's WHOLE_ARCHIVE feature), so whole-archive
# would leak onto its own device runtime archive: the plain on/off pair. Set
# here, at the top, so that every directory that links sees the feature.
set(CMAKE_C_LINK_LIBRARY_USING_GALE_WHOLE
    "LINKER:--whole-archive" "<LINK_ITEM>" "LINKER:--no-whole-archive")
set(CMAKE_C_LINK_LIBRARY_USING_GALE_WHOLE_SUPPORTED TRUE)

if(GALE_OFFLOAD STREQUAL "nvptx")
  # clang runs the CUDA toolkit's ptxas for every NVIDIA device image
  find_program(GALE_PTXAS ptxas HINTS /usr/local/cuda/bin ENV CUDA_HOME PATH_SUFFIXES bin)
  if(NOT GALE_PTXAS)
    message(FATAL_ERROR "offload-nvptx cannot build here: the CUDA toolkit's ptxas was not "
                        "found (PATH, /usr/local/cuda/bin, $CUDA_HOME/bin); clang needs it to "
                        "assemble NVIDIA device code. Install the CUDA toolkit or build "
                        "offload-host.")
  endif()
  message(STATUS "offload-nvptx: ptxas ${GALE_PTXAS}")
elseif(GALE_OFFLOAD STREQUAL "amdgcn")
  # AMD device code links with lld >= 15 and the ROCm device libraries of the
  # chosen architecture (Debian's rocm-device-libs 5.2: up to gfx90a, no gfx942)
  string(REGEX MATCH "--offload-arch=gfx([0-9a-f]+)" _arch "${GALE_OFFLOAD_FLAGS}")
  set(_isa "${CMAKE_MATCH_1}")
  string(REGEX MATCH "--rocm-device-lib-path=([^ ]+)" _m "${GALE_OFFLOAD_FLAGS}")
  set(_libs "${CMAKE_MATCH_1}")
  if(NOT _libs)
    string(REGEX MATCH "--rocm-path=([^ ]+)" _m "${GALE_OFFLOAD_FLAGS}")
    set(_libs "${CMAKE_MATCH_1}/amdgcn/bitcode")
  endif()
  if(NOT EXISTS "${_libs}/ocml.bc" OR NOT EXISTS "${_libs}/oclc_isa_version_${_isa}.bc")
    message(FATAL_ERROR "offload-amdgcn cannot build here: no ROCm device libraries for "
                        "gfx${_isa} in '${_libs}' (ocml.bc, oclc_isa_version_${_isa}.bc). "
                        "Debian 12: apt-get install rocm-device-libs lld-19 (gfx90a and older; "
                        "gfx942/MI300A needs ROCm >= 6: pass --rocm-path=/opt/rocm-6.x and "
                        "--offload-arch=gfx942 in GALE_OFFLOAD_FLAGS).")
  endif()
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-prog-name=ld.lld
                  OUTPUT_VARIABLE _lld OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${_lld} --version OUTPUT_VARIABLE _lldv ERROR_QUIET)
  if(NOT _lldv MATCHES "LLD (1[5-9]|[2-9][0-9])")
    message(FATAL_ERROR "offload-amdgcn cannot build here: AMDGPU device code needs LLD >= 15 "
                        "next to ${CMAKE_C_COMPILER} ('${_lld}' is '${_lldv}'); Debian 12: "
                        "apt-get install lld-19")
  endif()
endif()
