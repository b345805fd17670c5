"""Recurrent networks whose state transformers keeps outside its cache layers (RWKV, RecurrentGemma,
xLSTM): the adapters' reading of configs the conformance cases leave out, and the engine's rules for a
token shift and for a conv window kept on the module. (Byte-exactness against transformers is held by
the conformance tests.)"""

from __future__ import annotations

from typing import Any

import pytest

from registry.engine import compute
from registry.engine.adapters import ConfigFieldError, layer_groups_from_config
from registry.engine.layers import LayerGroupsError, Recurrent, SlidingWindow, StateTensor


def _only(config: dict[str, Any]) -> Recurrent:
    (group,) = layer_groups_from_config(config).groups
    assert isinstance(group.mechanism, Recurrent)
    return group.mechanism


def test_rwkv_keeps_two_token_shifts_and_three_wkv_vectors_per_layer() -> None:
    state = _only({"model_type": "rwkv", "num_hidden_layers": 12, "hidden_size": 768})
    assert [t.role for t in state.tensors] == ["shift", "shift", "state", "state", "state"]
    assert {t.shape for t in state.tensors} == {(768,)}
    layout = layer_groups_from_config({"model_type": "rwkv", "num_hidden_layers": 12, "hidden_size": 768})
    # transformers: the shifts in the model dtype, the WKV vectors in float32 (RwkvModel.forward)
    bf16 = compute(layout, context_tokens=100, engine_layout="transformers", kv_dtype="bf16")
    assert bf16.total_bytes == 12 * (2 * 768 * 2 + 3 * 768 * 4)
    assert bf16.bytes_per_token == 0
    # llama.cpp keeps every recurrent tensor in float32
    assert compute(layout, context_tokens=100, engine_layout="llama.cpp").total_bytes == 12 * 5 * 768 * 4


def test_rwkv_sizes_the_wkv_state_by_attention_hidden_size() -> None:
    state = _only(
        {"model_type": "rwkv", "num_hidden_layers": 2, "hidden_size": 64, "attention_hidden_size": 32}
    )
    assert [t.shape for t in state.tensors] == [(64,), (64,), (32,), (32,), (32,)]


def test_a_token_shift_is_a_role_of_its_own() -> None:
    assert StateTensor("shift", (8,), role="shift").role == "shift"
    with pytest.raises(LayerGroupsError, match="'state', 'conv' or 'shift'"):
        StateTensor("x", (8,), role="window")  # type: ignore[arg-type]


def _griffin(**fields: Any) -> dict[str, Any]:
    return {
        "model_type": "recurrent_gemma",
        "num_hidden_layers": 26,
        "hidden_size": 2560,
        "num_attention_heads": 10,
        "num_key_value_heads": 1,
        **fields,
    }


def test_recurrent_gemma_reads_the_hubs_block_types_and_tiles_them() -> None:
    # google/recurrentgemma-2b writes _block_types; head_dim is hidden_size // num_attention_heads
    config = _griffin(_block_types=["recurrent", "recurrent", "attention"], head_dim=999, lru_width=2560)
    rg_lru, window = layer_groups_from_config(config).groups
    assert isinstance(window.mechanism, SlidingWindow) and isinstance(rg_lru.mechanism, Recurrent)
    assert window.layers == tuple(range(2, 26, 3))
    assert (window.mechanism.num_kv_heads, window.mechanism.head_dim, window.mechanism.window) == (
        1,
        256,
        2048,
    )
    assert [t.shape for t in rg_lru.mechanism.tensors] == [(3, 2560), (2560,)]


def test_recurrent_gemma_without_block_types_takes_the_class_pattern_and_says_so() -> None:
    layout = layer_groups_from_config(_griffin(num_hidden_layers=4))
    kinds = [type(m).__name__ for m in layout.mechanisms()]
    assert kinds == ["Recurrent", "Recurrent", "SlidingWindow", "Recurrent"]
    assert any("block_types" in note for note in layout.notes)


def test_recurrent_gemma_refuses_an_unknown_block_type() -> None:
    with pytest.raises(ConfigFieldError, match="block_types"):
        layer_groups_from_config(_griffin(block_types=["recurrent", "mlp"]))


def test_transformers_keeps_a_module_held_conv_window_at_kernel_minus_one() -> None:
    rg_lru = layer_groups_from_config(_griffin(num_hidden_layers=1, lru_width=8, conv1d_width=4))
    result = compute(rg_lru, context_tokens=50, engine_layout="transformers", kv_dtype="bf16")
    assert result.total_bytes == 3 * 8 * 2 + 8 * 4  # conv (width - 1) x lru in bf16, state in float32
    mamba = {"model_type": "mamba", "num_hidden_layers": 1, "hidden_size": 4, "expand": 2, "state_size": 2}
    kept_whole = compute(
        layer_groups_from_config(mamba | {"conv_kernel": 4}),
        context_tokens=50,
        engine_layout="transformers",
        kv_dtype="bf16",
    )
    assert kept_whole.total_bytes == 4 * 8 * 2 + 8 * 2 * 4  # LinearAttentionLayer keeps all 4 positions


def test_xlstm_7b_as_the_hub_writes_it() -> None:
    # NX-AI/xLSTM-7b names the width embedding_dim and the depth num_blocks
    config = {
        "model_type": "xlstm",
        "embedding_dim": 4096,
        "num_blocks": 32,
        "num_heads": 8,
        "qk_dim_factor": 0.5,
        "v_dim_factor": 1.0,
    }
    layout = layer_groups_from_config(config)
    assert layout.num_layers == 32
    (group,) = layout.groups
    assert isinstance(group.mechanism, Recurrent)
    assert [t.shape for t in group.mechanism.tensors] == [(8, 256, 512), (8, 256), (8, 1)]
    result = compute(layout, context_tokens=4096, engine_layout="transformers", kv_dtype="bf16")
    assert result.total_bytes == 32 * 8 * (256 * 512 + 256 + 1) * 2


def test_xlstm_rounds_each_width_up_to_a_multiple_of_64_before_the_heads() -> None:
    config = {"model_type": "xlstm", "hidden_size": 100, "num_hidden_layers": 1, "num_heads": 2}
    (group,) = layer_groups_from_config(config).groups
    assert isinstance(group.mechanism, Recurrent)
    # qk: 100 x 0.5 = 50 → 64, / 2 = 32; v: 100 → 128, / 2 = 64
    assert [t.shape for t in group.mechanism.tensors] == [(2, 32, 64), (2, 32), (2, 1)]


def test_xlstm_refuses_a_factor_that_is_not_a_positive_number() -> None:
    with pytest.raises(ConfigFieldError, match="qk_dim_factor"):
        layer_groups_from_config(
            {"model_type": "xlstm", "hidden_size": 64, "num_hidden_layers": 1, "qk_dim_factor": "half"}
        )
