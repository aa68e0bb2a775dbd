#!/usr/bin/env python3
"""Coverage figures from merged Verilator coverage files (<dut>.dat).

    coverage_report.py DIR          reads DIR/<dut>.dat for every DUT manifest with coverage goals

Prints, per DUT:
  * line, branch and toggle coverage: covered / total source points. A point
    is one Verilator counter identified by file, line, column and kind,
    across all instances of its module (a line counts as covered when any
    instance ran it). A line or branch point is covered at 1 hit; a toggle
    point (one bit of a signal) at 2, i.e. it rose and fell.
  * functional bins: the user cover points of the RTL and of the bound cover
    modules (tb/<dut>/coverage/*_cover.sv), summed over instances, with the goal
    the DUT's manifest gives (rtl/<dut>/<dut>.yaml, key coverage); rates
    (e.g. stall cycles / running cycles) against a goal rate. Every count
    comes from what the tests actually ran.

Python 3 and PyYAML (scripts/dutgen.py). Exit status 0 when every functional goal is
met, 1 when one is not (each unmet goal is listed: `make coverage` fails on
it), 2 when no coverage file is found.
"""

import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dutgen  # noqa: E402  (PyYAML; re-runs this script under /usr/bin/python3 when missing)


def duts():
    """(dut, bins, rates) per manifest with coverage goals (rtl/<dut>/<dut>.yaml,
    key coverage): bins are (label, description, goal hits), labels being the
    cover property labels; rates are (numerator label, denominator label,
    description, goal rate)."""
    out = []
    for m in dutgen.manifests():
        cov = m.get("coverage", {})
        if not cov.get("bins") and not cov.get("rates"):
            continue
        out.append((m["name"], [(b["label"], b["desc"], b["goal"]) for b in cov["bins"]],
                    [(r["num"], r["den"], r["desc"], r["goal"]) for r in cov["rates"]]))
    return out


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
    for dut, bins, rates in duts():
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
