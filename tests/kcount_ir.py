"""Counts the floating-point operations of the kernel bodies as they run:
reads the LLVM IR of tests/kcount_probe.c (clang -O0 -ffp-contract=off
-S -emit-llvm) and writes it back with a call of gale_kc_flops(n) before
every instruction that does n floating-point operations, in every function
but the dispatch itself (gale_kc_run: the call's argument conversions are
the launch's, which a compiled launch hoists out of its loop).

The counting rule (docs/report.md, "Minimum bytes and flops"): add,
subtract, multiply, divide, square root, min, max and a comparison count 1
each, a fused multiply-add 2, per vector lane (a comparison is counted so
that a min written as a < b ? a : b counts as fmin does); the choice itself
(select, a branch), negation, fabs, copysign, rounding to integers and
conversions count nothing. A call of a libm function (pow, log, exp, ...)
counts 1: the operations inside the library are its own and vary with the
argument. A call of any other function outside the module that returns a
floating-point value stops the script: it must be given a count here first.

usage: kcount_ir.py IN.ll OUT.ll"""
import re
import sys

ARITH = {"fadd", "fsub", "fmul", "fdiv", "frem", "fcmp"}
# intrinsics and libm functions, by name without the type suffix
ONE = {"sqrt", "minnum", "maxnum", "minimum", "maximum", "minimumnum", "maximumnum", "pow",
       "powi", "exp", "exp2", "exp10", "log", "log2", "log10", "sin", "cos", "tan", "atan",
       "atan2", "asin", "acos", "sinh", "cosh", "tanh", "cbrt", "hypot", "fmin", "fmax"}
TWO = {"fma", "fmuladd"}
NONE = {"fabs", "copysign", "trunc", "floor", "ceil", "round", "rint", "nearbyint",
        "roundeven", "lround", "llround", "lrint", "llrint"}

src, dst = sys.argv[1:3]
lines = open(src).read().split("\n")
defined = {m.group(1) for m in (re.match(r"define\b[^@]*@([\w.$]+)\(", ln) for ln in lines) if m}

inst = re.compile(r"^\s+(?:%[\w.]+\s*=\s*)?(\w+)\b(.*)$")
call = re.compile(r"\bcall\b[^@]*@([\w.$]+)\(")
fptype = re.compile(r"^(?:\s*(?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc)\b)*\s*"
                    r"(<(\d+) x (?:half|float|double|fp128|x86_fp80)>|half|float|double|fp128|x86_fp80)\b")


def lanes(rest):
    m = fptype.match(rest)
    if not m:
        return None
    return int(m.group(2)) if m.group(2) else 1


def weight(ln):
    """floating-point operations of one instruction line (0: none)"""
    m = inst.match(ln)
    if not m:
        return 0
    op, rest = m.group(1), m.group(2)
    if op in ARITH:
        if op == "fcmp":  # fcmp <predicate> <type> ...
            rest = re.sub(r"^(\s*(?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc)\b)*\s*\w+", "", rest)
        n = lanes(rest)
        if n is None:
            sys.exit(f"kcount_ir: no floating-point type in: {ln.strip()}")
        return n
    c = call.search(ln)
    if op not in ("call", "tail") or not c:
        return 0
    name = c.group(1)
    if name in defined or name.startswith("__sanitizer_cov") or name == "gale_kc_unit":
        return 0
    base = name[5:].split(".")[0] if name.startswith("llvm.") else name
    ret = re.search(r"\bcall\b\s*(?:\w+\s+)*?(<\d+ x \w+>|\w+)\s+@", ln)
    n = 1
    if ret:
        r = ret.group(1)
        v = re.match(r"<(\d+) x", r)
        n = int(v.group(1)) if v else 1
    if base.rstrip("f") in TWO or base in TWO:
        return 2 * n
    if base in ONE or base.rstrip("f") in ONE or base.rstrip("l") in ONE:
        return n
    if base in NONE or base.rstrip("f") in NONE:
        return 0
    if name.startswith("llvm."):
        return 0  # not arithmetic: lifetime, noalias scopes, memcpy, ...
    if ret and re.match(r"(<\d+ x )?(half|float|double|fp128|x86_fp80)", ret.group(1)):
        sys.exit(f"kcount_ir: @{name} returns a floating-point value and has no count: "
                 "give it one in tests/kcount_ir.py")
    return 0


out, fn, counted = [], None, 0
for ln in lines:
    d = re.match(r"define\b[^@]*@([\w.$]+)\(", ln)
    if d:
        fn = d.group(1)
    elif ln.startswith("}"):
        fn = None
    w = weight(ln) if fn and fn != "gale_kc_run" else 0
    if w:
        indent = re.match(r"^\s*", ln).group(0)
        out.append(f"{indent}call void @gale_kc_flops(i64 {w})")
        counted += 1
    out.append(ln)
out.append("declare void @gale_kc_flops(i64)")
if counted == 0:
    sys.exit(f"kcount_ir: no floating-point operation found in {src}")
open(dst, "w").write("\n".join(out) + "\n")
