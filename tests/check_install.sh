#!/bin/sh
# `cmake --install` of this build into a fresh prefix (docs/sites.md): the
# tree it lays out, the installed gale running an installed configuration
# with the build's checksums, and its modulefile under Lmod: `module load
# gale` puts that gale on PATH and sets GALE_ROOT and GALE_CONFIGS, also
# after the prefix is moved; `module unload` takes them away again.
# Without Lmod (not a Debian 12 package here) the module part exits 77.
# usage: check_install.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -eu
src=$1
build=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
ver=$("$build/gale" --version | sed -n 's/^gale //p')
for f in bin/gale share/gale/configs/default.ini share/gale/configs/lfric_gungho.nml \
    share/doc/gale/README.md share/doc/gale/docs/sites.md share/modulefiles/gale/"$ver"; do
    [ -f "$prefix/$f" ] || { echo "FAIL: the install lacks $f"; exit 1; }
done

sums() { # the checksums object of a report, one line
    tr -d ' \n' <"$1" | sed 's/.*"checksums":{\([^}]*\)}.*/\1/'
}
case_args="--timestepping.steps=3 --diagnostics.fields= --logging.progress_every=0"
# shellcheck disable=SC2086
(cd "$work" && OMP_NUM_THREADS=1 "$build/gale" run "$src/configs/default.ini" $case_args \
    --report build.json >build.log 2>&1) || { cat "$work/build.log"; exit 1; }

# Lmod's shell set-up: where a login shell's Lmod says it is, else Debian's
lmod=${LMOD_PKG:-/usr/share/lmod/lmod}/init/sh
if [ ! -f "$lmod" ]; then
    echo "SKIPPED: no Lmod ($lmod): the modulefile is not checked" \
        "(Debian 12: apt-get install lmod)"
    exit 77
fi
# Lmod's init reads unset variables
set +u
# shellcheck disable=SC1090
. "$lmod"
module use "$prefix/share/modulefiles"
module load gale
set -u
[ "$(command -v gale || true)" = "$prefix/bin/gale" ] ||
    { echo "FAIL: after module load gale, gale is '$(command -v gale || true)', not $prefix/bin/gale"; exit 1; }
[ "$GALE_CONFIGS" = "$prefix/share/gale/configs" ] || { echo "FAIL: GALE_CONFIGS=$GALE_CONFIGS"; exit 1; }
# shellcheck disable=SC2086
(cd "$work" && OMP_NUM_THREADS=1 gale run "$GALE_CONFIGS/default.ini" $case_args \
    --report installed.json >installed.log 2>&1) || { cat "$work/installed.log"; exit 1; }
a=$(sums "$work/build.json")
b=$(sums "$work/installed.json")
[ -n "$a" ] && [ "$a" = "$b" ] ||
    { echo "FAIL: the installed gale's checksums differ: build {$a}, installed {$b}"; exit 1; }
echo "installed gale: checksums equal the build's: {$b}"
set +u
module unload gale
set -u
if command -v gale >/dev/null 2>&1 && [ "$(command -v gale || true)" = "$prefix/bin/gale" ]; then
    echo "FAIL: module unload gale left $prefix/bin on PATH"
    exit 1
fi
# a moved install: the modulefile finds its prefix from its own place
mv "$prefix" "$work/moved"
set +u
module use "$work/moved/share/modulefiles"
module load gale
set -u
[ "$(command -v gale || true)" = "$work/moved/bin/gale" ] && [ "$GALE_ROOT" = "$work/moved" ] ||
    { echo "FAIL: the moved install's module gives gale '$(command -v gale || true)', GALE_ROOT $GALE_ROOT"; exit 1; }
gale --version >/dev/null
echo "moved install: module load gale gives $GALE_ROOT"
