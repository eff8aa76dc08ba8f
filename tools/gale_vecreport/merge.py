"""From compiler loops to report rows: each RawLoop is given its source loop,
body function and caller; rows landing on one (function, loop, caller) are
merged; clang's fully unrolled loops get rows of their own."""

import collections
import re

from .common import rel


CLONE = re.compile(r"\.(constprop|isra|part|cold|lto_priv|localalias)(\.\d+)*$")


def split_caller(fn):
    """('gale_k_helmholtz', 'omp region 1') from gcc's gale_k_helmholtz._omp_fn.1
    or clang's gale_k_helmholtz.omp_outlined.15; clone suffixes kept apart."""
    if fn is None:
        return None, None
    clone = None
    m = CLONE.search(fn)
    while m:
        clone = (clone or "") + m.group(0)
        fn = fn[:m.start()]
        m = CLONE.search(fn)
    m = re.match(r"^(.*?)\._omp_fn\.(\d+)$", fn) or re.match(r"^(.*?)\.omp_outlined(?:[._]\w*)?$", fn)
    if m:
        return m.group(1), "omp region"
    return fn, clone


def resolve(raw, inv, family, ir):
    """Attach source loop, body function and caller to one compiler loop."""
    row = {
        "file": rel(raw.file, inv.root) if raw.file else None, "remark_line": raw.line,
        "column": raw.col, "compiled_in": raw.caller,
    }
    caller, _ = split_caller(raw.caller)
    row["caller"] = caller
    body = None
    sf = inv.file(raw.file)
    loop = sf.innermost_loop(raw.line) if sf else None
    if family == "gcc" and raw.chain:
        body = raw.chain[0][0]
    elif family == "clang" and ir is not None:
        body, bits = ir.body_of(raw, (loop.first, loop.last) if loop else None)
        if raw.vectorized and bits:
            raw.bits = bits
    if body:
        parts = [split_caller(b) for b in body.split("|")]
        body = "|".join(sorted({p[0] for p in parts}))
        clone = parts[0][1]
        if clone and clone != "omp region" and len(parts) == 1:
            row["clone"] = clone
    kind = "omp-simd-merge" if raw.generated else ("outer" if raw.outer else "loop")
    krow = inv.row_at(sf, raw.line) if loop is None else None
    if krow is None and loop is None and family == "gcc" and len(raw.chain) > 1 and raw.chain[1][1]:
        # gcc places a FLAT launch loop at its inlined body's first
        # statement; the call site is the kernel's row
        site = raw.chain[1][1]
        krow = inv.row_at(inv.file(site.get("file")), site.get("line"))
    if krow is None and loop is None and sf and family == "gcc" and len(raw.chain) > 1 and raw.chain[1][1]:
        # an outer loop to which gcc gave a location in the inlined body: it
        # is the loop around the call site in the caller
        site = raw.chain[1][1]
        ssf = inv.file(site.get("file"))
        loop = ssf.innermost_loop(site.get("line")) if ssf else None
        if loop is not None:
            row["calls"] = body
            body = split_caller(raw.chain[1][0])[0]
    if loop is not None:
        row["loop_file"], row["loop_line"] = loop.file, loop.line
        row["source"] = loop.text
        row["simd"] = loop.simd
        if body is None:
            names = sorted(loop.names)
            if len(names) == 1:
                body = names[0]
            elif caller in names:
                body = caller
            elif names:
                body = "|".join(names)
        called = set(re.findall(r"\b(\w+)\s*\(", loop.text)) | {row.get("calls")}
        if kind == "loop" and (any(loop.first < o.first and o.last <= loop.last
                                   for o in sf_loops(inv, loop.file))
                               or any(c and inv.has_loops(c) for c in called)):
            kind = "outer"
    elif krow is not None:
        # a launch loop of the dispatch, re-expanded at its kernel's row
        row["loop_file"], row["loop_line"] = krow["file"], krow["line"]
        row["kernel"] = krow["name"]
        row["source"] = "(launch loop of kernel %s: GALE_KLOOP_%s)" % (krow["name"], krow["space"])
        row["simd"] = inv.space_is_simd(krow["space"])
        if not row["simd"]:
            kind = "outer"  # threads over columns around a body with level loops
    else:
        macro = inv.expansion_at(raw.file, raw.line) if raw.file else None
        row["loop_file"], row["loop_line"] = row["file"], raw.line
        row["source"] = ("(a loop of macro %s, expanded here)" % macro) if macro else None
        row["simd"] = False
        if macro:
            row["macro"] = macro
    row["function"] = body or caller or "?"
    row["kind"] = kind
    row["vectorized"] = bool(raw.vectorized)
    row["vf"] = raw.vf
    row["bits"] = raw.bytes * 8 if raw.bytes else getattr(raw, "bits", None)
    row["interleave"] = raw.interleave
    if raw.epilogue_bytes:
        row["epilogue_bits"] = raw.epilogue_bytes * 8
    row["reason"] = None if raw.vectorized else raw.reason
    if hint_for(row["reason"]):
        row["hint"] = hint_for(row["reason"])
    if raw.reasons and not raw.vectorized:
        row["more_reasons"] = raw.reasons
    if raw.notes:
        row["notes"] = raw.notes
    if raw.libcall:
        row["libcall"] = raw.libcall
    return row


def sf_loops(inv, path):
    sf = inv.file(path)
    return sf.loops if sf else []


