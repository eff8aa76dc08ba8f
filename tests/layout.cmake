gale_test(test_mesh SOURCES test_mesh.c LIBS gale_layout LABELS unit)
