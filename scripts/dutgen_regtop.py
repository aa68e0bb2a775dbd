"""The generated register block of a manifest (`register_block: generated`).

One description, one block: the manifest's registers become <dut>_reg_top, a
module on the common register bus (rtl/common/cosim_reg_slave) that decodes
addresses, stores what software owns, applies each field's access type and
hands the hardware two packed structs from <dut>_reg_pkg:

  <dut>_reg2hw_t  what the registers tell the hardware
      <reg>[_<field>]       the stored value (rw, rw1c, rc, w1t, and ro with
                            set/clr), the written bits (wo), or a one-cycle
                            pulse of the written ones (w1s)
      <reg>[_<field>]_qe    wo only: the cycle software writes the register
  <dut>_hw2reg_t  what the hardware tells the registers
      <reg>[_<field>]       the value software reads (`hw: value`, the
                            default of ro, wo and w1s fields)
      <reg>[_<field>]_set   sets a stored 1-bit field (`hw: [set]`)
      <reg>[_<field>]_clr   clears it (`hw: [clr]`); clear beats set, set
                            beats software
  one input <group>_i per read-only group, an unpacked array of its words in
  register order (not in hw2reg: counters change every cycle, and a wide
  struct would be copied whole each time), and one input <name>_i per write enable (`write_enable: <name>`): the
  register's (or field's) writes count only while it is high. A port of its
  own, not a member of hw2reg: hardware often derives hw2reg from the pulses
  a write enable gates, and one struct would make that a combinational loop.

Access types (OpenTitan reggen's names): ro read-only, rw read-write, wo
write-only (reads 0), rw1c write 1 to clear, rc clear on read, w1t write 1 to
toggle, w1s write 1 for a one-cycle pulse (self-clearing, reads 0). Writes and
set/clear act at the clock edge of the bus access; a read returns the value
before that edge (the slave's response holds it), and an rc field clears at it.
Pulses (w1s, the qe of wo) are combinational with the access, so a start bit
starts in the same cycle as with a hand-written block.
"""

ACCESS_STORED = ("rw", "rw1c", "rc", "w1t", "ro")
SW_WRITES = ("rw", "wo", "rw1c", "w1t", "w1s")
HW = ("value", "set", "clr")
DECODE = ("exact", "word")


def _hw_list(c, key, v):
    items = [v] if isinstance(v, str) else c.seq(key, v)
    for i, h in enumerate(items):
        if h not in HW:
            c.fail(f"{key}", f"expected one of {', '.join(HW)} (or a list of them), got {h!r}")
    return list(items)


