"""The variants a claim can be about, checked against hand arithmetic on the real configs in records/."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from registry.engine.adapters import geometry_fields, layer_groups_from_config
from registry.engine.layers import LayerGroups, NoCache, Recurrent
from registry.engine.variants import (
    VARIANTS,
    Run,
    UnknownVariant,
    measure,
    variant_layer_groups,
)

MODELS = Path(__file__).resolve().parents[2] / "records" / "models"


@cache
def config(name: str) -> dict[str, Any]:
    """The verbatim config of a model record (each cites where it was read)."""
    record = YAML(typ="safe").load((MODELS / f"{name}.yaml").read_text(encoding="utf-8"))
    return dict(record["config"])


def per_token(name: str, variant: str, run: Run | None = None) -> Fraction | None:
    layout = layer_groups_from_config(config(name))
    built = variant_layer_groups(variant, layout, geometry_fields(config(name)))
    return measure(built, run or Run(context_tokens=1), "bytes_per_token").value


def test_actual_is_the_layout_itself() -> None:
    layout = layer_groups_from_config(config("deepseek-v3"))
    assert variant_layer_groups("actual", layout, geometry_fields(config("deepseek-v3"))) is layout


def test_mha_equivalent_of_mla_uses_the_real_k_and_v_head_sizes() -> None:
    c = config("deepseek-v3")
    k_head = c["qk_nope_head_dim"] + c["qk_rope_head_dim"]
    expected = c["num_hidden_layers"] * c["num_attention_heads"] * (k_head + c["v_head_dim"]) * 2
    assert per_token("deepseek-v3", "mha-equivalent") == expected


def test_mha_equivalent_of_gqa_caches_every_attention_head() -> None:
    c = config("llama-3.1-8b")
    head = c["hidden_size"] // c["num_attention_heads"]
    assert (
        per_token("llama-3.1-8b", "mha-equivalent")
        == c["num_hidden_layers"] * 2 * c["num_attention_heads"] * head * 2
    )
    assert (
        per_token("llama-3.1-8b", "actual")
        == c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * head * 2
    )


def test_naive_gqa_on_mla_takes_head_dim_from_hidden_size_when_the_config_has_none() -> None:
    c = config("deepseek-v3")
    assert "head_dim" not in c
    head = c["hidden_size"] // c["num_attention_heads"]
    expected = c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * head * 2
    assert per_token("deepseek-v3", "naive-gqa") == expected


def test_naive_gqa_prefers_the_configs_head_dim() -> None:
    c = config("qwen3-32b")
    assert c["head_dim"] != c["hidden_size"] // c["num_attention_heads"]
    assert per_token("qwen3-32b", "naive-gqa") == per_token("qwen3-32b", "actual")


def test_naive_gqa_charges_a_hybrids_recurrent_layers_like_attention() -> None:
    c = config("qwen3-next-80b-a3b")
    expected = c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * c["head_dim"] * 2
    assert per_token("qwen3-next-80b-a3b", "naive-gqa") == expected


def test_no_window_charges_sliding_layers_the_full_context() -> None:
    c = config("mistral-7b-v0.1")
    context = 4 * c["sliding_window"]
    layout = layer_groups_from_config(c)
    run = Run(context_tokens=context)
    windowed = measure(layout, run, "bytes_per_sequence").value
    full = measure(
        variant_layer_groups("no-window", layout, geometry_fields(c)), run, "bytes_per_sequence"
    ).value
    head = c["hidden_size"] // c["num_attention_heads"]
    per_token_bytes = c["num_hidden_layers"] * 2 * c["num_key_value_heads"] * head * 2
    assert windowed == c["sliding_window"] * per_token_bytes
    assert full == context * per_token_bytes


def test_attention_only_drops_the_recurrent_state_and_keeps_the_attention_cache() -> None:
    c = config("qwen3-next-80b-a3b")
    layout = layer_groups_from_config(c)
    only = variant_layer_groups("attention-only", layout, geometry_fields(c))
    run = Run(context_tokens=4096, model_dtype="bf16")
    assert any(isinstance(g.mechanism, Recurrent) for g in layout.groups)
    assert all(not isinstance(g.mechanism, Recurrent) for g in only.groups)
    assert any(isinstance(g.mechanism, NoCache) for g in only.groups)
    assert measure(layout, run, "fixed_bytes").value
    assert measure(only, run, "fixed_bytes").value == 0
    assert measure(only, run, "bytes_per_token").value == measure(layout, run, "bytes_per_token").value


def test_an_unknown_variant_lists_the_defined_ones() -> None:
    layout = layer_groups_from_config(config("llama-3.1-8b"))
    with pytest.raises(UnknownVariant, match="mha-equivalent"):
        variant_layer_groups("mqa-equivalent", layout, {})


def test_a_counterfactual_without_the_config_field_it_needs_is_not_computable() -> None:
    layout: LayerGroups = layer_groups_from_config(config("llama-3.1-8b"))
    mha = variant_layer_groups("mha-equivalent", layout, {})
    measured = measure(mha, Run(context_tokens=1), "bytes_per_token")
    assert measured.value is None
    assert "num_kv_heads" in measured.reason


def test_every_variant_is_documented_once() -> None:
    assert list(VARIANTS) == ["actual", "mha-equivalent", "naive-gqa", "no-window", "attention-only"]
    for variant in VARIANTS.values():
        assert variant.summary.endswith(".")
        assert len(variant.doc) > len(variant.summary)


def test_quantities_scale_with_batch_and_context_as_defined() -> None:
    layout = layer_groups_from_config(config("llama-3.1-8b"))
    one = measure(layout, Run(context_tokens=1000), "bytes_per_sequence").value
    per = measure(layout, Run(context_tokens=1000), "bytes_per_token").value
    total = measure(layout, Run(context_tokens=1000, batch=3), "bytes_total").value
    assert one is not None and per is not None
    assert one == 1000 * per
    assert total == 3 * one
    assert measure(layout, Run(context_tokens=1000), "fixed_bytes").value == 0
