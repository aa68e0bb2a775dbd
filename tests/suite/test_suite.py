#!/usr/bin/env python3
"""Self-test of scripts/suite against a fake cosim: the table's figures come
from each run's report.json, a pair that cannot run keeps its one error line,
the exit status says the worst outcome, and an absent models folder is a
skip, not a failure."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "..", "..", "scripts", "suite")
FAKE = os.path.join(HERE, "fake_cosim.py")


def run(tmp, *extra):
    models = os.path.join(tmp, "models")
    os.makedirs(models, exist_ok=True)
    return subprocess.run([sys.executable, SUITE, "--cosim", FAKE, "--models", models, "--out",
                           os.path.join(tmp, "out"), *extra], capture_output=True, text=True)


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


with tempfile.TemporaryDirectory(dir=os.environ.get("COSIM_TEST_TMP")) as tmp:
    r = run(tmp, "--only", "vta", "--inputs", "3")
    check(r.returncode == 1, f"a mismatching pair makes exit 1, got {r.returncode}: {r.stdout}{r.stderr}")
    suite = json.load(open(os.path.join(tmp, "out", "suite.json")))
    rows = {row["model"]: row for row in suite["runs"]}
    check(sorted(rows) == sorted(["resnet8_int8.tflite", "kws_dscnn_int8.tflite", "vww_96_int8.tflite",
                                  "ad01_int8.tflite"]), f"VTA takes the four int8 models: {sorted(rows)}")
    ok = rows["resnet8_int8.tflite"]
    check(ok["status"] == "pass" and ok["bit_exact"] is True, f"pass row: {ok}")
    check(ok["on_rtl"] == 2 and ok["on_cpu"] == 2, f"2 on the RTL, 1 CPU layer + 1 not supported: {ok}")
    check(ok["cycles_per_inference"] == 1000, f"cycles / inputs: {ok}")
    check("exact 90.0 %" in ok["reference"] and "top-1 3/3" in ok["reference"], f"reference: {ok}")
    bad = rows["ad01_int8.tflite"]
    check(bad["status"] == "cannot run" and "FULLY_CONNECTED is not supported" in bad["reason"], f"{bad}")
    check(rows["kws_dscnn_int8.tflite"]["status"] == "mismatch", f"{rows['kws_dscnn_int8.tflite']}")
    page = open(os.path.join(tmp, "out", "suite.html")).read()
    check("FULLY_CONNECTED is not supported" in page and 'class="fail"' in page, "the page lists the failures")
    # Float models: an exact match's SNR is "inf" in report.json; a run with
    # nothing on the RTL (status no_check) is a model the accelerator cannot take.
    r = run(tmp, "--only", "tinydnn", "--inputs", "2")
    check(r.returncode == 2, f"a pair with nothing on the RTL makes exit 2, got {r.returncode}: {r.stdout}{r.stderr}")
    rows = {row["model"]: row for row in json.load(open(os.path.join(tmp, "out", "suite.json")))["runs"]}
    check("SNR inf dB" in rows["resnet8_float.tflite"]["reference"], f"{rows['resnet8_float.tflite']}")
    ad = rows["ad01_fp32.tflite"]["reference"]
    check("anomaly score 2 vs 1.5 (float), largest diff 33.33 %" in ad and "top-1" not in ad,
          f"the autoencoder's own score instead of a class: {ad}")
    kws = rows["kws_dscnn_float.tflite"]
    check(kws["status"] == "cannot run" and "nothing checked" in kws["reason"], f"{kws}")
    # No models folder: a skip, exit 0.
    r = subprocess.run([sys.executable, SUITE, "--cosim", FAKE, "--models", os.path.join(tmp, "absent"),
                        "--out", os.path.join(tmp, "out2")], capture_output=True, text=True)
    check(r.returncode == 0 and "suite: skipped: the models folder" in r.stdout, f"absent models: {r.stdout}")
    r = run(tmp, "--inputs", "0")
    check(r.returncode != 0 and "--inputs must be in 1..256" in r.stderr, f"bad --inputs: {r.stderr}")
print("suite self-test: ok")
