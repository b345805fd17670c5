"""max_context_from_config: the longest context a published config states, read as a server reads it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from registry.engine.adapters import ContextMaximum, max_context_from_config

CONFIGS = Path(__file__).parent / "configs"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CONFIGS / name).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("name", "tokens"),
    [
        ("llama-3.1-8b-instruct.json", 131_072),  # llama3 scaling: the field is the extended length
        ("qwen3-8b.json", 40_960),
        ("qwen3-next-80b-a3b-thinking.json", 262_144),
        ("deepseek-v3.json", 163_840),  # YaRN: 4,096 x 40, equal to the field
        ("gpt-oss-120b.json", 131_072),  # YaRN: 4,096 x 32
        ("qwen3-vl-235b-a22b-instruct.json", 262_144),  # only in text_config
        ("llama-4-scout-17b-16e-instruct.json", 10_485_760),  # only in text_config
    ],
)
def test_published_configs_give_their_stated_maximum(name: str, tokens: int) -> None:
    found = max_context_from_config(load(name))
    assert found is not None and found.tokens == tokens


def test_model_max_length_is_the_served_length_beside_a_shorter_rope_length() -> None:
    config = {"model_type": "cohere", "max_position_embeddings": 8192, "model_max_length": 131072}
    assert max_context_from_config(config) == ContextMaximum(131_072, "model_max_length: 131072")


def test_the_smallest_position_field_wins_as_in_vllm() -> None:
    config = {"model_type": "x", "max_position_embeddings": 4096, "seq_length": 2048}
    assert max_context_from_config(config) == ContextMaximum(2048, "seq_length: 2048")


def test_yarn_added_to_a_config_stretches_its_original_length() -> None:
    """Qwen2.5's card has users add YaRN with factor 4 to the 32,768-token config: served at 131,072."""
    config = {
        "model_type": "qwen2",
        "max_position_embeddings": 32768,
        "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768},
    }
    found = max_context_from_config(config)
    assert found is not None and found.tokens == 131_072
    assert "max_position_embeddings: 32768 is the length before the stretch" in found.basis


def test_transformers_5_rope_parameters_are_read_like_rope_scaling() -> None:
    config = {
        "model_type": "qwen3",
        "max_position_embeddings": 40960,
        "rope_parameters": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768},
    }
    found = max_context_from_config(config)
    assert found is not None and found.tokens == 131_072
    assert "longer than YaRN stretches to" not in found.basis and "before the stretch" in found.basis


@pytest.mark.parametrize("rope_type", ["linear", "dynamic", "llama3", "longrope"])
def test_other_scalings_keep_the_stated_field(rope_type: str) -> None:
    """Gemma 3's 131,072 with linear factor 8 is its 128K, not 1M."""
    config = {
        "model_type": "gemma3_text",
        "max_position_embeddings": 131072,
        "rope_scaling": {"rope_type": rope_type, "factor": 8.0, "original_max_position_embeddings": 8192},
    }
    assert max_context_from_config(config) == ContextMaximum(131_072, "max_position_embeddings: 131072")


def test_text_config_wins_over_the_wrapper() -> None:
    config = {
        "model_type": "w",
        "max_position_embeddings": 2048,
        "text_config": {"max_position_embeddings": 8192},
    }
    found = max_context_from_config(config)
    assert found is not None and found.tokens == 8192


@pytest.mark.parametrize(
    "config",
    [
        {"model_type": "falcon", "hidden_size": 4544},  # no length at all
        {"model_type": "x", "max_position_embeddings": "4096"},  # a string is no length
        {"model_type": "x", "max_position_embeddings": True},
        {"model_type": "x", "max_position_embeddings": 0},
        {"model_type": "x", "max_position_embeddings": 1.5},
        {"model_type": "x", "rope_scaling": {"type": "yarn", "factor": "4"}},  # YaRN with nothing to stretch
    ],
)
def test_a_config_stating_no_length_gives_none(config: dict[str, Any]) -> None:
    assert max_context_from_config(config) is None


def test_yarn_alone_gives_its_product() -> None:
    config = {
        "model_type": "x",
        "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096},
    }
    assert max_context_from_config(config) == ContextMaximum(
        163_840, "YaRN: original_max_position_embeddings 4096 x factor 40"
    )
