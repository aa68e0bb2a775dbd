#!/usr/bin/env python3
"""For scripts/wave-selftest: compares what GTKWave displayed with the view.

    check_displayed.py VIEW.gtkw LISTING SCREENSHOT.png [--marker-cycle C] [--first-group NAME]

VIEW.gtkw is the prepared view (tb/wave), LISTING what tests/wave/list_traces.tcl
wrote from inside GTKWave. Fails (exit 1, one line per problem) when the view
names a signal the dump lacks, when a group or signal of the view is not
displayed, when the first trace is not the cycle counter, when the visible
range does not hold the whole dumped window or runs past the dump's end by
more than FILL_SLACK of it (a black band in the wave pane), or when the
screenshot is blank. With --marker-cycle C (a view of a mismatch, C the
cycle report.json names), GTKWave's primary marker must be at cycle C, the
cycle counter must read C there, and the visible range must open around it
(within 100 cycles on each side), hold the 60 cycles either side of it
that the dump has, and not run past the dump's end. With --first-group
NAME the first group GTKWave shows must start with NAME (the engine behind
the divergence).
"""
import re
import subprocess
import sys

PS_PER_CYCLE = 1000  # the ruler's 1 ns is one DUT cycle (tb/wave/gtkw.hpp)
PS_PER_FST_TICK = 1  # the FST unit (tb/wave/gtkw.hpp): 1 ps, 1000 a cycle
CYCLE_TRACE = "cycle[31:0]"  # the tracer's cycle counter (tb/wave/gtkw.hpp kCycleSignal)
FILL_SLACK = 0.03  # of the shown span: the wave pane may show this much past the dump's end


def view_items(gtkw):
    """Groups, signals (displayed names), missing patterns, window (cycles)."""
    groups, signals, missing, window, dump = [], [], [], None, None
    for line in open(gtkw, encoding="utf-8"):
        line = line.rstrip("\n")
        m = re.match(r"\[\*\] not in the dump: (.*)", line)
        if m:
            missing.append(m.group(1))
        m = re.match(r"\[\*\] window: cycles (\d+) \.\. (\d+)", line)
        if m:
            window = (int(m.group(1)), int(m.group(2)))
        m = re.match(r"\[\*\] dump: FST times (\d+) \.\. (\d+)", line)
        if m:
            dump = (int(m.group(1)) * PS_PER_FST_TICK, int(m.group(2)) * PS_PER_FST_TICK)
        if not line or line[0] in "[@^*":
            continue
        if line[0] == "-":
            groups.append(line[1:])
        else:
            signals.append(line.rsplit(".", 1)[-1])  # GTKWave shows the last component
    return groups, signals, missing, window, dump


def main():
    gtkw, listing, shot = sys.argv[1:4]
    opts = dict(zip(sys.argv[4::2], sys.argv[5::2]))
    marker_cycle = int(opts["--marker-cycle"]) if "--marker-cycle" in opts else None
    first_group = opts.get("--first-group")
    groups, signals, missing, window, dump = view_items(gtkw)
    shown, values, start, end, marker, done = [], {}, None, None, None, False
    for line in open(listing, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("trace "):
            shown.append(line[len("trace "):])
        elif line.startswith("value "):
            parts = line.split(" ", 2)
            values[int(parts[1])] = parts[2] if len(parts) > 2 else ""
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
    if not shown or shown[0] != CYCLE_TRACE:
        problems.append("the first trace GTKWave shows is %r, not the cycle counter %s" %
                        (shown[0] if shown else None, CYCLE_TRACE))
    if window is None or dump is None:
        problems.append("the view names no window or dump extent")
    elif start is None or end is None:
        problems.append("GTKWave gave no visible range")
    else:
        span = max(1, end - start)
        if end > dump[1] + FILL_SLACK * span:
            problems.append("visible range %d..%d ps runs %.0f %% past the dump's end at %d ps (a black band)" %
                            (start, end, 100.0 * (end - dump[1]) / span, dump[1]))
        if marker_cycle is not None:
            at = marker_cycle * PS_PER_CYCLE
            if marker != at:
                problems.append("GTKWave's marker is at %s ps, the mismatch at cycle %d (%d ps)" %
                                (marker, marker_cycle, at))
            if not (start <= at <= end) or start < at - 100 * PS_PER_CYCLE or end > at + 100 * PS_PER_CYCLE:
                problems.append("visible range %d..%d ps does not open around the mismatch at %d ps" % (start, end, at))
            lo, hi = max(dump[0], at - 60 * PS_PER_CYCLE), min(dump[1], at + 60 * PS_PER_CYCLE)
            if start > lo or end < hi - FILL_SLACK * span:
                problems.append("visible range %d..%d ps does not hold the %d..%d ps around the mismatch" %
                                (start, end, lo, hi))
            if shown and shown[0] == CYCLE_TRACE and values.get(0, "").strip() != str(marker_cycle):
                problems.append("the cycle counter reads %r at the marker, not %d" % (values.get(0), marker_cycle))
        elif start > dump[0] or end < dump[1] - FILL_SLACK * span:
            problems.append("visible range %d..%d ps does not hold the dump, %d..%d ps (cycles %d..%d)" %
                            (start, end, dump[0], dump[1], window[0], window[1]))
    first = [t for t in shown if t != CYCLE_TRACE]
    if first_group is not None and (not first or not first[0].startswith(first_group)):
        problems.append("the first group GTKWave shows is %r, not the divergence's %r" %
                        (first[0] if first else None, first_group))
    colours = subprocess.run(["convert", shot, "-format", "%k", "info:"], capture_output=True, text=True)
    if colours.returncode != 0 or int(colours.stdout.strip() or 0) < 8:
        problems.append("the screenshot " + shot + " is blank or unreadable")
    for p in problems:
        print("check_displayed: " + p, file=sys.stderr)
    if marker_cycle is None:
        print("check_displayed: %d groups, %d signals displayed; cycles %s shown whole, %s..%s ps" %
              (len(groups) // 2, len(signals), window, start, end))
    else:
        print("check_displayed: %d groups, %d signals displayed; marker at cycle %s (counter %s), shown %s..%s ps" %
              (len(groups) // 2, len(signals), marker_cycle, values.get(0), start, end))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