def validate(c, m, lower):
    """Derives m['reg_block'] (None when the DUT brings its own block) and the
    per-field hardware interface; every rule is one clear error."""
    rb = m.get("register_block", "own")
    if isinstance(rb, str):
        rb = {"generate": rb == "generated"} if rb in ("own", "generated") else None
    if not isinstance(rb, dict):
        c.fail("register_block", f"expected 'own', 'generated' or a mapping, got {m.get('register_block')!r}")
    c.mapping("register_block", rb, (), ("generate", "decode"))
    gen = rb.get("generate", False)
    if not isinstance(gen, bool):
        gen = c.boolean("register_block.generate", gen)
    decode = rb.get("decode", "exact")
    if decode not in DECODE:
        c.fail("register_block.decode", f"expected one of {', '.join(DECODE)}, got {decode!r}")
    if not gen:
        m["reg_block"] = None
        for i, r in enumerate(m["registers"]):
            for key in ("width", "reset", "hw", "write_enable"):
                if key in r or (key != "width" and any(key in f for f in r["fields"])):
                    c.fail(f"registers[{i}].{key}",
                           "only for a generated register block (register_block: generated)")
        return
    if m["reg_port"].get("kind", "reg") != "reg":
        c.fail("register_block", "a generated register block needs a `reg` interface in ports.interfaces")

    fields, enables = [], []
    for i, r in enumerate(m["registers"]):
        k = f"registers[{i}]"
        lname = r["name"].lower()
        if "width" in r and r["fields"]:
            c.fail(f"{k}.width", "a register with fields takes its width from them")
        specs = r["fields"] or [dict(name=None, lsb=0, width=c.integer(f"{k}.width", r.get("width", 32), 1, 32),
                                     access=r["access"], reset=r.get("reset", 0), hw=r.get("hw"))]
        if r["fields"] and ("reset" in r or "hw" in r):
            c.fail(f"{k}", "reset and hw belong to the fields of a register that has them")
        owner = {}
        for j, f in enumerate(specs):
            fk = f"{k}.fields[{j}]" if r["fields"] else k
            flat = lname if f["name"] is None else f"{lname}_{f['name']}"
            acc = f["access"]
            # ro reads the hardware unless told to store; wo and w1s read 0 unless `hw: value`.
            hw = (["value"] if acc == "ro" else []) if f.get("hw") is None else _hw_list(c, f"{fk}.hw", f["hw"])
            if "value" in hw and len(hw) > 1:
                c.fail(f"{fk}.hw", "a field read from the hardware (value) is not also set or cleared here")
            if "value" in hw and acc not in ("ro", "wo", "w1s"):
                c.fail(f"{fk}.hw", f"hw: value is for ro, wo and w1s fields, not {acc}")
            if ("set" in hw or "clr" in hw) and f["width"] != 1:
                c.fail(f"{fk}.hw", "set and clr are for 1-bit fields")
            if ("set" in hw or "clr" in hw) and acc not in ACCESS_STORED:
                c.fail(f"{fk}.hw", f"set and clr need a stored field, not {acc}")
            reset = c.integer(f"{fk}.reset", f.get("reset", 0), 0, (1 << f["width"]) - 1)
            we = f.get("write_enable", r.get("write_enable"))
            if we is not None:
                c.string(f"{fk}.write_enable", we, lower, "a lower-case signal name")
                if acc not in SW_WRITES:
                    c.fail(f"{fk}.write_enable", f"{acc} fields are not written by software")
                if we not in enables:
                    enables.append(we)
            readable = acc not in ("wo", "w1s") or "value" in hw
            stored = acc in ACCESS_STORED and "value" not in hw
            for b in range(f["lsb"], f["lsb"] + f["width"]):
                for what, on in (("read", readable), ("write", acc in SW_WRITES)):
                    if on and (b, what) in owner:
                        c.fail(f"{fk}.bits", f"bit {b} is {what} by {owner[(b, what)]} too")
                    if on:
                        owner[(b, what)] = flat
            if r.get("group") and not (acc == "ro" and hw == ["value"] and not r["fields"]):
                c.fail(k, "a register of a group is a read-only word the hardware drives")
            fields.append(dict(reg=r, flat=flat, lsb=f["lsb"], width=f["width"], access=acc, hw=hw,
                               reset=reset, write_enable=we, readable=readable, stored=stored))
    names = {f["flat"] for f in fields}
    for e in enables:
        if e in names or e in m["groups"]:
            c.fail("registers", f"write_enable {e!r} has the name of a register field")
    m["reg_block"] = dict(decode=decode, fields=fields, enables=enables)


def _ty(width):
    return "logic" if width == 1 else f"logic [{width - 1}:0]"


def _member(width, name, note):
    return f"    {_ty(width):<14} {name + ';':<24} // {note}"


def gen_types(m):
    """The reg2hw / hw2reg structs, for the register package (empty when the
    DUT brings its own block)."""
    rb = m["reg_block"]
    if rb is None:
        return []
    n = m["name"]
    to_hw, from_hw = [], []
    for f in rb["fields"]:
        r, flat, w, acc = f["reg"], f["flat"], f["width"], f["access"]
        if f["stored"]:
            to_hw.append(_member(w, flat, f"{acc}, stored here"))
        elif acc == "wo":
            to_hw.append(_member(w, flat, "wo: the written bits"))
            to_hw.append(_member(1, flat + "_qe", "wo: high the cycle software writes them"))
        elif acc == "w1s":
            to_hw.append(_member(w, flat, "w1s: the written ones, for one cycle"))
        if "value" in f["hw"] and not r.get("group"):
            from_hw.append(_member(w, flat, f"{acc}: the value software reads"))
        for h in ("set", "clr"):
            if h in f["hw"]:
                from_hw.append(_member(1, f"{flat}_{h}", ("sets " if h == "set" else "clears ") + flat))
    L = ["", "  // The generated register block's interface (<dut>_reg_top, scripts/dutgen_regtop.py)."]
    for name, members in ((f"{n}_reg2hw_t", to_hw), (f"{n}_hw2reg_t", from_hw)):
        L.append("  typedef struct packed {")
        L.extend(reversed(members) if members else [_member(1, "unused", "nothing to carry")])
        L.append(f"  }} {name};")
    return L


