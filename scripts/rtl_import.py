"""The manifest of a hand-written accelerator, read from its top's ports
(`cosim new-dut NAME --out DIR --from-rtl FILE|DIR...`): the sources stay where
they are (the manifest names them by relative paths), Verilator reads the top's
ports and their widths, and the ports are sorted into interfaces by the names
hand-written RTL commonly gives them:

  clock, reset   clk, clk_i, aclk, ap_clk, clock / rst, rst_n, rst_ni, aresetn,
                 ap_rst_n, reset (active low when the name ends in n, _n, _ni)
  axi4lite       <p>awaddr ... <p>rdata with no <p>awlen, awaddr an input (a slave);
                 s_axi_control_ is Vitis's: control ap_ctrl_hs, its control map
  axi4           <p>awaddr / <p>araddr an output with <p>awlen / <p>arlen (a master; with
                 one side only, channels: read or write)
  axis_in/out    <p>tvalid, <p>tready, <p>tdata (TLAST, TKEEP, ... with them)
  axis_in/out    <s>valid, <s>ready and the data ports of <s>'s direction whose
                 name starts with <s> and has `data` in it (sx_data_i, sk_data_i:
                 one beat on several ports, tdata: [...]), <s>last with them
  ap_ctrl        start and done (ap_start / ap_done, start_i / done_o, go /
                 finished), idle and ready with them: block-level control, the
                 other inputs its argument registers, the other outputs read back
  irq            a 1-bit output irq, interrupt or intr

Any of these names may carry _i / _o. What is left: inputs tied at 0, outputs
kept as debug pins, both named in the summary to check. Reads files only;
writes nothing but what it returns.
"""

import os
import re
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import dutgen_ports
import hls_import


class ImportError_(Exception):
    """A one-line reason the RTL cannot be imported."""


CLOCKS = ("ap_clk", "aclk", "clk", "clock", "i_clk", "clk_in")
RESETS = ("ap_rst_n", "aresetn", "rst_n", "rstn", "resetn", "reset_n", "i_rst_n", "nrst", "ap_rst", "areset", "rst",
          "reset", "i_rst")
STARTS, DONES = ("ap_start", "start", "go"), ("ap_done", "done", "finished", "finish")
IRQS = ("irq", "interrupt", "intr")


def source_files(paths):
    """The sources `--from-rtl` names: each file as given, and for a folder its .sv and .v files
    (not those of its subfolders: a testbench's, say), packages (*_pkg.sv) first, then by name."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            found = sorted(f for f in os.listdir(p) if f.endswith((".sv", ".v")) and os.path.isfile(os.path.join(p, f)))
            if not found:
                raise ImportError_(f"{p}: a folder with no .sv or .v file")
            files += [os.path.join(p, f) for f in sorted(found, key=lambda f: (not f.endswith("_pkg.sv"), f))]
        else:
            files.append(p)
    return files


def read_top(files, top=None, verilator="verilator"):
    """(top module, {port: (direction, bits)}) of the sources, read by `verilator --xml-only` (the top
    Verilator picks when `top` is None), the sources' folders on the include path."""
    includes = sorted({os.path.dirname(os.path.abspath(f)) for f in files})
    with tempfile.TemporaryDirectory() as d:
        xml = os.path.join(d, "top.xml")
        cmd = [verilator, "--xml-only", "--xml-output", xml, "-Wno-fatal", "-Wno-lint", "-Wno-style", "--no-timing",
               "--timescale", "1ps/1ps", "--Mdir", os.path.join(d, "obj")]
        cmd += (["--top-module", top] if top else []) + [f"-I{i}" for i in includes] + list(files)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise ImportError_(f"cannot run {verilator}: {e}")
        if p.returncode != 0:
            errs = [ln for ln in p.stderr.splitlines() if ln.startswith("%Error")]
            raise ImportError_(f"Verilator cannot read the sources: {errs[0] if errs else p.stderr.strip()[:300]}")
        root = ET.parse(xml).getroot()
    # The hierarchy's roots: each a <cells> list of its own (several when no one instantiates the others).
    tops = [c.get("submodname") for cells in root.findall("cells") for c in cells.findall("cell")]
    if len(tops) != 1:
        raise ImportError_(f"{len(tops)} top modules ({', '.join(tops)}): name the accelerator's with --top" if tops
                           else "Verilator found no top module in the sources")
    dtypes = {d.get("id"): d for d in root.iter() if d.get("id") is not None and d.tag.endswith("dtype")}
    for mod in root.iter("module"):
        if mod.get("name") == tops[0]:
            found = {}
            for v in mod.findall("var"):
                if v.get("dir") in ("input", "output"):
                    found[v.get("name")] = (v.get("dir"), dutgen_ports._dtype_bits(dtypes, v.get("dtype_id")) or 1)
                elif v.get("dir"):
                    raise ImportError_(f"port {v.get('name')} of {mod.get('name')} is an {v.get('dir')}: "
                                       "the testbench drives inputs and reads outputs only")
            return mod.get("name"), found
    raise ImportError_("Verilator found no top module in the sources")


