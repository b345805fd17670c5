"""Engine layouts: each rule reproduces what that engine allocates, or says it is not supported."""

from __future__ import annotations

import pytest

from registry.engine import (
    ENGINE_KEYS,
    MLA,
    Attention,
    Chunked,
    Compressed,
    Recurrent,
    SlidingWindow,
    StateTensor,
    UnknownEngineError,
    compute,
    get_engine,
    uniform_layer_groups,
)

FULL = uniform_layer_groups("x", Attention(8, 128, 128), 1)  # 4,096 B per token in bf16
DSV3 = uniform_layer_groups(
    "deepseek_v3", MLA(512, 64, num_heads=128, qk_nope_head_dim=128, v_head_dim=128), 61
)
DSV32 = uniform_layer_groups(
    "deepseek_v32",
    MLA(512, 64, num_heads=128, qk_nope_head_dim=128, v_head_dim=128, index_head_dim=128, index_n_heads=64),
    61,
)
MAMBA2 = uniform_layer_groups(
    "x", Recurrent("mamba2", (StateTensor("conv", (3, 100), role="conv"), StateTensor("ssm", (2, 4, 8)))), 1
)


def total(layout: object, engine: str, tokens: int, **kwargs: object) -> int | None:
    return compute(layout, context_tokens=tokens, engine_layout=engine, **kwargs).total_bytes  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ENGINE_KEYS)
def test_every_engine_key_resolves(key: str) -> None:
    assert get_engine(key).key == key


def test_unknown_engine_lists_the_known_ones() -> None:
    with pytest.raises(UnknownEngineError, match=r"known: ideal, vllm, sglang, trtllm, llama\.cpp"):
        get_engine("lmdeploy")
    with pytest.raises(UnknownEngineError, match=r"4\.57 to 5\.x"):
        get_engine("transformers@3.0")


# ---------------------------------------------------------------- vLLM


@pytest.mark.parametrize(("tokens", "slots"), [(1, 16), (16, 16), (17, 32), (4_100, 4_112)])
def test_vllm_rounds_a_sequence_up_to_whole_16_token_blocks(tokens: int, slots: int) -> None:
    assert total(FULL, "vllm", tokens) == slots * 4096


def test_vllm_page_rounding_is_per_sequence() -> None:
    assert total(FULL, "vllm", 17, batch=3) == 3 * 32 * 4096


def test_vllm_mla_uses_64_token_flashmla_blocks() -> None:
    assert total(DSV3, "vllm", 65) == 128 * 70_272


def test_vllm_sliding_window_frees_only_whole_blocks_outside_the_window() -> None:
    layout = uniform_layer_groups("x", SlidingWindow(8, 128, 128, 4096), 1)
    # t = 10,000: tokens below 10,000 - 4,095 = 5,905 are skipped; 369 whole blocks freed of 625.
    assert total(layout, "vllm", 10_000) == (625 - 369) * 16 * 4096
    assert total(layout, "vllm", 100) == 112 * 4096


def test_vllm_chunked_attention_frees_previous_chunks() -> None:
    layout = uniform_layer_groups("llama4", Chunked(8, 128, 128, 8192), 1)
    assert total(layout, "vllm", 8200) == 16 * 4096  # one block of the new chunk
    # the token being decoded is the chunk's last: vLLM has computed 8,191 tokens and skips none
    assert total(layout, "vllm", 8192) == 8192 * 4096


def test_vllm_deepseek_v32_fp8_is_656_bytes_per_token_per_layer_plus_indexer() -> None:
    result = compute(DSV32, context_tokens=64, engine_layout="vllm", kv_dtype="fp8")
    assert result.bytes_per_token == 61 * 656 + 61 * (128 + 4)
    assert "per token = 61 × 656 = 40,016 B = 39.1 KiB" in result.trace


def test_vllm_deepseek_v32_bf16_keeps_the_576_value_latent() -> None:
    result = compute(DSV32, context_tokens=64, engine_layout="vllm")
    assert result.bytes_per_token == 61 * 576 * 2 + 61 * 132


