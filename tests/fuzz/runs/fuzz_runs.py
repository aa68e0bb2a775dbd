#!/usr/bin/env python3
"""Whole-run fuzzing: mutated scenarios, inputs and models through `cosim run`.

The per-parser targets (tests/fuzz/<parser>/) stop where a parser hands over;
this one drives the whole product as a user does: a shipped scenario with its
keys changed (numbers to boundary values, strings to other keys' values, keys
dropped or borrowed from another scenario, targets and ops swapped), its
model's bytes flipped or cut, an `.npy` input written wrong, then `cosim run`
in a fresh folder. Every run must end the way the README's exit-status table
says: 0 pass, 1 mismatch, 2 bad input with one line on stderr, 3 timeout,
5 I/O. A finding is anything else: exit 4 (internal error), a signal, a run
that outlives --timeout, or an exit 2 whose stderr is not one line. Each
finding's files and the command that repeats it land in
<artifacts>/<n>/ (repro.sh).

  fuzz_runs.py --cosim build/tb/cosim/cosim --seconds 600 --artifacts DIR
               [--models ../shared/models] [--seed N] [--timeout 60]

Prints one summary line like scripts/fuzz.sh's (runs, findings, exit-code
histogram); exits 1 when anything was found, 2 on bad usage.
"""
import argparse
import copy
import json
import math
import os
import random
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter

import yaml

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))

# Values a careless or hostile user types: zero, signs, powers of two and
# their neighbours, the integer limits, non-finite floats, wrong types.
BOUNDARY = [0, 1, -1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256, 1023, 4096,
            65535, 65536, 2**31 - 1, -2**31, 2**32, 2**63 - 1, -2**63, 2**64, 10**30, 0.5, -0.5, 1e-30,
            1e30, float("nan"), float("inf"), float("-inf"), "", "x", None, True, [], {}]
SMALL = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65]


class Mutator:
    """Structure-aware changes to a parsed scenario (a dict from YAML)."""

    def __init__(self, seeds, rng, models):
        self.seeds = seeds
        self.rng = rng
        self.models = models
        # Every key path and string value the shipped scenarios use: a
        # mutated scenario borrows them, so the schema lets it further in.
        self.strings = sorted({v for s in seeds for _, v in walk(s) if isinstance(v, str)})
        self.subtrees = {}  # (target, op) -> [(path, value)]: borrowed within a family
        for sc in seeds:
            self.subtrees.setdefault(family(sc), []).extend((p, v) for p, v in walk(sc) if p)
        self.all_subtrees = [pv for pvs in self.subtrees.values() for pv in pvs]

    def number(self, v):
        # Mostly values the schema still takes (a neighbour, a small power of
        # two), so the run goes on to the backend; a third the extremes.
        r = self.rng.random()
        if r < 0.3:
            return self.rng.choice(BOUNDARY)
        if r < 0.55:
            return self.rng.choice(SMALL)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return self.rng.choice(SMALL)
        if r < 0.8:
            return v + self.rng.choice([-1, 1])
        scaled = v * self.rng.choice([2, 0.5, 3, -1])
        return int(scaled) if isinstance(v, int) else scaled

    def value(self, v):
        r = self.rng.random()
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return self.number(v)
        if isinstance(v, str) and r < 0.6:
            return self.rng.choice(self.strings + ["", "../../etc/passwd", "/dev/zero", "a" * 300])
        if isinstance(v, list) and v and r < 0.5:
            v = list(v)
            op = self.rng.randrange(3)
            if op == 0:
                v.pop(self.rng.randrange(len(v)))
            elif op == 1:
                v.insert(self.rng.randrange(len(v) + 1), self.rng.choice(v))
            else:
                i = self.rng.randrange(len(v))
                v[i] = self.value(v[i])
            return v
        return self.rng.choice(BOUNDARY)

    def mutate(self, sc, n):
        for _ in range(n):
            paths = [p for p, _ in walk(sc) if p]
            if not paths:
                break
            path = self.rng.choice(paths)
            parent, key = locate(sc, path)
            r = self.rng.random()
            if r < 0.65:
                parent[key] = self.value(parent[key])
            elif r < 0.75 and isinstance(parent, dict):
                del parent[key]
            elif r < 0.97:
                # A key and value from another scenario at its own path: one
                # of the same target and op mostly (it passes the schema).
                pool = self.subtrees.get(family(sc)) if self.rng.random() < 0.8 else None
                bpath, bval = self.rng.choice(pool or self.all_subtrees)
                try:
                    bparent, bkey = locate(sc, bpath, create=True)
                    bparent[bkey] = copy.deepcopy(bval)
                except (KeyError, IndexError, TypeError):
                    pass
            else:
                sc["target"] = self.rng.choice(["vta", "tf2", "tinydnn", "testdut", "nope"])
        return sc


def family(sc):
    """(target, op) as text: a mutated scenario may hold a map or a list there."""
    return (repr(sc.get("target")), repr(sc.get("op"))) if isinstance(sc, dict) else ("", "")


