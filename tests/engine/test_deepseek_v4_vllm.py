"""DeepSeek-V4's CSA, HCA and sliding-only layers under the ``vllm`` layout, against figures worked out
by hand from vLLM 0.33.0's released wheel:

- ``vllm/models/deepseek_v4/attention.py``: the compressed cache is an ``MLAAttentionSpec`` with
  ``tokens_per_state = compress_ratio``, ``state_content_bytes = 584`` and ``alignment = 576``; the
  indexer keys (ratio 4 only) one of ``128 + 128 // 128 × 4 = 132`` bytes per compressed entry, also
  aligned to 576; blocks of 256 tokens (``sparse_mla.py``: "DeepSeek V4 sparse MLA uses 256-token KV
  pages").
- ``vllm/v1/attention/backends/mla/sparse_swa.py``: the local window, 584-byte records in blocks of 64
  tokens, pages aligned to 576, kept while inside the 128-token window.
- ``vllm/models/deepseek_v4/compressor.py``: the compressor state, float32 rows of
  ``2 × coff × head_dim`` (coff 2 at ratio 4, else 1), blocks of 4 rows (ratio 4) or 8 (ratio 128)
  over a window of ``coff × ratio`` tokens, pages aligned to 576.
- ``vllm/v1/kv_cache_interface.py``: a page is ``num_states × state bytes`` rounded up to the alignment
  (``_apply_alignment_padding``); ``num_states = block_size // tokens_per_state``.
- ``DeepseekV4Attention`` (``attention.py``) on a layer of ``compress_ratio`` 0: ratio taken as
  ``max(1, ·)``, its own ``get_kv_cache_spec`` ``None`` at ratio 1 or less, no compressor (ratio > 1
  only) nor indexer (ratio 4 only), the ``DeepseekV4SWACache`` built for every layer: the local window
  alone.
"""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from registry.engine import CacheResult, LayerGroups, compute
from registry.engine.layers import MLA, Compressed, SlidingWindow, uniform_layer_groups
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Model
from tests.conftest import REPO

LATENT = MLA(kv_lora_rank=448, qk_rope_head_dim=64)
CSA = uniform_layer_groups("deepseek_v4", Compressed("csa", 4, LATENT, window=128, index_head_dim=128), 1)
HCA = uniform_layer_groups("deepseek_v4", Compressed("hca", 128, LATENT, window=128), 1)
SLIDING = uniform_layer_groups("deepseek_v4", SlidingWindow(1, 512, 512, 128, latent=LATENT), 1)
SWA_BLOCK = 64 * 584 + 64
"""A 64-token block of 584-byte records, 37,376 B, rounded up to 576 B: 37,440 B."""


def _vllm(layout: LayerGroups, tokens: int, kv_dtype: str = "fp8") -> CacheResult:
    return compute(layout, context_tokens=tokens, engine_layout="vllm", kv_dtype=kv_dtype)


def test_a_csa_layer_at_1000_tokens() -> None:
    # compressed: ⌈1000 / 256⌉ = 4 blocks × 64 entries × 584 B = 149,504, pages 37,376 → 37,440: + 4 × 64
    compressed = 4 * 64 * 584 + 4 * 64
    # local window: ⌈1000 / 64⌉ − ⌊(1000 − 128 + 1) / 64⌋ = 16 − 13 = 3 blocks × 64 × 584, + 3 × 64
    window = 3 * 64 * 584 + 3 * 64
    # compressor state: ⌈1000 / 4⌉ − ⌊(1000 − 8 + 1) / 4⌋ = 250 − 248 = 2 blocks × 4 rows × (2 × 2 × 512 × 4)
    # = 2 × 32,768, pages 32,768 → 32,832: + 2 × 64
    state = 2 * 4 * (2 * 2 * 512 * 4) + 2 * 64
    # indexer keys: 4 blocks × 64 × 132 = 33,792, pages 8,448 → 8,640: + 4 × 192
    keys = 4 * 64 * 132 + 4 * 192
    # indexer compressor: 2 blocks × 4 rows × (2 × 2 × 128 × 4) = 2 × 8,192, pages → 8,640: + 2 × 448
    index_state = 2 * 4 * (2 * 2 * 128 * 4) + 2 * 448
    result = _vllm(CSA, 1000)
    assert result.total_bytes == compressed + window + state + keys + index_state == 379_584
    # growth per token: 584 / 4 + 64 / 256 + 132 / 4 + 192 / 256 = 146 + 0.25 + 33 + 0.75
    assert result.bytes_per_token == 180


def test_an_hca_layer_at_1000_tokens() -> None:
    # compressed: 4 blocks × 2 entries × 584 = 4,672, pages 1,168 → 1,728: + 4 × 560
    compressed = 4 * 2 * 584 + 4 * 560
    window = 3 * 64 * 584 + 3 * 64
    # compressor state: ⌈1000 / 8⌉ − ⌊(1000 − 128 + 1) / 8⌋ = 125 − 109 = 16 blocks × 8 rows × (2 × 1 × 512 × 4)
    # = 16 × 32,768, + 16 × 64
    state = 16 * 8 * (2 * 512 * 4) + 16 * 64
    result = _vllm(HCA, 1000)
    assert result.total_bytes == compressed + window + state == 644_544
    assert result.bytes_per_token == 1728 / 256


def test_the_trace_names_blocks_records_and_padding() -> None:
    trace = "\n".join(_vllm(CSA, 131_072).trace)
    assert "compressed (1 per 4) per slot = 1 × (448 + 64 × 2 + 7 + 1) = 584 B" in trace
    assert "⌈t / 256⌉ = 512 blocks of 64 entries" in trace
    assert "page rounded to 576 B per block = 1 × (37,440 − 37,376) = 64 B" in trace
    assert "not counted" in trace


