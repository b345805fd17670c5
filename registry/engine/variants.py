"""The variants a claim can be about: the model as served, and the counterfactuals people compare it with.

A claim says which variant its number describes (``variant: mha-equivalent``); a ratio compares two.
Each variant is one function below, from the model's cache layout and its config fields to another
layout, and its docstring is the definition the documentation prints. Counterfactual dimensions come from
the same config the adapter read; a dimension the config does not give stays ``None`` (unknown), so the
engine reports the result as not computable rather than guessing.

Config fields are the flat geometry fields of the model's config (``num_attention_heads``,
``num_key_value_heads``, ``head_dim``, ``hidden_size``, ...), as the adapters return them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from registry.engine.compute import CacheResult, compute
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    LayerGroup,
    LayerGroups,
    Mechanism,
    NoCache,
    Parallel,
    ParallelPart,
    Recurrent,
    Shared,
    SlidingWindow,
)

Fields = Mapping[str, int | float]
"""A model's geometry fields by config name."""


class UnknownVariant(ValueError):
    """A claim names a variant that is not defined; the message lists the defined ones."""


def field_int(fields: Fields, name: str) -> int | None:
    """A config field as a whole number, or ``None`` when the config does not give it as one."""
    value = fields.get(name)
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    return value


def attention_heads(fields: Fields) -> int | None:
    """``num_attention_heads`` from the config: the query heads every layer computes."""
    return field_int(fields, "num_attention_heads")


def hidden_head_dim(fields: Fields) -> int | None:
    """``hidden_size / num_attention_heads``: the head size transformers assumes when ``head_dim`` is absent.

    Source: the ``head_dim`` default of transformers' ``LlamaConfig`` and its descendants.
    """
    hidden, heads = field_int(fields, "hidden_size"), attention_heads(fields)
    if hidden is None or not heads or hidden % heads:
        return None
    return hidden // heads


def map_layer_groups(layout: LayerGroups, change: Callable[[Mechanism], Mechanism]) -> LayerGroups:
    """``layout`` with ``change`` applied to the mechanism of every group, the MTP layers included."""

    def each(mechanism: Mechanism) -> Mechanism:
        if not isinstance(mechanism, Parallel):
            return change(mechanism)
        # Parts changed to nothing drop out, and parts changed to the same cache count once (the
        # model-level GQA formula charges a layer one K/V pair, not one per part).
        changed = (change(part) for part in mechanism.parts)
        kept = tuple(dict.fromkeys(p for p in changed if isinstance(p, ParallelPart)))
        if len(kept) > 1:
            return Parallel(kept)
        return kept[0] if kept else NoCache()

    def groups(original: tuple[LayerGroup, ...]) -> tuple[LayerGroup, ...]:
        return tuple(LayerGroup(each(group.mechanism), group.layers) for group in original)

    return replace(layout, groups=groups(layout.groups), mtp_groups=groups(layout.mtp_groups))


def _full_mha(mechanism: Mechanism, heads: int | None) -> Mechanism:
    """One layer's cache with full multi-head attention at its own K and V head sizes."""
    if isinstance(mechanism, MLA):
        nope, rope = mechanism.qk_nope_head_dim, mechanism.qk_rope_head_dim
        k_size = None if nope is None or rope is None else nope + rope
        return Attention(mechanism.num_heads or heads, k_size, mechanism.v_head_dim)
    if isinstance(mechanism, Attention):
        return Attention(heads, mechanism.head_dim, mechanism.v_head_dim)
    if isinstance(mechanism, SlidingWindow | Chunked):
        return replace(mechanism, num_kv_heads=heads)
    if isinstance(mechanism, Compressed):
        return _full_mha(mechanism.inner, heads)
    return mechanism


def actual(layout: LayerGroups, fields: Fields) -> LayerGroups:
    """The model as laid out by the record's engine layout: what the cache really holds.

    This is the default variant. The engine layout (``ideal``, ``vllm``, ``sglang``, ...) is applied when
    bytes are computed, so the same variant is correct for every engine: an MLA model under ``vllm``
    caches the latent and the RoPE key, under ``transformers`` 4.x the expanded per-head K and V.
    """
    return layout


def mha_equivalent(layout: LayerGroups, fields: Fields) -> LayerGroups:
    """The same skeleton with full multi-head attention.

    Every attention layer caches ``num_attention_heads`` K heads and as many V heads, each at the layer's
    real K and V head sizes: per token and layer ``heads x (k_head + v_head) x bytes``. For an MLA layer
    the K head is ``qk_nope_head_dim + qk_rope_head_dim`` and the V head ``v_head_dim`` (DeepSeek-V3:
    128 heads x (192 + 128)), as in the multi-head form of the DeepSeek-V2 paper (arXiv:2405.04434,
    section 2.1). Sliding-window and chunked layers keep their window; sequence-compressed layers cache
    every token; a layer that shares another layer's cache gets its own. Recurrent layers are not
    attention and keep their state unchanged.
    """
    heads = attention_heads(fields)
    by_layer = {i: group.mechanism for group in layout.groups for i in group.layers}

    def change(mechanism: Mechanism) -> Mechanism:
        if isinstance(mechanism, Shared) and mechanism.source_layer in by_layer:
            return _full_mha(by_layer[mechanism.source_layer], heads)
        return _full_mha(mechanism, heads)

    return map_layer_groups(layout, change)


