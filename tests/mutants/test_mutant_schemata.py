#!/usr/bin/env python3
"""Self-test of scripts/mutant_schemata.py on made-up RTL in a temporary
folder: the guard an expression gets, mutants sharing or nesting inside one
expression, numbering over DUTs, and stale mutants (a snippet not found
exactly once) stopping generation by name."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "scripts", "mutant_schemata.py")

RTL = """module m (input logic [7:0] a_i, b_i, output logic [7:0] y_o, z_o);
  assign y_o = a_i + b_i;
  assign z_o = (a_i < b_i) ? a_i : b_i;
endmodule
"""


def mutant(name, context, original, mutated, **kw):
    d = {"name": name, "file": "m.sv", "context": context, "original": original, "mutated": mutated,
         "description": name}
    d.update(kw)
    return d


class Schemata(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.repo = self.tmp.name
        self.out = os.path.join(self.repo, "out")

    def tearDown(self):
        self.tmp.cleanup()

    def dut(self, name, mutants, rtl=RTL):
        d = os.path.join(self.repo, "rtl", name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "m.sv"), "w") as f:
            f.write(rtl)
        with open(os.path.join(d, "mutants.yaml"), "w") as f:
            json.dump({"mutants": mutants}, f)  # JSON is YAML
        with open(os.path.join(d, name + ".yaml"), "w") as f:
            json.dump({"name": name, "mutants": "mutants.yaml"}, f)  # the manifest names the list

    def gen(self, *extra):
        return subprocess.run([sys.executable, GEN, "generate", "--repo", self.repo, "--out", self.out] + list(extra),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def copy(self, dut):
        with open(os.path.join(self.out, "rtl", dut, "m.sv")) as f:
            return f.read()

    def test_guard_replaces_only_the_expression(self):
        self.dut("d", [mutant("add_sub", "assign y_o = a_i + b_i;", "a_i + b_i", "a_i - b_i")])
        r = self.gen()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("assign y_o = ((cosim_mutant_pkg::id == 32'd1) ? (a_i - b_i) : (a_i + b_i));", self.copy("d"))
        self.assertIn("assign z_o = (a_i < b_i) ? a_i : b_i;", self.copy("d"))
        with open(os.path.join(self.out, "cosim_mutant_pkg.sv")) as f:
            pkg = f.read()
        self.assertIn('import "DPI-C" function int unsigned cosim_mutant_select();', pkg)
        with open(os.path.join(self.out, "mutants.json")) as f:
            rows = json.load(f)
        self.assertEqual([(r["id"], r["name"], r["line"]) for r in rows], [(1, "add_sub", 2)])
        with open(os.path.join(self.out, "sources.cmake")) as f:
            self.assertIn(os.path.join(self.repo, "rtl", "d", "m.sv"), f.read())

    def test_shared_and_nested_expressions(self):
        ctx = "assign z_o = (a_i < b_i) ? a_i : b_i;"
        self.dut("d", [
            mutant("whole", ctx, "(a_i < b_i) ? a_i : b_i", "b_i"),
            mutant("cmp", ctx, "a_i < b_i", "a_i > b_i"),
            mutant("cmp2", ctx, "a_i < b_i", "a_i <= b_i"),
        ])
        r = self.gen()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("assign z_o = ((cosim_mutant_pkg::id == 32'd1) ? (b_i) : "
                      "((((cosim_mutant_pkg::id == 32'd2) ? (a_i > b_i) : "
                      "((cosim_mutant_pkg::id == 32'd3) ? (a_i <= b_i) : (a_i < b_i)))) ? a_i : b_i));",
                      self.copy("d"))

    def test_numbering_over_duts_in_folder_order(self):
        self.dut("b", [mutant("b1", "assign y_o = a_i + b_i;", "a_i + b_i", "a_i")])
        self.dut("a", [mutant("a1", "assign y_o = a_i + b_i;", "b_i", "a_i")])
        r = self.gen()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("32'd1) ? (a_i) : (b_i)", self.copy("a"))
        self.assertIn("32'd2) ? (a_i) : (a_i + b_i)", self.copy("b"))

    def test_stale_snippets_stop_generation_by_name(self):
        self.dut("d", [
            mutant("gone", "assign y_o = a_i * b_i;", "a_i * b_i", "a_i"),
            mutant("twice", "a_i", "a_i", "b_i"),
            mutant("not_inside", "assign y_o = a_i + b_i;", "a_i - b_i", "a_i"),
            mutant("fine", "assign y_o = a_i + b_i;", "a_i + b_i", "a_i"),
        ])
        r = self.gen()
        self.assertEqual(r.returncode, 1)
        self.assertIn("stale mutant gone: context found 0 times", r.stderr)
        self.assertIn("stale mutant twice: context found", r.stderr)
        self.assertIn("stale mutant not_inside: original expression found 0 times", r.stderr)
        self.assertNotIn("fine", r.stderr)
        c = subprocess.run([sys.executable, GEN, "check", "--repo", self.repo], stdout=subprocess.PIPE, text=True)
        self.assertEqual(c.returncode, 1)
        self.assertEqual(sorted(l.split("\t")[0] for l in c.stdout.splitlines()), ["gone", "not_inside", "twice"])
        # Left out by name, the rest still builds.
        r = self.gen("--skip", "gone,twice,not_inside")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("? (a_i) : (a_i + b_i)", self.copy("d"))

    def test_partial_overlap_and_malformed_lists_are_refused(self):
        self.dut("d", [
            mutant("left", "assign y_o = a_i + b_i;", "a_i + b_i", "a_i"),
            mutant("right", "assign y_o = a_i + b_i;", "y_o = a_i", "y_o = b_i"),
        ])
        r = self.gen()
        self.assertEqual(r.returncode, 1)
        self.assertIn("overlap", r.stderr)
        self.dut("d", [{"name": "x", "file": "m.sv"}])
        r = self.gen()
        self.assertEqual(r.returncode, 1)
        self.assertIn("missing context", r.stderr)
        self.dut("d", [mutant("x", "a", "a", "b"), mutant("x", "b", "b", "a")])
        self.assertIn("duplicate mutant name x", self.gen().stderr)

    def apply(self, name):
        return subprocess.run([sys.executable, GEN, "apply", "--repo", self.repo, "--mutant", name, "--out", self.out],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def test_apply_writes_one_mutant_unguarded(self):
        # A test-only variant's copy (manifest `variants: [{mutant: ...}]`):
        # only the named mutant, in place, no run-time guard.
        self.dut("d", [
            mutant("add_sub", "assign y_o = a_i + b_i;", "a_i + b_i", "a_i - b_i"),
            mutant("min_max", "assign z_o = (a_i < b_i) ? a_i : b_i;", "a_i < b_i", "a_i > b_i"),
        ])
        r = self.apply("min_max")
        self.assertEqual(r.returncode, 0, r.stderr)
        copy = self.copy("d")
        self.assertIn("assign z_o = ((a_i > b_i)) ? a_i : b_i;", copy)  # parenthesised: precedence kept
        self.assertIn("assign y_o = a_i + b_i;", copy)
        self.assertNotIn("cosim_mutant_pkg", copy)
        self.assertFalse(os.path.exists(os.path.join(self.out, "cosim_mutant_pkg.sv")))
        with open(os.path.join(self.out, "sources.cmake")) as f:
            subst = f.read()
        self.assertIn("set(COSIM_MUTANT_APPLIED_SUBST", subst)
        self.assertIn(f'"{os.path.join(self.repo, "rtl", "d", "m.sv")}" "{os.path.join(self.out, "rtl", "d", "m.sv")}"',
                      subst)

    def test_apply_refuses_unknown_and_stale_mutants(self):
        self.dut("d", [mutant("gone", "assign y_o = a_i * b_i;", "a_i * b_i", "a_i")])
        r = self.apply("nope")
        self.assertEqual(r.returncode, 1)
        self.assertIn("unknown mutant nope", r.stderr)
        r = self.apply("gone")
        self.assertEqual(r.returncode, 1)
        self.assertIn("stale mutant gone: context found 0 times", r.stderr)


if __name__ == "__main__":
    unittest.main()
