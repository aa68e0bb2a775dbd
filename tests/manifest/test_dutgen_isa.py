#!/usr/bin/env python3
"""scripts/dutgen_isa.py through scripts/dutgen.py: a manifest naming an ISA
file (`isa:`) generates the SV package and the C++ header of its layouts; a
malformed ISA file (overlapping fields, a field beyond its word, unknown
names) stops with exit status 2 and one line naming the ISA file, the key and
what was expected. Python 3 unittest (run by CTest)."""

import os
import sys
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_dutgen import GOOD as GOOD_MANIFEST, ManifestFolder  # noqa: E402  (beside this test)

# test_dutgen's manifest, naming an ISA file; its enum state_e gives the opcodes.
MANIFEST = GOOD_MANIFEST + "isa: mini_isa.yaml\n"

GOOD = textwrap.dedent("""\
    opcode_enum: state_e
    words:
      - {name: insn, width: 16}
    field_sets:
      regs: [{name: rd, bits: "6:4", cpp: rd}]
    layouts:
      - name: insn_hdr
        word: insn
        width: 3
        fields: [{name: op, bits: "2:0", enum: state_e, cpp: op}]
      - name: insn_add
        word: insn
        opcodes: [StRun]
        fields:
          - {name: hdr, bits: "2:0", layout: insn_hdr, cpp: head}
          - {set: regs, cpp: regs}
          - {name: imm, bits: "15:10", signed: true, spec: immediate, cpp: imm}
    """)


# Malformed variants of GOOD: (text replaced, replacement), the key the error
# line names, words it holds.
MALFORMED = [
    (('bits: "15:10"', 'bits: "15:5"'), "layouts[1].fields", ["rd [6:4]", "imm [15:5]", "overlap"]),
    (('bits: "15:10"', 'bits: "17:10"'), "layouts[1].fields[2].bits", ["beyond the 16-bit insn layout"]),
    (('bits: "2:0", enum', 'bits: "3:0", enum'), "layouts[0].fields[0].bits", ["beyond the 3-bit"]),
    (("{set: regs, cpp: regs}", '{name: kind, bits: "4:3", enum: state_e}'), "layouts[1].fields[1].bits",
     ["enum state_e is 3 bits"]),
    (("{set: regs, cpp: regs}", "{set: other}"), "layouts[1].fields[1].set", ["unknown field set"]),
    (("[StRun]", "[StJump]"), "layouts[1].opcodes[0]", ["'StJump'"]),
    (("enum: state_e, cpp: op}", "enum: state_e}"), "layouts[1].fields[0].cpp",
     ["layout insn_hdr has no field with a C++ member"]),
    (("cpp: imm", "cpp: 2imm"), "layouts[1].fields[2].cpp", ["a C++ member name"]),
    (("layout: insn_hdr", "layout: insn_top"), "layouts[1].fields[0].layout", ["unknown layout"]),
    (("word: insn\n    opcodes", "word: data\n    opcodes"), "layouts[1].word", ["unknown word"]),
    (("opcode_enum: state_e\n", "opcode_enum: state_e\ncolour: blue\n"), "colour", ["unknown key"]),
]


class IsaFile(ManifestFolder):
    def setUp(self):
        super().setUp()
        with open(self.manifest, "w") as f:
            f.write(MANIFEST)
        self.path = os.path.join(self.dir, "mini_isa.yaml")  # write() and errors: the ISA file

    def test_good_file_generates_package_and_header(self):
        self.write(GOOD)
        sv, cpp = self.generated("sv/mini_isa_pkg.sv", "include/dut/mini_isa.hpp")
        self.assertIn("package mini_isa_pkg;", sv)
        self.assertIn("parameter int unsigned InsnWidth = 16;", sv)
        # Fields from the MSB down, the gaps named unused_HI_LO (two gaps), the nested header typed.
        body = sv[sv.index("} insn_hdr_t;"):sv.index("} insn_add_t;")]
        order = [body.index(s) for s in ("imm;", "unused_9_7;", "rd;", "unused_3_3;", "insn_hdr_t     hdr;")]
        self.assertEqual(order, sorted(order), body)
        self.assertIn("namespace cosim::mini::isa_layout {", cpp)
        self.assertIn("inline constexpr unsigned kStRun = 1;", cpp)
        self.assertIn('inline constexpr Field kImm{"immediate", 10, 6, true};', cpp)
        self.assertIn('inline constexpr Field kRd{"rd", 4, 3, false};', cpp)
        flat = cpp[cpp.index("namespace insn_add"):]
        self.assertIn('{"op", 0, 3, false},', flat)  # the nested header, flattened
        # The C++ members, in file order: the nested layout's and the field set's through theirs.
        visit = flat[flat.index("void visit_fields(Fields& s, Visit&& visit) {"):]
        order = [visit.index(s) for s in ("insn_hdr::visit_fields(s.head, visit);",
                                          "regs::visit_fields(s.regs, visit);", "visit(kImm, s.imm);")]
        self.assertEqual(order, sorted(order), visit)
        self.assertIn("visit(kRd, s.rd);", cpp[cpp.index("namespace regs"):])

    def test_malformed_files(self):
        for (old, new), key, words in MALFORMED:
            with self.subTest(key=key, change=new):
                self.assertIn(old, GOOD)  # the case still changes the good file
                self.expect_error(GOOD.replace(old, new), key, *words)

    def test_missing_isa_file(self):
        self.path = self.manifest
        self.expect_error(MANIFEST.replace("mini_isa.yaml", "none.yaml"), "isa",
                          "'none.yaml' is not a file beside the manifest")


if __name__ == "__main__":
    unittest.main()
