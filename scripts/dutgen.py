#!/usr/bin/env python3
"""The DUT manifest (rtl/<dut>/<dut>.yaml): validation and code generation.

One manifest per accelerator describes its RTL (sources, top, parameters,
build variants), its register map, state enums and debug vectors, its ports,
its waveform view, its mutations and its functional-coverage goals
(rtl/README.md, "Adding your accelerator: the manifest"). From it:

  dutgen.py check M...                 validate, one line per bad manifest
  dutgen.py configure M --outdir D     (CMake, configure time) D/cmake/<dut>.cmake,
                                       D/sv/<dut>_reg_pkg.sv, D/include/dut/<dut>_regs.hpp;
                                       with `isa:` also D/sv/<dut>_isa_pkg.sv and
                                       D/include/dut/<dut>_isa.hpp (scripts/dutgen_isa.py)
  dutgen.py gen M --outdir D [--stamp F]  (build time) the SV package and the C++
                                       header, each rewritten only when its text changes
  dutgen.py sv|cpp M [--out F]         one generated file (stdout by default)
  dutgen.py views M... --out F         the GTKWave views of every DUT (tb/wave)
  dutgen.py list                       the manifests of the tree (rtl/*/<dir>.yaml)
  dutgen.py query KEY [M...]           values for shell scripts: names, lint-files NAME|M OUTDIR,
                                       lint-args NAME|M, port-names, wave-scenarios [M...],
                                       coverage-targets, coverage-labels

A malformed manifest stops with exit status 2 and one line
"FILE: KEY: what was expected". Imported by scripts/mutate and
scripts/coverage_report.py (load(), manifests()).

Needs PyYAML (Debian python3-yaml); when the interpreter running this lacks
it, the script re-runs itself with /usr/bin/python3.
"""

import json
import os
import re
import sys

try:
    import yaml
except ImportError:  # e.g. a pyenv python3 first on PATH: Debian's has python3-yaml
    _deb = "/usr/bin/python3"
    if os.path.exists(_deb) and os.path.realpath(sys.executable) != os.path.realpath(_deb) \
            and not os.environ.get("COSIM_DUTGEN_REEXEC"):
        os.environ["COSIM_DUTGEN_REEXEC"] = "1"
        os.execv(_deb, [_deb] + sys.argv)
    sys.exit("dutgen: PyYAML is missing (apt-get install python3-yaml)")

import dutgen_isa  # noqa: E402  (beside this script)
import dutgen_ports  # noqa: E402
import dutgen_regtop  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GENERATOR = "scripts/dutgen.py"

# Register and field access (OpenTitan reggen names): read-only, read-write, write-only,
# write 1 to clear, clear on read, write 1 to toggle, write 1 to set (self-clearing).
ACCESS = ("ro", "rw", "wo", "rw1c", "rc", "w1t", "w1s")
FORMATS = ("bin", "hex", "dec", "signed")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
REG_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
DUT_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def _validate_variant_mutants(c, m, path):
    """A variant's `mutant` names one of the manifest's own mutants (the
    build applies it to a copy of the RTL: cmake/mutants.cmake)."""
    named = [(i, v["mutant"]) for i, v in enumerate(m["variants"]) if "mutant" in v]
    if not named:
        return
    names = set()
    if "mutants" in m:
        with open(os.path.join(os.path.dirname(path), m["mutants"]), encoding="utf-8") as f:
            doc = yaml.safe_load(f) or {}
        names = {str(d.get("name")) for d in (doc.get("mutants") or []) if isinstance(d, dict)}
    for i, name in named:
        c.string(f"variants[{i}].mutant", name)
        if name not in names:
            c.fail(f"variants[{i}].mutant", f"{name!r} is not a mutant of this manifest's `mutants` file")


class ManifestError(Exception):
    """One clear line: FILE: KEY: message."""


# ---------------------------------------------------------------------------
# Loading and validation
# ---------------------------------------------------------------------------

