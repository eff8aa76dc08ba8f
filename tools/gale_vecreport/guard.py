"""The kernel guard (docs/vecreport.md, "The kernel guard"): from the kernel
rows and a report's rows, which SIMD loops of each kernel vectorise, which
are excepted (tools/vecreport_exceptions.txt) and which fail; its lines,
its Markdown table and its JSON."""

import os
import sys

from .cells import md_escape, shorten, width_text
from .common import die
from .cscan import GROUPS as GROUPS_MACRO, KTABLE


def read_exceptions(path):
    """tools/vecreport_exceptions.txt: `kernel | compiler | marker | reason`
    lines. compiler: gcc, clang or *; marker: a piece of the loop's source
    text (from its `for` to the end of its first body line), or * for the
    whole kernel; the reason is required."""
    entries = []
    if not os.path.exists(path):
        return entries
    for no, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 4 or not all(parts) or parts[1] not in ("gcc", "clang", "*"):
            die("%s:%d: expected `kernel | gcc|clang|* | marker|* | reason`" % (path, no))
        entries.append({"kernel": parts[0], "compiler": parts[1], "marker": parts[2],
                        "reason": parts[3], "line": no})
    return entries


def why_not(instances):
    seen, parts = set(), []
    for r in instances:
        if r["vectorized"] or r.get("libcall"):
            continue
        t = "%s in %s%s: %s" % (r["function"], r.get("caller") or "?", r.get("clone") or "",
                                r.get("reason"))
        if r.get("hint"):
            t += " [hint: %s]" % r["hint"]
        if t not in seen:
            seen.add(t)
            parts.append(t)
    return "; ".join(parts)


def check_kernels(rep, inv, exceptions):
    """The guard, derived from the kernel rows: for every kernel, each
    GALE_SIMD loop of the code its launch reaches (the row's body calls, and
    what they call) and its launch loop when that is a simd loop (FLAT) must
    vectorise in every compiled instance; a loop the compiler said nothing
    about fails (it cannot be shown to vectorise). A kernel with no such loop,
    or a loop that does not vectorise, passes only when excepted with a
    reason. Returns (per-kernel results, problems with the exception list)."""
    family = rep["config"]["compiler"]
    reach = inv.kernel_reach()
    rows = [r for r in rep["loops"] if r["kind"] != "omp-simd-merge"]
    krows = inv.kernel_rows()
    used, results = set(), []
    simd_loops = sorted((lp for lp in inv.all_loops() if lp.simd), key=lambda lp: (lp.file, lp.line))
    for krow in krows:
        name, fns = krow["name"], reach[krow["name"]]
        exc = [e for e in exceptions if e["kernel"] == name and e["compiler"] in ("*", family)]
        loops = []
        for lp in simd_loops:
            if lp.names & fns:
                inst = [r for r in rows if (r.get("loop_file"), r.get("loop_line")) == (lp.file, lp.line)
                        and set(r["function"].split("|")) & fns]
                loops.append({"loop": lp.where(), "source": lp.text, "instances": inst})
        if inv.space_is_simd(krow["space"]):
            loops.append({"loop": "%s:%d" % (krow["file"], krow["line"]),
                          "source": "(launch loop, GALE_KLOOP_%s)" % krow["space"],
                          "instances": [r for r in rows if r.get("kernel") == name]})
        for lp in loops:
            inst = lp["instances"]
            if inst and all(r["vectorized"] or r.get("libcall") for r in inst):
                lp["status"] = "vectorized"
                continue
            lp["status"] = "NOT vectorized" if inst else "no-remark"
            lp["detail"] = why_not(inst) if inst else (
                "the compiler reported nothing for this loop (inlined away, fully unrolled, "
                "or the kernel is not compiled)")
            e = next((e for e in exc if e["marker"] == "*" or e["marker"] in lp["source"]), None)
            if e:
                used.add(e["line"])
                lp["status"], lp["excepted"] = "excepted", e["reason"]
        res = {"kernel": name, "space": krow["space"], "row": "%s:%d" % (krow["file"], krow["line"]),
               "loops": loops}
        whole = next((e for e in exc if e["marker"] == "*"), None)
        if not loops:
            if whole:
                used.add(whole["line"])
                res["status"], res["excepted"] = "excepted", whole["reason"]
            else:
                res["status"] = "no-simd-loop"
                res["detail"] = ("no GALE_SIMD loop in the code the kernel's launch reaches: "
                                 "vectorise it, or except it with the reason in the exception list")
        elif any(lp["status"] in ("NOT vectorized", "no-remark") for lp in loops):
            res["status"] = "FAIL"
            res["detail"] = "; ".join("loop %s `%s`: %s: %s" % (lp["loop"], shorten(lp["source"], 60),
                                                                 lp["status"], lp["detail"])
                                      for lp in loops if lp["status"] in ("NOT vectorized", "no-remark"))
        else:
            res["status"] = "vectorized" if all(lp["status"] == "vectorized" for lp in loops) else "excepted"
        results.append(res)
    # the list must not go stale: every entry names a kernel, and its marker
    # one of that kernel's loops
    problems = [] if krows else ["the compiled sources have no kernel table %s: nothing is guarded" % KTABLE]
    names = {r["name"]: r for r in krows}
    for e in exceptions:
        if e["kernel"] not in names:
            problems.append("exception line %d: no kernel row `%s`" % (e["line"], e["kernel"]))
        elif e["marker"] != "*" and not any(e["marker"] in lp["source"] for res in results
                                            if res["kernel"] == e["kernel"] for lp in res["loops"]):
            problems.append("exception line %d: no SIMD loop of kernel %s has `%s`"
                            % (e["line"], e["kernel"], e["marker"]))
    notes = ["exception line %d (%s, %s) is not needed with %s: drop it?" % (
        e["line"], e["kernel"], e["marker"], family) for e in exceptions
        if e["compiler"] in ("*", family) and e["line"] not in used and e["kernel"] in names]
    return results, problems, notes


