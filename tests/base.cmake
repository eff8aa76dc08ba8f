# The MPI part of base/ (gale_base_mpi): min/mean/max over ranks with the bits
# of the reductions it replaced, and the error agreement, on 1 and 3 ranks.
add_executable(test_base_mpi test_base_mpi.c)
target_include_directories(test_base_mpi PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_base_mpi PRIVATE gale_base_mpi m)
foreach(np 1 3)
  gale_mpi_test(base_mpi_np${np} ${np} $<TARGET_FILE:test_base_mpi>)
endforeach()
# The network model of an emulated machine (docs/emulate.md), serial: a sum's
# modelled time from the parameters, the fit against ARCHER2's measurements,
# halo messages, emulated steps with and without polls, the shipped machine
# files (configs/emulate/) and bad ones.
add_executable(test_netmodel test_netmodel.c)
target_include_directories(test_netmodel PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_netmodel PRIVATE gale_base m)
add_test(NAME netmodel COMMAND test_netmodel ${PROJECT_SOURCE_DIR}/configs/emulate)
set_tests_properties(netmodel PROPERTIES LABELS "unit;bad-input" TIMEOUT 60)
