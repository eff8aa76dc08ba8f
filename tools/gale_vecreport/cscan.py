"""The source side: a small C tokenizer that finds functions, loops, macros
and the kernel rows (GALE_KERNELS) of one translation unit, and the names
each function and loop gets once templates and macros are instantiated.
Remarks map to loops by these names; the kernel guard reads its rows here."""

import collections
import os
import re

from .common import rel


# The table of kernel rows (kernels/gale_kdesc.h): GALE_KERNELS(K) lists the
# GALE_KROWS_<GROUP>(K) macros, each a list of K(name, space, ...) rows.
KTABLE = "GALE_KERNELS"
GROUPS = "GALE_KGROUPS"


class Loop:
    """A `for`/`while` loop of the source.

    line: the line of the keyword; first..last: its extent, starting at the
    pragma line above it when there is one (clang reports omp simd loops at
    the pragma, gcc at the body line); owner: the Func around it, or the name
    of the statement macro whose body holds it; text: from the keyword to the
    end of its first body line (what exception markers match); names: the
    function names the compilers give the code around it (instances)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)
        self.names, self.bases = set(), set()

    def where(self):
        return "%s:%d" % (self.file, self.line)


class Func:
    """A function definition; `spelled` is its name as written, which may be
    a template: GALE_KB(x) (pasted suffixes _d/_f) or NAME / pre_##SUF
    inside a function-defining macro (substituted at each expansion)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


class Define:
    """A function-like macro: parameters and its body, line by line."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def strip_comments(text):
    """Blank out comments and string/char literals, keeping line numbers."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


TOKEN = re.compile(r"[A-Za-z_]\w*|\d[\w.]*|##|[{}()\[\];,#]|\S")
PRAGMA_LINE = re.compile(r"^\s*(#\s*pragma\b|_Pragma\b|GALE_SIMD\w*\b)")
SIMD_PRAGMA = re.compile(r"\bsimd\b|GALE_SIMD")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else"}


