#!/bin/bash
# The I/O benchmark on one node: the pattern x API table and the size sweep
# (write and read time against file size), plus the writers, transfer-size
# and MPI-IO hint sweeps. Results (the printed tables, CSV and JSON) go to
# bench/results/iobench-<date>/. Not a test: numbers depend on the machine.
#
# usage: bench/iobench.sh [RANKS] [BUILD_DIR]     (defaults: 2, build/cpu-gnu)
#   IOBENCH_DIR   where the benchmark files go (default: a directory under
#                 bench/results/, i.e. the file system of the checkout)
#   IOBENCH_BLOCK block per rank for the pattern table (default 64M)
#   IOBENCH_SIZES the size sweep (default 1M,4M,16M,64M,256M,1G)
set -euo pipefail
cd "$(dirname "$0")/.."
ranks=${1:-2}
build=${2:-build/cpu-gnu}
gale=$build/gale
mpiexec=${MPIEXEC:-$(command -v mpiexec.mpich || command -v mpiexec)}
block=${IOBENCH_BLOCK:-64M}
sizes=${IOBENCH_SIZES:-1M,4M,16M,64M,256M,1G}
out=bench/results/iobench-$(date +%Y%m%d-%H%M%S)
dir=${IOBENCH_DIR:-$out/files}
mkdir -p "$out"
[ -x "$gale" ] || { echo "no $gale: build first (cmake --build --preset cpu-gnu)" >&2; exit 2; }
export OMP_NUM_THREADS=1

run() { # name, iobench arguments...
    local name=$1
    shift
    echo "== $name: gale iobench $*" | tee -a "$out/summary.txt"
    "$mpiexec" -n "$ranks" "$gale" iobench --dir "$dir" --out "$out/$name" "$@" \
        | tee "$out/$name.txt" | tee -a "$out/summary.txt"
    echo | tee -a "$out/summary.txt"
}

{
    echo "gale iobench on $(hostname), $ranks ranks, $(date -Is)"
    "$gale" --version 2>/dev/null | head -3 || true
    echo "file system of the files: $(df -hT "$(dirname "$dir")" | tail -1)"
    echo
} | tee "$out/summary.txt"

# Every pattern with every API: iPIC3D-restart-like fpp (large transfers),
# field-like shared (64K collective transfers), aggregated (one writer per node).
run patterns --block "$block" --iterations 3
# Write and read time against file size, netCDF-4 layout, shared file.
run sizes --sizes="$sizes"
run sizes_mpiio --sizes="$sizes" --api mpiio --pattern shared,fpp
# Writers (aggregators), transfer sizes and MPI-IO hints.
run writers --sweep writers --block "$block" --iterations 3
run transfer --sweep transfer=16K,64K,256K,1M,4M,16M --block "$block" --iterations 3
run hints --sweep hints --block "$block" --iterations 3
rmdir "$dir" 2>/dev/null || true
echo "results: $out"
