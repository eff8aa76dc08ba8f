# The kernels' shared schedules on the CPU launch layer (kernels/gale_kbodies.h):
# the dot product's carry and its bit-identity with the offload layer's
# per-column path, the NaN search of maxabs, transport min/max.
gale_test(test_kdots SOURCES test_kdots.c LIBS gale_kernels_cpu LABELS unit)
