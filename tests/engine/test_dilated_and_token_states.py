"""Two kinds of recurrent state beyond a plain state and a ``kernel − 1`` conv window (Qwen4-Exp's per-layer
embeddings): a dilated convolution's window, and token ids kept in int64; and position ids an implementation
caches per token with an attention layer. Their bytes under each engine layout, or the layout's refusal,
and what the trace says each is. (Byte-exactness against transformers is held by the conformance tests.)"""

from __future__ import annotations

import pytest

from registry.engine import compute
from registry.engine.adapters import _state
from registry.engine.engines import ENGINE_KEYS
from registry.engine.layers import (
    Attention,
    LayerGroupsError,
    Parallel,
    Recurrent,
    StateTensor,
    uniform_layer_groups,
)

DILATED = _state.dilated_conv("dilated conv", kernel=4, dilation=3, channels=10)
TOKENS = _state.token_ids("token ids", 2)
PLE = Recurrent("ple", (DILATED, TOKENS))
INDEXED = Attention(num_kv_heads=2, head_dim=8, v_head_dim=8, index_head_dim=6, cached_position_ids=3)
SERVING = ("vllm", "sglang", "trtllm", "llama.cpp")
"""The layouts whose rules for these states were not read from their engine's source."""


def _ple(engine_layout: str, **dtypes: str) -> int | None:
    layout = uniform_layer_groups("x", PLE, 1)
    return compute(layout, context_tokens=7, engine_layout=engine_layout, **dtypes).total_bytes


def test_a_dilated_window_keeps_kernel_minus_one_times_the_dilation_inputs() -> None:
    assert DILATED.shape == (9, 10) and DILATED.dilated and DILATED.role == "conv"
    assert not _state.dilated_conv("plain", kernel=4, dilation=1, channels=10).dilated


def test_only_a_conv_window_has_a_dilation_and_it_is_at_least_one() -> None:
    with pytest.raises(LayerGroupsError, match="only a conv window"):
        StateTensor("s", (4,), role="state", dilation=2)
    with pytest.raises(LayerGroupsError, match="dilation"):
        StateTensor("c", (4, 2), role="conv", dilation=0)
    with pytest.raises(LayerGroupsError, match="role"):
        StateTensor("t", (4,), role="ids")  # type: ignore[arg-type]


def test_the_ideal_layout_sizes_the_window_in_the_state_dtype_and_the_token_ids_in_int64() -> None:
    # 9 x 10 values of the window, 2 token ids of 8 bytes each
    assert _ple("ideal", kv_dtype="bf16") == 9 * 10 * 2 + 2 * 8
    assert _ple("ideal", kv_dtype="bf16", state_dtype="fp32") == 9 * 10 * 4 + 2 * 8
    assert _ple("ideal", kv_dtype="fp8", state_dtype="fp8", model_dtype="bf16") == 9 * 10 + 2 * 8


def test_transformers_keeps_a_dilated_window_as_it_is_and_a_plain_one_with_one_more_input() -> None:
    # Qwen4ExpTextPLELayer passes its (kernel - 1) x dilation as conv_kernel_size; a plain window
    # keeps the whole kernel, one input more than kernel - 1.
    assert _ple("transformers", kv_dtype="bf16") == 9 * 10 * 2 + 2 * 8
    assert _ple("transformers", kv_dtype="fp32") == 9 * 10 * 4 + 2 * 8
    plain = Recurrent("short-conv", (_state.dilated_conv("conv", kernel=4, dilation=1, channels=10),))
    result = compute(uniform_layer_groups("x", plain, 1), context_tokens=7, engine_layout="transformers")
    assert result.total_bytes == 4 * 10 * 2


def test_token_ids_are_int64_whatever_is_asked() -> None:
    only_ids = uniform_layer_groups("x", Recurrent("ids", (TOKENS,)), 1)
    for key in ("ideal", "transformers"):
        for dtypes in ({"kv_dtype": "bf16"}, {"kv_dtype": "fp32", "state_dtype": "bf16"}):
            assert compute(only_ids, context_tokens=3, engine_layout=key, **dtypes).total_bytes == 16


@pytest.mark.parametrize("key", SERVING)
def test_the_serving_layouts_refuse_both_and_say_which(key: str) -> None:
    for tensor, words in ((DILATED, "dilated convolution's window"), (TOKENS, "state of token ids")):
        layout = uniform_layer_groups("x", Recurrent("v", (tensor,)), 1)
        result = compute(layout, context_tokens=5, kv_dtype="bf16", engine_layout=key)
        assert not result.computable and words in result.unsupported[0], key


def test_every_layout_sizes_or_refuses_the_per_layer_embedding_beside_a_delta_net() -> None:
    delta_net = _state.gated_delta_net(2, 4, 8, 6, 3)
    layer = uniform_layer_groups("x", Parallel((delta_net, PLE)), 2)
    for key in ENGINE_KEYS:
        result = compute(layer, context_tokens=9, kv_dtype="bf16", model_dtype="bf16", engine_layout=key)
        if key in SERVING:
            # TensorRT-LLM refuses the delta-net's own state first: its recurrent layout was not read
            unread = "recurrent state" if key == "trtllm" else "dilated convolution"
            assert not result.computable and unread in result.unsupported[0], key
            continue
        alone = compute(
            uniform_layer_groups("x", delta_net, 2),
            context_tokens=9,
            kv_dtype="bf16",
            model_dtype="bf16",
            engine_layout=key,
        )
        assert result.total_bytes is not None and alone.total_bytes is not None, key
        assert result.total_bytes - alone.total_bytes == 2 * (9 * 10 * 2 + 2 * 8), key


def test_the_trace_says_what_each_is() -> None:
    trace = compute(uniform_layer_groups("x", PLE, 1), context_tokens=7, kv_dtype="bf16").trace
    assert any("dilated convolution's window" in line and "3 × 3 = 9 inputs" in line for line in trace)
    assert any("token ids, int64" in line for line in trace)


def test_cached_position_ids_are_transformers_own_and_said_elsewhere() -> None:
    layout = uniform_layer_groups("x", INDEXED, 1)
    ideal = compute(layout, context_tokens=10, kv_dtype="bf16")
    ours = compute(layout, context_tokens=10, kv_dtype="bf16", engine_layout="transformers")
    # K + V: 2 x 2 x 8 x 2 = 64 B a token; the indexer key 6 x 2 = 12 B; transformers adds 3 int64 = 24 B
    assert ideal.bytes_per_token == 64 + 12
    assert ours.bytes_per_token == 64 + 12 + 24
    assert any("keeps no position ids" in line for line in ideal.trace)
    assert any("position ids (int64)" in line for line in ours.trace)
    older = compute(layout, context_tokens=10, kv_dtype="bf16", engine_layout="transformers@5.15")
    assert not older.computable and "5.24.0" in older.unsupported[0]
