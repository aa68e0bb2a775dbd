#!/usr/bin/env python3
"""Coverage figures from merged Verilator coverage files (<dut>.dat).

    coverage_report.py DIR          reads DIR/vta.dat, DIR/tf2.dat, DIR/tinydnn.dat

Prints, per DUT:
  * line, branch and toggle coverage: covered / total source points. A point
    is one Verilator counter identified by file, line, column and kind,
    across all instances of its module (a line counts as covered when any
    instance ran it). A line or branch point is covered at 1 hit; a toggle
    point (one bit of a signal) at 2, i.e. it rose and fell.
  * functional bins: the user cover points of the RTL (rtl/vta) and of the
    bound cover modules (tb/coverage/*_cover.sv), summed over instances, with
    their goal; rates (e.g. stall cycles / running cycles) against a goal
    rate. Every count comes from what the tests actually ran.

Python 3 standard library only. Exit status 0 when every functional goal is
met, 1 when one is not (each unmet goal is listed: `make coverage` fails on
it), 2 when no coverage file is found.
"""

import collections
import os
import re
import sys

# (label, description, goal hits). Labels are the cover property labels.
VTA_BINS = [
    ("cov_op_load", "LOAD instructions", 100),
    ("cov_op_store", "STORE instructions", 100),
    ("cov_op_gemm", "GEMM instructions", 100),
    ("cov_op_alu", "ALU instructions", 100),
    ("cov_op_finish", "FINISH instructions", 10),
    ("cov_bad_op", "undefined opcode (error path)", 1),
    ("cov_mem_inp", "LOAD INP", 50),
    ("cov_mem_wgt", "LOAD WGT", 50),
    ("cov_mem_uop", "LOAD UOP", 50),
    ("cov_mem_acc", "LOAD ACC", 50),
    ("cov_mem_acc8", "LOAD ACC_8BIT", 10),
    ("cov_alu_min", "ALU MIN", 20),
    ("cov_alu_max", "ALU MAX", 20),
    ("cov_alu_add", "ALU ADD", 20),
    ("cov_alu_shr", "ALU SHR", 20),
    ("cov_alu_mul", "ALU MUL", 20),
    ("cov_alu_imm", "ALU with immediate", 20),
    ("cov_alu_shl", "ALU SHR by a negative immediate (left shift)", 5),
    ("cov_pad_x0", "LOAD x_pad_0 > 0", 10),
    ("cov_pad_x1", "LOAD x_pad_1 > 0", 10),
    ("cov_pad_y0", "LOAD y_pad_0 > 0", 10),
    ("cov_pad_y1", "LOAD y_pad_1 > 0", 10),
    ("cov_stride_gap", "LOAD/STORE x_stride > x_size", 10),
    ("cov_pop_prev", "pop_prev_dep set", 20),
    ("cov_pop_next", "pop_next_dep set", 20),
    ("cov_push_prev", "push_prev_dep set", 20),
    ("cov_push_next", "push_next_dep set", 20),
    ("cov_ar_wait", "AR back-pressure cycles", 10),
    ("cov_r_wait", "R wait cycles (read latency)", 10),
    ("cov_w_wait", "W back-pressure cycles", 10),
    ("cov_insn_q_full", "an instruction queue full", 1),
    ("cov_error", "runs ending in the error flag", 1),
]
# (numerator label, denominator label, description, goal rate)
VTA_RATES = [
    ("cov_stall_l2c", "cov_running", "stall rate COMPUTE on load->compute", 0.01),
    ("cov_stall_c2l", "cov_running", "stall rate LOAD on compute->load", 0.01),
    ("cov_stall_c2s", "cov_running", "stall rate STORE on compute->store", 0.01),
    ("cov_stall_s2c", "cov_running", "stall rate COMPUTE on store->compute", 0.01),
]
TF2_BINS = [
    ("cov_layer", "layers accepted", 50),
    ("cov_k1", "kernel 1x1", 5),
    ("cov_k3", "kernel 3x3", 5),
    ("cov_k5", "kernel 5x5", 1),
    ("cov_k_other", "other kernel sizes", 1),
    ("cov_stride1", "stride 1", 5),
    ("cov_stride2", "stride 2", 5),
    ("cov_stride_gt2", "stride > 2", 1),
    ("cov_pad0", "no padding", 5),
    ("cov_pad", "padding > 0", 5),
    ("cov_relu", "ReLU", 5),
    ("cov_residual", "residual add", 1),
    ("cov_c_partial", "c_in not a multiple of 16", 5),
    ("cov_rejected", "descriptor rejected (error path)", 1),
]
TINYDNN_BINS = [
    ("cov_wr_weights", "write weights", 10),
    ("cov_wr_bias", "write bias", 5),
    ("cov_forward", "forward run", 10),
    ("cov_fwd_bias", "forward run with bias", 5),
    ("cov_backward", "backward (delta) run", 5),
    ("cov_dw", "weight-gradient run", 5),
    ("cov_dw_last", "weight-gradient run ending the batch", 1),
    ("cov_k1x1", "kernel 1x1", 1),
    ("cov_k3x3", "kernel 3x3", 1),
    ("cov_k5x5", "kernel 5x5", 1),
    ("cov_k_rect", "non-square kernel", 1),
    ("cov_batch", "more than one sample", 5),
    ("cov_rejected", "bad configuration (error path)", 1),
]
DUTS = [("vta", VTA_BINS, VTA_RATES), ("tf2", TF2_BINS, []), ("tinydnn", TINYDNN_BINS, [])]

