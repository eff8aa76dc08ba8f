#!/usr/bin/python3
"""Regression checks that run `gale run` and assert on what it reports.

Subcommands (each exits 0 only when every assertion holds):
  run     one run; --rc (every rank's exit status), --stderr/--stdout regexes,
          --no-stdout, --count-stdout/--count-stderr, --check Python expressions
          over the JSON report `r` (e.g. "r['energy']['rel_change'] < 1e-9")
  against the case as given and with --ref's options (another solver): the
          state agrees within --rel, both conserve energy within --energy;
          optionally the mean mixed iterations per solve agree within
          --iterations and the nonlinear core's mass changes by at most --mass
  same    several runs of one case with different ranks/threads/options; the
          report checksums must be bit-identical
  mode    the vertical normal mode at two level counts: error below --tol at
          the first, and the error ratio within --ratio
  precond iterations of the tridiagonal and diagonal preconditioners over
          several level counts
  converge an advection case at several meshes: the l2 error falls by
          --ratio per doubling, tracer mass is kept to --mass and no new
          extrema beyond --bounds of the initial range
Everything runs in a temporary directory; gale's output is shown on failure.
"""
import argparse
import json
import os
import re
import shlex
import sys
import tempfile

import ranks

MPIEXEC = "mpiexec"  # --mpiexec: the build's launcher (gale-mpiexec)


def gale(exe, args, np=1, threads=1, env_extra=None, timeout=300):
    """Runs gale under mpiexec with a report; returns (rc, stdout, stderr,
    report or None), rc the exit status every rank had (tests/ranks.py;
    stderr ends with a "gale-exit RANK STATUS" line per rank), or -1 when the
    ranks' statuses differ or one is missing."""
    tmp = tempfile.mkdtemp(prefix="gale_case_")
    report = os.path.join(tmp, "report.json")
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    env.update(env_extra or {})
    # a test of --report itself brings its own
    own = [] if any(x == "--report" or x.startswith("--report=") for x in args) else ["--report", report]
    p, codes = ranks.run_ranks(MPIEXEC, np, [exe, "run", *args, *own], timeout, env=env, cwd=tmp)
    r = None
    if os.path.exists(report):
        with open(report) as f:
            r = json.load(f)
    # a rank whose status differs from mpiexec's, or that never reported
    # one, counts as a failure (-1) wherever the status is checked
    rc = p.returncode if codes == {i: p.returncode for i in range(np)} else -1
    return rc, p.stdout, p.stderr, r


def fail(msg, out="", err=""):
    print("FAIL:", msg)
    if out:
        print("---- stdout (tail) ----\n" + "\n".join(out.splitlines()[-40:]))
    if err:
        print("---- stderr (tail) ----\n" + "\n".join(err.splitlines()[-40:]))
    sys.exit(1)


def cmd_run(a):
    rc, out, err, r = gale(a.gale, a.args, a.np, a.threads)
    want = 0 if a.rc is None else a.rc
    if rc != want:
        fail(f"exit status {rc} (-1: the ranks' differ, see gale-exit below), expected {want} on "
             f"every one of {a.np} rank(s)", out, err)
    for rx in a.stderr or []:
        if not re.search(rx, err, re.M):
            fail(f"stderr does not match {rx!r}", out, err)
    for rx in a.stdout or []:
        if not re.search(rx, out, re.M):
            fail(f"stdout does not match {rx!r}", out, err)
    for rx in a.no_stdout or []:
        m = re.search(rx, out, re.M)
        if m:
            fail(f"stdout matches {rx!r}: {m.group(0)!r}", out, err)
    for name, text, counts in (("stdout", out, a.count_stdout), ("stderr", err, a.count_stderr)):
        for rx, n in counts or []:
            got = len(re.findall(rx, text, re.M))
            if got != int(n):
                fail(f"{name} has {got} lines matching {rx!r}, expected {n}", out, err)
    for expr in a.check or []:
        if r is None:
            fail("no report was written", out, err)
        try:
            ok = eval(expr, {"r": r})
        except Exception as e:  # a missing key is a failure, not a crash
            fail(f"{expr}: {type(e).__name__}: {e}", out, err)
        if not ok:
            fail(f"{expr} is false", out, err)
        print("ok:", expr)
    print("PASS")


