"""Adapters on published configs: each model's layers land in the right mechanism with its own sizes.

Expected counts are read off the configs themselves (see configs/SOURCES.md), e.g. Gemma 3 27B's 62
layers with the class-default pattern of 6 give 10 global layers (5, 11, ..., 59) and 52 local ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from registry.engine.adapters import SUPPORTED_MODEL_TYPES, layer_groups_from_config
from registry.engine.layers import MLA, Attention, Chunked, LayerGroups, Recurrent, Shared, SlidingWindow

CONFIGS = Path(__file__).parent / "configs"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CONFIGS / name).read_text(encoding="utf-8"))
    return data


def by_kind(layout: LayerGroups) -> dict[str, int]:
    """Layer count per mechanism kind in the main stack."""
    counts: dict[str, int] = {}
    for group in layout.groups:
        counts[group.mechanism.kind] = counts.get(group.mechanism.kind, 0) + group.count
    return counts


def test_deepseek_v3_is_61_mla_layers_of_512_plus_64_and_one_mtp_layer() -> None:
    layout = layer_groups_from_config(load("deepseek-v3.json"))
    assert layout.num_layers == 61
    assert [g.mechanism for g in layout.groups] == [
        MLA(kv_lora_rank=512, qk_rope_head_dim=64, num_heads=128, qk_nope_head_dim=128, v_head_dim=128)
    ]
    assert [(g.mechanism.kind, g.layers) for g in layout.mtp_groups] == [("mla", (61,))]


def test_deepseek_v3_never_gets_the_gqa_reading_of_its_128_kv_heads() -> None:
    mechanisms = layer_groups_from_config(load("deepseek-v3.json")).mechanisms()
    assert not any(isinstance(m, Attention | SlidingWindow) for m in mechanisms)


def test_gemma3_27b_reads_through_text_config_to_52_local_and_10_global_layers() -> None:
    layout = layer_groups_from_config(load("gemma-3-27b-it.json"))
    assert layout.model_type == "gemma3"
    assert by_kind(layout) == {"sliding-window": 52, "attention": 10}
    local, full = layout.groups
    assert local.mechanism == SlidingWindow(num_kv_heads=16, head_dim=128, v_head_dim=128, window=1024)
    assert full.mechanism == Attention(num_kv_heads=16, head_dim=128, v_head_dim=128)
    assert full.layers == tuple(range(5, 62, 6))
    assert any("sliding_window_pattern" in note for note in layout.notes)


def test_gemma3_explicit_head_dim_wins_over_hidden_size_by_heads() -> None:
    layout = layer_groups_from_config(load("gemma-3-27b-it.json"))
    # 5376 / 32 = 168 would be the derived (wrong) size; the config states 128.
    sizes = {
        g.mechanism.head_dim for g in layout.groups if isinstance(g.mechanism, Attention | SlidingWindow)
    }
    assert sizes == {128}


def test_gpt_oss_120b_alternates_18_windowed_and_18_full_layers_of_head_dim_64() -> None:
    layout = layer_groups_from_config(load("gpt-oss-120b.json"))
    assert by_kind(layout) == {"sliding-window": 18, "attention": 18}
    local, full = layout.groups
    assert local.mechanism == SlidingWindow(num_kv_heads=8, head_dim=64, v_head_dim=64, window=128)
    assert local.layers == tuple(range(0, 36, 2))
    assert full.layers == tuple(range(1, 36, 2))


@pytest.mark.parametrize(
    ("name", "layers", "kv_heads", "head_dim"),
    [
        ("llama-3.1-8b-instruct.json", 32, 8, 128),
        ("qwen3-8b.json", 36, 8, 128),
        ("qwen3-30b-a3b.json", 48, 4, 128),
        ("mistral-7b-instruct-v0.3.json", 32, 8, 128),
    ],
)
def test_full_attention_models_have_one_group_with_the_configs_kv_heads(
    name: str, layers: int, kv_heads: int, head_dim: int
) -> None:
    layout = layer_groups_from_config(load(name))
    assert [g.count for g in layout.groups] == [layers]
    expected = Attention(num_kv_heads=kv_heads, head_dim=head_dim, v_head_dim=head_dim)
    assert layout.groups[0].mechanism == expected


def test_qwen2_5_window_is_ignored_because_use_sliding_window_is_false() -> None:
    config = load("qwen2.5-7b-instruct.json")
    assert config["sliding_window"] == 131072 and config["use_sliding_window"] is False
    layout = layer_groups_from_config(config)
    assert by_kind(layout) == {"attention": 28}


def test_mistral_v0_3_null_window_means_full_attention() -> None:
    layout = layer_groups_from_config(load("mistral-7b-instruct-v0.3.json"))
    assert by_kind(layout) == {"attention": 32}
    assert layout.notes == ()


def test_qwen3_next_has_12_full_layers_and_36_gated_deltanet_layers() -> None:
    layout = layer_groups_from_config(load("qwen3-next-80b-a3b-thinking.json"))
    assert by_kind(layout) == {"recurrent": 36, "attention": 12}
    linear, full = layout.groups
    assert full.layers == tuple(range(3, 48, 4))
    assert full.mechanism == Attention(num_kv_heads=2, head_dim=256, v_head_dim=256)
    assert isinstance(linear.mechanism, Recurrent)
    shapes = {t.name: t.shape for t in linear.mechanism.tensors}
    # conv over q, k (16 heads x 128) and v (32 heads x 128); one 128 x 128 state per value head
    assert shapes == {"conv": (3, 2 * 16 * 128 + 32 * 128), "recurrent": (32, 128, 128)}


def test_qwen3_vl_235b_reads_its_text_config_to_94_full_layers_of_4_kv_heads_of_128() -> None:
    config = load("qwen3-vl-235b-a22b-instruct.json")
    layout = layer_groups_from_config(config)
    assert layout.model_type == "qwen3_vl_moe"
    assert [g.mechanism for g in layout.groups] == [Attention(num_kv_heads=4, head_dim=128, v_head_dim=128)]
    assert layout.num_layers == 94
    # the vision tower's 16 heads and 1152 width never reach the cache
    assert config["vision_config"]["num_heads"] == 16 and layout.notes == ()


def test_gemma3n_last_15_layers_share_the_last_earlier_cache_of_their_type() -> None:
    layout = layer_groups_from_config(load("defaults/gemma3n.json"))
    assert layout.num_layers == 35
    sharing = {g.mechanism.source_layer: g.layers for g in layout.groups if isinstance(g.mechanism, Shared)}
    # first shared layer is 35 - 15 = 20; the last local layer before it is 18, the last global one 19
    assert sharing == {18: (20, 21, 22, 23, 25, 26, 27, 28, 30, 31, 32, 33), 19: (24, 29, 34)}
    assert by_kind(layout) == {"sliding-window": 16, "attention": 4, "shared": 15}


def test_llama4_scout_gives_36_chunked_and_12_global_nope_layers() -> None:
    layout = layer_groups_from_config(load("llama-4-scout-17b-16e-instruct.json"))
    chunked, full = layout.groups
    assert chunked.mechanism == Chunked(num_kv_heads=8, head_dim=128, v_head_dim=128, chunk=8192)
    assert chunked.count == 36
    assert full.layers == tuple(range(3, 48, 4))


def test_kimi_k2_is_61_mla_layers_like_deepseek_v3() -> None:
    layout = layer_groups_from_config(load("kimi-k2-instruct.json"))
    assert [g.mechanism for g in layout.groups] == [
        MLA(kv_lora_rank=512, qk_rope_head_dim=64, num_heads=64, qk_nope_head_dim=128, v_head_dim=128)
    ]
    assert layout.num_layers == 61 and layout.mtp_groups == ()


def test_glm_4_7_uses_its_head_dim_of_128_not_5120_over_96() -> None:
    layout = layer_groups_from_config(load("glm-4.7-fp8.json"))
    assert [(g.count, g.mechanism) for g in layout.groups] == [(92, Attention(8, 128, 128))]


def test_jamba_v0_1_defaults_put_attention_on_layers_4_12_20_28() -> None:
    layout = layer_groups_from_config(load("defaults/jamba.json"))
    mamba, attention = layout.groups
    assert attention.layers == (4, 12, 20, 28)
    assert isinstance(mamba.mechanism, Recurrent) and mamba.count == 28
    assert {t.name: t.shape for t in mamba.mechanism.tensors} == {"conv": (3, 8192), "ssm": (8192, 16)}


def test_falcon_7b_multi_query_keeps_one_kv_head_of_64() -> None:
    layout = layer_groups_from_config(load("defaults/falcon.json"))
    assert layout.groups[0].mechanism == Attention(num_kv_heads=1, head_dim=64, v_head_dim=64)
    assert layout.num_layers == 32


def test_minimax_class_default_alternates_full_then_lightning() -> None:
    layout = layer_groups_from_config(load("defaults/minimax.json"))
    full, linear = layout.groups
    assert full.layers == tuple(range(0, 32, 2)) and linear.layers == tuple(range(1, 32, 2))
    assert isinstance(linear.mechanism, Recurrent)
    assert [t.shape for t in linear.mechanism.tensors] == [(32, 128, 128)]
    assert any("alternates" in note for note in layout.notes)


def test_every_listed_model_type_has_an_adapter() -> None:
    required = {
        "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "qwen3_next", "gemma2",
        "gemma3", "gemma3_text", "gemma3n", "phi3", "olmo2", "cohere", "cohere2", "starcoder2", "granite",
        "falcon", "deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2", "kimi_linear", "gpt_oss",
        "llama4", "jamba", "bamba", "minimax", "minimax_m2", "glm4_moe", "qwen3_vl_moe", "qwen3_vl_moe_text",
    }  # fmt: skip
    assert required <= set(SUPPORTED_MODEL_TYPES)
    assert list(SUPPORTED_MODEL_TYPES) == sorted(SUPPORTED_MODEL_TYPES)
