"""A sparse indexer's key cache beside K and V (MiniMax-M3): the adapter's reading of the config, the
engine layouts' bytes or refusals, and the catalogue naming the indexer left out. (Byte-exactness
against transformers is held by the conformance tests.)"""

from __future__ import annotations

from typing import Any

import pytest

from registry.engine import Attention, compute, uniform_layer_groups
from registry.engine.adapters import ConfigFieldError, geometry_fields, layer_groups_from_config
from registry.engine.adapters.coverage import FULL, FULL_INDEXED, mechanism_labels
from registry.engine.misapply import Side, Situation, explain_situation
from registry.engine.units import parse_quantity
from registry.engine.variants import Run, measure

SPARSE = Attention(num_kv_heads=4, head_dim=128, v_head_dim=128, index_head_dim=128)


def _m3(**fields: Any) -> dict[str, Any]:
    return {"model_type": "minimax_m3_vl_text", "num_hidden_layers": 4, **fields}


def _hub(freq: list[int], **sparse: Any) -> dict[str, Any]:
    """A config shaped as the hub's: the indexer's fields under ``sparse_attention_config``."""
    return _m3(sparse_attention_config={"sparse_attention_freq": freq, **sparse})


def test_the_hubs_sparse_attention_freq_marks_the_indexed_layers() -> None:
    layout = layer_groups_from_config(_hub([0, 1, 1, 0], sparse_index_dim=64))
    full = Attention(num_kv_heads=4, head_dim=128, v_head_dim=128)  # MiniMaxM3VLTextConfig's defaults
    indexed = Attention(num_kv_heads=4, head_dim=128, v_head_dim=128, index_head_dim=64)
    assert layout.mechanisms() == (full, indexed, indexed, full)
    assert mechanism_labels(layout) == {FULL, FULL_INDEXED}


def test_layer_types_win_and_a_flat_index_head_dim_is_read() -> None:
    types = ["minimax_m3_sparse", "full_attention", "full_attention", "minimax_m3_sparse"]
    config = _m3(layer_types=types, index_head_dim=32, head_dim=64, num_key_value_heads=2)
    config["sparse_attention_config"] = {"sparse_attention_freq": [0, 0, 0, 0]}
    indexed = Attention(2, 64, 64, index_head_dim=32)
    assert layer_groups_from_config(config).mechanisms() == (
        indexed,
        Attention(2, 64, 64),
        Attention(2, 64, 64),
        indexed,
    )


def test_the_hubs_sparse_index_dim_wins_over_a_flat_one() -> None:
    config = _hub([1, 1, 1, 1], sparse_index_dim=96)
    config["index_head_dim"] = 32
    assert {m.index_head_dim for m in layer_groups_from_config(config).mechanisms()} == {96}  # type: ignore[union-attr]


def test_without_a_layer_list_every_layer_is_full_attention_and_a_note_says_so() -> None:
    layout = layer_groups_from_config(_m3())
    assert set(layout.mechanisms()) == {Attention(4, 128, 128)}
    assert any("every layer full" in note for note in layout.notes)


def test_a_sparse_attention_freq_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ConfigFieldError, match="sparse_attention_freq"):
        layer_groups_from_config(_hub([0, 1]))


def test_the_ideal_layout_adds_one_indexer_key_per_token_to_k_and_v() -> None:
    layout = uniform_layer_groups("minimax_m3_vl_text", SPARSE, 3)
    result = compute(layout, context_tokens=1000, kv_dtype="bf16")
    assert result.bytes_per_token == 3 * (2 * 4 * 128 + 128) * 2
    assert result.total_bytes == 1000 * result.bytes_per_token
    assert any("indexer keys" in line for line in result.groups[0].trace)


def test_transformers_keeps_the_keys_in_the_model_dtype_from_release_5() -> None:
    layout = uniform_layer_groups("minimax_m3_vl_text", SPARSE, 1)
    assert compute(layout, context_tokens=7, engine_layout="transformers").total_bytes == 7 * 1152 * 2
    old = compute(layout, context_tokens=7, engine_layout="transformers@4")
    assert old.total_bytes is None and "4.x has no MiniMax-M3" in old.unsupported[0]


@pytest.mark.parametrize("engine", ["vllm", "sglang", "llama.cpp"])
def test_engines_whose_indexer_layout_was_not_read_refuse_rather_than_guess(engine: str) -> None:
    result = compute(uniform_layer_groups("x", SPARSE, 1), context_tokens=64, engine_layout=engine)
    assert result.total_bytes is None
    assert "indexer beside attention" in result.unsupported[0]
    plain = compute(
        uniform_layer_groups("x", Attention(4, 128, 128), 1), context_tokens=64, engine_layout=engine
    )
    assert plain.total_bytes is not None


def test_the_indexer_left_out_is_named_on_an_attention_layer() -> None:
    config = _hub([0, 1, 1, 1], num_hidden_layers=4)
    layout = layer_groups_from_config(config)
    run = Run(context_tokens=131072, kv_dtype="bf16", model_dtype="bf16")
    subject = Side("actual", layout, layout, geometry_fields(config), run)
    without = 4 * 2 * 4 * 128 * 2
    exact = measure(layout, run, "bytes_per_token").value
    assert exact == without + 3 * 128 * 2
    situation = Situation("bytes_per_token", subject, None, parse_quantity(f"{without:,} B"), 131072)
    match = explain_situation(situation, exact)[1].match
    assert match is not None and match.name == "indexer-omitted"
