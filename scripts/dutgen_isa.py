"""Instruction encodings of a DUT manifest (`isa: <file>.yaml`): validation
and code generation; a module of scripts/dutgen.py, which calls it.

The ISA file describes every encoded word once (for VTA: rtl/vta/vta_isa.yaml):

  opcode_enum: opcode_e        a manifest enum; `opcodes` below name its items
  words:                       the kinds of encoded word
    - {name: insn, width: 128, desc: ...}
  field_sets:                  fields several layouts share at the same bits
    loop: [{name: uop_bgn, bits: "20:8"}, ...]
  layouts:                     one packed struct <name>_t each, in order
    - name: insn_hdr
      word: insn               the word it encodes
      width: 7                 optional: a part of the word (from bit 0) that
                               later layouts nest; default the word's width
      fields: [{name: opcode, bits: "2:0", enum: opcode_e}, ...]
    - name: insn_mem
      word: insn
      opcodes: [OpLoad, OpStore]   optional: the opcodes using this layout
      desc: LOAD / STORE
      fields:
        - {name: hdr, bits: "6:0", layout: insn_hdr, cpp: dep}   a nested layout
        - {name: memory_type, bits: "9:7", enum: mem_e}          enum: same width
        - {name: imm, bits: "127:112", signed: true}
        - {name: pop_prev, bits: "3", spec: pop_prev_dep}   the spec's name,
                                                            when it differs
        - {set: loop, cpp: loop}   the fields of a field set, at their bits
        - {name: sram_base, bits: "25:10", cpp: sram_base}
                               cpp: the member of the C++ model type that
                               holds the field (on a nested layout or a field
                               set: the member holding their fields)

Fields may not overlap or leave their layout; bits no field claims become
`unused` (`unused_HI_LO` when a layout has several gaps). A field with `enum`
has the enum's width. A malformed file stops dutgen with one line
"FILE: KEY: what was expected".

Generated (dutgen configure / gen):
  sv/<dut>_isa_pkg.sv          package <dut>_isa_pkg: <Word>Width parameters
                               and the packed structs, fields from the MSB
                               down (plain logic: signedness is a comment)
  include/dut/<dut>_isa.hpp    namespace cosim::<dut>::isa_layout: a Field
                               {name, lsb, width, is_signed} per field (a
                               namespace per layout and per field set), the
                               opcodes, kFields (nested layouts flattened,
                               absolute bits), visit_fields(s, visit) calling
                               visit(Field, s.<cpp member>) for each field with
                               `cpp`, in file order (one list for encode and
                               decode), and get / get_signed / put on a word
                               held as 64-bit chunks (chunk 0 = bits 63:0)
"""

import re

GENERATOR = "scripts/dutgen_isa.py"
NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def _field(c, key, f, layouts, enums, width, word):
    """One field entry -> {name, lsb, width, ...}; a nested layout's size and
    an enum's width must match the field's bits."""
    c.mapping(key, f, ("name", "bits"), ("enum", "signed", "spec", "desc", "layout", "cpp"))
    c.string(f"{key}.name", f["name"], NAME, "a lower-case field name")
    lsb, w = c.bits(f"{key}.bits", f["bits"], 1 << 16)
    if lsb + w > width:
        c.fail(f"{key}.bits", f"{f['bits']} lies beyond the {width}-bit {word} layout (bits {width - 1}:0)")
    out = {"name": f["name"], "lsb": lsb, "width": w, "spec": f["name"], "signed": False}
    if "spec" in f:
        out["spec"] = c.string(f"{key}.spec", f["spec"], NAME, "a lower-case field name")
    if "signed" in f:
        out["signed"] = c.boolean(f"{key}.signed", f["signed"])
    if "desc" in f:
        out["desc"] = c.string(f"{key}.desc", f["desc"])
    if "cpp" in f:
        out["cpp"] = c.string(f"{key}.cpp", f["cpp"], NAME, "a C++ member name")
    if "enum" in f:
        e = c.string(f"{key}.enum", f["enum"])
        if e not in enums:
            c.fail(f"{key}.enum", f"unknown enum {e!r} (the manifest declares: {', '.join(enums) or 'none'})")
        if enums[e]["width"] != w:
            c.fail(f"{key}.bits", f"{w} bits, but enum {e} is {enums[e]['width']} bits wide")
        out["enum"] = e
    if "layout" in f:
        sub = layouts.get(c.string(f"{key}.layout", f["layout"]))
        if sub is None:
            c.fail(f"{key}.layout", f"unknown layout {f['layout']!r} (a layout declared above)")
        if sub["word"] != word or sub["width"] != w:
            c.fail(f"{key}.layout", f"layout {sub['name']} is {sub['width']} bits of a {sub['word']} word, "
                                    f"the field {w} bits of a {word} word")
        out["layout"] = sub
    return out


