#!/usr/bin/env python3
"""A stand-in for `cosim run` in the suite's self-test: what it does depends on
the model's file name (pass, cannot run, mismatch), and it writes the
report.json fields scripts/suite reads."""
import json
import os
import sys

args = sys.argv[1:]
model = next(a.split("=", 1)[1] for a in args if a.startswith("model="))
out = args[args.index("--out") + 1]
inputs = int(next(a.split("=", 1)[1] for a in args if a.startswith("inputs=")))
name = os.path.basename(model)
if "ad01" in name and "int8" in name:
    print(f"cosim: error: --set model={model}: 'model': FULLY_CONNECTED is not supported here")
    sys.exit(2)
os.makedirs(out, exist_ok=True)
if "float" in name or "fp32" in name:  # a float model: SNR against the float model, "inf" when equal
    report = {"status": "no_check" if "kws" in name else "pass", "bit_exact": "kws" not in name,
              "cycles": 500 * inputs, "utilization": 0.25, "layers": [{"where": "tinydnn"}],
              "network_output": {"float32": {"snr_db": "inf"}}, "top1_agreement": {"inputs": inputs, "float32": inputs}}
    if "ad01" in name:  # an autoencoder: its reconstruction score per input
        report["anomaly_score"] = {"tinydnn": [2.0] * inputs, "float": [1.5] * inputs,
                                   "max_relative_difference": 0.5 / 1.5}
    with open(os.path.join(out, "report.json"), "w") as f:
        json.dump(report, f)
    sys.exit(3 if "kws" in name else 0)
mismatch = "kws" in name
report = {
    "status": "mismatch" if mismatch else "pass",
    "bit_exact": not mismatch,
    "cycles": 1000 * inputs,
    "utilization": 0.5,
    "layers": [{"where": "vta"}, {"where": "vta"}, {"where": "cpu"}],
    "not_supported": [{"op_index": 3}],
    "network_output": {"tflite_double": {"exact_pct": 90.0}},
    "top1_agreement": {"inputs": inputs, "tflite_double": inputs},
}
with open(os.path.join(out, "report.json"), "w") as f:
    json.dump(report, f)
print("  result      " + ("MISMATCH" if mismatch else "PASS bit-exact"))
sys.exit(1 if mismatch else 0)
