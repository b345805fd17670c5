"""geometry_fields: the names an author's formula may use, with head_dim derived only when absent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from registry.engine.adapters import geometry_fields

CONFIGS = Path(__file__).parent / "configs"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CONFIGS / name).read_text(encoding="utf-8"))
    return data


def test_deepseek_v3_fields_reproduce_the_seed_records_70272_bytes_per_token() -> None:
    fields = geometry_fields(load("deepseek-v3.json"))
    per_token = fields["num_hidden_layers"] * (fields["kv_lora_rank"] + fields["qk_rope_head_dim"]) * 2
    assert per_token == 70_272


def test_only_numbers_are_kept() -> None:
    fields = geometry_fields(load("deepseek-v3.json"))
    assert "norm_topk_prob" not in fields  # a boolean
    assert "model_type" not in fields and "rope_scaling" not in fields and "quantization_config" not in fields
    assert fields["rms_norm_eps"] == 1e-06


def test_text_config_fields_win_over_the_wrapper() -> None:
    fields = geometry_fields(load("gemma-3-27b-it.json"))
    assert fields["num_hidden_layers"] == 62  # the decoder's, not the vision tower's 27
    assert fields["sliding_window"] == 1024
    assert fields["mm_tokens_per_image"] == 256


def test_head_dim_is_derived_when_absent() -> None:
    fields = geometry_fields(load("llama-3.1-8b-instruct.json"))
    assert fields["head_dim"] == 4096 // 32


def test_explicit_head_dim_is_never_replaced() -> None:
    fields = geometry_fields(load("gemma-3-27b-it.json"))
    assert fields["head_dim"] == 128  # not 5376 / 32 = 168


def test_head_dim_is_not_invented_when_the_division_is_not_exact() -> None:
    assert "head_dim" not in geometry_fields(load("defaults/glm4_moe.json"))


def test_any_model_type_works() -> None:
    fields = geometry_fields({"model_type": "rwkv7", "num_hidden_layers": 24, "hidden_size": 2048})
    assert fields == {"num_hidden_layers": 24, "hidden_size": 2048}
