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
  # AMD device code links with lld >= 15, LLVM's OpenMP device runtime of each
  # architecture and the ROCm device libraries (docs/offload.md). Debian 12's
  # rocm-device-libs 5.2 stop at gfx940: for a newer architecture that LLVM 19
  # has a device runtime for (gfx942, MI300A) the one per-architecture file the
  # libraries lack, oclc_isa_version_<isa>.bc, is a single constant (the ISA
  # version, e.g. 9402); it is compiled here into a copy of the library folder
  # whose other files are links to Debian's.
  string(REGEX MATCH "--offload-arch=([^ ]+)" _m "${GALE_OFFLOAD_FLAGS}")
  string(REPLACE "," ";" _archs "${CMAKE_MATCH_1}")
  string(REGEX MATCH "--rocm-device-lib-path=([^ ]+)" _m "${GALE_OFFLOAD_FLAGS}")
  set(_libs "${CMAKE_MATCH_1}")
  if(NOT _libs)
    string(REGEX MATCH "--rocm-path=([^ ]+)" _m "${GALE_OFFLOAD_FLAGS}")
    set(_libs "${CMAKE_MATCH_1}/amdgcn/bitcode")
  endif()
  if(NOT _archs OR NOT EXISTS "${_libs}/ocml.bc")
    message(FATAL_ERROR "offload-amdgcn cannot build here: no ROCm device libraries (ocml.bc) "
                        "in '${_libs}', or no --offload-arch in GALE_OFFLOAD_FLAGS. "
                        "Debian 12: apt-get install rocm-device-libs lld-19")
  endif()
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libomptarget.so
                  OUTPUT_VARIABLE _rt OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(_rt "${_rt}" DIRECTORY)
  set(_made "")
  foreach(_arch IN LISTS _archs)
    string(REGEX MATCH "^gfx([0-9a-f]+)$" _m "${_arch}")
    set(_isa "${CMAKE_MATCH_1}")
    if(NOT _isa)
      message(FATAL_ERROR "offload-amdgcn: '${_arch}' is not an AMD GPU architecture (gfxNNN)")
    endif()
    if(EXISTS "${_libs}/oclc_isa_version_${_isa}.bc")
      continue()
    endif()
    if(NOT EXISTS "${_rt}/libomptarget-amdgpu-${_arch}.bc")
      message(FATAL_ERROR "offload-amdgcn cannot build for ${_arch}: neither the ROCm device "
                          "libraries in '${_libs}' (oclc_isa_version_${_isa}.bc) nor LLVM's "
                          "OpenMP device runtime (${_rt}/libomptarget-amdgpu-${_arch}.bc) know it")
    endif()
    # gfxMMms: major MM (decimal), minor m and stepping s (hex digits)
    string(LENGTH "${_isa}" _n)
    math(EXPR _n "${_n} - 2")
    string(SUBSTRING "${_isa}" 0 ${_n} _major)
    string(SUBSTRING "${_isa}" ${_n} 1 _minor)
    math(EXPR _s "${_n} + 1")
    string(SUBSTRING "${_isa}" ${_s} 1 _step)
    math(EXPR _ver "${_major} * 1000 + 0x${_minor} * 100 + 0x${_step}")
    list(APPEND _made "${_isa}:${_ver}")
  endforeach()
  if(_made)
    set(_own "${CMAKE_BINARY_DIR}/amdgcn-bitcode")
    file(MAKE_DIRECTORY "${_own}")
    file(GLOB _bcs "${_libs}/*.bc")
    foreach(_bc IN LISTS _bcs)
      get_filename_component(_nm "${_bc}" NAME)
      file(CREATE_LINK "${_bc}" "${_own}/${_nm}" SYMBOLIC)
    endforeach()
    foreach(_iv IN LISTS _made)
      string(REPLACE ":" ";" _iv "${_iv}")
      list(GET _iv 0 _isa)
      list(GET _iv 1 _ver)
      file(WRITE "${_own}/isa_${_isa}.c"
           "/* generated by kernels_offload/toolchain.cmake: the ISA version of gfx${_isa} */\n"
           "__attribute__((address_space(4), visibility(\"protected\"), weak))\n"
           "const int __oclc_ISA_version = ${_ver};\n")
      execute_process(COMMAND ${CMAKE_C_COMPILER} -target amdgcn-amd-amdhsa -mcpu=gfx${_isa}
                              -nogpulib -O2 -emit-llvm -c "${_own}/isa_${_isa}.c"
                              -o "${_own}/oclc_isa_version_${_isa}.bc"
                      RESULT_VARIABLE _rc ERROR_VARIABLE _err)
      if(NOT _rc EQUAL 0)
        message(FATAL_ERROR "offload-amdgcn: compiling the ISA-version bitcode of gfx${_isa} "
                            "failed: ${_err}")
      endif()
      message(STATUS "offload-amdgcn: gfx${_isa}: ${_libs} has no oclc_isa_version_${_isa}.bc; "
                     "made one (__oclc_ISA_version = ${_ver}) in ${_own}")
    endforeach()
    string(REPLACE "${_libs}" "${_own}" GALE_OFFLOAD_COMPILE "${GALE_OFFLOAD_COMPILE}")
    if(NOT GALE_OFFLOAD_COMPILE MATCHES "--rocm-device-lib-path=")
      list(APPEND GALE_OFFLOAD_COMPILE "--rocm-device-lib-path=${_own}")
    endif()
  endif()
  # Debian's HIP 5.2 runtime (libamdhip64-dev) for the device query and the
  # unified-memory check (docs/offload.md); off: HSA_XNACK decides
  option(GALE_HIP "offload-amdgcn: ask the HIP runtime about the AMD GPU" OFF)
  if(GALE_HIP)
    find_path(GALE_HIP_INCLUDE hip/hip_runtime_api.h)
    find_library(GALE_HIP_LIBRARY amdhip64)
    if(NOT GALE_HIP_INCLUDE OR NOT GALE_HIP_LIBRARY)
      message(FATAL_ERROR "GALE_HIP=ON: no HIP runtime (hip/hip_runtime_api.h, libamdhip64); "
                          "Debian 12: apt-get install libamdhip64-dev")
    endif()
    message(STATUS "offload-amdgcn: HIP runtime ${GALE_HIP_LIBRARY}")
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

# every link: the device flags (as the amdgcn branch may have rewritten them);
# the linker wrapper links the device images of two architectures side by
# side (offload-amdgcn's gale link: 115 s serial, 57 s with two jobs)
add_link_options(${GALE_OFFLOAD_COMPILE} "-Wl,-rpath,${GALE_OMPTARGET_DIR}"
                 "-Wl,--wrapper-jobs=2")