def lint_stops(files, top, verilator="verilator"):
    """{code: first message} of the errors with a code that `verilator --lint-only` stops on (the
    build would too): BLKANDNBLK, say, which -Wno-<code> in verilator_args may waive."""
    includes = sorted({os.path.dirname(os.path.abspath(f)) for f in files})
    cmd = [verilator, "--lint-only", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--no-timing", "--timescale", "1ps/1ps",
           "--top-module", top] + [f"-I{i}" for i in includes] + list(files)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError:
        return {}
    stops = {}
    for ln in p.stderr.splitlines():
        m = re.match(r"%Error-([A-Z0-9_]+): (.*)", ln)
        if m:
            stops.setdefault(m.group(1), m.group(2))
    return stops


def _base(name):
    """A port's name without its _i / _o suffix."""
    return re.sub(r"_(i|o|ni|no)$", "", name)


def _find(ports, claimed, *names, direction=None):
    """The first unclaimed port whose name (its _i / _o suffix aside, case aside) is one of `names`."""
    for want in names:
        for p, (d, _) in ports.items():
            if p not in claimed and _base(p).lower() == want and (direction is None or d == direction):
                return p
    return None


def _ending(ports, ends):
    """The one 1-bit input whose name (its _i aside) ends in one of `ends` after an underscore
    (s_axi_aclk, S_AXI_ARESETN: an interface's clock and reset when the design has no other); None
    when none or several do."""
    found = [p for p, (d, w) in ports.items() if d == "input" and w == 1 and
             any(_base(p).lower().endswith("_" + e) or _base(p).lower().endswith("_a" + e) for e in ends)]
    return found[0] if len(found) == 1 else None


def _signal(ports, claimed, prefix, sig):
    """The unclaimed port <prefix><sig> (any case of sig, with or without _i / _o)."""
    for p in ports:
        if p not in claimed and p.startswith(prefix) and _base(p[len(prefix):]).lower() == sig:
            return p
    return None


def _spelling(port, prefix):
    """(case, suffix) of an interface's pins from one of them: upper when the signal is, io with _i / _o."""
    rest = port[len(prefix):]
    return ("upper" if rest.isupper() else "lower"), ("io" if re.search(r"_(i|o)$", rest) else "none")


def _iface_name(prefix, taken):
    """An interface's name from its pins' prefix (Vitis's m_axi_gmem0_: gmem0), unique among `taken`."""
    bundle = re.fullmatch(r"[ms]_axi_(\w+?)_?", prefix, re.I)
    name = re.sub(r"[^a-z0-9_]", "_", (bundle.group(1) if bundle else prefix).strip("_").lower()) or "port"
    if not name[0].isalpha():
        name = "p_" + name
    n, k = name, 2
    while n in taken:
        n, k = f"{name}{k}", k + 1
    taken.add(n)
    return n


