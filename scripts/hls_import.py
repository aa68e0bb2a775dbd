"""The manifest of a kernel that Vitis or Vivado HLS generated, read from its
Verilog (what `cosim new-dut NAME --style vitis --from-hls DIR` writes).

HLS names every port after a convention, so the manifest follows from them:
  ap_clk / ap_rst_n (or ap_rst)     the clock and reset; ap_clk_2 a further clock
  s_axi_<B>_*                       the AXI4-Lite control port (one)
  m_axi_<B>_*                       an AXI4 master per bundle
  <S>_TDATA, _TVALID, _TREADY ...   an AXI4-Stream, in or out by TDATA's direction
  interrupt                         the interrupt pin
  ap_start, ap_done, ap_idle ...    block-level control on pins (no s_axi_ port, HLS's
                                    default): an ap_ctrl port, each scalar input an
                                    argument register a 32-bit word of its pin at a time
  <A>_address0, _ce0, _we0, _d0 ... an ap_memory array outside the kernel: an sram port
and the control port's registers come from the "Address Info" table HLS
writes at the top of <top>_<B>_s_axi.v: CTRL / GIE / IER / ISR at 0x00 to
0x0C, then one register per argument word (an argument wider than 32 bits
gets NAME_LO and NAME_HI, wider still NAME_0, NAME_1, ...; an ap_vld
"Control signal" NAME_CTRL, read-clear). Memories mapped into the control
port are left out (a manifest register is one word), each named in a
comment. Other inputs are tied to 0 (ap_ce, a pipelined kernel's clock
enable, to 1) and other outputs listed under `debug`, both with a comment,
so the manifest builds and says what it did.

Everything is parsed as text: HLS's Verilog declares one port per line,
in the module header or the body, which is all this reads.
"""
import os
import re

from dutgen_ports import storage_bytes

VERILOG = (".v", ".sv")
# Loops of up to this many iterations are unrolled (Verilator's default is 64): deep enough
# for the request and burst FIFOs HLS's AXI adapters shift in a loop.
UNROLL_COUNT = 1024


class ImportError_(Exception):
    """One line for the user: what is wrong with the HLS output."""


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def read_sources(folder):
    """{file name: text} of the Verilog files directly in `folder`."""
    if not os.path.isdir(folder):
        raise ImportError_(f"{folder}: not a folder (give the folder HLS wrote the kernel's Verilog to)")
    files = {}
    for f in sorted(os.listdir(folder)):
        path = os.path.join(folder, f)
        if f.endswith(VERILOG) and os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as fh:
                files[f] = fh.read()
    if not files:
        raise ImportError_(f"{folder}: no .v or .sv file")
    return files


def modules(files):
    """{module name: (file, its text from `module` to `endmodule`)}, comments removed."""
    found = {}
    for f, text in files.items():
        for m in re.finditer(r"\bmodule\s+(\w+)(.*?)\bendmodule\b", _strip_comments(text), flags=re.S):
            found[m.group(1)] = (f, m.group(2))
    return found


def marked_tops(files):
    """Modules HLS marks as a kernel's top: (* CORE_GENERATION_INFO = ... *) before `module`."""
    mark = re.compile(r"\(\*\s*CORE_GENERATION_INFO\s*=[^*]*\*\)\s*module\s+(\w+)")
    return {m.group(1) for text in files.values() for m in mark.finditer(text)}


def find_top(mods, top=None, marked=frozenset()):
    """The top module: `top` if given, else the one module with ap_clk that no other instantiates
    (of several, the one HLS marked, `marked`: an unused regslice variant has ap_clk too)."""
    if top is not None:
        if top not in mods:
            raise ImportError_(f"no module {top!r} in the folder (modules: {', '.join(sorted(mods))})")
        return top
    used = set()
    for name, (_, body) in mods.items():
        for other in mods:
            if other != name and re.search(r"(?m)^\s*" + re.escape(other) + r"(\s*#\s*\(|\s+\w+\s*\()", body):
                used.add(other)
    tops = sorted(n for n in mods if n not in used and re.search(r"\bap_clk\b", mods[n][1]))
    if len(tops) > 1 and len(set(tops) & set(marked)) == 1:
        tops = sorted(set(tops) & set(marked))
    if len(tops) != 1:
        raise ImportError_("cannot tell the kernel's top module: " +
                           (f"candidates {', '.join(tops)}; pass --top NAME" if tops else
                            "no module with an ap_clk port that no other module instantiates; pass --top NAME"))
    return tops[0]


