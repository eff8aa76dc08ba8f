# `gale iobench` tests (docs/iobench.md), driven by check_iobench.py on 2
# ranks with tiny sizes: the pattern x API table and its JSON/CSV, the
# sweeps, --keep with ncdump, and refused arguments.
set(GALE_IOBENCH_OUT ${CMAKE_CURRENT_BINARY_DIR}/iobench)
find_program(GALE_IOB_NCDUMP ncdump)
if(NOT GALE_IOB_NCDUMP)
  set(GALE_IOB_NCDUMP ncdump)
endif()
foreach(mode table sweeps badargs)
  add_test(NAME iobench_${mode}
           COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_iobench.py ${GALE_MPIEXEC}
                   ${GALE_EXE} ${GALE_IOBENCH_OUT} ${mode} ${GALE_IOB_NCDUMP})
  set_tests_properties(iobench_${mode} PROPERTIES LABELS mpi PROCESSORS 2 TIMEOUT 180)
endforeach()
set_tests_properties(iobench_badargs PROPERTIES LABELS "mpi;bad-input")

# gale iobench --ior-proxy (docs/iobench.md, "IOR proxies"): its phases
# against what runs of the same configuration write, in each [io] mode, and
# its checkpoint phase against the checkpoint files; refused arguments
add_test(NAME iobench_ior_proxy
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_ior_proxy.py ${GALE_MPIEXEC}
                 ${GALE_EXE} ${CMAKE_CURRENT_BINARY_DIR}/ior_proxy)
set_tests_properties(iobench_ior_proxy PROPERTIES LABELS "mpi;bad-input" PROCESSORS 2 TIMEOUT 300)
