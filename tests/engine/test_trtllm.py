"""The ``trtllm`` layout against figures worked out by hand from TensorRT-LLM's source at commit
``b35ac1b64368513d215c57d2ed01d62d910df8da`` (``tensorrt_llm/version.py``: 1.2.0rc2), each case citing
the function it follows:

- ``tensorrt_llm/llmapi/llm_args.py``, ``KvCacheConfig.tokens_per_block``: 32 tokens a block;
- ``cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp``, ``KVCacheManager::addSequence``:
  ``⌈t / tokens_per_block⌉`` blocks for a prompt; ``WindowBlockManager::adjustBlocksIfNeeded``: a new
  block when ``(t − 1) % tokens_per_block == 0``, and in a window pool the front block detached while
  ``t − removed × tokens_per_block ≥ window + tokens_per_block``;
- ``tensorrt_llm/_torch/pyexecutor/resource_manager.py``, ``KVCacheManager.get_cache_size_per_token``:
  an MLA layer caches ``kv_lora_rank + qk_rope_head_dim`` values with ``kv_factor`` 1, other layers
  ``num_key_value_heads × head_dim`` with ``kv_factor`` 2; ``get_cache_bytes_per_token``: FP8, HALF,
  BF16, FLOAT and NVFP4 only, NVFP4 with one FP8 scale per 16 values
  (``calculate_scaling_factor_size_bytes(quant_vector_size=16)``).

No test of TensorRT-LLM's own suite was found at that commit stating a byte count these rules
produce, so every figure here is worked from the functions above.
"""

from __future__ import annotations

import json

import pytest

from registry.cli import main
from registry.engine import compute
from registry.engine.adapters import _state
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    Mechanism,
    SlidingWindow,
    uniform_layer_groups,
)
from tests.conftest import REPO

BLOCK = 32
GQA = Attention(num_kv_heads=8, head_dim=128, v_head_dim=128)
"""Llama 3.1 8B's attention: 8 K/V heads of 128."""
LATENT = MLA(kv_lora_rank=512, qk_rope_head_dim=64)
"""DeepSeek-V3/R1's latent and RoPE key."""


def _bytes(mechanism: Mechanism, t: int, kv_dtype: str = "bf16", layers: int = 1) -> int | None:
    layout = uniform_layer_groups("x", mechanism, layers)
    result = compute(layout, context_tokens=t, kv_dtype=kv_dtype, engine_layout="trtllm")
    return result.total_bytes


@pytest.mark.parametrize(("t", "blocks"), [(1, 1), (32, 1), (33, 2), (1000, 32), (1024, 32), (1025, 33)])
def test_full_attention_keeps_whole_blocks_of_32(t: int, blocks: int) -> None:
    """``addSequence``: ⌈t / 32⌉ blocks; K and V (``kv_factor`` 2) of 8 heads × 128 in bf16 a token."""
    assert _bytes(GQA, t) == blocks * BLOCK * 2 * 8 * 128 * 2


def test_mha_keeps_every_head() -> None:
    mha = Attention(num_kv_heads=32, head_dim=128, v_head_dim=128)
    assert _bytes(mha, 100) == 4 * BLOCK * 2 * 32 * 128 * 2


def test_mla_keeps_one_latent_vector_a_token() -> None:
    """``get_cache_size_per_token``: ``kv_lora_rank + qk_rope_head_dim`` values, ``kv_factor`` 1."""
    assert _bytes(LATENT, 1000, layers=61) == 61 * 32 * BLOCK * (512 + 64) * 2
    assert _bytes(LATENT, 1000, "fp8", layers=61) == 61 * 32 * BLOCK * (512 + 64)


