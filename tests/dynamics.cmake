# The gravity-wave core (issue 3): each test asserts a number from a run.
set(GALE_CASE ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/gale_case.py --gale ${GALE_EXE}
    --mpiexec ${GALE_MPIEXEC})
set(DEFAULT_INI ${PROJECT_SOURCE_DIR}/configs/default.ini)
# the same case with its earlier inner solve, cg + tridiagonal to 1e-10 (the
# default has LFRic's bicgstab + multigrid to 1e-4): the tests of energy,
# balance, the Helmholtz solvers and the lumped operator, whose whole step is
# that solve, assert numbers that only a tight solve gives
set(TIGHT_INI ${PROJECT_SOURCE_DIR}/configs/default_tight.ini)
set(QUIET --logging.progress_every=0)
# the ranks, threads and halo strategies whose checksums must be bit-identical
# (C12 keeps the oversubscribed 6-rank runs short on a 2-core machine)
set(REPRODUCIBLE
  --variant "np=1" --variant "np=2" --variant "np=3" --variant "np=4" --variant "np=6"
  --variant "np=1 threads=2" --variant "np=2 threads=2"
  --variant "np=2 --halo.overlap=false"
  --variant "np=3 --halo.redundant_computation=true --halo.depth=2"
  --variant "np=4 --halo.redundant_computation=true --halo.depth=3 --halo.overlap=false"
  --variant "np=6 --partitioning.method=panel --halo.redundant_computation=true --halo.depth=2")
# ... and stays the default case but for that solve (no include in the INI
# reader, so it is a copy: this catches an edit made to one file only)
add_test(NAME tight_preset_matches_default
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_tight_preset.py ${GALE_EXE}
                 ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/tight_preset)
set_tests_properties(tight_preset_matches_default PROPERTIES LABELS "regression" TIMEOUT 120)
# the two-point operator with its exact elimination, for the tests of the
# Helmholtz solvers and of the step as it was before the consistent operator
set(LUMPED --dynamics.mass_matrix=lumped)
# a tight mixed solve (the energy tests, on TIGHT_INI): gcr to 1e-10 over cg + multigrid to 1e-11
set(TIGHT --mixed_solver.tolerance=1e-10 --mixed_solver.max_iterations=100
    --solver.preconditioner=multigrid --solver.tolerance=1e-11)

function(gale_case name labels)
  add_test(NAME ${name} COMMAND ${GALE_CASE} ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "${labels}" TIMEOUT 400)
endfunction()

# `make run`'s case: summary printed, the report has every contract key
gale_case(run_default "regression;mpi" run --np 2
  --stdout "== summary ==" --stdout "checksums \\(bits of sum\\(x\\*x\\)\\)" --stdout "figure of merit"
  --check "all(k in r for k in ['gale_version','build','config','ranks','threads','steps','wall_s','time_per_step_s','fom','checksums','energy','solver','timers','transfers'])"
  --check "all(k in r['build'] for k in ['compiler','flags','isa','offload','mpi','hdf5'])"
  --check "all(k in r['solver'] for k in ['method','preconditioner','iterations_total','iterations_mean','global_sums','converged','final_residual'])"
  --check "all(k in r['mixed_solver'] for k in ['method','gcrk','tolerance','iterations_total','iterations_mean','global_sums','converged','final_residual'])"
  --check "[l['level'] for l in r['solve_levels']] == ['mixed', 'helmholtz', 'multigrid C24', 'multigrid C12', 'multigrid C6', 'multigrid C3'] and r['config']['resolved']['dynamics']['mass_matrix'] == 'consistent'"
  --check "all(set(t) >= {'min_s','mean_s','max_s','count'} for t in r['timers'].values())"
  --check "r['config']['resolved']['mesh']['name'] == 'C24' and r['ranks'] == 2 and r['steps'] == 36"
  # LFRic's solver settings (configs/lfric_gravity_wave.nml, issue 28)
  --check "(lambda s: (s['method'], s['preconditioner'], s['tolerance'], s['max_iterations']) == ('bicgstab', 'multigrid', 1e-4, 100))(r['config']['resolved']['solver'])"
  --check "(lambda m: (m['method'], m['gcrk'], m['tolerance'], m['abs_tolerance'], m['max_iterations']) == ('gcr', 4, 1e-4, 1e-6, 20))(r['config']['resolved']['mixed_solver'])"
  # the checksums the README shows are this run's (a change of rounding must update them)
  --check "all(f'{k}  {v}' in open('${PROJECT_SOURCE_DIR}/README.md').read() for k, v in r['checksums'].items())"
  --check "all(len(v) == 16 for v in r['checksums'].values())"
  --check "r['solver']['converged'] and r['mixed_solver']['converged']"
  -- ${DEFAULT_INI})

