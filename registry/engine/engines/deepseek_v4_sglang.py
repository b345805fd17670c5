"""DeepSeek-V4's compressed and sliding-only attention as SGLang 0.5.23 lays it out by default on CUDA (the released wheel,
``sglang/srt/mem_cache/deepseek_v4_memory_pool.py`` and ``deepseek_v4_compress_state.py``), with the fp8
``v4`` page layout.

The default pool mode: ``SGLANG_DSV4_KV_LAYOUT`` is ``"v4"`` (``sglang/srt/environ.py``), the attention
backend ``flashmla`` for ``deepseek_v4`` (``_default_dsv4_attention_backend`` in
``sglang/srt/arg_groups/deepseek_v4_hook.py``), the KV dtype ``fp8_e4m3`` (``_deepseek_v4_kv_cache_dtype``
in ``arg_groups/overrides.py``), ``page_size`` 256 (``arg_groups/model_overrides/deepseek_v4.py``), no
unified ring, no online c128 compression (``SGLANG_OPT_USE_ONLINE_COMPRESS`` off), no speculative decoding,
compressor state in float32 (``SGLANG_DSV4_COMPRESS_STATE_DTYPE``), the radix cache on. Each CSA (ratio 4)
or HCA (ratio 128) layer of a sequence of ``t`` tokens then keeps, in ``DeepSeekV4TokenToKVPool``:

- its compressed entries: a ``DeepSeekV4SingleKVPool`` of ``page_size // ratio`` slots a page, slot =
  full-pool location // ratio, so one page per 256-token page of the sequence, ``⌈t / 256⌉`` pages;
  each slot a 584-byte record (448 fp8 NoPE, 64 bf16 RoPE, 7 scale bytes and a pad byte), each page
  rounded up to 576 bytes (``KVLayout.V4.page_bytes``);
- its uncompressed local window: the same 584-byte records in the SWA pool's 256-token pages; with the
  radix cache on, ``free_swa_out_of_window_slots`` (``sglang/srt/mem_cache/common.py``), run at
  ``pre_len = t − 1`` when a request decodes, frees whole pages below
  ``pre_len − ⌈max(window, 256) / 256⌉ × 256``;
- its compressor's running state: ratio 4 reserves a ring of 8 float32 rows of
  ``2 × 2 × head_dim`` values for each SWA page (``translate_from_swa_loc_to_state_loc``), so the rows
  follow the SWA pages the sequence holds; ratio 128 keeps one request-scoped ring of 128 rows of
  ``2 × 1 × head_dim`` values whatever the context (``get_compress_state_ring_size``);
- on CSA layers, the indexer's keys (``DeepSeekV4IndexerPool``: ``index_head_dim`` fp8 values and a
  float32 scale per 128, ``get_dsv4_indexer_bytes_per_token``) in pages of 64 slots with no alignment,
  and its own compressor's state (the same ring for ``index_head_dim``).

A sliding-only layer (``compress_ratio`` 0: DeepSeek-V4-Flash's first two) keeps its local window
alone, as above: ``DeepSeekV4TokenToKVPool.__init__`` builds the SWA pool for every layer of the stage
(``swa_kv_pool`` with ``layer_num=stage_layer_num``), of the same 584-byte records in the same pages,
freed by the same rule, while ``_init_paged_compress_states`` skips ratio 0 (no compressor state) and
``MQALayer.__init__`` (``sglang/srt/models/deepseek_v4.py``) gives only ratios 4 and 128 a compressor
and (ratio 4) an indexer. The layer's one vector is stored once, as the latent its record states
(:attr:`SlidingWindow.latent <registry.engine.layers.SlidingWindow.latent>`), not as a K and a V.

Pool-wide rows (the reserved page, the ring's spare rows, the SWA pages a radix tree keeps for reuse)
belong to no one sequence and are not counted.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

from registry.engine.engines.deepseek_v4 import (
    INDEXER_QUANT_BLOCK,
    RECORD_BYTES,
    RECORD_GEOMETRY,
    all_blocks,
    paged,
    round_up,
)
from registry.engine.formulas import compressed_entries
from registry.engine.layers import MLA, Compressed, SlidingWindow
from registry.engine.plan import Component, GroupPlan, Settings, one_state, require, unsupported
from registry.engine.trace import Factor, number, parenthesized_sum

PAGE_TOKENS = 256
"""``page_size = 256`` for ``DeepseekV4ForCausalLM`` on CUDA (``model_overrides/deepseek_v4.py``); the SWA
pool's pages are the same size ("In paged swa mode, page_size must be 256.", ``kv_cache_configurator.py``)."""
C4_RING_ROWS = 8
"""``get_compress_state_ring_size(4)`` without speculative decoding: 8 rows per SWA page."""
C128_RING_ROWS = 128
"""``get_compress_state_ring_size(128)`` without speculative decoding or online compression."""
STATE_DTYPES = {"fp32": 4, "bf16": 2}
"""``SGLANG_DSV4_COMPRESS_STATE_DTYPE``: float32 by default, bfloat16 allowed."""
PAGED = "SGLang sets page_size 256 for DeepSeek-V4, whose pool pages every cache below"
NOT_COUNTED = (
    "SGLang's pool-wide rows (a reserved page per pool, the state ring's spare rows, SWA pages the radix "
    "tree keeps for reuse) belong to no one sequence and are not counted"
)


