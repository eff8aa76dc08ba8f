#!/usr/bin/python3
"""Unit tests of the kernel guard of tools/vecreport (docs/vecreport.md, "The
kernel guard"), without a compiler: a miniature kernel source (four kernel
rows, in the shapes the real ones have) is scanned, and hand-written report
rows, exception lists and -fopt-info remark text are fed to the guard. Each
test asserts the exact verdicts, counts and messages.

usage: check_vecreport_guard_unit.py [unittest options]
"""
import contextlib
import io
import os
import sys
import tempfile
import unittest
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from gale_vecreport import guard, merge, parse_gcc  # noqa: E402
from gale_vecreport.cscan import Inventory  # noqa: E402

# scale: a GALE_SIMD loop of its own and one of a helper it calls (two
# callers: two instances); axpy: FLAT, its launch loop is its SIMD loop;
# dots: reached through the function that names GALE_K_dots (a REDUCE
# launch); eos: no SIMD loop. mini_unused's loop is reached by no kernel.
# The group chain fuses scale and axpy (docs/fusion.md).
MINI = """\
/* a miniature of the kernel rows and bodies */
#define GALE_SIMD _Pragma("omp simd")
#define GALE_KLOOP_CELLS(devptrs, body) \\
    _Pragma("omp parallel for schedule(static)") for (int i = i0; i < i1; i++) { body; }
#define GALE_KLOOP_FLAT(devptrs, body) \\
    _Pragma("omp parallel for simd schedule(static)") for (size_t i = fi0; i < fi1; i++) { body; }

static inline void mini_helper(double *restrict x, int n)
{
    GALE_SIMD
    for (int k = 0; k < n; k++) x[k] = 2 * x[k];
}

static inline void mini_scale(double *restrict x, int n)
{
    GALE_SIMD
    for (int k = 0; k < n; k++) x[k] *= 3;
    mini_helper(x, n);
}

static inline void mini_axpy(double *restrict y, const double *restrict x, size_t i)
{
    y[i] += x[i];
}

static inline void mini_eos(double *restrict p, int n)
{
    for (int k = 0; k < n; k++) p[k] = pow(p[k], 0.3);
}

static inline void mini_unused(double *restrict x, int n)
{
    GALE_SIMD
    for (int k = 0; k < n; k++) x[k] = 0;
}

void mini_dots(const double *x, int n, double *s)
{
    GALE_SIMD
    for (int k = 0; k < n; k++) *s += x[k] * x[k];
    TSTOP(GALE_K_dots);
}

#define GALE_KROWS_MINI(K) \\
    K(scale, CELLS, mini_scale(x, n), 0) \\
    K(axpy, FLAT, mini_axpy(y, x, i), 0) \\
    K(dots, CELLS, 0, 0) \\
    K(eos, CELLS, mini_eos(p, n), 0)
#define GALE_KERNELS(K) GALE_KROWS_MINI(K)
#define GALE_KGROUPS(G) \
    G(chain, vector, ((scale), (axpy)))
"""


def line_of(text):
    hits = [i + 1 for i, ln in enumerate(MINI.split("\n")) if text in ln]
    assert len(hits) == 1, text
    return hits[0]


HELPER = line_of("x[k] = 2 * x[k]")
SCALE = line_of("x[k] *= 3")
EOS = line_of("pow(p[k]")
UNUSED = line_of("x[k] = 0;")
DOTS = line_of("*s += x[k]")
AXPY_ROW = line_of("K(axpy, FLAT")
HELPER_SRC = "for (int k = 0; k < n; k++) x[k] = 2 * x[k];"


def row(fn, line, caller="gale_k_run", vectorized=True, **kw):
    """A report row as merge.py makes it (only the fields the guard reads)."""
    r = {"function": fn, "caller": caller, "loop_file": "k.h", "loop_line": line, "kind": "loop",
         "simd": True, "vectorized": vectorized, "vf": 4 if vectorized else None,
         "bits": 256 if vectorized else None, "interleave": 1 if vectorized else None,
         "reason": None if vectorized else "not vectorized: complicated access pattern."}
    r.update(kw)
    return r


def report(rows):
    return {"config": {"compiler": "gcc", "isa": "native"}, "loops": rows}


