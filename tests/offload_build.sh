#!/bin/sh
# Configures and builds an offload preset's gale from the source tree into
# BUILD_DIR, for the offload tests of another build (tests/offload.cmake): a
# directory of that build's own, so that it never collides with the user's
# build/<preset> or with another build's tests running at the same time.
# offload-nvptx and offload-amdgcn: also checks that the binary carries its
# device images (sm_80 + sm_90, or gfx90a + gfx942) and the x86_64 one, and
# runs (here on the host image) under OMP_TARGET_OFFLOAD=MANDATORY. Without
# the CUDA toolkit's ptxas offload-nvptx exits 77, which CTest reports as
# skipped, with the reason. Further arguments go to CMake's configure (the
# suite builds offload-amdgcn with -DGALE_HIP=ON). With REF_EXE set, the
# host image's checksums of that run must equal REF_EXE's bit for bit.
# usage: offload_build.sh PRESET SOURCE_DIR BUILD_DIR [CMAKE_ARGS...]
set -eu
preset=$1
src=$2
bin=$3
shift 3
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
cmake --preset "$preset" -B "$bin" "$@" >"$log" 2>&1 || { cat "$log"; exit 1; }
cmake --build "$bin" --target gale -j "${GALE_BUILD_JOBS:-2}" >>"$log" 2>&1 || {
    grep -E "error|undefined reference" "$log" | head -20
    echo "(build log: $log)"
    exit 1
}
echo "$preset: gale built in $(($(date +%s) - start)) s in $bin (log: $log)"
case $preset in
offload-nvptx) want="arch sm_80|arch sm_90|triple x86_64-pc-linux-gnu" ;;
offload-amdgcn) want="arch gfx90a|arch gfx942|triple x86_64-pc-linux-gnu" ;;
*) exit 0 ;;
esac
images=$(llvm-objdump-19 --offloading "$bin/gale" | grep -E '^(arch|triple)' | tr -s ' ' | paste -sd' ')
echo "device images: $images"
IFS='|'
for w in $want; do
    case "$images" in *"$w"*) ;; *) echo "missing device image: $w"; exit 1 ;; esac
done
unset IFS
OMP_TARGET_OFFLOAD=MANDATORY OMP_NUM_THREADS=1 "$bin/gale" run configs/default.ini \
    --timestepping.steps=2 --diagnostics.fields= --logging.progress_every=0 >"$bin.run.log" 2>&1 ||
    { cat "$bin.run.log"; exit 1; }
grep -E "offload:" "$bin.run.log"
case " $* " in *" -DGALE_HIP=ON "*)
    grep -q "offload:   HIP runtime [0-9]" "$bin.run.log" ||
        { echo "GALE_HIP=ON but the start-up log has no HIP runtime line"; exit 1; } ;;
esac
# the host image's checksums equal the CPU build's (REF_EXE) bit for bit
sums() { grep -E '^  [a-z]+ +[0-9a-f]{16} ' "$1"; }
if [ -n "${REF_EXE:-}" ]; then
    OMP_NUM_THREADS=1 "$REF_EXE" run configs/default.ini --timestepping.steps=2 \
        --diagnostics.fields= --logging.progress_every=0 >"$bin.ref.log" 2>&1 ||
        { cat "$bin.ref.log"; exit 1; }
    [ -n "$(sums "$bin.run.log")" ] && [ "$(sums "$bin.run.log")" = "$(sums "$bin.ref.log")" ] || {
        echo "checksums differ from $REF_EXE:"; sums "$bin.run.log"; sums "$bin.ref.log"; exit 1; }
    echo "checksums equal $REF_EXE's bit for bit ($(sums "$bin.run.log" | wc -l) fields)"
fi
