"""`vecreport diff`: the loops whose status or width differ between two
reports, paired by ever looser keys (docs/vecreport.md, "Diffs"), and the
table of them. Reads report dicts only: no compiler, no files."""

import collections
import re

from .cells import loop_text, md_escape, shorten, status_text, width_text
from .cscan import match_paren


def cell(r):
    if r is None:
        return "(absent)"
    if r.get("slp"):
        return "yes (SLP, after full unrolling)"
    if r["vectorized"] or r.get("partial"):
        s = "%s %s" % (status_text(r), width_text(r))
        if r.get("interleave") and r["interleave"] != 1:
            s += ", IC %s" % r["interleave"]
        return s
    return "no: " + shorten(r.get("reason"), 90)


def loop_header(text):
    """`for (...)` of a loop's source text, without its body."""
    text = text or ""
    i = text.find("(")
    j = match_paren(text, i) if i >= 0 else -1
    return re.sub(r"\s+", " ", text[:j + 1]) if j > 0 else text


def diff_rows(rep):
    """Rows of a report for diffing: one per function, a row that stands
    for several (gale_kb_x_d|gale_kb_x_f, both inlined into one caller)
    split into one per function."""
    out = []
    for r in rep["loops"]:
        if r["kind"] == "omp-simd-merge":
            continue
        for fn in r["function"].split("|"):
            out.append(dict(r, function=fn))
    return out


def diff_reports(a, b, show_all=False):
    """Loops whose status or width changed. Rows are paired in passes, each
    on a looser key than the one before, so that line numbers (another
    commit), inlining decisions (another compiler: the caller differs) and a
    changed loop body (another commit) do not hide a loop's counterpart:
    function + caller + loop source text; function + source text;
    function + caller + loop header `for (...)`; function + header; and for
    rows without source text, function + caller + file:line."""
    keys = [
        lambda r: (r["function"], r.get("caller"), re.sub(r"\s+", " ", r.get("source") or "")),
        lambda r: (r["function"], re.sub(r"\s+", " ", r.get("source") or "")),
        lambda r: (r["function"], r.get("caller"), loop_header(r.get("source"))),
        lambda r: (r["function"], loop_header(r.get("source"))),
        # a loop the source scan has no text for (gcc's loops with no source
        # loop behind them): only its exact place pairs it
        lambda r: (r["function"], r.get("caller"), r.get("loop_file"), r.get("loop_line"), "@"),
    ]
    ra_all, rb_all = diff_rows(a), diff_rows(b)
    pairs, left_a, left_b = [], list(ra_all), list(rb_all)
    for key in keys:
        pool = collections.defaultdict(list)
        exact = key is keys[-1]
        for r in left_b:
            if bool(r.get("source")) != exact:
                pool[key(r)].append(r)
        rest = []
        for r in left_a:
            cand = pool.get(key(r)) if bool(r.get("source")) != exact else None
            if cand:
                pairs.append((r, cand.pop(0)))
            else:
                rest.append(r)
        taken = {id(rb) for _, rb in pairs}
        left_a, left_b = rest, [r for r in left_b if id(r) not in taken]
    pairs += [(r, None) for r in left_a] + [(None, r) for r in left_b]
    changes = []
    for ra, rb in pairs:
        if ra and rb:
            same = (ra["vectorized"] == rb["vectorized"] and bool(ra.get("partial")) == bool(rb.get("partial"))
                    and ra.get("vf") == rb.get("vf") and ra.get("bits") == rb.get("bits")
                    and bool(ra.get("slp")) == bool(rb.get("slp")))
            if same and not show_all:
                continue
            if ra["vectorized"] != rb["vectorized"]:
                what = "now vectorised" if rb["vectorized"] else "no longer vectorised"
            elif same:
                what = "same"
            else:
                what = "width"
        else:
            what = "only in B" if rb else "only in A"
        changes.append((what, rb or ra, ra, rb))
    order = {"no longer vectorised": 0, "now vectorised": 1, "width": 2, "only in A": 3,
             "only in B": 4, "same": 5}
    changes.sort(key=lambda c: (order[c[0]], c[1].get("loop_file") or "", c[1].get("loop_line") or 0,
                                c[1]["function"]))
    return changes


def diff_markdown(a, b, changes, label_a=None, label_b=None):
    def label(rep):
        c = rep["config"]
        g = rep.get("git") or {}
        return "%s %s%s" % (c["compiler"], c["isa"], (" @" + g["commit"]) if g.get("commit") else "")
    la, lb = label_a or label(a), label_b or label(b)
    out = ["# Vectorisation diff: A = %s, B = %s" % (la, lb), ""]
    out.append("- A flags: `%s`" % " ".join(f for f in a["config"]["flags"] if not f.startswith("-I")))
    out.append("- B flags: `%s`" % " ".join(f for f in b["config"]["flags"] if not f.startswith("-I")))
    out.append("- %d loop(s) changed status or width (rows paired by function, caller and loop source text, then by looser keys: see docs/vecreport.md)" %
               sum(1 for c in changes if c[0] != "same"))
    out.append("")
    if not changes:
        out.append("No loop changed.")
        return "\n".join(out) + "\n"
    out.append("| function | loop | caller | A | B | change |")
    out.append("|---|---|---|---|---|---|")
    for what, r, ra, rb in changes:
        src = r.get("source") or ""
        out.append("| %s | `%s` (%s) | %s | %s | %s | %s |" % (
            r["function"], md_escape(shorten(src, 50)), loop_text(r), r.get("caller") or "",
            md_escape(cell(ra)), md_escape(cell(rb)), what))
    out.append("")
    return "\n".join(out)
