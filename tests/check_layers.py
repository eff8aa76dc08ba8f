#!/usr/bin/python3
"""The layer rules of gale's source tree (README "Source tree").

  check_layers.py includes SOURCE_DIR
      Every `#include "..."` of a .c or .h file names a header of its own
      folder or of a folder RULES lets it include. A header is found as the
      compiler finds it: next to the including file first, then in the
      folders of the table. Violations are printed as file:line with the rule.
      base/ (but for its MPI part) and layout/ include no mpi.h.
  check_layers.py psy SOURCE_DIR
      The science (src/ and solver/) leaves halos, loop ranges and parallel
      calls to the PSy layer (docs/architecture.md): no halo validity, no
      halo/ call, no launch-layer call but the run's description
      (gale_k_name, gale_k_transfers), no range of the local numbering
      (ncell[], nedge[], nedge_owned, ncell_inner); and no MPI call in
      solver/ and src/model/ but MPI_Comm_rank/MPI_Comm_size. Comments and
      strings do not count.
  check_layers.py no-mpi FILE...
      Each library (.a) and executable has no MPI_ or PMPI_ symbol, undefined
      or defined (nm), and each executable loads no MPI library (ldd): the
      serial base and layout/ with its unit tests link no MPI.

Exit 0 when every rule holds, 1 with every violation named.
"""
import os
import re
import subprocess
import sys

# ---- the rules, in one place ----
# folder -> the other folders whose headers it may include (ANY: every folder).
# Everything not listed for a folder is forbidden; in particular no file
# outside src/, tests/ and bench/ includes a header of src/.
ANY = None
RULES = {
    "base": [],  # below everything: nothing of gale
    "layout": ["base"],
    "kernels": ["layout", "base"],
    "kernels_cpu": ["kernels", "layout", "base"],
    "kernels_offload": ["kernels", "layout", "base"],
    "halo": ["layout", "base"],
    "psy": ["kernels", "halo", "layout", "base"],
    "solver": ["psy", "kernels", "layout", "base", "halo"],
    "io": ["layout", "base"],
    "src": ANY,
    "tests": ANY,
    "bench": ANY,
}
# folders that may not exist (yet); every other folder of RULES must
OPTIONAL = set()
# MPI-free folders: no file includes mpi.h, but for the files named (the
# MPI part of base/, library gale_base_mpi)
MPI_FREE = {"base": {"base_mpi.c", "gale_base_mpi.h"}, "layout": set()}
# Known violations that cannot be fixed where they are found yet, as
# (file, header): printed, not failed. To be emptied; a stale entry is
# reported so that it gets removed.
KNOWN_VIOLATIONS_TO_FIX = set()

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
INCLUDE_MPI = re.compile(r'^\s*#\s*include\s*[<"]mpi\.h[>"]')


def folder_of(root, path):
    return os.path.relpath(path, root).split(os.sep)[0]


def sources(root, folder):
    for d, _, files in os.walk(os.path.join(root, folder)):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.join(d, f)


def resolve(root, folders, src, header):
    """The folders that hold the header an include in src names."""
    here = os.path.normpath(os.path.join(os.path.dirname(src), header))
    if os.path.isfile(here):
        return [folder_of(root, here)]
    # a folder's headers may sit in its subfolders (src/app, src/model, ...)
    return [f for f in folders
            if any(os.path.isfile(os.path.join(d, header))
                   for d, _, _ in os.walk(os.path.join(root, f)))]


def rule_text(folder):
    allowed = RULES[folder]
    if allowed == []:
        return f"{folder}/ includes nothing of gale but its own headers"
    return f"{folder}/ may include {', '.join(a + '/' for a in allowed)} and its own headers"


def includes(root):
    problems, known = [], set()
    folders = []
    for f in RULES:
        if os.path.isdir(os.path.join(root, f)):
            folders.append(f)
        elif f not in OPTIONAL:
            problems.append(f"{f}/: folder of the rule table is missing (renamed? update RULES)")
    nfiles = 0
    for folder in folders:
        allowed = RULES[folder]
        for src in sources(root, folder):
            nfiles += 1
            rel = os.path.relpath(src, root)
            with open(src, errors="replace") as fh:
                lines = fh.read().splitlines()
            for n, line in enumerate(lines, 1):
                if (folder in MPI_FREE and os.path.basename(src) not in MPI_FREE[folder]
                        and INCLUDE_MPI.match(line)):
                    problems.append(f"{rel}:{n}: includes mpi.h: {folder}/ is MPI-free"
                                    + (" (the MPI part of base/ is base_mpi.c)" if folder == "base"
                                       else ""))
                m = INCLUDE.match(line)
                if not m:
                    continue
                header = m.group(1)
                where = resolve(root, folders, src, header)
                if allowed is ANY:
                    continue
                if not where:
                    problems.append(f"{rel}:{n}: \"{header}\" is no header of the tree's layer "
                                    f"folders ({rule_text(folder)})")
                    continue
                if len(where) > 1 and folder not in where:
                    problems.append(f"{rel}:{n}: \"{header}\" is ambiguous: it is in "
                                    f"{', '.join(w + '/' for w in where)}")
                    continue
                bad = [w for w in where if w != folder and w not in allowed]
                if not bad:
                    continue
                msg = (f"{rel}:{n}: includes {bad[0]}/{header}: {rule_text(folder)}"
                       + ("; no file outside src/, tests/, bench/ includes a header of src/"
                          if bad[0] == "src" else ""))
                if (rel, header) in KNOWN_VIOLATIONS_TO_FIX:
                    known.add((rel, header))
                    print(f"known (KNOWN_VIOLATIONS_TO_FIX): {msg}")
                else:
                    problems.append(msg)
    for rel, header in sorted(KNOWN_VIOLATIONS_TO_FIX - known):
        print(f"note: KNOWN_VIOLATIONS_TO_FIX entry ({rel}, {header}) no longer occurs: remove it")
    skipped = [f for f in OPTIONAL if f not in folders]
    print(f"layers_includes: {nfiles} files in {len(folders)} folders"
          + (f" ({', '.join(s + '/' for s in skipped)} absent)" if skipped else ""))
    return problems


