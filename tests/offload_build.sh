#!/bin/sh
# Configures and builds an offload preset's gale from the source tree into
# BUILD_DIR, for the offload tests of another build (tests/offload.cmake): a
# directory of that build's own, so that it never collides with the user's
# build/<preset> or with another build's tests running at the same time.
# offload-nvptx: also checks that the binary carries sm_80, sm_90 and x86_64
# images and runs (here on the host image) under OMP_TARGET_OFFLOAD=MANDATORY;
# without the CUDA toolkit's ptxas it exits 77, which CTest reports as
# skipped, with the reason.
# usage: offload_build.sh PRESET SOURCE_DIR BUILD_DIR
set -eu
preset=$1
src=$2
bin=$3
if [ "$preset" = offload-nvptx ] && ! command -v ptxas >/dev/null 2>&1 &&
    [ ! -x /usr/local/cuda/bin/ptxas ] && [ ! -x "${CUDA_HOME:-/nonexistent}/bin/ptxas" ]; then
    echo "SKIPPED: offload-nvptx needs the CUDA toolkit's ptxas (not on PATH, in" \
        "/usr/local/cuda/bin or \$CUDA_HOME/bin) to assemble NVIDIA device code"
    exit 77
fi
cd "$src"
mkdir -p "$bin"
log=$bin.log
start=$(date +%s)
cmake --preset "$preset" -B "$bin" >"$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build "$bin" --target gale -j "${GALE_BUILD_JOBS:-2}" >>"$log" 2>&1 || {
    grep -E "error|undefined reference" "$log" | head -20
    echo "(build log: $log)"
    exit 1
}
echo "$preset: gale built in $(($(date +%s) - start)) s in $bin (log: $log)"
if [ "$preset" = offload-nvptx ]; then
    objdump=$(dirname "$(readlink -f "$(command -v clang-19)")")/llvm-objdump
    images=$("$objdump" --offloading "$bin/gale" | grep -E '^(arch|triple)' | tr -s ' ' | paste -sd' ')
    echo "device images: $images"
    for want in "arch sm_80" "arch sm_90" "triple x86_64-pc-linux-gnu"; do
        case "$images" in *"$want"*) ;; *) echo "missing device image: $want"; exit 1 ;; esac
    done
    OMP_TARGET_OFFLOAD=MANDATORY OMP_NUM_THREADS=1 "$bin/gale" run configs/default.ini \
        --timestepping.steps=2 --diagnostics.fields= --logging.progress_every=0 |
        grep -E "offload:|checksums"
fi
