#!/usr/bin/python3
"""Hygiene of gale's source tree, checked from the text alone.

  check_hygiene.py dead SOURCE_DIR
      Every external function (a gale_* function defined without `static` in
      a .c file) is named somewhere besides its definition and its header
      declaration: in C, CMake, Python or shell code of the tree (bench/ and
      tests/ included; comments do not count). A function named nowhere else
      is dead: delete it and its declaration. One named only inside its own
      file is a file-local helper: make it static and drop the declaration.
  check_hygiene.py citations SOURCE_DIR
      Every `docs/NAME.md` that code or docs cite exists, and nothing cites a
      DESIGN.md (the repository has none: the docs/ file that holds the
      content is the one to cite).
  check_hygiene.py cycles DIR...
      No call cycle between the .c files of one folder: file A uses file B
      when A names (outside comments and strings) a function that B defines
      without `static`; a chain of such uses that comes back to its start is
      a cycle, named with the function that makes each step. Each folder is
      checked alone (calls into other folders do not count).

Exit 0 when every rule holds, 1 with every violation named.
"""
import os
import re
import sys

# generated or recorded files: they quote old code and are not sources
SKIP_DIRS = {os.path.join("docs", "vecreport"), os.path.join("bench", "results")}
CODE_EXT = (".c", ".h", ".py", ".cmake", ".sh", ".in", ".txt", ".json", ".ini", ".nml")


def tree(root):
    """Relative paths of the tree's files, without build directories, hidden
    folders and SKIP_DIRS."""
    out = []
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = sorted(x for x in dirs if not x.startswith(".")
                         and not (rel == "." and x.startswith("build"))
                         and os.path.normpath(os.path.join(rel, x)) not in SKIP_DIRS)
        out += [os.path.normpath(os.path.join(rel, f)) for f in sorted(files)]
    return out