GROUP_LOOP = "gale_k_run_group"  # the CPU layer's loop of a fused group


def check_groups(results, inv):
    """The fused groups (docs/fusion.md), derived from their declarations:
    each member kernel's SIMD loops as compiled for the group loop must
    vectorise, as the kernel's own must. A member's instances for the group
    are those inlined into the group loop, or else the member's body
    compiled out of line (clang keeps gale_kb_mix_u_d as a function that
    both loops call); a loop with neither fails (the compiler said nothing
    of it), one excepted for the kernel stays excepted."""
    by_name = {r["kernel"]: r for r in results}
    out = []
    for g in inv.group_rows():
        loops = []
        for name in dict.fromkeys(g["kernels"]):
            for lp in by_name.get(name, {}).get("loops", []):
                inst = [r for r in lp["instances"] if r.get("caller") == GROUP_LOOP] or \
                       [r for r in lp["instances"] if r.get("caller") not in ("gale_k_run", GROUP_LOOP)]
                gl = {"kernel": name, "loop": lp["loop"], "source": lp["source"], "instances": inst}
                if lp["status"] == "excepted":
                    gl["status"], gl["excepted"] = "excepted", lp.get("excepted")
                elif inst and all(r["vectorized"] or r.get("libcall") for r in inst):
                    gl["status"] = "vectorized"
                else:
                    gl["status"] = "NOT vectorized" if inst else "no-remark"
                    gl["detail"] = why_not(inst) if inst else "no instance in the group loop"
                loops.append(gl)
        res = {"group": g["name"], "kernels": g["kernels"], "row": "%s:%d" % (g["file"], g["line"]),
               "loops": loops}
        bad = [lp for lp in loops if lp["status"] in ("NOT vectorized", "no-remark")]
        if not loops:
            res["status"], res["detail"] = "FAIL", "no SIMD loop of its kernels in the report"
        elif bad:
            res["status"] = "FAIL"
            res["detail"] = "; ".join("%s loop %s `%s`: %s: %s" % (lp["kernel"], lp["loop"],
                                                                  shorten(lp["source"], 60),
                                                                  lp["status"], lp["detail"])
                                      for lp in bad)
        else:
            res["status"] = "vectorized" if all(lp["status"] == "vectorized" for lp in loops) \
                else "excepted"
        out.append(res)
    return out


def guard_counts(results):
    loops = [lp for res in results for lp in res["loops"]]
    return len(results), len(loops), sum(lp["status"] == "vectorized" for lp in loops)


