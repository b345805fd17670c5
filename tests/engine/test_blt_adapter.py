"""BLT's adapter read from its sub-configs, its windows kept whole by transformers and bounded by the
architectural minimum, and the serving engines' refusal of BLT's local layers, which only a model they do
not run keeps. Byte-exactness against transformers is held by the conformance tests."""

from __future__ import annotations

from typing import Any

import pytest

from registry.engine import compute
from registry.engine.adapters import ConfigFieldError, layer_groups_from_config
from registry.engine.layers import Attention, NoCache, SlidingWindow

SERVING = ("vllm", "sglang", "trtllm", "llama.cpp")


def _blt(**fields: Any) -> dict[str, Any]:
    return {"model_type": "blt", **fields}


def test_the_class_defaults_give_the_released_stacks() -> None:
    layout = layer_groups_from_config(_blt())
    mechanisms = layout.mechanisms()
    local = SlidingWindow(16, 64, 64, window=512, cached_whole=True, variant="blt")
    assert mechanisms == (local, *[NoCache()] * 25, *[local] * 9)
    assert any("global transformer" in note for note in layout.notes)


def test_each_stack_is_read_from_its_own_sub_config() -> None:
    encoder = {"hidden_size": 96, "num_attention_heads": 4, "num_key_value_heads": 2, "num_hidden_layers": 2}
    decoder = {
        "hidden_size": 96,
        "num_attention_heads": 3,
        "num_key_value_heads": None,
        "num_hidden_layers": 3,
    }
    config = _blt(
        local_attention_window_len=None,
        encoder_config=encoder,
        decoder_config=decoder,
        global_config={"num_hidden_layers": 4, "hidden_size": 128, "num_attention_heads": 8},
    )
    mechanisms = layer_groups_from_config(config).mechanisms()
    assert mechanisms == (
        *[Attention(2, 24, 24)] * 2,
        *[NoCache()] * 4,
        *[Attention(3, 32, 32)] * 3,
    )


def test_a_head_size_that_does_not_divide_is_refused() -> None:
    config = _blt(encoder_config={"hidden_size": 100, "num_attention_heads": 3})
    with pytest.raises(ConfigFieldError, match="encoder_config"):
        layer_groups_from_config(config)


def test_transformers_caches_every_byte_and_the_minimum_only_the_window() -> None:
    layout = layer_groups_from_config(_blt())
    per_byte = 10 * 2 * 16 * 64 * 2
    ideal = compute(layout, context_tokens=2_000, kv_dtype="bf16", engine_layout="ideal")
    whole = compute(layout, context_tokens=2_000, kv_dtype="bf16", engine_layout="transformers")
    assert ideal.total_bytes == 512 * per_byte
    assert whole.total_bytes == 2_000 * per_byte and whole.bytes_per_token == per_byte


@pytest.mark.parametrize("engine", SERVING)
def test_serving_engines_refuse_blts_local_layers(engine: str) -> None:
    result = compute(
        layer_groups_from_config(_blt()), context_tokens=100, kv_dtype="bf16", engine_layout=engine
    )
    assert result.total_bytes is None
    assert result.unsupported and all("BLT" in reason for reason in result.unsupported)