def good_rows():
    """Every kernel's SIMD loops vectorised; mini_unused's not (no kernel reaches it)."""
    return [row("mini_helper", HELPER), row("mini_helper", HELPER, caller="gale_k_other"),
            row("mini_scale", SCALE),
            row("mini_axpy", AXPY_ROW, kernel="axpy", source="(launch loop of kernel axpy: GALE_KLOOP_FLAT)"),
            row("mini_dots", DOTS, caller="mini_dots"),
            row("mini_eos", EOS, simd=False, vectorized=False),
            row("mini_unused", UNUSED, caller="mini_unused", vectorized=False),
            # the group chain's loop: scale's body and axpy's launch loop inlined
            # into it, the helper out of line (its gale_k_other instance)
            row("mini_scale", SCALE, caller="gale_k_run_group"),
            row("mini_axpy", AXPY_ROW, caller="gale_k_run_group", kernel="axpy",
                source="(launch loop of kernel axpy: GALE_KLOOP_FLAT)")]


class GuardTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="vecreport-guard-unit-")
        cls.root = cls.tmp.name
        cls.src = os.path.join(cls.root, "k.h")
        with open(cls.src, "w") as f:
            f.write(MINI)
        cls.inv = Inventory([cls.src], cls.root, [])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def exceptions(self, text):
        path = os.path.join(self.root, "exceptions.txt")
        with open(path, "w") as f:
            f.write(text)
        return guard.read_exceptions(path)

    def run_guard(self, rows, exc="eos | * | * | pow per level\n", check=True):
        """(results by kernel, problems, notes, exit code, stdout, stderr)"""
        results, problems, notes = guard.check_kernels(report(rows), self.inv, self.exceptions(exc))
        self.groups = {g["group"]: g for g in guard.check_groups(results, self.inv)}
        out, err = io.StringIO(), io.StringIO()
        cfg = type("Cfg", (), {"family": "gcc", "isa": "native"})
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = guard.report_guard((results, problems, notes, list(self.groups.values())), cfg, check)
        return ({r["kernel"]: r for r in results}, problems, notes, rc, out.getvalue(), err.getvalue())

    def statuses(self, res):
        return {k: r["status"] for k, r in res.items()}

    def test_scan_finds_the_rows_and_what_they_reach(self):
        self.assertEqual([r["name"] for r in self.inv.kernel_rows()], ["scale", "axpy", "dots", "eos"])
        reach = self.inv.kernel_reach()
        self.assertTrue({"mini_scale", "mini_helper"} <= reach["scale"])
        self.assertIn("mini_dots", reach["dots"])  # it names GALE_K_dots
        self.assertNotIn("mini_unused", set().union(*reach.values()))
        self.assertTrue(self.inv.space_is_simd("FLAT"))
        self.assertFalse(self.inv.space_is_simd("CELLS"))

    def test_all_vectorised_passes(self):
        res, problems, notes, rc, out, err = self.run_guard(good_rows())
        self.assertEqual(self.statuses(res), {"scale": "vectorized", "axpy": "vectorized",
                                              "dots": "vectorized", "eos": "excepted"})
        self.assertEqual([lp["loop"] for lp in res["scale"]["loops"]], ["k.h:%d" % HELPER, "k.h:%d" % SCALE])
        self.assertEqual(res["axpy"]["loops"][0]["loop"], "k.h:%d" % AXPY_ROW)
        self.assertEqual(res["eos"]["excepted"], "pow per level")
        self.assertEqual(guard.guard_counts(list(res.values())), (4, 4, 4))
        self.assertEqual((problems, notes, rc, err), ([], [], 0, ""))
        self.assertIn("vecreport: gcc (native): 4 kernels, 4 SIMD loops, 4 vectorised; 0 failed; "
                      "excepted: eos; 1 fused groups, 0 failed\n", out)
        g = self.groups["chain"]
        self.assertEqual((g["status"], g["kernels"]), ("vectorized", ["scale", "axpy"]))
        self.assertEqual([(lp["kernel"], lp["loop"]) for lp in g["loops"]],
                         [("scale", "k.h:%d" % HELPER), ("scale", "k.h:%d" % SCALE), ("axpy", "k.h:%d" % AXPY_ROW)])
        # the helper, out of line, counts by its one compiled body; the others by the group loop's
        self.assertEqual([[r["caller"] for r in lp["instances"]] for lp in g["loops"]],
                         [["gale_k_other"], ["gale_k_run_group"], ["gale_k_run_group"]])

    def test_groups_scanned_from_their_declaration(self):
        self.assertEqual([(g["name"], g["category"], g["kernels"]) for g in self.inv.group_rows()],
                         [("chain", "vector", ["scale", "axpy"])])

    def test_group_loop_missing_fails_naming_the_group(self):
        rows = [r for r in good_rows() if not (r["function"] == "mini_scale" and r["caller"] == "gale_k_run_group")]
        res, _, _, rc, out, err = self.run_guard(rows)
        self.assertEqual(res["scale"]["status"], "vectorized")  # its own launch's loops are fine
        g = self.groups["chain"]
        self.assertEqual((g["status"], [lp["status"] for lp in g["loops"]]),
                         ("FAIL", ["vectorized", "no-remark", "vectorized"]))
        self.assertEqual(rc, 1)
        self.assertIn("vecreport: fused group chain not vectorised by gcc (native): scale loop k.h:%d" % SCALE, err)
        self.assertIn("no instance in the group loop", err)
        self.assertIn("1 fused groups, 1 failed", out)

    def test_group_loop_scalar_fails(self):
        rows = good_rows()
        rows[-1]["vectorized"], rows[-1]["reason"] = False, "not vectorized: control flow in loop."
        self.run_guard(rows)
        g = self.groups["chain"]
        self.assertEqual((g["status"], g["loops"][2]["status"]), ("FAIL", "NOT vectorized"))
        self.assertIn("control flow in loop", g["detail"])

    def test_one_instance_not_vectorised_fails_naming_the_kernel(self):
        rows = good_rows()
        rows[1]["vectorized"], rows[1]["reason"] = False, "not vectorized: complicated access pattern."
        res, problems, notes, rc, out, err = self.run_guard(rows)
        self.assertEqual(self.statuses(res), {"scale": "FAIL", "axpy": "vectorized",
                                              "dots": "vectorized", "eos": "excepted"})
        self.assertEqual([lp["status"] for lp in res["scale"]["loops"]], ["NOT vectorized", "vectorized"])
        self.assertEqual(guard.guard_counts(list(res.values())), (4, 4, 3))
        self.assertEqual(rc, 1)
        why = "NOT vectorized: mini_helper in gale_k_other: not vectorized: complicated access pattern."
        # the helper's one out-of-line body serves the group loop too: the group fails with it
        self.assertEqual(err, "vecreport: kernel scale not vectorised by gcc (native): loop k.h:%d `%s`: %s\n"
                         "vecreport: fused group chain not vectorised by gcc (native): scale loop k.h:%d "
                         "`%s`: %s\n" % (HELPER, HELPER_SRC, why, HELPER, HELPER_SRC, why))
        self.assertIn("4 kernels, 4 SIMD loops, 3 vectorised; 1 failed; excepted: eos", out)
        # without --check the guard still says so, but exits 0
        self.assertEqual(self.run_guard(rows, check=False)[3], 0)

    def test_loop_without_remark_fails(self):
        rows = [r for r in good_rows() if r["function"] != "mini_helper"]
        res, _, _, rc, _, err = self.run_guard(rows)
        self.assertEqual(res["scale"]["status"], "FAIL")
        self.assertEqual(res["scale"]["loops"][0]["status"], "no-remark")
        self.assertEqual(rc, 1)
        self.assertIn("kernel scale not vectorised by gcc (native): loop k.h:%d" % HELPER, err)

    def test_simd_reduction_merge_loop_does_not_pass_for_the_loop(self):
        rows = good_rows()
        rows[4]["kind"] = "omp-simd-merge"  # vectorised, but it is gcc's merge loop
        res, _, _, rc, _, _ = self.run_guard(rows)
        self.assertEqual((res["dots"]["status"], res["dots"]["loops"][0]["status"]), ("FAIL", "no-remark"))
        self.assertEqual(rc, 1)

    def test_library_call_counts_as_vectorised(self):
        rows = good_rows()
        rows[2].update(vectorized=False, libcall=1, reason="replaced by 1 library call(s)")
        res, _, _, rc, _, _ = self.run_guard(rows)
        self.assertEqual((res["scale"]["status"], rc), ("vectorized", 0))

    def test_flat_launch_loop_missing_fails(self):
        rows = [r for r in good_rows() if r.get("kernel") != "axpy"]
        res, _, _, rc, _, err = self.run_guard(rows)
        self.assertEqual(self.statuses(res), {"scale": "vectorized", "axpy": "FAIL",
                                              "dots": "vectorized", "eos": "excepted"})
        self.assertEqual(res["axpy"]["loops"][0]["source"], "(launch loop, GALE_KLOOP_FLAT)")
        self.assertEqual(rc, 1)
        self.assertIn("kernel axpy not vectorised by gcc (native): loop k.h:%d `(launch loop, "
                      "GALE_KLOOP_FLAT)`: no-remark" % AXPY_ROW, err)

    def test_kernel_without_simd_loop_fails_unless_excepted(self):
        res, _, _, rc, out, err = self.run_guard(good_rows(), exc="")
        self.assertEqual(res["eos"]["status"], "no-simd-loop")
        self.assertEqual(rc, 1)
        self.assertIn("0 SIMD loop(s),  0 vectorised  no-simd-loop", out)
        self.assertTrue(err.startswith("vecreport: kernel eos not vectorised by gcc (native): "
                                       "no GALE_SIMD loop"))

    def test_exception_by_marker_excepts_that_loop_only(self):
        rows = good_rows()
        rows[0]["vectorized"] = False
        exc = "eos | * | * | pow per level\nscale | gcc | x[k] = 2 | the helper's loop, by design\n"
        res, problems, notes, rc, out, _ = self.run_guard(rows, exc)
        self.assertEqual(res["scale"]["status"], "excepted")
        self.assertEqual([(lp["status"], lp.get("excepted")) for lp in res["scale"]["loops"]],
                         [("excepted", "the helper's loop, by design"), ("vectorized", None)])
        self.assertEqual((problems, notes, rc), ([], [], 0))
        self.assertIn("4 kernels, 4 SIMD loops, 3 vectorised; 0 failed; excepted: scale, eos", out)
        # an exception for the other compiler does not apply
        res, _, _, rc, _, _ = self.run_guard(rows, exc.replace("| gcc |", "| clang |"))
        self.assertEqual((res["scale"]["status"], rc), ("FAIL", 1))

    def test_stale_exceptions_fail(self):
        exc = ("eos | * | * | pow per level\nnosuch | * | * | a kernel that is gone\n"
               "scale | * | y[k] = 7 | a loop that is gone\n")
        res, problems, _, rc, _, err = self.run_guard(good_rows(), exc)
        self.assertEqual(problems, ["exception line 2: no kernel row `nosuch`",
                                    "exception line 3: no SIMD loop of kernel scale has `y[k] = 7`"])
        self.assertEqual(rc, 1)
        self.assertIn("vecreport: guard: exception line 2: no kernel row `nosuch`\n", err)
        self.assertEqual(self.statuses(res)["scale"], "vectorized")

    def test_unneeded_exception_is_a_note(self):
        exc = "eos | * | * | pow per level\ndots | gcc | *s += | not needed\n"
        _, problems, notes, rc, out, _ = self.run_guard(good_rows(), exc)
        self.assertEqual((problems, rc), ([], 0))
        self.assertEqual(notes, ["exception line 2 (dots, *s +=) is not needed with gcc: drop it?"])
        self.assertIn("vecreport: note: exception line 2", out)

    def test_malformed_exception_line_stops(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as cm:
            self.exceptions("eos | * | pow per level\n")
        self.assertEqual(cm.exception.code, 2)
        self.assertIn("exceptions.txt:1: expected `kernel | gcc|clang|* | marker|* | reason`", err.getvalue())

    def test_verdicts_from_gcc_remark_text(self):
        """-fopt-info-vec-all text (gcc without JSON records) -> rows -> guard:
        gcc places a loop at its first body line and the FLAT launch loop at
        its kernel row (the re-expanded table)."""
        text = "\n".join([
            "%s:%d:33: optimized: loop vectorized using 32 byte vectors" % (self.src, SCALE),
            "%s:%d:33: optimized: loop vectorized using 16 byte vectors" % (self.src, SCALE),
            "%s:%d:33: missed: couldn't vectorize loop" % (self.src, HELPER),
            "%s:%d:5: optimized: loop vectorized using 32 byte vectors" % (self.src, AXPY_ROW),
            "%s:%d:33: optimized: loop vectorized using 32 byte vectors" % (self.src, DOTS), ""])
        # (parse_gcc_text leaves its file to the garbage collector)
        warnings.simplefilter("ignore", ResourceWarning)
        path = os.path.join(self.root, "k.optinfo.txt")
        with open(path, "w") as f:
            f.write(text)
        raws = parse_gcc.parse_gcc_text(path)
        self.assertEqual([(r.line, r.vectorized, r.bytes, r.epilogue_bytes) for r in raws],
                         [(SCALE, True, 32, 16), (HELPER, False, None, None),
                          (AXPY_ROW, True, 32, None), (DOTS, True, 32, None)])
        rows = merge.merge_rows([merge.resolve(r, self.inv, "gcc", None) for r in raws])
        # (the text names no functions: a launch loop's row has none, only its kernel)
        self.assertEqual([(r["function"], r["loop_line"], r.get("kernel")) for r in rows],
                         [("mini_scale", SCALE, None), ("mini_helper", HELPER, None),
                          ("?", AXPY_ROW, "axpy"), ("mini_dots", DOTS, None)])
        res, _, _, rc, _, err = self.run_guard(rows)
        self.assertEqual(self.statuses(res), {"scale": "FAIL", "axpy": "vectorized",
                                              "dots": "vectorized", "eos": "excepted"})
        self.assertEqual(rc, 1)
        self.assertIn("kernel scale not vectorised by gcc (native): loop k.h:%d" % HELPER, err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
