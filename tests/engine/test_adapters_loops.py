"""Adapters whose cache has more layers than the model builds, because layers run more than once and each
run keeps its own cache layers (Inkling 2 with a loop), and the class defaults of Inkling 2 and Lara Mini.
Byte-exactness against transformers is held by the conformance tests; these hold the rules on configs
those do not try (fields left out, loops out of range)."""

from __future__ import annotations

from typing import Any

import pytest

from registry.engine import compute
from registry.engine.adapters import ConfigValueError, layer_groups_from_config
from registry.engine.layers import Attention, LayerGroups, Parallel, Recurrent, SlidingWindow


def _inkling2(model_type: str, **fields: Any) -> dict[str, Any]:
    return {"model_type": model_type, "num_hidden_layers": 12, "hidden_size": 64, **fields}


def _attention(layout: LayerGroups) -> list[object]:
    """The attention part of each cache layer, in layer order."""
    per_layer: dict[int, object] = {}
    for group in layout.groups:
        assert isinstance(group.mechanism, Parallel)
        per_layer.update(dict.fromkeys(group.layers, group.mechanism.parts[0]))
    return [per_layer[i] for i in range(layout.num_layers)]


def test_inkling2_without_layer_types_slides_all_but_every_sixth_at_its_own_defaults() -> None:
    layout = layer_groups_from_config(_inkling2("inkling2_text", local_layer_ids=[0]))
    kinds = _attention(layout)
    assert [isinstance(kind, Attention) for kind in kinds] == [(i + 1) % 6 == 0 for i in range(12)]
    assert kinds[0] == SlidingWindow(num_kv_heads=8, head_dim=128, v_head_dim=128, window=1024)
    assert kinds[5] == Attention(num_kv_heads=8, head_dim=128, v_head_dim=128)
    assert any("Inkling2TextConfig default 1024" in note for note in layout.notes)


def test_the_loop_adds_a_copy_of_the_looped_layers_per_further_pass() -> None:
    looped = layer_groups_from_config(_inkling2("inkling2_loop_text", num_hidden_layers=24))
    kinds = _attention(looped)
    assert looped.num_layers == 24 + 2 * 12
    assert kinds[24:36] == kinds[6:18] and kinds[36:48] == kinds[6:18]
    assert any("layers 6 to 17 run 3 times" in note for note in looped.notes)


def test_loop_config_wins_over_the_flat_fields_transformers_also_writes() -> None:
    flat = {"loop_layer_index_start": 6, "loop_layer_index_end": 12, "loop_num_passes": 4}
    nested = {"loop_config": {"core_start": 11, "core_end": 12, "num_passes": 2}}
    assert layer_groups_from_config(_inkling2("inkling2_loop_text", **flat)).num_layers == 12 + 3 * 6
    assert layer_groups_from_config(_inkling2("inkling2_loop_text", **flat, **nested)).num_layers == 12 + 1


@pytest.mark.parametrize(
    "fields",
    [
        {"loop_config": {"core_start": 6, "core_end": 18}},
        {"loop_layer_index_start": 8, "loop_layer_index_end": 6},
        {"loop_config": {"core_start": 6, "core_end": 12, "num_passes": 10**9}},
    ],
)
def test_a_loop_outside_the_layers_or_too_long_is_refused(fields: dict[str, Any]) -> None:
    with pytest.raises(ConfigValueError):
        layer_groups_from_config(_inkling2("inkling2_loop_text", **fields))


def test_lara_mini_without_layer_types_repeats_the_released_pattern_at_the_class_defaults() -> None:
    layout = layer_groups_from_config({"model_type": "lara_mini", "num_hidden_layers": 7, "hidden_size": 64})
    kinds = {layer: group.mechanism for group in layout.groups for layer in group.layers}
    assert [type(kinds[i]).__name__ for i in range(7)] == [
        "Recurrent",
        "SlidingWindow",
        "Recurrent",
        "Attention",
        "SlidingWindow",
        "Recurrent",
        "SlidingWindow",
    ]
    assert kinds[1] == SlidingWindow(num_kv_heads=4, head_dim=128, v_head_dim=128, window=512)
    state = kinds[0]
    assert isinstance(state, Recurrent)
    assert [tensor.shape for tensor in state.tensors] == [(3, 2 * 8 * 128 + 16 * 128), (16, 128, 128)]


def test_hrm_text_caches_every_run_of_each_stack_as_written_by_the_hub_or_by_transformers() -> None:
    hub = {"model_type": "hrm_text", "num_hidden_layers": 3, "num_attention_heads": 4, "hidden_size": 64}
    layout = layer_groups_from_config(hub)
    assert layout.num_layers == 3 * 2 * (3 + 1)
    assert layout.groups[0].mechanism == Attention(num_kv_heads=4, head_dim=128, v_head_dim=128)
    written = {**hub, "num_hidden_layers": 24, "num_layers_per_stack": 3}
    assert layer_groups_from_config(written) == layout
    with pytest.raises(ConfigValueError, match="num_hidden_layers"):
        layer_groups_from_config({**hub, "num_layers_per_stack": 3})


def test_cpmant_keeps_its_prompt_tokens_as_a_fixed_part_of_every_layer() -> None:
    config = {"model_type": "cpmant", "num_hidden_layers": 2, "num_attention_heads": 4, "dim_head": 8}
    layout = layer_groups_from_config(config)
    result = compute(layout, context_tokens=100, batch=1, kv_dtype="bf16", engine_layout="ideal")
    per_token = 2 * 4 * 8 * 2 * 2
    assert result.bytes_per_token == per_token
    assert result.fixed_bytes == 32 * per_token
    assert result.total_bytes == (100 + 32) * per_token
    assert any("32 prefix tokens" in line for line in result.trace)
    none = layer_groups_from_config({**config, "prompt_length": 0})
    assert compute(none, context_tokens=100, batch=1, kv_dtype="bf16").fixed_bytes == 0