# energy: Crank-Nicolson conserves it to the solver tolerance, with the
# consistent operator (the mixed solve; C8 keeps 360 tight steps short) ...
gale_case(energy_crank_nicolson "regression;mpi" run --np 2
  --check "abs(r['energy']['rel_change']) < 1e-9"
  -- ${TIGHT_INI} --mesh.name=C8 --timestepping.steps=360 ${TIGHT} ${QUIET})
# ... and off-centring only ever removes it
gale_case(energy_offcentred "regression;mpi" run --np 2
  --check "r['energy']['max_step_increase'] <= 0" --check "r['energy']['rel_change'] < 0"
  -- ${TIGHT_INI} --mesh.name=C8 --timestepping.alpha=0.6 --timestepping.steps=360 ${TIGHT} ${QUIET})
# the same with the lumped operator (its exact elimination, on C24)
gale_case(energy_crank_nicolson_lumped "regression;mpi" run --np 2
  --check "abs(r['energy']['rel_change']) < 1e-9"
  -- ${TIGHT_INI} --timestepping.steps=360 --solver.tolerance=1e-12 ${LUMPED} ${QUIET})
gale_case(energy_offcentred_lumped "regression;mpi" run --np 2
  --check "r['energy']['max_step_increase'] <= 0" --check "r['energy']['rel_change'] < 0"
  -- ${TIGHT_INI} --timestepping.alpha=0.6 --timestepping.steps=360 --solver.tolerance=1e-12
     ${LUMPED} ${QUIET})

foreach(mm consistent lumped)
  gale_case(balanced_state_${mm} "regression;mpi" run --np 2
    --check "r['max_u_over_run'] < 1e-12" --check "r['max_w_over_run'] < 1e-12"
    -- ${TIGHT_INI} --initial.case=balanced --timestepping.steps=100
       --dynamics.mass_matrix=${mm} ${QUIET})
endforeach()

# The deep atmosphere (docs/numerics.md, "The deep atmosphere": the layers
# as spherical shells, LFRic's gravity_wave geometry). Energy, in the shells'
# weights, as in flat columns: conserved by Crank-Nicolson to the solve's
# tolerance, only ever removed off-centred; with the lumped operator too
# (multigrid keeps its tight solves short); the balanced state stays at rest
set(DEEP --dynamics.shallow=false)
gale_case(energy_crank_nicolson_deep "regression;mpi" run --np 2
  --check "abs(r['energy']['rel_change']) < 1e-9"
  -- ${TIGHT_INI} --mesh.name=C8 --timestepping.steps=120 ${TIGHT} ${DEEP} ${QUIET})
gale_case(energy_offcentred_deep "regression;mpi" run --np 2
  --check "r['energy']['max_step_increase'] <= 0" --check "r['energy']['rel_change'] < 0"
  -- ${TIGHT_INI} --mesh.name=C8 --timestepping.alpha=0.6 --timestepping.steps=120 ${TIGHT}
     ${DEEP} ${QUIET})
gale_case(energy_crank_nicolson_lumped_deep "regression;mpi" run --np 2
  --check "abs(r['energy']['rel_change']) < 1e-9"
  -- ${TIGHT_INI} --mesh.name=C12 --timestepping.steps=120 --solver.tolerance=1e-12
     --solver.preconditioner=multigrid ${LUMPED} ${DEEP} ${QUIET})
gale_case(balanced_state_deep "regression;mpi" run --np 2
  --check "r['max_u_over_run'] < 1e-12" --check "r['max_w_over_run'] < 1e-12"
  -- ${TIGHT_INI} --initial.case=balanced --timestepping.steps=100 ${DEEP} ${QUIET})
