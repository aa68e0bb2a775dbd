#!/usr/bin/env python3
"""Stand-in for `cosim run` honouring its contract (exit 0 pass, 1 mismatch,
2 bad input, 3 DUT timeout; report.json in --out), for testing the runner.

What a run does is picked by seed, from keys of the scenario file (or the
environment, FAKE_COSIM_<KEY>=2,5, so real scenario files can be used):
  fake_mismatch_seeds, fake_dut_timeout_seeds, fake_hang_seeds,
  fake_crash_seeds, fake_noreport_seeds, fake_bad_input_seeds,
  fake_no_check_seeds, fake_skip_seeds, fake_injected_fault_seeds, fake_dut_error_seeds: [2, 5]
  fake_sleep: 0.1      (seconds per run)
Metrics are deterministic: cycles = 1000 + 7 * seed, macs = 64 * seed,
utilization = seed / 100 (None when the file says `fake_no_utilization: 1`).
"""

import json
import os
import re
import signal
import sys
import time


def keys(path):
    out = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^([A-Za-z_]+):\s*(.*?)\s*$", line)
            if m:
                out[m.group(1)] = m.group(2)
    return out


def seeds(cfg, key):
    text = os.environ.get("FAKE_COSIM_" + key.upper(), cfg.get(key, ""))
    return {int(x) for x in re.findall(r"-?\d+", text)}


def main(argv):
    if len(argv) < 2 or argv[0] != "run":
        print("cosim: error: fake cosim knows only `run FILE`", file=sys.stderr)
        return 2
    path = argv[1]
    seed, out = None, None
    i = 2
    while i < len(argv):
        if argv[i] == "--seed":
            seed = int(argv[i + 1])
            i += 2
        elif argv[i] == "--out":
            out = argv[i + 1]
            i += 2
        else:
            i += 1
    try:
        cfg = keys(path)
    except OSError as e:
        print(f"cosim: error: {path}: cannot read ({e.strerror})", file=sys.stderr)
        return 2
    name = cfg.get("name", os.path.splitext(os.path.basename(path))[0])
    seed = seed if seed is not None else int(cfg.get("seed", "1"))
    out = out or os.path.join("out", name)
    time.sleep(float(cfg.get("fake_sleep", "0")))
    print(f"cosim {name}: fake target, seed {seed}")

    if seed in seeds(cfg, "fake_bad_input_seeds"):
        # With a colour code, as a logger writing to a terminal would: must not break the XML.
        print(f"cosim: \x1b[31merror\x1b[0m: {path}: key 'shapes.input': expected 4 dimensions (seed {seed})",
              file=sys.stderr)
        return 2
    if seed in seeds(cfg, "fake_hang_seeds"):
        sys.stdout.flush()
        time.sleep(3600)
    if seed in seeds(cfg, "fake_crash_seeds"):
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)

    report = {"scenario": name, "target": cfg.get("target", "fake"), "op": cfg.get("op", "copy"), "seed": seed}
    code = 0
    if seed in seeds(cfg, "fake_skip_seeds"):
        report.update(status="skipped", reason="model x.tflite not found")
    elif seed in seeds(cfg, "fake_no_check_seeds"):
        report.update(status="no_check", reason="no check compared any element", cycles=0)
        code = 1
    elif seed in seeds(cfg, "fake_injected_fault_seeds") or seed in seeds(cfg, "fake_dut_error_seeds"):
        # A protocol error the stream checker saw; injected on purpose by the
        # testbench (the scenario's fault:) or the DUT's own.
        injected = seed in seeds(cfg, "fake_injected_fault_seeds")
        report.update(status="dut_error", bit_exact=False, cycles=900,
                      mismatch={"count": 0, "elements": 1024, "checks": []},
                      dut_errors=["AXI-Stream protocol: axis fake.s_axis: cycle 37: TDATA changed while stalled"],
                      injected_fault="tdata_change" if injected else None)
        code = 1
    elif seed in seeds(cfg, "fake_dut_timeout_seeds"):
        report.update(status="timeout", diagnosis=f"DUT did not finish within {cfg.get('timeout', 500)} cycles")
        code = 3
    else:
        mismatch = seed in seeds(cfg, "fake_mismatch_seeds")
        first = [{"index": 5, "coords": "0,0,1,3", "expected": 7, "actual": -3, "write_cycle": 1000 + seed}]
        report.update(
            status="mismatch" if mismatch else "pass", bit_exact=not mismatch,
            cycles=1000 + 7 * seed, macs=64 * seed,
            utilization=None if cfg.get("fake_no_utilization") else seed / 100.0,
            mismatch={"count": 3 * seed if mismatch else 0, "elements": 1024,
                      "checks": [{"name": "output", "mismatches": 3 * seed if mismatch else 0,
                                  "first_mismatches": first if mismatch else []}]},
            distance=[], dut_errors=[], wall_seconds=0.01, simulated_khz=100.0 + seed)
        code = 1 if mismatch else 0
    if seed not in seeds(cfg, "fake_noreport_seeds"):
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "report.json"), "w") as f:
            json.dump(report, f)
    if code == 3:
        print(f"cosim: timeout: {report['diagnosis']}", file=sys.stderr)
    print("  result      " + ("PASS bit-exact" if code == 0 else "FAIL"))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
