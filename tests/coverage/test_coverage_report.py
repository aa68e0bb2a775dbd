#!/usr/bin/env python3
"""scripts/coverage_report.py fails when a functional coverage goal is missed.
The coverage files are written here in Verilator's .dat format (one 'C' line
per point: fields separated by \\x01, key and value by \\x02); the goals
below are the TF2 ones the report declares for its cover points."""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "coverage_report.py")

# label -> goal, as listed for TF2 in the report (a missed one must fail it).
TF2_GOALS = {
    "cov_layer": 50, "cov_k1": 5, "cov_k3": 5, "cov_k5": 1, "cov_k_other": 1, "cov_stride1": 5,
    "cov_stride2": 5, "cov_stride_gt2": 1, "cov_pad0": 5, "cov_pad": 5, "cov_relu": 5, "cov_residual": 1,
    "cov_c_partial": 5, "cov_rejected": 1,
}


def dat_line(fields, count):
    return "C '" + "".join(f"\x01{k}\x02{v}" for k, v in fields.items()) + f"' {count}\n"


def write_tf2(folder, hits):
    with open(os.path.join(folder, "tf2.dat"), "w", encoding="latin-1") as f:
        f.write("# SystemC::Coverage-3\n")
        f.write(dat_line({"page": "v_line/tf2_top", "f": "tf2_top.sv", "l": "10", "n": "0", "o": ""}, 3))
        for label, count in hits.items():
            f.write(dat_line({"page": "v_user/tf2_cover", "f": "tf2_cover.sv", "l": "1", "o": label}, count))


def run(folder):
    return subprocess.run([sys.executable, REPORT, folder], capture_output=True, text=True)


def run_tf2(hits):
    """The report over a folder holding only tf2.dat with these hits."""
    with tempfile.TemporaryDirectory() as d:
        write_tf2(d, hits)
        return run(d)


class Goals(unittest.TestCase):
    def test_all_goals_met_exits_zero(self):
        p = run_tf2(TF2_GOALS)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("functional goals not met: 0", p.stdout)

    def test_one_goal_missed_exits_one(self):
        hits = dict(TF2_GOALS)
        hits["cov_k3"] = 4  # goal 5
        p = run_tf2(hits)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("functional goals not met: 1: tf2: kernel 3x3", p.stdout)

    def test_absent_cover_point_is_a_miss(self):
        hits = dict(TF2_GOALS)
        del hits["cov_residual"]
        self.assertEqual(run_tf2(hits).returncode, 1)

    def test_no_data_exits_two(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(run(d).returncode, 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)
