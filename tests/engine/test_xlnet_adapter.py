"""XLNet's adapter: each layer's input hidden states (its ``mems``) per token in place of K and V, the
last ``mem_len`` of them or every one, sized by the architectural minimum and transformers and refused by
the serving engines, which run no XLNet model. Byte-exactness against transformers' ``mems`` is held by
the conformance tests."""

from __future__ import annotations

from typing import Any

import pytest

from registry.engine import compute
from registry.engine.adapters import ConfigFieldError, layer_groups_from_config
from registry.engine.adapters.coverage import HIDDEN, HIDDEN_WINDOW, mechanism_labels
from registry.engine.layers import Attention, SlidingWindow

SERVING = ("vllm", "sglang", "trtllm", "llama.cpp")
BASE = {"model_type": "xlnet", "d_model": 768, "n_layer": 12, "n_head": 12, "d_head": 64}
"""xlnet-base-cased's geometry."""


def _xlnet(**fields: Any) -> dict[str, Any]:
    return {**BASE, **fields}


def test_the_class_defaults_keep_the_last_512_hidden_states_of_24_layers() -> None:
    layout = layer_groups_from_config({"model_type": "xlnet"})
    assert layout.mechanisms() == (SlidingWindow(16, 64, 64, window=512, hidden_state=1024),) * 24
    assert any("mem_len is not in the config" in note for note in layout.notes)
    assert mechanism_labels(layout) == {HIDDEN_WINDOW}


@pytest.mark.parametrize("mem_len", [None, 0])
def test_no_mem_len_keeps_every_hidden_state(mem_len: int | None) -> None:
    layout = layer_groups_from_config(_xlnet(mem_len=mem_len))
    assert layout.mechanisms() == (Attention(12, 64, 64, hidden_state=768),) * 12
    assert mechanism_labels(layout) == {HIDDEN}


def test_hugging_face_names_read_as_xlnets_own() -> None:
    own = layer_groups_from_config(_xlnet(mem_len=None))
    aliased = {"model_type": "xlnet", "hidden_size": 768, "num_hidden_layers": 12, "num_attention_heads": 12}
    assert layer_groups_from_config({**aliased, "mem_len": None}).groups == own.groups


@pytest.mark.parametrize("engine", ["ideal", "transformers"])
def test_a_token_costs_its_hidden_state_in_every_layer(engine: str) -> None:
    """12 layers × 768 values × 2 B = 18,432 B per token, half of K and V's 36,864 B."""
    layout = layer_groups_from_config(_xlnet(mem_len=None))
    result = compute(layout, context_tokens=1_000, kv_dtype="bf16", engine_layout=engine)
    assert result.bytes_per_token == 12 * 768 * 2 == 18_432
    assert result.total_bytes == 1_000 * 18_432


@pytest.mark.parametrize("engine", ["ideal", "transformers"])
def test_mem_len_bounds_the_hidden_states_kept(engine: str) -> None:
    """transformers keeps all ``mem_len`` hidden states (``cache_mem``), not the ``window − 1`` tokens of
    a sliding-window K and V cache."""
    layout = layer_groups_from_config(_xlnet(mem_len=384))
    inside = compute(layout, context_tokens=100, kv_dtype="fp32", engine_layout=engine)
    beyond = compute(layout, context_tokens=4_096, kv_dtype="fp32", engine_layout=engine)
    assert inside.total_bytes == 100 * 12 * 768 * 4
    assert beyond.total_bytes == 384 * 12 * 768 * 4


def test_the_trace_names_the_hidden_states() -> None:
    layout = layer_groups_from_config(_xlnet(mem_len=None))
    result = compute(layout, context_tokens=10, kv_dtype="bf16", engine_layout="ideal")
    assert "hidden states" in str(result.trace)


def test_reuse_len_is_refused() -> None:
    with pytest.raises(ConfigFieldError, match="reuse_len"):
        layer_groups_from_config(_xlnet(reuse_len=256))
    assert layer_groups_from_config(_xlnet(reuse_len=None)).num_layers == 12


@pytest.mark.parametrize("engine", SERVING)
def test_serving_engines_refuse_xlnets_hidden_states(engine: str) -> None:
    layout = layer_groups_from_config(_xlnet())
    result = compute(layout, context_tokens=100, kv_dtype="bf16", engine_layout=engine)
    assert result.total_bytes is None
    assert result.unsupported and all("XLNet" in reason for reason in result.unsupported)