def naive_gqa(layout: LayerGroups, fields: Fields) -> LayerGroups:
    """The model-level GQA formula applied to every layer, whatever the layer really caches.

    Per token: ``num_layers x 2 x num_key_value_heads x head_dim x bytes``, with ``num_key_value_heads``
    from the config (``num_attention_heads`` when absent, the transformers default) and ``head_dim`` from
    the config or else ``hidden_size / num_attention_heads``. This is the textbook formula (e.g.
    ``2 x batch x sequence x layers x kv_heads x head_dim x bytes``); on an MLA, sliding-window or hybrid
    model it is the wrong formula, and this variant is the number it gives.
    """
    kv_heads = field_int(fields, "num_key_value_heads") or attention_heads(fields)
    head_dim = field_int(fields, "head_dim") or hidden_head_dim(fields)
    uniform = Attention(kv_heads, head_dim, head_dim)
    return map_layer_groups(layout, lambda mechanism: uniform)


def no_window(layout: LayerGroups, fields: Fields) -> LayerGroups:
    """Sliding-window and chunked layers charged the full context, as if they were full attention.

    The layers keep their heads and head sizes; only the bound on how many tokens they keep is removed.
    """

    def change(mechanism: Mechanism) -> Mechanism:
        if isinstance(mechanism, SlidingWindow | Chunked):
            return Attention(mechanism.num_kv_heads, mechanism.head_dim, mechanism.v_head_dim)
        return mechanism

    return map_layer_groups(layout, change)


def attention_only(layout: LayerGroups, fields: Fields) -> LayerGroups:
    """A hybrid's attention layers without its recurrent state: the recurrent layers keep nothing.

    What a KV-cache calculator that knows only attention reports for a hybrid such as Qwen3-Next or
    Kimi Linear.
    """
    return map_layer_groups(layout, lambda m: NoCache() if isinstance(m, Recurrent) else m)


@dataclass(frozen=True)
class Variant:
    """A named variant: ``build`` turns the model's layout and config fields into the variant's layout."""

    name: str
    build: Callable[[LayerGroups, Fields], LayerGroups]

    @property
    def doc(self) -> str:
        """The definition, as the documentation prints it."""
        return (self.build.__doc__ or "").strip()

    @property
    def summary(self) -> str:
        return self.doc.split("\n", 1)[0]


VARIANTS: dict[str, Variant] = {
    variant.name: variant
    for variant in (
        Variant("actual", actual),
        Variant("mha-equivalent", mha_equivalent),
        Variant("naive-gqa", naive_gqa),
        Variant("no-window", no_window),
        Variant("attention-only", attention_only),
    )
}
"""Every variant a claim may name, in documentation order."""


def variant_layer_groups(name: str, layout: LayerGroups, fields: Fields) -> LayerGroups:
    """The layout of variant ``name``; raises :class:`UnknownVariant` for a name not in :data:`VARIANTS`."""
    variant = VARIANTS.get(name)
    if variant is None:
        raise UnknownVariant(f"unknown variant {name!r}; defined variants: {', '.join(VARIANTS)}")
    return variant.build(layout, fields)


# ---------------------------------------------------------------- what a claimed quantity measures

ByteQuantity = Literal["bytes_per_token", "bytes_per_sequence", "bytes_total", "fixed_bytes"]
"""The byte quantities a claim can state; a ``ratio`` divides two ``bytes_per_token`` values."""
ClaimQuantity = Literal["bytes_per_token", "bytes_per_sequence", "bytes_total", "fixed_bytes", "ratio"]
"""Everything a claim can state."""
CLAIM_QUANTITIES: tuple[ClaimQuantity, ...] = (
    "bytes_per_token",
    "bytes_per_sequence",
    "bytes_total",
    "fixed_bytes",
    "ratio",
)


@dataclass(frozen=True)
class Run:
    """The conditions a number is computed under: engine layout, precisions, context and batch.

    ``model_dtype`` is the activations' dtype (the weights' dtype when unquantized); some engines keep
    recurrent state in it.
    """

    context_tokens: int
    batch: int = 1
    engine_layout: str = "ideal"
    kv_dtype: str = "bf16"
    state_dtype: str | None = None
    model_dtype: str | None = None


@dataclass(frozen=True)
class Measured:
    """A quantity's exact value, or ``None`` with the reason, and the computation it came from."""

    value: Fraction | None
    result: CacheResult
    reason: str = ""


def _compute(layout: LayerGroups, run: Run, batch: int) -> CacheResult:
    return compute(
        layout,
        context_tokens=run.context_tokens,
        batch=batch,
        kv_dtype=run.kv_dtype,
        state_dtype=run.state_dtype,
        engine_layout=run.engine_layout,
        model_dtype=run.model_dtype,
    )


def _reason(result: CacheResult) -> str:
    return "; ".join((*result.unsupported, *result.not_computable)) or "not computable"


def measure(layout: LayerGroups, run: Run, quantity: ByteQuantity) -> Measured:
    """The exact value of ``quantity`` for ``layout`` under ``run``.

    - ``bytes_per_token``: what one more token adds to one sequence's cache at the context (the
      marginal cost: a sliding window not yet full adds its entry; once every window is full, windows
      and fixed state add nothing);
    - ``bytes_per_sequence``: one sequence's whole cache at the context, windows and state included;
    - ``bytes_total``: the whole cache of ``batch`` sequences at the context;
    - ``fixed_bytes``: the part of one sequence's cache that does not depend on the context (recurrent
      state).

    Engine and dtype errors (an unknown engine layout, a dtype the engine cannot store) propagate as
    exceptions from :func:`registry.engine.compute.compute`.
    """
    result = _compute(layout, run, run.batch if quantity == "bytes_total" else 1)
    raw: int | Fraction | None
    if quantity == "bytes_per_token":
        raw = result.bytes_per_token
    elif quantity == "fixed_bytes":
        raw = result.fixed_bytes
    else:
        raw = result.total_bytes
    if raw is None:
        return Measured(None, result, _reason(result))
    return Measured(Fraction(raw), result)