# the normal modes against the deep atmosphere's own frequencies, the
# linear core against the nonlinear core's deep step, and LFRic's example
# as shipped (tests/check_deep.py)
add_test(NAME deep_numbers
         COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/check_deep.py ${GALE_MPIEXEC} ${GALE_EXE})
set_tests_properties(deep_numbers PROPERTIES LABELS "regression;mpi" TIMEOUT 500 PROCESSORS 2)
# bit-identical over threads, overlap and redundant computation, either
# operator over bicgstab + multigrid (every level's shells); rank counts 1-6
# are mixed_lfric_reproducible's (configs/lfric_gravity_wave.nml is deep) and
# deep_numbers' (LFRic's example on 1 and 2 ranks)
gale_case(deep_consistent_checksums_reproducible "regression;mpi" same
  --variant "np=1" --variant "np=2 threads=2 --halo.overlap=false"
  --variant "np=3 --halo.redundant_computation=true --halo.depth=2"
  -- ${DEFAULT_INI} --mesh.name=C12 --timestepping.steps=4 ${DEEP} ${QUIET})
gale_case(deep_lumped_checksums_reproducible "regression;mpi" same
  --variant "np=1" --variant "np=2 threads=2"
  --variant "np=4 --halo.redundant_computation=true --halo.depth=3 --halo.overlap=false"
  -- ${DEFAULT_INI} --mesh.name=C12 --timestepping.steps=4 ${LUMPED} ${DEEP} ${QUIET})
# every Helmholtz method and preconditioner solves the deep operator: the
# state of cg + tridiagonal within the bound of the flat tests below (10 x
# solves x 1e-10: 6 solves), energy kept; single precision to its tolerance;
# GungHo's one V-cycle inside the mixed solve, energy within 10 x 12 steps x
# its 1e-9
foreach(v "method=pipelined_cg" "method=bicgstab" "method=gcr" "preconditioner=none"
          "preconditioner=diagonal" "preconditioner=multigrid")
  string(REPLACE "=" "_" n ${v})
  gale_case(solver_${n}_deep "regression;mpi" against --np 2 "--ref=--solver.method=cg"
    --rel 6e-9 --energy 1e-9
    -- ${TIGHT_INI} --solver.${v} --timestepping.steps=6 --solver.max_iterations=5000
       ${LUMPED} ${DEEP} ${QUIET})
endforeach()
gale_case(solver_single_precision_deep "regression;mpi" run --np 2
  --check "r['solver']['converged'] and r['solver']['precision'] == 'single'"
  --check "abs(r['energy']['rel_change']) < 1e-4"
  -- ${TIGHT_INI} --solver.precision=single --solver.tolerance=1e-5 --timestepping.steps=12
     ${LUMPED} ${DEEP} ${QUIET})
gale_case(mixed_prec_only_deep "regression;mpi" run --np 2
  --check "r['mixed_solver']['converged'] and r['solver']['method'] == 'prec_only'"
  --check "abs(r['energy']['rel_change']) < 1.2e-7"
  -- ${DEFAULT_INI} --mesh.name=C12 --timestepping.steps=12 --solver.method=prec_only
     --solver.preconditioner=multigrid --mixed_solver.tolerance=1e-9
     --mixed_solver.max_iterations=60 ${DEEP} ${QUIET})

# the vertical mode: omega^2 = c^2 m^2 + N^2 within 1% at 10 levels, and the
# error of a second-order scheme falls 4x when the level count doubles; dt is
# small enough that Crank-Nicolson's phase error (~(omega dt)^2/12 = 1e-5)
# does not blur the ratio
gale_case(normal_mode_vertical regression mode --levels 10 20 --tol 0.01 --ratio 3.5 4.5
  -- --mesh.name=C2 --initial.case=normal_mode --initial.mode=vertical
     --timestepping.dt=0.1 --timestepping.steps=1800 ${QUIET})

# bit-identical checksums for any ranks, threads and halo strategy; the
# lumped operator with the default's bicgstab + multigrid here, the
# consistent one in mixed.cmake
gale_case(checksums_reproducible "regression;mpi" same ${REPRODUCIBLE}
  -- ${DEFAULT_INI} --mesh.name=C12 --timestepping.steps=4 ${LUMPED} ${QUIET})

