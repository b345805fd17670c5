"""`registry explain`: a record's whole derivation and the verdict on each claim."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from registry.cli import main
from tests.conftest import REPO


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "tests" / "fixtures" / "seed-003" / "records", tmp_path / "records")
    (tmp_path / "records" / "models").mkdir()
    shutil.copy(REPO / "records" / "models" / "deepseek-v3.yaml", tmp_path / "records" / "models")
    return tmp_path


def test_a_run_record_is_explained_claim_by_claim(seed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--root", str(seed), "kv-efficiency/deepseek-v3-mla-vs-mha-128k"]) == 0
    out = capsys.readouterr().out
    claims = out.split("\nclaim ")[1:]
    assert len(claims) == 9
    assert "per token = 61 × (512 + 64) × 2 = 70,272 B = 68.6 KiB" in claims[0]
    assert "verdict: agrees" in claims[0]
    assert "F001 claim-mismatch" in claims[2] and "v-head-at-k-size" in claims[2]
    assert "hint: state 4,880 KiB" in claims[2]


def test_the_real_seed_record_agrees_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--root", str(REPO), "kv-efficiency/deepseek-v3-mla-vs-mha-128k"]) == 0
    out = capsys.readouterr().out
    assert out.count("verdict: agrees") == 9 and "F0" not in out


def test_a_model_is_explained_at_the_standard_point(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--root", str(REPO), "models/deepseek-v3"]) == 0
    out = capsys.readouterr().out
    assert "61 × mla" in out and "t = 131,072" in out


def test_unknown_ids_and_kinds_are_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--root", str(REPO), "models/nope"]) == 2
    assert "no record 'models/nope'" in capsys.readouterr().err
    assert main(["explain", "--root", str(REPO), "engines/vllm"]) == 2
