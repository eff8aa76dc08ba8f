# The offload build's toolchain (docs/offload.md, docs/sites.md), included by
# the top-level CMakeLists.txt when GALE_OFFLOAD != none. Only kernels_offload/
# holds target regions, so only it is compiled for the device(s)
# (GALE_OFFLOAD_COMPILE, used there); every link gets the same flags, which
# bundles the device images, plus an rpath to the offload runtime so binaries
# start without LD_LIBRARY_PATH. A build that cannot work here stops at
# configure with the reason.
#
# Nothing is named, everything is asked or given: the compiler is
# CMAKE_C_COMPILER (LLVM clang >= 17, ROCm's amdclang, the Cray compiler),
# the host triple and the OpenMP device runtime come from the compiler
# itself (-print-target-triple, -print-file-name), the ROCm device libraries
# from GALE_ROCM_DEVICE_LIB_PATH, ROCM_PATH or --rocm-path, CUDA from
# CUDAToolkit_ROOT or CUDA_HOME. GALE_OFFLOAD_ARCH picks the devices;
# GALE_OFFLOAD_FLAGS adds flags of one's own.
set(GALE_OFFLOAD_ARCH "" CACHE STRING
    "offload device architectures, comma-separated: sm_80,sm_90 (nvptx), gfx90a,gfx942 (amdgcn)")
set(GALE_ROCM_DEVICE_LIB_PATH "" CACHE PATH
    "amdgcn: folder of the ROCm device libraries (ocml.bc, ...); empty: from ROCM_PATH or the compiler")
if(NOT CMAKE_C_COMPILER_ID MATCHES "^(Clang|CrayClang)$")
  message(FATAL_ERROR "GALE_OFFLOAD=${GALE_OFFLOAD} needs an LLVM-based C compiler (clang >= 17, "
                      "ROCm's amdclang or the Cray compiler); CMAKE_C_COMPILER ${CMAKE_C_COMPILER} is "
                      "${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}")
endif()
if(CMAKE_C_COMPILER_ID STREQUAL "Clang" AND CMAKE_C_COMPILER_VERSION VERSION_LESS 17)
  message(FATAL_ERROR "GALE_OFFLOAD=${GALE_OFFLOAD} needs clang 17 or newer (OpenMP 5.1 offload "
                      "and the linker wrapper); ${CMAKE_C_COMPILER} is clang ${CMAKE_C_COMPILER_VERSION}")
endif()

