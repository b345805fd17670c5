"""How each per-layer field is read: which layers a list, pattern or flag selects, and what they keep.

Scaled-down synthetic configs (configs/synthetic/) and small edits of published ones; every assertion
is about a reading a user could get wrong by hand (1-based lists, flags that mean the opposite of
their name, windows switched off by another field).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from registry.engine.adapters import layer_groups_from_config
from registry.engine.layers import MLA, Attention, Chunked, LayerGroups, NoCache, Recurrent, SlidingWindow

CONFIGS = Path(__file__).parent / "configs"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CONFIGS / name).read_text(encoding="utf-8"))
    return data


def layers_of(layout: LayerGroups, kind: str) -> tuple[int, ...]:
    """Sorted main-stack layer indices whose mechanism is ``kind``."""
    return tuple(sorted(i for g in layout.groups if g.mechanism.kind == kind for i in g.layers))


def state_shapes(mechanism: object) -> dict[str, tuple[int | None, ...]]:
    assert isinstance(mechanism, Recurrent)
    return {tensor.name: tensor.shape for tensor in mechanism.tensors}


def test_mistral_window_applies_to_every_layer() -> None:
    layout = layer_groups_from_config(load("synthetic/mistral-window.json"))
    assert [g.mechanism for g in layout.groups] == [
        SlidingWindow(num_kv_heads=2, head_dim=8, v_head_dim=8, window=16)
    ]


def test_mistral_without_the_key_takes_the_class_default_window_and_says_so() -> None:
    config = load("synthetic/mistral-window.json")
    del config["sliding_window"]
    layout = layer_groups_from_config(config)
    assert {g.mechanism.window for g in layout.groups if isinstance(g.mechanism, SlidingWindow)} == {4096}
    assert any("4096" in note for note in layout.notes)


def test_mixtral_without_the_key_has_no_window() -> None:
    config = load("synthetic/mistral-window.json") | {"model_type": "mixtral"}
    del config["sliding_window"]
    assert layers_of(layer_groups_from_config(config), "attention") == (0, 1, 2, 3)


def test_qwen2_slides_only_from_max_window_layers_on() -> None:
    layout = layer_groups_from_config(load("synthetic/qwen2-window.json"))
    assert layers_of(layout, "attention") == (0, 1, 2, 3)
    assert layers_of(layout, "sliding-window") == (4, 5)


def test_qwen2_5_with_the_window_switched_on_slides_nothing_below_layer_28() -> None:
    config = load("qwen2.5-7b-instruct.json") | {"use_sliding_window": True, "max_window_layers": 20}
    layout = layer_groups_from_config(config)
    assert layers_of(layout, "sliding-window") == tuple(range(20, 28))


def test_qwen3_vl_moe_text_without_kv_heads_takes_the_class_default_16_not_the_query_heads() -> None:
    config = {"model_type": "qwen3_vl_moe_text", "hidden_size": 256, "num_attention_heads": 32}
    layout = layer_groups_from_config(config | {"num_hidden_layers": 2})
    assert [g.mechanism for g in layout.groups] == [Attention(num_kv_heads=16, head_dim=8, v_head_dim=8)]
    assert any("Qwen3VLMoeTextConfig default 16" in note for note in layout.notes)


def test_qwen3_vl_moe_window_in_the_text_config_slides_every_layer_whatever_use_sliding_window_says() -> None:
    text = {"model_type": "qwen3_vl_moe_text", "hidden_size": 64, "num_attention_heads": 8}
    text |= {
        "num_key_value_heads": 2,
        "num_hidden_layers": 3,
        "sliding_window": 32,
        "use_sliding_window": False,
    }
    layout = layer_groups_from_config({"model_type": "qwen3_vl_moe", "text_config": text})
    assert layers_of(layout, "sliding-window") == (0, 1, 2)
    assert {g.mechanism.window for g in layout.groups if isinstance(g.mechanism, SlidingWindow)} == {32}


def test_gemma2_alternates_starting_with_a_local_layer() -> None:
    layout = layer_groups_from_config(load("synthetic/gemma2.json"))
    assert layers_of(layout, "sliding-window") == (0, 2, 4)
    assert layers_of(layout, "attention") == (1, 3, 5)


def test_explicit_layer_types_override_the_pattern() -> None:
    types = ["full_attention", "sliding_attention", "sliding_attention"] * 2
    layout = layer_groups_from_config(load("synthetic/gemma2.json") | {"layer_types": types})
    assert layers_of(layout, "attention") == (0, 3)


def test_cohere2_has_one_full_layer_after_every_three_windowed_ones() -> None:
    layout = layer_groups_from_config(load("synthetic/cohere2.json"))
    assert layers_of(layout, "attention") == (3, 7)


def test_kimi_linear_kda_layers_are_one_based() -> None:
    layout = layer_groups_from_config(load("synthetic/kimi-linear.json"))
    # kda_layers [1, 2, 3, 5, 6, 7] are layers 0, 1, 2, 4, 5, 6; full_attn_layers [4, 8] are 3 and 7
    assert layers_of(layout, "recurrent") == (0, 1, 2, 4, 5, 6)
    assert layers_of(layout, "mla") == (3, 7)
    kda = next(g.mechanism for g in layout.groups if g.mechanism.kind == "recurrent")
    assert state_shapes(kda) == {"conv": (3, 3 * 4 * 16), "recurrent": (4, 16, 16)}


def test_kimi_linear_full_layers_are_mla_not_the_gqa_heads() -> None:
    layout = layer_groups_from_config(load("synthetic/kimi-linear.json"))
    mla = next(g.mechanism for g in layout.groups if g.mechanism.kind == "mla")
    assert mla == MLA(kv_lora_rank=32, qk_rope_head_dim=8, num_heads=4, qk_nope_head_dim=16, v_head_dim=16)


def test_deepseek_v32_keeps_the_indexer_sizes_on_every_mla_layer() -> None:
    layout = layer_groups_from_config(load("synthetic/deepseek-v32.json"))
    mechanisms = {g.mechanism for g in (*layout.groups, *layout.mtp_groups)}
    assert mechanisms == {
        MLA(32, 8, num_heads=4, qk_nope_head_dim=16, v_head_dim=16, index_head_dim=16, index_n_heads=2)
    }
    assert [g.layers for g in layout.mtp_groups] == [(3,)]


def test_llama4_no_rope_flag_zero_is_the_global_layer() -> None:
    layout = layer_groups_from_config(load("synthetic/llama4-no-rope.json"))
    assert layers_of(layout, "attention") == (1,)
    assert layers_of(layout, "chunked") == (0, 2, 3)
    assert {g.mechanism for g in layout.groups if g.mechanism.kind == "chunked"} == {
        Chunked(num_kv_heads=1, head_dim=16, v_head_dim=16, chunk=32)
    }


def test_llama4_scout_empty_flags_fall_back_to_every_fourth_layer_global() -> None:
    config = load("llama-4-scout-17b-16e-instruct.json")
    config["text_config"]["no_rope_layers"] = []
    layout = layer_groups_from_config(config)
    assert layers_of(layout, "attention") == tuple(range(3, 48, 4))
    assert any("no_rope_layer_interval" in note for note in layout.notes)


def test_llama4_null_chunk_size_makes_every_layer_global() -> None:
    config = load("synthetic/llama4-no-rope.json")
    config["text_config"]["attention_chunk_size"] = None
    layout = layer_groups_from_config(config)
    assert layers_of(layout, "attention") == (0, 1, 2, 3)
    assert any("attention_chunk_size" in note for note in layout.notes)


def test_bamba_attention_indices_are_zero_based() -> None:
    layout = layer_groups_from_config(load("synthetic/bamba.json"))
    assert layers_of(layout, "attention") == (2, 5)
    mamba = next(g.mechanism for g in layout.groups if g.mechanism.kind == "recurrent")
    # d_inner = 2 x 64 = 128; conv over 128 + 2 x 1 x 16 channels; d_head "auto" = 128 / 8 = 16
    assert state_shapes(mamba) == {"conv": (3, 160), "ssm": (8, 16, 16)}


def test_nemotron_h_pattern_gives_mamba_attention_and_cacheless_layers() -> None:
    layout = layer_groups_from_config(load("synthetic/nemotron-h.json"))
    assert layers_of(layout, "recurrent") == (0, 2)
    assert layers_of(layout, "attention") == (3,)
    assert layers_of(layout, "no-cache") == (1, 4)
    assert NoCache() in {g.mechanism for g in layout.groups}
    mamba = next(g.mechanism for g in layout.groups if g.mechanism.kind == "recurrent")
    assert state_shapes(mamba) == {"conv": (3, 8 * 16 + 2 * 2 * 16), "ssm": (8, 16, 16)}


def test_minimax_text_01_attn_type_one_is_softmax_zero_is_lightning() -> None:
    layout = layer_groups_from_config(load("synthetic/minimax-text-01.json"))
    assert layers_of(layout, "attention") == (3, 7)
    lightning = next(g.mechanism for g in layout.groups if g.mechanism.kind == "recurrent")
    assert state_shapes(lightning) == {"kv": (4, 16, 16)}


def test_minimax_m2_without_lists_is_softmax_attention_throughout() -> None:
    config = load("synthetic/minimax-text-01.json") | {"model_type": "minimax_m2"}
    del config["attn_type_list"]
    assert layers_of(layer_groups_from_config(config), "attention") == tuple(range(8))


def test_falcon_new_decoder_architecture_uses_n_head_kv_and_old_field_names() -> None:
    layout = layer_groups_from_config(load("synthetic/falcon-new-decoder.json"))
    assert layout.num_layers == 3
    assert layout.groups[0].mechanism == Attention(
        num_kv_heads=4, head_dim=16, v_head_dim=16, broadcast_heads=16
    )


def test_falcon_without_multi_query_has_one_kv_head_per_attention_head() -> None:
    config = load("defaults/falcon.json") | {"multi_query": False}
    assert layer_groups_from_config(config).groups[0].mechanism == Attention(71, 64, 64)


def test_glm4_moe_explicit_head_dim_and_mtp_layer() -> None:
    layout = layer_groups_from_config(load("synthetic/glm4-moe.json"))
    # 96 / 9 is not a whole number: only the explicit head_dim of 16 can be right
    assert layout.groups[0].mechanism == Attention(num_kv_heads=3, head_dim=16, v_head_dim=16)
    assert [(g.mechanism.kind, g.layers) for g in layout.mtp_groups] == [("attention", (3,))]


def test_missing_kv_heads_default_to_mha_with_a_note() -> None:
    config = load("llama-3.1-8b-instruct.json")
    del config["num_key_value_heads"]
    layout = layer_groups_from_config(config)
    assert layout.groups[0].mechanism == Attention(num_kv_heads=32, head_dim=128, v_head_dim=128)
    assert any("num_key_value_heads" in note for note in layout.notes)


@pytest.mark.parametrize("model_type", ["granite", "olmo2", "cohere", "phi3", "starcoder2"])
def test_plain_families_without_window_are_full_attention(model_type: str) -> None:
    config = {"model_type": model_type, "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4}
    config |= {"num_key_value_heads": 2}
    layout = layer_groups_from_config(config)
    assert [g.mechanism for g in layout.groups] == [Attention(2, 16, 16)]


def test_an_unknown_wrapper_is_read_through_a_supported_text_config() -> None:
    text = load("llama-3.1-8b-instruct.json")
    layout = layer_groups_from_config(
        {"model_type": "llava", "text_config": text, "image_token_index": 32000}
    )
    assert layout.model_type == "llama"
    assert layout.num_layers == 32
    assert any("llava" in note for note in layout.notes)


def test_falcon_new_decoder_broadcast_heads_count_only_under_transformers() -> None:
    from registry.engine.compute import compute

    config = {
        "model_type": "falcon",
        "new_decoder_architecture": True,
        "num_hidden_layers": 2,
        "num_attention_heads": 8,
        "num_kv_heads": 2,
        "hidden_size": 512,
    }
    layout = layer_groups_from_config(config)
    ideal = compute(layout, context_tokens=16, engine_layout="ideal").bytes_per_token
    transformers = compute(layout, context_tokens=16, engine_layout="transformers").bytes_per_token
    assert ideal == 2 * 2 * 2 * 64 * 2
    assert transformers == 2 * 2 * 8 * 64 * 2


def test_gemma3_head_fields_missing_from_text_config_take_the_class_defaults() -> None:
    # The published Gemma 3 4B config states only these decoder fields; transformers fills the rest
    # from Gemma3TextConfig, and so does the adapter, saying so in the layout's notes.
    config = {
        "model_type": "gemma3",
        "text_config": {
            "hidden_size": 2560,
            "model_type": "gemma3_text",
            "num_hidden_layers": 34,
            "sliding_window": 1024,
        },
    }
    layout = layer_groups_from_config(config)
    sliding, full = layout.groups
    assert (sliding.count, full.count) == (29, 5)
    assert full.mechanism == Attention(num_kv_heads=4, head_dim=256, v_head_dim=256)
    assert any("Gemma3TextConfig default 4 applies" in note for note in layout.notes)