def test_vllm_mamba_state_follows_the_model_dtype_and_kda_state_is_fp32() -> None:
    assert total(MAMBA2, "vllm", 1) == (300 + 64) * 2
    kda = uniform_layer_groups(
        "x", Recurrent("kda", (StateTensor("conv", (3, 10), role="conv"), StateTensor("S", (4, 4)))), 1
    )
    assert total(kda, "vllm", 1) == 30 * 2 + 16 * 4
    assert total(MAMBA2, "vllm", 1, state_dtype="fp32") == 300 * 2 + 64 * 4


def test_vllm_refuses_llama_cpp_block_formats() -> None:
    result = compute(FULL, context_tokens=1, engine_layout="vllm", kv_dtype="q8_0")
    assert result.total_bytes is None
    assert not result.groups[0].supported
    assert "no q8_0 layout" in result.groups[0].reason


# ---------------------------------------------------------------- SGLang


def test_sglang_holds_exactly_t_slots_and_the_window() -> None:
    assert total(FULL, "sglang", 17) == 17 * 4096
    window = uniform_layer_groups("x", SlidingWindow(8, 128, 128, 4096), 1)
    assert total(window, "sglang", 10_000) == 4096 * 4096


def test_sglang_state_is_bf16_conv_and_fp32_ssm() -> None:
    assert total(MAMBA2, "sglang", 1) == 300 * 2 + 64 * 4


def test_sglang_deepseek_v32_fp8_record() -> None:
    assert compute(DSV32, context_tokens=1, engine_layout="sglang", kv_dtype="fp8").bytes_per_token == 61 * (
        656 + 132
    )


# ---------------------------------------------------------------- llama.cpp


@pytest.mark.parametrize(("tokens", "cells"), [(1, 256), (256, 256), (257, 512), (4_000, 4_096)])
def test_llama_cpp_pads_the_context_to_256_cells(tokens: int, cells: int) -> None:
    assert total(FULL, "llama.cpp", tokens) == cells * 4096


def test_llama_cpp_q8_0_and_q4_0_rows_carry_their_scales() -> None:
    assert total(FULL, "llama.cpp", 256, kv_dtype="q8_0") == 256 * 2 * 1024 // 32 * 34
    assert total(FULL, "llama.cpp", 256, kv_dtype="q4_0") == 256 * 2 * 1024 // 32 * 18


def test_llama_cpp_block_format_needs_whole_blocks_per_row() -> None:
    odd = uniform_layer_groups("x", Attention(1, 80, 80), 1)
    result = compute(odd, context_tokens=1, engine_layout="llama.cpp", kv_dtype="q8_0")
    assert result.total_bytes is None
    assert "32-value blocks" in result.not_computable[0]


def test_llama_cpp_swa_cache_is_window_plus_ubatch_padded() -> None:
    layout = uniform_layer_groups("x", SlidingWindow(8, 128, 128, 4096), 1)
    assert total(layout, "llama.cpp", 100_000) == 4608 * 4096  # GGML_PAD(4,096 + 512, 256)
    assert total(layout, "llama.cpp", 1000) == 1024 * 4096


def test_llama_cpp_mla_caches_k_only_and_state_in_fp32() -> None:
    assert total(DSV3, "llama.cpp", 256) == 256 * 61 * 576 * 2
    assert total(MAMBA2, "llama.cpp", 1) == (300 + 64) * 4


def test_llama_cpp_has_no_fp8_cache() -> None:
    assert not compute(FULL, context_tokens=1, engine_layout="llama.cpp", kv_dtype="fp8").groups[0].supported


# ---------------------------------------------------------------- transformers


def test_transformers_4_caches_expanded_per_head_k_and_v_for_deepseek() -> None:
    result = compute(DSV3, context_tokens=1, engine_layout="transformers@4")
    assert result.bytes_per_token == 61 * 128 * ((128 + 64) + 128) * 2
    assert (
        "expanded K + V per token = 61 × 128 × (128 + 64 + 128) × 2 = 4,997,120 B = 4.8 MiB" in result.trace
    )


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("transformers", 70_272),
        ("transformers@5", 70_272),
        ("transformers@5.15", 70_272),
        ("transformers@5.14.1", 4_997_120),
    ],
)
def test_transformers_5_caches_the_latent_from_5_15(key: str, expected: int) -> None:
    assert compute(DSV3, context_tokens=1, engine_layout=key).bytes_per_token == expected


