"""`registry fit`: weights, cache and state against a hardware's memory, the largest batch at a context
and the longest context at a batch, each with its derivation; the model pages' hardware table is the
same computation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from registry.cli import main
from registry.engine.layers import Attention, LayerGroup, LayerGroups, Recurrent, StateTensor
from registry.results import fit as fit_module
from registry.results.fit import FitSettings, fit, sequences_that_fit, weight_bytes
from registry.site import _model_page
from tests.browser.site_registry import make_registry


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site tests' registry: an 8 B Llama-like model (131,072 B a token in bf16, 128K at most) and an
    80 GB GPU."""
    return make_registry(tmp_path_factory.mktemp("fit") / "registry")


def _fit(root: Path, capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> dict[str, object]:
    argv = ["fit", "--root", str(root), "--model", "example-llama", "--hardware", "example-gpu", *args]
    assert main([*argv, "--format", "json"]) == code
    payload: dict[str, object] = json.loads(capsys.readouterr().out)
    return payload


def test_weights_cache_and_the_largest_batch(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = _fit(root, capsys)
    # 8 B parameters in bf16 are 16 GB; 80 GB leaves 64 GB for sequences of 16 GiB at 128K: 3 of them.
    assert answer["memory_bytes"] == 80 * 10**9
    assert answer["weight_bytes"] == 16 * 10**9
    assert answer["room_bytes"] == 64 * 10**9
    assert answer["cache_bytes"] == 16 * 2**30
    assert answer["largest_batch"] == 3 and answer["fits"] is True
    # One sequence fits to the model's own maximum, which bounds it before the memory does.
    assert answer["longest_context"] == 131072
    assert answer["context_limit"] == "the model's maximum context"


def test_the_model_page_table_reads_the_same_answer(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The page shows 3 (bf16 KV) and 7 (fp8 KV) for this GPU (tests/test_site.py): the fit says so too,
    through the one function both use."""
    assert _model_page.sequences_that_fit is fit_module.sequences_that_fit
    assert _model_page.weight_bytes is fit_module.weight_bytes
    assert _fit(root, capsys)["largest_batch"] == 3
    assert _fit(root, capsys, "--kv-dtype", "fp8")["largest_batch"] == 7


def test_the_longest_context_is_the_last_token_that_fits(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = _fit(root, capsys, "--batch", "8", "--context", "32K", "--weights", "fp8")
    room = 72 * 10**9  # 80 GB less 8 GB of fp8 weights
    assert answer["room_bytes"] == room and answer["cache_bytes"] == 8 * 32768 * 131072
    longest = answer["longest_context"]
    assert isinstance(longest, int)
    # vLLM allocates blocks of 16 tokens: the cache at the answer fits, one token more does not.
    assert 8 * 16 * -(-longest // 16) * 131072 <= room < 8 * 16 * -(-(longest + 1) // 16) * 131072
    text = "\n".join(str(line) for line in answer["trace"])  # type: ignore[attr-defined]
    assert f"longest context at batch 8: {longest:,} tokens" in text
    assert f"{longest + 1:,} tokens need" in text


def test_a_batch_that_does_not_fit_is_exit_1(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = _fit(root, capsys, "--batch", "4", code=1)
    assert answer["fits"] is False and answer["largest_batch"] == 3


def test_wider_weights_leave_fewer_sequences(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = _fit(root, capsys, "--weights", "fp32", "--count", "1", code=0)
    assert answer["weight_bytes"] == 32 * 10**9 and answer["largest_batch"] == 2  # 48 GB ÷ 16 GiB
    assert (
        main(
            [
                "fit",
                "--root",
                str(root),
                "--model",
                "example-llama",
                "--hardware",
                "example-gpu",
                "--context",
                "1M",
                "--weights",
                "fp32",
            ]
        )
        == 1
    )
    text = capsys.readouterr().out
    assert "longest context at batch 1: 131,072 tokens, the model's maximum context" in text
    assert "upper bound" in text


def test_text_output_shows_the_derivation(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "fit",
                "--root",
                str(root),
                "--model",
                "example-llama",
                "--hardware",
                "example-gpu",
                "--count",
                "2",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert text.startswith("models/example-llama on 2 × hardware/example-gpu (80 GB per device)")
    assert "memory: 160,000,000,000 B" in text
    assert (
        "weights: 8 B parameters × bf16 (config.json torch_dtype bfloat16; name another with --weights)"
        in text
    )
    assert "largest batch at 131,072 tokens: ⌊144,000,000,000 ÷ 17,179,869,184⌋ = 8" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "nope"], "no record 'models/nope'"),
        (["--kv-dtype", "fp7"], "unknown dtype 'fp7'"),
        (["--weights", "fp7"], "unknown dtype 'fp7'"),
        (["--batch", "0"], "at least 1"),
        (["--context", "lots"], "--context"),
    ],
)
def test_bad_options_are_exit_2(
    root: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = {"--model": "example-llama", "--hardware": "example-gpu"}
    for option, value in zip(args[::2], args[1::2], strict=True):
        base[option] = value
    argv = ["fit", "--root", str(root), *[part for pair in base.items() for part in pair]]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_cache_that_stops_growing_fits_any_context() -> None:
    """A recurrent model's state is fixed: with no maximum stated, any context fits."""
    state = Recurrent("mamba2", (StateTensor("ssm", (16, 128, 128)),))
    layout = LayerGroups("test", (LayerGroup(state, (0, 1, 2, 3)),))
    answer = fit(
        layout,
        memory_bytes=10**9,
        weights=None,
        context_tokens=4096,
        settings=FitSettings("bf16", "bf16", None, "ideal"),
    )
    assert answer.longest_context is not None and answer.context_limit == "the cache stops growing"
    assert any("any: the cache stops growing" in line for line in answer.trace)
    assert any("weights: not subtracted" in line for line in answer.trace)


def test_weights_that_fill_the_memory_leave_no_room() -> None:
    layout = LayerGroups("test", (LayerGroup(Attention(1, 64, 64), (0,)),))
    answer = fit(layout, memory_bytes=1000, weights=2000, context_tokens=1)
    assert answer.largest_batch == 0 and answer.longest_context == 0 and not answer.fits
    assert any("the weights alone exceed the memory by" in line for line in answer.trace)


def test_one_token_too_many_is_no_context() -> None:
    layout = LayerGroups("test", (LayerGroup(Attention(1, 64, 64), (0,)),))
    answer = fit(
        layout, memory_bytes=100, weights=0, context_tokens=1, settings=FitSettings(engine_layout="ideal")
    )
    assert answer.longest_context == 0 and not answer.fits  # 256 B a token


def test_sequences_and_weights_arithmetic() -> None:
    assert sequences_that_fit(100, 30, 10) == 3
    assert sequences_that_fit(100, 30, 200) == 0
    assert sequences_that_fit(100, None) is None
    assert weight_bytes(8.03, "fp8") == 8_030_000_000 and weight_bytes(None, "bf16") is None
    assert weight_bytes(0.5, "nvfp4") is not None


def test_a_context_beyond_the_models_maximum_is_said_to_be(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    beyond = "context: 1,048,576 tokens, beyond the model's maximum of 131,072 tokens"
    answer = _fit(root, capsys, "--context", "1M", "--count", "8")
    assert beyond in answer["trace"]  # type: ignore[operator]
    assert not any(
        str(line).startswith("context:")
        for line in _fit(root, capsys, "--context", "128K")["trace"]  # type: ignore[attr-defined]
    )
