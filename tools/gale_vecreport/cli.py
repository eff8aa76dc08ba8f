"""vecreport: what did the compiler vectorise in gale's kernels, and why not.

The command line of tools/vecreport (its subcommands report, diff, check and
verify-unmacro); the work is in the other modules of this package."""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from .common import ROOT, die, rel
from .cscan import KTABLE, Inventory
from .diff import diff_markdown, diff_reports
from .flags import COMPILERS, ISA_FLAGS, make_config
from .guard import check_groups, check_kernels, guard_json, read_exceptions, report_guard
from .render import to_markdown
from .report import build_report
from .unmacro import shadow_flags, unmacro


def add_config_args(p):
    g = p.add_argument_group("what to compile (default: preset cpu-gnu)")
    g.add_argument("--preset", help="a configure preset of CMakePresets.json (cpu-gnu, cpu-avx512, ...)")
    g.add_argument("--compiler", choices=sorted(COMPILERS), help="gcc or clang (with --isa)")
    g.add_argument("--isa", choices=sorted(ISA_FLAGS), help="native, avx2, avx512 or broadwell")
    g.add_argument("--build-dir", help="use the exact compile command of this CMake build directory")
    g.add_argument("--cc", help="compiler command (overrides the preset's)")
    g.add_argument("--isa-flags", help="ISA flags (overrides), e.g. '-march=znver3'")
    g.add_argument("--isa-name", help="name of the ISA in the report")
    g.add_argument("--opt", help="optimisation flags (default: the preset's CMAKE_C_FLAGS_RELEASE)")
    g.add_argument("--extra-flags", help="more compiler flags, appended (e.g. -fno-trapping-math)")
    g.add_argument("--source", action="append", help="translation unit, repository-relative "
                   "(default: every kernels_cpu/*.c); may repeat")
    p.add_argument("--root", default=ROOT, help="repository root (default: this script's)")


def exceptions_path(args, root):
    return args.exceptions or os.path.join(root, "tools", "vecreport_exceptions.txt")


def cmd_report(args):
    root = os.path.abspath(args.root)
    cfg = make_config(args, root)
    rep, inv = build_report(cfg, root, keep_dir=args.keep_records)
    guard = None
    if not args.no_guard:
        guard = check_kernels(rep, inv, read_exceptions(exceptions_path(args, root)))
        guard += (check_groups(guard[0], inv),)
        rep["kernels"] = guard_json(guard[0])
        rep["groups"] = guard_json(guard[3])
        rep["exception_problems"] = guard[1]
    name = args.name or "%s-%s" % (cfg.family, cfg.isa)
    os.makedirs(args.out, exist_ok=True)
    jpath = os.path.join(args.out, name + ".json")
    mpath = os.path.join(args.out, name + ".md")
    with open(jpath, "w") as f:
        json.dump(rep, f, indent=1)
        f.write("\n")
    with open(mpath, "w") as f:
        f.write(to_markdown(rep, guard))
    loops = [r for r in rep["loops"] if r["kind"] != "omp-simd-merge"]
    print("vecreport: %s %s: %s: %d loops, %d vectorised -> %s, %s" % (
        cfg.family, cfg.isa, ", ".join(rep["config"]["sources"]), len(loops),
        sum(r["vectorized"] for r in loops), rel(jpath), rel(mpath)))
    if guard is not None:
        return report_guard(guard, cfg, args.check)
    return 0


def cmd_check(args):
    rep = json.load(open(args.report))
    root = os.path.abspath(args.root)
    c = rep["config"]
    inv = Inventory([os.path.join(root, s) for s in c["sources"]], root,
                    [os.path.join(root, f[2:]) for f in c["flags"] if f.startswith("-I")])
    guard = check_kernels(rep, inv, read_exceptions(exceptions_path(args, root)))
    guard += (check_groups(guard[0], inv),)
    cfg = argparse.Namespace(family=c["compiler"], isa=c["isa"])
    return report_guard(guard, cfg, True)


