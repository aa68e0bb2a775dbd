#!/usr/bin/env python3
"""scripts/dutgen.py on malformed manifests: exit status 2 and exactly one
line on stderr naming the file, the key and what was expected; a valid
manifest passes and generates. Python 3 unittest (run by CTest)."""

import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DUTGEN = os.path.join(REPO, "scripts", "dutgen.py")

GOOD = textwrap.dedent("""\
    name: mini
    top: mini
    sources: [mini.sv]
    parameters:
      - {name: Depth, default: 4}
    ports:
      clock: clk_i
      reset: {port: rst_ni}
      interfaces:
        - {name: ctrl, kind: reg, prefix: reg_, suffix: io, addr_width: 8}
    registers:
      - name: CTRL
        offset: 0x00
        access: rw
        fields:
          - {name: start, bits: "0"}
          - {name: state, bits: "3:1", access: ro, enum: state_e}
      - {name: CYCLES, offset: 0x04, access: ro}
    enums:
      - name: state_e
        width: 3
        items: [{name: StIdle, value: 0}, {name: StRun, value: 1}]
    variants:
      - {name: mini_rtl, trace: true, params: {Depth: 8}}
    """)


def run(folder, *args):
    p = subprocess.run([sys.executable, DUTGEN] + list(args), cwd=folder, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


class ManifestFolder(unittest.TestCase):
    """A temporary folder holding NAME.sv; write() puts text into self.path
    (the manifest NAME.yaml unless a subclass points it at another file)."""
    NAME = "mini"

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        with open(os.path.join(self.dir, f"{self.NAME}.sv"), "w") as f:
            f.write(f"module {self.NAME}; endmodule\n")
        self.manifest = os.path.join(self.dir, f"{self.NAME}.yaml")
        self.path = self.manifest

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, text):
        with open(self.path, "w") as f:
            f.write(text)

    def generated(self, *files):
        """`dutgen gen` on the manifest: the text of each generated file (paths under the output folder)."""
        out = os.path.join(self.dir, "gen")
        rc, _, err = run(self.dir, "gen", self.manifest, "--outdir", out)
        self.assertEqual(rc, 0, err)
        texts = []
        for f in files:
            with open(os.path.join(out, f)) as fh:
                texts.append(fh.read())
        return texts

    def expect_error(self, text, key, *words):
        """`text` in self.path: `dutgen check` fails (status 2) with one line
        that starts with self.path and names the key and the words."""
        self.write(text)
        rc, _, err = run(self.dir, "check", self.manifest)
        self.assertEqual(rc, 2, err)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, f"expected one line, got:\n{err}")
        self.assertTrue(lines[0].startswith(self.path + ":"), lines[0])
        self.assertIn(key, lines[0])
        for w in words:
            self.assertIn(w, lines[0])


