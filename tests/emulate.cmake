# [emulate] and the progress points (issue 43, docs/emulate.md), on C8 with
# few steps. Neither changes an answer: the same bits with emulation off, on
# (ARCHER2, 768 nodes x 32 ranks) and without progress points, on pipelined
# cg, whose sums overlap its preconditioner and operator.
gale_case(emulate_same_checksums "regression;mpi" same
  --variant "np=2"
  --variant "np=2 --emulate.machine=archer2 --emulate.nodes=768 --emulate.ranks_per_node=32"
  --variant "np=2 --halo.progress_points=false"
  -- ${DEFAULT_INI} --mesh.name=C8 --timestepping.steps=3 --solver.method=pipelined_cg
     --diagnostics.fields= ${QUIET})
# on: the report's comm.emulated, an 8-byte sum's time from ARCHER2's
# parameters by hand, and every sum (all blocking here: gcr, bicgstab, the
# diagnostics) waiting at least its modelled time; on one rank, where the
# real sum takes no time, so that only the emulated wait can meet it. The
# imposed wait of a sum is a difference of two clock readings (MPI_Wtime, in
# seconds since boot here: ~4e4 s, whose ulp is 7e-12 s), so each sum may fall
# short of its modelled time by a few ulps: 1e-9 s a sum allows clocks up to
# 4e6 s (46 days) and is 1e-5 of the 93 us modelled a sum
gale_case(emulate_report "regression;mpi" run --np 1
  --stdout "^emulate: +archer2, 768 nodes x 32 ranks"
  --check "(lambda e: (e['machine'], e['nodes'], e['ranks_per_node'], e['ranks']) == ('archer2', 768, 32, 24576))(r['comm']['emulated'])"
  --check "abs(r['comm']['emulated']['allreduce_8B_s'] - (10 * (0.260e-6 + 8 / 0.544e9) + 11 * (3.48e-6 + 8 / 0.280e9))) < 1e-15"
  --check "r['comm']['global_sums'] > 0 and r['comm']['global_sum_wait_s'] >= r['comm']['global_sums'] * (r['comm']['emulated']['allreduce_s_per_sum'] - 1e-9)"
  --check "r['comm']['emulated']['global_sum_wait_imposed_s'] >= r['comm']['global_sums'] * (r['comm']['emulated']['allreduce_s_per_sum'] - 1e-9)"
  -- ${DEFAULT_INI} --mesh.name=C8 --timestepping.steps=3 --diagnostics.fields=
     --emulate.machine=archer2 --emulate.nodes=768 --emulate.ranks_per_node=32 ${QUIET})
# a halo exchange's modelled time: 2 ranks on 768 nodes are on two nodes
# (every message pays the network's 2 us), on one node none does
gale_case(emulate_halo_off_node "regression;mpi" run --np 2
  --check "r['comm']['halo_exchanges'] > 0 and r['comm']['emulated']['halo_s_per_exchange'] >= 2e-6"
  -- ${DEFAULT_INI} --mesh.name=C8 --timestepping.steps=2 --diagnostics.fields=
     --emulate.machine=archer2 --emulate.nodes=768 --emulate.ranks_per_node=32 ${QUIET})
gale_case(emulate_halo_on_node "regression;mpi" run --np 2
  --check "r['comm']['halo_exchanges'] > 0 and 0.26e-6 < r['comm']['emulated']['halo_s_per_exchange'] < 2e-6"
  -- ${DEFAULT_INI} --mesh.name=C8 --timestepping.steps=2 --diagnostics.fields=
     --emulate.machine=archer2 --emulate.nodes=1 --emulate.ranks_per_node=128 ${QUIET})
# the progress points test the pending sums between kernel launches (and
# none when off); off by default, comm.emulated is null
gale_case(progress_points_on "regression;mpi" run --np 2
  --check "r['comm']['progress_points'] and r['comm']['progress_tests'] > 0"
  --check "r['comm']['emulated'] is None"
  -- ${DEFAULT_INI} --mesh.name=C8 --timestepping.steps=3 --solver.method=pipelined_cg
     --diagnostics.fields= ${QUIET})
gale_case(progress_points_off "regression;mpi" run --np 2
  --check "not r['comm']['progress_points'] and r['comm']['progress_tests'] == 0"
  --check "r['comm']['sums_done_at_progress_point'] == 0"
  -- ${DEFAULT_INI} --mesh.name=C8 --timestepping.steps=3 --solver.method=pipelined_cg
     --halo.progress_points=false --diagnostics.fields= ${QUIET})
# refused before the run, on every rank: a machine file that does not parse
# (its file and line), and a machine with fewer ranks than the run
gale_case(emulate_bad_machine_file "bad-input;mpi" run --np 2 --rc 2
  --stderr "command line: \\[emulate\\] machine = .*bad_machine.ini.: not a built-in machine \\(archer2, setonix\\) nor a machine file \\(docs/emulate.md\\): .*bad_machine.ini:3: unknown key 'latency'"
  -- ${DEFAULT_INI} --emulate.machine=${CMAKE_CURRENT_SOURCE_DIR}/data/bad_machine.ini)
gale_case(emulate_too_few_ranks "bad-input;mpi" run --np 2 --rc 2
  --stderr "\\[emulate\\] nodes = 1 with .*\\[emulate\\] ranks_per_node = 1: 1 ranks on the emulated machine, fewer than this run's 2"
  -- ${DEFAULT_INI} --emulate.machine=archer2 --emulate.nodes=1 --emulate.ranks_per_node=1)
# the waits of an oversubscribed node yield the core (docs/halo.md, "Waits"):
# 3 ranks, as many as a 2-core machine cannot hold; the report says which
# waits ran and on what node, and the rule holds whatever the machine
gale_case(waits_yield_rule "regression;mpi" run --np 3
  --check "r['comm']['node_ranks'] == 3 and r['comm']['node_cores'] > 0"
  --check "r['comm']['waits_yield'] == (3 * r['threads'] > r['comm']['node_cores'])"
  -- ${DEFAULT_INI} --mesh.name=C8 --timestepping.steps=2 --diagnostics.fields= ${QUIET})
# the reference state's mean takes its sums while the forcing and the first
# transport run (src/model/reference.c): with gcr, whose own sums all block,
# they are the only sums a progress point can test. LFRic's settings reset
# the reference every step; 53 values (50 levels) are 2 sums a reset, 2
# resets in 3 steps (the set-up's blocks): at least 4 tests, each counted
# whatever the timing, as a pending sum is tested until it completes. With
# each column's own reference there is no sum, and no test.
gale_case(reference_sums_overlap "regression;mpi" run --np 2
  --check "r['mixed_solver']['method'] == 'gcr' and r['comm']['progress_tests'] >= 4"
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gungho.nml --mesh.name=C8 --extrusion.levels=50
     --timestepping.steps=3 --mixed_solver.method=gcr --diagnostics.fields= ${QUIET})
gale_case(reference_column_no_sums "regression;mpi" run --np 2
  --check "r['mixed_solver']['method'] == 'gcr' and r['comm']['progress_tests'] == 0"
  -- ${PROJECT_SOURCE_DIR}/configs/lfric_gungho.nml --mesh.name=C8 --extrusion.levels=50
     --timestepping.steps=3 --mixed_solver.method=gcr --timestepping.reference_state=column
     --diagnostics.fields= ${QUIET})