def test_other_kv_formats_and_shapes_are_refused_with_a_reason() -> None:
    bf16 = _vllm(CSA, 1000, kv_dtype="bf16")
    assert bf16.total_bytes is None and "fp8" in bf16.unsupported[0]
    other = uniform_layer_groups("x", Compressed("csa", 4, MLA(512, 64), window=128), 1)
    assert "448 + 64" in _vllm(other, 1000).unsupported[0]


def _minimum(layout: LayerGroups, tokens: int) -> int | None:
    """``ideal``'s cache: a sliding-only layer's window there is the one latent vector it is."""
    return compute(layout, context_tokens=tokens, engine_layout="ideal", kv_dtype="fp8").total_bytes


def test_vllm_never_holds_less_than_the_architectural_minimum() -> None:
    for layout in (CSA, HCA, SLIDING):
        for tokens in (1, 127, 128, 129, 255, 256, 257, 1000, 131_072):
            held, minimum = _vllm(layout, tokens).total_bytes, _minimum(layout, tokens)
            assert held is not None and minimum is not None and held >= minimum


@pytest.mark.parametrize(
    ("tokens", "blocks"),
    # ⌈t / 64⌉ − ⌊max(0, t − 127) / 64⌋: every block up to t = 128, then a block is freed once all of its
    # tokens are more than 127 behind the last (191 frees the first, 255 the second, ...)
    [
        (1, 1),
        (64, 1),
        (65, 2),
        (127, 2),
        (128, 2),
        (129, 3),
        (190, 3),
        (191, 2),
        (193, 3),
        (1000, 3),
        (131_072, 2),
    ],
)
def test_a_sliding_only_layer_keeps_its_window_in_the_swa_cache_alone(tokens: int, blocks: int) -> None:
    """DeepSeek-V4-Flash's layers 0 and 1 (``compress_ratio`` 0): the ``DeepseekV4SWACache`` blocks of
    584-byte records, as a compressed layer's local window, and no compressed entries, compressor state
    nor indexer; not 16-token blocks of a K and a V of 512 values."""
    result = _vllm(SLIDING, tokens)
    assert result.total_bytes == result.window_bytes == blocks * SWA_BLOCK
    assert result.steady_state_bytes_per_token == 0
    # a block's 37,440 B over its 64 tokens while the window fills, nothing once it is full
    assert result.bytes_per_token == (585 if tokens < 128 else 0)
    trace = "\n".join(_vllm(SLIDING, 1000).trace)
    assert "local window per slot = 1 × (448 + 64 × 2 + 7 + 1) = 584 B" in trace
    assert "3 blocks of 64 tokens inside the window" in trace


def test_a_sliding_only_layer_is_refused_outside_fp8_ds_mla() -> None:
    assert "fp8" in _vllm(SLIDING, 1000, kv_dtype="bf16").unsupported[0]
    wide = uniform_layer_groups("x", SlidingWindow(1, 576, 576, 128, latent=MLA(512, 64)), 1)
    assert "448 + 64" in _vllm(wide, 1000).unsupported[0]


def test_a_window_with_no_latent_keeps_vllms_16_token_blocks() -> None:
    """Any other sliding window: whole 16-token blocks of K and V still inside the window."""
    plain = uniform_layer_groups("x", SlidingWindow(1, 512, 512, 128), 1)
    # ⌈1000 / 16⌉ − ⌊873 / 16⌋ = 63 − 54 = 9 blocks of 16 tokens × (512 + 512) × 2 B
    assert _vllm(plain, 1000, kv_dtype="bf16").total_bytes == 9 * 16 * 2 * 512 * 2


def test_deepseek_v4_flash_under_vllm_at_131072_tokens() -> None:
    """The record's 2 sliding-only layers hold 2 SWA blocks each beside the 21 CSA and 20 HCA layers."""
    path = REPO / "records" / "models" / "deepseek-v4-flash.yaml"
    layout = model_layer_groups(Model.model_validate(YAML(typ="safe").load(path.read_text(encoding="utf-8"))))
    result = _vllm(layout, 131_072)
    csa, hca = _vllm(CSA, 131_072).total_bytes, _vllm(HCA, 131_072).total_bytes
    assert csa is not None and hca is not None
    assert [g.bytes_at_context for g in result.groups] == [2 * 2 * SWA_BLOCK, 21 * csa, 20 * hca]
    assert result.total_bytes == 2 * 2 * SWA_BLOCK + 21 * csa + 20 * hca


def test_ideal_keeps_a_sliding_only_layers_one_vector_once() -> None:
    """``ideal`` counts the window of a sliding-only layer as its one vector of 448 + 64 values a token, as
    the compressed layers' local window; transformers holds it twice (a K and a V tensor of
    ``DynamicSlidingWindowLayer``), and llama.cpp, whose DeepSeek-V4 cache was not read, refuses it."""
    ideal = compute(SLIDING, context_tokens=1000, engine_layout="ideal", kv_dtype="fp8")
    assert ideal.total_bytes == 128 * (448 + 64)
    assert "448 latent + 64 rotary values, held once" in "\n".join(ideal.trace)
    assert compute(SLIDING, context_tokens=1000, engine_layout="ideal").total_bytes == 128 * 512 * 2
    held = compute(SLIDING, context_tokens=1000, engine_layout="transformers").total_bytes
    assert held == 127 * 2 * 512 * 2
    refused = compute(SLIDING, context_tokens=1000, engine_layout="llama.cpp")
    assert "DeepSeek-V4" in refused.unsupported[0]
