"""An MLA layer over a window (Dots 3 Note's sliding layers) and the Dots 3 Note adapter's readings of a
config: the checkpoints' swa_* fields, transformers' per_layer_config, and use_dsa. Byte-exactness against
transformers is held by the conformance tests."""

from __future__ import annotations

from typing import Any

import pytest

from registry.engine import compute
from registry.engine.adapters import layer_groups_from_config
from registry.engine.layers import MLA, uniform_layer_groups


def _window_layout(window: int = 8) -> Any:
    return uniform_layer_groups("dots3_note_text", MLA(12, 4, window=window), 2)


def test_an_mla_window_keeps_at_most_its_window_under_the_architectural_minimum() -> None:
    per_token = 2 * (12 + 4) * 2
    inside = compute(_window_layout(), context_tokens=5, kv_dtype="bf16")
    beyond = compute(_window_layout(), context_tokens=100, kv_dtype="bf16")
    assert inside.total_bytes == 5 * per_token and inside.window_bytes == 5 * per_token
    assert beyond.total_bytes == 8 * per_token and beyond.bytes_per_token == 0


def test_transformers_keeps_window_minus_one_and_other_engines_refuse_an_mla_window() -> None:
    result = compute(_window_layout(), context_tokens=100, kv_dtype="bf16", engine_layout="transformers")
    assert result.total_bytes == 7 * 2 * (12 + 4) * 2
    for engine in ("vllm", "sglang", "trtllm", "llama.cpp"):
        refused = compute(_window_layout(), context_tokens=100, kv_dtype="bf16", engine_layout=engine)
        assert refused.total_bytes is None and refused.unsupported, engine


def _dots3(**fields: Any) -> dict[str, Any]:
    return {"model_type": "dots3_note", "num_hidden_layers": 6, "hidden_size": 64, **fields}


def _mechanisms(config: dict[str, Any]) -> list[MLA]:
    layout = layer_groups_from_config(config)
    per_layer = {layer: group.mechanism for group in layout.groups for layer in group.layers}
    mechanisms = [per_layer[i] for i in range(layout.num_layers)]
    assert all(isinstance(m, MLA) for m in mechanisms)
    return mechanisms  # type: ignore[return-value]


def test_the_released_pattern_with_the_checkpoints_swa_defaults() -> None:
    layers = _mechanisms(_dots3())
    assert [m.window for m in layers] == [None, None, 512, 512, 512, None]
    assert [m.index_head_dim for m in layers] == [128, 128, None, None, None, 128]
    assert (layers[2].kv_lora_rank, layers[2].qk_rope_head_dim) == (1024, 256 - 192)
    assert (layers[0].kv_lora_rank, layers[0].qk_rope_head_dim) == (512, 64)


@pytest.mark.parametrize(("use_dsa", "indexed"), [(False, None), (True, 128)])
def test_use_dsa_renames_the_global_layers_of_a_listed_layer_types(
    use_dsa: bool, indexed: int | None
) -> None:
    kinds = [
        "full_attention",
        "indexed_attention",
        "sliding_attention",
        "full_attention",
        "sliding_attention",
    ]
    layers = _mechanisms(_dots3(num_hidden_layers=5, layer_types=kinds, use_dsa=use_dsa))
    assert [m.index_head_dim for m in layers] == [indexed, indexed, None, indexed, None]


def test_per_layer_config_gives_a_sliding_layer_its_sizes_and_turns_off_the_default_indexer() -> None:
    kinds = ["full_attention", "sliding_attention"]
    config = _dots3(
        num_hidden_layers=2,
        layer_types=kinds,
        swa_kv_lora_rank=999,
        per_layer_config={"1": {"kv_lora_rank": 24, "qk_rope_head_dim": 8, "sliding_window": 16}},
    )
    full, sliding = _mechanisms(config)
    assert full.index_head_dim is None
    assert (sliding.kv_lora_rank, sliding.qk_rope_head_dim, sliding.window) == (24, 8, 16)
