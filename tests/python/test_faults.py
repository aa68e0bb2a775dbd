"""Issue 31, item 6 (CTest label `faults`): from Python too, a model path
the user gave that does not exist is cosim.InputError naming the path and
the key, and a shipped model scenario whose models folder is absent is still
a skip."""

import shutil
from pathlib import Path

import pytest

import cosim

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_a_typo_in_the_model_path_is_input_error(tmp_path):
    typo = tmp_path / "resnet8_int8.tfltie"  # its folder exists
    with pytest.raises(cosim.InputError) as e:
        cosim.run(str(SCENARIOS / "resnet8.yaml"), set={"model": str(typo)}, out=str(tmp_path / "out"))
    assert str(e.value) == f"--set model=\"{typo}\": 'model': no such model file: {typo}"


def test_a_shipped_model_scenario_without_the_models_folder_is_skipped(tmp_path):
    repo = tmp_path / "repo"  # ../../shared/models from repo/scenarios: absent
    (repo / "scenarios").mkdir(parents=True)
    shutil.copy(SCENARIOS / "resnet8.yaml", repo / "scenarios")
    r = cosim.run(str(repo / "scenarios" / "resnet8.yaml"), out=str(tmp_path / "out"))
    assert (r.status, r.exit_status) == ("skipped", 0)
    assert "model ../../shared/models/resnet8_int8.tflite not found" in r.report["reason"]


# Issue 31, item 8: in-memory inputs of a model scenario, checked; a run's
# tensors fed back as inputs; Ctrl-C and SIGTERM / SIGKILL of Python never
# leave the simulation child running.

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from procs import alive, children_of, wait_for  # noqa: E402  (tests/support)

MODELS = SCENARIOS.parent.parent / "shared" / "models"
needs_resnet8 = pytest.mark.skipif(not (MODELS / "resnet8_int8.tflite").is_file(),
                                   reason=f"{MODELS}/resnet8_int8.tflite absent")
FIRST_LAYER = {"ops": [0]}  # resnet8's first CONV_2D on the RTL: seconds, not minutes


@needs_resnet8
def test_a_model_scenario_takes_its_input_from_memory_and_its_tensors_round_trip(tmp_path):
    x = np.random.default_rng(5).integers(-128, 128, (1, 32, 32, 3), dtype=np.int8)
    r = cosim.run(str(SCENARIOS / "resnet8.yaml"), set=FIRST_LAYER, inputs={"input": x}, out=str(tmp_path / "a"))
    assert r.passed, r.console
    np.testing.assert_array_equal(r.inputs["input"], x)
    again = cosim.run(str(SCENARIOS / "resnet8.yaml"), set=FIRST_LAYER, inputs=r.inputs, out=str(tmp_path / "b"))
    assert again.passed, again.console
    assert sorted(again.outputs) == sorted(r.outputs)
    for name in r.outputs:
        np.testing.assert_array_equal(again.outputs[name], r.outputs[name])
    # Another input gives other outputs: the array is really what ran.
    other = cosim.run(str(SCENARIOS / "resnet8.yaml"), set=FIRST_LAYER, inputs={"input": x // 2},
                      out=str(tmp_path / "c"))
    assert any((other.outputs[n] != r.outputs[n]).any() for n in r.outputs)


@needs_resnet8
@pytest.mark.parametrize("array, message", [
    (np.zeros((1, 16, 16, 3), np.int8), r"inputs\['input'\] has shape \[1,16,16,3\], expected \[1,32,32,3\]"),
    (np.zeros((1, 32, 32, 3), np.float32), r"inputs\['input'\] holds fp32, expected int8"),
    (np.zeros((1, 32, 32, 3), np.uint8), r"inputs\['input'\] holds uint8, expected int8"),
])
def test_a_model_input_of_the_wrong_shape_or_dtype_is_input_error(tmp_path, array, message):
    with pytest.raises(cosim.InputError, match=message):
        cosim.run(str(SCENARIOS / "resnet8.yaml"), set=FIRST_LAYER, inputs={"input": array}, out=str(tmp_path))


def test_bf16_inputs_come_back_as_uint16_and_feed_back(tmp_path):
    scenario = str(SCENARIOS / "tinydnn_fwd.yaml")
    small = {"sizes.in_height": 6, "sizes.in_width": 6, "batch": 1}
    r = cosim.run(scenario, set=small, out=str(tmp_path / "a"))
    assert r.passed, r.console
    assert {a.dtype for a in r.inputs.values()} == {np.dtype(np.uint16)}
    again = cosim.run(scenario, set=small, seed=r.report["seed"] + 1, inputs=r.inputs, out=str(tmp_path / "b"))
    assert again.passed, again.console
    for name in r.inputs:
        np.testing.assert_array_equal(again.inputs[name], r.inputs[name])
    for name in r.outputs:
        np.testing.assert_array_equal(again.outputs[name], r.outputs[name])


# A run that goes on for minutes: tiny-dnn never started, watched for 10^9 cycles.
HANG = ("import cosim, sys\n"
        "print('running', flush=True)\n"
        "try:\n"
        "    cosim.run(sys.argv[1], set={'fault': 'no_start', 'testbench.timeout_cycles': 1000000000}, out=sys.argv[2])\n"
        "except KeyboardInterrupt:\n"
        "    print('KeyboardInterrupt', flush=True)\n"
        "    sys.exit(7)\n")


def status_of(out):
    try:
        return json.loads((out / "report.json").read_text()).get("status")
    except (OSError, ValueError):
        return None


@pytest.fixture
def hanging_run(tmp_path):
    """A Python process inside cosim.run of a run that hangs; yields
    (process, simulation child pid, out folder) once report.json says
    running. Whatever is left is killed afterwards."""
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.Popen([sys.executable, "-c", HANG, str(SCENARIOS / "tinydnn_fwd.yaml"), str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    seen = []
    try:
        assert wait_for(lambda: (seen.extend(children_of(proc.pid)) or seen) and status_of(out) == "running", 60), \
            "the run never started"
        yield proc, seen[0], out
    finally:
        for pid in seen:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def test_ctrl_c_stops_the_run_and_raises_keyboard_interrupt(hanging_run):
    proc, child, out = hanging_run
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)  # to Python alone (a terminal's Ctrl-C reaches both)
    stdout, stderr = proc.communicate(timeout=15)
    took = time.monotonic() - t0
    assert proc.returncode == 7, stdout + stderr
    assert "KeyboardInterrupt" in stdout
    assert took < 6, f"KeyboardInterrupt after {took:.1f} s"
    assert not alive(child)
    assert status_of(out) == "interrupted"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_the_simulation_child_dies_with_python(hanging_run, sig):
    proc, child, out = hanging_run
    proc.send_signal(sig)
    proc.wait(timeout=15)
    assert wait_for(lambda: not alive(child), 5), f"simulation child {child} outlived Python ({sig.name})"
    assert status_of(out) == "interrupted"
