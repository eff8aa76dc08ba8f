"""gcc's records: the -fsave-optimization-record JSON (every remark with its
function and inlining chain) and, for a gcc without it, the
-fopt-info-vec-all text."""

import collections
import gzip
import json
import re

from .rawloop import RawLoop


def gcc_msg(rec):
    parts = []
    for m in rec.get("message", []):
        if isinstance(m, str):
            parts.append(m)
        elif isinstance(m, dict):
            for key in ("stmt", "expr", "symtab_node"):
                if key in m:
                    parts.append("`%s`" % str(m[key]).strip().rstrip(";").strip())
                    break
    return "".join(parts)


def flatten(rec, depth=0):
    yield depth, rec
    for c in rec.get("children", []):
        yield from flatten(c, depth + 1)


# failure texts that say nothing about why (alignment bookkeeping, the SLP
# attempts inside loop analysis, generic summaries of a more precise line)
GCC_NOISE = re.compile(
    r"^$|^misalign|^Unknown (mis)?alignment|^Build SLP failed|^original stmt|"
    r"^vector alignment may not|^no array mode|^the size of the group|"
    r"^not falling back|^bad data references|^bad operation or unsupported|"
    r"^bad data access|^couldn't vectorize|^not vectorized: vector version will never|"
    r"^versioning for alias required|^SLP discovery|^Loop contains only SLP stmts|"
    r"^unsupported SLP instance")
GCC_MODE = re.compile(r"^V(\d+)([A-Z]+)$")
MODE_BYTES = {"DF": 8, "SF": 4, "DI": 8, "SI": 4, "HI": 2, "QI": 1, "HF": 2, "BF": 2, "TI": 16}


def parse_gcc_json(path):
    with open(path, "rb") as f:
        data = json.loads(gzip.decompress(f.read()))  # faster than gzip.open(..., "rt")
    passes = {}

    def walk(ps):
        for p in ps:
            passes[p["id"]] = p["name"]
            walk(p.get("children", []))
    walk(data[1])
    loops, cur = [], None

    def close():
        nonlocal cur
        if cur is not None:
            finish_gcc_loop(cur)
            loops.append(cur["loop"])
        cur = None

    for rec in data[2]:
        if passes.get(rec.get("pass")) == "ldist" and rec["kind"] == "success":
            # a loop that loop distribution turned into memcpy/memset calls
            # entirely never reaches the vectoriser
            m = re.search(r"split to 0 loops and (\d+) library calls", gcc_msg(rec))
            loc = rec.get("location")
            if m and loc:
                loops.append(RawLoop(file=loc["file"], line=loc["line"], col=loc.get("column"),
                                     caller=rec.get("function"), libcall=int(m.group(1)),
                                     chain=[(c.get("fndecl"), c.get("site"))
                                            for c in rec.get("inlining_chain", [])],
                                     reason="replaced by %s library call(s) (memcpy/memset) "
                                            "by loop distribution" % m.group(1)))
            continue
        if passes.get(rec.get("pass")) != "vect":
            continue
        text = gcc_msg(rec)
        fn = rec.get("function")
        # gcc glues "Analyzing loop at F:L" onto the previous record's text
        pieces = re.split(r"\s*Analyzing loop at (\S+):(\d+)\s*", text)
        head = pieces[0].strip()
        if cur is not None and (cur["fn"] != fn or re.match(r"vectorized \d+ loops in function", head)):
            close()
        if cur is not None and head:
            cur["top"].append((rec, head))
        for k in range(1, len(pieces), 3):
            close()
            cur = {"fn": fn, "top": [], "file": pieces[k], "line": int(pieces[k + 1]),
                   "loop": RawLoop(caller=fn)}
        if cur is not None and not head and len(pieces) == 1:
            cur["top"].append((rec, head))
    close()
    return loops


