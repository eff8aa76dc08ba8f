gale_test(test_mesh SOURCES test_mesh.c LIBS gale_layout LABELS unit)
gale_test(test_partition SOURCES test_partition.c LIBS gale_layout LABELS unit)
gale_test(test_local SOURCES test_local.c LIBS gale_layout LABELS unit)
gale_test(test_partition_stats SOURCES test_partition_stats.c LIBS gale_layout LABELS unit)
gale_test(test_chain SOURCES test_chain.c LIBS gale_layout LABELS unit)
gale_test(test_mfd SOURCES test_mfd.c LIBS gale_layout LABELS unit)
# layout's unit tests: they link no MPI (test layers_no_mpi, tests/layers.cmake)
set(GALE_LAYOUT_UNIT_TESTS test_mesh test_partition test_local test_partition_stats test_chain test_mfd)

# `gale partition` on the paper's configuration: well under a minute on one
# core, and the JSON holds every key with numbers that agree with each other
# (6 * 1024^2 / 24576 = 256 cells per rank exactly).
add_test(NAME partition_c1024_json COMMAND ${GALE_PYTHON} -c [=[
import json, subprocess, sys
d = json.loads(subprocess.run(sys.argv[1:], check=True, capture_output=True, text=True).stdout)
keys = ["mesh", "levels", "ranks", "method", "halo_depth", "owned", "halo_cells", "halo_edges",
        "neighbours", "halo_bytes_cell", "halo_bytes_edge", "imbalance",
        "messages_per_exchange", "seconds"]
missing = [k for k in keys if k not in d]
assert not missing, f"missing keys {missing}"
assert (d["mesh"], d["levels"], d["ranks"], d["method"], d["halo_depth"]) == ("C1024", 120, 24576, "sfc", 2), d
assert d["owned"] == {"min": 256, "mean": 256, "max": 256}, d["owned"]
assert d["imbalance"] == 0, d["imbalance"]
assert sorted(d["halo_cells"]) == ["1", "2"], d["halo_cells"]
halo = d["halo_cells"]["1"]["mean"] + d["halo_cells"]["2"]["mean"]
assert abs(d["halo_bytes_cell"]["mean"] - halo * 120 * 8) < 1e-3 * halo, d["halo_bytes_cell"]
assert abs(d["halo_bytes_edge"]["mean"] - d["halo_edges"]["mean"] * 120 * 8) < 1, d["halo_bytes_edge"]
assert 3 <= d["neighbours"]["min"] <= d["neighbours"]["max"] <= 24, d["neighbours"]
assert d["messages_per_exchange"] >= 3 * 24576, d["messages_per_exchange"]
print(json.dumps(d, indent=1))
]=] ${GALE_EXE} partition --mesh C1024 --levels 120 --ranks 24576 --halo-depth 2 --json)
set_tests_properties(partition_c1024_json PROPERTIES LABELS unit TIMEOUT 60)

# The table: C4 on 6 panel ranks is one panel each (16 cells, a halo of 4N = 16).
gale_expect_test(partition_table unit
  "owned cells +16 +16.00 +16\n +halo cells at depth 1 +16 +16.00 +16\n"
  ${GALE_EXE} partition --mesh C4 --levels 10 --ranks 6 --method panel)
gale_expect_test(partition_help unit "usage: gale partition" ${GALE_EXE} partition --help)

# gale_partition_bad(NAME REGEX ARGS...): `gale partition ARGS` exits with
# status 2 and one line on stderr matching REGEX.
function(gale_partition_bad name regex)
  add_test(NAME ${name} COMMAND ${GALE_PYTHON} -c [=[
import re, subprocess, sys
p = subprocess.run(sys.argv[2:], capture_output=True, text=True)
lines = p.stderr.strip().splitlines()
assert p.returncode == 2, f"exit status {p.returncode}, stderr: {p.stderr}"
assert len(lines) == 1 and re.search(sys.argv[1], lines[0]), f"stderr: {p.stderr}"
print(lines[0])
]=] ${regex} ${GALE_EXE} partition ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS bad-input)
endfunction()

gale_partition_bad(partition_bad_option "unknown option '--rank'" --mesh C4 --levels 10 --rank 4)
gale_partition_bad(partition_bad_missing_value "--ranks needs a value" --mesh C4 --levels 10 --ranks)
gale_partition_bad(partition_bad_missing_ranks "missing --ranks" --mesh C4 --levels 10)
gale_partition_bad(partition_bad_mesh_c0 "--mesh 'C0': expected C<N>" --mesh C0 --levels 10 --ranks 4)
gale_partition_bad(partition_bad_mesh_x12 "--mesh 'X12': expected C<N>" --mesh X12 --levels 10 --ranks 4)
gale_partition_bad(partition_bad_levels "--levels '0': must be" --mesh C4 --levels 0 --ranks 4)
gale_partition_bad(partition_bad_ranks_negative "--ranks '-3': must be" --mesh C4 --levels 10 --ranks -3)
gale_partition_bad(partition_bad_ranks_too_many "--ranks '9999999': must be between 1 and 96 for C4"
                   --mesh C4 --levels 10 --ranks 9999999)
gale_partition_bad(partition_bad_depth0 "--halo-depth '0': must be 1, 2 or 3" --mesh C4 --levels 10 --ranks 4 --halo-depth 0)
gale_partition_bad(partition_bad_depth4 "--halo-depth '4': must be 1, 2 or 3" --mesh C4 --levels 10 --ranks 4 --halo-depth=4)
gale_partition_bad(partition_bad_method "--method 'metis': allowed are sfc and panel" --mesh C4 --levels 10 --ranks 4 --method metis)
gale_partition_bad(partition_bad_panel_count "5 ranks is not 1 or a multiple of 6.*sfc" --mesh C4 --levels 10 --ranks 5 --method panel)

# --multigrid: the nested partition of a multigrid run. C48 with 4 levels
# partitions C6 (216 cells): 30 or 31 coarsest cells of 64 fine cells each on
# 7 ranks, where the one-level partition balances to 1974 or 1975.
add_test(NAME partition_multigrid_json COMMAND ${GALE_PYTHON} -c [=[
import json, subprocess, sys
run = lambda *a: json.loads(subprocess.run([sys.argv[1], "partition", "--mesh", "C48", "--levels", "30",
                                            "--ranks", "7", "--json", *a], check=True,
                                           capture_output=True, text=True).stdout)
mg, one = run("--multigrid", "4"), run()
assert mg["multigrid_levels"] == 4 and one["multigrid_levels"] == 1, (mg, one)
assert mg["owned"]["min"] == 30 * 64 and mg["owned"]["max"] == 31 * 64, mg["owned"]
assert one["owned"]["min"] == 1974 and one["owned"]["max"] == 1975, one["owned"]
print("nested:", mg["owned"], "one level:", one["owned"])
]=] ${GALE_EXE})
set_tests_properties(partition_multigrid_json PROPERTIES LABELS unit TIMEOUT 60)
gale_partition_bad(partition_multigrid_too_many_ranks "the coarsest level C1 has 6 cells, fewer than the 7 ranks"
  --mesh C4 --levels 10 --ranks 7 --multigrid 3)
