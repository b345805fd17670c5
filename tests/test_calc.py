"""`registry calc`: the engine from the command line, in text and in the documented JSON shape."""

from __future__ import annotations

import json

import pytest

from registry.cli import main
from tests.conftest import REPO

CONFIGS = REPO / "tests" / "engine" / "configs"


def calc_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["calc", *args, "--format", "json"]) == 0
    payload: dict[str, object] = json.loads(capsys.readouterr().out)
    return payload


def test_deepseek_v3_mla_at_128k(capsys: pytest.CaptureFixture[str]) -> None:
    payload = calc_json(
        capsys, "--config", str(CONFIGS / "deepseek-v3.json"), "--context", "128K", "--layout", "ideal"
    )
    assert payload["bytes_per_token"] == 70272
    assert payload["total_bytes"] == 131072 * 70272
    assert payload["fixed_bytes"] == 0
    groups = payload["groups"]
    assert isinstance(groups, list) and groups[0]["mechanism"] == "mla" and groups[0]["layers"] == 61
    assert any("61 × (512 + 64) × 2 = 70,272 B" in line for line in payload["trace"])  # type: ignore[union-attr]


def test_context_suffixes_and_batch(capsys: pytest.CaptureFixture[str]) -> None:
    one = calc_json(
        capsys,
        "--config",
        str(CONFIGS / "llama-3.1-8b-instruct.json"),
        "--context",
        "1M",
        "--layout",
        "ideal",
    )
    four = calc_json(
        capsys,
        "--config",
        str(CONFIGS / "llama-3.1-8b-instruct.json"),
        "--context",
        "1,048,576",
        "--batch",
        "4",
        "--layout",
        "ideal",
    )
    assert one["context_tokens"] == 1048576 and one["bytes_per_token"] == 131072
    assert four["total_bytes"] == 4 * one["total_bytes"]  # type: ignore[operator]


def test_kv_dtype_changes_one_factor(capsys: pytest.CaptureFixture[str]) -> None:
    bf16 = calc_json(capsys, "--config", str(CONFIGS / "llama-3.1-8b-instruct.json"), "--layout", "ideal")
    fp8 = calc_json(
        capsys,
        "--config",
        str(CONFIGS / "llama-3.1-8b-instruct.json"),
        "--layout",
        "ideal",
        "--kv-dtype",
        "fp8",
    )
    assert fp8["total_bytes"] * 2 == bf16["total_bytes"]  # type: ignore[operator]


def test_text_output_shows_trace_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calc", "--config", str(CONFIGS / "gemma-3-27b-it.json"), "--context", "128K"]) == 0
    out = capsys.readouterr().out
    assert "sliding-window" in out and "attention" in out
    assert "total: " in out and "at 131,072 tokens × batch 1" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--context", "12 parsecs"], "--context"),
        (["--kv-dtype", "fp9"], "unknown dtype 'fp9'"),
        (["--layout", "tensorflow"], "tensorflow"),
        (["--batch", "0"], "--batch"),
    ],
)
def test_bad_options_are_exit_2(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calc", "--config", str(CONFIGS / "deepseek-v3.json"), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_unknown_model_type_is_a_clear_error(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    config = Path(str(tmp_path)) / "config.json"
    config.write_text(json.dumps({"model_type": "brand_new", "num_hidden_layers": 2}))
    assert main(["calc", "--config", str(config)]) == 2
    assert "brand_new" in capsys.readouterr().err