# the compiler's own answers: its host triple (x86_64, aarch64 on Grace) and
# where its OpenMP runtime and device runtime bitcode live
function(_gale_ask out)
  execute_process(COMMAND ${CMAKE_C_COMPILER} ${ARGN} OUTPUT_VARIABLE _v ERROR_QUIET
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(${out} "${_v}" PARENT_SCOPE)
endfunction()
_gale_ask(_host -print-target-triple)
if(NOT _host)
  set(_host "${CMAKE_SYSTEM_PROCESSOR}-unknown-linux-gnu")
endif()
_gale_ask(_omptarget -print-file-name=libomptarget.so)
if(NOT IS_ABSOLUTE "${_omptarget}" OR NOT EXISTS "${_omptarget}")
  message(FATAL_ERROR "GALE_OFFLOAD=${GALE_OFFLOAD}: ${CMAKE_C_COMPILER} finds no offload "
                      "runtime libomptarget.so (Debian 12: apt-get install libomp-19-dev; ROCm and "
                      "the Cray compiler bring theirs)")
endif()
get_filename_component(GALE_OMPTARGET_DIR "${_omptarget}" REALPATH)
get_filename_component(GALE_OMPTARGET_DIR "${GALE_OMPTARGET_DIR}" DIRECTORY)

string(REPLACE "," ";" _archs "${GALE_OFFLOAD_ARCH}")
# the device runtime bitcode of one architecture, as the compiler finds it
# (clang 17-19: libomptarget-<dev>-<arch>.bc; later ones find their own)
function(_gale_devrtl out dev arch)
  foreach(_f libomptarget-${dev}-${arch}.bc libomptarget-${dev}.bc)
    _gale_ask(_p -print-file-name=${_f})
    if(IS_ABSOLUTE "${_p}" AND EXISTS "${_p}")
      get_filename_component(_p "${_p}" REALPATH)
      get_filename_component(_d "${_p}" DIRECTORY)
      set(${out} "${_d}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

if(GALE_OFFLOAD MATCHES "^(nvptx|amdgcn)$")
  # a GPU build: its device triple, device runtime name and example GPUs
  set(_dev_nvptx nvptx64-nvidia-cuda)
  set(_rtl_nvptx nvptx)
  set(_eg_nvptx "sm_80 A100, sm_90 H100/H200")
  set(_dev_amdgcn amdgcn-amd-amdhsa)
  set(_rtl_amdgcn amdgpu)
  set(_eg_amdgcn "gfx90a MI250X, gfx942 MI300A")
  set(_dev ${_dev_${GALE_OFFLOAD}})
  set(_rtl ${_rtl_${GALE_OFFLOAD}})
  if(NOT _archs)
    message(FATAL_ERROR "GALE_OFFLOAD=${GALE_OFFLOAD}: say which GPUs in GALE_OFFLOAD_ARCH "
                        "(${_eg_${GALE_OFFLOAD}}; comma-separated)")
  endif()
  # the host image too: a GPU binary on a node without the GPU then runs on
  # the host under OMP_TARGET_OFFLOAD=MANDATORY instead of crashing
  set(_flags -fopenmp -fopenmp-targets=${_dev},${_host} -Xopenmp-target=${_dev}
             --offload-arch=${GALE_OFFLOAD_ARCH})
  list(GET _archs 0 _a0)
  _gale_devrtl(_rt ${_rtl} ${_a0})
  if(_rt)
    list(APPEND _flags --libomptarget-${_rtl}-bc-path=${_rt})
  endif()
endif()

if(GALE_OFFLOAD STREQUAL "host")
  set(_flags -fopenmp -fopenmp-targets=${_host})
elseif(GALE_OFFLOAD STREQUAL "nvptx")
  # clang runs the CUDA toolkit's ptxas for every NVIDIA device image
  set(_cuda "")
  foreach(_c "${CUDAToolkit_ROOT}" "$ENV{CUDAToolkit_ROOT}" "$ENV{CUDA_HOME}" "$ENV{CUDA_PATH}")
    if(_c AND EXISTS "${_c}/bin/ptxas")
      set(_cuda "${_c}")
      break()
    endif()
  endforeach()
  if(_cuda)
    list(APPEND _flags --cuda-path=${_cuda})
    set(GALE_PTXAS "${_cuda}/bin/ptxas")
  else()
    find_program(GALE_PTXAS ptxas)
  endif()
  if(NOT GALE_PTXAS)
    message(FATAL_ERROR "GALE_OFFLOAD=nvptx cannot build here: no CUDA toolkit (ptxas) under "
                        "CUDAToolkit_ROOT, CUDA_HOME or CUDA_PATH, nor on PATH; clang needs it to "
                        "assemble NVIDIA device code. Load or install the CUDA toolkit, or build "
                        "offload-host.")
  endif()
  message(STATUS "offload-nvptx: ${GALE_OFFLOAD_ARCH} + ${_host}; ptxas ${GALE_PTXAS}")
elseif(GALE_OFFLOAD STREQUAL "amdgcn")
  # AMD device code links with lld >= 15, LLVM's OpenMP device runtime of
  # each architecture and the ROCm device libraries: given, or under
  # ROCM_PATH (ROCm 5: amdgcn/bitcode; ROCm 6: also inside its LLVM), or
  # found by the compiler itself (amdclang knows its ROCm)
  set(_libs "${GALE_ROCM_DEVICE_LIB_PATH}")
  string(REGEX MATCH "--rocm-path=([^ ]+)" _m "${GALE_OFFLOAD_FLAGS}")
  set(_rocm "${CMAKE_MATCH_1}")
  if(NOT _rocm)
    set(_rocm "${ROCM_PATH}")
  endif()
  if(NOT _rocm)
    set(_rocm "$ENV{ROCM_PATH}")
  endif()
  if(NOT _libs AND _rocm)
    file(GLOB _cands "${_rocm}/amdgcn/bitcode" "${_rocm}/lib/llvm/lib/clang/*/lib/amdgcn/bitcode")
    foreach(_c IN LISTS _cands)
      if(EXISTS "${_c}/ocml.bc")
        set(_libs "${_c}")
        break()
      endif()
    endforeach()
    if(NOT _libs)
      message(FATAL_ERROR "offload-amdgcn: ROCM_PATH ${_rocm} has no ROCm device libraries "
                          "(amdgcn/bitcode/ocml.bc); set GALE_ROCM_DEVICE_LIB_PATH to their folder")
    endif()
  endif()
  if(_libs AND NOT EXISTS "${_libs}/ocml.bc")
    message(FATAL_ERROR "offload-amdgcn cannot build here: no ROCm device libraries (ocml.bc) in "
                        "'${_libs}' (Debian 12: apt-get install rocm-device-libs)")
  endif()
  # Debian 12's rocm-device-libs 5.2 stop at gfx940: for a newer
  # architecture that the compiler has a device runtime for (gfx942,
  # MI300A) the one per-architecture file the libraries lack,
  # oclc_isa_version_<isa>.bc, is a single constant (the ISA version, e.g.
  # 9402); it is compiled here into a copy of the library folder whose other
  # files are links to the given ones.
  set(_made "")
  foreach(_arch IN LISTS _archs)
    string(REGEX MATCH "^gfx([0-9a-f]+)$" _m "${_arch}")
    set(_isa "${CMAKE_MATCH_1}")
    if(NOT _isa)
      message(FATAL_ERROR "offload-amdgcn: '${_arch}' is not an AMD GPU architecture (gfxNNN)")
    endif()
    if(NOT _libs OR EXISTS "${_libs}/oclc_isa_version_${_isa}.bc")
      continue()
    endif()
    if(NOT _rt OR NOT EXISTS "${_rt}/libomptarget-amdgpu-${_arch}.bc")
      message(FATAL_ERROR "offload-amdgcn cannot build for ${_arch}: neither the ROCm device "
                          "libraries in '${_libs}' (oclc_isa_version_${_isa}.bc) nor the compiler's "
                          "OpenMP device runtime (libomptarget-amdgpu-${_arch}.bc) know it")
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
    set(_libs "${_own}")
  endif()
  if(_libs)
    list(APPEND _flags --rocm-device-lib-path=${_libs})
  endif()
  # the HIP runtime (ROCm's, or Debian's libamdhip64-dev) for the device
  # query and the unified-memory check (docs/offload.md); off: HSA_XNACK decides
  option(GALE_HIP "offload-amdgcn: ask the HIP runtime about the AMD GPU" OFF)
  if(GALE_HIP)
    find_path(GALE_HIP_INCLUDE hip/hip_runtime_api.h HINTS ${_rocm} PATH_SUFFIXES include)
    find_library(GALE_HIP_LIBRARY amdhip64 HINTS ${_rocm} PATH_SUFFIXES lib lib64)
    if(NOT GALE_HIP_INCLUDE OR NOT GALE_HIP_LIBRARY)
      message(FATAL_ERROR "GALE_HIP=ON: no HIP runtime (hip/hip_runtime_api.h, libamdhip64) under "
                          "ROCM_PATH or the default paths; Debian 12: apt-get install libamdhip64-dev")
    endif()
    message(STATUS "offload-amdgcn: HIP runtime ${GALE_HIP_LIBRARY}")
  endif()
  _gale_ask(_lld -print-prog-name=ld.lld)
  execute_process(COMMAND ${_lld} --version OUTPUT_VARIABLE _lldv ERROR_QUIET)
  if(NOT _lldv MATCHES "LLD (1[5-9]|[2-9][0-9])")
    message(FATAL_ERROR "offload-amdgcn cannot build here: AMDGPU device code needs LLD >= 15 "
                        "next to ${CMAKE_C_COMPILER} ('${_lld}' is '${_lldv}'); Debian 12: "
                        "apt-get install lld-19")
  endif()
  if(NOT _libs)
    set(_libs "the compiler's own")
  endif()
  message(STATUS "offload-amdgcn: ${GALE_OFFLOAD_ARCH} + ${_host}; ROCm device libraries: ${_libs}")
else()
  message(FATAL_ERROR "GALE_OFFLOAD=${GALE_OFFLOAD}: not one of none, host, nvptx, amdgcn")
endif()
separate_arguments(_own_flags UNIX_COMMAND "${GALE_OFFLOAD_FLAGS}")
set(GALE_OFFLOAD_COMPILE ${_flags} ${_own_flags})

# clang's linker wrapper takes device images from an archive only when it
# is linked whole: without that the binary has no image and libomptarget is
# never initialised (omp_get_num_devices() crashes). The wrapper ignores
# --push-state/--pop-state (CMake's WHOLE_ARCHIVE feature), so whole-archive
# would leak onto its own device runtime archive: the plain on/off pair. Set
# here, at the top, so that every directory that links sees the feature.
set(CMAKE_C_LINK_LIBRARY_USING_GALE_WHOLE
    "LINKER:--whole-archive" "<LINK_ITEM>" "LINKER:--no-whole-archive")
set(CMAKE_C_LINK_LIBRARY_USING_GALE_WHOLE_SUPPORTED TRUE)

# every link: the device flags; the linker wrapper links the device images
# of two architectures side by side (offload-amdgcn's gale link: 115 s
# serial, 57 s with two jobs)
add_link_options(${GALE_OFFLOAD_COMPILE} "-Wl,-rpath,${GALE_OMPTARGET_DIR}"
                 "-Wl,--wrapper-jobs=2")