def test_transformers_expanded_layout_needs_the_head_fields() -> None:
    bare = uniform_layer_groups("x", MLA(512, 64), 2)
    result = compute(bare, context_tokens=1, engine_layout="transformers@4")
    assert "num_heads, qk_nope_head_dim, v_head_dim are unknown" in result.not_computable[0]


def test_transformers_sliding_window_keeps_window_minus_one() -> None:
    layout = uniform_layer_groups("x", SlidingWindow(8, 128, 128, 4096), 1)
    assert total(layout, "transformers", 10_000) == 4095 * 4096
    assert total(layout, "transformers", 100) == 100 * 4096


def test_transformers_conv_state_keeps_the_whole_kernel() -> None:
    assert total(MAMBA2, "transformers", 1, state_dtype="bf16") == (4 * 100 + 64) * 2


def test_transformers_kda_state_is_fp32_whatever_is_asked() -> None:
    kda = uniform_layer_groups("kimi_linear", Recurrent("kda", (StateTensor("S", (4, 4)),)), 1)
    assert total(kda, "transformers", 1) == 16 * 4
    assert total(kda, "transformers", 1, state_dtype="bf16") == 16 * 4


def test_transformers_default_state_dtype_is_the_reference_paths() -> None:
    """No state dtype asked: Mamba-2's SSM state in fp32 as the torch path keeps it, its conv window in
    the model dtype (bf16, read off the KV format), and the trace says GPU kernels may differ."""
    result = compute(MAMBA2, context_tokens=1, engine_layout="transformers")
    # conv (3 + 1) x 100 x 2 B + ssm 2 x 4 x 8 x 4 B
    assert result.total_bytes == 4 * 100 * 2 + 2 * 4 * 8 * 4
    assert any("fp32" in line and "fused GPU kernels" in line for line in result.trace)
    asked = compute(MAMBA2, context_tokens=1, engine_layout="transformers", state_dtype="bf16")
    assert asked.total_bytes == 4 * 100 * 2 + 2 * 4 * 8 * 2
    assert not any("fused GPU kernels" in line for line in asked.trace)


def test_transformers_lightning_state_defaults_to_the_model_dtype() -> None:
    lightning = uniform_layer_groups("minimax", Recurrent("lightning", (StateTensor("kv", (2, 4, 4)),)), 1)
    assert total(lightning, "transformers", 1) == 32 * 2
    assert total(lightning, "transformers", 1, kv_dtype="fp32") == 32 * 4
    unknown = compute(lightning, context_tokens=1, engine_layout="transformers", kv_dtype="fp8")
    assert "model dtype" in unknown.not_computable[0]
    assert total(lightning, "transformers", 1, kv_dtype="fp8", model_dtype="fp16") == 32 * 2


def test_transformers_4_has_no_deepseek_v32() -> None:
    result = compute(DSV32, context_tokens=1, engine_layout="transformers@4")
    assert "deepseek_v32" in result.groups[0].reason


# ---------------------------------------------------------------- not supported means no number


@pytest.mark.parametrize("engine", ["vllm", "sglang", "llama.cpp", "transformers", "transformers@4"])
def test_compressed_attention_is_not_supported_outside_ideal(engine: str) -> None:
    layout = uniform_layer_groups("deepseek_v4", Compressed("csa", 4, Attention(1, 512, 0), window=128), 2)
    result = compute(layout, context_tokens=1000, engine_layout=engine)
    assert result.total_bytes is None
    assert result.groups[0].supported is False
    assert result.groups[0].bytes_at_context is None
    assert result.unsupported and result.groups[0].reason in result.unsupported[0]


def test_ideal_supports_every_mechanism() -> None:
    layout = uniform_layer_groups("deepseek_v4", Compressed("csa", 4, Attention(1, 512, 0), window=128), 2)
    assert compute(layout, context_tokens=1000).total_bytes == 2 * (250 + 128) * 1024