def _kept(window: int) -> int:
    """The tokens kept below the one decoded: ``⌈max(window, 256) / 256⌉ × 256``."""
    return round_up(max(window, PAGE_TOKENS), PAGE_TOKENS)


def swa_pages(t: int, window: int) -> int:
    """SWA pages a sequence holds at ``t``: ``⌈t / 256⌉`` less the whole pages below
    ``t − 1 − ⌈max(window, 256) / 256⌉ × 256`` (``free_swa_out_of_window_slots`` with prefix sharing)."""
    return compressed_entries(t, PAGE_TOKENS) - max(0, t - 1 - _kept(window)) // PAGE_TOKENS


def swa_full_at(window: int) -> int:
    """The context from which the SWA pages held stop growing: ``⌈max(window, 256) / 256⌉ × 256 + 1``.
    Below it nothing is freed and a page is taken every 256 tokens; from it one page is freed for each
    page taken, so the count repeats every 256 tokens (one page more or less than the window's edge
    would suggest: the freeing starts a page past the window)."""
    return _kept(window) + 1


def _swa_slots(t: int, window: int, per_page: int, what: str) -> tuple[int, str]:
    """The SWA pages held, each of ``per_page`` slots (tokens, or state rows)."""
    pages = swa_pages(t, window)
    return pages * per_page, f"{number(pages)} SWA pages of {number(per_page)} {what}"


def _state(label: str, ratio: int, window: int, head_dim: int, element: int) -> Component:
    """A compressor's running state: rows of ``2 × coff × head_dim`` values (``coff`` 2 at ratio 4, whose
    windows overlap), 8 rows per SWA page at ratio 4, one 128-row ring per request at ratio 128."""
    coff = 2 if ratio == 4 else 1
    row = 2 * coff * head_dim * element
    factors: tuple[Factor, ...] = (2, coff, head_dim, element)
    if ratio == 4:
        rows = partial(_swa_slots, window=window, per_page=C4_RING_ROWS, what="rows")
        return Component(
            "window",
            label,
            Fraction(row),
            factors,
            rows,
            Fraction(0),
            per="row",
            filling=Fraction(C4_RING_ROWS * row, PAGE_TOKENS),
            full_at=swa_full_at(window),
            period=PAGE_TOKENS,
        )
    ring = (C128_RING_ROWS, *factors)
    return Component(
        "fixed", f"{label} (128-row ring)", Fraction(C128_RING_ROWS * row), ring, one_state, Fraction(0)
    )


_DTYPE_PROBLEM = "SGLang's CUDA pool for DeepSeek-V4 stores fp8_e4m3 (the default it sets), not {}"


RECORD: tuple[Factor, ...] = (parenthesized_sum([448, "64 × 2", 7, 1]),)
"""The 584-byte record's factors, as the trace prints them."""


