"""Dory's looped stack read as transformers 5.24.0 caches it (``configuration_dory.py``,
``DoryModel.forward`` in ``modeling_dory.py``): per loop, the recurrent section's cache layers once more for
every loop after the first, numbered after the stack; written by the last loop only, once."""

from __future__ import annotations

import pytest

from registry.engine.adapters import ConfigFieldError, layer_groups_from_config
from registry.engine.layers import Attention, SlidingWindow

KINDS = ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]
CONFIG = {
    "model_type": "dory",
    "num_hidden_layers": 4,
    "n_input_layers": 1,
    "n_output_layers": 1,
    "n_recurrent_loops": 3,
    "num_key_value_heads": 2,
    "head_dim": 12,
    "sliding_window": 8,
    "layer_types": KINDS,
}
FULL, SLIDING = Attention(2, 12, 12), SlidingWindow(2, 12, 12, 8)


def test_per_loop_adds_the_recurrent_layers_once_per_extra_loop() -> None:
    # layers 1 and 2 are the recurrent section (full, sliding); loops 2 and 3 add them as 4, 5 and 6, 7
    layout = layer_groups_from_config(CONFIG)
    assert layout.num_layers == 4 + 2 * 2
    assert {g.mechanism: g.layers for g in layout.groups} == {SLIDING: (0, 2, 5, 7), FULL: (1, 3, 4, 6)}


def test_last_loop_keeps_one_cache_per_layer() -> None:
    layout = layer_groups_from_config({**CONFIG, "recurrent_kv_cache_mode": "last_loop"})
    assert layout.num_layers == 4


def test_the_released_shape_lists_attention_and_mlp_blocks_with_doubled_counts() -> None:
    released = {
        **CONFIG,
        "num_hidden_layers": 8,
        "n_input_layers": 2,
        "n_output_layers": 2,
        "layer_types": [block for kind in KINDS for block in (kind, "mlp")],
    }
    assert layer_groups_from_config(released).groups == layer_groups_from_config(CONFIG).groups


def test_class_defaults_fill_what_the_config_leaves_out() -> None:
    # 36 layers, full every 4th: 8 input, 20 recurrent, 8 output, 2 loops: 20 more cached layers
    layout = layer_groups_from_config({"model_type": "dory"})
    assert layout.num_layers == 56
    assert {g.mechanism for g in layout.groups} == {Attention(4, 256, 256), SlidingWindow(4, 256, 256, 1024)}


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"recurrent_kv_cache_mode": "every_loop"}, "recurrent_kv_cache_mode"),
        ({"n_recurrent_loops": 10**9}, "n_recurrent_loops"),
        ({"n_input_layers": 3, "n_recurrent_layers": 2}, "n_recurrent_layers"),
        ({"layer_types": KINDS[:3]}, "layer_types"),
    ],
)
def test_a_config_no_model_can_have_is_refused_naming_the_field(
    fields: dict[str, object], field: str
) -> None:
    with pytest.raises(ConfigFieldError, match=field):
        layer_groups_from_config({**CONFIG, **fields})


def test_a_paired_list_names_the_place_of_a_bad_attention_block() -> None:
    """The shared ``layer_types`` reader checks the attention blocks of a released list, and names the
    entry by its place in the list as written (with the mlp blocks), not by the layer's number."""
    blocks = [block for kind in KINDS for block in (kind, "mlp")]
    blocks[4] = "linear_attention"
    released = {
        **CONFIG,
        "num_hidden_layers": 8,
        "n_input_layers": 2,
        "n_output_layers": 2,
        "layer_types": blocks,
    }
    with pytest.raises(ConfigFieldError, match=r"layer_types\[4\]"):
        layer_groups_from_config(released)
