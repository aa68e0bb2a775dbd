"""The `ports` and `control` keys of a DUT manifest (scripts/dutgen.py).

The manifest is the only place that names a DUT's pins: the clock, the reset
(port, polarity, cycles held) and every interface by kind and prefix. From it:

  validate(c, m)        checks the keys, resolves every interface's pin names
  gen_cpp(m)            include/dut/<dut>_pins.hpp: one struct per interface
                        whose accessors return the Verilated model's member
                        (the harness binders take their pins only from here)
  top_ports(...)        the Verilated top's ports (verilator --xml-only)
  check_top(m, ports)   a pin the manifest names that the top lacks, or a top
                        port no interface claims: one line naming both

Pin names: <prefix><signal><suffix>, the signal (arvalid, tdata, req_valid,
...) in the interface's `case`; `suffix: io` adds _i to the DUT's inputs and
_o to its outputs (the lowRISC convention), `suffix: none` adds nothing.
"""

import hashlib
import json
import math
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from fractions import Fraction

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
LOWER = re.compile(r"^[a-z][a-z0-9_]*$")

# Signals of each kind: (name, DUT direction when the DUT is the master /
# source, required). Slave kinds (axi4lite, reg, axis_in) flip the direction.
# An address channel (AW or AR): the same signals under either prefix.
_ADDR = (("valid", "out", True), ("ready", "in", True), ("addr", "out", True), ("len", "out", True),
         ("size", "out", False), ("burst", "out", False), ("id", "out", False), ("lock", "out", False),
         ("cache", "out", False), ("prot", "out", False), ("qos", "out", False), ("region", "out", False),
         ("user", "out", False))
_AXI4 = (
    [("aw" + s, d, r) for s, d, r in _ADDR] +
    # WID: AXI3's, which HLS-generated masters still have; AXI4 writes data in AW order, so it is not read.
    [("w" + s, d, r) for s, d, r in (("valid", "out", True), ("ready", "in", True), ("data", "out", True),
                                     ("strb", "out", False), ("last", "out", True), ("user", "out", False),
                                     ("id", "out", False))] +
    [("b" + s, d, r) for s, d, r in (("valid", "in", True), ("ready", "out", True), ("resp", "in", False),
                                     ("id", "in", False), ("user", "in", False))] +
    [("ar" + s, d, r) for s, d, r in _ADDR] +
    [("r" + s, d, r) for s, d, r in (("valid", "in", True), ("ready", "out", True), ("data", "in", True),
                                     ("resp", "in", False), ("last", "in", False), ("id", "in", False),
                                     ("user", "in", False))])
# AXI4-Lite from the master's side; the DUT is the slave.
_AXI4LITE = [("awvalid", "out", True), ("awready", "in", True), ("awaddr", "out", True), ("awprot", "out", False),
             ("wvalid", "out", True), ("wready", "in", True), ("wdata", "out", True), ("wstrb", "out", False),
             ("bvalid", "in", True), ("bready", "out", True), ("bresp", "in", False),
             ("arvalid", "out", True), ("arready", "in", True), ("araddr", "out", True), ("arprot", "out", False),
             ("rvalid", "in", True), ("rready", "out", True), ("rdata", "in", True), ("rresp", "in", False)]
# The common register bus (rtl/common/cosim_reg_slave) from the host's side.
_REG = [("req_valid", "out", True), ("req_ready", "in", True), ("write", "out", True), ("addr", "out", True),
        ("wdata", "out", True), ("rsp_valid", "in", True), ("rsp_ready", "out", True), ("rdata", "in", True)]
# Block-level control pins (HLS's ap_ctrl_hs / ap_ctrl_chain without an
# AXI4-Lite adapter) from the host's side; the argument registers name their
# own pins (registers[].pin).
_APCTRL = [("start", "out", True), ("done", "in", True), ("idle", "in", False), ("ready", "in", False),
           ("continue", "out", False)]
# AXI-Stream from the source's side.
_AXIS = [("tvalid", "out", True), ("tready", "in", True), ("tdata", "out", True), ("tlast", "out", False),
         ("tkeep", "out", False), ("tstrb", "out", False), ("tuser", "out", False), ("tid", "out", False),
         ("tdest", "out", False)]
# A native memory port (SRAM / BRAM style) from the DUT's side, the master:
# an address, an optional enable (absent: every cycle), an optional
# whole-word write enable and byte enables, write data with either, read
# data back after the interface's `latency` cycles.
_SRAM = [("addr", "out", True), ("en", "out", False), ("we", "out", False), ("be", "out", False),
         ("wdata", "out", False), ("rdata", "in", False)]

# kind: (signals, whether the DUT is the master / source of the signals' directions)
KINDS = {
    "axi4": (_AXI4, True),
    "axi4lite": (_AXI4LITE, False),
    "reg": (_REG, False),
    "ap_ctrl": (_APCTRL, False),
    "axis_in": (_AXIS, False),
    "axis_out": (_AXIS, True),
    "sram": (_SRAM, True),
    "irq": (None, None),
}
CONTROLS = ("reg", "ap_ctrl_hs", "ap_ctrl_chain", "none")


def _flip(d):
    return "in" if d == "out" else "out"


def pin_name(iface, sig, dut_dir):
    name = sig.upper() if iface["case"] == "upper" else sig
    suffix = ""
    if iface["suffix"] == "io":
        suffix = "_i" if dut_dir == "in" else "_o"
    return iface["prefix"] + name + suffix