def cmd_same(a):
    ref = None
    for v in a.variant:
        # "np=3 threads=2 --halo.depth=2 ..."
        words = shlex.split(v)
        np = threads = 1
        extra = []
        for w in words:
            if w.startswith("np="):
                np = int(w[3:])
            elif w.startswith("threads="):
                threads = int(w[8:])
            else:
                extra.append(w)
        rc, out, err, r = gale(a.gale, a.args + extra, np, threads)
        if rc != 0 or r is None:
            fail(f"variant [{v}] exit status {rc}", out, err)
        sums = r["checksums"]
        print(f"{v:60s} {' '.join(sums.values())}")
        if ref is None:
            ref = (v, sums)
        elif sums != ref[1]:
            fail(f"checksums of [{v}] differ from [{ref[0]}]: {sums} vs {ref[1]}")
    print("PASS: all checksums bit-identical")


def mode_error(a, levels):
    rc, out, err, r = gale(a.gale, a.args + [f"--extrusion.levels={levels}"])
    if rc != 0 or r is None:
        fail(f"{levels} levels: exit status {rc}", out, err)
    e = r["normal_mode"]["rel_error"]
    print(f"levels {levels}: omega {r['normal_mode']['omega_measured']:.8e} "
          f"(analytic {r['normal_mode']['omega_analytic']:.8e}), relative error {e:+.4e}")
    return abs(e)


def cmd_mode(a):
    e1, e2 = mode_error(a, a.levels[0]), mode_error(a, a.levels[1])
    if not e1 < a.tol:
        fail(f"error {e1:.3e} at {a.levels[0]} levels is not below {a.tol}")
    lo, hi = a.ratio
    if not lo <= e1 / e2 <= hi:
        fail(f"error ratio {e1 / e2:.3f} not in [{lo}, {hi}]")
    print(f"PASS: error ratio {e1 / e2:.3f}")


def iterations(a, pc, levels):
    rc, out, err, r = gale(a.gale, a.args + [f"--solver.preconditioner={pc}",
                                             f"--extrusion.levels={levels}"])
    if rc != 0 or r is None:
        fail(f"{pc} at {levels} levels: exit status {rc}", out, err)
    it = r["solver"]["iterations_mean"]
    print(f"{pc:12s} levels {levels:4d}: {it:8.2f} iterations per solve")
    return it


def cmd_precond(a):
    tri = {n: iterations(a, "tridiagonal", n) for n in a.levels}
    base = tri[a.levels[0]]
    for n, it in tri.items():
        if abs(it / base - 1) > a.spread:
            fail(f"tridiagonal: {it:.2f} iterations at {n} levels vs {base:.2f} at "
                 f"{a.levels[0]}: more than {a.spread:.0%} apart")
    for n in a.compare_at:
        d = iterations(a, "diagonal", n)
        if d < a.factor * tri[n]:
            fail(f"at {n} levels diagonal needs {d:.2f} iterations, tridiagonal {tri[n]:.2f}: "
                 f"less than {a.factor}x")
        print(f"levels {n}: diagonal / tridiagonal = {d / tri[n]:.2f}")
    print("PASS")


def cmd_converge(a):
    prev = None
    for spec in a.meshes:  # "24" or "96:2" (mesh:ranks)
        n, _, np = spec.partition(":")
        rc, out, err, r = gale(a.gale, a.args + [f"--mesh.name=C{n}"], int(np or 1))
        if rc != 0 or r is None:
            fail(f"C{n}: exit status {rc}", out, err)
        e, t = r["error_norms"], r["transport"]
        span = t["q_max_initial"] - t["q_min_initial"]
        over = max(t["q_max"] - t["q_max_initial"], t["q_min_initial"] - t["q_min"]) / span
        print(f"C{n:<4} l1 {e['l1']:.4e}  l2 {e['l2']:.4e}  linf {e['linf']:.4e}  "
              f"mass {t['mass_rel_change']:+.2e}  new extrema {over:+.2e} of the range")
        if abs(t["mass_rel_change"]) >= a.mass:
            fail(f"C{n}: tracer mass changed by {t['mass_rel_change']:.3e} (bound {a.mass})")
        if over > a.bounds:
            fail(f"C{n}: new extrema {over:.3e} of the initial range (bound {a.bounds})")
        if prev is not None and prev / e["l2"] < a.ratio:
            fail(f"C{n}: l2 fell only {prev / e['l2']:.3f}x from the mesh before (bound {a.ratio})")
        if prev is not None:
            print(f"      l2 ratio {prev / e['l2']:.3f}")
        prev = e["l2"]
    print("PASS")


