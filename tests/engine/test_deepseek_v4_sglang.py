"""DeepSeek-V4's CSA and HCA layers under the ``sglang`` layout, against figures worked out by hand from
SGLang 0.5.23's released wheel, in its default CUDA pool mode:

- ``sglang/srt/arg_groups/model_overrides/deepseek_v4.py``: ``page_size = 256``;
  ``sglang/srt/environ.py``: ``SGLANG_DSV4_KV_LAYOUT = "v4"``, ``SGLANG_DSV4_COMPRESS_STATE_DTYPE =
  "float32"``, online compression off; ``arg_groups/overrides.py``: KV dtype ``fp8_e4m3``.
- ``sglang/srt/mem_cache/deepseek_v4_memory_pool.py``: 584-byte records (``448 + 64 × 2 + 8``), each page
  rounded up to 576 bytes (``KVLayout.V4.page_bytes``), ``page_size // ratio`` compressed slots a page;
  indexer keys of ``128 + 128 // 128 × 4 = 132`` bytes in pages of 64 slots, not aligned; compressor
  state rings of 8 rows (ratio 4, per SWA page) or 128 rows (ratio 128, per request).
- ``sglang/srt/mem_cache/deepseek_v4_compress_state.py``: state rows of ``2 × (1 + overlap) × head_dim``
  float32 values, ``overlap`` at ratio 4 only; ``translate_from_swa_loc_to_state_loc``.
- ``sglang/srt/mem_cache/common.py``: ``free_swa_out_of_window_slots`` at ``pre_len = t − 1`` frees the
  whole SWA pages below ``pre_len − ⌈max(128, 256) / 256⌉ × 256 = t − 257``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from ruamel.yaml import YAML

from registry.engine import CacheResult, LayerGroups, compute
from registry.engine.engines.deepseek_v4_sglang import swa_pages
from registry.engine.layers import (
    MLA,
    Attention,
    Compressed,
    LayerGroup,
    SlidingWindow,
    uniform_layer_groups,
)
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Model
from tests.conftest import REPO

LATENT = MLA(kv_lora_rank=448, qk_rope_head_dim=64)
CSA = uniform_layer_groups("deepseek_v4", Compressed("csa", 4, LATENT, window=128, index_head_dim=128), 1)
HCA = uniform_layer_groups("deepseek_v4", Compressed("hca", 128, LATENT, window=128), 1)
SLIDING = uniform_layer_groups("deepseek_v4", SlidingWindow(1, 512, 512, 128, latent=LATENT), 1)
SWA_PAGE = 256 * 584 + 256
"""A 256-token SWA page of 584-byte records, 149,504 B rounded up to 576 B: 149,760 B."""


def _sglang(layout: LayerGroups, tokens: int, **kwargs: str) -> CacheResult:
    settings = {"kv_dtype": "fp8", **kwargs}
    return compute(layout, context_tokens=tokens, engine_layout="sglang", **settings)  # type: ignore[arg-type]


def test_a_csa_layer_at_1000_tokens() -> None:
    # compressed: ⌈1000 / 256⌉ = 4 pages × 64 slots × 584 B = 149,504; a page 37,376 → 37,440: + 4 × 64
    compressed = 4 * 64 * 584 + 4 * 64
    # local window: 4 pages − ⌊(1000 − 257) / 256⌋ = 4 − 2 = 2 pages × 256 × 584 = 299,008;
    # a page 149,504 → 149,760: + 2 × 256
    window = 2 * 256 * 584 + 2 * 256
    # compressor state: 2 SWA pages × 8 rows × (2 × 2 × 512 × 4 = 8,192) = 131,072
    state = 2 * 8 * 8192
    # indexer keys: 4 pages × 64 × 132 = 33,792, no alignment
    keys = 4 * 64 * 132
    # indexer compressor state: 2 × 8 × (2 × 2 × 128 × 4 = 2,048) = 32,768
    index_state = 2 * 8 * 2048
    result = _sglang(CSA, 1000)
    assert result.total_bytes == compressed + window + state + keys + index_state == 646_912
    # growth per token: 584 / 4 + 64 / 256 + 132 / 4 = 146 + 0.25 + 33
    assert result.bytes_per_token == 179.25


def test_an_hca_layer_at_1000_tokens() -> None:
    # compressed: 4 pages × 2 slots × 584 = 4,672; a page 1,168 → 1,728: + 4 × 560
    compressed = 4 * 2 * 584 + 4 * 560
    window = 2 * 256 * 584 + 2 * 256
    # compressor state: one request-scoped ring of 128 rows × (2 × 1 × 512 × 4 = 4,096) = 524,288
    ring = 128 * 4096
    result = _sglang(HCA, 1000)
    assert result.total_bytes == compressed + window + ring == 830_720
    assert result.fixed_bytes == ring
    assert result.bytes_per_token == 1728 / 256


@pytest.mark.parametrize(
    ("tokens", "pages"),
    # t ≤ 256: every page; from 257 the page of t − 257 and below are freed, so 2 pages are held
    [(1, 1), (256, 1), (257, 2), (512, 2), (513, 2), (769, 2), (131_072, 2)],
)
def test_the_swa_pool_frees_whole_pages_behind_the_window(tokens: int, pages: int) -> None:
    assert swa_pages(tokens, 128) == pages


def test_deepseek_v4_pro_at_131072_tokens() -> None:
    # 30 CSA + 31 HCA layers; ⌈131,072 / 256⌉ = 512 pages, 2 SWA pages held
    csa = 512 * (64 * 584 + 64) + 2 * (256 * 584 + 256) + 2 * 8 * 8192 + 512 * 64 * 132 + 2 * 8 * 2048
    hca = 512 * (2 * 584 + 560) + 2 * (256 * 584 + 256) + 128 * 4096
    groups = (
        LayerGroup(CSA.groups[0].mechanism, tuple(range(30))),
        LayerGroup(HCA.groups[0].mechanism, tuple(range(30, 61))),
    )
    result = _sglang(LayerGroups(model_type="deepseek_v4", groups=groups), 131_072)
    assert result.total_bytes == 30 * csa + 31 * hca == 30 * 23_958_016 + 31 * 1_708_544


def test_the_compressor_state_follows_the_state_dtype() -> None:
    # SGLANG_DSV4_COMPRESS_STATE_DTYPE=bf16 halves every state row
    fp32, bf16 = _sglang(HCA, 1000).fixed_bytes, _sglang(HCA, 1000, state_dtype="bf16").fixed_bytes
    assert (fp32, bf16) == (128 * 4096, 128 * 2048)


def test_the_trace_names_pages_records_and_rings() -> None:
    trace = "\n".join(_sglang(HCA, 131_072).trace)
    assert "compressed (1 per 128) per slot = 1 × (448 + 64 × 2 + 7 + 1) = 584 B" in trace
    assert "page rounded to 576 B per block = 1 × (1,728 − 1,168) = 560 B" in trace
    assert "2 SWA pages of 256 tokens" in trace
    assert "compressor state (128-row ring) = 1 × 128 × 2 × 1 × 512 × 4 = 524,288 B" in trace
    assert "page_size 256" in trace and "not counted" in trace


def test_other_formats_and_shapes_are_refused_with_a_reason() -> None:
    assert "fp8_e4m3" in _sglang(CSA, 1000, kv_dtype="bf16").unsupported[0]
    assert "fp8_e4m3" in _sglang(CSA, 1000, kv_dtype="fp8_e5m2").unsupported[0]
    assert "float32 or bfloat16" in _sglang(CSA, 1000, state_dtype="fp16").unsupported[0]
    wide = uniform_layer_groups("x", Compressed("csa", 4, MLA(512, 64), window=128), 1)
    assert "448 + 64" in _sglang(wide, 1000).unsupported[0]
    heads = uniform_layer_groups("x", Compressed("csa", 4, Attention(1, 512, 0), window=128), 1)
    assert "latent" in _sglang(heads, 1000).unsupported[0]
    ratio = uniform_layer_groups("x", Compressed("c8", 8, LATENT, window=128), 1)
    assert "ratio 4 or 128" in _sglang(ratio, 1000).unsupported[0]
    indexed = uniform_layer_groups("x", Compressed("hca", 128, LATENT, window=128, index_head_dim=128), 1)
    assert "ratio-4 layers only" in _sglang(indexed, 1000).unsupported[0]


def test_sglang_never_holds_less_than_the_architectural_minimum() -> None:
    for layout in (CSA, HCA):
        for tokens in (1, 127, 128, 129, 255, 256, 257, 1000, 131_072):
            ideal = compute(layout, context_tokens=tokens, engine_layout="ideal", kv_dtype="fp8")
            held, minimum = _sglang(layout, tokens).total_bytes, ideal.total_bytes
            assert held is not None and minimum is not None and held >= minimum


@pytest.mark.parametrize(("tokens", "pages"), [(1, 1), (128, 1), (256, 1), (257, 2), (1000, 2), (131_072, 2)])
def test_a_sliding_only_layer_keeps_its_window_in_the_swa_pool_alone(tokens: int, pages: int) -> None:
    """DeepSeek-V4-Flash's layers 0 and 1 (``compress_ratio`` 0): the SWA pool's pages of 584-byte
    records, as a compressed layer's local window, and no compressor state (``_init_paged_compress_states``
    skips ratio 0) nor indexer; not ``min(t, 128)`` slots of a K and a V of 512 values."""
    result = _sglang(SLIDING, tokens)
    assert result.total_bytes == result.window_bytes == pages * SWA_PAGE
    assert result.steady_state_bytes_per_token == 0
    # a page's bytes over its 256 tokens until the pages stop growing, a page past the window
    assert result.bytes_per_token == (Fraction(SWA_PAGE, 256) if tokens < 257 else 0)
    assert "2 SWA pages of 256 tokens" in "\n".join(_sglang(SLIDING, 131_072).trace)


def test_a_sliding_only_layer_is_refused_outside_the_fp8_pool() -> None:
    assert "fp8_e4m3" in _sglang(SLIDING, 1000, kv_dtype="bf16").unsupported[0]
    wide = uniform_layer_groups("x", SlidingWindow(1, 576, 576, 128, latent=MLA(512, 64)), 1)
    assert "448 + 64" in _sglang(wide, 1000).unsupported[0]


def test_a_window_with_no_latent_keeps_sglangs_token_pool() -> None:
    """Any other sliding window: ``min(t, window)`` slots of K and V, page size 1."""
    plain = uniform_layer_groups("x", SlidingWindow(1, 512, 512, 128), 1)
    assert _sglang(plain, 1000, kv_dtype="bf16").total_bytes == 128 * 2 * 512 * 2


def test_deepseek_v4_flash_under_sglang_at_131072_tokens() -> None:
    """The record's 2 sliding-only, 21 CSA and 20 HCA layers, all in SGLang's DeepSeek-V4 pool."""
    path = REPO / "records" / "models" / "deepseek-v4-flash.yaml"
    layout = model_layer_groups(Model.model_validate(YAML(typ="safe").load(path.read_text(encoding="utf-8"))))
    csa = 512 * (64 * 584 + 64) + 2 * SWA_PAGE + 2 * 8 * 8192 + 512 * 64 * 132 + 2 * 8 * 2048
    hca = 512 * (2 * 584 + 560) + 2 * SWA_PAGE + 128 * 4096
    result = _sglang(layout, 131_072)
    assert [g.bytes_at_context for g in result.groups] == [2 * 2 * SWA_PAGE, 21 * csa, 20 * hca]
    assert result.total_bytes == 2 * 2 * SWA_PAGE + 21 * csa + 20 * hca