def _check_overlap(c, key, fields):
    """Fields sorted by position; the first pair sharing a bit is the error."""
    by_lsb = sorted(fields, key=lambda f: f["lsb"])
    for a, b in zip(by_lsb, by_lsb[1:]):
        if b["lsb"] < a["lsb"] + a["width"]:
            c.fail(key, f"fields {a['name']} [{a['lsb'] + a['width'] - 1}:{a['lsb']}] and "
                        f"{b['name']} [{b['lsb'] + b['width'] - 1}:{b['lsb']}] overlap")
    names = set()
    for f in fields:
        if f["name"] in names:
            c.fail(key, f"duplicate field {f['name']}")
        names.add(f["name"])


def _words(c, data):
    words = {}
    for i, w in enumerate(c.seq("words", data["words"])):
        k = f"words[{i}]"
        c.mapping(k, w, ("name", "width"), ("desc",))
        c.string(f"{k}.name", w["name"], NAME, "a lower-case word name")
        c.integer(f"{k}.width", w["width"], 1, 1024)
        if w["name"] in words:
            c.fail(f"{k}.name", f"duplicate word {w['name']}")
        words[w["name"]] = w
    return words


def _opcodes(c, data, enums):
    """{item name: value} of the opcode enum (empty without one)."""
    if "opcode_enum" not in data:
        return {}
    e = c.string("opcode_enum", data["opcode_enum"])
    if e not in enums:
        c.fail("opcode_enum", f"unknown enum {e!r} (the manifest declares: {', '.join(enums) or 'none'})")
    return {it["name"]: it["value"] for it in enums[e]["items"]}


def _field_sets(c, data):
    sets = data.setdefault("field_sets", {}) or {}
    if not isinstance(sets, dict):
        c.fail("field_sets", f"expected a mapping, got {type(sets).__name__}")
    for s, fl in sets.items():
        c.string(f"field_sets.{s}", s, NAME, "a lower-case set name")
        if not c.seq(f"field_sets.{s}", fl):
            c.fail(f"field_sets.{s}", "expected at least one field")
    return sets


class _Layouts:
    """The layouts in file order, each with its fields (field sets spliced
    in) and its C++ visits: ("field", field, member), ("layout", name,
    member) or ("set", name, member)."""

    def __init__(self, c, words, opcodes, sets, enums):
        self.c, self.words, self.opcodes, self.sets, self.enums = c, words, opcodes, sets, enums
        self.layouts, self.used_sets, self.set_visits = {}, {}, {}

    def add(self, k, lay):
        c = self.c
        c.mapping(k, lay, ("name", "word", "fields"), ("width", "desc", "opcodes"))
        c.string(f"{k}.name", lay["name"], NAME, "a lower-case layout name")
        if lay["name"] in self.layouts:
            c.fail(f"{k}.name", f"duplicate layout {lay['name']}")
        word = c.string(f"{k}.word", lay["word"])
        if word not in self.words:
            c.fail(f"{k}.word", f"unknown word {word!r} (declared: {', '.join(self.words)})")
        top = self.words[word]["width"]
        width = c.integer(f"{k}.width", lay.setdefault("width", top), 1, top)
        ops = []
        for j, o in enumerate(c.seq(f"{k}.opcodes", lay.setdefault("opcodes", []))):
            if not isinstance(o, str) or o not in self.opcodes:
                c.fail(f"{k}.opcodes[{j}]", f"expected an item of opcode_enum, got {o!r}"
                       + ("" if self.opcodes else " (no opcode_enum declared)"))
            ops.append((o, self.opcodes[o]))
        fields, visits = [], []
        for j, f in enumerate(c.seq(f"{k}.fields", lay["fields"])):
            if isinstance(f, dict) and "set" in f:
                self._splice(f"{k}.fields[{j}]", f, width, word, fields, visits)
            else:
                self._field(f"{k}.fields[{j}]", f, width, word, fields, visits)
        _check_overlap(c, f"{k}.fields", fields)
        self.layouts[lay["name"]] = {"name": lay["name"], "word": word, "width": width,
                                     "desc": lay.get("desc", ""), "opcodes": ops, "fields": fields,
                                     "visits": visits}

    def _member(self, key, f):
        return self.c.string(key, f["cpp"], NAME, "a C++ member name")

    def _splice(self, key, f, width, word, fields, visits):
        c = self.c
        c.mapping(key, f, ("set",), ("cpp",))
        name = c.string(f"{key}.set", f["set"])
        if name not in self.sets:
            c.fail(f"{key}.set", f"unknown field set {name!r} (declared: {', '.join(self.sets) or 'none'})")
        shared = [_field(c, f"field_sets.{name}[{n}]", g, self.layouts, self.enums, width, word)
                  for n, g in enumerate(self.sets[name])]
        self.used_sets[name] = shared
        self.set_visits[name] = [("field", g, g["cpp"]) for g in shared if "cpp" in g]
        fields += shared
        if "cpp" in f:
            if not self.set_visits[name]:
                c.fail(f"{key}.cpp", f"field set {name} has no field with a C++ member")
            visits.append(("set", name, self._member(f"{key}.cpp", f)))

    def _field(self, key, f, width, word, fields, visits):
        g = _field(self.c, key, f, self.layouts, self.enums, width, word)
        fields.append(g)
        if "cpp" not in g:
            return
        if "layout" not in g:
            visits.append(("field", g, g["cpp"]))
            return
        if not g["layout"]["visits"]:
            self.c.fail(f"{key}.cpp", f"layout {g['layout']['name']} has no field with a C++ member")
        visits.append(("layout", g["layout"]["name"], g["cpp"]))


