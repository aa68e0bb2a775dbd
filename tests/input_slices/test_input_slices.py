#!/usr/bin/env python3
"""`cosim run --jobs N` (tb/cosim/input_slices.hpp): a network run over several
inputs split over processes must report what one process reports.

  test_input_slices.py COSIM SOURCE_DIR WORK_DIR [--only NAME]

The expected report is the single-process run's (--jobs 1), never the merge's:
report.json is compared field by field, ignoring only host timing
(wall_seconds, simulated_khz); the exit status and the console summary (every
line but the split's own lines and the wall time) must match too. A worker
that dies gives one error line naming its slice (COSIM_WORKER points the
workers at a wrapper that kills the second slice); SIGINT to the parent ends
the workers and leaves an interrupted report.
"""
import json
import os
import subprocess
import sys

HOST_TIMING = {"wall_seconds", "simulated_khz"}


def strip(j):
    if isinstance(j, dict):
        return {k: strip(v) for k, v in j.items() if k not in HOST_TIMING}
    if isinstance(j, list):
        return [strip(v) for v in j]
    return j


def diff(a, b, path="report"):
    if type(a) != type(b):
        return [f"{path}: {a!r} vs {b!r}"]
    if isinstance(a, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in {'single' if k in a else 'split'}")
            else:
                out += diff(a[k], b[k], f"{path}.{k}")
        return out
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} vs {len(b)} entries"]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path}: {a!r} vs {b!r}"]


def summary(text):
    """The console minus the split's own lines, progress and wall time."""
    keep = []
    for line in text.splitlines():
        line = line.split("\r")[-1]
        s = line.strip()
        if s.startswith(("inputs ", "slice ", "wall ", "compiling ")) or not s:
            continue
        keep.append(line.replace("/single", "/OUT").replace("/split", "/OUT"))
    return keep


def run(cosim, args, env=None):
    return subprocess.run([cosim, "run"] + args, capture_output=True, text=True, env=env, timeout=1200)


def same_as_one_process(cosim, src, work, name, scenario, sets, args=(), build="checked"):
    base = [os.path.join(src, "scenarios", scenario)] + sum((["--set", s] for s in sets), []) + list(args)
    one = run(cosim, base + ["--jobs", "1", "--out", os.path.join(work, name, "single")])
    two = run(cosim, base + ["--jobs", "2", "--out", os.path.join(work, name, "split")])
    problems = []
    if "split over 2 processes" not in two.stdout:
        problems.append("the --jobs 2 run did not say it split:\n" + two.stdout + two.stderr)
    if one.returncode != two.returncode:
        problems.append(f"exit status {one.returncode} (one process) vs {two.returncode} (split)\n{two.stderr}")
    ra = json.load(open(os.path.join(work, name, "single", "report.json")))
    rb = json.load(open(os.path.join(work, name, "split", "report.json")))
    problems += diff(strip(ra), strip(rb))
    # The build the DUT ran, as the spec'd report field says (the same in both, and the one asked for).
    if rb.get("build") != build:
        problems.append(f"the split run's report says build {rb.get('build')!r}, expected {build!r}")
    sa, sb = summary(one.stdout), summary(two.stdout)
    if sa != sb:
        problems.append("console differs:\n  " + "\n  ".join(
            f"{x!r} | {y!r}" for x, y in zip(sa, sb) if x != y) + f"\n  ({len(sa)} vs {len(sb)} lines)")
    if ra.get("status") not in ("pass", "mismatch"):
        problems.append(f"the single run's status is {ra.get('status')}: {ra.get('reason')}")
    return problems