def gen_sv(m, header, camel):
    """<dut>_reg_top: decode, storage and access types of the manifest's registers."""
    rb = m["reg_block"]
    n = m["name"]
    L = [header.rstrip("\n"),
         "// The register block: decode, storage and access types (scripts/dutgen_regtop.py).",
         "`timescale 1ps/1ps", "",
         f"module {n}_reg_top import {n}_reg_pkg::*; (",
         "  input  logic clk_i,",
         "  input  logic rst_ni,",
         "  input  logic                reg_req_valid_i,",
         "  output logic                reg_req_ready_o,",
         "  input  logic                reg_write_i,",
         f"  input  logic [RegAddrWidth-1:0] reg_addr_i,",
         "  input  logic [31:0]         reg_wdata_i,",
         "  output logic                reg_rsp_valid_o,",
         "  input  logic                reg_rsp_ready_i,",
         "  output logic [31:0]         reg_rdata_o,",
         f"  output {n}_reg2hw_t reg2hw_o,",
         f"  input  {n}_hw2reg_t hw2reg_i" + ("," if rb["enables"] or m["groups"] else "")] + [
         f"  input  logic [31:0] {g}_i [{len(rs)}]" + ("," if rb["enables"] or i + 1 < len(m["groups"]) else "")
         + f"  // group {g}, register order ({g}_e)" for i, (g, rs) in enumerate(m["groups"].items())] + [
         f"  input  logic {e}_i" + ("," if i + 1 < len(rb["enables"]) else "") + "  // write enable"
         for i, e in enumerate(rb["enables"])] + [
         ");", "",
         "  logic                    acc_valid, acc_write;",
         "  logic [RegAddrWidth-1:0] acc_addr;",
         "  logic [31:0]             acc_wdata, acc_rdata;",
         "  cosim_reg_slave #(.AddrWidth(RegAddrWidth)) u_slave (",
         "    .clk_i, .rst_ni,",
         "    .reg_req_valid_i, .reg_req_ready_o, .reg_write_i, .reg_addr_i, .reg_wdata_i,",
         "    .reg_rsp_valid_o, .reg_rsp_ready_i, .reg_rdata_o,",
         "    .acc_valid_o (acc_valid), .acc_write_o (acc_write), .acc_addr_o (acc_addr),",
         "    .acc_wdata_o (acc_wdata), .acc_rdata_i (acc_rdata)",
         "  );", ""]
    # Address hits. `decode: word` ignores the byte lanes of a byte address.
    low = "[RegAddrWidth-1:2]" if rb["decode"] == "word" and m["addr_shift"] == 0 else ""
    regs = m["registers"]
    L.append("  // One hit per register" + (" (byte lanes ignored)." if low else "."))
    for r in regs:
        L.append(f"  logic hit_{r['name'].lower()};")
        L.append(f"  assign hit_{r['name'].lower()} = acc_addr{low} == Reg{camel(r['name'])}{low};")
    # Bits of the write data or address no register reads are fine: a map need not be dense.
    used = set()
    for f in rb["fields"]:
        if f["access"] in SW_WRITES:
            used.update(range(f["lsb"], f["lsb"] + f["width"]))
    unused = [b for b in range(32) if b not in used]
    lo_unused = ["acc_addr[1:0]"] if low else []
    if unused or lo_unused:
        runs = []  # unused write-data bits as [hi:lo] ranges, high first
        for b in unused:
            if runs and runs[-1][0] == b - 1:
                runs[-1][0] = b
            else:
                runs.append([b, b])
        parts = [f"acc_wdata[{hi}:{lo}]" for hi, lo in reversed(runs)] + lo_unused
        width = len(unused) + (2 if low else 0)
        L.append("  // Write-data bits no field takes" + (" and the byte lanes" if low else "") + ".")
        L.append(f"  logic [{width - 1}:0] unused_bits;")
        L.append("  assign unused_bits = {" + ", ".join(parts) + "};")
    if not any(f["access"] == "rc" for f in rb["fields"]):
        L.append("  logic unused_valid;  // no clear-on-read field: reads have no effect")
        L.append("  assign unused_valid = acc_valid;")
    L.append("")

    def wd(f):
        return f"acc_wdata[{f['lsb'] + f['width'] - 1}:{f['lsb']}]" if f["width"] > 1 else f"acc_wdata[{f['lsb']}]"

    def we(f):
        cond = f"acc_write && hit_{f['reg']['name'].lower()}"
        return cond + (f" && {f['write_enable']}_i" if f["write_enable"] else "")

    # Pulses and write-only bits.
    for f in rb["fields"]:
        flat = f["flat"]
        if f["access"] == "wo":
            L.append(f"  assign reg2hw_o.{flat} = {wd(f)};")
            L.append(f"  assign reg2hw_o.{flat}_qe = {we(f)};")
        elif f["access"] == "w1s":
            L.append(f"  assign reg2hw_o.{flat} = ({we(f)}) ? {wd(f)} : '0;")
    # Stored fields: clear beats set beats software.
    for f in rb["fields"]:
        if not f["stored"]:
            continue
        flat, w, acc = f["flat"], f["width"], f["access"]
        q = f"{flat}_q"
        L.append("")
        L.append(f"  // {flat}: {acc}" + (" (" + ", ".join(f["hw"]) + " from the hardware)" if f["hw"] else ""))
        L.append(f"  {_ty(w)} {q};")
        L.append("  always_ff @(posedge clk_i or negedge rst_ni) begin")
        L.append(f"    if (!rst_ni) {q} <= {w}'d{f['reset']};")
        chain = []
        if "clr" in f["hw"]:
            chain.append((f"hw2reg_i.{flat}_clr", f"{q} <= 1'b0;"))
        if "set" in f["hw"]:
            chain.append((f"hw2reg_i.{flat}_set", f"{q} <= 1'b1;"))
        if acc == "rw":
            chain.append((we(f), f"{q} <= {wd(f)};"))
        elif acc == "rw1c":
            chain.append((we(f), f"{q} <= {q} & ~{wd(f)};"))
        elif acc == "w1t":
            chain.append((we(f), f"{q} <= {q} ^ {wd(f)};"))
        elif acc == "rc":
            chain.append((f"acc_valid && !acc_write && hit_{f['reg']['name'].lower()}", f"{q} <= '0;"))
        for cond, act in chain:
            L.append(f"    else if ({cond}) {act}")
        L.append("  end")
        L.append(f"  assign reg2hw_o.{flat} = {q};")
    # Read data: the addressed register's readable fields.
    L.append("")
    L.append("  always_comb begin")
    L.append("    acc_rdata = '0;")
    by_reg = {}
    for f in rb["fields"]:
        if f["readable"]:
            by_reg.setdefault(f["reg"]["name"], []).append(f)
    for r in regs:
        fs = by_reg.get(r["name"], [])
        if not fs:
            continue
        L.append(f"    if (hit_{r['name'].lower()}) begin")
        for f in fs:
            if r.get("group"):
                idx = m["groups"][r["group"]].index(r)
                src = f"{r['group']}_i[{idx}]"
            elif f["stored"]:
                src = f"{f['flat']}_q"
            else:
                src = f"hw2reg_i.{f['flat']}"
            hi = f["lsb"] + f["width"] - 1
            L.append(f"      acc_rdata[{hi}:{f['lsb']}] = {src};")
        L.append("    end")
    L.append("  end")
    L.append("")
    L.append("endmodule")
    return "\n".join(L) + "\n"

