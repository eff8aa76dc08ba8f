# halo tests: one executable, looping over meshes, partition methods and
# depths, run at each rank count of issue 2 (oversubscribed on small machines).
add_executable(test_halo test_halo.c)
target_include_directories(test_halo PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(test_halo PRIVATE gale_halo gale_layout gale_base MPI::MPI_C m)
foreach(np 1 2 3 4 6)
  gale_mpi_test(halo_np${np} ${np} $<TARGET_FILE:test_halo> 6 12)
endforeach()
gale_mpi_test(halo_np7 7 $<TARGET_FILE:test_halo> 5 6 12)