def cmd_verify_unmacro(args):
    """The macro re-expansion must not change the code the compiler makes:
    compile the translation unit as it is and re-expanded, to assembly, and
    compare (the line numbers are the only intended difference, and without
    -g they do not reach the assembly)."""
    root = os.path.abspath(args.root)
    cfg = make_config(args, root)
    inv = Inventory(cfg.sources, root, [f[2:] for f in cfg.flags if f.startswith("-I")])
    if not inv.loop_macros:
        print("vecreport: no macro holds a loop; nothing to verify")
        return 0
    work = tempfile.mkdtemp(prefix="vecreport-verify-")
    try:
        written = unmacro(inv, os.path.join(work, "shadow"))
        flags, sources = shadow_flags(cfg, written, root)
        bad = 0
        for orig, new in zip(cfg.sources, sources):
            asm = []
            for tag, fl, src in (("as-is", cfg.flags, orig), ("re-expanded", flags, new)):
                out = os.path.join(work, "%s.s" % tag)
                cmd = [cfg.cc] + [f for f in fl if f != "-g"] + ["-S", src, "-o", out]
                r = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
                if r.returncode != 0:
                    die("compile failed (%s):\n  %s\n%s" % (tag, " ".join(cmd), r.stderr[-3000:]))
                asm.append([ln for ln in open(out).read().split("\n")
                            if not re.match(r"\s*\.(file|ident)\b", ln)])
            # and the rewrite did take effect: the preprocessed line markers differ
            pre = []
            for fl, src in ((cfg.flags, orig), (flags, new)):
                r = subprocess.run([cfg.cc] + fl + ["-E", src], cwd=work, capture_output=True, text=True)
                pre.append(re.findall(r'^#\s*(?:line\s+)?\d+ "[^"]*"', r.stdout, re.M))
            if pre[0] == pre[1]:
                die("the re-expanded headers were not used (include path?)")
            same = asm[0] == asm[1]
            print("vecreport: %s, %s: re-expanding %s %s the assembly (%d lines)" % (
                cfg.family, rel(orig, root),
                ", ".join(sorted(inv.loop_macros) + ([KTABLE + " (row by row)"] if inv.kernel_rows() else [])),
                "leaves" if same else "CHANGES", len(asm[0])))
            bad += not same
        return 1 if bad else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cmd_diff(args):
    if args.ref:
        if args.reports:
            die("diff --ref takes no report files")
        a, b = reports_for_ref(args)
    else:
        if len(args.reports) != 2:
            die("diff needs two report files (or --ref GITREF)")
        a, b = (json.load(open(p)) for p in args.reports)
    changes = diff_reports(a, b, args.all)
    text = diff_markdown(a, b, changes)
    if args.out:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(text)
        print("vecreport: %d change(s) -> %s" % (sum(1 for c in changes if c[0] != "same"), rel(args.out)))
    else:
        sys.stdout.write(text)
    return 0


def reports_for_ref(args):
    """Report at GITREF and in this tree, with the same compiler and flags
    options. The ref's files come from `git archive` into a temporary
    directory: read-only for the repository (a `git worktree add` would
    write .git/worktrees and leave it behind if interrupted), and the ref's
    own CMakeLists.txt / CMakePresets.json give its flags."""
    root = os.path.abspath(args.root)
    if args.build_dir:
        die("--ref with --build-dir is not supported: use --preset or --compiler/--isa")
    tmp = tempfile.mkdtemp(prefix="vecreport-ref-")
    try:
        tree = os.path.join(tmp, "tree")
        os.makedirs(tree)
        arch = subprocess.run(["git", "-C", root, "archive", "--format=tar", args.ref],
                              capture_output=True)
        if arch.returncode != 0:
            die("git archive %s failed: %s" % (args.ref, arch.stderr.decode(errors="replace").strip()))
        r = subprocess.run(["tar", "-x", "-C", tree], input=arch.stdout, capture_output=True)
        if r.returncode != 0:
            die("unpacking %s failed: %s" % (args.ref, r.stderr.decode(errors="replace").strip()))
        a_args = argparse.Namespace(**vars(args))
        a_args.root = tree
        rep_a, _ = build_report(make_config(a_args, tree), tree)
        rev = subprocess.run(["git", "-C", root, "rev-parse", "--short=12", args.ref],
                             capture_output=True, text=True).stdout.strip()
        rep_a["git"] = {"commit": rev or args.ref, "dirty": False, "ref": args.ref}
        rep_b, _ = build_report(make_config(args, root), root)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rep_a, rep_b


def main(argv=None):
    ap = argparse.ArgumentParser(prog="vecreport", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("report", help="compile the kernels and write the per-loop table")
    add_config_args(p)
    p.add_argument("--out", default=os.path.join(ROOT, "build", "vecreport"),
                   help="output directory (default: build/vecreport)")
    p.add_argument("--name", help="file name stem (default: COMPILER-ISA)")
    p.add_argument("--exceptions", help="exception list (default: tools/vecreport_exceptions.txt)")
    p.add_argument("--no-guard", action="store_true", help="skip the kernel check")
    p.add_argument("--check", action="store_true", help="exit 1 when a kernel's SIMD loop is "
                   "not vectorised (and not excepted)")
    p.add_argument("--keep-records", metavar="DIR", help="keep the compiler's raw records in DIR")
    p.set_defaults(func=cmd_report)
    p = sub.add_parser("diff", help="loops whose status or width changed between two reports")
    p.add_argument("reports", nargs="*", help="A.json B.json")
    p.add_argument("--ref", help="compare GITREF (A, unpacked with git archive) with this tree (B), "
                   "same compiler and flag options")
    p.add_argument("--all", action="store_true", help="list unchanged loops too")
    p.add_argument("-o", "--out", help="write the Markdown table here")
    add_config_args(p)
    p.set_defaults(func=cmd_diff)
    p = sub.add_parser("verify-unmacro", help="check that re-expanding loop macros leaves the "
                       "generated code unchanged (exit 1 if not)")
    add_config_args(p)
    p.set_defaults(func=cmd_verify_unmacro)
    p = sub.add_parser("check", help="kernel check of an existing report (exit 1 on failure)")
    p.add_argument("report")
    p.add_argument("--exceptions")
    p.add_argument("--root", default=ROOT)
    p.set_defaults(func=cmd_check)
    args = ap.parse_args(argv)
    return args.func(args)
