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

# pipelined_gcr (docs/numerics.md, "The mixed solve"): the recurrence
# against gcr on a small linear case solved to 1e-8 (9 iterations a solve:
# two restarts of gcr(4) each). In exact arithmetic the two make the same
# iterates, so the mean iterations agree within 0.5; each solve stops within
# the tolerance of its right-hand side, so the increments differ by at most
# about 2 tol of the increment and the state's sums of squares by less than
# 2 tol a step: 6 x 2e-8 (measured 4e-16); energy, conserved to the
# tolerance a step, within 6 x 1e-8 (measured -4.7e-9)
gale_case(mixed_pipelined_recurrence "regression" against --np 1
  "--ref=--mixed_solver.method=gcr" --rel 1.2e-7 --energy 6e-8 --iterations 0.5
  -- ${DEFAULT_INI} --mesh.name=C8 --timestepping.steps=6 --solver.preconditioner=multigrid
     --solver.method=prec_only --multigrid.levels=3 --mixed_solver.method=pipelined_gcr
     --mixed_solver.tolerance=1e-8 --mixed_solver.max_iterations=60 --diagnostics.fields= ${QUIET})
# ... and on GungHo's own settings (configs/lfric_gungho.nml: the nonlinear
# core, gcr(4) to 0.1 over one V-cycle) at C8 L10: iterations within 0.5 of
# gcr's, mass to round-off (tests/check_nonlinear.py's bound, 1e-13), the
# state within 1e-10 (a measured margin: the same iterates up to rounding,
# measured 4.5e-13, in w, whose sum of squares is smallest) ...
gale_case(mixed_pipelined_gungho "regression" against --np 1
  "--ref=--mixed_solver.method=gcr" --rel 1e-10 --mass 1e-13 --iterations 0.5
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gungho.nml --mesh.name=C8 --extrusion.levels=10
     --multigrid.levels=3 --timestepping.steps=12 --mixed_solver.method=pipelined_gcr
     --mixed_solver.monitor_convergence=false --diagnostics.fields= ${QUIET})
# ... with the same bits on any ranks and threads (its sums are gcr's
# reproducible ones; whether the applications are made ahead of a sum never
# changes them). Ranks and threads apart: 3 ranks x 2 threads on 2 cores
# takes this nonlinear case 100 s (measured 1x1 and 3x2 alike at C16 over
# 48 steps, docs/numerics.md)
gale_case(mixed_pipelined_reproducible "regression;mpi" same
  --variant "np=1" --variant "np=1 threads=2" --variant "np=3"
  --variant "np=2 --halo.overlap=false" --variant "np=1 --mixed_solver.lookahead=0"
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gungho.nml --mesh.name=C8 --extrusion.levels=10
     --multigrid.levels=3 --timestepping.steps=2 --mixed_solver.method=pipelined_gcr
     --mixed_solver.monitor_convergence=false --diagnostics.fields= ${QUIET})
# lookahead = 0 makes the applications ahead of every iteration's sum (all
# 33 overlapped on this case), and each solve's last pair goes unused (one
# per solve); the default (2) overlapped 23 and wasted 1 here
gale_case(mixed_pipelined_lookahead "regression" run --np 1
  --check "r['mixed_solver']['overlapped_sums'] == r['mixed_solver']['iterations_total'] > 0"
  --check "r['mixed_solver']['unused_applications'] == r['mixed_solver']['solves'] > 0"
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gungho.nml --mesh.name=C8 --extrusion.levels=10
     --multigrid.levels=3 --timestepping.steps=2 --mixed_solver.method=pipelined_gcr
     --mixed_solver.lookahead=0 --mixed_solver.monitor_convergence=false --diagnostics.fields= ${QUIET})
# refused over a Krylov Helmholtz solve (a nonlinear preconditioner), on
# every rank, naming both keys
gale_case(mixed_pipelined_needs_linear "bad-input;mpi" run --np 2 --rc 2
  --stderr "command line: \\[mixed_solver\\] method = pipelined_gcr with .*default.ini:[0-9]+: \\[solver\\] method = bicgstab: pipelined_gcr .* needs a linear preconditioner: \\[solver\\] method = prec_only"
  -- ${DEFAULT_INI} --mixed_solver.method=pipelined_gcr)

# LFRic's 32-bit solver ([solver] precision = single under the consistent
# operator, docs/numerics.md "The mixed solve in single precision"): the
# whole mixed solve in float, the model's state double. Against double, on
# GungHo's settings at C8 L10, 12 steps: the same mean iterations (float
# rounding, 1e-7 relative, is far below the solve's 0.1), mass to round-off,
# not the same bits (the float path ran), and the state within 1e-3: a
# measured margin, 30x the 3.3e-5 measured (in w, the smallest sums of
# squares); the tolerance argument below gives nothing at a tolerance of 0.1
gale_case(mixed_single_gungho "regression" against --np 1
  "--ref=--solver.precision=double" --rel 1e-3 --differ --mass 1e-13 --iterations 0
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gungho.nml --mesh.name=C8 --extrusion.levels=10
     --multigrid.levels=3 --timestepping.steps=12 --solver.precision=single
     --mixed_solver.monitor_convergence=false --diagnostics.fields= ${QUIET})
# ... the linear core, whose solve adds its increment to the state itself.
# gcr and pipelined_gcr stop within the tolerance (1e-4) of their right-hand
# side in both precisions, so the increments differ by at most about 2 tol of
# the increment and the state's sums of squares by less than 2 tol a step:
# 6 x 2e-4 (measured 8.9e-8 and 1.8e-7)
foreach(m gcr pipelined_gcr)
  gale_case(mixed_single_linear_${m} "regression" against --np 1
    "--ref=--solver.precision=double" --rel 1.2e-3 --differ --iterations 0
    -- ${DEFAULT_INI} --mesh.name=C12 --timestepping.steps=6 --solver.preconditioner=multigrid
       --solver.method=prec_only --multigrid.levels=3 --solver.precision=single
       --mixed_solver.method=${m} --diagnostics.fields= ${QUIET})
endforeach()
# prec_only has no tolerance: one float application of P a step, its
# difference the float rounding carried through the steps; 1e-5 is a
# measured margin (16x the 6.2e-7 measured)
gale_case(mixed_single_linear_prec_only "regression" against --np 1
  "--ref=--solver.precision=double" --rel 1e-5 --differ --iterations 0
  -- ${DEFAULT_INI} --mesh.name=C12 --timestepping.steps=6 --solver.preconditioner=multigrid
     --solver.method=prec_only --multigrid.levels=3 --solver.precision=single
     --mixed_solver.method=prec_only --diagnostics.fields= ${QUIET})
# ... the same bits on any ranks and threads (float columns, exact sums)
gale_case(mixed_single_reproducible "regression;mpi" same
  --variant "np=1" --variant "np=3" --variant "np=1 threads=2" --variant "np=2 --halo.overlap=false"
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gungho.nml --mesh.name=C8 --extrusion.levels=10
     --multigrid.levels=3 --timestepping.steps=3 --solver.precision=single
     --mixed_solver.monitor_convergence=false --diagnostics.fields= ${QUIET})
gale_case(mixed_single_report "regression" run --np 1
  --check "r['mixed_solver']['precision'] == 'single' and r['solver']['precision'] == 'single'"
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gungho.nml --mesh.name=C8 --extrusion.levels=10
     --multigrid.levels=3 --timestepping.steps=1 --solver.precision=single
     --mixed_solver.monitor_convergence=false --diagnostics.fields= ${QUIET})
