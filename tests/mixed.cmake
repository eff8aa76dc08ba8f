# The consistent operator and the mixed solve (issue 17, docs/numerics.md).

# bit-identical checksums for any ranks, threads and halo strategy, with
# GungHo's solver settings (mixed gcr(4) over one multigrid V-cycle: the
# cheapest step; the kernels of the mixed system are the same whatever
# solves the Helmholtz problem, and the default's are in the offload tests)
gale_case(mixed_checksums_reproducible "regression;mpi" same
  --variant "np=1" --variant "np=2" --variant "np=3" --variant "np=5" --variant "np=6"
  --variant "np=1 threads=2" --variant "np=2 threads=2"
  --variant "np=2 --halo.overlap=false"
  --variant "np=3 --halo.redundant_computation=true --halo.depth=2"
  --variant "np=6 --partitioning.method=panel"
  -- ${DEFAULT_INI} --mesh.name=C12 --timestepping.steps=4 --solver.preconditioner=multigrid
     --solver.method=prec_only --multigrid.levels=3 ${QUIET})

# LFRic's own settings (mixed gcr(4) to 1e-4 over bicgstab + multigrid to
# 1e-4, 4 levels, the deep atmosphere; on C8 here, C8 -> C1, to keep it
# short): the same bits on 1, 2, 5, 6 ranks (3: deep_numbers, LFRic's example)
gale_case(mixed_lfric_reproducible "regression;mpi" same
  --variant "np=1" --variant "np=2" --variant "np=5" --variant "np=6"
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gravity_wave.nml --mesh.name=C8 --timestepping.steps=3
  --diagnostics.fields= ${QUIET})

# the progress line of prec_only, which computes no residual, says so (and
# prints no NaN); the report's residuals are null. Both levels prec_only,
# then the mixed gcr over a Helmholtz prec_only
gale_case(progress_prec_only "regression;mpi" run --np 2
  --count-stdout "^step +[123]/3 .*  mixed prec_only, residual not computed  prec_only: 1 V-cycle, residual not computed  dE/E0 " 3
  --no-stdout "(?i)\\bnan\\b"
  --check "r['solver']['final_residual'] is None and r['mixed_solver']['final_residual'] is None"
  -- ${DEFAULT_INI} --mesh.name=C12 --timestepping.steps=3 --solver.preconditioner=multigrid
     --solver.method=prec_only --multigrid.levels=3 --mixed_solver.method=prec_only
     --logging.progress_every=1 --diagnostics.fields=)
gale_case(progress_prec_only_helmholtz "regression;mpi" run --np 2
  --count-stdout "^step +[123]/3 .*  mixed it +[0-9]+  \\|r\\|/\\|b\\| [0-9]\\.[0-9][0-9]e-[0-9][0-9]  prec_only: 1 V-cycle, residual not computed  dE/E0 " 3
  --no-stdout "(?i)\\bnan\\b"
  --check "r['solver']['final_residual'] is None and r['mixed_solver']['final_residual'] > 0"
  -- ${DEFAULT_INI} --mesh.name=C12 --timestepping.steps=3 --solver.preconditioner=multigrid
     --solver.method=prec_only --multigrid.levels=3 --logging.progress_every=1 --diagnostics.fields=)

# mode convergence, energy, balance, LFRic's settings' global sums and
# accuracy, restart on another rank count, prec_only
add_test(NAME mixed_numbers
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_mixed.py ${GALE_MPIEXEC}
                 ${GALE_EXE})
set_tests_properties(mixed_numbers PROPERTIES LABELS "regression;mpi" TIMEOUT 500 PROCESSORS 2)