POINT = re.compile(r"^C '(.*)' (\d+)$")


def parse(path):
    """Yields (fields dict, count) per coverage point of a .dat file."""
    with open(path, encoding="latin-1") as f:
        for line in f:
            m = POINT.match(line.rstrip("\n"))
            if not m:
                continue
            fields = {}
            for item in m.group(1).split("\x01")[1:]:
                key, _, value = item.partition("\x02")
                fields[key] = value
            yield fields, int(m.group(2))


def summarize(path):
    """Structural figures and user cover counts of one merged file."""
    points = collections.defaultdict(int)  # (kind, file, line, col, name) -> hits
    user = collections.defaultdict(int)    # label -> hits, over instances
    for fields, count in parse(path):
        kind = fields.get("page", "").split("/", 1)[0]
        if kind == "v_user":
            user[fields.get("o", "")] += count
            continue
        key = (kind, fields.get("f"), fields.get("l"), fields.get("n"), fields.get("o"))
        points[key] = max(points[key], count)
    figures = {}
    for kind, name, need in (("v_line", "line", 1), ("v_branch", "branch", 1), ("v_toggle", "toggle", 2)):
        counts = [c for k, c in points.items() if k[0] == kind]
        figures[name] = (sum(1 for c in counts if c >= need), len(counts))
    return figures, user


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    root = argv[1]
    found = False
    print("== structural coverage (covered / total points)")
    print(f"{'dut':<8} {'line':>22} {'branch':>22} {'toggle':>22}")
    reports = []
    for dut, bins, rates in DUTS:
        path = os.path.join(root, dut + ".dat")
        if not os.path.exists(path):
            print(f"{dut:<8} no data ({path} missing)")
            continue
        found = True
        figures, user = summarize(path)
        cells = [f"{pct(*figures[k]):5.1f}% ({figures[k][0]}/{figures[k][1]})" for k in ("line", "branch", "toggle")]
        print(f"{dut:<8} {cells[0]:>22} {cells[1]:>22} {cells[2]:>22}")
        reports.append((dut, bins, rates, user))

    unmet = []
    for dut, bins, rates, user in reports:
        print(f"\n== functional coverage: {dut}")
        print(f"{'bin':<46} {'hits':>12} {'goal':>10}  met")
        for label, desc, goal in bins:
            hits = user.get(label)
            if hits is None:
                print(f"{desc:<46} {'absent':>12} {goal:>10}  no   (cover point {label} not in the build)")
                unmet.append(f"{dut}: {desc}")
                continue
            met = hits >= goal
            print(f"{desc:<46} {hits:>12} {goal:>10}  {'yes' if met else 'no'}")
            if not met:
                unmet.append(f"{dut}: {desc}")
        for num, den, desc, goal in rates:
            n, d = user.get(num, 0), user.get(den, 0)
            rate = n / d if d else 0.0
            met = rate >= goal
            print(f"{desc:<46} {100 * rate:>11.2f}% {100 * goal:>9.1f}%  {'yes' if met else 'no'}"
                  f"   ({n} of {d} running cycles)")
            if not met:
                unmet.append(f"{dut}: {desc}")
    if reports:
        print(f"\nfunctional goals not met: {len(unmet)}" + ("" if not unmet else ": " + "; ".join(unmet)))
    if not found:
        return 2
    return 1 if unmet else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