def is_code(path, root):
    """C, CMake, Python, shell and the extension-less scripts of bench/ and
    tools/ (those that start with #!)."""
    if path.endswith(CODE_EXT) or os.path.basename(path) in ("CMakeLists.txt", "Makefile"):
        return True
    if "." in os.path.basename(path):
        return False
    try:
        with open(os.path.join(root, path), "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False


def strip_c_comments(text):
    """Comments out, strings kept: a function named in a comment is not used."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \t\*]*?[\s\*](gale_\w+)\s*\(([^;{}]*?)\)\s*\{", re.M)


def dead(root):
    files = [p for p in tree(root) if is_code(p, root)]
    text = {}
    for p in files:
        with open(os.path.join(root, p), errors="replace") as f:
            t = f.read()
        text[p] = strip_c_comments(t) if p.endswith((".c", ".h")) else t
    defs = {}
    for p, t in text.items():
        if p.endswith(".c"):
            for m in DEFINITION.finditer(t):
                defs.setdefault(m.group(1), []).append(p)
    bad = []
    for name, where in sorted(defs.items()):
        word = re.compile(r"\b%s\b" % re.escape(name))
        # a header's declaration: a type, the name, its parameters and `;`
        decl = re.compile(r"^[ \t]*(?!return\b)[A-Za-z_][\w \t\*]*?[\s\*]%s\s*\([^;{}]*\)\s*"
                          r"(?:__attribute__\s*\(\(.*?\)\)\s*)?;" % re.escape(name), re.M | re.S)
        uses = {}
        for p, t in text.items():
            if name not in t:
                continue
            n = len(word.findall(t))
            if p.endswith(".h"):
                n -= len(decl.findall(t))
            if p in where:
                n -= sum(1 for m in DEFINITION.finditer(t) if m.group(1) == name)
            if n > 0:
                uses[p] = n
        if not uses:
            bad.append(f"{where[0]}: {name} is defined, declared and used nowhere: delete it "
                       "and its declaration")
        elif set(uses) <= set(where) and len(where) == 1:
            bad.append(f"{where[0]}: {name} is used only in its own file: make it static and "
                       "drop its header declaration")
    print(f"check_hygiene dead: {len(defs)} external gale_ functions in {len(files)} code files")
    return bad


CITE = re.compile(r"\bdocs/[\w./-]+?\.md\b")


def citations(root):
    bad, n = [], 0
    for p in tree(root):
        if not (is_code(p, root) or p.endswith(".md")) or p == os.path.join("tests", "check_hygiene.py"):
            continue  # (this file names what it looks for)
        with open(os.path.join(root, p), errors="replace") as f:
            for i, line in enumerate(f, 1):
                if "DESIGN.md" in line:
                    bad.append(f"{p}:{i}: cites DESIGN.md, which is not in the repository: cite "
                               "the docs/ file that holds the content")
                for c in CITE.findall(line):
                    n += 1
                    # relative to the root, or to the citing file's folder
                    if not (os.path.exists(os.path.join(root, c)) or
                            os.path.exists(os.path.join(root, os.path.dirname(p), c))):
                        bad.append(f"{p}:{i}: cites {c}, which does not exist")
    print(f"check_hygiene citations: {n} citations of docs/*.md")
    return bad


# any external function: a type, the name, its parameters, then its body
EXTERNAL = re.compile(r"^(?!static\b|typedef\b|extern\b)[A-Za-z_][\w \t\*]*?[\s\*](\w+)\s*"
                      r"\(([^;{}]*?)\)\s*\{", re.M)
C_NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def file_uses(folder):
    """{file: {other file: [functions of other file it names]}} for the .c
    files of folder, from their text without comments and strings."""
    text = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith(".c"):
            with open(os.path.join(folder, f), errors="replace") as fh:
                text[f] = C_NOISE.sub(lambda m: " " if m.group(0)[0] == "/" else '""', fh.read())
    owner = {}
    for f, t in text.items():
        for m in EXTERNAL.finditer(t):
            if m.group(1) not in ("if", "for", "while", "switch", "return", "sizeof"):
                owner.setdefault(m.group(1), f)
    uses = {f: {} for f in text}
    for f, t in text.items():
        words = set(re.findall(r"\b[A-Za-z_]\w*\b", t))
        for name in sorted(words):
            g = owner.get(name)
            if g and g != f:
                uses[f].setdefault(g, []).append(name)
    return uses


def cycles(dirs):
    """Every folder's file-level call cycles, one message each (a shortest
    cycle through each file that is on one)."""
    bad, nfiles = [], 0
    for folder in dirs:
        uses = file_uses(folder)
        nfiles += len(uses)
        found = set()
        for start in sorted(uses):
            # breadth first from start: the shortest way back to it
            prev, queue = {start: None}, [start]
            back = None
            while queue and back is None:
                nxt = []
                for f in queue:
                    for g in sorted(uses[f]):
                        if g == start:
                            back = f
                            break
                        if g not in prev:
                            prev[g] = f
                            nxt.append(g)
                    if back is not None:
                        break
                queue = nxt
            if back is None:
                continue
            path = [back]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])
            path = path[::-1] + [start]  # start ... back start
            key = frozenset(path)
            if key in found:
                continue
            found.add(key)
            steps = " -> ".join(f"{b} ({', '.join(uses[a][b][:3])})" for a, b in zip(path, path[1:]))
            bad.append(f"{os.path.relpath(folder)}: call cycle {path[0]} -> {steps}")
    print(f"check_hygiene cycles: {nfiles} .c files in {len(dirs)} folder(s)")
    return bad


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "cycles":
        mode, bad = "cycles", cycles([os.path.abspath(d) for d in sys.argv[2:]])
    elif len(sys.argv) != 3 or sys.argv[1] not in ("dead", "citations"):
        sys.exit(__doc__)
    else:
        mode, root = sys.argv[1], os.path.abspath(sys.argv[2])
        bad = dead(root) if mode == "dead" else citations(root)
    for b in bad:
        print("FAIL: " + b)
    if bad:
        sys.exit(f"check_hygiene {mode}: {len(bad)} violation(s)")
    print(f"check_hygiene {mode}: ok")


if __name__ == "__main__":
    main()