def _by_prefix(res, names, ports, claimed, prefix, pin, kind, signals, extra):
    """An interface of `kind` whose pins are <prefix><signal>: its spelling from `pin`, its keys `extra`,
    the ports whose rest matches `signals` (a regex, with or without _i / _o) claimed."""
    case, suffix = _spelling(pin, prefix)
    it = {"name": _iface_name(prefix, names), "kind": kind, "prefix": prefix, "case": case}
    if suffix == "io":
        it["suffix"] = "io"
    it.update(extra)
    res["interfaces"].append(it)
    claimed.update(x for x in ports
                   if x.startswith(prefix) and re.fullmatch(signals + r"(_[io])?", x[len(prefix):], re.I))


def classify(ports):
    """The manifest's ports from the top's {port: (direction, bits)}: clock, reset, interfaces, tie,
    debug, control ('ap_ctrl': start and done on pins; 'vitis': the control map on s_axi_control;
    or None), the ap_ctrl port's arguments and results."""
    claimed, names = set(), set()
    res = {"interfaces": [], "tie": {}, "debug": [], "control": None, "arguments": [], "results": []}
    clock = _find(ports, claimed, *CLOCKS, direction="input") or _ending(ports, ("clk", "clock"))
    if clock is None:
        raise ImportError_("no clock input (clk, clk_i, aclk, ap_clk, clock): name the clock port clk or edit the "
                           "manifest this writes")
    claimed.add(clock)
    res["clock"] = clock
    reset = _find(ports, claimed, *RESETS, direction="input") or _ending(ports, ("resetn", "reset_n", "rst_n", "rstn",
                                                                                "reset", "rst"))
    if reset is None:
        raise ImportError_("no reset input (rst, rst_n, rst_ni, aresetn, ap_rst_n, reset)")
    claimed.add(reset)
    # Active low when its name says so: rst_n, rst_ni (an input's _i after the n), aresetn, nrst.
    res["reset"] = (reset, "low" if re.search(r"(n|_n|_ni|n_i)$|^n", reset.lower()) else "high")
    # AXI4 masters and AXI4-Lite slaves, by their address ports (a master may have one side only).
    for p in ports:
        m = re.fullmatch(r"(.*?)(aw|ar)addr(_[io])?", p, re.I)
        if m is None or p in claimed:
            continue
        prefix = m.group(1)
        has = {s: any(x.lower() in ((prefix + s).lower(), (prefix + s + "_o").lower()) for x in ports)
               for s in ("awaddr", "araddr", "awlen", "arlen")}
        master = ports[p][0] == "output"
        if master != (has["awlen"] or has["arlen"]):
            continue  # an AXI4 slave or an AXI4-Lite master: neither is an interface the testbench serves
        extra = {"addr_width": ports[p][1]} if not master else {}
        if master and has["awaddr"] != has["araddr"]:
            extra["channels"] = "read" if has["araddr"] else "write"
        _by_prefix(res, names, ports, claimed, prefix, p, "axi4" if master else "axi4lite", r"(aw|w|b|ar|r)[a-z]*",
                   extra)
    # AXI-Streams by TVALID / TREADY / TDATA.
    for p in ports:
        m = re.fullmatch(r"(.*?)tvalid(_[io])?", p, re.I)
        if m is None or p in claimed:
            continue
        prefix = m.group(1)
        data = _signal(ports, claimed, prefix, "tdata")
        if data is None or _signal(ports, claimed, prefix, "tready") is None:
            continue
        _by_prefix(res, names, ports, claimed, prefix, p, "axis_in" if ports[data][0] == "input" else "axis_out",
                   r"t(valid|ready|data|last|keep|strb|user|id|dest)", hls_import.stream_bytes(ports[data][1]))
    # valid / ready handshakes with their data ports.
    for p in ports:
        m = re.fullmatch(r"(.*?)valid(_[io])?", p, re.I)
        if m is None or p in claimed:
            continue
        stem, d = m.group(1), ports[p][0]
        ready = next((x for x in ports if x not in claimed and x.startswith(stem) and
                      _base(x[len(stem):]).lower() == "ready" and ports[x][0] != d), None)
        base = stem.rstrip("_")
        data = [x for x in ports if x not in claimed and x not in (p, ready) and ports[x][0] == d and
                x.lower().startswith(base.lower()) and "data" in x.lower()]  # in the order the top declares them
        if ready is None or not data:
            continue
        signals = {"tvalid": p, "tready": ready, "tdata": data[0] if len(data) == 1 else data}
        last = next((x for x in ports if x not in claimed and x.startswith(stem) and
                     _base(x[len(stem):]).lower() == "last" and ports[x][0] == d), None)
        if last:
            signals["tlast"] = last
        it = {"name": _iface_name(base or "stream", names), "kind": "axis_in" if d == "input" else "axis_out"}
        if len(data) == 1:  # several ports: their widths give the beat's bytes
            it.update(hls_import.stream_bytes(ports[data[0]][1]))
        it["signals"] = signals
        res["interfaces"].append(it)
        claimed.update([p, ready] + data + ([last] if last else []))
    # Block-level control: start and done on pins.
    start = _find(ports, claimed, *STARTS, direction="input")
    done = _find(ports, claimed, *DONES, direction="output")
    if start and done:
        signals = {"start": start, "done": done}
        for sig, names_ in (("idle", ("ap_idle", "idle")), ("ready", ("ap_ready", "ready"))):
            pin = _find(ports, claimed | {start, done}, *names_, direction="output")
            if pin:
                signals[sig] = pin
        res["interfaces"].insert(0, {"name": "control", "kind": "ap_ctrl", "signals": signals})
        claimed.update(signals.values())
        res["control"] = "ap_ctrl"
    irq = _find(ports, claimed, *IRQS, direction="output")
    if irq and ports[irq][1] == 1:
        res["interfaces"].append({"name": "interrupt", "kind": "irq", "port": irq})
        claimed.add(irq)
    vitis = [it for it in res["interfaces"] if it["kind"] == "axi4lite" and it["prefix"].lower() == "s_axi_control_"]
    if vitis and res["control"] is None:
        # Vitis's RTL kernel convention: the control map (ap_ctrl_hs) on s_axi_control.
        vitis[0]["name"] = "control"
        res["control"] = "vitis"
    for p, (d, _) in ports.items():
        if p in claimed:
            continue
        if res["control"] == "ap_ctrl":
            (res["arguments"] if d == "input" else res["results"]).append(p)
        elif d == "input":
            res["tie"][p] = 0
        else:
            res["debug"].append(p)
    return res


