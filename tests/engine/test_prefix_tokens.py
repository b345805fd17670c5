"""The prompt tokens CPM-Ant caches ahead of every sequence, under each engine layout: the architectural
minimum and transformers keep them as a fixed part of each layer; the serving engines, none of which runs
CPM-Ant, give no number rather than a block rounding of the context that leaves the prompt tokens out."""

from __future__ import annotations

import pytest

from registry.engine import compute
from registry.engine.adapters import layer_groups_from_config

CONFIG = {"model_type": "cpmant", "num_hidden_layers": 2, "num_attention_heads": 4, "dim_head": 8}
PER_TOKEN = 2 * 2 * 4 * 8 * 2
"""Two layers of K and V, four heads of eight values, two bytes each."""


@pytest.mark.parametrize("engine", ["ideal", "transformers"])
def test_the_prompt_tokens_are_held_beside_the_context(engine: str) -> None:
    result = compute(
        layer_groups_from_config(CONFIG), context_tokens=100, kv_dtype="bf16", engine_layout=engine
    )
    assert result.total_bytes == (32 + 100) * PER_TOKEN
    assert result.fixed_bytes == 32 * PER_TOKEN


@pytest.mark.parametrize("engine", ["vllm", "sglang", "llama.cpp"])
def test_serving_engines_refuse_the_prompt_tokens_and_size_the_rest(engine: str) -> None:
    result = compute(
        layer_groups_from_config(CONFIG), context_tokens=100, kv_dtype="bf16", engine_layout=engine
    )
    assert result.total_bytes is None
    assert result.unsupported and all("CPM-Ant" in reason for reason in result.unsupported)
    plain = layer_groups_from_config({**CONFIG, "prompt_length": 0})
    sized = compute(plain, context_tokens=100, kv_dtype="bf16", engine_layout=engine)
    assert sized.total_bytes is not None and sized.total_bytes >= 100 * PER_TOKEN
