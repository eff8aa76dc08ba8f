"""The report as Markdown: header, the kernel guard's table, every loop, and
the source loops without a remark."""

from .cells import loop_text, md_escape, shorten, status_text, width_text
from .flags import show_flag
from .guard import guard_markdown


def to_markdown(rep, guard=None):
    c = rep["config"]
    out = ["# Vectorisation report: %s, %s" % (c["compiler"], c["isa"]), ""]
    out.append("- compiler: `%s` (%s)" % (c["command"], c["version"]))
    out.append("- flags: `%s`" % " ".join(show_flag(f) for f in c["flags"]))
    out.append("- sources: %s; flags from %s" % (", ".join(c["sources"]), c["flags_from"]))
    out.append("- records: %s" % rep["records"])
    if rep.get("git"):
        out.append("- commit: %s%s" % (rep["git"]["commit"], " (with local changes)" if rep["git"]["dirty"] else ""))
    loops = [r for r in rep["loops"] if r["kind"] != "omp-simd-merge"]
    nvec = sum(1 for r in loops if r["vectorized"])
    out.append("- loops: %d, vectorised %d (rows are per body function, loop and caller; "
               "`width` = elements per vector iteration x vector bits)" % (len(loops), nvec))
    out.append("")
    if guard is not None:
        out += guard_markdown(guard[0], guard[1], guard[3] if len(guard) > 3 else None)
    out.append("## All loops")
    out.append("")
    out.append("| loop | function | caller | kind | simd | vectorised | width | IC | source | reason / notes |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    for r in rep["loops"]:
        parts = [r.get("reason") or "; ".join(r.get("notes", []))]
        if r.get("epilogue_bits"):
            parts.insert(0, "epilogue %d b" % r["epilogue_bits"])
        if r.get("hint"):
            parts.append("hint: " + r["hint"])
        note = "; ".join(p for p in parts if p)
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | `%s` | %s |" % (
            loop_text(r), r["function"] + (r.get("clone") or ""), r.get("caller") or "",
            r["kind"], "simd" if r.get("simd") else "", status_text(r), width_text(r),
            r.get("interleave") or "",
            md_escape(shorten(r.get("source"), 60)), md_escape(shorten(note, 160))))
    out.append("")
    if rep.get("silent_loops"):
        out.append("## Source loops without any remark")
        out.append("")
        out.append("Unused functions, or code the compiler removed or folded before its vectorisers ran.")
        out.append("")
        out.append("| loop | functions | simd | source |")
        out.append("|---|---|---|---|")
        for s in rep["silent_loops"]:
            out.append("| %s:%d | %s | %s | `%s` |" % (
                s["file"], s["line"], ", ".join(s["functions"]) or "(unused)",
                "simd" if s["simd"] else "", md_escape(shorten(s["source"], 70))))
        out.append("")
    return "\n".join(out)
