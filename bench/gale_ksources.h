/* The model configurations whose first launches, together, reach every
 * kernel row (each in every precision it has): gale_kbench measures them
 * (bench/gale_kbench.c) and CTest kernel_counts counts them
 * (tests/test_kcount.c, which adds a few more). One list, so that a row
 * one of them starts to launch is measured and counted alike. */
#ifndef GALE_KSOURCES_H
#define GALE_KSOURCES_H

typedef struct {
    const char *name;
    const char *config; /* a file of configs/, or NULL: the built-in defaults */
    const char *ov[4];  /* command-line overrides, NULL-terminated */
} gale_ksource_t;

#define GALE_KSOURCES                                                                      \
    {"lumped", NULL, {"--dynamics.mass_matrix=lumped"}}, {"consistent", NULL, {NULL}},     \
        {"multigrid", NULL, {"--solver.preconditioner=multigrid"}},                        \
        {"diagonal", NULL, {"--solver.preconditioner=diagonal"}},                          \
        {"single_diagonal", NULL, {"--solver.precision=single", "--solver.preconditioner=diagonal"}}, \
        {"single_tridiagonal", NULL, {"--solver.precision=single"}},                       \
        {"single_multigrid",                                                               \
         NULL,                                                                             \
         {"--solver.precision=single", "--solver.preconditioner=multigrid"}},              \
        {"nonlinear", "baroclinic_wave.ini", {"--solver.method=prec_only"}},               \
        {"nonlinear_double",                                                               \
         "baroclinic_wave.ini",                                                            \
         {"--solver.method=prec_only", "--solver.precision=double"}},                      \
        {"vector_invariant",                                                               \
         "baroclinic_wave.ini",                                                            \
         {"--solver.method=prec_only", "--dynamics.vector_invariant=true",                 \
          "--dynamics.grid_damping=0.25"}},                                                \
        {"deep", "baroclinic_wave.ini", {"--solver.method=prec_only", "--dynamics.shallow=false"}}, \
        {"transport", "deformational.ini", {NULL}}

#endif
