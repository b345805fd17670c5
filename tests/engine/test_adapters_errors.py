"""What the adapters refuse, and how: an unknown architecture or a broken field is named, never guessed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from registry.engine.adapters import ConfigFieldError, UnsupportedModelType, layer_groups_from_config

CONFIGS = Path(__file__).parent / "configs"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CONFIGS / name).read_text(encoding="utf-8"))
    return data


def test_unknown_model_type_is_refused_with_what_a_layout_needs() -> None:
    config = load("llama-3.1-8b-instruct.json") | {"model_type": "rwkv7"}
    with pytest.raises(UnsupportedModelType) as caught:
        layer_groups_from_config(config)
    assert caught.value.model_type == "rwkv7"
    message = str(caught.value)
    assert "'rwkv7'" in message
    assert "num_key_value_heads and head_dim" in message and "kv_lora_rank" in message
    assert "layout" in message


def test_config_without_model_type_is_unsupported_not_a_gqa_guess() -> None:
    config = load("llama-3.1-8b-instruct.json")
    del config["model_type"]
    with pytest.raises(UnsupportedModelType) as caught:
        layer_groups_from_config(config)
    assert caught.value.model_type is None


def test_missing_required_field_names_the_field() -> None:
    config = load("deepseek-v3.json")
    del config["kv_lora_rank"]
    with pytest.raises(ConfigFieldError) as caught:
        layer_groups_from_config(config)
    assert caught.value.field == "kv_lora_rank"
    assert caught.value.model_type == "deepseek_v3"
    assert "kv_lora_rank" in str(caught.value)


def test_missing_layer_count_is_a_field_error_not_a_key_error() -> None:
    config = load("gemma-3-27b-it.json")
    del config["text_config"]["num_hidden_layers"]
    with pytest.raises(ConfigFieldError, match="num_hidden_layers"):
        layer_groups_from_config(config)


def test_head_dim_is_reported_missing_when_hidden_size_does_not_divide() -> None:
    with pytest.raises(ConfigFieldError) as caught:
        layer_groups_from_config(load("defaults/glm4_moe.json"))
    assert caught.value.field == "head_dim"
    assert "4096" in str(caught.value) and "96" in str(caught.value)


@pytest.mark.parametrize("bad", ["128", 12.5, True, -4])
def test_a_dimension_must_be_a_positive_whole_number(bad: object) -> None:
    config = load("llama-3.1-8b-instruct.json") | {"num_key_value_heads": bad}
    with pytest.raises(ConfigFieldError, match="num_key_value_heads"):
        layer_groups_from_config(config)


def test_layer_types_of_the_wrong_length_are_refused() -> None:
    config = load("gpt-oss-120b.json")
    config["layer_types"] = config["layer_types"][:-1]
    with pytest.raises(ConfigFieldError, match="35 layers but num_hidden_layers is 36"):
        layer_groups_from_config(config)


def test_an_unknown_layer_type_is_named_with_its_index() -> None:
    config = load("gpt-oss-120b.json")
    config["layer_types"][7] = "linear_attention"
    with pytest.raises(ConfigFieldError) as caught:
        layer_groups_from_config(config)
    assert caught.value.field == "layer_types[7]"


def test_kimi_linear_zero_based_list_is_caught() -> None:
    config = load("synthetic/kimi-linear.json")
    config["linear_attn_config"]["kda_layers"] = [0, 1, 2, 4, 5, 6]
    with pytest.raises(ConfigFieldError, match="1-based"):
        layer_groups_from_config(config)


def test_kimi_linear_lists_that_do_not_cover_the_stack_are_caught() -> None:
    config = load("synthetic/kimi-linear.json")
    config["linear_attn_config"]["full_attn_layers"] = [4]
    with pytest.raises(ConfigFieldError, match="each of the 8 layers once"):
        layer_groups_from_config(config)


def test_kimi_linear_without_linear_attn_config_names_it() -> None:
    config = load("synthetic/kimi-linear.json")
    del config["linear_attn_config"]
    with pytest.raises(ConfigFieldError, match="linear_attn_config"):
        layer_groups_from_config(config)


def test_minimax_text_01_needs_its_attn_type_list() -> None:
    config = load("synthetic/minimax-text-01.json")
    del config["attn_type_list"]
    with pytest.raises(ConfigFieldError, match="attn_type_list"):
        layer_groups_from_config(config)


def test_minimax_attn_type_other_than_zero_or_one_is_refused() -> None:
    config = load("synthetic/minimax-text-01.json")
    config["attn_type_list"][2] = 2
    with pytest.raises(ConfigFieldError) as caught:
        layer_groups_from_config(config)
    assert caught.value.field == "attn_type_list[2]"


def test_gemma3n_cannot_share_more_layers_than_it_has() -> None:
    config = load("defaults/gemma3n.json")
    config["text_config"]["num_kv_shared_layers"] = 36
    with pytest.raises(ConfigFieldError, match="num_kv_shared_layers"):
        layer_groups_from_config(config)


def test_nemotron_h_pattern_must_match_the_layer_count() -> None:
    config = load("synthetic/nemotron-h.json") | {"num_hidden_layers": 6}
    with pytest.raises(ConfigFieldError, match="hybrid_override_pattern"):
        layer_groups_from_config(config)


def test_bamba_attention_index_past_the_stack_is_refused() -> None:
    config = load("synthetic/bamba.json") | {"attn_layer_indices": [2, 6]}
    with pytest.raises(ConfigFieldError, match="attn_layer_indices"):
        layer_groups_from_config(config)


def test_llama4_flag_list_shorter_than_the_stack_is_refused() -> None:
    config = load("synthetic/llama4-no-rope.json")
    config["text_config"]["no_rope_layers"] = [1, 0]
    with pytest.raises(ConfigFieldError, match="no_rope_layers"):
        layer_groups_from_config(config)


def test_a_config_that_is_not_an_object_is_a_field_error() -> None:
    with pytest.raises(ConfigFieldError):
        layer_groups_from_config([1, 2, 3])  # type: ignore[arg-type]


def test_a_wrapper_around_an_unknown_decoder_is_still_unsupported() -> None:
    config = {"model_type": "llava", "text_config": {"model_type": "rwkv7", "num_hidden_layers": 2}}
    with pytest.raises(UnsupportedModelType) as caught:
        layer_groups_from_config(config)
    assert caught.value.model_type == "llava"
