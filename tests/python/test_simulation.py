"""cosim.run / cosim.replay / cosim.list on the RTL. Every run writes under
pytest's tmp_path (--basetemp in the build tree); expected values come from
NumPy (tflite_reference.py, saturating adds) or from the scenario files."""

from pathlib import Path

import numpy as np
import pytest
import yaml

import cosim
import tflite_reference as ref

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
SMALL_CONV = {"shapes.input": [1, 8, 8, 16], "shapes.filter": [16, 3, 3, 16], "quant.filter_scales": 0.004}


def test_vadd_with_in_memory_inputs(tmp_path):
    rng = np.random.default_rng(7)
    a = rng.integers(-128, 128, size=(1, 8, 8, 16)).astype(np.int8)
    b = rng.integers(-128, 128, size=(1, 8, 8, 16)).astype(np.int8)
    r = cosim.run(str(SCENARIOS / "selftest_vadd.yaml"), seed=3, inputs={"a": a, "b": b}, out=str(tmp_path))
    assert r.passed and r.exit_status == 0 and r.status == "pass"
    want = np.clip(a.astype(np.int16) + b, -128, 127).astype(np.int8)  # int8 saturating add
    (name,) = r.expected
    np.testing.assert_array_equal(r.expected[name], want)
    np.testing.assert_array_equal(r.outputs[name], want)
    np.testing.assert_array_equal(r.inputs["a"], a)
    assert r.report["seed"] == 3 and r.report["target"] == "testdut"
    assert (tmp_path / "report.json").is_file()


def vadd_call(tmp_path, name, seed, head, args):
    """A call of vitisdut (C = A + B over int32) as tmp_path/<name>.yaml: `head` and `args` lines,
    its buffers a and b (random, for arrays to replace) and c checked against c.npy, NumPy's own
    wrapping sum of the arrays a and b returned."""
    rng = np.random.default_rng(seed)
    a, b = (rng.integers(-2**31, 2**31, 1024, dtype=np.int64).astype(np.int32) for _ in range(2))
    np.save(tmp_path / "c.npy", (a.astype(np.int64) + b).astype(np.uint32).astype(np.int32))
    (tmp_path / f"{name}.yaml").write_text(
        "target: vitisdut\nop: call\n" + head + args +
        "buffers:\n"
        "  - {name: a, at: 0x1000, dtype: int32, shape: [1024], data: random}\n"
        "  - {name: b, at: 0x80000, dtype: int32, shape: [1024], data: random}\n"
        "  - {name: c, at: 0x100000, dtype: int32, shape: [1024], expect: {npy: c.npy}}\n")
    return str(tmp_path / f"{name}.yaml"), a, b


def test_a_kernel_call_with_in_memory_buffers(tmp_path):
    """The op call (vitisdut, the Vitis template's C = A + B over int32) fed from NumPy arrays by
    buffer name; C expected from NumPy's own wrapping sum, saved as the call's .npy."""
    call, a, b = vadd_call(tmp_path, "call", 11, "",
                           "args: {A_LO: a, A_HI: a.hi, B_LO: b, B_HI: b.hi, C_LO: c, C_HI: c.hi, LENGTH: 4096}\n")
    r = cosim.run(call, inputs={"a": a, "b": b}, out=str(tmp_path / "out"))
    assert r.passed, r.console
    np.testing.assert_array_equal(r.inputs["a"], a)
    with pytest.raises(cosim.InputError, match=r"inputs\['d'\]: the scenario has no tensor of that name; "
                                               r"its data keys: a, b, c"):
        cosim.run(call, inputs={"d": a}, out=str(tmp_path / "out2"))
    # The random data the arrays replace would not have passed.
    assert not cosim.run(call, out=str(tmp_path / "out3")).passed
    # A buffer only checked (c) takes an array as its expected values; one element off fails there.
    c = np.load(tmp_path / "c.npy")
    assert cosim.run(call, inputs={"a": a, "b": b, "c": c}, out=str(tmp_path / "out4")).passed
    c[700] ^= 1
    r = cosim.run(call, inputs={"a": a, "b": b, "c": c}, out=str(tmp_path / "out5"))
    assert not r.passed and r.report["first_divergence"]["index"] == [700], r.report["first_divergence"]