class Malformed(ManifestFolder):
    def test_good_manifest_passes_and_generates(self):
        self.write(GOOD)
        rc, out, err = run(self.dir, "check", self.path)
        self.assertEqual(rc, 0, err)
        self.assertIn("ok", out)
        rc, _, err = run(self.dir, "gen", self.path, "--outdir", os.path.join(self.dir, "gen"))
        self.assertEqual(rc, 0, err)
        with open(os.path.join(self.dir, "gen", "sv", "mini_reg_pkg.sv")) as f:
            sv = f.read()
        self.assertIn("parameter logic [RegAddrWidth-1:0] RegCycles = 8'h04;", sv)
        self.assertIn("StRun = 3'd1", sv)

    def test_unknown_key(self):
        self.expect_error(GOOD + "colour: blue\n", "colour", "unknown key")

    def test_missing_key(self):
        self.expect_error(GOOD.replace("top: mini\n", ""), "top", "missing")

    def test_yaml_syntax(self):
        self.expect_error(GOOD + "registers: [\n", "YAML syntax error")

    def test_name_must_match_file(self):
        self.expect_error(GOOD.replace("name: mini", "name: other"), "name", "'mini'")

    def test_missing_source(self):
        self.expect_error(GOOD.replace("[mini.sv]", "[mini.sv, gone.sv]"), "sources[1]", "gone.sv not found")

    def test_mutant_list_must_exist(self):
        self.expect_error(GOOD + "mutants: gone.yaml\n", "mutants", "gone.yaml", "not a file")

    def test_bad_register_or_enum(self):
        # One edit of GOOD's registers or enums: (what, text replaced, by, the key named, what the line says).
        for what, old, new, key, words in (
                ("offset not aligned", "offset: 0x04", "offset: 0x06", "registers[1].offset", "multiple of 4"),
                ("offset twice", "offset: 0x04", "offset: 0x00", "registers[1].offset", "already used by CTRL"),
                ("offset too wide", "offset: 0x04", "offset: 0x400", "registers[1].offset", "8-bit"),
                ("offset not an integer", "offset: 0x04", "offset: four", "registers[1].offset", "integer"),
                ("bad access", "access: ro}", "access: read}", "registers[1].access", "ro, rw"),
                ("field bits", 'bits: "3:1"', 'bits: "1:3"', "registers[0].fields[1].bits", "HI >= LO"),
                ("unknown enum", "enum: state_e", "enum: mode_e", "registers[0].fields[1].enum",
                 "unknown enum 'mode_e'"),
                ("enum value too wide", "{name: StRun, value: 1}", "{name: StRun, value: 9}", "enums[0].items[1].value",
                 "[0, 7]")):
            with self.subTest(what):
                self.expect_error(GOOD.replace(old, new), key, words)

    def test_variant_unknown_parameter(self):
        self.expect_error(GOOD.replace("{Depth: 8}", "{Width: 8}"), "variants[0].params.Width", "unknown key")

    def test_variant_mutant_must_be_one_of_the_manifests(self):
        # No `mutants` list at all, then a list without that name.
        bug = GOOD.replace("params: {Depth: 8}}", "params: {Depth: 8}}\n  - {name: mini_bug, mutant: mini_flip}")
        self.expect_error(bug, "variants[1].mutant", "'mini_flip' is not a mutant of this manifest's `mutants` file")
        with open(os.path.join(self.dir, "mutants.yaml"), "w") as f:
            f.write("mutants:\n  - {name: mini_other, file: mini.sv, context: m, original: m, mutated: n, "
                    "description: x}\n")
        self.expect_error(bug + "mutants: mutants.yaml\n", "variants[1].mutant", "'mini_flip' is not a mutant")

    # The generated register block's keys (scripts/dutgen_regtop.py).
    GEN = GOOD.replace("registers:", "register_block: generated\nregisters:")

    def test_block_keys_need_a_generated_block(self):
        self.expect_error(GOOD.replace("{name: CYCLES, offset: 0x04, access: ro}",
                                       "{name: CYCLES, offset: 0x04, access: ro, reset: 1}"),
                          "registers[1].reset", "register_block: generated")

    def test_block_mode(self):
        self.expect_error(GOOD.replace("registers:", "register_block: handmade\nregisters:"), "register_block",
                          "'own', 'generated'")

    def test_block_decode(self):
        self.expect_error(GOOD.replace("registers:", "register_block: {generate: true, decode: lanes}\nregisters:"),
                          "register_block.decode", "exact, word")

    def test_generated_block_field_rules(self):
        # A field of the generated block edited against a rule: (the rule, text replaced, by, key, words).
        start = '{name: start, bits: "0"}'
        for rule, old, new, key, words in (
                ("set on a wide field", 'bits: "3:1", access: ro, enum: state_e', 'bits: "3:1", access: ro, hw: [set]',
                 "registers[0].fields[1].hw", "1-bit"),
                ("hw value on a stored field", start, '{name: start, bits: "0", hw: value}',
                 "registers[0].fields[0].hw", "not rw"),
                ("reset too wide", start, '{name: start, bits: "0", reset: 2}',
                 "registers[0].fields[0].reset", "[0, 1]"),
                ("two fields read one bit", start, start + '\n      - {name: busy, bits: "0", access: ro}',
                 "registers[0].fields[1].bits", "bit 0 is read by ctrl_start"),
                ("write enable on a read-only field", "access: ro, enum: state_e", "access: ro, write_enable: idle",
                 "registers[0].fields[1].write_enable", "not written by software")):
            with self.subTest(rule):
                self.expect_error(self.GEN.replace(old, new), key, words)

    def test_generated_block_is_written(self):
        self.write(self.GEN)
        top, pkg = self.generated(os.path.join("sv", "mini_reg_top.sv"), os.path.join("sv", "mini_reg_pkg.sv"))
        self.assertIn("module mini_reg_top", top)
        self.assertIn("} mini_reg2hw_t;", pkg)

    # `deadlock`: a rule over a debug vector's engine-state fields.
    DBG = GOOD.replace("variants:", """debug:
  - name: status_t
    port: status_o
    width: 8
    fields:
      - {name: a_state, bits: "2:0", enum: state_e}
      - {name: level, bits: "7:4"}
deadlock: {vector: status_t, fields: [a_state], busy: StRun, progress: [level], cycles: 100}
variants:""").replace("addr_width: 8}\n", "addr_width: 8}\n  debug: [status_o]\n")

    def test_debug_vector_port_is_a_listed_debug_port(self):
        # One convention: a debug vector is a port of its own, listed in ports.debug.
        self.expect_error(self.DBG.replace("  debug: [status_o]\n", ""), "debug[0].port",
                          "'status_o' is not listed in ports.debug")

    def test_deadlock_rule_is_generated(self):
        self.write(self.DBG)
        text, = self.generated(os.path.join("include", "dut", "mini_regs.hpp"))
        self.assertIn("inline constexpr uint64_t kCycles = 100;", text)
        self.assertIn("none of a_state is StRun, no change of level", text)

    def test_bad_deadlock_rule(self):
        # One edit of the rule: (what, text replaced, by, the key named, what the line says).
        for what, old, new, key, words in (
                ("unknown vector", "vector: status_t", "vector: dbg_t", "deadlock.vector", "status_t"),
                ("field without an enum", "fields: [a_state]", "fields: [level]", "deadlock.fields[0]", "enum"),
                ("busy not an item", "busy: StRun", "busy: StGo", "deadlock.busy", "StIdle, StRun")):
            with self.subTest(what):
                self.expect_error(self.DBG.replace(old, new), key, words)

    def test_configure_through_cmake_script(self):
        # What CMake prints comes from the same line (cosim_add_dut's FATAL_ERROR).
        self.write(GOOD.replace("offset: 0x04", "offset: 0x00"))
        rc, _, err = run(self.dir, "configure", self.path, "--outdir", os.path.join(self.dir, "gen"))
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "gen", "cmake", "mini.cmake")))


class TreeManifests(unittest.TestCase):
    def test_every_manifest_of_the_tree_is_valid(self):
        rc, out, err = run(REPO, "check")
        self.assertEqual(rc, 0, err)
        for dut in ("vta", "tf2", "tinydnn"):
            self.assertIn(f"rtl/{dut}/{dut}.yaml: ok", out)


if __name__ == "__main__":
    unittest.main()