def walk(node, path=()):
    """(path, value) of every node below `node`, the root's path being ()."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, path + (i,))


def locate(root, path, create=False):
    node = root
    for k in path[:-1]:
        if create and isinstance(node, dict) and not isinstance(node.get(k), (dict, list)):
            node[k] = {}
        node = node[k]
    if isinstance(node, list) and not (isinstance(path[-1], int) and path[-1] < len(node)):
        raise IndexError(path)
    if not isinstance(node, (dict, list)):
        raise TypeError(path)
    return node, path[-1]


def load_seeds(models):
    seeds = []
    sdir = os.path.join(REPO, "scenarios")
    for name in sorted(os.listdir(sdir)):
        if not name.endswith((".yaml", ".yml")):
            continue
        with open(os.path.join(sdir, name)) as f:
            sc = yaml.safe_load(f)
        model = sc.get("model")
        if isinstance(model, str):
            path = os.path.join(models, os.path.basename(model))
            if not os.path.isfile(path):
                continue  # its model is not here: the scenario would only skip
            sc["model"] = path
        seeds.append(sc)
    return seeds


def npy_bytes(rng, shape, dtype):
    """A .npy file, sometimes written wrong (header, dtype, shape, length)."""
    descr = {"int8": "|i1", "float32": "<f4", "uint8": "|u1", "int32": "<i4"}[dtype]
    size = {"int8": 1, "uint8": 1, "float32": 4, "int32": 4}[dtype]
    count = 1
    for d in shape:
        count *= max(d, 0)
    count = min(count, 1 << 20)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{d}, " for d in shape))
    if rng.random() < 0.2:
        header = header.replace(rng.choice(["descr", "shape", "False", "'"]), rng.choice(["", "True", "x"]))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    body = bytes(rng.getrandbits(8) for _ in range(min(count * size, 1 << 16)))
    body = body * max(1, (count * size) // max(len(body), 1))
    if rng.random() < 0.2:
        body = body[: rng.randrange(len(body) + 1)]
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + body


def flip_bytes(rng, data):
    data = bytearray(data)
    r = rng.random()
    if r < 0.15 and data:
        return bytes(data[: rng.randrange(len(data))])
    for _ in range(rng.choice([1, 1, 2, 4, 16])):
        if not data:
            break
        i = rng.randrange(len(data))
        data[i] = rng.choice([0, 0xFF, 0x7F, 0x80, data[i] ^ (1 << rng.randrange(8)), rng.getrandbits(8)])
    return bytes(data)


# YAML's indicators and a few of their runs: put at a line's start or
# anywhere, they reach the corners of the YAML parser itself.
TOKENS = [",", ", x", "[", "]", "{", "}", ":", "- ", "---", "...", "&a ", "*a", "!!int ", "!x ", "\"", "'", "#",
          "|", ">", "? ", "%YAML 1.2", "\t", "<<: *a", "[1]\n,", "{a: 1}\n,"]


def insert_token(rng, text):
    lines = text.split("\n")
    i = 0 if rng.random() < 0.25 else rng.randrange(len(lines))  # the document's start is a corner of its own
    tok = rng.choice(TOKENS)
    if rng.random() < 0.5:
        lines[i] = tok + lines[i]
    else:
        at = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:at] + tok + lines[i][at:]
    return "\n".join(lines)


class Case:
    def __init__(self, workdir, n):
        self.dir = os.path.join(workdir, f"case{n}")
        os.makedirs(self.dir)
        self.yaml = os.path.join(self.dir, "scenario.yaml")
        self.sets = []


def make_case(rng, mutator, seeds, models, workdir, n):
    case = Case(workdir, n)
    sc = copy.deepcopy(rng.choice(seeds))
    mutator.mutate(sc, rng.choice([1, 1, 1, 2, 3, 5]))
    # A model's bytes changed (its own copy, beside the scenario).
    if isinstance(sc.get("model"), str) and os.path.isfile(sc["model"]) and rng.random() < 0.3:
        with open(sc["model"], "rb") as f:
            data = f.read()
        path = os.path.join(case.dir, "model.tflite")
        with open(path, "wb") as f:
            f.write(flip_bytes(rng, data))
        sc["model"] = path
    # An .npy input where the scenario takes one.
    if rng.random() < 0.15:
        shape = [rng.choice([1, 1, 2, 3, 8, 12, 32, 0, -1]) for _ in range(rng.choice([1, 2, 3, 4, 5]))]
        path = os.path.join(case.dir, "input.npy")
        with open(path, "wb") as f:
            f.write(npy_bytes(rng, shape, rng.choice(["int8", "float32", "uint8", "int32"])))
        where = rng.choice(["input", "data.input", "data.x", "data.filter"])
        if where == "input":
            sc["input"] = path
        else:
            section, key = where.split(".")
            if isinstance(sc.get(section), dict):
                sc[section][key] = {"npy": path}
    text = yaml.safe_dump(sc, sort_keys=False, allow_unicode=True)
    r = rng.random()
    if r < 0.05:
        text = flip_bytes(rng, text.encode()).decode("utf-8", "replace")
    elif r < 0.25:
        text = insert_token(rng, text)
    with open(case.yaml, "w") as f:
        f.write(text)
    # Long simulations end on the scenario's own budget (exit 3), not on ours.
    if isinstance(sc, dict) and isinstance(sc.get("testbench"), dict) and rng.random() < 0.8:
        case.sets = ["--set", "testbench.timeout_cycles=3000000"]
    return case


def limit_memory(mb):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
        os.setsid()
    return apply


def judge(rc, stderr, elapsed, timeout):
    """None when the run ended as the README promises, else why not."""
    if rc is None:
        return f"still running after {timeout} s"
    if rc < 0:
        return f"killed by signal {-rc} ({signal.Signals(-rc).name})"
    if rc == 4:
        return "exit 4 (internal error)"
    if rc not in (0, 1, 2, 3, 5):
        return f"exit {rc}, not in the README's table"
    if rc == 2:
        lines = [l for l in stderr.splitlines() if l.strip()]
        if len(lines) != 1:
            return f"exit 2 with {len(lines)} lines on stderr, not one"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cosim", required=True)
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--artifacts", required=True)
    ap.add_argument("--models", default=os.path.join(os.path.dirname(REPO), "shared", "models"))
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--timeout", type=float, default=60, help="seconds one run may take")
    ap.add_argument("--memory-mb", type=int, default=8192, help="address-space limit of one run")
    ap.add_argument("--tmp", default=None, help="scratch folder (default: the system's)")
    ap.add_argument("--log", default=None, help="a line per run: exit, seconds, first stderr line")
    args = ap.parse_args()
    if not os.access(args.cosim, os.X_OK):
        print(f"fuzz_runs: {args.cosim} is not an executable (build cosim first)", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    seeds = load_seeds(args.models)
    if not seeds:
        print("fuzz_runs: no seed scenarios found", file=sys.stderr)
        return 2
    mutator = Mutator(seeds, rng, args.models)
    os.makedirs(args.artifacts, exist_ok=True)
    # Findings of earlier sessions stay; new ones are numbered after them.
    kept = sum(os.path.isdir(os.path.join(args.artifacts, d)) for d in os.listdir(args.artifacts))
    codes, findings, n = Counter(), [], 0
    start = time.time()
    stop = {"now": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.update(now=True))
    log = open(args.log, "w") if args.log else None
    with tempfile.TemporaryDirectory(prefix="fuzz_runs.", dir=args.tmp) as work:
        while time.time() - start < args.seconds and not stop["now"]:
            n += 1
            case = make_case(rng, mutator, seeds, args.models, work, n)
            out = os.path.join(case.dir, "out")
            cmd = [args.cosim, "run", case.yaml, "--out", out] + case.sets
            t0 = time.time()
            proc = None
            for _ in range(60):  # the binary may be being relinked: wait for it
                try:
                    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                            preexec_fn=limit_memory(args.memory_mb))
                    break
                except OSError as e:
                    print(f"fuzz_runs: cannot start {args.cosim} ({e.strerror}); retrying", file=sys.stderr)
                    time.sleep(1)
            if proc is None:
                print(f"fuzz_runs: {args.cosim} did not start for a minute", file=sys.stderr)
                return 2
            try:
                _, err = proc.communicate(timeout=args.timeout)
                rc = proc.returncode
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                _, err = proc.communicate()
                rc = None
            err = err.decode("utf-8", "replace")
            codes["hang" if rc is None else rc] += 1
            if log:
                first = err.strip().splitlines()[0][:300] if err.strip() else ""
                log.write(f"{rc}\t{time.time() - t0:.2f}\t{first}\n")
            why = judge(rc, err, time.time() - t0, args.timeout)
            if why:
                keep = os.path.join(args.artifacts, f"{kept + len(findings) + 1:03d}")
                shutil.copytree(case.dir, keep, ignore=shutil.ignore_patterns("out"))
                with open(os.path.join(keep, "scenario.yaml")) as f:
                    text = f.read()
                with open(os.path.join(keep, "scenario.yaml"), "w") as f:
                    f.write(text.replace(case.dir, keep))
                with open(os.path.join(keep, "repro.sh"), "w") as f:
                    f.write(f"# {why}\n{args.cosim} run {keep}/scenario.yaml --out {keep}/out {' '.join(case.sets)}\n")
                with open(os.path.join(keep, "stderr.txt"), "w") as f:
                    f.write(err)
                findings.append(why)
                print(f"fuzz_runs: finding {len(findings)}: {why} ({keep}/repro.sh)", file=sys.stderr)
            shutil.rmtree(case.dir, ignore_errors=True)
    hist = " ".join(f"{k}:{v}" for k, v in sorted(codes.items(), key=lambda kv: str(kv[0])))
    secs = time.time() - start
    print(f"fuzz runs      {secs:4.0f}s  runs {n:<6} findings {len(findings)}  seed {seed}  exits {hist}")
    with open(os.path.join(args.artifacts, "summary.json"), "w") as f:
        json.dump({"seconds": secs, "runs": n, "findings": findings, "seed": seed,
                   "exits": {str(k): v for k, v in codes.items()}}, f, indent=1)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
