"""DeepSeek-V4's compressed and sliding-only attention as vLLM 0.33.0 lays it out (the released wheel,
``vllm/models/deepseek_v4/`` and ``vllm/v1/kv_cache_interface.py``), with its fp8 ``fp8_ds_mla`` cache.

Each CSA (ratio 4) or HCA (ratio 128) layer keeps, per sequence (``DeepseekV4Attention`` in
``attention.py``):

- its compressed entries: an ``MLAAttentionSpec`` with ``tokens_per_state = compress_ratio`` and
  ``state_content_bytes = 584`` (448 fp8 NoPE values, 64 bf16 RoPE values, 7 ue8m0 scales and a pad
  byte), in blocks of :data:`BLOCK_TOKENS` tokens, each page rounded up to :data:`PAGE_ALIGNMENT`
  bytes (``alignment=576``, ``_apply_alignment_padding``);
- its uncompressed local window: a ``DeepseekV4SWACache`` (``SlidingWindowMLASpec``) of the same
  584-byte records in blocks of :data:`SWA_BLOCK_TOKENS` tokens, of which the sliding-window manager
  keeps the blocks still inside the window;
- its compressor's running state: a ``CompressorStateCache`` of float32 rows of
  ``2 × coff × head_dim`` values (``coff`` 2 for ratio 4, whose windows overlap, else 1), in blocks of
  4 (ratio 4) or 8 (ratio 128) tokens over a window of ``coff × ratio`` tokens (``compressor.py``);
- on CSA layers, the indexer's keys (``DeepseekV4IndexerCache``: ``index_head_dim`` fp8 values and a
  float32 scale per 128, one per compressed entry, pages aligned to 576 bytes) and its own
  compressor's state (the same rows for ``index_head_dim``).

A sliding-only layer (``compress_ratio`` 0: DeepSeek-V4-Flash's first two) keeps that local window
alone. ``DeepseekV4Attention.__init__`` (``attention.py``) takes its ratio as
``max(1, config.compress_rates.get(layer_type, 0))`` ("Compress ratio can't be 0") and builds the
``DeepseekV4SWACache`` for every layer; ``DeepseekV4Attention.get_kv_cache_spec`` returns ``None`` for
a ratio of 1 or less ("SWA part. Allocated separately as DeepseekV4SWACache"); the
``DeepseekCompressor`` is built only for a ratio above 1 and the indexer only for ratio 4. The layer's
one vector is stored once, as the latent its record states
(:attr:`SlidingWindow.latent <registry.engine.layers.SlidingWindow.latent>`), not as a K and a V in
16-token blocks.

vLLM then packs the pages of all these cache groups into one pool; any padding that adds is not counted.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial

from registry.engine.formulas import compressed_entries
from registry.engine.layers import MLA, Compressed, SlidingWindow
from registry.engine.plan import Component, GroupPlan, Part, Settings, require, unsupported
from registry.engine.trace import Factor, number, parenthesized_sum

BLOCK_TOKENS = 256
"""Tokens per block of the compressed and indexer caches: "DeepSeek V4 sparse MLA uses 256-token KV
pages" (``sparse_mla.py``), the ``[256 // 4, head_dim] = [64, 584]`` block the compressor's state
pages are sized against (``CompressorStateCache``)."""
SWA_BLOCK_TOKENS = 64
"""``DeepseekV4SWACache(block_size=64)`` (``vllm/v1/attention/backends/mla/sparse_swa.py``)."""
RECORD_BYTES = 584
"""``state_content_bytes=584``: 448 fp8 NoPE + 64 × 2 bf16 RoPE + 448 // 64 = 7 scale bytes + 1 pad."""
RECORD_GEOMETRY = (448, 64)
"""The NoPE and RoPE sizes the 584-byte record holds (``head_dim`` 512, ``qk_rope_head_dim`` 64)."""
PAGE_ALIGNMENT = 576
"""``alignment=576`` on every fp8_ds_mla page: FlashMLA's TMA stride."""
STATE_BLOCK_TOKENS = {4: 4, 128: 8}
"""``CompressorStateCache.block_size`` by compress ratio."""
INDEXER_QUANT_BLOCK = 128
"""The indexer keys' fp8 scale granularity: ``head_dim + head_dim // 128 × 4`` bytes per key."""


