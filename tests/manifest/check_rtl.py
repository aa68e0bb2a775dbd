#!/usr/bin/env python3
"""Each DUT manifest against its RTL, read through Verilator.

For every rtl/<dut>/<dut>.yaml: Verilator parses the DUT (rtl/common, the
register package generated from the manifest, the manifest's sources, its
top) with --xml-only, and this checks, from Verilator's elaborated view:
  * every enum of the manifest: the generated ones in <dut>_reg_pkg, and the
    ones the RTL declares by hand (`rtl: <package>` or `rtl: <module>.<type>`,
    e.g. the FSM states tf2_controller.state_e the waveform view names):
    same items, same values, same width;
  * every register address parameter Reg<Name> (offset >> the port's address
    shift), register group bases and counts;
  * every debug vector (status_t, dbg_t): the packed struct's members, their
    widths and hence their bit positions.
So a state renumbered in the RTL, or a manifest that disagrees with it, fails
here. Exit status 0 when everything matches, 1 otherwise (one line per
difference).

  check_rtl.py [MANIFEST...]      every manifest of the tree, then these
"""

import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import dutgen  # noqa: E402  (re-runs this script under /usr/bin/python3 when PyYAML is missing)


def const_value(text):
    """Verilator's constant spelling ("4'h9", "32'sh10", "8'hc") -> int."""
    m = re.match(r"^(\d+)'s?([hdbo])([0-9a-fA-F_xz]+)$", text)
    if not m:
        raise ValueError(f"unexpected constant {text!r}")
    base = {"h": 16, "d": 10, "b": 2, "o": 8}[m.group(2)]
    return int(m.group(3).replace("_", ""), base)


def elaborate(m, tmp):
    files = dutgen.lint_files(m, tmp)
    dutgen.write_generated(m, tmp)
    out = os.path.join(tmp, m["name"] + ".xml")
    p = subprocess.run(["verilator", "--xml-only", "-Wno-fatal", "--timescale", "1ps/1ps", "-I" + os.path.join(REPO, "rtl", "common"),
                        "-I" + os.path.dirname(os.path.abspath(m["path"])), "--xml-output", out, "--top-module", m["top"]] + files,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"verilator --xml-only failed for {m['name']}:\n{p.stdout}")
    return ET.parse(out).getroot()


def widths(root):
    """dtype id -> bit width, for the basic and packed types used here."""
    w = {}
    for el in root.iter():
        i = el.get("id")
        if i is None:
            continue
        if el.get("left") is not None and el.get("right") is not None:
            w[i] = abs(int(el.get("left")) - int(el.get("right"))) + 1
        elif el.tag == "basicdtype":
            w[i] = {"logic": 1, "bit": 1, "int": 32, "integer": 32}.get(el.get("name"), 1)
    # enums take their base type's width
    for el in root.iter("enumdtype"):
        if el.get("sub_dtype_id") in w:
            w[el.get("id")] = w[el.get("sub_dtype_id")]
    return w


def check(m, root, skipped):
    errors = []
    n = m["name"]
    where = os.path.relpath(m["path"], REPO)
    # A foreign register block (a vendor kernel's own control slave) never
    # imports the generated package, and Verilator drops an unused package:
    # then only the hand-declared enums can be checked, and that is said.
    pkg = next((p for p in root.iter("package") if p.get("name") == f"{n}_reg_pkg"), None)
    if pkg is None:
        skipped.append(f"{n}_reg_pkg is not imported by the RTL (a register block of its own): register offsets, "
                       f"generated enums and debug vectors not checked")
    enums = {}
    for e in root.iter("enumdtype"):
        enums[e.get("name")] = {it.get("name"): const_value(it.find("const").get("name")) for it in e.iter("enumitem")}
    w = widths(root)
    enum_width = {e.get("name"): w.get(e.get("sub_dtype_id")) for e in root.iter("enumdtype")}
    for e in m["enums"]:
        if e.get("view_only"):
            continue
        rtl = e.get("rtl")
        if rtl is None:
            if pkg is None:
                continue
            key = f"{n}_reg_pkg::{e['name']}"
        elif "." in rtl:
            key = rtl
        else:
            key = f"{rtl}::{e['name']}"
        want = {it["name"]: it["value"] for it in e["items"]}
        got = enums.get(key)
        if got is None:
            errors.append(f"{where}: enums.{e['name']}: Verilator sees no enum {key}")
            continue
        if got != want:
            errors.append(f"{where}: enums.{e['name']}: RTL {key} is {got}, the manifest says {want}")
        if enum_width.get(key) not in (None, e["width"]):
            errors.append(f"{where}: enums.{e['name']}: RTL width {enum_width[key]}, the manifest says {e['width']}")

    if pkg is None:
        return errors
    params = {}
    for v in pkg.iter("var"):
        c = v.find("const")
        if v.get("param") == "true" and c is not None:
            params[v.get("name")] = const_value(c.get("name"))
    shift = m["addr_shift"]
    for r in m["registers"]:
        name = "Reg" + dutgen._camel(r["name"])
        if params.get(name) != r["offset"] >> shift:
            errors.append(f"{where}: registers.{r['name']}: RTL {name} = {params.get(name)}, "
                          f"the manifest says {r['offset'] >> shift}")
    for g, rs in m["groups"].items():
        G = dutgen._camel(g)
        if params.get(f"Reg{G}Base") != rs[0]["offset"] >> shift or params.get(f"Num{G}") != len(rs):
            errors.append(f"{where}: registers group {g}: RTL Reg{G}Base / Num{G} differ from the manifest")

    structs = {s.get("name"): s for s in root.iter("structdtype")}
    for d in m["debug"]:
        s = structs.get(f"{n}_reg_pkg::{d['name']}")
        if s is None:
            errors.append(f"{where}: debug.{d['name']}: Verilator sees no struct {n}_reg_pkg::{d['name']}")
            continue
        members = [(mm.get("name"), w.get(mm.get("sub_dtype_id"), 1)) for mm in s.findall("memberdtype")]
        pos = sum(x for _, x in members)
        if pos != d["width"]:
            errors.append(f"{where}: debug.{d['name']}: RTL struct is {pos} bits, the manifest says {d['width']}")
        got = {}
        for name, width in members:  # packed structs list the MSB first
            pos -= width
            got[name] = (pos, width)
        for f in d["fields"]:
            if got.get(f["name"]) != (f["lsb"], f["width"]):
                errors.append(f"{where}: debug.{d['name']}.{f['name']}: RTL bits {got.get(f['name'])} "
                              f"(lsb, width), the manifest says {(f['lsb'], f['width'])}")
    return errors


def main(argv):
    paths = dutgen.manifest_paths() + argv[1:]  # the tree's, then the extra ones (the build's template instances)
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        for p in paths:
            m = dutgen.load(p)
            root = elaborate(m, tmp)
            skipped = []
            e = check(m, root, skipped)
            errors += e
            n_enum = sum(1 for x in m["enums"] if not x.get("view_only"))
            print(f"{m['name']}: {len(m['registers'])} registers, {n_enum} enums, {len(m['debug'])} debug vectors: "
                  + ("ok" if not e else f"{len(e)} difference(s)") + "".join(f"; skipped: {x}" for x in skipped))
    for e in errors:
        print(e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
