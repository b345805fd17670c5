"""`registry calc`: the engine from the command line, in text and in the documented JSON shape."""

from __future__ import annotations

import json
from pathlib import Path

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
    config = Path(str(tmp_path)) / "config.json"
    config.write_text(json.dumps({"model_type": "brand_new", "num_hidden_layers": 2}))
    assert main(["calc", "--config", str(config)]) == 2
    assert "brand_new" in capsys.readouterr().err


QWEN3_NEXT = str(CONFIGS / "qwen3-next-80b-a3b-thinking.json")
# 36 gated-DeltaNet layers (48 with full attention every 4th): conv (4 - 1) x (2 x 16 x 128 + 32 x 128)
# values and a 32 x 128 x 128 state per layer, both in the model dtype under vllm's defaults.
QWEN3_NEXT_STATE_VALUES = 36 * (3 * (2 * 16 * 128 + 32 * 128) + 32 * 128 * 128)


def test_fp8_kv_hybrid_takes_the_model_dtype_from_the_config(capsys: pytest.CaptureFixture[str]) -> None:
    """The config's torch_dtype (bfloat16) is the dtype vLLM keeps the state in when the KV cache is
    fp8, so the state is computable without being told."""
    payload = calc_json(capsys, "--config", QWEN3_NEXT, "--kv-dtype", "fp8", "--context", "4K")
    assert payload["not_computable"] == []
    assert payload["fixed_bytes"] == QWEN3_NEXT_STATE_VALUES * 2


def test_weights_name_the_model_dtype(capsys: pytest.CaptureFixture[str]) -> None:
    fp32 = calc_json(capsys, "--config", QWEN3_NEXT, "--kv-dtype", "fp8", "--weights", "fp32")
    assert fp32["fixed_bytes"] == QWEN3_NEXT_STATE_VALUES * 4
    # quantized weights say nothing of the dtype the model computes in: the config's is kept
    fp8 = calc_json(capsys, "--config", QWEN3_NEXT, "--kv-dtype", "fp8", "--weights", "fp8")
    assert fp8["fixed_bytes"] == QWEN3_NEXT_STATE_VALUES * 2


def test_without_a_stated_dtype_the_state_is_not_computable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = json.loads(Path(QWEN3_NEXT).read_text())
    del config["torch_dtype"]
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    payload = calc_json(capsys, "--config", str(path), "--kv-dtype", "fp8")
    assert payload["fixed_bytes"] is None
    assert any("model dtype" in reason for reason in payload["not_computable"])  # type: ignore[union-attr]
    told = calc_json(capsys, "--config", str(path), "--kv-dtype", "fp8", "--weights", "bf16")
    assert told["fixed_bytes"] == QWEN3_NEXT_STATE_VALUES * 2


def test_unknown_weights_format_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calc", "--config", QWEN3_NEXT, "--weights", "fp7"]) == 2
    assert "fp7" in capsys.readouterr().err
