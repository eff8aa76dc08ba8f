"""clang's records: the optimisation-record YAML of the loop and SLP
vectorisers and the loop unroller, and the optimised IR with line tables
(which says which inlined body a loop came from, and its vector widths)."""

import collections
import json
import os
import re

from .rawloop import RawLoop


def yaml_scalar(s):
    s = s.strip()
    if s.startswith("'") and s.endswith("'"):
        return s[1:-1].replace("''", "'")
    if s.startswith('"') and s.endswith('"'):
        return json.loads(s)
    return s


def parse_clang_yaml(path):
    """The remark YAML is regular (one document per remark, flat keys, an Args
    list of one-key maps), so a small reader does instead of PyYAML."""
    text = open(path, errors="replace").read()
    remarks = []
    for m in re.finditer(r"^--- !(\w+)\n(.*?)^\.\.\.$", text, re.M | re.S):
        kind, body = m.group(1), m.group(2)
        # join wrapped flow maps and quoted scalars onto one line
        lines = []
        for ln in body.split("\n"):
            if lines and (lines[-1].count("{") > lines[-1].count("}")
                          or (lines[-1].count("'") % 2 == 1)
                          or (lines[-1].count('"') - lines[-1].count('\\"')) % 2 == 1):
                lines[-1] += " " + ln.strip()
            else:
                lines.append(ln)
        r = {"kind": kind, "args": []}
        in_args = False
        for ln in lines:
            if ln.startswith("Args:"):
                in_args = True
                continue
            if not ln.startswith(" "):
                in_args = False
                km = re.match(r"(\w+):\s*(.*)$", ln)
                if km:
                    r[km.group(1)] = km.group(2)
                continue
            if in_args:
                am = re.match(r"\s*-\s*(\w+):\s*(.*)$", ln)
                if am:
                    r["args"].append((am.group(1), yaml_scalar(am.group(2))))
        loc = re.search(r"File:\s*'?([^',]+)'?,\s*Line:\s*(\d+),\s*Column:\s*(\d+)", r.get("DebugLoc", ""))
        r["file"], r["line"], r["col"] = (loc.group(1), int(loc.group(2)), int(loc.group(3))) if loc else (None, None, None)
        r["text"] = "".join(v for k, v in r["args"] if k != "DebugLoc").strip()
        for k, v in r["args"]:
            if k in ("VectorizationFactor", "InterleaveCount"):
                r[k] = v
        remarks.append(r)
    return remarks


def clang_loops(remarks):
    """Group loop-vectorize remarks into loops: the !Analysis remarks give the
    reason and come before the !Missed remark of their loop; !Passed says
    vectorised, with width and interleave count."""
    loops, pending = [], collections.defaultdict(list)
    slp, unrolled = [], []
    for r in remarks:
        fn = r.get("Function")
        if r.get("Pass") == "slp-vectorizer":
            if r["kind"] == "Passed" and r["file"]:
                slp.append(r)
            continue
        if r.get("Pass") == "loop-unroll":
            if r["kind"] == "Passed" and r.get("Name") == "FullyUnrolled" and r["file"]:
                unrolled.append(r)
            continue
        if r.get("Pass") != "loop-vectorize":
            continue
        name = r.get("Name")
        if r["kind"] == "Passed" and name == "Vectorized":
            vf = r.get("VectorizationFactor", "")
            ic = r.get("InterleaveCount")
            loops.append(RawLoop(file=r["file"], line=r["line"], col=r["col"], caller=fn,
                                 vectorized=True, vf=int(vf) if vf.isdigit() else vf,
                                 interleave=int(ic) if ic and ic.isdigit() else ic))
            pending[fn] = []
        elif r["kind"].startswith("Analysis"):
            if name not in ("InterleavingNotBeneficial", "InterleavingNotBeneficialAndDisabled",
                            "InterleavingBeneficialButDisabled"):
                t = re.sub(r"^loop not vectorized:\s*", "", r["text"])
                pending[fn].append((t, r))
        elif r["kind"] == "Missed":
            if name in ("InterleavingNotBeneficial", "InterleavingAvoided"):
                continue
            reasons = [t for t, _ in pending.pop(fn, [])]
            if name == "VectorizationNotBeneficial" or not reasons:
                if name != "MissedDetails" or not reasons:
                    reasons.append(r["text"])
            reasons = [t.split(". Use #pragma")[0] for t in reasons]
            uniq = []
            for t in reasons:
                if t not in uniq:
                    uniq.append(t)
            loops.append(RawLoop(file=r["file"], line=r["line"], col=r["col"], caller=fn,
                                 reason="; ".join(uniq[:2]) or "no reason given",
                                 reasons=uniq[2:]))
    return loops, slp, unrolled