def test_a_batch_of_calls_from_arrays(tmp_path):
    """per_call files given as NumPy arrays: each call's LENGTH (args) and the A_LO each call must
    read back (results) by their names; the buffers too. The last call adds all 4096 bytes."""
    batch, a, b = vadd_call(tmp_path, "batch", 12, "calls: 3\n",
                            "args: {A_LO: a, A_HI: a.hi, B_LO: b, B_HI: b.hi, C_LO: c, C_HI: c.hi,\n"
                            "       LENGTH: {npy: lengths.npy, per_call: true}}\n"
                            "results: {A_LO: {npy: a_lo.npy, per_call: true}}\n")
    lengths = np.array([64, 1024, 4096], np.uint32)
    a_lo = np.full(3, 0x1000, np.uint32)
    r = cosim.run(batch, inputs={"a": a, "b": b, "LENGTH": lengths, "A_LO": a_lo},
                  out=str(tmp_path / "out"))
    assert r.passed, r.console
    assert [c["name"] for c in r.register_checks] == ["A_LO.call0", "A_LO.call1", "A_LO.call2"]
    a_lo[1] = 0x1004
    r = cosim.run(batch, inputs={"a": a, "b": b, "LENGTH": lengths, "A_LO": a_lo},
                  out=str(tmp_path / "out2"))
    assert not r.passed and r.report["register_checks"]["failed"] == 1
    assert r.report["first_divergence"]["register"] == "A_LO.call1"
    with pytest.raises(cosim.InputError, match=r"per_call wants one row a call, a first dimension of 3"):
        cosim.run(batch, inputs={"a": a, "b": b, "LENGTH": lengths[:2], "A_LO": a_lo},
                  out=str(tmp_path / "out3"))


