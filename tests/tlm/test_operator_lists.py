#!/usr/bin/env python3
"""Every accelerator's operators have one home, as the template's do: the
list tb/<dut>/<dut>_ops.def (COSIM_OPERATOR(<op>) lines), which
<dut>_backend.cpp hands to cosim/operator_list.inc; no backend registers an
operator by hand.

  test_operator_lists.py COSIM SOURCE_DIR

Checks, for each tb/<dut>/<dut>_ops.def: `cosim list` shows target <dut>
with exactly the listed operators in the listed order; the backend names
its own list as COSIM_OPS_DEF before including cosim/operator_list.inc and
calls no add_operator( itself; every listed operator's factory
make_<op>_op() is defined in a tb/<dut>/<dut>_*_op.cpp (the files the
backend's CMake glob compiles). Standard library only."""
import glob
import os
import re
import subprocess
import sys


def main():
    cosim, src = sys.argv[1:3]
    listed = {}
    out = subprocess.run([cosim, "list"], capture_output=True, text=True, check=True).stdout
    for m in re.finditer(r"^  (\w+)\s+ops: ([\w, ]+?)(?:\s{2,}|\s*$)", out, re.M):
        listed[m.group(1)] = [o.strip() for o in m.group(2).split(",")]
    problems, defs = [], sorted(glob.glob(os.path.join(src, "tb", "*", "*_ops.def")))
    if not defs:
        problems.append("no tb/<dut>/<dut>_ops.def found")
    for d in defs:
        dut = os.path.basename(os.path.dirname(d))
        if os.path.basename(d) != f"{dut}_ops.def":
            problems.append(f"{d}: expected the name {dut}_ops.def")
            continue
        ops = re.findall(r"^COSIM_OPERATOR\((\w+)\)\s*$", open(d).read(), re.M)
        if listed.get(dut) != ops:
            problems.append(f"{dut}: cosim list shows {listed.get(dut)}, {dut}_ops.def lists {ops}")
        backend = open(os.path.join(src, "tb", dut, f"{dut}_backend.cpp")).read()
        by_hand = [ln for ln in backend.splitlines() if "add_operator(" in ln]
        if not re.search(rf'^#define COSIM_OPS_DEF "{dut}/{dut}_ops.def"\n#include "cosim/operator_list.inc"$',
                         backend, re.M):
            problems.append(f"{dut}_backend.cpp does not take its operators from {dut}_ops.def "
                            "through cosim/operator_list.inc")
        if by_hand:
            problems.append(f"{dut}_backend.cpp registers an operator by hand: {by_hand[0].strip()}")
        sources = "".join(open(f).read() for f in glob.glob(os.path.join(src, "tb", dut, f"{dut}_*_op.cpp")))
        for op in ops:
            if not re.search(rf"^std::unique_ptr<(?:tb::)?Operator> make_{op}_op\(\) \{{", sources, re.M):
                problems.append(f"{dut}: make_{op}_op() is not defined in a tb/{dut}/{dut}_*_op.cpp")
        print(f"{dut}: {', '.join(ops)}")
    for p in problems:
        print("FAIL " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
