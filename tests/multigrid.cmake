# Geometric multigrid (issue 16, docs/multigrid.md).
set(MG --solver.preconditioner=multigrid)

# bit-identical checksums for any ranks, threads and halo strategy; C12 with
# 3 levels (C12, C6, C3) on up to 7 ranks: 54 coarsest cells, nested below
# (the lumped operator; multigrid inside the mixed solve: mixed.cmake). cg
# over the V-cycle (TIGHT_INI): the default's bicgstab is checksums_reproducible's
gale_case(multigrid_checksums_reproducible "regression;mpi" same
  --variant "np=1" --variant "np=2" --variant "np=3" --variant "np=5" --variant "np=6"
  --variant "np=7" --variant "np=1 threads=2" --variant "np=2 threads=2"
  --variant "np=2 --halo.overlap=false"
  --variant "np=3 --halo.redundant_computation=true --halo.depth=2"
  --variant "np=6 --partitioning.method=panel"
  -- ${TIGHT_INI} --mesh.name=C12 --timestepping.steps=3 ${MG} --multigrid.levels=3 ${LUMPED} ${QUIET})

# the same solution as cg + tridiagonal (12 solves to 1e-10), energy kept
# (the lumped operator: its step is one Helmholtz solve; TIGHT_INI's cg to 1e-10)
gale_case(multigrid_cg_state "regression;mpi" against --np 2 "--ref=--solver.preconditioner=tridiagonal"
  --rel 1.2e-8 --energy 1e-9
  -- ${TIGHT_INI} ${MG} --timestepping.steps=12 ${LUMPED} ${QUIET})

# convergence factors, global sums, the other methods, prec_only, levels
add_test(NAME multigrid_numbers
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_multigrid.py ${GALE_MPIEXEC}
                 ${GALE_EXE} $<TARGET_FILE:gale_kbench>)
set_tests_properties(multigrid_numbers PROPERTIES LABELS "regression;mpi" TIMEOUT 400 PROCESSORS 2)

# the V-cycle is a symmetric positive definite operator, as cg needs, and
# the same bits on 1, 3 and 7 ranks
add_executable(test_mg_sym test_mg_sym.c)
target_link_libraries(test_mg_sym PRIVATE gale_app m)
add_test(NAME multigrid_symmetric COMMAND sh -c
  "set -e; for n in 1 3 7; do ${GALE_MPIEXEC} -n $n \"$0\" > \"$1.$n\"; cat \"$1.$n\"; done
   a=$(grep 'bits' \"$1.1\"); [ -n \"$a\" ]
   for n in 3 7; do [ \"$(grep 'bits' \"$1.$n\")\" = \"$a\" ] || { echo \"x.My differs on $n ranks\"; exit 1; }; done"
  $<TARGET_FILE:test_mg_sym> ${CMAKE_CURRENT_BINARY_DIR}/mg_sym)
set_tests_properties(multigrid_symmetric PROPERTIES LABELS "unit;mpi" PROCESSORS 2 TIMEOUT 120)

# the coarsest level needs a cell per rank: C4 with 3 levels has C1 (6 cells)
gale_case(multigrid_too_many_ranks "bad-input;mpi" run --np 7 --rc 2
  --stderr "the coarsest level C1 has 6 cells, fewer than the 7 ranks"
  --count-stderr "^gale: error" 1
  -- ${DEFAULT_INI} --mesh.name=C4 ${MG} --multigrid.levels=3)
gale_case(multigrid_prec_only_needs_mg "bad-input" run --rc 2 --stderr "prec_only"
  -- ${DEFAULT_INI} --solver.method=prec_only --solver.preconditioner=tridiagonal)
