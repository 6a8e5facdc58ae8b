#!/usr/bin/env python3
"""Tests of bench/plot_bench.py's summary on small JSON results made here, whose geometric means and counts are
worked out by hand in each test. Run by make check (check-scripts in conf/test.mk), or alone:

    python3 bench/test_plot_bench.py [log]

prints a suite line and a counts line as the harness suites do, the details of each test in log (default:
standard error), and exits non-zero when a test fails.
"""
import contextlib
import io
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_bench  # noqa: E402


def row(matrix, fmt, ms, best_cusparse, variant="", nnz=1000, nrows=100):
    """A GPU row of bench_spmv's JSON: ms, and its speedup against the best cuSPARSE time of the matrix"""
    return {"matrix": matrix, "format": fmt, "variant": variant, "mode": "GPU", "skipped": None, "ms": ms,
            "speedup_vs_cusparse": best_cusparse / ms, "nnz": nnz, "nrows": nrows, "device_bytes": 0, "pct_copy": 0.0}


def summary(results, floor=None):
    """What plot_bench.summary() prints for these rows, with this launch floor (ms; None: an older JSON without it)"""
    bench = {"copy_bandwidth_GBs": {"reference": None}, "results": results}
    if floor is not None:
        bench["launch_floor_ms"] = floor
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        plot_bench.summary(bench, *plot_bench.device_rows(results))
    return out.getvalue().splitlines()


class Summary(unittest.TestCase):
    def test_best_of_ours(self):
        # A: pjds 1 ms against cuSPARSE 2 ms (2x); B: pjds 2 ms against 1 ms (0.5x), its -sweep row 1.6 ms
        # (0.625x) the best of ours: geometric mean sqrt(2 * 0.625) = 1.118
        lines = summary([row("A", "cusparse", 2.0, 2.0, "CSR-ALG1"), row("A", "pjds", 1.0, 2.0),
                         row("B", "cusparse", 1.0, 1.0, "SELL"), row("B", "pjds", 2.0, 1.0), row("B", "pjds", 1.6, 1.0, "br=8")])
        self.assertEqual(lines, ["best of ours against the best cuSPARSE: geometric mean 1.118x over 2 matrices, slower on 1: B 0.62x"])

    def test_chooser(self):
        # aijgpu: A 1 ms (pjds 1, csrg 1.2: within 3%), B 1.1 ms (csrg 1, 10% slower), C 1.02 ms (pjds 1: within);
        # against cuSPARSE 2, 1.1 and 1.02 ms: 2, 1, 1, geometric mean 2^(1/3) = 1.260
        results = []
        for m, cusparse, aijgpu, pjds, csrg in (("A", 2.0, 1.0, 1.0, 1.2), ("B", 1.1, 1.1, 1.3, 1.0), ("C", 1.02, 1.02, 1.0, 1.5)):
            results += [row(m, "cusparse", cusparse, cusparse, "CSR-ALG1"), row(m, "aijgpu", aijgpu, cusparse),
                        row(m, "pjds", pjds, cusparse), row(m, "csrg", csrg, cusparse)]
        lines = summary(results)
        self.assertIn("aijgpu (the chooser) against the best cuSPARSE: geometric mean 1.260x over 3 matrices, slower on 0", lines)
        self.assertIn("  within 3% of the fastest of csrg, pjds on 2 of 3; the others: B 1.10x the time of csrg", lines)
        self.assertFalse(any("launch floor" in line for line in lines))  # a JSON without it

    def test_launch_floor(self):
        # floor 2 us: A's 2.9 us is under 1.5 times it, B's 3 us (not under) and C's 10 us are not;
        # B 1.5x and C 6x cuSPARSE: geometric mean over them 3
        results = []
        for m, cusparse, aijgpu in (("A", 0.0058, 0.0029), ("B", 0.0045, 0.003), ("C", 0.06, 0.01)):
            results += [row(m, "cusparse", cusparse, cusparse, "SELL"), row(m, "aijgpu", aijgpu, cusparse)]
        lines = summary(results, floor=0.002)
        self.assertIn("  launch floor 2.00 us (an empty kernel): 1 of the 3 products under 1.5 times it; geometric mean over the other 2 3.000x", lines)

    def test_without_chooser(self):
        # no aijgpu rows: only the best of ours
        lines = summary([row("A", "cusparse", 1.0, 1.0, "SELL"), row("A", "slicedell", 0.5, 1.0)], floor=0.002)
        self.assertEqual(lines, ["best of ours against the best cuSPARSE: geometric mean 2.000x over 1 matrices, slower on 0"])


def main():
    log = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stderr
    result = unittest.TextTestRunner(stream=log, verbosity=2).run(unittest.defaultTestLoader.loadTestsFromTestCase(Summary))
    failed = sorted(t.id().split(".")[-1] for t, _ in result.failures + result.errors)
    passed = result.testsRun - len(failed) - len(result.skipped)
    print(f"{'python scripts:':<26} {passed:4d} ok, {len(failed)} not ok, {len(result.skipped)} skipped")
    for name in failed:
        print(f"    not ok: plot_bench {name}")
    print(f"counts {passed} {len(failed)} {len(result.skipped)}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