def guard_markdown(results, problems, groups=None):
    out = ["## Kernels (every row of %s; exceptions: tools/vecreport_exceptions.txt)" % KTABLE, "",
           "| kernel | space | SIMD loops | vectorised | width | status | reason |",
           "|---|---|---|---|---|---|---|"]
    for res in results:
        lps = res["loops"]
        widths = sorted({width_text(r) for lp in lps for r in lp["instances"] if r["vectorized"]})
        why = res.get("excepted") or res.get("detail") or "; ".join(
            "%s: %s" % (lp["loop"], lp["excepted"]) for lp in lps if lp.get("excepted"))
        out.append("| %s | %s | %d | %d | %s | %s | %s |" % (
            res["kernel"], res["space"], len(lps), sum(lp["status"] == "vectorized" for lp in lps),
            ", ".join(widths), res["status"], md_escape(shorten(why, 200))))
    for p in problems:
        out.append("")
        out.append("- exception list: " + p)
    out.append("")
    if groups:
        out += ["## Fused groups (%s, docs/fusion.md): their kernels' SIMD loops in the group loop" % GROUPS_MACRO, "",
                "| group | kernels | SIMD loops | vectorised | width | status | reason |",
                "|---|---|---|---|---|---|---|"]
        for res in groups:
            lps = res["loops"]
            widths = sorted({width_text(r) for lp in lps for r in lp["instances"] if r["vectorized"]})
            out.append("| %s | %s | %d | %d | %s | %s | %s |" % (
                res["group"], " + ".join(res["kernels"]), len(lps),
                sum(lp["status"] == "vectorized" for lp in lps), ", ".join(widths), res["status"],
                md_escape(shorten(res.get("detail", ""), 200))))
        out.append("")
    return out


def guard_json(results):
    out = []
    for res in results:
        d = dict(res)
        d["loops"] = [dict({k: v for k, v in lp.items() if k != "instances"},
                           instances=[{"function": r["function"], "caller": r.get("caller"),
                                       "clone": r.get("clone"), "vectorized": r["vectorized"],
                                       "vf": r.get("vf"), "bits": r.get("bits"),
                                       "reason": r.get("reason")} for r in lp["instances"]])
                      for lp in res["loops"]]
        out.append(d)
    return out


def report_guard(guard, cfg, check):
    """Prints one line per kernel; exit 1 (with check) when a kernel fails
    or the exception list is stale, naming the kernel and the reason."""
    results, problems, notes = guard[:3]
    groups = guard[3] if len(guard) > 3 else []
    bad = [r for r in results if r["status"] not in ("vectorized", "excepted")]
    gbad = [g for g in groups if g["status"] not in ("vectorized", "excepted")]
    for res in results:
        lps = res["loops"]
        widths = sorted({width_text(r) for lp in lps for r in lp["instances"] if r["vectorized"]})
        print("  %s %-14s %-6s %2d SIMD loop(s), %2d vectorised  %s%s" % (
            "ok  " if res not in bad else "FAIL", res["kernel"], res["space"], len(lps),
            sum(lp["status"] == "vectorized" for lp in lps), res["status"],
            (" " + ", ".join(widths)) if widths else ""))
    for g in groups:
        widths = sorted({width_text(r) for lp in g["loops"] for r in lp["instances"] if r["vectorized"]})
        print("  %s group %-14s %2d SIMD loop(s), %2d vectorised  %s%s" % (
            "ok  " if g not in gbad else "FAIL", g["group"], len(g["loops"]),
            sum(lp["status"] == "vectorized" for lp in g["loops"]), g["status"],
            (" " + ", ".join(widths)) if widths else ""))
    nk, nl, nv = guard_counts(results)
    exc = [r["kernel"] for r in results if r["status"] == "excepted"]
    print("vecreport: %s (%s): %d kernels, %d SIMD loops, %d vectorised; %d failed; excepted: %s; "
          "%d fused groups, %d failed" % (cfg.family, cfg.isa, nk, nl, nv, len(bad),
                                         ", ".join(exc) or "none", len(groups), len(gbad)))
    for res in bad:
        print("vecreport: kernel %s not vectorised by %s (%s): %s" % (
            res["kernel"], cfg.family, cfg.isa, res["detail"]), file=sys.stderr)
    for g in gbad:
        print("vecreport: fused group %s not vectorised by %s (%s): %s" % (
            g["group"], cfg.family, cfg.isa, g["detail"]), file=sys.stderr)
    for p in problems:
        print("vecreport: guard: %s" % p, file=sys.stderr)
    for n in notes:
        print("vecreport: note: " + n)
    return 1 if (check and (bad or gbad or problems)) else 0