# ---- the PSy rules: (folders, pattern, what it is) ----
PSY_RULES = [
    (("src", "solver"), r"\bhalo_valid\b", "halo validity (psy/ owns it)"),
    (("src", "solver"), r"\bgale_halo_\w+\s*\(", "a halo/ call (psy/ exchanges)"),
    (("src", "solver"), r"\bgale_k_(?!name\b|transfers\b)\w+\s*\(",
     "a launch-layer call (launch through psy/)"),
    (("src", "solver"), r"\b(ncell|nedge)\s*\[|\bnedge_owned\b|\bncell_inner\b",
     "a range of the local numbering (psy/ picks loop ranges; gale_psy_owned/local count columns)"),
    (("solver", os.path.join("src", "model")), r"\bP?MPI_(?!Comm_rank\b|Comm_size\b|Comm\b)[A-Z]\w*\s*\(",
     "an MPI call (reductions are psy/ calls)"),
]
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"", re.S)


def psy_rules(root):
    problems, nfiles = [], 0
    files = {}
    for folders, pattern, what in PSY_RULES:
        rx = re.compile(pattern)
        for folder in folders:
            for src in sources(root, folder):
                if src not in files:
                    with open(src, errors="replace") as fh:
                        text = fh.read()
                    # blank comments and strings, keeping the line numbers
                    files[src] = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
                for n, line in enumerate(files[src].splitlines(), 1):
                    m = rx.search(line)
                    if m:
                        problems.append(f"{os.path.relpath(src, root)}:{n}: {m.group(0).strip()}: {what}")
    print(f"layers_psy: {len(files)} files of src/ and solver/ read")
    return problems


MPI_SYMBOL = re.compile(r"^P?MPI_\w")
MPI_LIBRARY = re.compile(r"\blibp?mpi")


def symbols(path, dynamic):
    """Symbol names of nm's listing (the dynamic table with dynamic=True)."""
    r = subprocess.run(["nm", "-A"] + (["-D"] if dynamic else []) + [path], capture_output=True,
                       text=True)
    if r.returncode != 0 and "no symbols" not in r.stderr:
        raise RuntimeError(f"nm{' -D' if dynamic else ''} failed: {r.stderr.strip()}")
    names = []
    for line in r.stdout.splitlines():
        words = line.split()
        if len(words) >= 2:
            names.append(words[-1].split("@")[0])
    return names


def no_mpi(files):
    problems = []
    for path in files:
        if not os.path.isfile(path):
            problems.append(f"{path}: not found")
            continue
        exe = not path.endswith(".a")
        try:
            names = symbols(path, False) + (symbols(path, True) if exe else [])
        except RuntimeError as e:
            problems.append(f"{path}: {e}")
            continue
        mpi = sorted({s for s in names if MPI_SYMBOL.match(s)})
        if mpi:
            problems.append(f"{path}: {len(mpi)} MPI symbol(s): {' '.join(mpi[:8])}"
                            + (" ..." if len(mpi) > 8 else ""))
        if exe:
            r = subprocess.run(["ldd", path], capture_output=True, text=True)
            libs = [l.split()[0] for l in r.stdout.splitlines() if MPI_LIBRARY.search(l)]
            if libs:
                problems.append(f"{path}: loads MPI library {' '.join(libs)} (ldd)")
        print(f"{path}: {'no MPI' if not mpi else 'MPI'} symbols"
              + (", checked with ldd" if exe else ""))
    return problems


def main():
    cmds = {"includes": lambda a: includes(a[0]), "psy": lambda a: psy_rules(a[0]), "no-mpi": no_mpi}
    if len(sys.argv) < 3 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    problems = cmds[sys.argv[1]](sys.argv[2:])
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layer rule violation(s)")
        sys.exit(1)
    print("every layer rule holds")


if __name__ == "__main__":
    main()