# Words that start a statement `word word (` without being a module instantiated.
_KEYWORDS = {"module", "input", "output", "inout", "wire", "reg", "logic", "assign", "always", "initial", "if",
             "else", "for", "while", "case", "function", "task", "begin", "end", "generate", "genvar", "integer",
             "parameter", "localparam", "return", "signed", "unsigned", "default", "posedge", "negedge", "or",
             "and", "not", "automatic", "static", "wait", "repeat", "forever", "unique", "unique0", "priority",
             "casez", "casex", "assert", "assume", "cover", "property", "sequence", "foreach", "disable", "fork",
             "typedef", "struct", "enum", "import", "export", "bind", "always_ff", "always_comb", "always_latch",
             "final", "do", "bit", "byte", "int", "shortint", "longint", "string"}


def instantiated(body):
    """Names of the modules a module body instantiates (`name #(` or `name inst (` at a statement's start)."""
    found = set()
    for m in re.finditer(r"(?m)^\s*([A-Za-z_]\w*)(?:\s*#\s*\(|\s+[A-Za-z_\\][\w\[\].$]*\s*\()", body):
        if m.group(1) not in _KEYWORDS:
            found.add(m.group(1))
    return found


def vendor_groups():
    """{primitive module name: group} of the stand-ins (rtl/vendor/primitives.txt, next to the scripts)."""
    here = os.path.dirname(os.path.abspath(__file__))
    groups = {}
    for path in (os.path.join(here, "..", "rtl", "vendor", "primitives.txt"),):
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("#") or ":" not in line:
                    continue
                group, files = line.split(":", 1)
                for f in files.split():
                    name = os.path.splitext(os.path.basename(f))[0]
                    if not name.startswith("cosim_"):
                        groups[name] = group.strip()
    return groups


def external_modules(mods, top):
    """(vendor groups, modules defined nowhere) below `top`: what the manifest's `vendor:` must select, and
    what no file of the folder and no stand-in provides."""
    vendor, missing, seen, todo = set(), set(), set(), [top]
    groups = vendor_groups()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for child in instantiated(mods[name][1]):
            if child in mods:
                todo.append(child)
            elif child in groups:
                vendor.add(groups[child])
            else:
                missing.add(child)
    return sorted(vendor), sorted(missing)


def ports(body):
    """[(name, 'input'|'output'|'inout')] of a module, from its declarations (ANSI or not)."""
    out, seen = [], set()
    decl = re.compile(r"\b(input|output|inout)\b\s*(?:wire|reg|logic)?\s*(?:signed)?\s*(?:\[[^\]]*\]\s*)*"
                      r"((?:\\?\w+\s*,\s*)*\\?\w+)\s*(?=[,;)])")
    for m in decl.finditer(body):
        for n in m.group(2).split(","):
            n = n.strip()
            if n and n not in seen and not re.fullmatch(r"input|output|inout|wire|reg|logic", n):
                seen.add(n)
                out.append((n, m.group(1)))
    return out


def port_widths(body):
    """{name: bits} of the ports whose declared range is numeric ([127:0]; none: 1 bit)."""
    out = {}
    decl = re.compile(r"\b(?:input|output|inout)\b\s*(?:wire|reg|logic)?\s*(?:signed)?\s*(\[\s*(\d+)\s*:\s*(\d+)\s*\])?"
                      r"\s*((?:\\?\w+\s*,\s*)*\\?\w+)\s*(?=[,;)])")
    for m in decl.finditer(body):
        bits = abs(int(m.group(2)) - int(m.group(3))) + 1 if m.group(1) else 1
        for n in m.group(4).split(","):
            out.setdefault(n.strip(), bits)
    return out


def parameter(body, name):
    m = re.search(r"\bparameter\s+(?:\w+\s+)?" + re.escape(name) + r"\s*=\s*(\d+)", body)
    return int(m.group(1)) if m else None