def round_up(value: int, multiple: int) -> int:
    """``value`` rounded up to a whole number of ``multiple``."""
    return -(-value // multiple) * multiple


def all_blocks(t: int, block: int, per_block: int, what: str) -> tuple[int, str]:
    """Every block of the sequence: ``⌈t / block⌉`` blocks of ``per_block`` slots."""
    blocks = compressed_entries(t, block)
    return (
        blocks * per_block,
        f"⌈t / {number(block)}⌉ = {number(blocks)} blocks of {number(per_block)} {what}",
    )


def _window_blocks(t: int, block: int, window: int, per_block: int, what: str) -> tuple[int, str]:
    """Blocks still inside a window of ``window`` tokens: ``⌈t / b⌉ − ⌊max(0, t − window + 1) / b⌋``
    (``SlidingWindowManager``), each of ``per_block`` slots."""
    blocks = compressed_entries(t, block) - max(0, t - window + 1) // block
    return blocks * per_block, f"{number(blocks)} blocks of {number(per_block)} {what} inside the window"


def _block_count(t: int, rule: partial[tuple[int, str]], per_block: int) -> tuple[int, str]:
    """The blocks a slot rule holds (its slots divided by the slots per block)."""
    slots, note = rule(t)
    return slots // per_block, note


def paged(
    label: str,
    part: Part,
    slot_bytes: int,
    factors: tuple[Factor, ...],
    slots_per_block: int,
    block_tokens: int,
    rule: partial[tuple[int, str]],
    full_at: int | None = None,
) -> tuple[Component, ...]:
    """A cache of ``slot_bytes`` slots in pages of ``slots_per_block`` slots rounded up to 576 bytes:
    the slots, and the padding of each page when there is some. A ``window`` part fills until the
    context reaches ``full_at`` tokens, adding per token what a growing part adds for good: a page's
    bytes over the ``block_tokens`` tokens it holds, the period its per-token figures are averaged over."""
    rate = Fraction(slot_bytes * slots_per_block, block_tokens)
    growth = rate if part == "growing" else Fraction(0)
    slots = Component(
        part,
        label,
        Fraction(slot_bytes),
        factors,
        rule,
        growth,
        per="slot",
        filling=rate,
        full_at=full_at,
        period=block_tokens,
    )
    page = slots_per_block * slot_bytes
    pad = round_up(page, PAGE_ALIGNMENT) - page
    if not pad:
        return (slots,)
    factor = f"({number(round_up(page, PAGE_ALIGNMENT))} − {number(page)})"
    blocks = partial(_block_count, rule=rule, per_block=slots_per_block)
    pad_rate = Fraction(pad, block_tokens)
    padding = Component(
        part,
        f"{label}: page rounded to 576 B",
        Fraction(pad),
        (factor,),
        blocks,
        pad_rate if part == "growing" else Fraction(0),
        per="block",
        filling=pad_rate,
        full_at=full_at,
        period=block_tokens,
    )
    return (slots, padding)


def _state(label: str, ratio: int, head_dim: int) -> tuple[Component, ...]:
    """A compressor's float32 running state: ``2 × coff × head_dim`` values per token slot, blocks of
    4 or 8 slots over a window of ``coff × ratio`` tokens."""
    coff = 2 if ratio == 4 else 1
    block = STATE_BLOCK_TOKENS[ratio]
    rule = partial(_window_blocks, block=block, window=coff * ratio, per_block=block, what="rows")
    factors: tuple[Factor, ...] = (2, coff, head_dim, 4)
    return paged(label, "window", 2 * coff * head_dim * 4, factors, block, block, rule, coff * ratio)


RECORD: tuple[Factor, ...] = (parenthesized_sum([448, "64 × 2", 7, 1]),)
"""The 584-byte record's factors, as the trace prints them."""


def _local_window(window: int) -> tuple[Component, ...]:
    """The window's 584-byte records in the ``DeepseekV4SWACache`` blocks still inside it, filling until
    the context reaches the window."""
    kept = partial(
        _window_blocks, block=SWA_BLOCK_TOKENS, window=window, per_block=SWA_BLOCK_TOKENS, what="tokens"
    )
    return paged(
        "local window", "window", RECORD_BYTES, RECORD, SWA_BLOCK_TOKENS, SWA_BLOCK_TOKENS, kept, window
    )


def _fp8_problem(settings: Settings) -> str:
    """Why the fp8_ds_mla layout does not apply to this KV dtype, or ""."""
    if settings.kv_dtype.name.startswith("fp8"):
        return ""
    return (
        f"vLLM's DeepSeek-V4 layout is modelled for its fp8 (fp8_ds_mla) cache, not {settings.kv_dtype.name}"
    )


def vllm_compressed(mechanism: Compressed, settings: Settings) -> GroupPlan:
    """A DeepSeek-V4 CSA or HCA layer as vLLM 0.33.0 keeps it with an fp8 KV cache (module docstring)."""
    (ratio,) = require(mechanism, "ratio")
    inner = mechanism.inner
    if problem := _fp8_problem(settings):
        return unsupported(problem)
    if not isinstance(inner, MLA) or ratio not in STATE_BLOCK_TOKENS:
        return unsupported("vLLM's DeepSeek-V4 layout holds a 512-value latent at ratio 4 or 128 only")
    nope, rope = require(inner, "kv_lora_rank", "qk_rope_head_dim")
    if (nope, rope) != RECORD_GEOMETRY:
        return unsupported(f"the 584-byte record is defined for a 448 + 64 latent, not {nope} + {rope}")
    per_block = BLOCK_TOKENS // ratio
    every = partial(all_blocks, block=BLOCK_TOKENS, per_block=per_block, what="entries")
    parts = list(
        paged(
            f"compressed (1 per {number(ratio)})",
            "growing",
            RECORD_BYTES,
            RECORD,
            per_block,
            BLOCK_TOKENS,
            every,
        )
    )
    if mechanism.window is not None:
        parts += _local_window(mechanism.window)
    parts += _state("compressor state", ratio, nope + rope)
    if mechanism.index_head_dim is not None:
        dim = mechanism.index_head_dim
        key = dim + dim // INDEXER_QUANT_BLOCK * 4
        key_factors: tuple[Factor, ...] = (parenthesized_sum([dim, f"{dim} / 128 × 4"]),)
        parts += paged("indexer keys", "growing", key, key_factors, per_block, BLOCK_TOKENS, every)
        parts += _state("indexer compressor state", ratio, dim)
    return GroupPlan(tuple(parts), notes=(NOT_ADDED,))


def vllm_sliding(mechanism: SlidingWindow, settings: Settings) -> GroupPlan:
    """A DeepSeek-V4 sliding-only layer as vLLM 0.33.0 keeps it with an fp8 KV cache: its window's records
    in the SWA cache, nothing else (module docstring). Only a window over one latent vector is such a
    layer."""
    (window,) = require(mechanism, "window")
    if mechanism.latent is None:
        return unsupported("vLLM's DeepSeek-V4 SWA cache holds a window of one latent vector only")
    if problem := _fp8_problem(settings):
        return unsupported(problem)
    nope, rope = require(mechanism.latent, "kv_lora_rank", "qk_rope_head_dim")
    if (nope, rope) != RECORD_GEOMETRY:
        return unsupported(f"the 584-byte record is defined for a 448 + 64 latent, not {nope} + {rope}")
    return GroupPlan(_local_window(window), notes=(NOT_ADDED,))


NOT_ADDED = "vLLM packs these pages into one pool across cache groups; any padding that adds is not counted"
