"""Making a report: compile each translation unit with the compiler's
vectoriser records on (through the re-expanded headers), parse the records,
map them to the source and merge them into rows."""

import os
import shlex
import shutil
import subprocess
import tempfile

from .common import die
from .cscan import Inventory
from .merge import add_unrolled, loop_key, merge_rows, resolve
from .parse_clang import ClangIR, clang_loops, parse_clang_yaml
from .parse_gcc import parse_gcc_json, parse_gcc_text
from .unmacro import shadow_flags, unmacro


SCHEMA = 1


def git_info(root):
    def run(*a):
        r = subprocess.run(["git", "-C", root] + list(a), capture_output=True, text=True)
        return r.stdout.strip() if r.returncode == 0 else None
    head = run("rev-parse", "--short=12", "HEAD")
    dirty = run("status", "--porcelain", "--untracked-files=no")
    return {"commit": head, "dirty": bool(dirty)} if head else None


def compile_with_records(cfg, source, workdir, flags=None):
    """Run the compiler once on `source` and return the paths of the records.

    gcc: -fsave-optimization-record (JSON, with function names and the
    inlining chain of every remark); where that option is missing (gcc < 9)
    -fopt-info-vec-all text, which has neither.
    clang: -fsave-optimization-record YAML for the loop and SLP vectorisers,
    plus the optimised IR with line tables: the YAML names only the function a
    loop ended up in, the IR's debug scopes say which inlined body it came from.
    """
    # absolute: compilers record the path as given, and a relative one would
    # be relative to the temporary work directory
    source = os.path.abspath(source)
    base = os.path.splitext(os.path.basename(source))[0]
    cmd = [cfg.cc] + (flags if flags is not None else cfg.flags)
    out = {}
    if cfg.family == "gcc":
        txt = os.path.join(workdir, base + ".optinfo.txt")
        cmd += ["-c", source, "-o", base + ".o", "-fsave-optimization-record",
                "-fopt-info-vec-all=" + txt]
        r = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
        if r.returncode != 0 and "save-optimization-record" in r.stderr:
            cmd.remove("-fsave-optimization-record")
            r = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
        # this source's record (gcc names it after the source: x.c.opt-record.json.gz)
        js = [f for f in os.listdir(workdir)
              if f.startswith(os.path.basename(source) + ".") and f.endswith(".opt-record.json.gz")]
        out["gcc_json"] = os.path.join(workdir, js[0]) if js else None
        out["gcc_text"] = txt
    else:
        yml = os.path.join(workdir, base + ".opt.yaml")
        ll = os.path.join(workdir, base + ".ll")
        cmd += ["-S", "-emit-llvm", "-gline-tables-only", source, "-o", ll,
                "-fsave-optimization-record",
                "-foptimization-record-passes=loop-vectorize|slp-vectorizer|loop-unroll",
                "-foptimization-record-file=" + yml]
        r = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
        out["clang_yaml"], out["clang_ll"] = yml, ll
    if r.returncode != 0:
        die("compile failed:\n  %s\n%s" % (" ".join(shlex.quote(c) for c in cmd), r.stderr[-4000:]))
    out["command"] = cmd
    return out


def build_report(cfg, root, keep_dir=None, unmacro_loops=True):
    """Compile, parse, map to source, merge: the report as a dict."""
    work = keep_dir or tempfile.mkdtemp(prefix="vecreport-")
    os.makedirs(work, exist_ok=True)
    incdirs = [f[2:] for f in cfg.flags if f.startswith("-I")]
    inv = Inventory(cfg.sources, root, incdirs)
    rows, method = [], None
    try:
        flags, sources = cfg.flags, cfg.sources
        if unmacro_loops and inv.loop_macros:
            written = unmacro(inv, os.path.join(work, "shadow"))
            flags, sources = shadow_flags(cfg, written, root)
        for src in sources:
            got = compile_with_records(cfg, src, work, flags)
            if cfg.family == "gcc":
                if got.get("gcc_json"):
                    raws, method = parse_gcc_json(got["gcc_json"]), "gcc -fsave-optimization-record (JSON)"
                else:
                    raws, method = parse_gcc_text(got["gcc_text"]), "gcc -fopt-info-vec-all (text)"
                ir = None
            else:
                raws, slp, unrolled = clang_loops(parse_clang_yaml(got["clang_yaml"]))
                ir = ClangIR(got["clang_ll"])
                method = "clang -fsave-optimization-record (YAML) + optimised IR line tables"
            rows += [resolve(r, inv, cfg.family, ir) for r in raws]
            if cfg.family == "clang":
                rows = add_unrolled(rows, unrolled, slp, inv, ir)
    finally:
        if keep_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    rows = merge_rows(rows)
    rows.sort(key=lambda r: (r.get("loop_file") or "", r.get("loop_line") or 0, r["function"],
                             r.get("caller") or "", r["kind"]))
    for r in rows:
        r["key"] = loop_key(r)
    # source loops the compiler said nothing about: unused functions, loops
    # unrolled or folded away before the vectorisers ran, and so on
    covered = {(r.get("loop_file"), r.get("loop_line")) for r in rows}
    silent = [{"file": lp.file, "line": lp.line, "functions": sorted(lp.names), "source": lp.text,
               "simd": lp.simd}
              for lp in sorted(inv.all_loops(), key=lambda lp: (lp.file, lp.line))
              if (lp.file, lp.line) not in covered]
    rep = {"tool": "vecreport", "schema": SCHEMA, "config": cfg.as_json(),
           "records": method, "macro_loops_reexpanded": sorted(inv.loop_macros) if unmacro_loops else [],
           "git": git_info(root), "loops": rows, "silent_loops": silent}
    return rep, inv