def validate(c, m):
    """Checks `ports` and `control`; adds m["interfaces"] (resolved pins),
    m["control_iface"] and m["reg_port"] (addr_width, addressing)."""
    ports = c.mapping("ports", m.get("ports"), ("clock", "reset"), ("interfaces", "debug", "tie", "clocks"))
    c.string("ports.clock", ports["clock"], IDENT, "the clock port's name")
    rst = c.mapping("ports.reset", ports["reset"], ("port",), ("active", "cycles"))
    c.string("ports.reset.port", rst["port"], IDENT, "the reset port's name")
    if rst.setdefault("active", "low") not in ("low", "high"):
        c.fail("ports.reset.active", f"expected low or high, got {rst['active']!r}")
    c.integer("ports.reset.cycles", rst.setdefault("cycles", 2), 1, 1000)
    for i, p in enumerate(c.seq("ports.debug", ports.setdefault("debug", []) or [])):
        c.string(f"ports.debug[{i}]", p, IDENT, "a port name")
    # Inputs the testbench holds at a constant (a mode pin, an unused second
    # clock): {port: value}, at most 64 bits each.
    for nm, v in _port_mapping(c, ports, "tie", "input port to value", "an input port's name").items():
        c.integer(f"ports.tie.{nm}", v, 0, (1 << 64) - 1)

    _validate_clocks(c, ports)

    ifaces, names = [], set()
    for i, it in enumerate(c.seq("ports.interfaces", ports.setdefault("interfaces", []) or [])):
        k = f"ports.interfaces[{i}]"
        kind = it.get("kind") if isinstance(it, dict) else None
        if kind not in KINDS:
            c.mapping(k, it, ("name", "kind"), ("prefix", "port", "suffix", "case", "addr_width", "addressing",
                                                 "stall_seed"))
            c.fail(f"{k}.kind", f"expected one of {', '.join(KINDS)}, got {kind!r}")
        optional = {"irq": ("port", "desc"),
                    "reg": ("prefix", "suffix", "case", "addr_width", "addressing", "clock", "desc"),
                    "axi4lite": ("prefix", "suffix", "case", "addr_width", "clock", "desc"),
                    "ap_ctrl": ("prefix", "suffix", "case", "signals", "clock", "desc"),
                    "axi4": ("prefix", "suffix", "case", "stall_seed", "channels", "clock", "desc"),
                    "axis_in": ("prefix", "suffix", "case", "signals", "data_bytes", "data_bits", "clock", "desc"),
                    "axis_out": ("prefix", "suffix", "case", "signals", "data_bytes", "data_bits", "clock", "desc"),
                    "sram": ("prefix", "suffix", "case", "signals", "data_bytes", "data_bits", "latency", "base",
                             "addressing", "clock", "desc")}.get(
                        kind, ("prefix", "suffix", "case", "desc"))
        c.mapping(k, it, ("name", "kind"), optional)
        c.string(f"{k}.name", it["name"], LOWER, "a lower-case interface name")
        if it["name"] in names:
            c.fail(f"{k}.name", f"duplicate interface {it['name']}")
        names.add(it["name"])
        if kind == "irq":
            c.string(f"{k}.port", it.setdefault("port", it["name"]), IDENT, "the interrupt port's name")
            it["pins"] = {"irq": (it["port"], "out", True)}
            ifaces.append(it)
            continue
        # An sram port's or a stream's pins may all be named by `signals` instead; HLS names block-level
        # control ap_*.
        if it.setdefault("prefix", "ap_" if kind == "ap_ctrl" else "") or kind not in NAMED:
            c.string(f"{k}.prefix", it["prefix"], re.compile(r"^[A-Za-z0-9_]*$"), "a port-name prefix")
        if it.setdefault("suffix", "none") not in ("io", "none"):
            c.fail(f"{k}.suffix", f"expected io (inputs _i, outputs _o) or none, got {it['suffix']!r}")
        if it.setdefault("case", "lower") not in ("lower", "upper"):
            c.fail(f"{k}.case", f"expected lower or upper, got {it['case']!r}")
        if kind in ("reg", "axi4lite"):
            c.integer(f"{k}.addr_width", it.setdefault("addr_width", 8), 1, 32)
            if it.setdefault("addressing", "byte") not in ("byte", "word"):
                c.fail(f"{k}.addressing", f"expected byte or word, got {it['addressing']!r}")
        if kind in ("axis_in", "axis_out", "sram") and "data_bytes" in it:
            c.integer(f"{k}.data_bytes", it["data_bytes"], 1, 4096)
        _validate_iface_clock(c, k, it, ports)
        if kind == "axi4":
            c.integer(f"{k}.stall_seed", it.setdefault("stall_seed", len([x for x in ifaces if x["kind"] == "axi4"])),
                      0)
            # A master that only reads (AR, R) or only writes (AW, W, B), as DMA engines often are.
            if it.setdefault("channels", "both") not in ("both", "read", "write"):
                c.fail(f"{k}.channels", f"expected both, read (AR and R only) or write (AW, W, B only), "
                                        f"got {it['channels']!r}")
        if kind == "sram":
            _validate_sram(c, k, it)
        if kind in ("axis_in", "axis_out", "sram"):
            _validate_data_bits(c, k, it)
        if kind in NAMED:
            _validate_signals(c, k, it)
        sigs, master = KINDS[kind]
        it["pins"] = {s: (pin_name(it, s, d if master else _flip(d)), d if master else _flip(d), req)
                      for s, d, req in sigs if _on_channel(it, s)}
        if kind in NAMED:
            # `signals` names pins the prefix does not; without a prefix they are all its pins.
            it["pins"] = {s: ((it["signals"][s],) + p[1:] if s in it["signals"] else p)
                          for s, p in it["pins"].items() if s in it["signals"] or it["prefix"]}
        ifaces.append(it)
    m["interfaces"] = ifaces

    control = m.setdefault("control", "reg")
    if control not in CONTROLS:
        c.fail("control", f"expected one of {', '.join(CONTROLS)}, got {control!r}")
    ctrl = [x for x in ifaces if x["kind"] in ("reg", "axi4lite", "ap_ctrl")]
    if len(ctrl) > 1:
        c.fail("ports.interfaces", f"expected at most one reg, axi4lite or ap_ctrl interface (the control port), got "
                                   f"{', '.join(x['name'] for x in ctrl)}")
    if control != "none" and not ctrl:
        c.fail("control", f"{control} needs a reg, axi4lite or ap_ctrl interface under ports.interfaces")
    if control == "reg" and ctrl and ctrl[0]["kind"] != "reg":
        c.fail("control", f"reg needs a kind: reg interface (an {ctrl[0]['kind']} port takes ap_ctrl_hs or "
                          "ap_ctrl_chain)")
    if ctrl and ctrl[0]["kind"] == "ap_ctrl" and control not in ("ap_ctrl_hs", "ap_ctrl_chain"):
        c.fail("control", f"an ap_ctrl interface ({ctrl[0]['name']}) takes control: ap_ctrl_hs or ap_ctrl_chain, "
                          f"got {control!r}")
    m["control_iface"] = ctrl[0] if ctrl else None
    # An ap_ctrl port's map is the binder's: the Vitis control map, argument words from 0x10.
    m["reg_port"] = {"addr_width": ctrl[0].get("addr_width", 12) if ctrl else 8,
                     "addressing": ctrl[0].get("addressing", "byte") if ctrl else "byte"}

    claimed = {}
    for nm in [ports["clock"], rst["port"]] + further_clock_pins(ports) + list(ports["debug"]) + list(ports["tie"]):
        if nm in claimed:
            c.fail("ports", f"port {nm} named twice")
        claimed[nm] = "ports"
    for it in ifaces:
        for s, (nm, _, _) in it["pins"].items():
            if nm in claimed:
                c.fail("ports.interfaces", f"port {nm} of interface {it['name']} is also claimed by {claimed[nm]}")
            claimed[nm] = f"interface {it['name']}"
    return m