def stream_bytes(width):
    """{data_bytes: n} for a stream whose data is a whole number of bytes that Verilator stores in more
    (80 bits, ten nnet::array elements of 8 bits, in 12 bytes), {data_bits: n} for one that is no whole
    number of bytes (54 bits, three of 18); else nothing."""
    if width and width % 8:
        return {"data_bits": width}
    if width and storage_bytes(width) != width // 8:
        return {"data_bytes": width // 8}
    return {}


def interfaces(port_list, body):
    """The manifest's ports: clock, reset, clocks, interfaces, tie, debug; and the control bundle."""
    dirs = dict(port_list)
    claimed = set()
    if "ap_clk" not in dirs:
        raise ImportError_("the top has no ap_clk: not a kernel HLS generated (or give --top)")
    res = {"clock": "ap_clk", "interfaces": [], "tie": {}, "debug": [], "clocks": {}, "control": None}
    claimed.add("ap_clk")
    if "ap_rst_n" in dirs:
        res["reset"] = ("ap_rst_n", "low")
    elif "ap_rst" in dirs:
        res["reset"] = ("ap_rst", "high")
    else:
        raise ImportError_("the top has neither ap_rst_n nor ap_rst")
    claimed.add(res["reset"][0])
    for clk, rst in (("ap_clk_2", "ap_rst_n_2"),):
        if clk in dirs:
            res["clocks"][clk] = rst if rst in dirs else None
            claimed.update({clk, rst})
    names = [n for n, _ in port_list]
    lites = sorted({m.group(1) for n in names for m in [re.fullmatch(r"s_axi_(\w+?)_AWADDR", n)] if m})
    if len(lites) > 1:
        raise ImportError_(f"{len(lites)} AXI4-Lite slaves ({', '.join(lites)}): one control port is supported")
    for b in lites:
        prefix = f"s_axi_{b}_"
        width = parameter(body, f"C_S_AXI_{b.upper()}_ADDR_WIDTH") or 6
        res["interfaces"].append({"name": "control", "kind": "axi4lite", "prefix": prefix, "case": "upper",
                                  "addr_width": width})
        res["control"] = b
        claimed.update(n for n in names if n.startswith(prefix))
    masters = sorted({m.group(1) for n in names for m in [re.fullmatch(r"m_axi_(\w+?)_(?:AW|AR)ADDR", n)] if m})
    for b in masters:
        prefix = f"m_axi_{b}_"
        res["interfaces"].append({"name": b.lower(), "kind": "axi4", "prefix": prefix, "case": "upper"})
        claimed.update(n for n in names if n.startswith(prefix))
    widths = port_widths(body)
    for n in names:
        m = re.fullmatch(r"(\w+)_TDATA", n)
        if m is None or n in claimed:
            continue
        s = m.group(1)
        kind = "axis_in" if dirs[n] == "input" else "axis_out"
        # An interface's name is lower case (HLS 2020 and older name a stream of an array's element
        # input_1_V_data_0_V); its prefix keeps the port's spelling.
        res["interfaces"].append(dict({"name": s.lower(), "kind": kind, "prefix": s + "_", "case": "upper"},
                                      **stream_bytes(widths.get(n))))
        claimed.update(x for x in names if re.fullmatch(re.escape(s) + r"_T[A-Z]+", x))
    # ap_fifo (an hls::stream without an axis pragma): <s>_dout, _empty_n, _read in; <s>_din, _full_n, _write
    # out. A first-word-fall-through FIFO's handshake is a stream's: empty_n the valid, read the ready (in);
    # write the valid, full_n the ready (out). Newer HLS adds _num_data_valid / _fifo_cap inputs: tied.
    for n in names:
        m = re.fullmatch(r"(\w+)_(dout|din)", n)
        if m is None or n in claimed:
            continue
        s, d = m.groups()
        pins = ({"tdata": n, "tvalid": f"{s}_empty_n", "tready": f"{s}_read"} if d == "dout" else
                {"tdata": n, "tvalid": f"{s}_write", "tready": f"{s}_full_n"})
        want = {"tdata": "input" if d == "dout" else "output", "tvalid": "input" if d == "dout" else "output",
                "tready": "output" if d == "dout" else "input"}
        if any(dirs.get(pins[k]) != want[k] for k in pins):
            continue
        kind = "axis_in" if d == "dout" else "axis_out"
        res["interfaces"].append(dict({"name": s.lower(), "kind": kind}, **stream_bytes(widths.get(n)), signals=pins))
        claimed.update(pins.values())
        for extra in (f"{s}_num_data_valid", f"{s}_fifo_cap"):
            if dirs.get(extra) == "input":
                res["tie"][extra] = 0
                claimed.add(extra)
    # ap_memory: an array outside the kernel, <a>_address<k>, _ce<k>, _we<k>, _d<k>, _q<k> per port k, read
    # the cycle after its address (a block RAM's latency, HLS's default). The arrays lie one after the
    # other in the DRAM from 0, each as large as its address reaches, at 4 KiB boundaries; the ports of
    # a two-port array share its base.
    bases, free = {}, 0
    for n in names:
        m = re.fullmatch(r"(\w+)_address([01])", n)
        if m is None or n in claimed or dirs[n] != "output":
            continue
        a, k = m.groups()
        signals = {"addr": n}
        for sig, pin, d in (("en", "ce", "output"), ("we", "we", "output"), ("wdata", "d", "output"),
                            ("rdata", "q", "input")):
            if dirs.get(f"{a}_{pin}{k}") == d:
                signals[sig] = f"{a}_{pin}{k}"
        both = f"{a}_address{1 - int(k)}" in dirs
        data = widths.get(signals.get("rdata") or signals.get("wdata"), 32)
        if a not in bases:
            bases[a] = free
            free += (((1 << widths.get(n, 0)) * ((data + 7) // 8) + 0xfff) // 0x1000) * 0x1000
        iface = {"name": (f"{a}{k}" if both else a).lower(), "kind": "sram", "base": f"{bases[a]:#x}"}
        if data % 8:
            iface["data_bits"] = data  # 18 bits: three bytes an element in the DRAM, the bits above cleared
        elif storage_bytes(data) != data // 8:
            iface["data_bytes"] = data // 8  # 24 bits: three bytes an element in the DRAM, not Verilator's four
        res["interfaces"].append(dict(iface, signals=signals))
        res["memories"] = res.get("memories", 0) + 1
        claimed.update(signals.values())
    if "interrupt" in dirs:
        res["interfaces"].append({"name": "interrupt", "kind": "irq", "port": "interrupt"})
        claimed.add("interrupt")
    res["arguments"], res["results"], res["valid"] = [], [], {}
    if dirs.get("ap_start") == "input":
        # Block-level control on pins: the ap_ctrl binder is the control adapter, the scalar inputs its
        # argument registers.
        if res["control"] is not None:
            raise ImportError_("the kernel takes ap_start on a port and has an AXI4-Lite control port too: "
                               "one control is supported")
        res["interfaces"].insert(0, {"name": "control", "kind": "ap_ctrl"})
        res["control"] = "ap_ctrl"
        claimed.update(n for n in ("ap_start", "ap_done", "ap_idle", "ap_ready", "ap_continue") if n in dirs)
        # An argument's handshake inputs (ap_vld: its value is valid; ap_ack on an output: taken) are held
        # high, as a host whose arguments are set before ap_start would hold them.
        for n, d in port_list:
            base = re.sub(r"_ap_(vld|ack)$", "", n)
            if d == "input" and n != base and base in dirs and n not in claimed:
                res["tie"][n] = 1
                claimed.add(n)
        res["arguments"] = [n for n, d in port_list if d == "input" and n not in claimed and n != "ap_ce"]
        # Scalar outputs (ap_return, an argument passed by reference) are read-only registers, latched
        # when their ap_vld strobe is high (their `valid`); HLS's other ap_* outputs stay debug outputs.
        res["results"] = [n for n, d in port_list if d == "output" and n not in claimed and
                          (n == "ap_return" or not n.startswith("ap_")) and not n.endswith("_ap_vld")]
        res["valid"] = {n: f"{n}_ap_vld" for n in res["results"] if dirs.get(f"{n}_ap_vld") == "output"}
        claimed.update(res["arguments"] + res["results"] + list(res["valid"].values()))
    for n, d in port_list:
        if n in claimed:
            continue
        if d == "input":
            res["tie"][n] = 1 if n == "ap_ce" else 0  # ap_ce: the clock enable of a pipelined kernel
        else:
            res["debug"].append(n)
    return res


def register_base(pin):
    """The register name of a scalar port (its words' names add _LO / _HI or _0, _1, ...)."""
    return re.sub(r"\W", "_", pin).upper()


def argument_registers(names, widths, off=0x10):
    """[(offset, name, pin, word)] of a block-level kernel's scalar ports, from `off` a word each:
    NAME for up to 32 bits, NAME_LO / NAME_HI for 64, NAME_0 ... beyond."""
    regs = []
    for n in names:
        if n not in widths:
            raise ImportError_(f"the width of input {n} is not a number in its declaration")
        words = (widths[n] + 31) // 32
        base = register_base(n)
        suffixes = [""] if words == 1 else ["_LO", "_HI"] if words == 2 else [f"_{w}" for w in range(words)]
        for w, sfx in enumerate(suffixes):
            regs.append((off, base + sfx, n, w))
            off += 4
    return regs


def port_summary(p, widths, most=6):
    """The scalar ports of a block-level kernel as the op call names them, with their widths: the
    first `most`, then how many more."""
    ports = [f"in {register_base(n)} ({widths[n]} bits)" for n in p["arguments"]]
    ports += [f"out {register_base(n)} ({widths[n]} bits" + (", as of its ap_vld)" if n in p["valid"] else ")")
              for n in p["results"]]
    return ", ".join(ports[:most]) + (f", ... {len(ports) - most} more" if len(ports) > most else "")


def chained(text):
    """Whether the control map has ap_continue (ap_ctrl_chain, Vitis HLS's default for kernels)."""
    return re.search(r"//\s*bit\s+4\s*-\s*ap_continue\b", text) is not None


def address_map(text):
    """([(offset, name, access, comment)], [memories left out]) of an HLS s_axi file's Address Info table."""
    m = re.search(r"-+Address Info-+\n(.*?)\n\s*(?://\s*\(SC = |//\s*-{8,}|[^/\s])", text, flags=re.S)
    if not m:
        raise ImportError_("no 'Address Info' table in the control port's Verilog")
    lines = [re.sub(r"^\s*//\s?", "", ln) for ln in m.group(1).splitlines()]
    regs, skipped = [], []
    entry = None
    pending_range = None
    for ln in lines:
        r = re.match(r"(0x[0-9a-fA-F]+)\s*~\s*$", ln)
        if r:
            pending_range = int(r.group(1), 16)
            continue
        e = re.match(r"(0x[0-9a-fA-F]+)\s*:\s*(.*\S)", ln)
        if e:
            off, what = int(e.group(1), 16), e.group(2)
            if pending_range is not None:
                skipped.append(f"{pending_range:#x} to {off:#x}: {what}")
                pending_range, entry = None, None
                continue
            entry = {"offset": off, "what": what, "bits": []}
            regs.append(entry)
            continue
        b = re.match(r"\s*bit\s+(\d+)(?:~(\d+))?\s*-\s*(\w+)(?:\[(\d+):(\d+)\])?", ln)
        if b and entry is not None:
            entry["bits"].append(b.groups())
    out = []
    for e in regs:
        what = e["what"]
        d = re.match(r"Data signal of (\w+)", what)
        c = re.match(r"Control signal of (\w+)", what)
        if d:
            arg = d.group(1)
            words = [r for r in regs if re.match(r"Data signal of " + re.escape(arg) + r"$", r["what"])]
            idx = words.index(e)
            name = arg.upper() if len(words) == 1 else (
                f"{arg.upper()}_{'LO' if idx == 0 else 'HI'}" if len(words) == 2 else f"{arg.upper()}_{idx}")
            out.append((e["offset"], name, "rw", f"{arg}, word {idx}" if len(words) > 1 else arg))
        elif c:
            out.append((e["offset"], c.group(1).upper() + "_CTRL", "rc", f"{c.group(1)}'s handshake (ap_vld)"))
    return out, skipped


_READMEM = re.compile(r'(\$readmem[hb]\s*\(\s*")([^"]+)(")')


def rom_files(files):
    """{path as written: file name} of the memory images HLS's ROMs read ($readmemh("./x_rom.dat", ...))."""
    return {m.group(2): f for f, text in files.items() for m in _READMEM.finditer(text)}


def relocate_roms(text, where):
    """`text` with each $readmem path P replaced by where[P] (the image's copy, an absolute path): a
    relative path would be read from whatever folder the run starts in."""
    return _READMEM.sub(lambda m: m.group(1) + where.get(m.group(2), m.group(2)) + m.group(3), text)


def control_file(files, top, bundle):
    """The text of the control port's Verilog (module <top>_<bundle>_s_axi)."""
    want = f"{top}_{bundle}_s_axi"
    for f, text in files.items():
        if re.search(r"\bmodule\s+" + re.escape(want) + r"\b", text):
            return text
    raise ImportError_(f"no module {want} (the control port's registers) in the folder")


def isr_clears_on_read(text):
    """Whether the table's ISR clears on read (Vitis HLS 2022.1) instead of toggling on write."""
    m = re.search(r"//\s*0x0c\s*:\s*IP Interrupt Status Register\s*\(([^)]*)\)", text)
    return m is not None and "COR" in m.group(1)


def ctrl_registers(chain, isr_rc=False):
    """CTRL, GIE, IER, ISR as the manifest writes them (ap_continue with ap_ctrl_chain)."""
    cont = '      - {name: ap_continue, bits: "4", access: w1s}\n' if chain else ""
    return ("  - name: CTRL\n    offset: 0x00\n    access: rw\n    fields:\n"
            '      - {name: ap_start, bits: "0", access: w1s}\n'
            '      - {name: ap_done, bits: "1", access: rc}\n'
            '      - {name: ap_idle, bits: "2", access: ro}\n'
            '      - {name: ap_ready, bits: "3", access: rc}\n' + cont +
            '      - {name: auto_restart, bits: "7", access: rw}\n'
            "  - {name: GIE, offset: 0x04, access: rw}\n"
            "  - {name: IER, offset: 0x08, access: rw}\n"
            f"  - {{name: ISR, offset: 0x0c, access: {'rc' if isr_rc else 'w1t'}}}")


def manifest(name, folder, files, top=None):
    """(manifest YAML text, summary lines) of the kernel in `files` (HLS's Verilog folder)."""
    mods = modules(files)
    top = find_top(mods, top, marked_tops(files))
    top_file, body = mods[top]
    vendor, missing = external_modules(mods, top)
    if missing:
        ips = [m for m in missing if m.endswith("_ip")]
        raise ImportError_(f"{top} instantiates modules no file of the folder defines: {', '.join(missing)}" +
                           (" (Xilinx IP such as HLS's floating-point cores, which has no source to simulate)"
                            if ips else " (a vendor primitive without a stand-in, or a file left out)"))
    port_list = ports(body)
    p = interfaces(port_list, body)
    regs, skipped, chain, isr_rc = [], [], False, False
    widths = port_widths(body)
    if p["control"] == "ap_ctrl":
        chain = "ap_continue" in dict(port_list)
        regs = [(off, rname, "rw", f"word {w} of input {pin}", pin, w)
                for off, rname, pin, w in argument_registers(p["arguments"], widths)]
        regs += [(off, rname, "ro", f"word {w} of output {pin}, as of " +
                  (f"{p['valid'][pin]}" if pin in p["valid"] else "ap_done"), pin, w, p["valid"].get(pin))
                 for off, rname, pin, w in argument_registers(p["results"], widths, 0x10 + 4 * len(regs))]
    elif p["control"] is not None:
        control_text = control_file(files, top, p["control"])
        regs, skipped = address_map(control_text)
        chain, isr_rc = chained(control_text), isr_clears_on_read(control_text)
    rel = sorted(files)
    rel.remove(top_file)
    rel.append(top_file)  # the top last, as HLS's own file lists have it
    L = manifest_head(name, [f"the HLS kernel {top} from {folder}, imported by `cosim new-dut --from-hls`",
                             "(scripts/hls_import.py): ports by HLS's naming, registers from its Address Info table."],
                      f"HLS kernel {top}", top, rel,
                      ["HLS's Verilog is not lint-clean: its warnings do not stop the build. Its AXI adapters",
                       "shift their request FIFOs in a for loop of delayed assignments: unrolled, each stage is",
                       "simulated (Verilator 5.006 refuses a deep one as BLKLOOPINIT, and with -Wno-BLKLOOPINIT",
                       "keeps only the loop's last assignment)."],
                      f"-Wno-fatal, --unroll-count, '{UNROLL_COUNT}'")
    L.append(f"waivers: [{name}.vlt]")
    if vendor:
        L.append(f"vendor: [{', '.join(vendor)}]   # the stand-ins of the vendor primitives it instantiates")
    L += ["", "ports:", "  clock: ap_clk",
          f"  reset: {{port: {p['reset'][0]}, active: {p['reset'][1]}, cycles: 2}}"]
    if p["clocks"]:
        L.append("  # Set each further clock's frequency over ap_clk's (ratio).")
        L.append("  clocks:")
        for clk, rst in p["clocks"].items():
            L.append(f"    {clk}: {{ratio: 1" + (f", reset: {rst}" if rst else "") + "}")
    L.append("  interfaces:")
    if p.get("memories"):
        L.append("    # sram: an ap_memory array outside the kernel, from the DRAM byte address `base` (the arrays one")
        L.append("    # after another; your scenario's buffers go there: change a base to suit them).")
    for i in p["interfaces"]:
        L.append("    - {" + ", ".join(f"{k}: {_yaml(v)}" for k, v in i.items()) + "}")
    if p["tie"]:
        L.append("  # Inputs that are no interface: held at 0, ap_ce and an argument's ap_vld / ap_ack at 1 (change")
        L.append("  # a value if the kernel needs another).")
        L.append("  tie: {" + ", ".join(f"{n}: {v}" for n, v in p["tie"].items()) + "}")
    if p["debug"]:
        L.append("  # Outputs that are no interface, recorded for the waveform and the hang diagnosis.")
        L.append("  debug: [" + ", ".join(p["debug"]) + "]")
    if p["control"] is not None:
        L += [f"control: {'ap_ctrl_chain' if chain else 'ap_ctrl_hs'}", "", "registers:"]
        L.append(ctrl_registers(chain, isr_rc))
        if p["control"] == "ap_ctrl":
            L.append("  # The scalar ports, a 32-bit word of a pin each (pin, word): inputs written by the op call's")
            L.append("  # args, outputs (ro) read back, e.g. by its results.")
        for off, rname, access, what, *pin in regs:
            on_pin = f", pin: {pin[0]}, word: {pin[1]}" if pin else ""
            on_pin += f", valid: {pin[2]}" if len(pin) > 2 and pin[2] else ""
            L.append(f"  - {{name: {rname}, offset: {off:#04x}, access: {access}{on_pin}, desc: \"{what}\"}}")
        for s in skipped:
            L.append(f"  # not a register here (a memory in the control port): {s}")
    else:
        L += ["control: none", "registers: []"]
    L += ["", "variants:", f"  - {{name: {name}_rtl, trace: true}}"]
    summary = [f"top {top} ({top_file}), {len(rel)} files",
               "interfaces: " + ", ".join(f"{i['name']} ({i['kind']}" + (f" at {i['base']}" if "base" in i else "") + ")"
                                         for i in p["interfaces"]),
               f"registers: {len(regs)} argument words" + (f", {len(skipped)} memories left out" if skipped else ""),
               "control: " + ("none" if p["control"] is None else "ap_ctrl_chain" if chain else "ap_ctrl_hs") +
               (" on pins (ap_start, ap_done, ...: the testbench is its control adapter)"
                if p["control"] == "ap_ctrl" else "")]
    if p["control"] == "ap_ctrl" and (p["arguments"] or p["results"]):
        summary.append("ports (the op call's args and results by these names; a batch: per_call files): " +
                       port_summary(p, widths))
    if p["tie"]:
        summary.append("tied: " + ", ".join(f"{n}={v}" for n, v in p["tie"].items()))
    if vendor:
        summary.append("vendor stand-ins: " + ", ".join(vendor))
    return "\n".join(L) + "\n", summary


def manifest_head(name, about, description, top, sources, args_about, args):
    """A manifest's first lines: what it is (`about`, comment lines after the name), name, description,
    top, sources, and verilator_args (the build's optimization, then `args`) with why (`args_about`)."""
    return ([f"# {name}: {about[0]}"] + [f"# {line}" for line in about[1:]] +
            [f"name: {name}", f"description: {description}", f"top: {top}", "sources:"] +
            [f"  - {f}" for f in sources] + [f"# {line}" for line in args_about] +
            [f"verilator_args: [-O3, --x-assign, fast, --x-initial, fast, {args}]"])


def _yaml(v):
    """A value of a manifest's flow mapping: a dict as {k: v, ...}."""
    return "{" + ", ".join(f"{k}: {x}" for k, x in v.items()) + "}" if isinstance(v, dict) else str(v)


def waivers(name):
    return ("`verilator_config\n"
            "// HLS's Verilog is the generator's, not yours to lint; Vitis names the\n"
            "// interrupt pin `interrupt`, a C++ word to Verilator.\n"
            f"lint_off -file \"*/rtl/{name}/*\"\n")