def finish_gcc_loop(cur):
    lp = cur["loop"]
    lp.file, lp.line = cur["file"], cur["line"]
    finals, attempts, attempt = [], [], []
    last_vf, succeeded, chosen = None, {}, None
    last_stmt, data_refs, lane, fold_left = None, [], False, False
    for rec, head in cur["top"]:
        loc = rec.get("location")
        if loc and lp.col is None and loc.get("line") == lp.line:
            lp.col = loc.get("column")
        if rec.get("inlining_chain") and not lp.chain:
            lp.chain = [(c.get("fndecl"), c.get("site")) for c in rec["inlining_chain"]]
        if rec["kind"] == "success":
            m = re.match(r"loop vectorized using (\d+) byte vectors(?: and unroll factor (\d+))?", head)
            if m:
                if not lp.vectorized:
                    lp.vectorized = True
                    lp.bytes = int(m.group(1))
                    if m.group(2):
                        lp.interleave = int(m.group(2))
                elif lp.epilogue_bytes is None:
                    lp.epilogue_bytes = int(m.group(1))
            elif head.startswith("loop versioned for vectorization"):
                lp.notes.append(head.rstrip("."))
        elif rec["kind"] == "failure" and head and not GCC_NOISE.match(head):
            finals.append(head)
        for depth, r in flatten(rec):
            if depth == 0:
                continue
            t = gcc_msg(r).strip()
            m = re.match(r"vectorization factor = (\d+)", t)
            if m:
                last_vf = int(m.group(1))
            m = re.match(r"\*+ Analysis succeeded with vector mode (\w+)", t)
            if m:
                succeeded.setdefault(m.group(1), last_vf)
            m = re.match(r"\*+ Choosing vector mode (\w+)", t)
            if m:
                chosen = m.group(1)
            m = re.match(r"\*+ Analysis\s+failed with vector mode (\w+)", t)
            if m:
                attempts.append((m.group(1), attempt))
                attempt = []
            if t.startswith("==> examining statement:"):
                last_stmt = t.split(":", 1)[1].strip()
            if t.startswith("got vectype for stmt:"):
                data_refs.append(t)
            if "GOMP_SIMD_LANE" in t:
                lane = True
            if "in-order (fold-left) reduction" in t and not fold_left:
                fold_left = True
            if r["kind"] == "failure" and not GCC_NOISE.match(t):
                if re.search(r"not vectorizable|not supported|unsupported", t) and last_stmt:
                    t = "%s (statement %s)" % (t.rstrip("."), last_stmt)
                if t not in attempt:
                    attempt.append(t)
    if attempt:
        attempts.append(("?", attempt))
    if chosen and chosen in succeeded:
        lp.vf = succeeded[chosen]
    if lp.vectorized and lp.vf is None and chosen:
        m = GCC_MODE.match(chosen)
        if m and m.group(2) in MODE_BYTES and m.group(2) != "QI":
            lp.vf = int(m.group(1))
    if lp.vectorized and lp.interleave is None:
        lp.interleave = 1
    if lp.vectorized and fold_left:
        lp.notes.append("in-order (fold-left) reduction: the terms are vectorised, "
                        "the additions stay in source order")
    # OpenMP simd reductions: gcc keeps per-lane partial sums in "omp simd
    # arrays" (D.1234[lane]) and adds them up in a loop it generates after the
    # simd loop. That loop vectorises easily and carries the simd loop's
    # location: it must not pass for the simd loop itself.
    if data_refs and all(re.search(r"`_\w+ = D\.\d+\[|`D\.\d+\[", d) for d in data_refs) and not lane:
        lp.generated = True
    outer_words = ("loop nest containing", "outer-loop", "outer loop", "inner-loop")
    if any(w in f for f in finals for w in outer_words) or any(
            w in t for _, a in attempts for t in a for w in outer_words):
        lp.outer = True
    if not lp.vectorized:
        # the first attempt is the one with the preferred (widest) vector mode;
        # gcc's last top-level line only explains the last, narrowest attempt
        first = next((a for _, a in attempts if a), [])
        primary = first[:2] or finals[:1]
        lp.reason = "; ".join(primary) if primary else "no reason given"
        for mode, a in attempts:
            if a:
                lp.reasons.append("%s: %s" % (mode, a[0]))
        for f in finals:
            if f not in primary:
                lp.reasons.append("final: " + f)


def parse_gcc_text(path):
    """Fallback for compilers without -fsave-optimization-record: the
    -fopt-info-vec-all text has locations and results but no function names
    (those come from the source inventory)."""
    loops, pending = {}, collections.defaultdict(list)
    order = []
    line_re = re.compile(r"^(.*?):(\d+):(\d+): (optimized|missed|note): (.*)$")
    for line in open(path, errors="replace"):
        m = line_re.match(line.rstrip("\n"))
        if not m:
            continue
        f, ln, col, kind, text = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)
        key = (f, ln)
        if kind == "optimized":
            v = re.match(r"loop vectorized using (\d+) byte vectors", text)
            if v:
                lp = loops.get(key)
                if lp and lp.vectorized:
                    lp.epilogue_bytes = lp.epilogue_bytes or int(v.group(1))
                    continue
                lp = RawLoop(file=f, line=ln, col=col, vectorized=True, bytes=int(v.group(1)),
                             interleave=1)
                loops[key] = lp
                order.append(lp)
        elif kind == "missed":
            if text.startswith("couldn't vectorize loop"):
                lp = RawLoop(file=f, line=ln, col=col)
                reasons = [r for r in pending.pop(key, []) if not GCC_NOISE.match(r)]
                lp.reason = reasons[0] if reasons else "no reason given"
                lp.reasons = reasons[1:]
                lp.outer = any("loop nest containing" in r or "outer" in r for r in reasons)
                loops[key] = lp
                order.append(lp)
            elif text.startswith("not vectorized") or text.startswith("failed:"):
                pending[key].append(text)
    return order
