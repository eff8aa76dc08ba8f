#!/bin/sh
# `cmake --install` of this build into a fresh prefix (docs/sites.md), in two
# parts, two tests:
#   gale    (install_gale): the tree it lays out, and the installed gale, run
#           by its path with no module system: its --version is the build's,
#           and it runs an installed configuration with the build's checksums;
#   module  (install_modulefile, after install_gale, on its prefix): the
#           modulefile under Lmod: `module load gale` puts that gale on PATH
#           and sets GALE_ROOT and GALE_CONFIGS, also after the prefix is
#           moved; `module unload` takes them away again. Without Lmod (not a
#           Debian 12 package here) this part alone exits 77, saying why.
# usage: check_install.sh SOURCE_DIR BUILD_DIR WORK_DIR gale|module
set -eu
src=$1
build=$2
work=$3
part=${4:-gale}
prefix=$work/prefix
ver=$("$build/gale" --version | sed -n 's/^gale //p')
sums() { # the checksums object of a report, one line
    tr -d ' \n' <"$1" | sed 's/.*"checksums":{\([^}]*\)}.*/\1/'
}
case_args="--timestepping.steps=3 --diagnostics.fields= --logging.progress_every=0"

if [ "$part" = gale ]; then
    rm -rf "$work"
    mkdir -p "$work"
    cmake --install "$build" --prefix "$prefix" >"$work/install.log"
    for f in bin/gale share/gale/configs/default.ini share/gale/configs/lfric_gungho.nml \
        share/doc/gale/README.md share/doc/gale/docs/sites.md share/modulefiles/gale/"$ver"; do
        [ -f "$prefix/$f" ] || { echo "FAIL: the install lacks $f"; exit 1; }
    done
    # shellcheck disable=SC2086
    (cd "$work" && OMP_NUM_THREADS=1 "$build/gale" run "$src/configs/default.ini" $case_args \
        --report build.json >build.log 2>&1) || { cat "$work/build.log"; exit 1; }
    # the installed gale by its path: no module system needed
    iver=$("$prefix/bin/gale" --version | sed -n 's/^gale //p')
    [ -n "$iver" ] && [ "$iver" = "$ver" ] ||
        { echo "FAIL: the installed gale --version says '$iver', the build's '$ver'"; exit 1; }
    # shellcheck disable=SC2086
    (cd "$work" && OMP_NUM_THREADS=1 "$prefix/bin/gale" run "$prefix/share/gale/configs/default.ini" \
        $case_args --report installed_path.json >installed_path.log 2>&1) ||
        { cat "$work/installed_path.log"; exit 1; }
    a=$(sums "$work/build.json")
    b=$(sums "$work/installed_path.json")
    [ -n "$a" ] && [ "$a" = "$b" ] ||
        { echo "FAIL: the installed gale's checksums differ: build {$a}, installed {$b}"; exit 1; }
    echo "installed gale $iver (by its path): checksums equal the build's: {$b}"
    exit 0
fi
[ -f "$work/build.json" ] && [ -x "$prefix/bin/gale" ] ||
    { echo "FAIL: no install in $work: install_gale runs first"; exit 1; }

# Lmod's shell set-up: where a login shell's Lmod says it is, else Debian's
lmod=${LMOD_PKG:-/usr/share/lmod/lmod}/init/sh
if [ ! -f "$lmod" ]; then
    echo "SKIPPED: no Lmod ($lmod): the modulefile is not checked" \
        "(Debian 12: apt-get install lmod); the installed gale itself is (install_gale)"
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