def test_an_input_in_an_mli_format(tmp_path):
    # fx8 with 4 fractional bits (value = q / 16) into VTA's ADD, whose input1
    # is int8 at scale 0.05, zero point -3 (scenarios/add.yaml): the run's
    # input is that value requantized, round half away from zero, saturated.
    rng = np.random.default_rng(11)
    q = rng.integers(-128, 128, size=(1, 4, 4, 16)).astype(np.int8)
    small = {"shapes.input1": [1, 4, 4, 16], "shapes.input2": [1, 4, 4, 16]}
    r = cosim.run(str(SCENARIOS / "add.yaml"), set={**small, "data.input1": {"mli": "fx8", "frac_bits": 4}},
                  inputs={"input1": q}, out=str(tmp_path))
    assert r.passed, r.console
    v = q.astype(np.float64) / 16 / np.float32(0.05) - 3
    want = np.clip(np.sign(v) * np.floor(np.abs(v) + 0.5), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(r.inputs["input1"], want)
    # The wrong container for the format is one error line naming the key.
    with pytest.raises(cosim.InputError, match="fx16 data is int16"):
        cosim.run(str(SCENARIOS / "add.yaml"), set={**small, "data.input1": {"mli": "fx16", "frac_bits": 4}},
                  inputs={"input1": q}, out=str(tmp_path / "bad"))


def round_half_away(v):
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def test_outputs_in_an_mli_format(tmp_path):
    # output_format fx16 with 8 fractional bits over VTA's int8 CONV2D output
    # (scale 0.12, zero point -128, scenarios/conv2d.yaml): the arrays come back
    # as fx16 (value (q + 128) * 0.12 times 2^8, half away from zero), and the
    # distance to TFLite is also given in fx16 values, recomputed here.
    plain = cosim.run(str(SCENARIOS / "conv2d.yaml"), seed=3, set=SMALL_CONV, out=str(tmp_path / "int8"))
    fmt = {"mli": "fx16", "frac_bits": 8}
    r = cosim.run(str(SCENARIOS / "conv2d.yaml"), seed=3, set={**SMALL_CONV, "output_format": fmt},
                  out=str(tmp_path / "fx16"))
    assert r.passed, r.console
    q = yaml.safe_load((SCENARIOS / "conv2d.yaml").read_text())["quant"]
    scale, zp = np.float32(q["output"]["scale"]), q["output"]["zero_point"]

    def fx16(int8):
        v = (int8.astype(np.int32) - zp).astype(np.float32) * scale
        return np.clip(round_half_away(v.astype(np.float64) * 256), -32768, 32767).astype(np.int16)

    out = r.outputs["output"]
    assert out.dtype == np.int16
    np.testing.assert_array_equal(out, fx16(plain.outputs["output"]))
    np.testing.assert_array_equal(r.expected["output"], fx16(plain.expected["output"]))
    assert r.report["npy_dumps"]["output_format"] == {"format": "fx16", "frac_bits": 8}
    x = plain.inputs["input"]
    tflite = ref.conv2d(x, plain.inputs["filter"], plain.inputs["bias"], input_scale=q["input"]["scale"],
                        input_zero_point=q["input"]["zero_point"], filter_scales=[0.004] * 16,
                        output_scale=q["output"]["scale"], output_zero_point=zp, activation="relu")
    steps = np.abs(fx16(tflite.astype(np.int8)).astype(np.int32) - out.astype(np.int32))
    (d,) = [d for d in r.report["distance"] if d["reference"] == "tflite_double"]
    assert d["output_format"]["max_abs_diff_steps"] == steps.max()
    assert d["output_format"]["max_abs_diff"] == pytest.approx(steps.max() / 256)
    assert d["output_format"]["exact_pct"] == pytest.approx(100.0 * (steps == 0).mean())
    # A format without its parameter is one error line naming the key.
    with pytest.raises(cosim.InputError, match="fx8 needs frac_bits"):
        cosim.run(str(SCENARIOS / "conv2d.yaml"), set={**SMALL_CONV, "output_format": {"mli": "fx8"}},
                  out=str(tmp_path / "bad"))


def test_conv2d_set_overrides_and_distance_to_tflite(tmp_path):
    r = cosim.run(str(SCENARIOS / "conv2d.yaml"), seed=3, set=SMALL_CONV, out=str(tmp_path))
    assert r.passed, r.console
    out, x = r.outputs["output"], r.inputs["input"]
    assert out.dtype == np.int8 and out.shape == (1, 8, 8, 16)
    np.testing.assert_array_equal(out, r.expected["output"])
    # The report's distance to TFLite double rounding, recomputed in NumPy
    # from the run's own inputs and the scenario's quantization.
    q = yaml.safe_load((SCENARIOS / "conv2d.yaml").read_text())["quant"]
    tflite = ref.conv2d(x, r.inputs["filter"], r.inputs["bias"], input_scale=q["input"]["scale"],
                        input_zero_point=q["input"]["zero_point"], filter_scales=[0.004] * 16,
                        output_scale=q["output"]["scale"], output_zero_point=q["output"]["zero_point"],
                        activation="relu")
    diff = np.abs(out.astype(np.int32) - tflite)
    (d,) = [d for d in r.report["distance"] if d["reference"] == "tflite_double"]
    assert d["max_abs_diff"] == diff.max()
    assert d["exact_pct"] == pytest.approx(100.0 * (diff == 0).mean())


def test_same_seed_same_bits(tmp_path):
    a = cosim.run(str(SCENARIOS / "conv2d.yaml"), seed=5, set=SMALL_CONV, out=str(tmp_path / "a"))
    b = cosim.run(str(SCENARIOS / "conv2d.yaml"), seed=5, set=SMALL_CONV, out=str(tmp_path / "b"))
    np.testing.assert_array_equal(a.outputs["output"], b.outputs["output"])
    assert a.report["cycles"] == b.report["cycles"]


def test_replay_of_a_run(tmp_path):
    run = cosim.run(SCENARIOS / "selftest_vadd.yaml", out=tmp_path / "run")  # pathlib.Path works as str does
    r = cosim.replay(tmp_path / "run" / "trace", out=tmp_path / "replay")
    # The replay prepares the workload again from the run's trace/scenario.yaml:
    # the same inputs as the run.
    assert r.passed and sorted(r.inputs) == sorted(run.inputs)
    for name, t in run.inputs.items():
        np.testing.assert_array_equal(r.inputs[name], t)
    for name, t in run.outputs.items():
        np.testing.assert_array_equal(r.outputs[name], t)
    assert r.report["cycles"] == run.report["cycles"]


def test_list_matches_the_scenario_files():
    c = cosim.list(str(SCENARIOS))
    files = sorted(SCENARIOS.glob("*.yaml"))
    assert [s["name"] for s in c["scenarios"]] == [f.stem for f in files]
    conv = next(s for s in c["scenarios"] if s["name"] == "conv2d")
    doc = yaml.safe_load((SCENARIOS / "conv2d.yaml").read_text())
    assert (conv["target"], conv["op"], conv["description"]) == (doc["target"], doc["op"], doc["description"])
    targets = {t["name"]: t for t in c["targets"]}
    assert "conv2d" in targets["vta"]["ops"] and "vadd" in targets["testdut"]["ops"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"scenario": "no/such/scenario.yaml"}, r"no/such/scenario\.yaml: no such scenario file"),
        ({"set": {"shapes.nope": 1}}, r"'shapes\.nope': unknown key"),
        ({"set": {"shapes.input": [1, 14, 14, 32]}}, r"input channels"),
        ({"set": {"params.padding": object()}}, r"set\['params\.padding'\]"),
        ({"inputs": {"inptu": np.zeros((1, 8, 8, 16), np.int8)}}, r"inputs\['inptu'\].*data keys: a, b"),
        ({"inputs": {"a": np.zeros((1, 4, 4, 16), np.int8)}}, r"inputs\['a'\] has shape \[1,4,4,16\], expected"),
        ({"inputs": {"a": np.zeros((1, 8, 8, 16), np.float64)}}, r"inputs\['a'\]: a NumPy array of dtype float64"),
        ({"inputs": {"a": np.zeros((1, 8, 8, 16), np.int64)}}, r"inputs\['a'\] holds int64, expected int8"),
        ({"seed": -1}, r"seed: expected an integer >= 0"),
        ({"scenario": 42}, r"scenario: expected a path"),
    ],
)
def test_bad_input_is_a_clear_python_exception(tmp_path, kwargs, message):
    kwargs = {"scenario": str(SCENARIOS / "selftest_vadd.yaml"), **kwargs}
    if "shapes.input" in kwargs.get("set", {}):
        kwargs["scenario"] = str(SCENARIOS / "conv2d.yaml")
    with pytest.raises(cosim.InputError, match=message) as e:
        cosim.run(out=str(tmp_path), **kwargs)
    assert isinstance(e.value, ValueError) and "\n" not in str(e.value)