# Read latency of an sram interface in cycles, at most (harness/sram_binder.hpp).
MAX_SRAM_LATENCY = 64


def _validate_sram(c, k, it):
    """An sram interface's keys: `latency` (cycles from the address to its
    read data, 1 = a BRAM's), `base` (the DRAM byte address of the port's
    address 0), `addressing` (word: the address counts data words; byte)."""
    c.integer(f"{k}.latency", it.setdefault("latency", 1), 1, MAX_SRAM_LATENCY)
    c.integer(f"{k}.base", it.setdefault("base", 0), 0, (1 << 64) - 1)
    if it.setdefault("addressing", "word") not in ("word", "byte"):
        c.fail(f"{k}.addressing", f"expected word (the address counts data words) or byte, got {it['addressing']!r}")


def _validate_data_bits(c, k, it):
    """`data_bits` of an sram port or a stream: a word or beat that is no whole number of bytes
    (18 bits, say) takes data_bytes, by default the bytes that hold it, in the DRAM or the stream's
    data, and the bits above it are cleared on the way in."""
    if "data_bits" in it:
        bits = c.integer(f"{k}.data_bits", it["data_bits"], 1, 4096 * 8)
        if it.setdefault("data_bytes", (bits + 7) // 8) * 8 < bits:
            c.fail(f"{k}.data_bytes", f"{it['data_bytes']} bytes cannot hold data_bits: {bits}")


# Kinds whose pins `signals` may name one by one ({signal: port}): a port the prefix does not give, or,
# without a prefix, every pin (an sram port's addr_r_byte / data_r; an HLS ap_fifo stream's
# in_dout / in_empty_n / in_read as tdata / tvalid / tready; an accelerator's go / finished as
# start / done).
NAMED = ("sram", "axis_in", "axis_out", "ap_ctrl")


def _validate_signals(c, k, it):
    """`signals` of an interface of a NAMED kind: known signals of its kind, port names, and without a
    prefix the pins it cannot do without."""
    kind = it["kind"]
    signals = it.setdefault("signals", {}) or {}
    it["signals"] = signals
    if not isinstance(signals, dict):
        c.fail(f"{k}.signals", f"expected a mapping of signal to port name, got {type(signals).__name__}")
    known = [s for s, _, _ in KINDS[kind][0]]
    for s, nm in signals.items():
        if s not in known:
            c.fail(f"{k}.signals", f"expected a signal of kind {kind} ({', '.join(known)}), got {s!r}")
        if s == "tdata" and isinstance(nm, list):
            _validate_data_parts(c, f"{k}.signals.tdata", it, nm)
            signals[s] = nm[0]  # the first part stands for TDATA where one port is meant (views, checks)
            continue
        c.string(f"{k}.signals.{s}", nm, IDENT, "a port name")
    needed = ["addr"] if kind == "sram" else [s for s, _, req in KINDS[kind][0] if req]
    if not it["prefix"] and any(s not in signals for s in needed):
        c.fail(f"{k}.signals", f"expected the port{'s' if len(needed) > 1 else ''} of {', '.join(needed)} at least "
                               f"(an {kind} interface without a prefix names its pins under signals)")


def _on_channel(it, sig):
    """Whether an axi4 master with `channels: read` or `write` has signal `sig` (the others: every one)."""
    channels = it.get("channels", "both") if it["kind"] == "axi4" else "both"
    reads = sig.startswith(("ar", "r"))
    return channels == "both" or (channels == "read") == reads


def _validate_data_parts(c, key, it, parts):
    """A stream's TDATA on several ports, `tdata: [a, b, ...]`: the beat is their bits, a's from bit 0,
    then b's (SystemVerilog's {b, a}); its bytes come from the ports' widths (the port check's), so
    the interface takes neither data_bytes nor data_bits."""
    if it["kind"] not in ("axis_in", "axis_out"):
        c.fail(key, "a list of ports is a stream's TDATA on several ports (axis_in, axis_out)")
    if len(parts) < 2:
        c.fail(key, f"expected two ports or more (one port is its name alone), got {len(parts)}")
    for j, nm in enumerate(parts):
        c.string(f"{key}[{j}]", nm, IDENT, "a port name")
    if len(set(parts)) != len(parts):
        c.fail(key, "a port named twice")
    for extra in ("data_bytes", "data_bits"):
        if extra in it:
            c.fail(f"{key[:key.rfind('.signals')]}.{extra}",
                   "a beat on several ports has the bytes of their widths together: leave it out")
    it["data_parts"] = list(parts)


def _port_mapping(c, ports, key, what, name):
    """ports[key]: a mapping keyed by port names (absent or empty: {}), kept
    in `ports`."""
    v = ports.setdefault(key, {}) or {}
    ports[key] = v
    if not isinstance(v, dict):
        c.fail(f"ports.{key}", f"expected a mapping of {what}, got {type(v).__name__}")
    for nm in v:
        c.string(f"ports.{key}", nm, IDENT, name)
    return v


# A further clock's frequency over ports.clock's: p/q, each at most this.
RATIO_TERMS = 1000
# Further clocks at most (harness/clock_set.hpp keeps a mask of them in 32 bits).
MAX_CLOCKS = 32


def _ratio(c, key, v):
    """A ratio as written (an integer, a decimal, or "p/q"): a Fraction."""
    try:
        if isinstance(v, bool) or not isinstance(v, (int, float, str)):
            raise ValueError
        r = Fraction(str(v).strip())
    except (ValueError, ZeroDivisionError):
        c.fail(key, f"expected the clock's frequency over ports.clock's: a number or p/q such as 3/2, got {v!r}")
    if r <= 0 or r.numerator > RATIO_TERMS or r.denominator > RATIO_TERMS:
        c.fail(key, f"expected a positive ratio p/q with p and q at most {RATIO_TERMS}, got {v!r}")
    return r


def _validate_clocks(c, ports):
    """ports.clocks: {port: {ratio, reset, early}}: further clocks the
    testbench drives at a fixed ratio to ports.clock (its frequency over
    ports.clock's), each with an optional reset of ports.reset's polarity,
    held with it."""
    clocks = _port_mapping(c, ports, "clocks", "clock port to {ratio, reset, early}", "a clock port's name")
    if len(clocks) > MAX_CLOCKS:
        c.fail("ports.clocks", f"expected at most {MAX_CLOCKS} further clocks, got {len(clocks)}")
    for nm, spec in clocks.items():
        key = f"ports.clocks.{nm}"
        c.mapping(key, spec, ("ratio",), ("reset", "early"))
        spec["fraction"] = _ratio(c, f"{key}.ratio", spec["ratio"])
        if "reset" in spec:
            c.string(f"{key}.reset", spec["reset"], IDENT, "the clock's reset port")
        # Its edges that meet one of ports.clock's evaluated just before it
        # (harness/clock_set.hpp): for logic that reads ports.clock as data.
        c.boolean(f"{key}.early", spec.setdefault("early", False))


def _validate_iface_clock(c, k, it, ports):
    """An interface's `clock`: ports.clock (the default) or one of
    ports.clocks, whose rising edges its binder then runs on
    (harness/port.hpp); it["clock_index"]: -1, or the index among
    ports.clocks."""
    clk = it.setdefault("clock", ports["clock"])
    names = list(ports["clocks"])
    if clk == ports["clock"]:
        it["clock_index"] = -1
    elif isinstance(clk, str) and clk in names:
        it["clock_index"] = names.index(clk)
    else:
        c.fail(f"{k}.clock", f"expected ports.clock ({ports['clock']}) or a clock of ports.clocks "
                             f"({', '.join(names) or 'none declared'}), got {clk!r}")


def further_clock_pins(p):
    """The further clocks' ports and their resets, in the manifest's order."""
    return [nm for clk, spec in p["clocks"].items() for nm in [clk] + ([spec["reset"]] if "reset" in spec else [])]


def clock_schedule(p):
    """The units of harness/clock_set.hpp for ports `p` with further clocks:
    (ports.clock's half period, [each clock's half period], reset cycles).
    The unit is 1/(2 L) of a primary cycle, L the least common multiple of
    the ratios' numerators, so that every half period is a whole number; the
    reset lasts until every further clock has had ports.reset.cycles rising
    edges under it (and at least ports.reset.cycles primary cycles): a slow
    clock's synchronous reset must see its edges too."""
    ratios = [spec["fraction"] for spec in p["clocks"].values()]
    lcm = 1
    for r in ratios:
        lcm = lcm * r.numerator // math.gcd(lcm, r.numerator)
    halves = [lcm * r.denominator // r.numerator for r in ratios]
    cycles = p["reset"]["cycles"]

    def rising_under_reset(r, n):
        # Clock r rises at 1/2 + k/r primary cycles (aligned with the primary
        # clock's first rising edge); the reset covers (0, n].
        return math.floor((n - Fraction(1, 2)) * r) - math.floor(-r / 2)

    reset = cycles
    while any(rising_under_reset(r, reset) < cycles for r in ratios):
        reset += 1
    return lcm, halves, reset


# ---------------------------------------------------------------------------
# The Verilated top's ports, and the check against the manifest
# ---------------------------------------------------------------------------

class PortMap(dict):
    """{port: direction}, and .widths: {port: bits} where Verilator gave them."""
    def __init__(self, dirs, widths=None):
        super().__init__(dirs)
        self.widths = dict(widths or {})


def top_ports(m, files, includes, verilator, cache_dir):
    """{port: 'input'|'output'|'inout'} of the top module, from
    `verilator --xml-only` (cached by the text of every file); a PortMap,
    whose .widths hold each port's bits. The top is read with the -G
    parameters and defines of the manifest's verilator_args, as the build
    reads it: a port's width may depend on them, and a top parameter
    without a default must be given there."""
    shaping = [a for a in m.get("verilator_args", []) if a.startswith(("-G", "-D", "+define+"))]
    h = hashlib.sha256()
    for f in files:
        with open(f, "rb") as fh:
            h.update(f.encode() + b"\0" + fh.read())
    h.update(" ".join(includes).encode())
    h.update(("\0" + " ".join(shaping)).encode())
    with open(__file__, "rb") as fh:  # a change of how ports are read reads them again
        h.update(fh.read())
    key = h.hexdigest()
    cache = os.path.join(cache_dir, f"{m['name']}_ports.json")
    try:
        with open(cache, encoding="utf-8") as f:
            data = json.load(f)
        if data.get("key") == key and "widths" in data:
            return PortMap(data["ports"], data["widths"])
    except (OSError, ValueError):
        pass
    os.makedirs(cache_dir, exist_ok=True)
    xml = os.path.join(cache_dir, f"{m['name']}_top.xml")
    # --no-timing: the port list does not depend on delays, which generated
    # RTL has (HLS's `#0` in initial blocks) and Verilator 5 asks about.
    cmd = [verilator, "--xml-only", "--xml-output", xml, "-Wno-fatal", "-Wno-lint", "-Wno-style", "--no-timing",
           "--timescale", "1ps/1ps",
           "--top-module", m["top"], "--Mdir", os.path.join(cache_dir, f"{m['name']}_xml.d")]
    cmd += shaping + [f"-I{d}" for d in includes] + list(files)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        first = next((ln for ln in p.stderr.splitlines() if ln.startswith("%Error")), p.stderr.strip()[:300])
        raise RuntimeError(f"verilator cannot read the sources of {m['name']}: {first}")
    root = ET.parse(xml).getroot()
    dtypes = {d.get("id"): d for d in root.iter() if d.get("id") is not None and d.tag.endswith("dtype")}
    ports, widths = {}, {}
    for mod in root.iter("module"):
        if mod.get("topModule") == "1" or mod.get("name") == m["top"]:
            for v in mod.findall("var"):
                if v.get("dir"):
                    ports[v.get("name")] = v.get("dir")
                    w = _dtype_bits(dtypes, v.get("dtype_id"))
                    if w is not None:
                        widths[v.get("name")] = w
            break
    with open(cache, "w", encoding="utf-8") as f:
        json.dump({"key": key, "ports": ports, "widths": widths}, f)
    return PortMap(ports, widths)


def _xml_const(c):
    """The value of a const of Verilator's XML (32'h3, 32'sh0, 8'd12, 1'b1); None if not one."""
    mt = re.fullmatch(r"\d*'s?([hdbo])([0-9a-fA-F_]+)", c.get("name", "")) if c is not None else None
    if mt is None:
        return None
    return int(mt.group(2).replace("_", ""), {"h": 16, "d": 10, "b": 2, "o": 8}[mt.group(1)])


def _dtype_bits(dtypes, dtype_id, depth=0):
    """Bits of a type of Verilator's XML type table: a basic type's range, a packed array's
    elements times its element's bits (logic [3:0][7:0]: 32), a packed struct's members together,
    a typedef's or enum's underlying type; None when it cannot be told."""
    d = dtypes.get(dtype_id)
    if d is None or depth > 32:
        return None
    tag = d.tag
    if tag == "basicdtype":
        left, right = d.get("left"), d.get("right")
        try:
            return abs(int(left) - int(right)) + 1 if left is not None else 1
        except ValueError:
            return None
    if tag == "packarraydtype":
        rng = d.find("range")
        consts = rng.findall("const") if rng is not None else []
        sub = _dtype_bits(dtypes, d.get("sub_dtype_id"), depth + 1)
        vals = [_xml_const(c) for c in consts]
        if len(vals) != 2 or None in vals or sub is None:
            return None
        return (abs(vals[0] - vals[1]) + 1) * sub
    if tag == "structdtype":  # on a port, a packed one
        members = [_dtype_bits(dtypes, x.get("sub_dtype_id"), depth + 1) for x in d.findall("memberdtype")]
        return None if not members or None in members else sum(members)
    if tag in ("refdtype", "enumdtype", "typedef"):
        return _dtype_bits(dtypes, d.get("sub_dtype_id"), depth + 1)
    return None


def storage_bytes(bits):
    """Bytes Verilator stores a port of `bits` in (CData .. QData, then 32-bit words)."""
    for n in (8, 16, 32, 64):
        if bits <= n:
            return n // 8
    return 4 * ((bits + 31) // 32)


def check_top(m, ports):
    """Problems between the manifest's ports and the top's: a list of lines."""
    p = m["ports"]
    want = {p["clock"]: ("input", True, "ports.clock"), p["reset"]["port"]: ("input", True, "ports.reset.port")}
    for nm in p["debug"]:
        want[nm] = (None, True, "ports.debug")
    for nm in p["tie"]:
        want[nm] = ("input", True, "ports.tie")
    for nm, spec in p["clocks"].items():
        want[nm] = ("input", True, "ports.clocks")
        if "reset" in spec:
            want[spec["reset"]] = ("input", True, f"ports.clocks.{nm}.reset")
    for it in m["interfaces"]:
        for s, (nm, d, req) in it["pins"].items():
            req = req or (s == "continue" and m["control"] == "ap_ctrl_chain")
            want[nm] = ("input" if d == "in" else "output", req, f"interface {it['name']} ({it['kind']}) signal {s}")
            if s == "tdata":
                for part in it.get("data_parts", [])[1:]:
                    want[part] = (want[nm][0], True, f"interface {it['name']} ({it['kind']}) signal tdata")
    for r in m.get("argument_pins", []):
        want[r["pin"]] = ("output" if r["access"] == "ro" else "input", True, f"register {r['name']} (pin)")
        if "valid" in r:
            want[r["valid"]] = ("output", True, f"register {r['name']} (valid)")
    widths = getattr(ports, "widths", {})
    errs = [f"register {r['name']} is word {r['word']} of {r['pin']}, but {r['pin']} of top module {m['top']} is "
            f"{widths[r['pin']]} bits" for r in m.get("argument_pins", [])
            if r["pin"] in widths and r["word"] * 32 >= widths[r["pin"]]]
    errs += [f"ports.tie holds {nm} at a value, but {nm} of top module {m['top']} is {widths[nm]} bits "
             "(at most 64 can be tied)" for nm in p["tie"] if widths.get(nm, 0) > 64]
    # A stream's beat is its TDATA's bytes: whole bytes, and when Verilator
    # stores them in more (24 bits in 4 bytes, 72 in 12), the manifest says
    # how many (data_bytes), or the binder would carry the storage's.
    # So is an sram port's word (its read or write data).
    for it in m["interfaces"]:
        if it["kind"] == "sram":
            errs += _check_sram(m, it, ports)
        if it["kind"] not in ("axis_in", "axis_out", "sram"):
            continue
        sig = "tdata" if it["kind"] != "sram" else "rdata" if it["pins"].get("rdata", ("",))[0] in ports else "wdata"
        nm = it["pins"].get(sig, ("",))[0]
        if nm not in widths or "data_parts" in it:  # a beat on several ports: their widths give its bytes
            continue
        w = widths[nm]
        who = f"interface {it['name']} ({it['kind']})"
        if "data_bits" in it:
            if it["data_bits"] != w:
                errs.append(f"{who} has data_bits: {it['data_bits']}, but {sig.upper()} {nm} of top module {m['top']} "
                            f"is {w} bits")
            continue
        if w % 8:
            errs.append(f"{who}: {sig.upper()} {nm} of top module {m['top']} is {w} bits, not a whole number of "
                        f"bytes; add data_bits: {w} (each " + ("word then takes" if it["kind"] == "sram" else "beat then is") +
                        f" {(w + 7) // 8} bytes" + (" in the DRAM)" if it["kind"] == "sram" else ")"))
        elif "data_bytes" in it and it["data_bytes"] != w // 8:
            errs.append(f"{who} has data_bytes: {it['data_bytes']}, but {sig.upper()} {nm} of top module {m['top']} "
                        f"is {w} bits ({w // 8} bytes)")
        elif "data_bytes" not in it and storage_bytes(w) != w // 8:
            errs.append(f"{who}: {sig.upper()} {nm} of top module {m['top']} is {w} bits, which Verilator stores in "
                        f"{storage_bytes(w)} bytes; add data_bytes: {w // 8} to the interface")
    for nm, (d, req, who) in want.items():
        if nm not in ports:
            if req:
                errs.append(f"{who} names port {nm}, which top module {m['top']} lacks")
        elif d and ports[nm] != d:
            errs.append(f"{who} expects {nm} to be an {d}, top module {m['top']} declares an {ports[nm]}")
    for nm in ports:
        if nm not in want:
            close = [it["name"] for it in m["interfaces"] if it.get("prefix") and nm.startswith(it["prefix"])]
            second_clock = ports[nm] == "input" and re.fullmatch(r"(ap_clk|ap_rst_n?)_\d+|.*_(clk|clock)(_\w+)?",
                                                               nm, re.I)
            if close:
                hint = f" (it starts with the prefix of interface {close[0]}, which has no such signal)"
            elif second_clock:
                hint = (f" (a second clock or its reset? Name it under ports.clocks, e.g. "
                        f"clocks: {{{nm}: {{ratio: 2}}}} for a clock twice as fast as {m['ports']['clock']}, "
                        f"or hold it with ports.tie)")
            else:
                hint = " (add it to an interface, or to ports.debug if it is a status output)"
            errs.append(f"top module {m['top']} has port {nm} that no interface of the manifest claims{hint}")
    return errs


def _check_sram(m, it, ports):
    """An sram interface's optional signals as the top has them: write data
    with a write or byte enable and only then, read data or a write, a 1-bit
    write enable, a byte enable per data byte, read and write data alike wide."""
    has = {s: nm for s, (nm, _, _) in it["pins"].items() if nm in ports}
    widths = getattr(ports, "widths", {})
    who = f"interface {it['name']} (sram) of top module {m['top']}"

    def pin(s):
        return it["pins"][s][0] if s in it["pins"] else f"(signals: {{{s}: ...}})"
    writes = "we" in has or "be" in has
    if writes and "wdata" not in has:
        return [f"{who} has a write enable ({has.get('we') or has.get('be')}) but no write data {pin('wdata')}"]
    if "wdata" in has and not writes:
        return [f"{who} has write data {has['wdata']} but no write enable {pin('we')} nor byte enable {pin('be')}"]
    if not writes and "rdata" not in has:
        return [f"{who} has neither read data {pin('rdata')} nor write data {pin('wdata')}"]
    w = {s: widths.get(has[s]) for s in ("we", "be", "wdata", "rdata") if s in has}
    if w.get("we") not in (None, 1):
        return [f"{who}: write enable {has['we']} is {w['we']} bits, expected 1 (byte enables go on be)"]
    if w.get("rdata") and w.get("wdata") and w["rdata"] != w["wdata"]:
        return [f"{who}: read data {has['rdata']} is {w['rdata']} bits, write data {has['wdata']} {w['wdata']}"]
    data = w.get("rdata") or w.get("wdata")
    if w.get("be") and data and w["be"] * 8 != data:
        return [f"{who}: byte enable {has['be']} is {w['be']} bits, expected one per byte of the "
                f"{data}-bit data ({data // 8})"]
    return []


# ---------------------------------------------------------------------------
# C++ binding
# ---------------------------------------------------------------------------

def _struct(name):
    return "".join(p[:1].upper() + p[1:] for p in name.split("_") if p)


def _concat_tdata_cpp(m, it):
    """A stream's TDATA on several ports (`tdata: [a, b]`): each port a pin of its own, tdata() the
    ports taken as one (harness::ConcatPin, a's bits from bit 0), kDataBytes the bytes of their
    widths together (the port check's, m["port_widths"])."""
    widths = m.get("port_widths", {})
    parts = it["data_parts"]
    bits = [widths[p] for p in parts]
    L = [f"  COSIM_PIN(tdata_part{j}, {p})" for j, p in enumerate(parts)]
    at = 0
    layout = []
    for p, w in zip(parts, bits):
        layout.append(f"{p} bits {at}..{at + w - 1}")
        at += w
    L.append(f"  // TDATA: {', '.join(layout)}")
    L.append("  template <class M_>")
    L.append("  static auto tdata(M_& m) {")
    L.append(f"    return cosim::tb::harness::concat_pins<{', '.join(str(b) for b in bits)}>("
             + ", ".join(f"tdata_part{j}(m)" for j in range(len(parts))) + ");")
    L.append("  }")
    L.append(f"  static constexpr unsigned kDataBytes = {(at + 7) // 8};")
    return L


def _argument_pins_cpp(regs):
    """An ap_ctrl port's argument registers (harness/ap_ctrl_binder.hpp): a
    write drives its word of the pin, a read of an output pin's register gives
    the pin's word."""
    L = [f"  COSIM_PIN(arg_{r['name']}, {r['pin']})" for r in regs]
    L += [f"  COSIM_PIN(valid_{r['name']}, {r['valid']})" for r in regs if "valid" in r]
    L += ["  static constexpr bool is_arg(uint32_t offset) {", "    switch (offset) {"]
    L += [f"      case {r['offset']:#x}:" for r in regs]
    L += ["        return true;" if regs else "", "      default: return false;", "    }", "  }"]
    L += ["  template <class M_>", "  static void write_arg(M_& m, uint32_t offset, uint32_t v) {",
          "    switch (offset) {"]
    L += [f"      case {r['offset']:#x}: cosim::tb::harness::set_pin_word(arg_{r['name']}(m), {r['word']}, v); break;"
          for r in regs if r["access"] != "ro"]
    L += ["      default: (void)m; (void)v; break;", "    }", "  }"]
    L += ["  template <class M_>", "  static bool read_arg(const M_& m, uint32_t offset, uint32_t& v) {",
          "    switch (offset) {"]
    for r in regs:
        if r["access"] == "ro":
            L += [f"      case {r['offset']:#x}: v = cosim::tb::harness::pin_word(arg_{r['name']}(m), {r['word']}); "
                  "return true;"]
    L += ["      default: (void)m; (void)v; return false;", "    }", "  }"]
    # The output pins' words to latch this cycle, as an adapter does: those with a valid strobe while it
    # is high, the others as the kernel finishes (`done`).
    L += ["  template <class M_, class F_>", "  static void for_each_output(const M_& m, bool done, F_&& f) {"]
    for r in regs:
        if r["access"] != "ro":
            continue
        when = f"valid_{r['name']}(m)" if "valid" in r else "done"
        L.append(f"    if ({when}) f({r['offset']:#x}u, cosim::tb::harness::pin_word(arg_{r['name']}(m), {r['word']}));")
    L += ["    (void)m;", "    (void)done;", "    (void)f;", "  }"]
    return [x for x in L if x]


def gen_cpp(m, generator, rel):
    n = m["name"]
    p = m["ports"]
    kinds = {"axi4": "kAxi4", "axi4lite": "kAxi4Lite", "reg": "kReg", "ap_ctrl": "kApCtrl", "axis_in": "kAxisIn",
             "axis_out": "kAxisOut", "sram": "kSram", "irq": "kIrq"}
    L = [f"// Generated by {generator} from {rel}: do not edit.",
         f"// The pins of {m['top']} by interface, from the manifest's `ports`: each",
         "// accessor returns the Verilated model's member; has_<signal><Model> says",
         "// whether the model has it (optional signals). The harness binds through these.",
         "#pragma once", "", "#include \"harness/bus.hpp\"", "", f"namespace cosim::{n}::pins {{", ""]
    for it in m["interfaces"]:
        S = _struct(it["name"])
        L.append(f"// {it['name']}: {it['kind']}" + (f", prefix {it['prefix']}" if it.get("prefix") else ""))
        L.append(f"struct {S} {{")
        L.append(f"  static constexpr const char* kName = \"{it['name']}\";")
        L.append(f"  static constexpr cosim::tb::harness::BusKind kKind = cosim::tb::harness::BusKind::{kinds[it['kind']]};")
        if it["kind"] == "axi4":
            L.append(f"  static constexpr uint64_t kStallSeed = {it['stall_seed']};")
        if it.get("clock_index", -1) >= 0:
            L.append(f"  static constexpr int kClock = {it['clock_index']};  // on {it['clock']} (ports.clocks)")
        if it["kind"] in ("axis_in", "axis_out", "sram") and "data_bytes" in it:
            L.append(f"  static constexpr unsigned kDataBytes = {it['data_bytes']};")
        if "data_bits" in it:
            L.append(f"  static constexpr unsigned kDataBits = {it['data_bits']};")
        if it["kind"] == "sram":
            L.append(f"  static constexpr unsigned kLatency = {it['latency']};")
            L.append(f"  static constexpr uint64_t kBase = {it['base']:#x}ULL;")
            L.append(f"  static constexpr bool kByteAddressing = {'true' if it['addressing'] == 'byte' else 'false'};")
        if it["kind"] in ("reg", "axi4lite"):
            L.append(f"  static constexpr unsigned kAddrWidth = {it['addr_width']};")
            L.append(f"  static constexpr unsigned kAddrShift = {0 if it.get('addressing', 'byte') == 'byte' else 2};")
        for s, (nm, _, _) in it["pins"].items():
            if s == "tdata" and "data_parts" in it:
                L += _concat_tdata_cpp(m, it)
                continue
            L.append(f"  COSIM_PIN({s + '_' if s == 'continue' else s}, {nm})")  # `continue` is a C++ word
        if it["kind"] in NAMED or it["kind"] == "axi4":  # those `signals` or `channels` leave out
            L += [f"  COSIM_NO_PIN({s})" for s, _, _ in KINDS[it['kind']][0] if s not in it["pins"]]
        if it["kind"] == "ap_ctrl":
            L.append(f"  static constexpr bool kChain = {'true' if m['control'] == 'ap_ctrl_chain' else 'false'};")
            L += _argument_pins_cpp(m["argument_pins"])
        L.append("};")
        L.append("")
    ctrl = m["control_iface"]
    protocol = {"reg": "kReg", "ap_ctrl_hs": "kApCtrlHs", "ap_ctrl_chain": "kApCtrlChain", "none": "kNone"}
    L.append("// The top: clock, reset, control port and protocol, interfaces by kind.")
    L.append("struct Top {")
    # What `cosim list` says of the target (a backend's description()).
    L.append(f"  static constexpr const char* kDescription = {json.dumps(m.get('description', n))};")
    L.append(f"  COSIM_PIN(clock, {p['clock']})")
    L.append(f"  COSIM_PIN(reset, {p['reset']['port']})")
    L.append(f"  static constexpr bool kResetActiveLow = {'true' if p['reset']['active'] == 'low' else 'false'};")
    # The manifest's tied inputs (ports.tie), set before reset and never driven again.
    L.append("  template <class M_>")
    L.append("  static void tie(M_& m) {")
    for nm, v in p["tie"].items():
        L.append(f"    cosim::tb::harness::set_pin(m.{nm}, {v}ULL);")
    if not p["tie"]:
        L.append("    (void)m;")
    L.append("  }")
    L.append(f"  static constexpr int kResetCycles = {p['reset']['cycles']};")
    # What a run's report says of the clocks (TargetBackend::clocks()).
    L.append(f"  static constexpr const char* kClocks = {json.dumps(clocks_text(m))};")
    if p["clocks"]:
        L += _clocks_cpp(p)
    L.append(f"  static constexpr cosim::tb::harness::ControlProtocol kControl = "
             f"cosim::tb::harness::ControlProtocol::{protocol[m['control']]};")
    # Qualified: an interface may be called like the alias (`control`).
    ns = f"cosim::{n}::pins::"
    L.append(f"  using Control = {ns + _struct(ctrl['name']) if ctrl else 'cosim::tb::harness::NoBus'};")
    for kind, alias in (("axi4", "AxiMasters"), ("axis_in", "AxisIns"), ("axis_out", "AxisOuts"), ("sram", "Srams"),
                        ("irq", "Irqs")):
        members = ", ".join(ns + _struct(it["name"]) for it in m["interfaces"] if it["kind"] == kind)
        L.append(f"  using {alias} = cosim::tb::harness::BusList<{members}>;")
    L.append("};")
    L.append("")
    L.append(f"}}  // namespace cosim::{n}::pins")
    return "\n".join(L) + "\n"


def clocks_text(m):
    """The clocks in one line for a run's report, "" with one clock:
    "ap_clk_2 (the cycles); ap_clk at 3/5: control, gmem"."""
    p = m["ports"]
    if not p["clocks"]:
        return ""
    parts = [f"{p['clock']} (the cycles)"]
    for i, (nm, spec) in enumerate(p["clocks"].items()):
        ifaces = [it["name"] for it in m["interfaces"] if it.get("clock_index", -1) == i]
        parts.append(f"{nm} at {spec['fraction']}" + (", early" if spec["early"] else "") +
                     (": " + ", ".join(ifaces) if ifaces else ""))
    return "; ".join(parts)


def _clocks_cpp(p):
    """pins::Top::Clocks: the further clocks for harness/clock_set.hpp."""
    half, halves, reset = clock_schedule(p)
    active = "0" if p["reset"]["active"] == "low" else "1"
    L = ["  // ports.clocks: " + ", ".join(f"{nm} at {spec['fraction']} x {p['clock']}"
                                        for nm, spec in p["clocks"].items()) + " (harness/clock_set.hpp)",
         "  struct Clocks {",
         f"    static constexpr unsigned kCount = {len(halves)};",
         f"    static constexpr uint64_t kHalfCycle = {half};",
         f"    static constexpr uint64_t kHalfPeriod[kCount] = {{{', '.join(map(str, halves))}}};",
         "    static constexpr bool kEarly[kCount] = {" +
         ", ".join("true" if spec["early"] else "false" for spec in p["clocks"].values()) + "};",
         f"    static constexpr int kResetCycles = {reset};",
         "    template <class M_>",
         "    static void set(M_& m, unsigned i, uint8_t level) {",
         "      switch (i) {"]
    for i, nm in enumerate(p["clocks"]):
        L.append(f"        case {i}: m.{nm} = level; break;")
    L += ["        default: break;", "      }", "    }",
          "    template <class M_>",
          "    static void reset(M_& m, bool active) {"]
    resets = [spec["reset"] for spec in p["clocks"].values() if "reset" in spec]
    for nm in resets:
        L.append(f"      m.{nm} = active ? {active} : {1 - int(active)};")
    if not resets:
        L.append("      (void)m, (void)active;")
    L += ["    }", "  };"]
    return L


def port_names(m):
    """Every pin name the manifest resolves (for the no-port-names-in-shared-code test)."""
    p = m["ports"]
    out = [p["clock"], p["reset"]["port"]] + list(p["debug"])
    out += further_clock_pins(p)
    for it in m["interfaces"]:
        out += [nm for nm, _, _ in it["pins"].values()]
    return out