# every Krylov method reaches cg's state on the default case (TIGHT_INI): 12 solves to a
# relative residual of 1e-10 leave the sums of squares of the prognostics
# within 10 x 12 x 1e-10 of cg's (measured: 5e-12 pipelined cg, 1.5e-9
# BiCGStab, 2.6e-9 GCR), and energy is kept as in energy_crank_nicolson; cg
# needs two global sums per iteration, pipelined cg one, bicgstab two; the
# lumped operator, whose step is one Helmholtz solve
gale_case(solver_cg "regression;mpi" run --np 2 --check "r['solver']['method'] == 'cg'"
  --check "abs(r['energy']['rel_change']) < 1e-9"
  -- ${TIGHT_INI} --solver.method=cg --timestepping.steps=12 ${LUMPED} ${QUIET})
foreach(m pipelined_cg bicgstab gcr)
  gale_case(solver_${m} "regression;mpi" against --np 2 "--ref=--solver.method=cg"
    --rel 1.2e-8 --energy 1e-9
    -- ${TIGHT_INI} --solver.method=${m} --timestepping.steps=12 ${LUMPED} ${QUIET})
endforeach()
gale_case(solver_sums_per_iteration "regression;mpi" run --np 2
  --check "r['solver']['global_sums'] <= 1.1 * r['solver']['iterations_total'] + 3 * r['solver']['solves']"
  -- ${TIGHT_INI} --solver.method=pipelined_cg --timestepping.steps=12 ${LUMPED} ${QUIET})
gale_case(solver_bicgstab_sums "regression;mpi" run --np 2
  --check "r['solver']['global_sums'] <= 2 * r['solver']['iterations_total']"
  -- ${TIGHT_INI} --solver.method=bicgstab --timestepping.steps=12 ${LUMPED} ${QUIET})
gale_case(solver_single_precision "regression;mpi" run --np 2
  --check "r['solver']['converged'] and r['solver']['precision'] == 'single'"
  --check "abs(r['energy']['rel_change']) < 1e-4"
  -- ${TIGHT_INI} --solver.precision=single --solver.tolerance=1e-5 --timestepping.steps=12
     ${LUMPED} ${QUIET})

# the tridiagonal preconditioner: iterations independent of the level count
# (within 20%), several times fewer than diagonal once the column is resolved
gale_case(preconditioner_levels regression precond --levels 10 40 120 --spread 0.2
  --compare-at 40 120 --factor 3
  -- ${TIGHT_INI} --timestepping.steps=3 --solver.max_iterations=5000 ${LUMPED} ${QUIET})

# LFRic users' namelist runs as it is, with all its solver settings
gale_case(run_lfric_namelist "regression" run
  --check "r['config']['resolved']['mesh']['name'] == 'C16' and r['steps'] == 36"
  --check "r['mixed_solver']['method'] == 'gcr' and r['mixed_solver']['gcrk'] == 4 and r['mixed_solver']['converged']"
  --check "r['solver']['method'] == 'bicgstab' and r['solver']['preconditioner'] == 'multigrid'"
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gravity_wave.nml ${QUIET})

# faults: a solve that does not converge stops every rank with its history
# (cg to 1e-10: bicgstab + multigrid to 1e-4 converges in one iteration) ...
gale_case(fault_not_converged "bad-input;mpi" run --np 2 --rc 6
  --stderr "did not converge in 3 iterations" --stderr "residual history"
  --count-stderr "^gale: error" 1
  -- ${TIGHT_INI} --solver.max_iterations=3)
# ... unless the user asked to carry on
gale_case(fault_not_converged_continue "regression;mpi" run --np 2
  --stderr "warning: cg did not converge" --check "not r['solver']['converged']"
  -- ${TIGHT_INI} --solver.max_iterations=3 --solver.fail_on_non_converged=false ${QUIET})
# ... and so does a mixed solve
gale_case(fault_mixed_not_converged "bad-input;mpi" run --np 2 --rc 6
  --stderr "the mixed gcr\\(4\\) did not converge in 2 iterations"
  --count-stderr "^gale: error" 1
  -- ${DEFAULT_INI} --mixed_solver.max_iterations=2)
