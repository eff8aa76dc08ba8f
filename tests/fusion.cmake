# Fused groups (docs/fusion.md): a group gives its launches' bits one by one,
# on 1 and 2 ranks (exchanges of a stencil's input), and an illegal group is
# refused with a message that names the group, the kernels and the argument
# (tests/test_fuse.c).
add_executable(test_fuse test_fuse.c)
target_link_libraries(test_fuse PRIVATE gale_app m)
foreach(np 1 2)
  gale_mpi_test(fuse_np${np} ${np} $<TARGET_FILE:test_fuse>)
  set_tests_properties(fuse_np${np} PROPERTIES LABELS "unit;mpi")
endforeach()
