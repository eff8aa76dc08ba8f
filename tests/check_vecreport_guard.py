#!/usr/bin/python3
"""The kernel guard of `tools/vecreport` can fail, naming the kernel
(docs/vecreport.md). From a report the hot test just made (REPORT.json, all
kernels passing), copies with one thing broken:

  * a kernel's SIMD loop not vectorised, a kernel's loops or its launch loop
    missing from the report, an exception list that lacks a kernel or names
    one that does not exist: `vecreport check` (no compiler);
  * a kernel row added to a copy of the sources: in the guard at once;
  * with clang-19 (seconds; gcc takes a minute): a copy of the tree in which
    grad_h's level loop calls an opaque function, compiled for real.

usage: check_vecreport_guard.py REPORT.json WORKDIR
"""
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "vecreport")
EXC = os.path.join(ROOT, "tools", "vecreport_exceptions.txt")
report, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
base = json.load(open(report))
failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(args):
    r = subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout + r.stderr


def vcheck(rep, name, exc=EXC, root=ROOT):
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(rep, f)
    return run(["check", path, "--exceptions", exc, "--root", root])


def copy():
    return json.loads(json.dumps(base))


rc, out = vcheck(base, "as-made")
check(rc == 0, "the report as made passes (exit %d)" % rc)

# one loop of grad_h not vectorised
rep = copy()
hit = [r for r in rep["loops"] if r["function"] == "gale_kb_grad_h_in_d" and r.get("simd")]
for r in hit:
    r["vectorized"], r["reason"] = False, "broken by check_vecreport_guard"
rc, out = vcheck(rep, "grad_h-scalar")
check(hit and rc == 1 and "kernel grad_h not vectorised" in out
      and "broken by check_vecreport_guard" in out,
      "grad_h's SIMD loop not vectorised: fails naming grad_h and the reason (exit %d)" % rc)

# a kernel's loops missing from the report
rep = copy()
n = len(rep["loops"])
rep["loops"] = [r for r in rep["loops"] if r["function"] != "gale_kb_nl_grid"]
rc, out = vcheck(rep, "nl_grid-missing")
check(len(rep["loops"]) < n and rc == 1 and "kernel nl_grid" in out and "no-remark" in out,
      "nl_grid's loops missing: fails naming nl_grid, no-remark (exit %d)" % rc)

# a FLAT kernel's launch loop missing
rep = copy()
rep["loops"] = [r for r in rep["loops"] if r.get("kernel") != "axpby"]
rc, out = vcheck(rep, "axpby-missing")
check(rc == 1 and "kernel axpby" in out and "launch loop" in out,
      "axpby's launch loop missing: fails naming axpby (exit %d)" % rc)

# a fused group's loop (docs/fusion.md): mix_u's loops as compiled into the
# group loop of resid_u left out (or not vectorised there); the kernel mix_u
# itself still passes on its own launch's loops, the group fails by name
rep = copy()
rep["loops"] = [r for r in rep["loops"]
                if not (r["function"].startswith("gale_kb_mix_u") and r.get("caller") == "gale_k_run_group")]
rc, out = vcheck(rep, "resid_u-missing")
check(rc == 1 and "fused group resid_u" in out and "kernel mix_u" not in out and "no instance in the group loop" in out,
      "mix_u's group-loop instances missing: fails naming group resid_u, not mix_u (exit %d)" % rc)
rep = copy()
for r in rep["loops"]:
    if r.get("kernel") == "axpby" and r.get("caller") == "gale_k_run_group":
        r["vectorized"], r["reason"] = False, "broken by check_vecreport_guard"
rc, out = vcheck(rep, "rk_stage-scalar")
check(rc == 1 and "fused group rk_stage" in out and "broken by check_vecreport_guard" in out,
      "axpby's launch loop scalar in the group loop: fails naming group rk_stage (exit %d)" % rc)

# the exception list: a kernel left out, and an entry for no kernel
lines = open(EXC).read().split("\n")
for name, text, want in (
        ("no-nl_eos", "\n".join(l for l in lines if not l.startswith("nl_eos ")), "kernel nl_eos"),
        ("stale", "\n".join(lines + ["no_such_kernel | * | * | gone"]), "no kernel row `no_such_kernel`")):
    path = os.path.join(work, name + ".txt")
    with open(path, "w") as f:
        f.write(text)
    rc, out = vcheck(base, name, exc=path)
    check(rc == 1 and want in out, "exception list %s: fails with `%s` (exit %d)" % (name, want, rc))

# a kernel row added to a copy of the sources is in the guard without any
# other list changing (the report has nothing for it: no-remark)
tree = os.path.join(work, "tree")
shutil.rmtree(tree, ignore_errors=True)
for d in ("kernels", "kernels_cpu", "base", "layout"):
    shutil.copytree(os.path.join(ROOT, d), os.path.join(tree, d))
for f in ("CMakeLists.txt", "CMakePresets.json"):
    shutil.copy(os.path.join(ROOT, f), tree)
hdr = os.path.join(tree, "kernels", "gale_kbodies_transport.h")
text = open(hdr).read()
probe = ("static inline void gale_kb_guard_probe(const gale_kmesh_t *km, int c, double *restrict y)\n"
         "{\n    GALE_SIMD\n    for (int k = 0; k < km->nlev; k++) y[(size_t)c * km->sc + k] = 0;\n}\n\n")
row = "    K(guard_probe, CELLS, M, D, 0, 0, 0, 0, ((y, C, W, 0)), gale_kb_guard_probe(KM, i, y), 0) \\\n"
at = text.index("#define GALE_KROWS_TRANSPORT(K)")
eol = text.index("\n", at) + 1
with open(hdr, "w") as f:
    f.write(text[:at] + probe + text[at:eol] + row + text[eol:])
rc, out = vcheck(base, "new-row", root=tree)
nk = len(base["kernels"]) + 1  # the rows, and the probe
check(rc == 1 and "kernel guard_probe" in out and f"{nk} kernels" in out,
      f"a row added to the sources: {nk} kernels, guard_probe fails until compiled (exit {rc})")

# for real: grad_h's loop made non-vectorisable in a copy, compiled with clang
if shutil.which("clang-19"):
    shutil.copy(os.path.join(ROOT, "kernels", "gale_kbodies_transport.h"), hdr)
    body = os.path.join(tree, "kernels", "gale_kbodies_mixed.h")
    text = open(body).read()
    loop = "o[k] = a[k] - (deep ? f * hl[k] : f) * (p2[k] - p1[k]);"
    if loop not in text:
        sys.exit("check_vecreport_guard: grad_h's loop `%s` not found: update this test" % loop)
    text = text.replace(loop, "o[k] = a[k] - (deep ? f * hl[k] : f) * gale_guard_opaque(p2[k] - p1[k]);")
    text = text.replace("static inline", "double gale_guard_opaque(double);\nstatic inline", 1)
    with open(body, "w") as f:
        f.write(text)
    rc, out = run(["report", "--root", tree, "--compiler", "clang", "--isa", "native",
                   "--out", os.path.join(work, "broken"), "--exceptions", EXC, "--check"])
    if rc != 1:
        print(out[-3000:])
    check(rc == 1 and "kernel grad_h not vectorised by clang" in out,
          "clang on a copy with grad_h's loop calling an opaque function: fails naming grad_h (exit %d)" % rc)
else:
    print("skip: no clang-19 for the compiled check")

if failures:
    sys.exit("check_vecreport_guard: %d check(s) failed: %s" % (len(failures), "; ".join(failures)))
print("check_vecreport_guard: all checks passed")