gale_case(fault_mixed_not_converged_continue "regression;mpi" run --np 2
  --stderr "warning: mixed gcr did not converge" --check "not r['mixed_solver']['converged']"
  -- ${DEFAULT_INI} --timestepping.steps=2 --mixed_solver.max_iterations=2
     --mixed_solver.fail_on_non_converged=false ${QUIET})
# bad input: one message, the same non-zero status on every rank, no hang
gale_case(bad_key "bad-input;mpi" run --np 3 --rc 2 --stderr "unknown key \\[solver\\] tolerence. did you mean 'tolerance'"
  --count-stderr "^gale: error" 1 -- ${DEFAULT_INI} --solver.tolerence=1e-8)
gale_case(bad_config_file "bad-input;mpi" run --np 2 --rc 2 --stderr "cannot open configuration file '/nonexistent.ini'"
  --count-stderr "^gale: error" 1 -- /nonexistent.ini)
# a set-up that fails after the model's fields are allocated frees them and
# exits 2 (a GungHo namelist given the linear core's case)
gale_case(nml_setup_fails "bad-input" run --rc 2
  --stderr "equations = nonlinear runs case resting, normal_mode, dcmip31 or baroclinic_wave, not gravity_wave"
  --count-stderr "^gale: error" 1
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gungho.nml --initial.case=gravity_wave)
gale_case(bad_option "bad-input" run --rc 2 --stderr "unknown option '--bogus'" -- --bogus)
gale_case(bad_report_path "bad-input;mpi" run --np 2 --rc 2 --stderr "--report: cannot write '/nonexistent/r.json'"
  -- ${DEFAULT_INI} --report /nonexistent/r.json)
gale_case(bad_ranks "bad-input;mpi" run --np 7 --rc 2 --stderr "panel"
  -- ${DEFAULT_INI} --mesh.name=C2 --partitioning.method=panel --solver.preconditioner=tridiagonal)

# a NaN in a prognostic names the field, cell and level
add_executable(test_model_nan test_model_nan.c)
target_link_libraries(test_model_nan PRIVATE gale_app)
# (every rank exits 0 only when every rank's step returned GALE_ERR_NUMERIC;
# rank 0 prints the message once)
add_test(NAME fault_nan COMMAND ${GALE_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/ranks.py ${GALE_MPIEXEC} 2
  --rc 0 --stdout "^every rank stopped with GALE_ERR_NUMERIC$"
  --count-stderr "^gale: error: step 1: w is not finite at cell 100 \\(panel 2, i 4, j 4\\), level 3$" 1
  -- $<TARGET_FILE:test_model_nan>)
set_tests_properties(fault_nan PROPERTIES LABELS "bad-input;mpi" TIMEOUT 180 PROCESSORS 2)

# the Helmholtz operator is symmetric on a decomposed mesh (HPCG's TestSymmetry)
add_executable(test_helmholtz_sym test_helmholtz_sym.c)
target_link_libraries(test_helmholtz_sym PRIVATE gale_app m)
# on 1, 3 and 4 ranks, and x . A y the same bits on each (the couplings across
# ranks are all there)
# (and in the deep atmosphere's shells, whose factors change by level)
foreach(v "flat;true" "deep;false")
  list(GET v 0 name)
  list(GET v 1 shallow)
  set(t helmholtz_symmetric)
  if(name STREQUAL "deep")
    set(t helmholtz_symmetric_deep)
  endif()
  add_test(NAME ${t} COMMAND sh -c
    "set -e; for n in 1 3 4; do ${GALE_MPIEXEC} -n $n \"$0\" \"$2\" > \"$1.$n\"; cat \"$1.$n\"; done
     a=$(grep 'bits' \"$1.1\"); [ -n \"$a\" ]
     for n in 3 4; do [ \"$(grep 'bits' \"$1.$n\")\" = \"$a\" ] || { echo \"x.Ay differs on $n ranks\"; exit 1; }; done"
    $<TARGET_FILE:test_helmholtz_sym> ${CMAKE_CURRENT_BINARY_DIR}/${t} --dynamics.shallow=${shallow})
  set_tests_properties(${t} PROPERTIES LABELS "unit;mpi" PROCESSORS 2 TIMEOUT 120)
endforeach()
