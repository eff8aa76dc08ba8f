#!/usr/bin/python3
"""Unit tests of `tools/vecreport diff` (docs/vecreport.md, "Diffs"), without
a compiler: two small hand-written reports go through the pairing and the
table, and through the command itself; each test asserts the exact changes,
their order and the counts.

usage: check_vecreport_diff_unit.py [unittest options]
"""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from gale_vecreport import cli, diff  # noqa: E402

GRAD = "for (int k = 0; k < nl; k++) o[k] = a[k] - f * (p2[k] - p1[k]);"
SUM = "for (int k = 0; k < nl; k++) s += x[k];"
COPY = "for (int k = 0; k < nl; k++) y[k] = x[k];"


def row(fn, source, line, vectorized=True, vf=4, bits=256, caller="gale_k_run", **kw):
    """A report row as merge.py makes it (the fields the diff reads)."""
    r = {"function": fn, "caller": caller, "loop_file": "kernels/k.h", "loop_line": line,
         "file": "kernels/k.h", "remark_line": line, "kind": "loop", "source": source,
         "vectorized": vectorized, "vf": vf if vectorized else None, "bits": bits if vectorized else None,
         "interleave": 1 if vectorized else None,
         "reason": None if vectorized else "not vectorized: complicated access pattern."}
    r.update(kw)
    return r


def report(rows, isa="avx2", flags=("-O3", "-march=x86-64-v3")):
    return {"config": {"compiler": "gcc", "isa": isa, "flags": list(flags)}, "git": None, "loops": rows}


def base_rows():
    return [row("gale_kb_grad", GRAD, 10), row("gale_kb_sum", SUM, 20, vectorized=False),
            row("gale_kb_copy", COPY, 30)]


def summary(changes):
    """[(change, function, A cell, B cell)]"""
    return [(what, r["function"], diff.cell(ra), diff.cell(rb)) for what, r, ra, rb in changes]


