#!/usr/bin/env python3
"""The Vitis-style template's top (templates/vitis, instantiated by the build
as vitisdut) has exactly a Vitis RTL kernel's ports and no shell: ap_clk,
ap_rst_n, an upper-case AXI4-Lite slave s_axi_control_*, two upper-case AXI4
masters m_axi_gmem0_* and m_axi_gmem1_*, and interrupt; nothing else. The
ports come from Verilator (--xml-only) on the instance's sources; the
expected names are spelled out here from the AXI4 / AXI4-Lite signal lists.

  test_vitis_top.py MANIFEST     (the build's vitisdut.yaml)
"""

import os
import re
import shutil
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LITE = {"AWVALID", "AWREADY", "AWADDR", "WVALID", "WREADY", "WDATA", "WSTRB", "BVALID", "BREADY", "BRESP",
        "ARVALID", "ARREADY", "ARADDR", "RVALID", "RREADY", "RDATA", "RRESP"}
AXI4 = {"AWVALID", "AWREADY", "AWADDR", "AWLEN", "WVALID", "WREADY", "WDATA", "WSTRB", "WLAST", "BVALID",
        "BREADY", "ARVALID", "ARREADY", "ARADDR", "ARLEN", "RVALID", "RREADY", "RDATA", "RLAST"}


def main(argv):
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    import dutgen  # noqa: E402
    import dutgen_ports  # noqa: E402
    m = dutgen.load(argv[1])
    verilator = shutil.which("verilator")
    with tempfile.TemporaryDirectory() as tmp:
        dutgen.write_if_changed(dutgen.outputs(m, tmp)["sv"], dutgen.gen_sv(m))
        files = [os.path.join(m["folder"], w) for w in m["waivers"]] + dutgen.lint_files(m, tmp)
        ports = dutgen_ports.top_ports(m, files, [os.path.join(REPO, "rtl", "common"), m["folder"]], verilator, tmp)
    want = {"ap_clk", "ap_rst_n", "interrupt"}
    want |= {"s_axi_control_" + s for s in LITE}
    want |= {f"m_axi_gmem{i}_{s}" for i in (0, 1) for s in AXI4}
    extra, missing = sorted(set(ports) - want), sorted(want - set(ports))
    for p in extra:
        print(f"unexpected port {p} (a shell or a debug port?)")
    for p in missing:
        print(f"missing port {p}")
    # No shell: the top is the kernel itself, its control slave a submodule.
    with open(os.path.join(m["folder"], m["sources"][-1]), encoding="utf-8") as f:
        text = f.read()
    if not re.search(rf"\bmodule\s+{m['top']}\b", text):
        print(f"{m['sources'][-1]} does not define the top {m['top']}")
        return 1
    print(f"{m['top']}: {len(ports)} ports, {len(extra)} unexpected, {len(missing)} missing")
    return 1 if extra or missing or len(ports) != len(want) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
