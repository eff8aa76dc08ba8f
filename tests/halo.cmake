# halo tests
