"""Reformer's adapter: every layer's input hidden states per token in place of K and V (kept whole by
transformers in the local layers, whose chunks bound the architectural minimum), the LSH layers' int64
hash buckets beside them from one LSH chunk on, and the serving engines' refusal. Byte-exactness against
transformers' ``ReformerDynamicCache`` is held by the conformance tests."""

from __future__ import annotations

from typing import Any

import pytest

from registry.engine import compute
from registry.engine.adapters import ConfigFieldError, layer_groups_from_config
from registry.engine.adapters.coverage import HIDDEN_BUCKETS, HIDDEN_WINDOW, mechanism_labels
from registry.engine.layers import Attention, SlidingWindow

SERVING = ("vllm", "sglang", "trtllm", "llama.cpp")
LOCAL = SlidingWindow(12, 64, 64, window=128, cached_whole=True, hidden_state=256)
LSH = Attention(12, 64, 64, hidden_state=256, buckets=12, buckets_from=64)


def _reformer(**fields: Any) -> dict[str, Any]:
    return {"model_type": "reformer", **fields}


def test_the_class_defaults_give_three_local_and_three_lsh_layers() -> None:
    layout = layer_groups_from_config(_reformer())
    assert layout.mechanisms() == (LOCAL, LSH) * 3
    assert mechanism_labels(layout) == {HIDDEN_WINDOW, HIDDEN_BUCKETS}
    assert any("attn_layers is not in the config" in note for note in layout.notes)


def test_hashes_multiply_the_buckets_and_chunks_bound_the_local_window() -> None:
    config = _reformer(
        attn_layers=["lsh", "local"], num_hashes=4, local_attn_chunk_length=32, local_num_chunks_before=2
    )
    lsh, local = layer_groups_from_config(config).mechanisms()
    assert isinstance(lsh, Attention) and lsh.buckets == 12 * 4
    assert isinstance(local, SlidingWindow) and local.window == 3 * 32


def test_transformers_keeps_buckets_from_one_lsh_chunk_on() -> None:
    """6 layers × 256 values × 2 B, and from 64 tokens 3 LSH layers × 12 heads × 8 B."""
    layout = layer_groups_from_config(_reformer())
    before = compute(layout, context_tokens=50, kv_dtype="bf16", engine_layout="transformers")
    after = compute(layout, context_tokens=100, kv_dtype="bf16", engine_layout="transformers")
    assert before.total_bytes == 50 * 6 * 256 * 2
    assert after.total_bytes == 100 * (6 * 256 * 2 + 3 * 12 * 8)
    assert after.bytes_per_token == 6 * 512 + 3 * 96


def test_the_minimum_keeps_the_local_layers_chunks_only() -> None:
    layout = layer_groups_from_config(_reformer())
    ideal = compute(layout, context_tokens=1_000, kv_dtype="bf16", engine_layout="ideal")
    assert ideal.total_bytes == 3 * 128 * 512 + 3 * 1_000 * (512 + 96)


def test_an_unknown_attention_kind_is_refused() -> None:
    with pytest.raises(ConfigFieldError, match=r"attn_layers\[1\]"):
        layer_groups_from_config(_reformer(attn_layers=["local", "global"]))


@pytest.mark.parametrize("engine", SERVING)
def test_serving_engines_refuse_reformers_layers(engine: str) -> None:
    layout = layer_groups_from_config(_reformer())
    result = compute(layout, context_tokens=100, kv_dtype="bf16", engine_layout=engine)
    assert result.total_bytes is None
    assert result.unsupported and all("Reformer" in reason for reason in result.unsupported)