def match_paren(s, i):
    """Index of the ')' closing the '(' at s[i], or -1."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == "(":
            depth += 1
        elif s[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch in "([{"
        depth -= ch in ")]}"
        cur += ch
    if cur.strip() or out:
        out.append(cur.strip())
    return out


def macro_calls(d, name):
    """The calls name(...) in the body of macro d (a Define), as (their
    arguments, whitespace folded; the line each starts on)."""
    text, starts = "", []
    for ln, t in sorted(d.body.items()):
        starts.append((len(text), ln))
        text += t + "\n"
    for m in re.finditer(r"\b%s\s*\(" % name, text):
        close = match_paren(text, m.end() - 1)
        if close >= 0:
            yield (split_args(re.sub(r"\s+", " ", text[m.end():close])),
                   max(ln for pos, ln in starts if pos <= m.start()))


def substitute(text, params, args):
    """Macro parameter substitution on one line of a macro body (## pasting,
    # stringising); the real preprocessor expands the rest later."""
    amap = dict(zip(params, args))
    text = re.sub(r"(?<!#)#\s*(\w+)", lambda m: '"%s"' % amap[m.group(1)]
                  if m.group(1) in amap else m.group(0), text)
    text = re.sub(r"\b(\w+)\b", lambda m: amap.get(m.group(1), m.group(1)), text)
    return re.sub(r"\s*##\s*", "", text)


class SourceFile:
    """Functions, loops and macros of one C file, found with a small
    tokenizer. Not a C parser: enough for the kernel sources' style
    (functions at file scope, function-like macros that define functions or
    hold loops, loops with or without braces)."""

    def __init__(self, path, root):
        self.path, self.rel = os.path.realpath(path), rel(path, root)
        self.raw = open(path, errors="replace").read().split("\n")
        code = strip_comments("\n".join(self.raw)).split("\n")
        self.code = code
        self.funcs, self.loops, self.calls = [], [], []
        self.defines = {}
        self.paste_macros = {}     # GALE_KB -> ["_d", "_f"]
        self.includes = []
        plain = list(code)
        i = 0
        while i < len(code):
            if not code[i].lstrip().startswith("#"):
                i += 1
                continue
            j = i
            while code[j].rstrip().endswith("\\") and j + 1 < len(code):
                j += 1
            directive = " ".join(code[k].rstrip().rstrip("\\") for k in range(i, j + 1))
            inc = re.match(r'\s*#\s*include\s*"([^"]+)"', self.raw[i])
            if inc:
                self.includes.append(inc.group(1))
            paste = re.match(r"\s*#\s*define\s+(\w+)\s*\(\s*(\w+)\s*\)\s+\2\s*##\s*(\w+)\s*$", directive)
            if paste:
                self.paste_macros.setdefault(paste.group(1), []).append(paste.group(3))
            fdef = re.match(r"(\s*#\s*define\s+(\w+)\(([\w\s,]*)\))", code[i])
            if fdef:
                # the body, line by line, as it stands in the file
                body = {i + 1: code[i][len(fdef.group(1)):].rstrip().rstrip("\\")}
                for k in range(i + 1, j + 1):
                    body[k + 1] = code[k].rstrip().rstrip("\\")
                name = fdef.group(2)
                self.defines[name] = Define(file=self.rel, path=self.path, name=name, first=i + 1,
                                            last=j + 1, body=body,
                                            params=[p.strip() for p in fdef.group(3).split(",") if p.strip()])
                lines = [""] * (i) + [body[k + 1] for k in range(i, j + 1)]
                self._scan(lines[i:], i, macro=name)
            for k in range(i, j + 1):
                plain[k] = ""
            i = j + 1
        self._scan(plain, 0, macro=None)

    def _scan(self, lines, offset, macro):
        text = "\n".join(lines)
        starts = [0]
        for ln in lines:
            starts.append(starts[-1] + len(ln) + 1)
        toks = [(m.group(), m.start()) for m in TOKEN.finditer(text)]

        def line_of(k):
            pos = toks[min(k, len(toks) - 1)][1]
            lo, hi = 0, len(starts) - 1
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if starts[mid] <= pos:
                    lo = mid
                else:
                    hi = mid - 1
            return lo + 1 + offset

        match, stack = {}, []
        for k, (t, _) in enumerate(toks):
            if t in "({[":
                stack.append(k)
            elif t in ")}]" and stack:
                match[stack.pop()] = k
        back = {v: k for k, v in match.items()}

        def stmt_end(k):
            """Index of the last token of the statement starting at k."""
            if k >= len(toks):
                return len(toks) - 1
            t = toks[k][0]
            if t == "{":
                return match.get(k, len(toks) - 1)
            if t in ("for", "while") and k + 1 < len(toks) and toks[k + 1][0] == "(":
                return stmt_end(match.get(k + 1, k + 1) + 1)
            if t == "if" and k + 1 < len(toks) and toks[k + 1][0] == "(":
                e = stmt_end(match.get(k + 1, k + 1) + 1)
                if e + 1 < len(toks) and toks[e + 1][0] == "else":
                    return stmt_end(e + 2)
                return e
            if t == "do":
                return stmt_end(stmt_end(k + 1) + 1)
            j = k
            while j < len(toks) and toks[j][0] not in ";}":
                j = match.get(j, j) + 1 if toks[j][0] in "({[" else j + 1
            return min(j, len(toks) - 1)

        # functions: `name(params) {` at brace depth 0 of the region
        funcs, depth = [], 0
        for k, (t, _) in enumerate(toks):
            if t == "{":
                if depth == 0 and k > 0 and toks[k - 1][0] == ")" and back.get(k - 1, 0) > 0:
                    op = back[k - 1]
                    spelled, first = self._name_before(toks, op, back)
                    if spelled:
                        funcs.append(Func(file=self.rel, spelled=spelled, macro=macro,
                                          first=line_of(first), last=line_of(match.get(k, len(toks) - 1)),
                                          k0=k, k1=match.get(k, len(toks) - 1)))
                depth += 1
            elif t == "}":
                depth -= 1
        for f in funcs:
            # what the function calls (a kernel's code is what its body call
            # reaches): `name(` and template calls `GALE_KB(name)(`, and
            # the identifiers it names (a launch function names its timer GALE_K_x)
            f.callees, f.idents = set(), set()
            for k in range(f.k0, f.k1):
                t = toks[k][0]
                if re.match(r"[A-Za-z_]\w*$", t):
                    f.idents.add(t)
                    if toks[k + 1][0] == "(" and t not in KEYWORDS:
                        c = match.get(k + 1)
                        if (c is not None and c == k + 3 and c + 1 < len(toks)
                                and toks[c + 1][0] == "(" and re.match(r"[A-Z_][A-Z0-9_]*$", t)):
                            f.callees.add((t, toks[k + 2][0]))
                        else:
                            f.callees.add(t)
        self.funcs += funcs

        def owner(k):
            for f in funcs:
                if f.k0 <= k <= f.k1:
                    return f
            return macro  # a statement macro's own loop (or file scope)

        nest = []
        for k, (t, _) in enumerate(toks):
            while nest and k > nest[-1]:
                nest.pop()
            nxt = toks[k + 1][0] if k + 1 < len(toks) else ""
            if t in ("for", "while") and nxt == "(":
                if t == "while" and k > 0 and toks[k - 1][0] == "}":
                    continue  # the tail of a do-while
                hdr_end = match.get(k + 1, k + 1)
                end = stmt_end(hdr_end + 1)
                line, body_line = line_of(k), line_of(hdr_end + 1)
                if hdr_end + 2 < len(toks) and toks[hdr_end + 1][0] == "{" and toks[hdr_end + 2][0] != "}":
                    body_line = line_of(hdr_end + 2)  # a braced body: its first statement
                prev = line - 1
                while prev > offset + 1 and not self.code[prev - 1].strip().rstrip("\\").strip():
                    prev -= 1
                ptext = self.raw[prev - 1] if prev >= 1 else ""
                pragma = prev if prev >= 1 and prev != line and PRAGMA_LINE.match(ptext) else None
                pieces = [self.raw[line - 1][self.raw[line - 1].find(t):]]
                pieces += [self.raw[n - 1] for n in range(line + 1, body_line + 1)]
                ltext = re.sub(r"\s+", " ", " ".join(p.strip().rstrip("\\") for p in pieces)).strip()
                self.loops.append(Loop(file=self.rel, line=line, first=pragma or line,
                                       last=line_of(end), pragma=pragma,
                                       simd=bool(pragma and SIMD_PRAGMA.search(ptext)),
                                       owner=owner(k), depth=len(nest), text=ltext))
                nest.append(end)
            elif re.match(r"[A-Z_][A-Z0-9_]*$", t) and nxt == "(" and (k == 0 or toks[k - 1][0] != "#"):
                close = match.get(k + 1)
                if close is not None:
                    args = text[toks[k + 1][1] + 1:toks[close][1]]
                    self.calls.append({"macro": t, "args": split_args(args.replace("\n", " ")),
                                       "line": line_of(k), "end_line": line_of(close),
                                       "owner": owner(k), "in_define": macro})

    @staticmethod
    def _name_before(toks, op, back):
        """The function name written before the '(' at op: `name`,
        `GALE_KB(name)` or `pre_ ## SUF` (inside a macro)."""
        j = op - 1
        if j < 0:
            return None, None
        t = toks[j][0]
        if t == ")" and j in back:
            o2 = back[j]
            if o2 >= 1 and o2 + 2 == j and re.match(r"\w+$", toks[o2 - 1][0]):
                return "%s(%s)" % (toks[o2 - 1][0], toks[o2 + 1][0]), o2 - 1
            return None, None
        if not re.match(r"[A-Za-z_]\w*$", t) or t in KEYWORDS:
            return None, None
        parts = [t]
        while j >= 2 and toks[j - 1][0] == "##" and re.match(r"\w+$", toks[j - 2][0]):
            parts.insert(0, toks[j - 2][0])
            j -= 2
        return "##".join(parts), j

    def innermost_loop(self, line):
        best = None
        for lp in self.loops:
            if lp.first <= line <= lp.last and (best is None or lp.depth > best.depth
                                                 or (lp.depth == best.depth and lp.first > best.first)):
                best = lp
        return best


class Inventory:
    """The source files of one translation unit (the compiled file and the
    project headers it includes, transitively), with the names each function
    and loop gets once templates and macros are instantiated."""

    def __init__(self, sources, root, include_dirs):
        self.root = root
        self.files = {}
        todo = list(sources)
        while todo:
            p = os.path.realpath(todo.pop())
            if p in self.files or not os.path.exists(p):
                continue
            sf = SourceFile(p, root)
            self.files[p] = sf
            for inc in sf.includes:
                for d in [os.path.dirname(p)] + include_dirs:
                    cand = os.path.join(d, inc)
                    if os.path.exists(cand) and rel(cand, root) != os.path.normpath(os.path.abspath(cand)):
                        todo.append(cand)
                        break
        self.by_rel = {sf.rel: sf for sf in self.files.values()}
        self.paste, self.defines = {}, {}
        for sf in self.files.values():
            for k, v in sf.paste_macros.items():
                for s in v:
                    if s not in self.paste.setdefault(k, []):
                        self.paste[k].append(s)
            self.defines.update(sf.defines)
        self._name_everything()

    def _calls(self):
        for sf in self.files.values():
            for c in sf.calls:
                if c["macro"] in self.defines:
                    yield sf, c

    def func_names(self, f, args_of=None):
        """Instance names of Func f (its template expanded)."""
        m = re.match(r"(\w+)\((\w+)\)$", f.spelled)
        if m:
            return [m.group(2) + s for s in self.paste.get(m.group(1), [""])] or [m.group(2)]
        if f.macro:
            d = self.defines.get(f.macro)
            out = []
            for _, c in self._calls():
                if c["macro"] == f.macro and d:
                    out.append(substitute(f.spelled, d.params, c["args"]))
            return out
        return [f.spelled]

    def func_base(self, f):
        m = re.match(r"(\w+)\((\w+)\)$", f.spelled)
        return m.group(2) if m else None

    def _name_everything(self):
        # which macros (transitively) hold loops: those are re-expanded
        direct = {lp.owner if isinstance(lp.owner, str) else lp.owner.macro
                  for sf in self.files.values() for lp in sf.loops}
        self.loop_macros = {m for m in direct if m}
        changed = True
        while changed:
            changed = False
            for sf, c in self._calls():
                if c["macro"] in self.loop_macros and c["in_define"] and c["in_define"] not in self.loop_macros:
                    self.loop_macros.add(c["in_define"])
                    changed = True
        # names of the code around each statement macro's loops: the
        # functions that invoke it (through other macros, transitively)
        users = collections.defaultdict(set)
        for _ in range(4):
            for sf, c in self._calls():
                o = c["owner"]
                if isinstance(o, Func):
                    users[c["macro"]] |= set(self.func_names(o))
                elif isinstance(o, str):
                    users[c["macro"]] |= users[o]
        for sf in self.files.values():
            for lp in sf.loops:
                if isinstance(lp.owner, Func):
                    lp.names = set(self.func_names(lp.owner))
                    base = self.func_base(lp.owner)
                    lp.bases = {base} if base else set()
                elif isinstance(lp.owner, str):
                    lp.names = set(users.get(lp.owner, set()))

    def kernel_rows(self):
        """The kernel rows, in table order: KTABLE's GALE_KROWS_* macros,
        each row K(name, space, ..., call_d, call_f) with the line it starts
        on. The same rows the compiler expands, so a row added later is here."""
        table = self.defines.get(KTABLE)
        rows = []
        if not table:
            return rows
        for grp in re.findall(r"\b(\w+)\s*\(\s*K\s*\)", " ".join(table.body.values())):
            d = self.defines.get(grp)
            if d is None:
                continue
            for args, line in macro_calls(d, "K"):
                rows.append({"name": args[0], "space": args[1], "args": args, "calls": args[-2:],
                             "file": d.file, "path": d.path, "line": line})
        return rows

    def group_rows(self):
        """The fused groups (docs/fusion.md), in declaration order: GROUPS'
        G(name, category, ((kernel), ...)) with the line each starts on."""
        d = self.defines.get(GROUPS)
        if d is None:
            return []
        return [{"name": args[0], "category": args[1],
                 "kernels": re.findall(r"\(\s*(\w+)\s*\)", args[2]), "file": d.file, "line": line}
                for args, line in macro_calls(d, "G") if len(args) >= 3]

    def row_at(self, sf, line):
        """The kernel row written at line `line` of SourceFile sf, or None."""
        if not hasattr(self, "_rows_at"):
            self._rows_at = {(r["file"], r["line"]): r for r in self.kernel_rows()}
        return self._rows_at.get((sf.rel, line)) if sf else None

    def space_is_simd(self, space, depth=0):
        """Whether the launch loop GALE_KLOOP_<space> is an (omp) simd loop."""
        d = self.defines.get("GALE_KLOOP_" + space)
        if d is None or depth > 4:
            return False
        # the raw lines: the pragma is in a _Pragma string, which d.body blanks
        body = " ".join(self.files[d.path].raw[d.first - 1:d.last])
        if SIMD_PRAGMA.search(body):
            return True
        inner = re.search(r"\bGALE_KLOOP_(\w+)\s*\(", body)
        return bool(inner) and self.space_is_simd(inner.group(1), depth + 1)

    def call_graph(self):
        """{function instance: instances it calls}: `name(` calls, template
        calls GALE_KB(name)( in the instance's own precision, and the calls
        inside the macros a function uses."""
        def macro_calls(name, seen):
            d = self.defines.get(name)
            if d is None or name in seen:
                return set()
            seen.add(name)
            out = set()
            for t in re.findall(r"\b([A-Za-z_]\w*)\s*\(", " ".join(d.body.values())):
                out.add(t)
                out |= macro_calls(t, seen)
            return out
        graph = collections.defaultdict(set)
        for sf in self.files.values():
            for f in sf.funcs:
                m = re.match(r"(\w+)\((\w+)\)$", f.spelled)
                insts = ([(m.group(2) + s, s) for s in self.paste.get(m.group(1), [""])] if m
                         else [(n, None) for n in self.func_names(f)])
                for inst, suf in insts:
                    for c in f.callees:
                        if isinstance(c, tuple):
                            sufs = [suf] if suf is not None else self.paste.get(c[0], [""])
                            graph[inst] |= {c[1] + s for s in sufs} if c[0] in self.paste else {c[0]}
                        else:
                            graph[inst].add(c)
                            graph[inst] |= macro_calls(c, set())
        return graph

    def kernel_reach(self):
        """{kernel: the function instances its launch reaches}: from the
        row's body calls, from what its space's loop head GALE_KLOOP_<space>
        calls, and from the functions that name its id GALE_K_<name>."""
        graph = self.call_graph()
        out = {}
        for row in self.kernel_rows():
            todo = set()
            for call in row["calls"]:
                todo |= set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", call))
            # a reduction's loop head does part of its work (the sum's
            # digits): what GALE_KLOOP_<space> calls is reached too
            head = self.defines.get("GALE_KLOOP_" + row["space"])
            if head is not None:
                todo |= set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", " ".join(head.body.values())))
            for sf in self.files.values():
                for f in sf.funcs:
                    if "GALE_K_" + row["name"] in f.idents:
                        todo |= set(self.func_names(f))
            seen = set()
            while todo:
                n = todo.pop()
                if n not in seen:
                    seen.add(n)
                    todo |= graph.get(n, set()) - seen
            out[row["name"]] = seen
        return out

    def file(self, path):
        if path is None:
            return None
        p = os.path.realpath(path if os.path.isabs(path) else os.path.join(self.root, path))
        hit = self.files.get(p) or self.by_rel.get(rel(p, self.root))
        if hit or os.path.isabs(path):
            return hit
        # clang may shorten a path it records against its working directory
        # (a checkout under /tmp shows as 'fresh/kernels/x.h'): match the tail
        tail = [sf for f, sf in self.files.items() if f.endswith(os.sep + os.path.normpath(path))]
        return tail[0] if len(tail) == 1 else None

    def has_loops(self, name):
        """Whether function instance `name` has loops of its own."""
        return any(name in lp.names for lp in self.all_loops())

    def all_loops(self):
        for sf in self.files.values():
            yield from sf.loops

    def expansion_at(self, path, line):
        """The loop macro expanded at file:line (only when not re-expanded)."""
        sf = self.file(path)
        if sf:
            for c in sf.calls:
                if c["line"] == line and c["macro"] in self.loop_macros and not c["in_define"]:
                    return c["macro"]
        return None