def test_a_hung_dut_raises_simulation_timeout(tmp_path):
    with pytest.raises(cosim.SimulationTimeout, match="did not finish within 10 cycles"):
        cosim.run(str(SCENARIOS / "selftest_vadd.yaml"), set={"testbench.timeout_cycles": 10}, out=str(tmp_path))
    assert '"timeout"' in (tmp_path / "report.json").read_text()


def reg_trace(path, steps):
    """A hand-written trace for testdut (cpp_model/trace/README.md): LENGTH at
    0x08, CONTROL at 0x00 (bit 0 busy, bit 1 done)."""
    path.mkdir(parents=True)
    (path / "trace.txt").write_text("cosim-trace 1\ntarget testdut\n" + steps)
    return path


def test_a_failing_register_check_is_a_mismatch_naming_the_register(tmp_path):
    d = reg_trace(tmp_path / "t", "reg_write 0x8 0x400\nreg_check 0x8 0x401 0xffffffff LENGTH\n")
    r = cosim.replay(d, out=tmp_path / "out")
    text = "register LENGTH (0x8): read 0x00000400, expected 0x00000401 under mask 0xffffffff"
    assert (r.exit_status, r.status, r.passed) == (1, "mismatch", False)
    assert len(r.register_checks) == 1
    c = r.register_checks[0]
    assert (c["name"], c["offset"], c["value"], c["expected"], c["mask"], c["held"]) == (
        "LENGTH", "0x8", 0x400, 0x401, 0xFFFFFFFF, False)
    assert c["text"] == text and text in r.console


def test_register_checks_alone_can_pass(tmp_path):
    d = reg_trace(tmp_path / "t", "reg_write 0x8 0x400\nreg_check 0x8 0x400 0xffffffff LENGTH\n")
    r = cosim.replay(d, out=tmp_path / "out")
    assert r.passed and r.exit_status == 0 and r.register_checks[0]["held"]


def test_a_poll_past_its_budget_raises_simulation_timeout(tmp_path):
    d = reg_trace(tmp_path / "t", "reg_poll 0x0 0x2 0x2 500 CONTROL\n")  # never started: never done
    with pytest.raises(cosim.SimulationTimeout,
                       match=r"register CONTROL \(0x0\) did not match within 500 cycles.*last read 0x00000000"):
        cosim.replay(d, out=tmp_path / "out")