def cmd_against(a):
    """The case with its options and with --ref's: the state (the sums of
    squares of the prognostics) agrees within --rel (and, with --differ,
    is not the same bits), both conserve energy
    within --energy (when given), the mixed solves' mean iterations agree
    within --iterations and each run's nonlinear mass changes by at most
    --mass (when given)."""
    res = {}
    for name, extra in (("this", []), ("ref", shlex.split(a.ref))):
        rc, out, err, r = gale(a.gale, a.args + extra, a.np)
        if rc != 0 or r is None:
            fail(f"the {name} run ({' '.join(extra) or 'as given'}) exited {rc}", out, err)
        if a.energy is not None and abs(r["energy"]["rel_change"]) > a.energy:
            fail(f"the {name} run: energy changed by {r['energy']['rel_change']:.3e} "
                 f"(bound {a.energy:g})")
        if a.mass is not None and abs(r["nonlinear"]["mass_rel_change"]) > a.mass:
            fail(f"the {name} run: mass changed by {r['nonlinear']['mass_rel_change']:.3e} "
                 f"(bound {a.mass:g})")
        res[name] = r
    cv, cr = res["this"]["checksum_values"], res["ref"]["checksum_values"]
    worst = max(abs(cv[k] - cr[k]) / abs(cr[k]) for k in cr)
    if a.differ and worst == 0:
        fail(f"the state is the {a.ref} run's to the bit: the options changed nothing")
    if worst > a.rel:
        fail(f"the state differs from the {a.ref} run's by {worst:.3e} relative (bound {a.rel:g}): "
             f"{cv} against {cr}")
    if a.iterations is not None:
        it, ir = (res[n]["mixed_solver"]["iterations_mean"] for n in ("this", "ref"))
        if abs(it - ir) > a.iterations:
            fail(f"mixed iterations per solve {it:.3f}, the {a.ref} run's {ir:.3f}: more than "
                 f"{a.iterations:g} apart")
        print(f"gale_case against {a.ref}: mixed iterations per solve {it:.3f} / {ir:.3f}")
    print(f"gale_case against {a.ref}: state within {worst:.2e} (bound {a.rel:g}), energy "
          f"{res['this']['energy']['rel_change']:.2e} / {res['ref']['energy']['rel_change']:.2e}")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gale", required=True, help="the gale executable")
    p.add_argument("--mpiexec", default="mpiexec", help="the MPI launcher (the build's gale-mpiexec)")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("run")
    s.add_argument("--np", type=int, default=1)
    s.add_argument("--threads", type=int, default=1)
    s.add_argument("--rc", type=int)
    s.add_argument("--stderr", action="append")
    s.add_argument("--stdout", action="append")
    s.add_argument("--no-stdout", action="append", help="a regex stdout must not match")
    s.add_argument("--count-stdout", nargs=2, action="append", metavar=("REGEX", "N"))
    s.add_argument("--count-stderr", nargs=2, action="append", metavar=("REGEX", "N"))
    s.add_argument("--check", action="append")
    s = sub.add_parser("against")
    s.add_argument("--np", type=int, default=1)
    s.add_argument("--ref", required=True, help="the reference run's extra options")
    s.add_argument("--rel", type=float, required=True)
    s.add_argument("--differ", action="store_true",
                   help="the state must differ from --ref's (the options change the arithmetic)")
    s.add_argument("--energy", type=float)
    s.add_argument("--iterations", type=float)
    s.add_argument("--mass", type=float)
    s = sub.add_parser("same")
    s.add_argument("--variant", action="append", required=True)
    s = sub.add_parser("mode")
    s.add_argument("--levels", type=int, nargs=2, required=True)
    s.add_argument("--tol", type=float, required=True)
    s.add_argument("--ratio", type=float, nargs=2, required=True)
    s = sub.add_parser("precond")
    s.add_argument("--levels", type=int, nargs="+", required=True)
    s.add_argument("--spread", type=float, required=True)
    s.add_argument("--compare-at", type=int, nargs="+", required=True)
    s.add_argument("--factor", type=float, required=True)
    s = sub.add_parser("converge")
    s.add_argument("--meshes", nargs="+", required=True)
    s.add_argument("--ratio", type=float, required=True)
    s.add_argument("--mass", type=float, required=True)
    s.add_argument("--bounds", type=float, required=True)
    # gale arguments follow "--"
    argv = sys.argv[1:]
    rest = []
    if "--" in argv:
        i = argv.index("--")
        argv, rest = argv[:i], argv[i + 1:]
    a = p.parse_args(argv)
    a.args = rest
    global MPIEXEC
    MPIEXEC = a.mpiexec
    {"run": cmd_run, "against": cmd_against, "same": cmd_same, "mode": cmd_mode, "precond": cmd_precond,
     "converge": cmd_converge}[a.cmd](a)


if __name__ == "__main__":
    main()
