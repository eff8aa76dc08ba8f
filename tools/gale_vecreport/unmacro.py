"""Macro re-expansion: shadow copies of the project headers in which every
expansion of a macro that holds loops (and the kernel table) is written out
with #line directives, so that each loop gets line numbers of its own
(docs/vecreport.md, "Loops inside macros")."""

import os
import re

from .common import rel
from .cscan import KTABLE, match_paren, split_args, substitute


def expand_macro(inv, d, args, trailing, depth=0):
    """Lines (each with the #line that points back at the macro body line it
    came from) that replace one expansion of loop macro `d`. Nested
    expansions of other loop macros on a line of their own are re-expanded
    too; everything else is left for the preprocessor."""
    out = []
    for ln in range(d.first, d.last + 1):
        text = substitute(d.body.get(ln, ""), d.params, args)
        if not text.strip():
            continue
        m = re.match(r"\s*([A-Z_][A-Z0-9_]*)\s*\(", text)
        inner = inv.defines.get(m.group(1)) if m else None
        if inner is not None and inner.name in inv.loop_macros and depth < 8:
            op = text.index("(", m.start(1))
            close = match_paren(text, op)
            if close > 0:
                out += expand_macro(inv, inner, split_args(text[op + 1:close]), text[close + 1:], depth + 1)
                continue
        out.append('#line %d "%s"' % (ln, d.path))
        out.append(text)
    if out:
        out[-1] += trailing
    return out


def unmacro(inv, shadow):
    """Write copies of the project files in which every expansion of a macro
    that holds loops (GALE_KB_RSUM_DEFINE, GALE_KB_PACK_DEFINE, ...) is
    replaced by its body, with #line directives naming the macro's own lines.

    Why: a compiler reports every loop of a macro expansion at the expansion
    line, so the loops of gale_kb_rsum_d would be indistinguishable. The
    re-expanded code is the same token sequence after preprocessing, so the
    compiler generates the same code (`vecreport verify-unmacro` checks the
    object code is identical); only the line numbers differ, and they now
    name the loops. Returns {original path: shadow path} of files written."""
    rewritten = {}
    krows = inv.kernel_rows()
    for sf in inv.files.values():
        lines = sf.raw
        repl = {}
        for c in sf.calls:
            if (c["macro"] == KTABLE and not c["in_define"] and krows and re.match(
                    r"\s*%s\s*\(\s*\w+\s*\)\s*$" % KTABLE, lines[c["line"] - 1])):
                # the kernel table (the dispatch's GALE_KERNELS(GALE_KD_CASE_)):
                # one line per row, at the row's own line, so that each
                # kernel's launch loops are reported at its row
                body = []
                for r in krows:
                    body += ['#line %d "%s"' % (r["line"], r["path"]),
                             "%s(%s)" % (c["args"][0], ", ".join(r["args"]))]
                repl[c["line"]] = body + ['#line %d "%s"' % (c["line"] + 1, sf.path)]
                continue
            if c["in_define"] or c["macro"] not in inv.loop_macros:
                continue
            ln = c["line"]
            if c["end_line"] != ln:
                continue
            src = lines[ln - 1]
            m = re.match(r"(\s*)%s\s*\(" % re.escape(c["macro"]), src)
            if not m:
                continue
            close = match_paren(src, src.index("(", m.end(0) - 1))
            if close < 0:
                continue
            d = inv.defines[c["macro"]]
            body = expand_macro(inv, d, c["args"], src[close + 1:])
            repl[ln] = body + ['#line %d "%s"' % (ln + 1, sf.path)]
        if not repl:
            continue
        out = ['#line 1 "%s"' % sf.path]
        for no, text in enumerate(lines, 1):
            out += repl.get(no, [text])
        rewritten[sf.path] = "\n".join(out)
    written = {}
    dirs = {os.path.dirname(p) for p in rewritten}
    for d in dirs:
        sd = os.path.join(shadow, rel(d, inv.root).lstrip(os.sep))
        os.makedirs(sd, exist_ok=True)
        for name in os.listdir(d):
            p = os.path.join(d, name)
            if not (os.path.isfile(p) and re.search(r"\.(h|c|inc)$", name)):
                continue
            text = rewritten.get(os.path.realpath(p))
            if text is None:
                text = '#line 1 "%s"\n' % os.path.realpath(p) + open(p, errors="replace").read()
            with open(os.path.join(sd, name), "w") as f:
                f.write(text + ("" if text.endswith("\n") else "\n"))
            written[os.path.realpath(p)] = os.path.join(sd, name)
    return written


def shadow_flags(cfg, written, root):
    """Flags and sources that make the compiler read the shadow copies: the
    shadow directories go first on the include path."""
    dirs = []
    for sh in written.values():
        d = os.path.dirname(sh)
        if d not in dirs:
            dirs.append(d)
    flags = ["-I" + d for d in dirs] + list(cfg.flags)
    sources = [written.get(os.path.realpath(s), s) for s in cfg.sources]
    return flags, sources
