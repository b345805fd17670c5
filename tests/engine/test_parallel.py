"""A layer running two mechanisms side by side (Falcon-H1: attention and Mamba-2) holds both caches, under
every engine layout, and the counterfactual variants change each part as they would a layer of its own."""

from __future__ import annotations

import pytest

from registry.engine import compute
from registry.engine.engines import ENGINE_KEYS
from registry.engine.layers import (
    Attention,
    LayerGroupsError,
    NoCache,
    Parallel,
    Recurrent,
    StateTensor,
    layer_groups_from_layers,
    uniform_layer_groups,
)
from registry.engine.variants import attention_only, mha_equivalent, naive_gqa

ATTENTION = Attention(num_kv_heads=2, head_dim=8, v_head_dim=8)
MAMBA = Recurrent("mamba2", (StateTensor("conv", (3, 10), role="conv"), StateTensor("ssm", (4, 6, 5))))
LAYER = Parallel((ATTENTION, MAMBA))
FIELDS = {"num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 8}


def test_a_parallel_layer_keeps_the_attention_cache_and_the_state() -> None:
    # bf16: K and V of 2 heads x 8 = 32 values = 64 B a token a layer; the state is
    # (3 x 10 + 4 x 6 x 5) x 2 = 300 B a layer; three layers at t = 10: 3 x (10 x 64 + 300) = 2,820 B.
    result = compute(uniform_layer_groups("falcon_h1", LAYER, 3), context_tokens=10, kv_dtype="bf16")
    assert result.bytes_per_token == 3 * 64
    assert (result.growing_bytes, result.fixed_bytes, result.total_bytes) == (1_920, 900, 2_820)
    assert len(result.groups) == 1 and result.groups[0].layers == (0, 1, 2)
    assert any("mamba2 state" in line for line in result.trace)


def test_a_parallel_layer_is_the_sum_of_its_parts_under_every_engine_layout() -> None:
    """Both caches under every layout that sizes both parts; a layout refusing one part (TensorRT-LLM's
    recurrent state was not read) refuses the layer, naming that part."""
    for key in ENGINE_KEYS:
        kwargs = {"context_tokens": 40, "kv_dtype": "bf16", "state_dtype": "fp32", "engine_layout": key}
        result = compute(uniform_layer_groups("x", LAYER, 2), **kwargs)
        alone = [compute(uniform_layer_groups("x", part, 2), **kwargs).total_bytes for part in LAYER.parts]
        if None in alone:
            assert not result.computable and "its recurrent part" in result.unsupported[0], key
            continue
        assert result.total_bytes == sum(b for b in alone if b is not None), key


def test_a_part_an_engine_cannot_store_makes_the_layer_unsupported() -> None:
    result = compute(
        uniform_layer_groups("x", LAYER, 1), context_tokens=4, kv_dtype="q4_0", engine_layout="vllm"
    )
    assert not result.computable and "attention part" in result.unsupported[0]


def test_parallel_needs_two_mechanisms_a_layer_can_run() -> None:
    with pytest.raises(LayerGroupsError):
        Parallel((ATTENTION,))
    with pytest.raises(LayerGroupsError):
        Parallel((ATTENTION, NoCache()))  # type: ignore[arg-type]


def test_variants_change_each_part() -> None:
    layout = layer_groups_from_layers("falcon_h1", [LAYER, LAYER])
    assert attention_only(layout, FIELDS).mechanisms() == (ATTENTION, ATTENTION)
    assert naive_gqa(layout, FIELDS).mechanisms() == (ATTENTION, ATTENTION)
    mha = Parallel((Attention(4, 8, 8), MAMBA))
    assert mha_equivalent(layout, FIELDS).mechanisms() == (mha, mha)
