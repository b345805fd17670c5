"""Parameters counted from a config where a model record states none: a lower bound the bounds may use."""

from __future__ import annotations

from registry.results.parameters import counted_parameters

DENSE = {
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "intermediate_size": 14336,
    "vocab_size": 128256,
    "tie_word_embeddings": False,
}


def test_a_dense_config_counts_attention_up_and_down_projections_and_both_embeddings() -> None:
    counted = counted_parameters(DENSE)
    assert counted is not None
    attention = 32 * (4096 * (32 + 2 * 8) * 128 + 32 * 128 * 4096)
    mlp = 32 * 2 * 4096 * 14336
    assert counted.total == counted.active == attention + mlp + 2 * 128256 * 4096
    assert counted.total < 8_030_000_000  # Llama 3.1 8B's published count: the gate is left out


def test_experts_count_all_for_the_total_and_the_routed_ones_for_the_active() -> None:
    moe = {**DENSE, "num_experts": 128, "num_experts_per_tok": 8, "moe_intermediate_size": 1536}
    counted = counted_parameters(moe)
    assert counted is not None
    per_expert = 2 * 4096 * 1536
    assert counted.total - counted.active == 32 * (128 - 8) * per_expert
    mixed = counted_parameters({**moe, "first_k_dense_replace": 1})
    assert mixed is not None and mixed.total <= counted.total  # a layer that may be dense counts the least


def test_linear_attention_layers_count_no_attention_and_a_thin_config_counts_nothing() -> None:
    hybrid = {**DENSE, "layer_types": ["linear_attention"] * 24 + ["full_attention"] * 8}
    counted, full = counted_parameters(hybrid), counted_parameters(DENSE)
    assert counted is not None and full is not None
    assert full.total - counted.total == 24 * (4096 * 48 * 128 + 32 * 128 * 4096)
    assert counted_parameters({"hidden_size": 4096}) is None