def validate(data, path, c, enums):
    """Checks the parsed ISA file (`c`: dutgen's checker for `path`, `enums`:
    the manifest's enums by name); returns it with derived fields."""
    c.mapping("", data, ("words", "layouts"), ("opcode_enum", "field_sets"))
    words = _words(c, data)
    lays = _Layouts(c, words, _opcodes(c, data, enums), _field_sets(c, data), enums)
    for i, lay in enumerate(c.seq("layouts", data["layouts"])):
        lays.add(f"layouts[{i}]", lay)
    data["word_map"] = words
    data["layout_map"] = lays.layouts
    data["set_map"] = lays.used_sets
    data["set_visits"] = lays.set_visits
    data["path"] = path
    return data


def flatten(fields, base=0):
    """Fields with nested layouts replaced by theirs, at absolute bits."""
    out = []
    for f in fields:
        if "layout" in f:
            out += flatten(f["layout"]["fields"], base + f["lsb"])
        else:
            out.append(dict(f, lsb=base + f["lsb"]))
    return out


def _header(rel):
    return (f"// Generated by {GENERATOR} from {rel}: do not edit.\n"
            f"// Instruction encodings: word widths and field layouts.\n")


def gen_sv(isa, dut, rel, sv_struct, camel):
    """The package <dut>_isa_pkg (`rel`: the ISA file's path for the header,
    `sv_struct`: dutgen's packed-struct writer, `camel`: its name style)."""
    L = [_header(rel), "`timescale 1ps/1ps", "", f"package {dut}_isa_pkg;", "",
         "  /* verilator lint_off UNUSEDPARAM */", "", "  // Encoded word widths."]
    for w in isa["words"]:
        L.append(f"  parameter int unsigned {camel(w['name'])}Width = {w['width']};" +
                 (f"  // {w['desc']}" if w.get("desc") else ""))
    for lay in isa["layout_map"].values():
        rows = []
        for f in lay["fields"]:
            note = ", ".join(x for x in ("signed" if f["signed"] else "", f.get("enum", ""),
                                         f["spec"] if f["spec"] != f["name"] else "", f.get("desc", "")) if x)
            rows.append(dict(f, type=f"{f['layout']['name']}_t" if "layout" in f else None, note=note))
        ops = ", ".join(o for o, _ in lay["opcodes"])
        L.append("")
        L.append(f"  // {lay['desc'] or lay['name']} ({lay['width']} bits, word {lay['word']}"
                 + (f"; {ops}" if ops else "") + "); fields from the MSB down.")
        L.extend(sv_struct(f"{lay['name']}_t", lay["width"], rows, "unused"))
    L += ["", "  /* verilator lint_on UNUSEDPARAM */", "", "endpackage"]
    return "\n".join(L) + "\n"


