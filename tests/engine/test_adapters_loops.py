"""Adapters whose cache has more layers than the model builds, because layers run more than once and each
run keeps its own cache layers (Inkling 2 with a loop), and the class defaults of Inkling 2 and Lara Mini.
Byte-exactness against transformers is held by the conformance tests; these hold the rules on configs
those do not try (fields left out, loops out of range)."""

from __future__ import annotations

from typing import Any

import pytest

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