class ClangIR:
    """What clang's remarks leave out, read from the optimised IR with line
    tables: for each function, its loops (start location, the inlined
    function they came from, vectorised or not) and, per source line, the
    inlined functions and vector types of its instructions."""

    VEC = re.compile(r"<(\d+) x (double|float|i64|i32|i16|i8|half)>")
    SIZE = {"double": 64, "i64": 64, "float": 32, "i32": 32, "i16": 16, "half": 16, "i8": 8}

    def __init__(self, path):
        self.md = {}
        self.loops = collections.defaultdict(list)   # llvm fn -> [dict]
        self.lines = collections.defaultdict(dict)   # llvm fn -> line -> {subs, vec}
        if not path or not os.path.exists(path):
            return
        lines = open(path, errors="replace").read().split("\n")
        for ln in lines:
            if ln.startswith("!"):
                m = re.match(r"^!(\d+) = (?:distinct )?(.*)$", ln)
                if m:
                    self.md[m.group(1)] = m.group(2)
        self._sub_cache = {}
        fn, block = None, []
        for ln in lines:
            if ln.startswith("define "):
                m = re.search(r'@("[^"]+"|[\w.$]+)\(', ln)
                fn, block = m.group(1).strip('"') if m else None, []
                continue
            if fn is None:
                continue
            if ln.startswith("}"):
                fn = None
                continue
            if re.match(r"^[\w.$\"-]+:", ln):
                block = []
            block.append(ln)
            d = re.search(r"!dbg !(\d+)", ln)
            if d:
                loc = self.md.get(d.group(1), "")
                lm = re.search(r"line: (\d+)", loc)
                if lm:
                    info = self.lines[fn].setdefault(int(lm.group(1)), {"subs": set(), "vec": {}})
                    info["subs"].add(self._subprogram(loc))
                    if re.search(r"\b(load|store)\b", ln):
                        for n, t in self.VEC.findall(ln):
                            n, size = int(n), self.SIZE[t]
                            info["vec"][n] = max(info["vec"].get(n, 0), size)
            m = re.search(r"!llvm\.loop !(\d+)", ln)
            if m:
                info = self._loop(m.group(1), block)
                if info:
                    self.loops[fn].append(info)

    def _loop(self, mid, block):
        refs = re.findall(r"!(\d+)", self.md.get(mid, ""))
        start = next((r for r in refs[1:] if self.md.get(r, "").startswith("!DILocation")), None)
        if not start:
            return None
        loc = self.md[start]
        line = int(re.search(r"line: (\d+)", loc).group(1))
        cm = re.search(r"column: (\d+)", loc)
        vectorized = any('"llvm.loop.isvectorized", i32 1' in self.md.get(r, "") for r in refs)
        vec = {}
        for ln in block:
            if re.search(r"\b(load|store)\b", ln):
                for n, t in self.VEC.findall(ln):
                    vec[int(n)] = max(vec.get(int(n), 0), self.SIZE[t])
        return {"line": line, "col": int(cm.group(1)) if cm else 0, "sub": self._subprogram(loc),
                "vector_body": vectorized and bool(vec), "vec": vec, "claimed": False}

    def _subprogram(self, loc):
        m = re.search(r"scope: !(\d+)", loc)
        key = m.group(1) if m else None
        if key in self._sub_cache:
            return self._sub_cache[key]
        name, seen = None, 0
        while m and seen < 64:
            node = self.md.get(m.group(1), "")
            if node.startswith("!DISubprogram"):
                n = re.search(r'name: "([^"]+)"', node)
                name = n.group(1) if n else None
                break
            m = re.search(r"scope: !(\d+)", node)
            seen += 1
        self._sub_cache[key] = name
        return name

    @staticmethod
    def _bits(vec, vf):
        """Bits of one vector of the loop: VF lanes of its widest element
        (interleaved groups move wider vectors; those are not the width)."""
        if isinstance(vf, int) and vf in vec:
            return vf * vec[vf]
        return None

    def body_of(self, raw, extent=None):
        """The inlined function a remark's loop belongs to, and the vector
        bits when it was vectorised. First the IR loop that starts where the
        remark points; failing that (a vectorised loop whose single vector
        iteration left no loop behind, a fully unrolled loop), the functions
        whose instructions carry the source loop's lines."""
        cands = [c for c in self.loops.get(raw.caller, [])
                 if c["line"] == raw.line and (not raw.col or c["col"] == raw.col)]
        if raw.vectorized:
            pool = [c for c in cands if c["vector_body"] and not c["claimed"]
                    and (not isinstance(raw.vf, int) or raw.vf in c["vec"])] or \
                   [c for c in cands if c["vector_body"] and not c["claimed"]]
        else:
            pool = [c for c in cands if not c["vector_body"] and not c["claimed"]]
        pool = pool or cands
        if pool:
            c = pool[0]
            if raw.vectorized:
                c["claimed"] = True
            else:
                # a loop appears once per copy: claim all copies of this body
                # here, so that a second remark at the same place finds the other
                for o in cands:
                    if o["sub"] == c["sub"] and not o["vector_body"]:
                        o["claimed"] = True
            return c["sub"], self._bits(c["vec"], raw.vf) if raw.vectorized else None
        if not extent:
            return None, None
        subs, vec = set(), {}
        for ln in range(extent[0], extent[1] + 1):
            info = self.lines.get(raw.caller, {}).get(ln)
            if info:
                subs |= {s for s in info["subs"] if s}
                for n, size in info["vec"].items():
                    vec[n] = max(vec.get(n, 0), size)
        name = "|".join(sorted(subs)) if subs else None
        return name, self._bits(vec, raw.vf) if raw.vectorized else None