def _local_window(window: int) -> tuple[Component, ...]:
    """The window's 584-byte records in the SWA pages a sequence holds (:func:`swa_pages`), filling until
    :func:`swa_full_at`."""
    held = partial(_swa_slots, window=window, per_page=PAGE_TOKENS, what="tokens")
    return paged(
        "local window", "window", RECORD_BYTES, RECORD, PAGE_TOKENS, PAGE_TOKENS, held, swa_full_at(window)
    )


def _problem(mechanism: Compressed, settings: Settings) -> str:
    """Why SGLang's default DeepSeek-V4 pool does not hold this layer as modelled, or ""."""
    if settings.kv_dtype.name not in ("fp8", "fp8_e4m3"):
        return _DTYPE_PROBLEM.format(settings.kv_dtype.name)
    if settings.state_dtype is not None and settings.state_dtype.name not in STATE_DTYPES:
        return f"SGLang keeps DeepSeek-V4's compressor state in float32 or bfloat16, not {settings.state_dtype.name}"
    if mechanism.ratio not in (4, 128):
        return "SGLang's DeepSeek-V4 pool holds compressed layers of ratio 4 or 128 only"
    if mechanism.index_head_dim is not None and mechanism.ratio != 4:
        return "SGLang's DeepSeek-V4 pool keeps indexer keys on ratio-4 layers only"
    return ""


def sglang_compressed(mechanism: Compressed, settings: Settings) -> GroupPlan:
    """A DeepSeek-V4 CSA or HCA layer as SGLang 0.5.23 keeps it by default (module docstring)."""
    (ratio,) = require(mechanism, "ratio")
    problem = _problem(mechanism, settings)
    if problem:
        return unsupported(problem)
    inner = mechanism.inner
    if not isinstance(inner, MLA):
        return unsupported("SGLang's DeepSeek-V4 pool holds a latent (MLA) record only")
    nope, rope = require(inner, "kv_lora_rank", "qk_rope_head_dim")
    if (nope, rope) != RECORD_GEOMETRY:
        return unsupported(f"the 584-byte record is defined for a 448 + 64 latent, not {nope} + {rope}")
    per_page = PAGE_TOKENS // ratio
    every = partial(all_blocks, block=PAGE_TOKENS, per_block=per_page, what="entries")
    label = f"compressed (1 per {number(ratio)})"
    parts = list(paged(label, "growing", RECORD_BYTES, RECORD, per_page, PAGE_TOKENS, every))
    window = mechanism.window or 0
    if mechanism.window is not None:
        parts += _local_window(window)
    element = STATE_DTYPES[settings.state_dtype.name if settings.state_dtype else "fp32"]
    parts.append(_state("compressor state", ratio, window, nope + rope, element))
    if mechanism.index_head_dim is not None:
        dim = mechanism.index_head_dim
        key = Fraction(dim + dim // INDEXER_QUANT_BLOCK * 4)
        key_factors: tuple[Factor, ...] = (parenthesized_sum([dim, f"{dim} / 128 × 4"]),)
        keys = Component(
            "growing", "indexer keys", key, key_factors, every, key / ratio, per="slot", period=PAGE_TOKENS
        )
        parts.append(keys)
        parts.append(_state("indexer compressor state", ratio, window, dim, element))
    return GroupPlan(tuple(parts), notes=(PAGED, NOT_COUNTED))


def sglang_sliding(mechanism: SlidingWindow, settings: Settings) -> GroupPlan:
    """A DeepSeek-V4 sliding-only layer as SGLang 0.5.23 keeps it by default: its window's records in the
    SWA pool, nothing else (module docstring). Only a window over one latent vector is such a layer."""
    (window,) = require(mechanism, "window")
    if mechanism.latent is None:
        return unsupported("SGLang's DeepSeek-V4 pool holds a window of one latent vector only")
    if settings.kv_dtype.name not in ("fp8", "fp8_e4m3"):
        return unsupported(_DTYPE_PROBLEM.format(settings.kv_dtype.name))
    nope, rope = require(mechanism.latent, "kv_lora_rank", "qk_rope_head_dim")
    if (nope, rope) != RECORD_GEOMETRY:
        return unsupported(f"the 584-byte record is defined for a 448 + 64 latent, not {nope} + {rope}")
    return GroupPlan(_local_window(window), notes=(PAGED, NOT_COUNTED))
