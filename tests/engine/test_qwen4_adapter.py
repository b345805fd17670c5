"""Qwen4-Exp's adapter: which layer is which, the first indexed layer's position ids, the per-layer
embeddings beside the DeltaNet, the class defaults, and the configs it refuses. (Byte-exactness against
transformers is held by the conformance tests.)"""

from __future__ import annotations

from typing import Any

import pytest

from registry.engine.adapters import ConfigFieldError, layer_groups_from_config
from registry.engine.adapters._state import dilated_conv, gated_delta_net, token_ids
from registry.engine.adapters.coverage import FULL_INDEXED, mechanism_labels, side_by_side, state
from registry.engine.layers import Attention, Parallel, Recurrent

INDEXER = {"indexer_n_heads": 2, "indexer_kv_heads": 1, "indexer_head_dim": 64}
DEFAULT_DELTA_NET = gated_delta_net(16, 32, 128, 128, 4)
"""Qwen4ExpTextConfig's linear_* defaults."""
DEFAULT_PLE = Recurrent(
    "ple", (dilated_conv("dilated conv", 4, 3, 4 * 2048), token_ids("n-gram token ids", 2))
)
"""ple_conv_kernel_size 4 dilated by ngram_size 3, over hc_count 4 x hidden_size 2048, and 3 - 1 token ids."""


def _text(**fields: Any) -> dict[str, Any]:
    return {"model_type": "qwen4_exp_text", **INDEXER, **fields}


def test_the_interval_makes_every_fourth_layer_indexed_with_the_class_defaults() -> None:
    layout = layer_groups_from_config(_text(num_hidden_layers=8))
    indexed = Attention(num_kv_heads=2, head_dim=256, v_head_dim=256, index_head_dim=64)
    first = Attention(num_kv_heads=2, head_dim=256, v_head_dim=256, index_head_dim=64, cached_position_ids=3)
    net = DEFAULT_DELTA_NET
    assert layout.mechanisms() == (net, net, net, first, net, net, net, indexed)
    assert mechanism_labels(layout) == {FULL_INDEXED, state("gated-deltanet")}


def test_layer_types_decide_and_full_attention_is_read_as_indexed() -> None:
    types = ["indexed_attention", "linear_attention", "full_attention"]
    layout = layer_groups_from_config(
        _text(num_hidden_layers=3, layer_types=types, full_attention_interval=1)
    )
    kinds = [type(m).__name__ for m in layout.mechanisms()]
    assert kinds == ["Attention", "Recurrent", "Attention"]
    first, _, other = layout.mechanisms()
    assert isinstance(first, Attention) and first.cached_position_ids == 3
    assert isinstance(other, Attention) and other.cached_position_ids is None


def test_the_ple_layers_keep_the_dilated_window_and_the_token_ids_beside_the_delta_net() -> None:
    layout = layer_groups_from_config(_text(num_hidden_layers=4, ple_layer_ids=[3, 1]))
    assert layout.mechanisms()[0] == layout.mechanisms()[2] == Parallel((DEFAULT_DELTA_NET, DEFAULT_PLE))
    assert layout.mechanisms()[1] == DEFAULT_DELTA_NET
    assert side_by_side(state("gated-deltanet"), state("ple")) in mechanism_labels(layout)


def test_the_ple_sizes_come_from_the_config() -> None:
    config = _text(
        num_hidden_layers=2,
        hidden_size=64,
        hc_count=3,
        ple_layer_ids=[1],
        ple_conv_kernel_size=5,
        ngram_size=4,
    )
    ple = layer_groups_from_config(config).mechanisms()[0]
    assert isinstance(ple, Parallel)
    dilated, ids = ple.parts[1].tensors  # type: ignore[union-attr]
    assert (dilated.shape, dilated.dilation, ids.shape, ids.role) == ((16, 192), 4, (3,), "tokens")


def test_the_wrapper_reads_its_text_config() -> None:
    wrapped = {"model_type": "qwen4_exp", "text_config": _text(num_hidden_layers=4, ple_layer_ids=[2])}
    assert layer_groups_from_config(wrapped).groups == layer_groups_from_config(wrapped["text_config"]).groups


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"ple_layer_ids": [4]}, "not a linear_attention layer"),
        ({"ple_layer_ids": [9]}, "outside 1..4"),
        ({"ple_layer_ids": [1], "ngram_size": 1}, "ngram_size"),
    ],
)
def test_ple_on_a_layer_transformers_refuses_is_refused(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(ConfigFieldError, match=words):
        layer_groups_from_config(_text(num_hidden_layers=4, **fields))


def test_an_indexed_layer_needs_the_indexer_head_dim() -> None:
    with pytest.raises(ConfigFieldError, match="indexer_head_dim"):
        layer_groups_from_config({"model_type": "qwen4_exp_text", "num_hidden_layers": 4})
    only_linear = {
        "model_type": "qwen4_exp_text",
        "num_hidden_layers": 2,
        "layer_types": ["linear_attention"] * 2,
    }
    assert set(layer_groups_from_config(only_linear).mechanisms()) == {DEFAULT_DELTA_NET}
