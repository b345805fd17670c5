"""The worked figures of the source documents, recomputed exactly from their geometry.

Seed 000: 80 layers, KV hidden 2048, FP16 → 655,360 B/token and 2.62 GB (decimal) at 4,000 tokens.
Seed 002: 32 layers, 8 KV heads, d_head 128, BF16 → 128 KiB/token, 512 MiB at 4,096, 16 GiB at 131,072;
MLA with the latent width ÷ 4 → 32 KiB/token, 4 GiB at 131,072 and 16 GiB at 524,288; a 32 × 128 × 128
BF16 state → 1 MiB at any length. Seed 003: DeepSeek-V3 MLA 61 × (512 + 64) × 2 = 70,272 B/token.
"""

from __future__ import annotations

import pytest

from registry.engine import (
    MLA,
    Attention,
    Recurrent,
    StateTensor,
    compute,
    per_token_bytes,
    uniform_layer_groups,
)
from registry.engine.units import parse_quantity

KIB, MIB, GIB = 2**10, 2**20, 2**30

COURSE = uniform_layer_groups("course", Attention(num_kv_heads=8, head_dim=128, v_head_dim=128), 32)
# Latent width ÷ 4: the standard cache holds 2 × 8 × 128 = 2,048 values per layer and token; the
# course's MLA keeps a 512-value latent c_t and nothing else.
COURSE_MLA = uniform_layer_groups("course-mla", MLA(kv_lora_rank=512, qk_rope_head_dim=0), 32)
COURSE_STATE = uniform_layer_groups("course-state", Recurrent("linear", (StateTensor("S", (128, 128)),)), 32)
# Seed 000's "KV hidden dimension of 2048" is kv_heads × head_dim; 16 × 128 is one such split.
ARTICLE = uniform_layer_groups("article", Attention(num_kv_heads=16, head_dim=128, v_head_dim=128), 80)
DEEPSEEK_V3 = uniform_layer_groups(
    "deepseek_v3",
    MLA(kv_lora_rank=512, qk_rope_head_dim=64, num_heads=128, qk_nope_head_dim=128, v_head_dim=128),
    61,
)


def test_article_generic_formula_gives_655360_bytes_per_token_and_2_62_gb_at_4000() -> None:
    result = compute(ARTICLE, context_tokens=4_000, kv_dtype="fp16")
    assert result.bytes_per_token == 655_360
    assert result.total_bytes == 2_621_440_000
    assert parse_quantity("2.62 GB").admits(result.total_bytes)
    assert not parse_quantity("2.62 GiB").admits(result.total_bytes)


def test_article_figure_at_one_million_tokens_is_655_36_gb() -> None:
    result = compute(ARTICLE, context_tokens=1_000_000, kv_dtype="fp16")
    assert result.total_bytes == 655_360_000_000
    assert parse_quantity("655.36GB").admits(result.total_bytes)


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [(4_096, 512 * MIB), (131_072, 16 * GIB), (524_288, 64 * GIB)],
)
def test_course_standard_cache_is_128_kib_per_token_and_linear(tokens: int, expected: int) -> None:
    result = compute(COURSE, context_tokens=tokens)
    assert result.bytes_per_token == 128 * KIB
    assert result.total_bytes == expected
    assert result.growing_bytes == expected


def test_course_worked_trace_is_written_factor_by_factor() -> None:
    trace = compute(COURSE, context_tokens=131_072).trace
    assert "per token = 32 × 2 × 8 × 128 × 2 = 131,072 B = 128 KiB" in trace
    assert "t = 131,072 → 131,072 × 131,072 = 17,179,869,184 B = 16 GiB" in trace
    assert (
        "t = 4,096 → 4,096 × 131,072 = 536,870,912 B = 512 MiB" in compute(COURSE, context_tokens=4_096).trace
    )


def test_int8_halves_the_last_factor_only() -> None:
    trace = compute(COURSE, context_tokens=1, kv_dtype="int8").trace
    assert "per token = 32 × 2 × 8 × 128 × 1 = 65,536 B = 64 KiB" in trace


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [(4_096, 128 * MIB), (131_072, 4 * GIB), (524_288, 16 * GIB)],
)
def test_course_mla_is_32_kib_per_token_and_still_linear(tokens: int, expected: int) -> None:
    result = compute(COURSE_MLA, context_tokens=tokens)
    assert result.bytes_per_token == 32 * KIB
    assert result.total_bytes == expected
    assert result.fixed_bytes == 0


def test_mla_at_524288_tokens_equals_the_standard_cache_at_131072() -> None:
    mla = compute(COURSE_MLA, context_tokens=524_288).total_bytes
    assert mla == compute(COURSE, context_tokens=131_072).total_bytes


@pytest.mark.parametrize("tokens", [4_096, 131_072, 524_288])
def test_course_fixed_state_is_one_mib_at_any_length(tokens: int) -> None:
    result = compute(COURSE_STATE, context_tokens=tokens)
    assert result.total_bytes == MIB
    assert result.fixed_bytes == MIB
    assert result.bytes_per_token == 0
    assert "fixed state = 32 × 128 × 128 × 2 = 1,048,576 B = 1 MiB" in result.trace


def test_deepseek_v3_mla_is_70272_bytes_per_token_not_the_gqa_figure() -> None:
    result = compute(DEEPSEEK_V3, context_tokens=131_072)
    assert result.bytes_per_token == 70_272
    assert "per token = 61 × (512 + 64) × 2 = 70,272 B = 68.6 KiB" in result.trace
    assert parse_quantity("68.6 KiB").admits(70_272)
    assert parse_quantity("~8.6 GiB").admits(result.total_bytes or 0)
    assert result.bytes_per_token != 61 * 128 * 128 * 2 * 2  # the naive GQA reading, 4,000,256 B


def test_per_token_bytes_matches_compute() -> None:
    assert per_token_bytes(DEEPSEEK_V3) == 70_272
    assert per_token_bytes(COURSE, kv_dtype="int8") == 64 * KIB