def _rel(path, start):
    return os.path.relpath(os.path.abspath(path), start)


def manifest(name, files, rtl_dir, top=None, verilator="verilator"):
    """(manifest YAML text, summary lines) of the accelerator in `files`, for a manifest written in
    `rtl_dir` (its sources named relative to it)."""
    missing = [f for f in files if not os.path.isfile(f)]
    if missing:
        raise ImportError_(f"{missing[0]}: no such file")
    top, ports = read_top(files, top, verilator)
    p = classify(ports)
    widths = {n: w for n, (_, w) in ports.items()}
    L = hls_import.manifest_head(
        name, [f"{top}, hand-written RTL kept where it is, imported by `cosim new-dut --from-rtl`",
               "(scripts/rtl_import.py): its ports sorted into interfaces by their names. Check what the",
               "import says it tied or kept as debug pins."], top, top, [_rel(f, rtl_dir) for f in files],
        ["Verilator's warnings do not stop the build; an error that may be waived (BLKANDNBLK, say)",
         "goes here as -Wno-<CODE>."], "-Wno-fatal")
    L += ["", "ports:", f"  clock: {p['clock']}",
          f"  reset: {{port: {p['reset'][0]}, active: {p['reset'][1]}, cycles: 2}}", "  interfaces:"]
    for it in p["interfaces"]:
        L.append("    - {" + ", ".join(f"{k}: {_flow(v)}" for k, v in it.items()) + "}")
    if p["tie"]:
        L.append("  # Inputs that are no interface, held at 0: give each the value the accelerator needs.")
        L.append("  tie: {" + ", ".join(f"{n}: 0" for n in p["tie"]) + "}")
    if p["debug"]:
        L.append("  # Outputs that are no interface, recorded for the waveform and the hang diagnosis.")
        L.append("  debug: [" + ", ".join(p["debug"]) + "]")
    regs = []
    if p["control"] == "ap_ctrl":
        regs = [(off, rname, "rw", f"word {w} of input {pin}", pin, w)
                for off, rname, pin, w in hls_import.argument_registers(p["arguments"], widths)]
        regs += [(off, rname, "ro", f"word {w} of output {pin}, as of its done", pin, w)
                 for off, rname, pin, w in hls_import.argument_registers(p["results"], widths, 0x10 + 4 * len(regs))]
        L += ["control: ap_ctrl_hs", "", "registers:", hls_import.ctrl_registers(False)]
        L.append("  # The other ports, a 32-bit word of a pin each: inputs written by the op call's args, outputs")
        L.append("  # read back by its results.")
        for off, rname, access, what, pin, w in regs:
            L.append(f"  - {{name: {rname}, offset: {off:#04x}, access: {access}, pin: {pin}, word: {w}, "
                     f"desc: \"{what}\"}}")
    elif p["control"] == "vitis":
        L += ["control: ap_ctrl_hs", "", "registers:", hls_import.ctrl_registers(False)]
        L.append("  # The kernel's arguments from 0x10, as its control slave decodes them, e.g.")
        L.append("  #   - {name: SIZE, offset: 0x10, access: rw}")
    else:
        L += ["control: none", "registers: []"]
    L += ["", "variants:", f"  - {{name: {name}_rtl, trace: true}}"]
    summary = [f"top {top}, {len(files)} file(s) kept where they are",
               f"clock {p['clock']}, reset {p['reset'][0]} (active {p['reset'][1]})",
               "interfaces: " + (", ".join(f"{i['name']} ({i['kind']}{_pins_note(i)})" for i in p["interfaces"])
                                 or "none")]
    summary.append("control: " + {
        "ap_ctrl": f"ap_ctrl_hs on pins (the testbench is its control adapter), {len(regs)} argument words",
        "vitis": "ap_ctrl_hs on s_axi_control (Vitis's control map, CTRL to ISR; add the kernel's argument "
                 "registers from 0x10 to the manifest)",
        None: "none (the op call's wait: none; its streams and buffers alone)"}[p["control"]])
    if p["tie"]:
        summary.append("tied at 0 (check): " + ", ".join(p["tie"]))
    if p["debug"]:
        summary.append("debug outputs: " + ", ".join(p["debug"]))
    for code, what in lint_stops(files, top, verilator).items():
        summary.append(f"Verilator stops on {code} ({what}); where the RTL is right as written, "
                       f"add -Wno-{code} to verilator_args")
    return "\n".join(L) + "\n", summary


def _flow(v):
    """A value of a manifest's flow mapping: a dict as {k: v, ...}, a list as [a, b]."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return str(v)


def _pins_note(it):
    """How an interface's pins were found, for the summary."""
    if it["kind"] == "irq":
        return f": {it['port']}"
    if "prefix" in it:
        return f", prefix {it['prefix']}" + (f", {it['channels']} only" if "channels" in it else "")
    s = it.get("signals", {})
    data = s.get("tdata")
    if isinstance(data, list):
        return f": {s['tvalid']} / {s['tready']}, one beat on {' + '.join(data)}"
    if data:
        return f": {s['tvalid']} / {s['tready']} / {data}"
    return ": " + " / ".join(s.values())