def failing_worker(cosim, src, work):
    wrapper = os.path.join(work, "fail", "worker.sh")
    os.makedirs(os.path.dirname(wrapper), exist_ok=True)
    with open(wrapper, "w") as f:  # the second slice's worker dies of SIGSEGV
        f.write('#!/bin/sh\ncase "$*" in *"--input-slice 2:2"*) kill -SEGV $$;; esac\nexec "$COSIM_REAL" "$@"\n')
    os.chmod(wrapper, 0o755)
    env = dict(os.environ, COSIM_WORKER=wrapper, COSIM_REAL=cosim)
    r = run(cosim, [os.path.join(src, "scenarios", "resnet8.yaml"), "--set", "inputs=4", "--jobs", "2",
                    "--out", os.path.join(work, "fail", "out")], env)
    lines = [l for l in r.stderr.splitlines() if l.startswith("cosim: error:")]
    problems = []
    if r.returncode == 0 or r.returncode == 1:
        problems.append(f"a dead worker gave exit status {r.returncode}")
    if len(lines) != 1 or "inputs 2-3 (slice 2 of 2)" not in lines[0] or "signal 11" not in lines[0]:
        problems.append("expected one error line naming inputs 2-3 and signal 11, got:\n" + r.stderr)
    rep = json.load(open(os.path.join(work, "fail", "out", "report.json")))
    if rep.get("status") != "error":
        problems.append(f"report.json status {rep.get('status')}, expected error")
    return problems


def interrupted(cosim, src, work):
    """SIGINT to the parent alone (not its process group) ends the workers too."""
    import signal
    import time
    out = os.path.join(work, "interrupt", "out")
    p = subprocess.Popen([cosim, "run", os.path.join(src, "scenarios", "resnet8.yaml"), "--set", "inputs=32",
                          "--jobs", "2", "--out", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    locks = [os.path.join(out, "slices", k, ".cosim.lock") for k in ("00", "01")]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not all(os.path.exists(f) and open(f).read().strip() for f in locks):
        time.sleep(0.2)
    time.sleep(1.0)
    pids = [int(open(f).read().split()[0]) for f in locks if os.path.exists(f) and open(f).read().strip()]
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=60)
    problems = []
    if p.returncode != 130:
        problems.append(f"exit status {p.returncode} after SIGINT, expected 130")
    if len(pids) != 2:
        problems.append(f"found {len(pids)} worker pids in the slices' locks")
    time.sleep(1.0)
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                if "State:\tZ" not in f.read():
                    problems.append(f"worker {pid} still runs after the parent's SIGINT")
                    os.kill(pid, signal.SIGKILL)
        except FileNotFoundError:
            pass
    rep = json.load(open(os.path.join(out, "report.json")))
    if rep.get("status") != "interrupted":
        problems.append(f"report.json status {rep.get('status')}, expected interrupted")
    return problems


def main():
    cosim, src, work = sys.argv[1:4]
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
    if not os.path.exists(os.path.join(src, "..", "shared", "models", "resnet8_int8.tflite")):
        print("SKIP: the MLPerf Tiny models are not on this machine")
        return 0
    cases = {
        "resnet8_vta": lambda: same_as_one_process(cosim, src, work, "resnet8_vta", "resnet8.yaml", ["inputs=4"]),
        "resnet8_tflite_double_3": lambda: same_as_one_process(
            cosim, src, work, "resnet8_tflite_double_3", "resnet8.yaml", ["inputs=3", "requant=tflite_double"]),
        "kws_vta": lambda: same_as_one_process(cosim, src, work, "kws_vta", "kws.yaml", ["inputs=3"]),
        # The fast build (no assertions), which runs above 16 inputs by default: the merged report names it.
        "resnet8_vta_fast": lambda: same_as_one_process(cosim, src, work, "resnet8_vta_fast", "resnet8.yaml",
                                                        ["inputs=2"], ["--fast"], "fast"),
        # tiny-dnn's own delegate (float, bf16 tiles): slices of 2 and 1 inputs.
        "tinydnn_resnet8": lambda: same_as_one_process(cosim, src, work, "tinydnn_resnet8", "tinydnn_resnet8.yaml",
                                                       ["inputs=3"]),
        # TF2's chain (calibrated Qs, one DRAM image per input), without the
        # scenario's seeded stalls: those run through all inputs and keep a
        # run in one process.
        "tf2_resnet8": lambda: same_as_one_process(cosim, src, work, "tf2_resnet8", "tf2_resnet8.yaml",
                                                   ["inputs=3", "testbench.stall_probability=0"]),
        "failing_worker": lambda: failing_worker(cosim, src, work),
        "interrupt": lambda: interrupted(cosim, src, work),
    }
    failed = 0
    for name, case in cases.items():
        if only and name != only:
            continue
        problems = case()
        print(("FAIL " if problems else "ok   ") + name)
        for p in problems[:30]:
            print("    " + p)
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