class _Checker:
    def __init__(self, path):
        self.path = path

    def fail(self, key, msg):
        raise ManifestError(f"{self.path}: {key}: {msg}")

    def mapping(self, key, v, required, optional=()):
        if not isinstance(v, dict):
            self.fail(key, f"expected a mapping, got {type(v).__name__}")
        for k in v:
            if k not in required and k not in optional:
                allowed = ", ".join(list(required) + list(optional))
                self.fail(f"{key}.{k}" if key else k, f"unknown key (expected one of: {allowed})")
        for k in required:
            if k not in v:
                self.fail(f"{key}.{k}" if key else k, "missing")
        return v

    def seq(self, key, v):
        if not isinstance(v, list):
            self.fail(key, f"expected a list, got {type(v).__name__}")
        return v

    def string(self, key, v, pattern=None, what=None):
        if not isinstance(v, str) or not v:
            self.fail(key, f"expected a non-empty string, got {v!r}")
        if pattern and not pattern.match(v):
            self.fail(key, f"expected {what}, got {v!r}")
        return v

    def integer(self, key, v, lo=None, hi=None):
        if isinstance(v, bool) or not isinstance(v, int):
            self.fail(key, f"expected an integer, got {v!r}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            self.fail(key, f"expected an integer in [{lo}, {hi}], got {v}")
        return v

    def boolean(self, key, v):
        if not isinstance(v, bool):
            self.fail(key, f"expected true or false, got {v!r}")
        return v

    def bits(self, key, v, limit):
        """'7:0' or '3' (a string or an integer) -> (lsb, width)."""
        s = str(v)
        m = re.match(r"^(\d+)(?::(\d+))?$", s)
        if not m:
            self.fail(key, f"expected a bit range 'HI:LO' or a bit 'N', got {v!r}")
        hi = int(m.group(1))
        lo = int(m.group(2)) if m.group(2) is not None else hi
        if lo > hi or hi >= limit:
            self.fail(key, f"expected bits within {limit - 1}:0 with HI >= LO, got {s}")
        return lo, hi - lo + 1


def vendor_primitives():
    """{primitive: [absolute file, ...]} from rtl/vendor/primitives.txt."""
    base = os.path.join(REPO, "rtl", "vendor")
    out = {}
    with open(os.path.join(base, "primitives.txt"), encoding="utf-8") as f:
        for line in f:
            if re.match(r"^[a-z_0-9]+:", line):
                name, files = line.split(":", 1)
                out[name] = [os.path.join(base, x) for x in files.split()]
    return out


def _camel(name):
    """CTRL -> Ctrl, INSN_COUNT -> InsnCount, load_state -> LoadState."""
    return "".join(p[:1].upper() + p[1:].lower() for p in name.split("_") if p)


def validate(m, path):
    """Checks the manifest `m` (parsed YAML); returns it with derived fields."""
    c = _Checker(path)
    c.mapping("", m, ("name", "top", "sources", "ports", "registers", "variants"),
              ("description", "package", "verilator_args", "waivers", "lint_args", "vendor", "parameters", "ports", "control", "enums", "debug",
               "assertions", "wave", "mutants", "coverage", "register_block", "deadlock", "isa"))
    name = c.string("name", m["name"], DUT_NAME, "a lower-case identifier")
    base = os.path.splitext(os.path.basename(path))[0]
    if base != name:
        c.fail("name", f"expected '{base}' (the manifest is named <name>.yaml), got {name!r}")
    c.string("top", m["top"], IDENT, "a module name")
    if "description" in m:
        c.string("description", m["description"])
    if "package" in m:
        c.string("package", m["package"], IDENT, "a package name")
    folder = os.path.dirname(os.path.abspath(path))
    srcs = c.seq("sources", m["sources"])
    if not srcs:
        c.fail("sources", "expected at least one file")
    for i, s in enumerate(srcs):
        c.string(f"sources[{i}]", s)
        if not os.path.isfile(os.path.join(folder, s)):
            c.fail(f"sources[{i}]", f"file {s} not found next to the manifest")
    # The folders of sources kept elsewhere (RTL in its own repository, named by a relative path):
    # on the include path beside the manifest's own, so that a source's `include of a file next to
    # it is found, by the port check and the build alike.
    m["source_dirs"] = sorted({os.path.dirname(os.path.normpath(os.path.join(folder, s))) for s in srcs} - {folder})
    for i, a in enumerate(c.seq("verilator_args", m.setdefault("verilator_args", []))):
        c.string(f"verilator_args[{i}]", a)
    # Verilator configuration files (lint_off waivers for vendor code), beside
    # the manifest; the build and `make lint` pass them before the sources.
    for i, w in enumerate(c.seq("waivers", m.setdefault("waivers", []) or [])):
        c.string(f"waivers[{i}]", w)
        if not w.endswith(".vlt"):
            c.fail(f"waivers[{i}]", f"expected a Verilator configuration file (.vlt), got {w!r}")
        if not os.path.isfile(os.path.join(folder, w)):
            c.fail(f"waivers[{i}]", f"file {w} not found next to the manifest")
    # Vendor primitive stand-ins the RTL instantiates (rtl/vendor/primitives.txt).
    known = vendor_primitives()
    m["vendor_sources"] = []
    for i, v in enumerate(c.seq("vendor", m.setdefault("vendor", []) or [])):
        c.string(f"vendor[{i}]", v)
        if v not in known:
            c.fail(f"vendor[{i}]", f"unknown primitive {v!r} (known: {', '.join(known)})")
        for f in known[v]:
            if f not in m["vendor_sources"]:
                m["vendor_sources"].append(f)
    # Extra flags for lint only (the build's come from verilator_args).
    for i, a in enumerate(c.seq("lint_args", m.setdefault("lint_args", []) or [])):
        c.string(f"lint_args[{i}]", a)

    params = {}
    for i, p in enumerate(c.seq("parameters", m.setdefault("parameters", []) or [])):
        k = f"parameters[{i}]"
        c.mapping(k, p, ("name", "default"), ("desc",))
        c.string(f"{k}.name", p["name"], IDENT, "a parameter name")
        c.integer(f"{k}.default", p["default"])
        params[p["name"]] = p

    dutgen_ports.validate(c, m)
    m["addr_shift"] = 0 if m["reg_port"]["addressing"] == "byte" else 2
    addr_width = m["reg_port"]["addr_width"]

    # Enums first: registers and debug fields refer to them.
    enums = {}
    for i, e in enumerate(c.seq("enums", m.setdefault("enums", []) or [])):
        k = f"enums[{i}]"
        c.mapping(k, e, ("name", "width", "items"), ("desc", "rtl", "view_only"))
        ename = c.string(f"{k}.name", e["name"], IDENT, "an enum type name")
        if ename in enums:
            c.fail(f"{k}.name", f"duplicate enum {ename}")
        width = c.integer(f"{k}.width", e["width"], 1, 32)
        if "rtl" in e:
            c.string(f"{k}.rtl", e["rtl"], re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$"),
                     "'<package>' or '<module>.<type>'")
        if "view_only" in e:
            c.boolean(f"{k}.view_only", e["view_only"])
        seen_n, seen_v = set(), set()
        for j, it in enumerate(c.seq(f"{k}.items", e["items"])):
            ik = f"{k}.items[{j}]"
            c.mapping(ik, it, ("name", "value"), ("label", "desc"))
            c.string(f"{ik}.name", it["name"], IDENT, "an identifier")
            c.integer(f"{ik}.value", it["value"], 0, (1 << width) - 1)
            if it["name"] in seen_n:
                c.fail(f"{ik}.name", f"duplicate item {it['name']}")
            if it["value"] in seen_v:
                c.fail(f"{ik}.value", f"duplicate value {it['value']}")
            seen_n.add(it["name"])
            seen_v.add(it["value"])
            if "label" in it:
                c.string(f"{ik}.label", it["label"])
        enums[ename] = e
    m["enum_map"] = enums

    # Instruction encodings (scripts/dutgen_isa.py), in their own file beside the manifest.
    if "isa" in m:
        ipath = os.path.join(folder, c.string("isa", m["isa"]))
        if not os.path.isfile(ipath):
            c.fail("isa", f"{m['isa']!r} is not a file beside the manifest")
        m["isa_spec"] = dutgen_isa.validate(read_yaml(ipath), ipath, _Checker(ipath), enums)

    def enum_ref(key, v):
        c.string(key, v, IDENT, "an enum name")
        if v not in enums:
            c.fail(key, f"unknown enum {v!r} (declared: {', '.join(enums) or 'none'})")
        return v

    regs = c.seq("registers", m["registers"])
    offsets, names = {}, set()
    for i, r in enumerate(regs):
        k = f"registers[{i}]"
        c.mapping(k, r, ("name", "offset", "access"), ("desc", "fields", "group", "width", "reset", "hw", "write_enable",
                                                       "pin", "word", "valid"))
        c.string(f"{k}.name", r["name"], REG_NAME, "an upper-case register name")
        off = c.integer(f"{k}.offset", r["offset"], 0)
        if off % 4:
            c.fail(f"{k}.offset", f"expected a multiple of 4, got {off:#x}")
        if (off >> m["addr_shift"]) >= (1 << addr_width):
            c.fail(f"{k}.offset", f"{off:#x} does not fit the {addr_width}-bit register address")
        if off in offsets:
            c.fail(f"{k}.offset", f"{off:#x} already used by {offsets[off]}")
        if r["name"] in names:
            c.fail(f"{k}.name", f"duplicate register {r['name']}")
        offsets[off] = r["name"]
        names.add(r["name"])
        if r["access"] not in ACCESS:
            c.fail(f"{k}.access", f"expected one of {', '.join(ACCESS)}, got {r['access']!r}")
        if "group" in r:
            c.string(f"{k}.group", r["group"], DUT_NAME, "a lower-case group name")
        fnames = set()
        for j, f in enumerate(c.seq(f"{k}.fields", r.setdefault("fields", []))):
            fk = f"{k}.fields[{j}]"
            c.mapping(fk, f, ("name", "bits"), ("access", "desc", "enum", "reset", "hw", "write_enable"))
            c.string(f"{fk}.name", f["name"], DUT_NAME, "a lower-case field name")
            if f["name"] in fnames:
                c.fail(f"{fk}.name", f"duplicate field {f['name']}")
            fnames.add(f["name"])
            f["lsb"], f["width"] = c.bits(f"{fk}.bits", f["bits"], 32)
            if f.setdefault("access", r["access"]) not in ACCESS:
                c.fail(f"{fk}.access", f"expected one of {', '.join(ACCESS)}, got {f['access']!r}")
            if "enum" in f:
                enum_ref(f"{fk}.enum", f["enum"])
    _validate_argument_pins(c, m, regs)
    groups = {}
    for r in regs:
        if "group" in r:
            groups.setdefault(r["group"], []).append(r)
    for g, rs in groups.items():
        offs = [r["offset"] for r in rs]
        if offs != list(range(offs[0], offs[0] + 4 * len(offs), 4)):
            c.fail("registers", f"group {g}: expected consecutive offsets in register order")
    m["groups"] = groups
    dutgen_regtop.validate(c, m, DUT_NAME)

    dbg_names = set()
    for i, d in enumerate(c.seq("debug", m.setdefault("debug", []) or [])):
        k = f"debug[{i}]"
        c.mapping(k, d, ("name", "width", "fields"), ("port", "desc"))
        c.string(f"{k}.name", d["name"], IDENT, "a struct type name")
        if d["name"] in dbg_names or d["name"] in enums:
            c.fail(f"{k}.name", f"duplicate type {d['name']}")
        dbg_names.add(d["name"])
        width = c.integer(f"{k}.width", d["width"], 1, 1024)
        # The convention: a debug vector is one output of the top, listed with
        # the other debug outputs (the port check then finds it on the top).
        debug_ports = (m.get("ports") or {}).get("debug") or []
        if "port" in d and d["port"] not in debug_ports:
            c.fail(f"{k}.port", f"{d['port']!r} is not listed in ports.debug")
        used = {}
        fnames = set()
        for j, f in enumerate(c.seq(f"{k}.fields", d["fields"])):
            fk = f"{k}.fields[{j}]"
            c.mapping(fk, f, ("name", "bits"), ("desc", "enum"))
            c.string(f"{fk}.name", f["name"], DUT_NAME, "a lower-case field name")
            if f["name"] in fnames or f["name"].startswith("reserved"):
                c.fail(f"{fk}.name", f"duplicate or reserved field name {f['name']}")
            fnames.add(f["name"])
            f["lsb"], f["width"] = c.bits(f"{fk}.bits", f["bits"], width)
            if f["width"] > 64:
                c.fail(f"{fk}.bits", "expected at most 64 bits per field")
            for b in range(f["lsb"], f["lsb"] + f["width"]):
                if b in used:
                    c.fail(f"{fk}.bits", f"bit {b} already belongs to {used[b]}")
                used[b] = f["name"]
            if "enum" in f:
                enum_ref(f"{fk}.enum", f["enum"])
    _validate_deadlock(c, m)

    assertions = c.mapping("assertions", m.setdefault("assertions", {}), (), ("option", "default", "desc"))
    c.boolean("assertions.default", assertions.setdefault("default", False))
    if "option" in assertions:
        c.string("assertions.option", assertions["option"], re.compile(r"^[A-Z][A-Z0-9_]*$"), "a CMake option name")
    vnames = set()
    variants = c.seq("variants", m["variants"])
    if not variants:
        c.fail("variants", "expected at least one variant")
    for i, v in enumerate(variants):
        k = f"variants[{i}]"
        c.mapping(k, v, ("name",), ("desc", "trace", "defines", "params", "assert", "coverage", "mutant"))
        c.string(f"{k}.name", v["name"], re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$"), "a CMake target name")
        if v["name"] in vnames:
            c.fail(f"{k}.name", f"duplicate variant {v['name']}")
        vnames.add(v["name"])
        for b in ("trace", "assert", "coverage"):
            if b in v:
                c.boolean(f"{k}.{b}", v[b])
        for j, d in enumerate(c.seq(f"{k}.defines", v.setdefault("defines", []))):
            c.string(f"{k}.defines[{j}]", d, re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(=\S+)?$"), "NAME or NAME=VALUE")
        c.mapping(f"{k}.params", v.setdefault("params", {}), (), tuple(params))
        for pn, pv in v["params"].items():
            c.integer(f"{k}.params.{pn}", pv)

    if "wave" in m:
        w = c.mapping("wave", m["wave"], ("groups",), ("root", "filters", "scenario"))
        if "scenario" in w:  # the scenario that shows the view (make wave-selftest), beside the manifest
            c.string("wave.scenario", w["scenario"])
            if not os.path.isfile(os.path.join(folder, w["scenario"])):
                c.fail("wave.scenario", f"file {w['scenario']} not found (paths are from the manifest's folder)")
        filters = c.mapping("wave.filters", w.setdefault("filters", {}) or {}, (), tuple(w.get("filters") or {}))
        for fname, en in filters.items():
            c.string(f"wave.filters.{fname}", fname, IDENT, "a filter name")
            enum_ref(f"wave.filters.{fname}", en)
        for i, g in enumerate(c.seq("wave.groups", w["groups"])):
            k = f"wave.groups[{i}]"
            c.mapping(k, g, ("name", "signals"), ("collapsed",))
            c.string(f"{k}.name", g["name"])
            if "collapsed" in g:
                c.boolean(f"{k}.collapsed", g["collapsed"])
            parsed = []
            for j, s in enumerate(c.seq(f"{k}.signals", g["signals"])):
                parts = c.string(f"{k}.signals[{j}]", s).split()
                if len(parts) > 3 or (len(parts) > 1 and parts[1] not in FORMATS):
                    c.fail(f"{k}.signals[{j}]", f"expected 'path [{'|'.join(FORMATS)}] [filter]', got {s!r}")
                if len(parts) == 3 and parts[2] not in filters:
                    c.fail(f"{k}.signals[{j}]", f"unknown filter {parts[2]!r}")
                parsed.append((parts[0], parts[1] if len(parts) > 1 else "hex", parts[2] if len(parts) > 2 else ""))
            g["parsed"] = parsed

    if "mutants" in m:
        mf = c.string("mutants", m["mutants"])
        if not os.path.isfile(os.path.join(os.path.dirname(path), mf)):
            c.fail("mutants", f"{mf!r} is not a file beside the manifest")
    _validate_variant_mutants(c, m, path)

    if "coverage" in m:
        cov = c.mapping("coverage", m["coverage"], (), ("targets", "labels", "bind_sources", "bins", "rates"))
        for j, t in enumerate(c.seq("coverage.targets", cov.setdefault("targets", []))):
            c.string(f"coverage.targets[{j}]", t)
        if "labels" in cov:
            c.string("coverage.labels", cov["labels"])
        for j, s in enumerate(c.seq("coverage.bind_sources", cov.setdefault("bind_sources", []))):
            c.string(f"coverage.bind_sources[{j}]", s)
            if not os.path.isfile(os.path.join(REPO, s)):
                c.fail(f"coverage.bind_sources[{j}]", f"file {s} not found (paths are from the repository root)")
        for j, b in enumerate(c.seq("coverage.bins", cov.setdefault("bins", []))):
            c.mapping(f"coverage.bins[{j}]", b, ("label", "desc", "goal"))
            c.string(f"coverage.bins[{j}].label", b["label"], IDENT, "a cover property label")
            c.integer(f"coverage.bins[{j}].goal", b["goal"], 0)
        for j, r in enumerate(c.seq("coverage.rates", cov.setdefault("rates", []))):
            c.mapping(f"coverage.rates[{j}]", r, ("num", "den", "desc", "goal"))
            if isinstance(r["goal"], bool) or not isinstance(r["goal"], (int, float)):
                c.fail(f"coverage.rates[{j}].goal", f"expected a number, got {r['goal']!r}")
    m["path"] = path
    m["folder"] = folder
    return m


def _validate_argument_pins(c, m, regs):
    """The registers of a block-level control port (kind: ap_ctrl): the Vitis
    control map below 0x10, kept by the binder; from 0x10 each an argument
    word driven onto a pin of the top (`pin`, `word`: bits 32*word+31..32*word),
    or read from an output pin (access ro): as of the last cycle its `valid`
    output was high (an HLS output's ap_vld), else of the last ap_done."""
    ctrl = m["control_iface"]
    on_pins = ctrl is not None and ctrl["kind"] == "ap_ctrl"
    p = m["ports"]
    claimed = {nm for it in m["interfaces"] for nm, _, _ in it["pins"].values()}
    claimed |= {p["clock"], p["reset"]["port"]} | set(p["tie"]) | set(p["debug"])
    for i, r in enumerate(regs):
        k = f"registers[{i}]"
        if "pin" not in r and "word" not in r and "valid" not in r:
            if on_pins and r["offset"] >= 0x10:
                c.fail(k, f"{r['name']} at {r['offset']:#x} is an argument of the ap_ctrl port {ctrl['name']}: "
                          "name the input port it drives (pin: <port>, word: <n> for bits 32n+31..32n)")
            continue
        if not on_pins:
            c.fail(f"{k}.pin", "only a block-level control port (an interface of kind ap_ctrl) drives pins from "
                               "registers" + (f"; this manifest's control port {ctrl['name']} is {ctrl['kind']}"
                                              if ctrl else ""))
        c.string(f"{k}.pin", r.get("pin"), IDENT, "the top's port the register drives")
        c.integer(f"{k}.word", r.setdefault("word", 0), 0, 1023)
        if r["pin"] in claimed:
            c.fail(f"{k}.pin", f"port {r['pin']} is also claimed under ports (an interface, the clock or reset, "
                               "tie or debug)")
        if r["offset"] < 0x10:
            c.fail(f"{k}.offset", f"{r['offset']:#x} is in the control map (CTRL, GIE, IER, ISR); arguments "
                                  "start at 0x10")
        if r["access"] not in ("rw", "wo", "ro"):
            c.fail(f"{k}.access", f"expected rw or wo (an input pin) or ro (an output pin), got {r['access']!r}")
        if "valid" in r:
            c.string(f"{k}.valid", r["valid"], IDENT, "the output port that says when the pin holds a value")
            if r["access"] != "ro":
                c.fail(f"{k}.valid", "only an output pin's register (access ro) has a valid strobe")
            if r["valid"] in claimed:
                c.fail(f"{k}.valid", f"port {r['valid']} is also claimed under ports (an interface, the clock or "
                                     "reset, tie or debug)")
    m["argument_pins"] = [r for r in regs if "pin" in r]


def _validate_deadlock(c, m):
    """`deadlock`: the run is stuck when, for `cycles` cycles in a row, no
    field of a debug vector shows a busy state (every engine waits or idles)
    and no `progress` field (queue levels, say) changed."""
    if "deadlock" not in m:
        return
    d = c.mapping("deadlock", m["deadlock"], ("vector", "fields", "busy", "cycles"), ("progress", "desc"))
    vecs = {v["name"]: v for v in m["debug"]}
    if d["vector"] not in vecs:
        c.fail("deadlock.vector", f"expected a debug vector ({', '.join(vecs) or 'none declared'}), got {d['vector']!r}")
    vec = vecs[d["vector"]]
    if not vec.get("port"):
        c.fail("deadlock.vector", f"{d['vector']} has no port: the testbench cannot read it")
    fields = {f["name"]: f for f in vec["fields"]}
    enum = None
    if not c.seq("deadlock.fields", d["fields"]):
        c.fail("deadlock.fields", "expected at least one field")
    for i, name in enumerate(d["fields"]):
        if name not in fields:
            c.fail(f"deadlock.fields[{i}]", f"{d['vector']} has no field {name!r}")
        e = fields[name].get("enum")
        if not e or (enum and e != enum):
            c.fail(f"deadlock.fields[{i}]", "expected fields of one enum type (the engine states)")
        enum = e
    items = {it["name"]: it["value"] for it in m["enum_map"][enum]["items"]}
    busy = [d["busy"]] if isinstance(d["busy"], str) else c.seq("deadlock.busy", d["busy"])
    for b in busy:
        if b not in items:
            c.fail("deadlock.busy", f"expected items of {enum} ({', '.join(items)}), got {b!r}")
    c.integer("deadlock.cycles", d["cycles"], 1, 1 << 32)
    d["busy_values"] = [items[b] for b in busy]
    d["busy_names"] = list(busy)
    d["field_specs"] = [fields[n] for n in d["fields"]]
    d["progress_specs"] = []
    for i, name in enumerate(c.seq("deadlock.progress", d.setdefault("progress", []))):
        if name not in fields:
            c.fail(f"deadlock.progress[{i}]", f"{d['vector']} has no field {name!r}")
        d["progress_specs"].append(fields[name])


def read_yaml(path):
    """Parses a YAML file; raises ManifestError naming the file (and line)."""
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except OSError as e:
        raise ManifestError(f"{path}: cannot read: {e.strerror}")
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ManifestError(f"{path}{where}: YAML syntax error: {problem}")
    return data


def load(path):
    """Parses and validates one manifest; raises ManifestError."""
    return validate(read_yaml(path), path)


def manifest_paths(root=REPO):
    """rtl/<dir>/<dir>.yaml for every RTL folder that has one, sorted."""
    rtl = os.path.join(root, "rtl")
    out = []
    for d in sorted(os.listdir(rtl)):
        p = os.path.join(rtl, d, d + ".yaml")
        if os.path.isfile(p):
            out.append(p)
    return out


def manifests(root=REPO):
    return [load(p) for p in manifest_paths(root)]


# ---------------------------------------------------------------------------
# SystemVerilog package
# ---------------------------------------------------------------------------

def _rel(path):
    try:
        return os.path.relpath(path, REPO)
    except ValueError:
        return path


def _sv_header(m):
    return (f"// Generated by {GENERATOR} from {_rel(m['path'])}: do not edit.\n"
            f"// Register map, field positions, state enums and debug vectors of {m['name']}.\n")


def sv_struct(name, width, fields, gap):
    """A packed struct, fields from the MSB down; bits no field claims become
    `gap` (gap_HI_LO when there are several). A field: name, lsb, width,
    note (a comment), type (default logic [width-1:0])."""
    rows, pos = [], width
    for f in sorted(fields, key=lambda f: -f["lsb"]):
        top = f["lsb"] + f["width"]
        if top < pos:
            rows.append((None, pos - 1, top, None, ""))
        rows.append((f["name"], f["lsb"] + f["width"] - 1, f["lsb"], f.get("type"), f.get("note", "")))
        pos = f["lsb"]
    if pos > 0:
        rows.append((None, pos - 1, 0, None, ""))
    gaps = sum(1 for r in rows if r[0] is None)
    L = ["  typedef struct packed {"]
    for nm, hi, lo, ty, note in rows:
        nm = nm or (gap if gaps == 1 else f"{gap}_{hi}_{lo}")
        ty = ty or ("logic" if hi == lo else f"logic [{hi - lo}:0]")
        L.append(f"    {ty:<14} {nm + ';':<18} // [{hi}:{lo}]" + (f" {note}" if note else ""))
    L.append(f"  }} {name};")
    return L


def gen_sv(m):
    n = m["name"]
    aw = m["reg_port"]["addr_width"]
    shift = m["addr_shift"]
    # A register description: not every module uses every entry.
    L = [_sv_header(m), "`timescale 1ps/1ps", "", f"package {n}_reg_pkg;", "", "  /* verilator lint_off UNUSEDPARAM */", ""]
    L.append(f"  // Register addresses on the register port ({m['reg_port']['addressing']} addresses).")
    L.append(f"  parameter int unsigned RegAddrWidth = {aw};")
    for r in m["registers"]:
        L.append(f"  parameter logic [RegAddrWidth-1:0] Reg{_camel(r['name'])} = {aw}'h{r['offset'] >> shift:02x};"
                 f"  // {r['access']}" + (f": {r['desc']}" if r.get("desc") else ""))
    for g, rs in m["groups"].items():
        G = _camel(g)
        L.append("")
        L.append(f"  // Register group {g}: base address, count, index in register order.")
        L.append(f"  parameter logic [RegAddrWidth-1:0] Reg{G}Base = {aw}'h{rs[0]['offset'] >> shift:02x};")
        L.append(f"  parameter int unsigned Num{G} = {len(rs)};")
        w = max(1, (len(rs) - 1).bit_length())
        items = ",\n".join(f"    {G}{_camel(r['name'])} = {w}'d{i}" for i, r in enumerate(rs))
        L.append(f"  typedef enum logic [{w - 1}:0] {{\n{items}\n  }} {g}_e;")
    fields = [(r, f) for r in m["registers"] for f in r["fields"]]
    if fields:
        L.append("")
        L.append("  // Register fields: least significant bit and width.")
        for r, f in fields:
            base = f"Reg{_camel(r['name'])}{_camel(f['name'])}"
            L.append(f"  parameter int unsigned {base}Lsb = {f['lsb']};")
            L.append(f"  parameter int unsigned {base}Width = {f['width']};")
    for e in m["enums"]:
        if "rtl" in e or e.get("view_only"):
            continue
        L.append("")
        if e.get("desc"):
            L.append(f"  // {e['desc']}")
        items = ",\n".join(f"    {it['name']} = {e['width']}'d{it['value']}" for it in e["items"])
        L.append(f"  typedef enum logic [{e['width'] - 1}:0] {{\n{items}\n  }} {e['name']};")
    for d in m["debug"]:
        L.append("")
        L.append(f"  // {d.get('desc', d['name'])} ({d['width']} bits" +
                 (f", {d['port']}" if d.get("port") else "") + "); fields from the MSB down.")
        L.extend(sv_struct(d["name"], d["width"],
                           [dict(f, note=f.get("desc") or f.get("enum") or "") for f in d["fields"]], "reserved"))
    L.extend(dutgen_regtop.gen_types(m))
    L.append("")
    L.append("  /* verilator lint_on UNUSEDPARAM */")
    L.append("")
    L.append("endpackage")
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------------------
# C++ header
# ---------------------------------------------------------------------------

_CPP_COMMON = r'''#ifndef COSIM_DUTGEN_COMMON_
#define COSIM_DUTGEN_COMMON_
namespace cosim::dutgen {
// One item of a state / code enum: value, RTL name, display label.
struct EnumItem {
  uint64_t value;
  const char* name;
  const char* label;
};
template <std::size_t N>
constexpr const char* enum_name(const EnumItem (&items)[N], uint64_t v, bool label = false) {
  for (const EnumItem& it : items)
    if (it.value == v) return label ? it.label : it.name;
  return nullptr;
}
template <std::size_t N>
std::string enum_show(const EnumItem (&items)[N], uint64_t v, bool label) {
  const char* s = enum_name(items, v, label);
  return s != nullptr ? std::string(s) : "?" + std::to_string(v);
}
struct Register {
  const char* name;
  uint32_t offset;  // byte offset
  const char* access;
};
// One field of a debug vector.
struct Field {
  const char* name;
  unsigned lsb, width;
  const EnumItem* items;  // nullptr when the field is a plain number
  std::size_t n_items;
};
// Bits lsb .. lsb+width-1 of a vector stored as 32-bit words, word 0 = bits 31:0.
inline uint64_t bits(const uint32_t* words, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned b = lsb + i;
    v |= static_cast<uint64_t>((words[b / 32] >> (b % 32)) & 1u) << i;
  }
  return v;
}
// "name=value name=NAME ..." for every field, enum fields by item name.
template <std::size_t N>
std::string describe(const Field (&fields)[N], const uint32_t* words) {
  std::string s;
  for (const Field& f : fields) {
    const uint64_t v = bits(words, f.lsb, f.width);
    if (!s.empty()) s += ' ';
    s += f.name;
    s += '=';
    const char* nm = nullptr;
    for (std::size_t i = 0; i < f.n_items; ++i)
      if (f.items[i].value == v) nm = f.items[i].name;
    s += nm ? std::string(nm) : std::to_string(v);
  }
  return s;
}
}  // namespace cosim::dutgen
#endif  // COSIM_DUTGEN_COMMON_
'''


def _cpp_str(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gen_cpp(m):
    n = m["name"]
    shift = m["addr_shift"]
    L = [f"// Generated by {GENERATOR} from {_rel(m['path'])}: do not edit.",
         f"// Register offsets, fields, state enums and debug-vector decoding of {n}.",
         "#pragma once", "", "#include <array>", "#include <cstddef>", "#include <cstdint>", "#include <string>", "",
         _CPP_COMMON, f"namespace cosim::{n}::regs {{", "",
         "using dutgen::EnumItem;", "using dutgen::Field;", "using dutgen::Register;", "",
         f"inline constexpr const char* kDut = {_cpp_str(n)};",
         f"inline constexpr const char* kTop = {_cpp_str(m['top'])};",
         f"// The register port carries {m['reg_port']['addressing']} addresses: "
         "port address = byte offset >> kAddrShift.",
         f"inline constexpr unsigned kAddrShift = {shift};",
         f"inline constexpr unsigned kAddrWidth = {m['reg_port']['addr_width']};",
         "constexpr uint32_t port_addr(uint32_t offset) { return offset >> kAddrShift; }", "",
         "// Byte offsets."]
    for r in m["registers"]:
        L.append(f"inline constexpr uint32_t k{_camel(r['name'])} = 0x{r['offset']:02x};  // {r['access']}"
                 + (f": {r['desc']}" if r.get("desc") else ""))
    for g, rs in m["groups"].items():
        G = _camel(g)
        L.append(f"inline constexpr uint32_t k{G}Base = 0x{rs[0]['offset']:02x};  // group {g}")
        L.append(f"inline constexpr int kNum{G} = {len(rs)};")
    L.append("")
    # A std::array, so that a map without registers (control: none) is a table too.
    L.append(f"inline constexpr std::array<Register, {len(m['registers'])}> kRegisters{{{{")
    for r in m["registers"]:
        L.append(f"    {{{_cpp_str(r['name'])}, 0x{r['offset']:02x}, {_cpp_str(r['access'])}}},")
    L.append("}};")
    for r in m["registers"]:
        if not r["fields"]:
            continue
        L.append("")
        L.append(f"// Fields of {r['name']}.")
        L.append(f"namespace {r['name'].lower()} {{")
        for f in r["fields"]:
            F = _camel(f["name"])
            mask = ((1 << f["width"]) - 1) << f["lsb"]
            L.append(f"inline constexpr unsigned k{F}Lsb = {f['lsb']}, k{F}Width = {f['width']};")
            L.append(f"inline constexpr uint32_t k{F}Mask = 0x{mask:x}u;")
        L.append(f"}}  // namespace {r['name'].lower()}")
    for e in m["enums"]:
        L.append("")
        L.append(f"// {e['name']}" + (f": {e['desc']}" if e.get("desc") else "") +
                 (f" (declared in the RTL: {e['rtl']})" if e.get("rtl") else ""))
        L.append(f"namespace {e['name']} {{")
        L.append(f"inline constexpr unsigned kWidth = {e['width']};")
        for it in e["items"]:
            L.append(f"inline constexpr uint64_t k{it['name'][:1].upper() + it['name'][1:]} = {it['value']};")
        L.append("inline constexpr EnumItem kItems[] = {")
        for it in e["items"]:
            L.append(f"    {{{it['value']}, {_cpp_str(it['name'])}, {_cpp_str(it.get('label', it['name']))}}},")
        L.append("};")
        L.append("// The RTL name of a value (nullptr when the value is not an item).")
        L.append("constexpr const char* name(uint64_t v) { return dutgen::enum_name(kItems, v); }")
        L.append("constexpr const char* label(uint64_t v) { return dutgen::enum_name(kItems, v, true); }")
        L.append("// For messages: the name (or label), \"?<value>\" when the value is not an item.")
        L.append("inline std::string show(uint64_t v, bool label = false) { return dutgen::enum_show(kItems, v, label); }")
        L.append(f"}}  // namespace {e['name']}")
    for d in m["debug"]:
        words = (d["width"] + 31) // 32
        S = _camel(d["name"][:-2] if d["name"].endswith("_t") else d["name"])
        L.append("")
        L.append(f"// {d['name']}: {d.get('desc', '')} ({d['width']} bits" +
                 (f", port {d['port']}" if d.get("port") else "") + f"), as {words} 32-bit word(s), word 0 = bits 31:0.")
        L.append(f"namespace {d['name']} {{")
        L.append(f"inline constexpr unsigned kWidth = {d['width']}, kWords = {words};")
        for f in d["fields"]:
            F = _camel(f["name"])
            L.append(f"inline constexpr unsigned k{F}Lsb = {f['lsb']}, k{F}Width = {f['width']};")
        L.append("inline constexpr Field kFields[] = {")
        for f in d["fields"]:
            items = f"{f['enum']}::kItems, sizeof({f['enum']}::kItems) / sizeof(EnumItem)" if f.get("enum") \
                else "nullptr, 0"
            L.append(f"    {{{_cpp_str(f['name'])}, {f['lsb']}, {f['width']}, {items}}},")
        L.append("};")
        L.append(f"}}  // namespace {d['name']}")
        L.append(f"// Decoded {d['name']}.")
        L.append(f"struct {S} {{")
        for f in d["fields"]:
            L.append(f"  uint64_t {f['name']} = 0;" + (f"  // {f['desc']}" if f.get("desc") else ""))
        L.append("};")
        L.append(f"inline {S} decode_{d['name'][:-2] if d['name'].endswith('_t') else d['name']}"
                 f"(const uint32_t* words) {{")
        L.append(f"  {S} s;")
        for f in d["fields"]:
            L.append(f"  s.{f['name']} = dutgen::bits(words, {f['lsb']}, {f['width']});")
        L.append("  return s;")
        L.append("}")
        L.append(f"// Every field as name=value (enum fields by item name).")
        L.append(f"inline std::string describe_{d['name'][:-2] if d['name'].endswith('_t') else d['name']}"
                 f"(const uint32_t* words) {{")
        L.append(f"  return dutgen::describe({d['name']}::kFields, words);")
        L.append("}")
    if "deadlock" in m:
        d = m["deadlock"]
        busy = " or ".join(d["busy_names"])
        L.append("")
        prog = d["progress_specs"]
        rule = f"none of {', '.join(d['fields'])} is {busy}" + (
            f", no change of {', '.join(f['name'] for f in prog)}" if prog else "")
        L.append(f"// Deadlock (manifest `deadlock`): for kCycles cycles in a row, none of {', '.join(d['fields'])}")
        L.append(f"// of {d['vector']} is {busy}" + (f" and {', '.join(f['name'] for f in prog)} did not change" if prog else "")
                 + ": nothing can make progress.")
        L.append("namespace deadlock {")
        L.append(f"inline constexpr uint64_t kCycles = {d['cycles']};")
        L.append(f"inline constexpr const char* kRule = {_cpp_str(rule)};")
        L.append(f"// Fed {d['vector']} once per cycle (32-bit words, word 0 = bits 31:0).")
        L.append("class Watch {")
        L.append(" public:")
        L.append("  // Fed every `cycles` cycles; true once kCycles quiet cycles came in a")
        L.append("  // row. A cycle in which the testbench owes the DUT a response (a read")
        L.append("  // beat, say) is not quiet.")
        L.append("  bool stuck(const uint32_t* words, bool owed, uint64_t cycles) {")
        L.append("    bool quiet = !owed;")
        for f in d["field_specs"]:
            L.append(f"    {{ const uint64_t v = dutgen::bits(words, {f['lsb']}, {f['width']});")
            L.append("      if (" + " || ".join(f"v == {v}" for v in d["busy_values"]) + ") quiet = false; }")
        for i, f in enumerate(prog):
            L.append(f"    {{ const uint64_t v = dutgen::bits(words, {f['lsb']}, {f['width']});")
            L.append(f"      if (v != last_[{i}]) quiet = false, last_[{i}] = v; }}")
        L.append("    quiet_ = quiet ? quiet_ + cycles : 0;")
        L.append("    return quiet_ >= kCycles;")
        L.append("  }")
        L.append("  uint64_t quiet_cycles() const { return quiet_; }")
        L.append("")
        L.append(" private:")
        L.append(f"  uint64_t last_[{max(1, len(prog))}] = {{}};")
        L.append("  uint64_t quiet_ = 0;")
        L.append("};")
        L.append("}  // namespace deadlock")
    L.append("")
    L.append(f"}}  // namespace cosim::{n}::regs")
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------------------
# Waveform views (tb/wave/views.cpp includes the result)
# ---------------------------------------------------------------------------

# The AXI groups of a view, one set per axi4 interface (signals the dump
# lacks are dropped when the .gtkw is written).
_AXI_VIEW = (("AXI read address", ("arvalid", "arready", "araddr", "arlen", "arid")),
             ("AXI read data", ("rvalid", "rready", "rlast", "rid", "rresp", "rdata")),
             ("AXI write address", ("awvalid", "awready", "awaddr", "awlen", "awid")),
             ("AXI write data", ("wvalid", "wready", "wlast", "wstrb", "wdata")),
             ("AXI write response", ("bvalid", "bready", "bresp", "bid")))
# And one group per stream (axis_in / axis_out interface) the manifest's
# own groups leave out.
_AXIS_VIEW = {"axis_in": "AXI-Stream in", "axis_out": "AXI-Stream out"}
_AXIS_SIGNALS = ("tvalid", "tready", "tdata", "tlast", "tkeep", "tstrb", "tuser")


def gen_views(ms, outdir=None):
    """`outdir`: the generated folder whose ports/<dut>_ports.json (the top's
    ports, from the port check) keeps optional AXI signals the top lacks out
    of the view; without it only the required ones are shown."""
    fmt = {"bin": "Format::kBin", "hex": "Format::kHex", "dec": "Format::kDec", "signed": "Format::kSigned"}
    L = [f"// Generated by {GENERATOR} from the DUT manifests: do not edit.",
         "// One prepared GTKWave view per DUT (tb/wave/views.cpp includes this inside cosim::wave).", "",
         "std::vector<View> generated_views() {", "  std::vector<View> out;"]
    for m in ms:
        if "wave" not in m:
            continue
        w = m["wave"]
        L.append("  {")
        L.append("    View v;")
        L.append(f"    v.dut = {_cpp_str(m['name'])};")
        L.append(f"    v.root = {_cpp_str(w.get('root', m['name']))};")
        for g in w["groups"]:
            sigs = ", ".join(
                "ViewSignal(" + _cpp_str(p) + (f", {fmt[f]}" if (f != "hex" or flt) else "") +
                (f", {_cpp_str(flt)}" if flt else "") + ")" for p, f, flt in g["parsed"])
            L.append(f"    v.groups.push_back(ViewGroup{{{_cpp_str(g['name'])}, {{{sigs}}}, "
                     f"{'true' if g.get('collapsed') else 'false'}}});")
        top = None
        if outdir:
            try:
                with open(os.path.join(outdir, "ports", f"{m['name']}_ports.json"), encoding="utf-8") as f:
                    top = json.load(f)["ports"]
            except (OSError, ValueError, KeyError):
                top = None
        listed = {path.split(".")[-1] for g in w["groups"] for path, _, _ in g["parsed"]}
        # The further clocks (ports.clocks) and their resets the manifest's groups leave out.
        further = [nm for nm in dutgen_ports.further_clock_pins(m["ports"]) if nm not in listed]
        if further:
            sigs = ", ".join(f"ViewSignal({_cpp_str(nm)}, Format::kBin)" for nm in further)
            L.append(f"    v.groups.push_back(ViewGroup{{\"Further clocks\", {{{sigs}}}, false}});")
        for it in m["interfaces"]:
            # A stream the manifest's own groups show (by its TVALID) gets no second group.
            if it["kind"] in _AXIS_VIEW and it["pins"]["tvalid"][0] not in listed:
                shown = [s for s in _AXIS_SIGNALS if s in it["pins"] and
                         ((top is not None and it["pins"][s][0] in top) or (top is None and it["pins"][s][2]))]
                names = [n for s in shown for n in (it.get("data_parts") if s == "tdata" and "data_parts" in it
                                                    else [it["pins"][s][0]])]
                sigs = ", ".join(f"ViewSignal({_cpp_str(n)})" for n in names)
                title = f"{_AXIS_VIEW[it['kind']]} ({it['name']})"
                L.append(f"    v.groups.push_back(ViewGroup{{{_cpp_str(title)}, {{{sigs}}}, false}});")
            # A native memory port the manifest's own groups leave out (by its address).
            if it["kind"] == "sram" and it["pins"]["addr"][0] not in listed:
                shown = [s for s in it["pins"] if (top is not None and it["pins"][s][0] in top) or
                         (top is None and it["pins"][s][2])]
                sigs = ", ".join(f"ViewSignal({_cpp_str(it['pins'][s][0])})" for s in shown)
                L.append(f"    v.groups.push_back(ViewGroup{{{_cpp_str('Memory port (' + it['name'] + ')')}, {{{sigs}}}, false}});")
            if it["kind"] != "axi4":
                continue
            for title, chans in _AXI_VIEW:
                shown = [s for s in chans if s in it["pins"] and ((top is not None and it["pins"][s][0] in top) or
                                                                  (top is None and it["pins"][s][2]))]
                if not shown:
                    continue  # a channel the master lacks (channels: read or write)
                sigs = ", ".join(f"ViewSignal({_cpp_str(it['pins'][s][0])}" + (", Format::kDec" if s.endswith("len") else "")
                                 + ")" for s in shown)
                L.append(f"    v.groups.push_back(ViewGroup{{{_cpp_str(title + ' (' + it['name'] + ')')}, {{{sigs}}}, false}});")
        for fname, en in w.get("filters", {}).items():
            items = ", ".join(f"{{{it['value']}, {_cpp_str(it.get('label', it['name']))}}}"
                              for it in m["enum_map"][en]["items"])
            L.append(f"    v.filters[{_cpp_str(fname)}] = {{{items}}};")
        L.append("    out.push_back(std::move(v));")
        L.append("  }")
    L.append("  return out;")
    L.append("}")
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------------------
# CMake
# ---------------------------------------------------------------------------

def _cm(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'


def model_class(variant):
    """The Verilated model class of a variant: V<variant> (its --prefix)."""
    return f"V{variant}"


def gen_cmake(m):
    n = m["name"]
    f = m["folder"]
    L = [f"# Generated by {GENERATOR} from {_rel(m['path'])}: do not edit.",
         f"set(COSIM_DUT_NAME {n})",
         f"set(COSIM_DUT_TOP {m['top']})",
         "set(COSIM_DUT_SOURCES " + " ".join(_cm(os.path.join(f, s)) for s in m["sources"]) + ")",
         "set(COSIM_DUT_VERILATOR_ARGS " + " ".join(_cm(a) for a in m["verilator_args"]) + ")",
         "set(COSIM_DUT_SOURCE_DIRS " + " ".join(_cm(d) for d in m["source_dirs"]) + ")",
         "set(COSIM_DUT_WAIVERS " + " ".join(_cm(os.path.join(f, w)) for w in m["waivers"]) + ")",
         "set(COSIM_DUT_VENDOR_SOURCES " + " ".join(_cm(x) for x in m["vendor_sources"]) + ")",
         f"set(COSIM_DUT_REG_TOP {'ON' if m['reg_block'] else 'OFF'})",
         "set(COSIM_DUT_BIND_SOURCES " + " ".join(
             _cm(os.path.join(REPO, s)) for s in m.get("coverage", {}).get("bind_sources", [])) + ")"]
    pkg = m.get("package")
    L.append(f"set(COSIM_DUT_PACKAGE {_cm(os.path.join(f, pkg + '.sv')) if pkg else ''})")
    L.append(f"set(COSIM_DUT_ISA {_cm(m['isa_spec']['path']) if 'isa_spec' in m else ''})")
    a = m["assertions"]
    L.append(f"set(COSIM_DUT_ASSERT_OPTION {a.get('option', '')})")
    L.append(f"set(COSIM_DUT_ASSERT_DEFAULT {'ON' if a['default'] else 'OFF'})")
    L.append(f"set(COSIM_DUT_ASSERT_DESC {_cm(a.get('desc', 'Verilate ' + n + ' with its assertions'))})")
    L.append("set(COSIM_DUT_VARIANTS " + " ".join(v["name"] for v in m["variants"]) + ")")
    for v in m["variants"]:
        p = f"COSIM_DUT_VARIANT_{v['name']}"
        # Each variant's own model class, so that any variant links with any
        # other in one binary (the cores are instantiated once per variant).
        L.append(f"set({p}_PREFIX {model_class(v['name'])})")
        L.append(f"set({p}_TRACE {'ON' if v.get('trace') else 'OFF'})")
        L.append(f"set({p}_ASSERT {('ON' if v['assert'] else 'OFF') if 'assert' in v else 'DEFAULT'})")
        L.append(f"set({p}_COVERAGE {'OFF' if v.get('coverage') is False else 'ON'})")
        args = [f"-D{d}" for d in v["defines"]] + [f"-G{k}={val}" for k, val in v["params"].items()]
        L.append(f"set({p}_ARGS " + " ".join(_cm(x) for x in args) + ")")
        L.append(f"set({p}_MUTANT {v.get('mutant', '')})")
    return "\n".join(L) + "\n"


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def write_if_changed(path, text):
    """Writes `text` unless the file already holds it (keeps its timestamp)."""
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return False
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return True


def outputs(m, outdir):
    n = m["name"]
    return {"sv": os.path.join(outdir, "sv", f"{n}_reg_pkg.sv"),
            "cpp": os.path.join(outdir, "include", "dut", f"{n}_regs.hpp"),
            "pins": os.path.join(outdir, "include", "dut", f"{n}_pins.hpp"),
            "reg_top": os.path.join(outdir, "sv", f"{n}_reg_top.sv"),
            "isa_sv": os.path.join(outdir, "sv", f"{n}_isa_pkg.sv"),
            "isa_cpp": os.path.join(outdir, "include", "dut", f"{n}_isa.hpp"),
            "cmake": os.path.join(outdir, "cmake", f"{n}.cmake")}


def lint_files(m, outdir):
    common = sorted(os.path.join(REPO, "rtl", "common", f) for f in os.listdir(os.path.join(REPO, "rtl", "common"))
                    if f.endswith(".sv"))
    common.sort(key=lambda p: 0 if p.endswith("_pkg.sv") else 1)
    return (common + [outputs(m, outdir)["sv"]] + isa_files(m, outdir) + m["vendor_sources"] +
            reg_top_files(m, outdir) + [os.path.join(m["folder"], s) for s in m["sources"]])


def reg_top_files(m, outdir):
    """The generated register block, when the manifest asks for one."""
    return [outputs(m, outdir)["reg_top"]] if m["reg_block"] else []


def isa_files(m, outdir):
    """The generated instruction-encoding package, when the manifest has an ISA file."""
    return [outputs(m, outdir)["isa_sv"]] if "isa_spec" in m else []


def write_generated(m, outdir):
    """The register package and, when the manifest asks for them, the
    instruction-encoding package and the register block."""
    o = outputs(m, outdir)
    write_if_changed(o["sv"], gen_sv(m))
    if "isa_spec" in m:
        rel = _rel(m["isa_spec"]["path"])
        write_if_changed(o["isa_sv"], dutgen_isa.gen_sv(m["isa_spec"], m["name"], rel, sv_struct, _camel))
        write_if_changed(o["isa_cpp"], dutgen_isa.gen_cpp(m["isa_spec"], m["name"], rel, _camel))
    if m["reg_block"]:
        write_if_changed(o["reg_top"], dutgen_regtop.gen_sv(m, _sv_header(m), _camel))


def _query_manifest(ms, rest, nargs, key, usage):
    """The manifest a query names: a tree DUT's name or a manifest path."""
    if len(rest) != nargs:
        raise ManifestError(f"dutgen query {key}: expected {usage} (NAME: a DUT of the tree or a manifest path)")
    if rest[0].endswith(".yaml"):
        return load(rest[0])
    sel = [m for m in ms if m["name"] == rest[0]]
    if not sel:
        raise ManifestError(f"dutgen query {key}: no manifest named {rest[0]}")
    return sel[0]


def check_top_ports(m, outdir, verilator):
    """The manifest's ports against the top's (verilator --xml-only): a
    missing or unclaimed port is a ManifestError naming both. Keeps the
    ports' widths in m["port_widths"] (a TDATA on several ports needs them)."""
    files = lint_files(m, outdir)
    try:
        ports = dutgen_ports.top_ports(m, files, [os.path.join(REPO, "rtl", "common"), m["folder"]] + m["source_dirs"],
                                       verilator, os.path.join(outdir, "ports"))
    except RuntimeError as e:
        raise ManifestError(f"{m['path']}: ports: {e}")
    m["port_widths"] = dict(getattr(ports, "widths", {}))
    errs = dutgen_ports.check_top(m, ports)
    if errs:
        more = f" (and {len(errs) - 1} more: " + "; ".join(errs[1:4]) + ")" if len(errs) > 1 else ""
        raise ManifestError(f"{m['path']}: ports: {errs[0]}{more}")


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("check", "configure", "gen", "sv", "cpp", "views", "list", "query"))
    ap.add_argument("args", nargs="*")
    ap.add_argument("--outdir")
    ap.add_argument("--out")
    ap.add_argument("--stamp")
    ap.add_argument("--verilator", help="check the manifest's ports against the Verilated top's")
    a = ap.parse_args(argv[1:])
    try:
        if a.command == "list":
            print("\n".join(_rel(p) for p in manifest_paths()))
            return 0
        if a.command == "query":
            if not a.args:
                raise ManifestError("dutgen query: expected a key (names, lint-files NAME, coverage-targets, "
                                    "coverage-labels)")
            key, rest = a.args[0], a.args[1:]
            ms = manifests()
            if key == "names":
                print("\n".join(m["name"] for m in ms))
            elif key == "port-names":
                print("\n".join(sorted({n for m in ms for n in dutgen_ports.port_names(m)})))
            elif key == "wave-scenarios":
                # NAME SCENARIO per DUT with a view (extra manifests: the build's template instances);
                # a DUT without one is named on stderr.
                for m in ms + [load(p) for p in rest if os.path.abspath(p) not in {x["path"] for x in ms}]:
                    sc = m.get("wave", {}).get("scenario")
                    if sc:
                        print(m["name"], os.path.normpath(os.path.join(m["folder"], sc)))
                    else:
                        print(f"dutgen: {m['name']}: no wave.scenario in its manifest, not in the wave self-test",
                              file=sys.stderr)
            elif key == "lint-args":
                m = _query_manifest(ms, rest, 1, "lint-args", "NAME")
                # Warnings, defines and parameters of the build count for lint; optimisation flags do not.
                keep = [a for a in m["verilator_args"] if a.startswith(("-W", "-D", "+define", "-G"))]
                print("\n".join([os.path.join(m["folder"], w) for w in m["waivers"]] + keep + m["lint_args"]))
            elif key == "coverage-names":
                print("\n".join(m["name"] for m in ms if m.get("coverage", {}).get("targets")))
            elif key == "coverage-targets":
                print(" ".join(t for m in ms for t in m.get("coverage", {}).get("targets", [])))
            elif key == "coverage-labels":
                labels = [m["coverage"]["labels"] for m in ms if m.get("coverage", {}).get("labels")]
                print("|".join(f"({lb})" for lb in labels))  # CMake regex: no (?:)
            elif key == "lint-files":
                m = _query_manifest(ms, rest, 2, "lint-files", "NAME OUTDIR")
                write_generated(m, rest[1])
                print("\n".join(lint_files(m, rest[1])))
            else:
                raise ManifestError(f"dutgen query: unknown key {key!r}")
            return 0
        paths = a.args or ([] if a.command != "check" else manifest_paths())
        if not paths:
            raise ManifestError(f"dutgen {a.command}: expected at least one manifest")
        ms = [load(p) for p in paths]
        if a.command == "check":
            for m in ms:
                print(f"{_rel(m['path'])}: ok ({len(m['registers'])} registers, {len(m['enums'])} enums, "
                      f"{len(m['variants'])} variants)")
            return 0
        if a.command == "views":
            text = gen_views(ms, a.outdir)
            if a.out:
                write_if_changed(a.out, text)
            else:
                sys.stdout.write(text)
            return 0
        if a.command in ("sv", "cpp"):
            text = "".join(gen_sv(m) if a.command == "sv" else gen_cpp(m) for m in ms)
            if a.out:
                write_if_changed(a.out, text)
            else:
                sys.stdout.write(text)
            return 0
        if not a.outdir:
            raise ManifestError(f"dutgen {a.command}: --outdir is required")
        for m in ms:
            o = outputs(m, a.outdir)
            write_generated(m, a.outdir)
            write_if_changed(o["cpp"], gen_cpp(m))
            if a.verilator:
                check_top_ports(m, a.outdir, a.verilator)
            split = [it["name"] for it in m["interfaces"] if "data_parts" in it]
            if split and not a.verilator:
                raise ManifestError(f"{m['path']}: interface {split[0]}: a TDATA on several ports takes its layout "
                                    "from the ports' widths, which dutgen reads with --verilator (as the build runs it)")
            write_if_changed(o["pins"], dutgen_ports.gen_cpp(m, GENERATOR, _rel(m["path"])))
            if a.command == "configure":
                write_if_changed(o["cmake"], gen_cmake(m))
        if a.stamp:
            os.makedirs(os.path.dirname(a.stamp) or ".", exist_ok=True)
            with open(a.stamp, "w") as f:
                f.write("generated\n")
        return 0
    except ManifestError as e:
        print(str(e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
