# One offload test run (cmake -P; tests/offload.cmake defines the cases):
# runs gale under mpiexec and checks its JSON report.
#   EXE, NP, MPIEXEC, CONFIG, OUT (report file), ARGS (;-list of overrides)
#   POLICY      OMP_TARGET_OFFLOAD for the run (MANDATORY: falling back fails)
#   REF         reference report whose checksums must match bit for bit, or
#   REF_EXE     a binary run here with the same ARGS (REF_POLICY, default unset)
#   ZERO        transfer kinds (field, halo, reduction) that must be 0 per step
#   NONZERO     transfer kinds that must be > 0 per step
#   LOG         regular expression the log must match
cmake_minimum_required(VERSION 3.25)

function(gale_run exe policy report log_var)
  set(env OMP_NUM_THREADS=1)
  if(policy)
    list(APPEND env OMP_TARGET_OFFLOAD=${policy})
  else()
    list(APPEND env --unset=OMP_TARGET_OFFLOAD)
  endif()
  # output off: its files would collide between tests running at once, and
  # its host copies are field transfers
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${MPIEXEC} -n ${NP} ${exe} run ${CONFIG}
                          --diagnostics.fields= ${ARGS} --report ${report}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${exe} (OMP_TARGET_OFFLOAD=${policy}) failed (${rc}):\n${out}\n${err}")
  endif()
  set(${log_var} "${out}${err}" PARENT_SCOPE)
endfunction()

function(checksums report var)
  # every checksum the report has: u, w, b, p (theta, pi, rho for the
  # nonlinear core), and q in the advection cases
  file(READ ${report} j)
  set(s "")
  string(JSON n LENGTH "${j}" checksums)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON f MEMBER "${j}" checksums ${i})
    string(JSON v GET "${j}" checksums ${f})
    string(APPEND s "${f}=${v} ")
  endforeach()
  set(${var} "${s}" PARENT_SCOPE)
endfunction()

gale_run(${EXE} "${POLICY}" ${OUT} log)
if(LOG AND NOT log MATCHES "${LOG}")
  message(FATAL_ERROR "log does not match '${LOG}':\n${log}")
endif()

checksums(${OUT} got)
if(REF_EXE)
  string(REPLACE ".json" "_ref.json" REF ${OUT})
  gale_run(${REF_EXE} "${REF_POLICY}" ${REF} reflog)
endif()
if(REF)
  checksums(${REF} want)
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "checksums differ from ${REF}:\n  got  ${got}\n  want ${want}")
  endif()
  message(STATUS "checksums equal to ${REF}: ${got}")
endif()

file(READ ${OUT} j)
foreach(kind IN LISTS ZERO NONZERO)
  foreach(dir h2d d2h)
    string(JSON v GET "${j}" transfers ${kind}_${dir}_bytes_per_step)
    message(STATUS "transfers: ${kind} ${dir} ${v} bytes per step")
    if(kind IN_LIST ZERO AND NOT v EQUAL 0)
      message(FATAL_ERROR "${kind} ${dir} transfers are ${v} bytes per step, expected none")
    elseif(kind IN_LIST NONZERO AND NOT v GREATER 0)
      message(FATAL_ERROR "${kind} ${dir} transfers are ${v} bytes per step, expected some")
    endif()
  endforeach()
endforeach()
