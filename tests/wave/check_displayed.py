#!/usr/bin/env python3
"""For scripts/wave-selftest: compares what GTKWave displayed with the view.

    check_displayed.py VIEW.gtkw LISTING SCREENSHOT.png [--marker-cycle C] [--first-group NAME]

VIEW.gtkw is the prepared view (tb/wave), LISTING what tests/wave/list_traces.tcl
wrote from inside GTKWave. Fails (exit 1, one line per problem) when the view
names a signal the dump lacks, when a group or signal of the view is not
displayed, when the visible range does not hold the whole dumped window, or
when the screenshot is blank. With --marker-cycle C (a view of a mismatch,
C the cycle report.json names), GTKWave's primary marker must be at cycle C
and the visible range must open around it (within 100 cycles on each side)
instead of holding the whole window. With --first-group NAME the first
group GTKWave shows must start with NAME (the engine behind the divergence).
"""
import re
import subprocess
import sys

PS_PER_CYCLE = 1000  # the ruler's 1 ns is one DUT cycle (tb/wave/gtkw.hpp)


def view_items(gtkw):
    """Groups, signals (displayed names), missing patterns, window (cycles)."""
    groups, signals, missing, window = [], [], [], None
    for line in open(gtkw, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r"\[\*\] not in the dump: (.*)", line)
        if m:
            missing.append(m.group(1))
        m = re.match(r"\[\*\] window: cycles (\d+) \.\. (\d+)", line)
        if m:
            window = (int(m.group(1)), int(m.group(2)))
        if not line or line[0] in "[@^*":
            continue
        if line[0] == "-":
            groups.append(line[1:])
        else:
            signals.append(line.rsplit(".", 1)[-1])  # GTKWave shows the last component
    return groups, signals, missing, window


def main():
    gtkw, listing, shot = sys.argv[1:4]
    opts = dict(zip(sys.argv[4::2], sys.argv[5::2]))
    marker_cycle = int(opts["--marker-cycle"]) if "--marker-cycle" in opts else None
    first_group = opts.get("--first-group")
    groups, signals, missing, window = view_items(gtkw)
    shown, start, end, marker, done = [], None, None, None, False
    for line in open(listing, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("trace "):
            shown.append(line[len("trace "):])
        elif line.startswith("start "):
            start = int(float(line.split()[1]))
        elif line.startswith("end "):
            end = int(float(line.split()[1]))
        elif line.startswith("marker "):
            marker = int(float(line.split()[1]))
        elif line == "done":
            done = True
    problems = []
    if not done:
        problems.append("GTKWave did not finish listing its traces")
    for m in missing:
        problems.append("the view names " + m + ", which is not in the dump")
    if not signals:
        problems.append("the view has no signal")
    # Groups appear twice (begin and end), signals once, in view order.
    expected = []
    for line in open(gtkw, encoding="utf-8"):
        line = line.rstrip("\n")
        if line and line[0] == "-":
            expected.append(line[1:])
        elif line and line[0] not in "[@^*-":
            expected.append(line.rsplit(".", 1)[-1])
    if shown != expected:
        absent = [e for e in expected if e not in shown]
        problems.append("GTKWave displays %d traces, the view has %d%s" %
                        (len(shown), len(expected), "; not displayed: " + ", ".join(absent[:10]) if absent else ""))
    if window is None:
        problems.append("the view names no window")
    elif start is None or end is None:
        problems.append("GTKWave gave no visible range")
    elif marker_cycle is not None:
        at = marker_cycle * PS_PER_CYCLE
        if marker != at:
            problems.append("GTKWave's marker is at %s ps, the mismatch at cycle %d (%d ps)" % (marker, marker_cycle, at))
        if not (start <= at <= end) or start < at - 100 * PS_PER_CYCLE or end > at + 100 * PS_PER_CYCLE:
            problems.append("visible range %d..%d ps does not open around the mismatch at %d ps" % (start, end, at))
    elif start > window[0] * PS_PER_CYCLE or end < window[1] * PS_PER_CYCLE:
        problems.append("visible range %d..%d ps does not hold the window, cycles %d..%d" %
                        (start, end, window[0], window[1]))
    if first_group is not None and (not shown or not shown[0].startswith(first_group)):
        problems.append("the first group GTKWave shows is %r, not the divergence's %r" %
                        (shown[0] if shown else None, first_group))
    colours = subprocess.run(["convert", shot, "-format", "%k", "info:"], capture_output=True, text=True)
    if colours.returncode != 0 or int(colours.stdout.strip() or 0) < 8:
        problems.append("the screenshot " + shot + " is blank or unreadable")
    for p in problems:
        print("check_displayed: " + p, file=sys.stderr)
    if marker_cycle is None:
        print("check_displayed: %d groups, %d signals displayed; cycles %s shown whole" %
              (len(groups) // 2, len(signals), window))
    else:
        print("check_displayed: %d groups, %d signals displayed; marker at cycle %s, shown %s..%s ps" %
              (len(groups) // 2, len(signals), marker_cycle, start, end))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
