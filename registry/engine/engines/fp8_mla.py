"""DeepSeek-V3.2's fp8 cache records, which vLLM and SGLang lay out alike: the 656-byte latent record and
the fp8 indexer keys with their float32 scales."""

from __future__ import annotations

from fractions import Fraction

from registry.engine.engines.ideal import Ideal, beside
from registry.engine.layers import MLA, Attention
from registry.engine.plan import Component, EntryRule, GroupPlan, Settings, require, unsupported
from registry.engine.trace import Factor, parenthesized_sum

DS_MLA_FP8_RECORD = 512 + 4 * 4 + 64 * 2
"""656 bytes: 512 fp8 latent values, 4 float32 scales (one per 128 values), 64 bf16 RoPE values."""


def fp8_ds_mla(engine_layout: Ideal, mechanism: MLA, settings: Settings) -> GroupPlan:
    """The 656-byte fp8 latent record per token, plus the fp8 indexer keys (DeepSeek-V3.2 geometry only)."""
    rank, rope = require(mechanism, "kv_lora_rank", "qk_rope_head_dim")
    if (rank, rope) != (512, 64):
        return unsupported(f"the 656-byte fp8 record is defined for a 512 + 64 latent, not {rank} + {rope}")
    entries = engine_layout.full_rule(mechanism)
    record = Fraction(DS_MLA_FP8_RECORD)
    period = engine_layout.block_tokens(mechanism)
    latent = Component("growing", "", record, (DS_MLA_FP8_RECORD,), entries, record, period=period)
    explain = (
        "fp8 latent record: 512 fp8 + 4 float32 scales + 64 bf16 RoPE = 512 + 16 + 128 = 656 B per token"
    )
    keys = beside(engine_layout.indexer(mechanism, settings, entries), latent)
    return GroupPlan((latent, *keys), notes=(explain,))


def fp8_indexer(mechanism: MLA | Attention, entries: EntryRule) -> tuple[Component, ...]:
    """Indexer keys stored as fp8 plus one float32 scale per 128 values: ``d + d // 128 × 4`` bytes."""
    if mechanism.index_head_dim is None:
        return ()
    dim = mechanism.index_head_dim
    entry = Fraction(dim + dim // 128 * 4)
    factors: tuple[Factor, ...] = (parenthesized_sum([dim, f"{dim} / 128 × 4"]),)
    return (Component("growing", "indexer keys", entry, factors, entries, entry),)