HINTS = [
    (r"not vectorizable.*`[^`]*\b(trunc|floor|ceil|round)\b",
     "gcc vectorises trunc/floor/ceil on x86 only with -fno-trapping-math"),
    (r"fully unrolled.*left scalar",
     "clang unrolled this constant-trip loop before its loop vectoriser: "
     "`#pragma clang loop unroll(disable)` on it (or -fno-unroll-loops) lets the loop vectoriser take it"),
    (r"reorder floating-point|fold-left reduction|double reduction",
     "an in-order floating-point sum: vectorising it reorders the additions "
     "(omp simd reduction, or -fassociative-math, changes the rounding)"),
]


def hint_for(reason):
    """A known cause for a compiler message, with the usual way out."""
    for pat, hint in HINTS:
        if reason and re.search(pat, reason):
            return hint
    return None


def loop_key(row):
    """A key that survives edits elsewhere in the file (for diffs against
    another commit): function, caller, kind and the loop's own source text,
    not its line number."""
    src = re.sub(r"\s+", " ", row.get("source") or "@%s:%s" % (row.get("file"), row.get("remark_line")))
    return "%s | %s | %s" % (row["function"], row.get("caller"), src)


def merge_rows(rows):
    """One row per (function, loop, caller). Several compiler loops land on
    one key when the compiler copied the loop (versioning, unswitching), when
    a macro holding a loop is expanded twice in one function, or when a
    function is inlined twice into one caller: the row is vectorised only
    when every copy is."""
    groups = collections.OrderedDict()
    for r in rows:
        k = (r["function"], r.get("loop_file"), r.get("loop_line"), r.get("caller"),
             r["kind"] == "omp-simd-merge", r.get("clone"), r.get("source"))
        groups.setdefault(k, []).append(r)
    out = []
    for k, rs in groups.items():
        r = dict(rs[0])
        if any(x["kind"] == "outer" for x in rs):
            r["kind"] = "outer"
        if len(rs) > 1:
            vec = [x for x in rs if x["vectorized"]]
            r["copies"] = len(rs)
            r["copies_vectorized"] = len(vec)
            if vec and len(vec) < len(rs):
                r["vectorized"] = False
                r["partial"] = True
                r["reason"] = next(x["reason"] for x in rs if not x["vectorized"])
                r["vf"], r["bits"], r["interleave"] = vec[0]["vf"], vec[0]["bits"], vec[0]["interleave"]
            elif vec:
                r["vf"] = max(x["vf"] or 0 for x in vec) or None
                r["bits"] = max(x["bits"] or 0 for x in vec) or None
                r["interleave"] = max(x["interleave"] or 0 for x in vec) or None
                eb = [x.get("epilogue_bits") for x in vec if x.get("epilogue_bits")]
                if eb:
                    r["epilogue_bits"] = max(eb)
        out.append(r)
    return out


def add_unrolled(rows, unrolled, slp_remarks, inv, ir):
    """Rows for loops clang unrolled away before its loop vectoriser ran.

    clang fully unrolls short constant-trip loops (the GALE_LANES lane loops
    of the tridiagonal solve, say) while it simplifies each function, before
    inlining it and before the loop vectoriser; such a loop has no
    loop-vectorize remark. Its straight-line copies can still be vectorised
    by the SLP vectoriser, which runs late, in the function the code ends up
    in. So: every function of the final IR that holds code of an unrolled
    loop (by the IR's line tables) gets a row for it, vectorised ('SLP') when
    an SLP remark of that function falls inside the loop, else not."""
    have = {(r.get("loop_file"), r.get("loop_line"), r.get("compiled_in")) for r in rows}
    facts = collections.OrderedDict()   # source loop -> unroll remark text
    for u in unrolled:
        sf = inv.file(u["file"])
        lp = sf.innermost_loop(u["line"]) if sf else None
        if lp:
            facts.setdefault((lp.file, lp.line), (lp, u))
    slp_at = collections.defaultdict(list)
    for s in slp_remarks:
        sf = inv.file(s["file"])
        lp = sf.innermost_loop(s["line"]) if sf else None
        if lp:
            slp_at[(lp.file, lp.line, s.get("Function"))].append(s)
            facts.setdefault((lp.file, lp.line), (lp, None))
    added = []
    for lp, u in facts.values():
        where = []
        if ir is not None:
            for fn, lines in ir.lines.items():
                subs = set()
                for ln in range(lp.first, lp.last + 1):
                    if ln in lines:
                        subs |= {s for s in lines[ln]["subs"] if s}
                subs = {split_caller(s)[0] for s in subs}
                body = subs & lp.names if lp.names else subs
                if body:
                    where.append((fn, "|".join(sorted(body))))
        for fn, body in where:
            if (lp.file, lp.line, fn) in have:
                continue
            slp = slp_at.get((lp.file, lp.line, fn))
            if u is not None:
                note = "fully unrolled (%s)" % re.sub(r"^completely unrolled loop\s*", "", u["text"])
            else:
                note = "no loop remark (unrolled or folded into straight-line code)"
            added.append({
                "file": lp.file, "remark_line": (u or slp[0])["line"], "column": (u or slp[0])["col"],
                "compiled_in": fn, "caller": split_caller(fn)[0], "function": body,
                "loop_file": lp.file, "loop_line": lp.line, "source": lp.text, "simd": lp.simd,
                "kind": "loop", "vectorized": bool(slp), "slp": bool(slp), "vf": None, "bits": None,
                "interleave": None,
                "reason": None if slp else note + ", left scalar: no SLP vectorisation in it",
                "notes": [note + ", then SLP-vectorised: " + slp[0]["text"]] if slp else []})
            if not slp and u is not None:
                added[-1]["hint"] = hint_for(added[-1]["reason"])
    return rows + added