_CPP_ACCESS = r'''// A field of an encoded word: bits [lsb + width - 1 : lsb].
struct Field {
  const char* name;  // as the specification names it
  unsigned lsb;
  unsigned width;
  bool is_signed;
};

// The largest value a field holds (unsigned).
constexpr uint64_t field_max(Field f) { return f.width >= 64 ? ~uint64_t{0} : (uint64_t{1} << f.width) - 1; }
constexpr bool fits(Field f, uint64_t v) { return (v & ~field_max(f)) == 0; }

// A word is held as 64-bit chunks, chunk 0 = bits 63:0. Bit by bit: a field
// may cross a chunk boundary.
inline uint64_t get(const uint64_t* chunks, Field f) {
  uint64_t v = 0;
  for (unsigned b = 0; b < f.width; ++b) {
    const unsigned pos = f.lsb + b;
    v |= ((chunks[pos / 64] >> (pos % 64)) & 1u) << b;
  }
  return v;
}

// A signed field, sign-extended.
inline int64_t get_signed(const uint64_t* chunks, Field f) {
  const uint64_t v = get(chunks, f);
  const uint64_t sign = uint64_t{1} << (f.width - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

// Writes the low f.width bits of v (the caller checks fits()).
inline void put(uint64_t* chunks, Field f, uint64_t v) {
  for (unsigned b = 0; b < f.width; ++b) {
    const unsigned pos = f.lsb + b;
    const uint64_t mask = uint64_t{1} << (pos % 64);
    chunks[pos / 64] = ((v >> b) & 1u) ? (chunks[pos / 64] | mask) : (chunks[pos / 64] & ~mask);
  }
}
'''


def _cpp_init(f):
    """A Field's initializer: {"spec name", lsb, width, is_signed}."""
    return f"{{\"{f['spec']}\", {f['lsb']}, {f['width']}, {'true' if f['signed'] else 'false'}}}"


def _cpp_visit(visits, camel):
    """visit_fields(): each field with a `cpp` member, in file order, as
    visit(Field, member); a nested layout or field set visits its member's."""
    if not visits:
        return []
    L = ["// visit(Field, member) for each field a C++ member holds (`cpp:`), in encoding order.",
         "template <class Fields, class Visit>", "void visit_fields(Fields& s, Visit&& visit) {"]
    for kind, what, member in visits:
        if kind == "field":
            L.append(f"  visit(k{camel(what['name'])}, s.{member});")
        else:
            L.append(f"  {what}::visit_fields(s.{member}, visit);")
    L.append("}")
    return L


def gen_cpp(isa, dut, rel, camel):
    """The header dut/<dut>_isa.hpp (`rel`: the ISA file's path for the header)."""
    L = [_header(rel).rstrip("\n"), "#pragma once", "", "#include <cstddef>", "#include <cstdint>", "",
         f"namespace cosim::{dut}::isa_layout {{", "", _CPP_ACCESS]
    for w in isa["words"]:
        W = camel(w["name"])
        L.append(f"inline constexpr unsigned k{W}Bits = {w['width']}, k{W}Chunks = {(w['width'] + 63) // 64};"
                 + (f"  // {w['desc']}" if w.get("desc") else ""))
    for name, fields in isa["set_map"].items():
        L += ["", f"// Field set {name}: the same bits in every layout that has it.", f"namespace {name} {{"]
        L += [f"inline constexpr Field k{camel(f['name'])}{_cpp_init(f)};" for f in fields]
        L += _cpp_visit(isa["set_visits"][name], camel)
        L.append(f"}}  // namespace {name}")
    for lay in isa["layout_map"].values():
        L += ["", f"// {lay['desc'] or lay['name']} ({lay['width']} bits, word {lay['word']}).",
              f"namespace {lay['name']} {{"]
        for o, v in lay["opcodes"]:
            L.append(f"inline constexpr unsigned k{o} = {v};")
        for f in lay["fields"]:
            L.append(f"inline constexpr Field k{camel(f['name'])}{_cpp_init(f)};" +
                     (f"  // layout {f['layout']['name']}" if "layout" in f else ""))
        flat = flatten(lay["fields"])
        L.append("// Every field, nested layouts flattened, at their bits in the word.")
        L.append("inline constexpr Field kFields[] = {")
        L += [f"    {_cpp_init(f)}," for f in flat]
        L.append("};")
        L += _cpp_visit(lay["visits"], camel)
        L.append(f"}}  // namespace {lay['name']}")
    L += ["", f"}}  // namespace cosim::{dut}::isa_layout"]
    return "\n".join(L) + "\n"