class DiffTest(unittest.TestCase):
    def test_a_report_against_itself_has_no_change(self):
        a = report(base_rows())
        self.assertEqual(diff.diff_reports(a, a), [])
        text = diff.diff_markdown(a, a, [])
        self.assertIn("- 0 loop(s) changed status or width", text)
        self.assertTrue(text.endswith("No loop changed.\n"))

    def test_loop_no_longer_vectorised(self):
        b = base_rows()
        b[0].update(vectorized=False, vf=None, bits=None, reason="not vectorized: no vectype")
        changes = diff.diff_reports(report(base_rows()), report(b))
        self.assertEqual(summary(changes), [("no longer vectorised", "gale_kb_grad", "yes 4 x 256 b",
                                             "no: not vectorized: no vectype")])
        text = diff.diff_markdown(report(base_rows()), report(b, isa="avx512"), changes)
        self.assertIn("# Vectorisation diff: A = gcc avx2, B = gcc avx512\n", text)
        self.assertIn("- 1 loop(s) changed status or width", text)
        self.assertIn("| gale_kb_grad | `for (int k = 0; k < nl; k++) o[k] = a[k] - f * ...` "
                      "(kernels/k.h:10) | gale_k_run | yes 4 x 256 b | no: not vectorized: no vectype "
                      "| no longer vectorised |\n", text)

    def test_width_and_status_changes_are_ordered_and_counted(self):
        b = base_rows()
        b[0].update(vf=8)                                        # more elements
        b[1].update(vectorized=True, vf=8, bits=512, reason=None)  # now vectorised
        b[2].update(interleave=4)                                # interleave alone: no change
        changes = diff.diff_reports(report(base_rows()), report(b))
        self.assertEqual(summary(changes), [
            ("now vectorised", "gale_kb_sum", "no: not vectorized: complicated access pattern.",
             "yes 8 x 512 b"),
            ("width", "gale_kb_grad", "yes 4 x 256 b", "yes 8 x 256 b")])
        # --all lists the unchanged loop too, last
        allc = diff.diff_reports(report(base_rows()), report(b), show_all=True)
        self.assertEqual([(w, r["function"]) for w, r, _, _ in allc],
                         [("now vectorised", "gale_kb_sum"), ("width", "gale_kb_grad"),
                          ("same", "gale_kb_copy")])
        self.assertIn("- 2 loop(s) changed", diff.diff_markdown(report(base_rows()), report(b), allc))

    def test_moved_lines_and_another_caller_still_pair(self):
        """Another commit moves the lines, another compiler inlines into
        another caller: the same loops, no change."""
        b = base_rows()
        for r in b:
            r["loop_line"] += 7
        b[0]["caller"] = "gale_k_run._omp_fn.3"
        self.assertEqual(diff.diff_reports(report(base_rows()), report(b)), [])

    def test_changed_body_pairs_by_header(self):
        b = base_rows()
        b[0].update(source="for (int k = 0; k < nl; k++) o[k] = a[k] - g * (p2[k] - p1[k]);", bits=512)
        changes = diff.diff_reports(report(base_rows()), report(b))
        self.assertEqual(summary(changes), [("width", "gale_kb_grad", "yes 4 x 256 b", "yes 4 x 512 b")])

    def test_two_loops_with_one_header_pair_by_their_text(self):
        """Two loops of one function with the same `for (...)`, inlined into
        another caller in B and listed the other way round: each pairs with
        its own text (the header alone would cross them)."""
        scaled = "for (int k = 0; k < nl; k++) y[k] = 2 * x[k];"
        a = [row("gale_kb_f", COPY, 10), row("gale_kb_f", scaled, 11, vectorized=False)]
        b = [row("gale_kb_f", scaled, 11, vectorized=False, caller="gale_k_other"),
             row("gale_kb_f", COPY, 10, caller="gale_k_other")]
        self.assertEqual(diff.diff_reports(report(a), report(b)), [])

    def test_loops_only_in_one_report(self):
        b = base_rows()[:2] + [row("gale_kb_new", COPY, 40)]
        changes = diff.diff_reports(report(base_rows()), report(b))
        self.assertEqual(summary(changes), [("only in A", "gale_kb_copy", "yes 4 x 256 b", "(absent)"),
                                            ("only in B", "gale_kb_new", "(absent)", "yes 4 x 256 b")])

    def test_rows_without_source_pair_only_at_their_place(self):
        a = base_rows() + [row("gale_kb_m", None, 50, vectorized=False)]
        same = base_rows() + [row("gale_kb_m", None, 50, vectorized=False)]
        moved = base_rows() + [row("gale_kb_m", None, 51, vectorized=False)]
        self.assertEqual(diff.diff_reports(report(a), report(same)), [])
        self.assertEqual([(w, r["loop_line"]) for w, r, _, _ in diff.diff_reports(report(a), report(moved))],
                         [("only in A", 50), ("only in B", 51)])

    def test_merge_loops_are_left_out_and_joined_functions_split(self):
        a = base_rows() + [row("gale_kb_sum", SUM, 20, kind="omp-simd-merge")]
        b = base_rows()
        b[2]["function"] = "gale_kb_copy|gale_kb_copy_f"  # clang: both precisions in one row
        changes = diff.diff_reports(report(a), report(b))
        self.assertEqual([(w, r["function"]) for w, r, _, _ in changes], [("only in B", "gale_kb_copy_f")])

    def test_partial_and_slp_count_as_changes(self):
        b = base_rows()
        b[0].update(vectorized=False, partial=True, copies=2, copies_vectorized=1)
        b[2].update(slp=True)
        changes = diff.diff_reports(report(base_rows()), report(b))
        self.assertEqual(summary(changes), [
            ("no longer vectorised", "gale_kb_grad", "yes 4 x 256 b", "partly (1 of 2 copies) 4 x 256 b"),
            ("width", "gale_kb_copy", "yes 4 x 256 b", "yes (SLP, after full unrolling)")])

    def test_the_command(self):
        warnings.simplefilter("ignore", ResourceWarning)  # (cmd_diff leaves its files to the GC)
        b = base_rows()
        b[0].update(vf=8, bits=512)
        with tempfile.TemporaryDirectory(prefix="vecreport-diff-unit-") as tmp:
            pa, pb, out = (os.path.join(tmp, n) for n in ("a.json", "b.json", "d.md"))
            for p, rows in ((pa, base_rows()), (pb, b)):
                with open(p, "w") as f:
                    json.dump(report(rows), f)
            so = io.StringIO()
            with contextlib.redirect_stdout(so):
                rc = cli.main(["diff", pa, pb, "-o", out])
            self.assertEqual(rc, 0)
            self.assertEqual(so.getvalue(), "vecreport: 1 change(s) -> %s\n" % out)
            with open(out) as f:
                self.assertIn("| gale_k_run | yes 4 x 256 b | yes 8 x 512 b | width |", f.read())


if __name__ == "__main__":
    unittest.main(verbosity=2)
