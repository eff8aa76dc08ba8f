#!/usr/bin/env python3
"""Every external program that gale's build, tests and benchmarks call comes
from a Debian package that tools/install-deps installs, or is optional with a
stated reason (docs/dependencies.md).

1. Scan the CMake files, presets, Makefile, shell and Python scripts and the
   C tests' command lines of the tree for the programs they invoke.
2. Each one must be listed in tools/programs, and each direct entry there
   must still be invoked somewhere (the list stays true).
3. Each required program must be found here, and `dpkg -S` must name a
   package that tools/install-deps installs: one of its list, a dependency of
   one (Depends/Pre-Depends, recursively), or a package of priority
   "required" (every Debian system has those: coreutils, tar, ...).

usage: check_deps.py SOURCE_DIR
Exit 0 on success, 1 with every problem named, 77 (skipped) off Debian.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")

# shell words that are not programs
SH_BUILTIN = set("""if then else elif fi for in do done while until case esac function return
exit set unset export shift cd echo printf read local trap wait eval exec command test [ [[ ]] ]
: . true false break continue type umask ulimit source alias getopts pwd kill time ! { } ( )
select declare readonly let""".split())


def rel(p):
    return os.path.relpath(p, ROOT)


def strip_comment(line):
    """A shell/CMake/Python line without its comment (not inside quotes)."""
    q = None
    for i, c in enumerate(line):
        if q:
            if c == q:
                q = None
        elif c in "\"'":
            q = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t;"):
            return line[:i]
    return line


def unquote(body, make):
    """Shell text with the literal text of quotes and parameter expansions
    dropped, keeping the command substitutions inside double quotes."""
    if make:
        body = re.sub(r"\$\(\w+\)", "V", body)
    body = re.sub(r"\$\{[^}]*\}", "V", body)
    while "$((" in body:  # arithmetic, innermost first
        body2 = re.sub(r"\$\(\((?:(?!\$\(\().)*?\)\)", "V", body, flags=re.S)
        if body2 == body:
            break
        body = body2
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            out.append(body[i:i + 2])
            i += 2
        elif c == "'":
            j = body.find("'", i + 1)
            j = len(body) if j < 0 else j
            out.append("Q")
            i = j + 1
        elif c == '"':
            j, subs = i + 1, []
            while j < len(body) and body[j] != '"':
                if body[j] == "\\":
                    j += 2
                    continue
                if body.startswith("$(", j):  # balanced $( ... )
                    depth, k = 1, j + 2
                    while k < len(body) and depth:
                        depth += {"(": 1, ")": -1}.get(body[k], 0)
                        k += 1
                    subs.append(body[j:k])
                    j = k
                    continue
                j += 1
            out.append("Q" + "".join(" " + x for x in subs))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def shell_commands(text, where, found, make=False):
    """First words of the simple commands of a shell script (or Makefile
    recipes) that name a program directly."""
    funcs = set(re.findall(r"^\s*([A-Za-z_][\w-]*)\s*\(\)", text, re.M))
    lines = text.split("\n")
    if make:  # recipe lines only
        lines = [l[1:].lstrip("@-") for l in lines if l.startswith("\t")]
    body = "\n".join(strip_comment(l) for l in lines).replace("\\\n", " ")
    body = unquote(body, make)
    # case labels ("a | b)" starting a line) are patterns, not commands
    body = re.sub(r"(?m)^\s*[^\s()|;]+(\s*\|\s*[^\s()|;]+)*\)", " ", body)
    words = [m.group(1) for m in re.finditer(r"command -v\s+(\S+)", body)]
    for seg in re.split(r"\$\(|`|\|\||&&|[;|&\n(){}]|\bthen\b|\bdo\b|\belse\b|\bif\b|\bwhile\b|!",
                        body):
        w = seg.split()
        while w and re.match(r"^[A-Za-z_]\w*=", w[0]):  # VAR=value cmd
            w.pop(0)
        if w:
            words.append(w[0])
    for w in words:
        w = w.strip("\"'")
        if (not w or w in SH_BUILTIN or w in funcs or any(c in w for c in "$*=<>\"'[]")
                or w.startswith("-") or w.endswith(":") or w.isdigit() or w.isupper()):
            continue  # not a program, a redirection's descriptor, a quoted word
        if "/" in w:  # a file of the project, or a program named by its path
            if not w.startswith("/"):
                continue
            w = os.path.basename(w)
        found.setdefault(w, set()).add(where)


def python_commands(text, where, found):
    for m in re.finditer(r"(?:subprocess\.(?:run|Popen|check_output)|\bfirst)\(\s*\[\s*[\"']([^\"']+)[\"']", text):
        found.setdefault(m.group(1), set()).add(where)
    for m in re.finditer(r"shutil\.which\(\s*[\"']([^\"']+)[\"']", text):
        found.setdefault(m.group(1), set()).add(where)


def cmake_commands(text, where, found):
    body = "\n".join(strip_comment(l) for l in text.split("\n"))
    for m in re.finditer(r"find_program\(\s*\w+\s+(?:NAMES\s+)?([^\s)]+)", body):
        found.setdefault(m.group(1), set()).add(where)
    for m in re.finditer(r"\bCOMMAND\s+([^\s)$\"]+)", body):
        w = m.group(1)
        if "/" not in w or w.startswith("/"):
            found.setdefault(os.path.basename(w), set()).add(where)
    for m in re.finditer(r"-print-prog-name=([\w.+-]+)", body):
        found.setdefault(m.group(1), set()).add(where)
    for m in re.finditer(r"\bset\(\w+\s+(/usr/bin/[\w.+-]+)", body):
        found.setdefault(os.path.basename(m.group(1)), set()).add(where)


def scan():
    found = {}
    targets = set()  # programs gale builds itself
    for f in glob.glob(os.path.join(ROOT, "**", "CMakeLists.txt"), recursive=True) + \
            glob.glob(os.path.join(ROOT, "**", "*.cmake"), recursive=True):
        if rel(f).startswith("build"):
            continue
        t = open(f).read()
        targets |= set(re.findall(r"add_executable\(\s*([\w-]+)", t))
        targets |= set(re.findall(r"gale_test\(\s*([\w-]+)", t))
        cmake_commands(t, rel(f), found)
    presets = json.load(open(os.path.join(ROOT, "CMakePresets.json")))
    for p in presets["configurePresets"]:
        for k in ("CMAKE_C_COMPILER", "MPI_C_COMPILER", "MPIEXEC_EXECUTABLE",
                  "HDF5_C_COMPILER_EXECUTABLE"):
            v = p.get("cacheVariables", {}).get(k)
            if v:
                found.setdefault(os.path.basename(v), set()).add("CMakePresets.json")
    shell_commands(open(os.path.join(ROOT, "Makefile")).read(), "Makefile", found, make=True)
    scripts = [os.path.join(ROOT, ".ci", "run")]
    for d in ("tests", "bench", "tools"):
        scripts += [f for f in glob.glob(os.path.join(ROOT, d, "*")) if os.path.isfile(f)]
    # the Python packages of tools/ (tools/vecreport's code is in tools/gale_vecreport/)
    scripts += sorted(glob.glob(os.path.join(ROOT, "tools", "*", "*.py")))
    for f in scripts:
        try:
            t = open(f).read()
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        first = t.split("\n", 1)[0]
        if f.endswith(".py") or "python" in first:
            python_commands(t, rel(f), found)
        elif f.endswith(".sh") or first.startswith("#!") and "sh" in first:
            shell_commands(t, rel(f), found)
        elif f.endswith(".c"):
            for m in re.finditer(r"snprintf\(cmd,[^\"]*\"([A-Za-z][\w.+-]*)\s", t):
                found.setdefault(m.group(1), set()).add(rel(f))
    for t in targets | {"gale"}:
        found.pop(t, None)
    return found


def manifest():
    """tools/programs: NAME | where | [optional: reason] [via: PROGRAM]"""
    out = {}
    for n, line in enumerate(open(os.path.join(ROOT, "tools", "programs")), 1):
        line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
        if not line:
            continue
        cols = [c.strip() for c in line.split("|")]
        if len(cols) != 3:
            sys.exit(f"tools/programs:{n}: want 'NAME | used by | notes', got '{line}'")
        notes = cols[2]
        opt = re.search(r"optional:\s*(.+?)(?:\s+via:|$)", notes)
        via = re.search(r"via:\s*(\S+)", notes)
        out[cols[0]] = {"line": n, "optional": opt.group(1) if opt else None,
                        "via": via.group(1) if via else None}
    return out


def install_deps_packages():
    t = open(os.path.join(ROOT, "tools", "install-deps")).read()
    m = re.search(r'^PKGS="([^"]*)"', t, re.M)
    if not m:
        sys.exit("tools/install-deps: no PKGS=\"...\" list found")
    return m.group(1).replace("\\\n", " ").split()


def dpkg_fields(pkgs):
    """{package: (priority, [depends alternatives])} for installed packages."""
    r = subprocess.run(["dpkg-query", "-W", "-f",
                        "${Package}\t${Status}\t${Priority}\t${Provides}\t${Pre-Depends}, ${Depends}\n"],
                       capture_output=True, text=True)
    info, provides = {}, {}
    for line in r.stdout.splitlines():
        name, status, prio, prov, deps = (line.split("\t") + [""] * 5)[:5]
        if "installed" not in status.split():
            continue
        alts = []
        for d in deps.split(","):
            d = d.strip()
            if d:
                alts.append([re.split(r"[\s(:]", a.strip())[0] for a in d.split("|")])
        info[name] = (prio, alts)
        for p in prov.split(","):
            p = re.split(r"[\s(]", p.strip())[0]
            if p:
                provides.setdefault(p, []).append(name)
    return info, provides


def closure(roots, info, provides):
    """{package: the listed package it is (a dependency of)}"""
    seen = {r: r for r in roots if r in info}
    todo = [(d, r) for r in seen for alts in info[r][1] for d in alts]
    while todo:
        p, root = todo.pop()
        for q in [p] + provides.get(p, []):
            if q in info and q not in seen:
                seen[q] = root
                for alts in info[q][1]:
                    todo += [(a, root) for a in alts]
    return seen


def candidates(path):
    """What dpkg may record for PATH: the path itself, else its target; merged
    /usr records /bin/x or /usr/bin/x."""
    return [q for p in (path, os.path.realpath(path))
            for q in (p, p[4:] if p.startswith("/usr/") else "/usr" + p)]


def owners(paths):
    """{query: the installed package that holds it} for every candidate of
    PATHS, in one `dpkg -S` (each call reads the whole database: one per
    program took minutes on a loaded machine)."""
    queries = sorted({q for p in paths for q in candidates(p)})
    if not queries:
        return {}
    r = subprocess.run(["dpkg", "-S", *queries], capture_output=True, text=True)
    found = {}
    for line in r.stdout.splitlines():
        if line.startswith("diversion by"):
            continue
        pkgs, _, q = line.partition(": ")
        found.setdefault(q.strip(), pkgs.split(",")[0].strip().split(":")[0])
    return found


def owner(path, known):
    return next((known[q] for q in candidates(path) if q in known), None)


# what a new machine's PATH has (../shared/tools/fresh-debian12 and CI's
# chroot too): a program found only in a user's own folder does not count
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def locate(name, listed):
    if name.startswith("/"):
        return name if os.access(name, os.X_OK) else None
    via = listed.get(name, {}).get("via")
    if via:  # a helper another program finds next to itself (clang's tools)
        v = shutil.which(via, path=SYSTEM_PATH)
        if v:
            d = os.path.dirname(os.path.realpath(v))
            if os.access(os.path.join(d, name), os.X_OK):
                return os.path.join(d, name)
    p = shutil.which(name, path=SYSTEM_PATH)
    if p:
        return p
    for d in ("/usr/local/cuda/bin", "/usr/lib/llvm-19/bin"):
        if os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    return None


def main():
    if not shutil.which("dpkg-query"):
        print("SKIPPED: not a Debian system (no dpkg-query): tools/install-deps installs Debian "
              "packages and this check asks dpkg which package holds each program")
        return 77
    found, listed = scan(), manifest()
    problems = []
    for name in sorted(found):
        if name not in listed:
            problems.append(f"'{name}' is invoked by {', '.join(sorted(found[name]))} "
                            "but not listed in tools/programs")
    for name, e in sorted(listed.items()):
        if not e["via"] and name not in found:
            problems.append(f"tools/programs:{e['line']}: '{name}' is listed but nothing in the "
                            "tree invokes it (remove it, or mark it 'via: PROGRAM')")
    pkgs = install_deps_packages()
    info, provides = dpkg_fields(pkgs)
    missing = [p for p in pkgs if p not in info]
    if missing:
        problems.append("tools/install-deps lists packages that are not installed here "
                        f"(run it first): {' '.join(missing)}")
    given = closure(pkgs, info, provides)
    required = {p for p, (prio, _) in info.items() if prio == "required"}
    paths = {name: locate(name, listed) for name in listed}
    known = owners([p for name, p in paths.items() if p and not listed[name]["optional"]])
    for name, e in sorted(listed.items()):
        path = paths[name]
        if e["optional"]:
            print(f"optional  {name:24} {path or 'not found'}: {e['optional']}")
            continue
        if not path:
            problems.append(f"'{name}' (tools/programs:{e['line']}) is not found on this machine")
            continue
        pkg = owner(path, known)
        if pkg is None:
            problems.append(f"'{name}' at {path} belongs to no Debian package (dpkg -S): it "
                            "must come from a package of tools/install-deps or be optional")
        elif pkg in given:
            how = "listed" if given[pkg] == pkg else f"dependency of {given[pkg]}"
            print(f"ok        {name:24} {path}: {pkg} ({how})")
        elif pkg in required:
            print(f"ok        {name:24} {path}: {pkg} (priority required: on every Debian)")
        else:
            problems.append(f"'{name}' at {path} comes from the Debian package '{pkg}', which "
                            "tools/install-deps does not install (add it to PKGS)")
    print(f"{len(listed)} programs listed, {len(found)} invoked in the tree, "
          f"{len(pkgs)} packages in tools/install-deps")
    for p in problems:
        print("FAIL: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
