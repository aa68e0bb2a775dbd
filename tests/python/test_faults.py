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
    repo = tmp_path / "repo"  # ../shared/models from repo/scenarios: absent
    (repo / "scenarios").mkdir(parents=True)
    shutil.copy(SCENARIOS / "resnet8.yaml", repo / "scenarios")
    r = cosim.run(str(repo / "scenarios" / "resnet8.yaml"), out=str(tmp_path / "out"))
    assert (r.status, r.exit_status) == ("skipped", 0)
    assert "model ../shared/models/resnet8_int8.tflite not found" in r.report["reason"]