@pytest.mark.parametrize(
    ("t", "blocks"),
    [
        (128, 4),  # the window: nothing detached yet
        (159, 5),  # 159 < 128 + 32: the front block is still held
        (160, 4),  # 160 ≥ 128 + 32: one block detached (⌊32 / 32⌋ = 1), five allocated
        (161, 5),  # a sixth block allocated at (t − 1) % 32 == 0, one detached
        (8192, 4),  # ⌈8192 / 32⌉ − ⌊8064 / 32⌋ = 256 − 252
        (8200, 5),
    ],
)
def test_a_window_detaches_its_front_blocks(t: int, blocks: int) -> None:
    """``adjustBlocksIfNeeded``: front blocks detached while ``t − removed × 32 ≥ window + 32``, so
    ``⌈t / 32⌉ − ⌊max(0, t − window) / 32⌋`` blocks remain (gpt-oss's 128-token window, 8 heads of 64)."""
    window = SlidingWindow(num_kv_heads=8, head_dim=64, v_head_dim=64, window=128)
    assert _bytes(window, t) == blocks * BLOCK * 2 * 8 * 64 * 2


def test_nvfp4_carries_an_fp8_scale_per_16_values() -> None:
    """``get_cache_bytes_per_token``: 2 × 8 × 128 = 2,048 values a token, ½ B each, plus 2,048 / 16 = 128
    one-byte scales: 1,152 B a token and layer."""
    assert _bytes(GQA, 32, "nvfp4") == BLOCK * (2 * 8 * 128 // 2 + 2 * 8 * 128 // 16)


@pytest.mark.parametrize("kv_dtype", ["q8_0", "q4_0", "fp8_e5m2", "int8", "int4"])
def test_formats_it_cannot_size_are_refused(kv_dtype: str) -> None:
    layout = uniform_layer_groups("x", GQA, 1)
    result = compute(layout, context_tokens=64, kv_dtype=kv_dtype, engine_layout="trtllm")
    assert not result.computable
    assert "TensorRT-LLM's KV cache has no" in result.unsupported[0]


@pytest.mark.parametrize(
    ("mechanism", "said"),
    [
        (Chunked(8, 128, 128, 8192), "chunked attention"),
        (MLA(512, 64, index_head_dim=128), "indexer"),
        (Compressed("csa", 4, LATENT, window=128, index_head_dim=128), "DeepSeek-V4"),
        (
            _state.mamba2(
                intermediate=256, n_groups=2, num_heads=8, head_dim=32, state_size=16, conv_kernel=4
            ),
            "Mamba",
        ),
    ],
)
def test_what_was_not_read_is_refused_with_the_reason(mechanism: Mechanism, said: str) -> None:
    result = compute(uniform_layer_groups("x", mechanism, 1), context_tokens=64, engine_layout="trtllm")
    assert not result.computable
    assert said in result.unsupported[0]
    assert "was not read" in result.unsupported[0]


def test_an_nvfp4_latent_is_refused() -> None:
    result = compute(
        uniform_layer_groups("x", LATENT, 1), context_tokens=64, kv_dtype="nvfp4", engine_layout="trtllm"
    )
    assert not result.computable and "NVFP4 cache for an MLA latent" in result.unsupported[0]


@pytest.mark.parametrize(
    ("model", "per_token", "at_8k"),
    [
        ("llama-3.1-8b-instruct", 32 * 2 * 8 * 128 * 2, 8192 * 32 * 2 * 8 * 128 * 2),  # dense, GQA
        ("deepseek-r1", 61 * (512 + 64) * 2, 8192 * 61 * (512 + 64) * 2),  # MLA
        # sliding window: 18 window layers of 4 blocks of 32, 18 full layers of 8,192 tokens; 8 heads of 64
        ("gpt-oss-120b", 18 * 2 * 8 * 64 * 2, (8192 + 4 * 32) * 18 * 2 * 8 * 64 * 2),
    ],
)
def test_registry_calc_for_the_registry_models(
    model: str, per_token: int, at_8k: int, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["calc", "--model", model, "--context", "8K", "--layout", "trtllm", "--format", "json"]
    assert main([*args, "--root", str(REPO)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["layout"], result["bytes_per_token"], result["total_bytes"]) == (
        "trtllm",
        per_token,
        at_8k,
    )
