"""DeepSeek-V4's CSA and HCA layers under the ``vllm`` layout, against figures worked out by hand from
vLLM 0.33.0's released wheel:

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
"""

from __future__ import annotations

from registry.engine import CacheResult, LayerGroups, compute
from registry.engine.layers import MLA, Compressed, uniform_layer_groups

LATENT = MLA(kv_lora_rank=448, qk_rope_head_dim=64)
CSA = uniform_layer_groups("deepseek_v4", Compressed("csa", 4, LATENT, window=128, index_head_dim=128), 1)
HCA = uniform_layer_groups("deepseek_v4", Compressed("hca", 128, LATENT, window=128), 1)


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


def test_vllm_never_holds_less_than_the_architectural_minimum() -> None:
    for layout in (CSA, HCA):
        for tokens in (1, 127, 128, 129, 255, 256, 257, 1000, 131_072):
            ideal = compute(layout, context_tokens=tokens, engine_layout="ideal", kv_dtype="fp8")
            held, minimum = _vllm(layout, tokens).total_bytes, ideal.total_bytes
            assert held is not None and minimum is not None and held >= minimum
