"""The catalogue of known wrong formulas, and which one explains a stated number.

Published KV-cache figures go wrong in a handful of recurring ways: the GQA formula applied to an MLA
model, K and V counted once, GB read as GiB, sliding windows ignored, a hybrid called constant memory.
Each way is one :class:`Misapplication` below, with a code-like name, a one-line description and a
function computing what that mistake yields for the claim's model and run. When a stated number
disagrees with the engine, :func:`candidates` computes every applicable mistake and :func:`explain`
names the one whose exact value the stated number admits (its written precision is the tolerance), or,
when none does, the nearest ones with their values.

A mistake comes in one of three forms:

- a *layout change*: the cache laid out wrongly (GQA heads where MLA caches a latent);
- a *run change*: the right layout under the wrong conditions (another dtype, the ideal layout where an
  engine keeps scales, 128K read as 128,000 tokens);
- a *reading*: the right bytes reported wrongly (GB written as GiB, a per-token figure given as a total).

For a ratio, layout and run changes are tried on the numerator and on the denominator in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from fractions import Fraction

from registry.engine.dtypes import get_dtype
from registry.engine.layout import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    Layout,
    Mechanism,
    NoCache,
    Recurrent,
    SlidingWindow,
)
from registry.engine.units import Quantity
from registry.engine.variants import (
    ClaimQuantity,
    Fields,
    Run,
    attention_heads,
    attention_only,
    field_int,
    hidden_head_dim,
    map_layout,
    measure,
    no_window,
)
from registry.engine.variants import Quantity as ByteQuantity

# ---------------------------------------------------------------- what a mistake is computed for


@dataclass(frozen=True)
class Side:
    """One variant of the model under one run: a claim's subject, or one side of a ratio."""

    variant: str
    layout: Layout
    model: Layout
    fields: Fields
    run: Run


@dataclass(frozen=True)
class Situation:
    """A claim's situation: what it states, about which variant(s), under which run.

    ``quantity`` is ``ratio`` or one of the byte quantities; ``versus`` is the ratio's denominator.
    ``base_context`` is the record's context when the claim overrides it.
    """

    quantity: ClaimQuantity
    subject: Side
    versus: Side | None
    stated: Quantity
    base_context: int


Change = Callable[[Side], Side | None]
"""A layout or run change: the wrong side, or ``None`` when the mistake does not apply to it."""
Reading = Callable[[Situation], Fraction | None]
"""A reading mistake: the value it yields, or ``None`` when it does not apply."""


@dataclass(frozen=True)
class Misapplication:
    """One known wrong formula: a permanent code-like name, a one-line description, and its function.

    Exactly one of ``change`` and ``reading`` is set, except for ``arithmetic-slip``, which is found by
    evaluating the claim's own formula (see :mod:`registry.engine.claims`) and yields no value here.
    """

    name: str
    description: str
    change: Change | None = None
    reading: Reading | None = None


@dataclass(frozen=True)
class Candidate:
    """What one misapplication yields for a claim, with where it was applied (for a ratio)."""

    name: str
    description: str
    value: Fraction
    applied_to: str = ""


# ---------------------------------------------------------------- helpers


def _with_layout(side: Side, layout: Layout) -> Side | None:
    return None if layout == side.layout else replace(side, layout=layout)


def _with_run(side: Side, run: Run) -> Side | None:
    return None if run == side.run else replace(side, run=run)


def _kinds(layout: Layout) -> set[type]:
    return {type(group.mechanism) for group in layout.groups}


KV = Attention | SlidingWindow | Chunked
"""The mechanisms that cache K and V heads."""


def _map_kv(side: Side, change: Callable[[KV], Mechanism]) -> Side | None:
    """``side`` with ``change`` applied to every layer that caches K and V heads."""
    return _with_layout(side, map_layout(side.layout, lambda m: change(m) if isinstance(m, KV) else m))


def _first_attention(layout: Layout) -> Mechanism | None:
    for group in layout.groups:
        if isinstance(group.mechanism, KV | MLA):
            return group.mechanism
    return None


# ---------------------------------------------------------------- layout changes


def _gqa_on_mla(head_size: Callable[[MLA, Fields], int | None]) -> Change:
    """The model-level ``num_key_value_heads x head_dim`` GQA formula in place of every MLA latent."""

    def change(side: Side) -> Side | None:
        if side.variant not in ("actual", "naive-gqa") or MLA not in _kinds(side.model):
            return None
        kv_heads = field_int(side.fields, "num_key_value_heads")

        def swap(mechanism: Mechanism) -> Mechanism:
            if not isinstance(mechanism, MLA):
                return mechanism
            heads = kv_heads or mechanism.num_heads or attention_heads(side.fields)
            size = head_size(mechanism, side.fields)
            return Attention(heads, size, size)

        return _with_layout(side, map_layout(side.model, swap))

    return change


def _qk_head(mechanism: MLA, fields: Fields) -> int | None:
    """``qk_nope_head_dim + qk_rope_head_dim``: the query/key head size MLA attends with (192 in V3)."""
    nope, rope = mechanism.qk_nope_head_dim, mechanism.qk_rope_head_dim
    return None if nope is None or rope is None else nope + rope


def _mla_kv_doubled(side: Side) -> Side | None:
    """The latent and RoPE key counted twice, once as K and once as V."""

    def swap(mechanism: Mechanism) -> Mechanism:
        if isinstance(mechanism, MLA) and mechanism.kv_lora_rank is not None:
            rope = mechanism.qk_rope_head_dim
            size = None if rope is None else mechanism.kv_lora_rank + rope
            return Attention(1, size, size)
        return mechanism

    return _with_layout(side, map_layout(side.layout, swap))


def _mla_rope_omitted(side: Side) -> Side | None:
    """``layers x kv_lora_rank x bytes``: the latent without its decoupled RoPE key (arXiv:2405.04434)."""
    return _with_layout(
        side,
        map_layout(side.layout, lambda m: replace(m, qk_rope_head_dim=0) if isinstance(m, MLA) else m),
    )


def _v_at_k_size(side: Side) -> Side | None:
    """``heads x 2 x k_head x bytes`` where V is smaller: ``61 x 2 x 128 x (128 + 64) x 2`` for V3."""
    return _map_kv(side, lambda m: replace(m, v_head_dim=m.head_dim))


def _heads_as_kv_heads(side: Side) -> Side | None:
    """``num_attention_heads`` K and V heads per layer where GQA caches ``num_key_value_heads``."""
    heads = attention_heads(side.fields)
    return None if heads is None else _map_kv(side, lambda m: replace(m, num_kv_heads=heads))


def _kv_factor_missing(side: Side) -> Side | None:
    """``kv_heads x head_dim x bytes``: the K half of ``2 x kv_heads x head_dim x bytes``."""
    return _map_kv(side, lambda m: replace(m, v_head_dim=0))


def _head_dim_from_hidden(side: Side) -> Side | None:
    """``hidden_size / num_attention_heads`` in place of the config's own ``head_dim`` (Qwen3, Gemma)."""
    given, derived = field_int(side.fields, "head_dim"), hidden_head_dim(side.fields)
    if given is None or derived is None or given == derived:
        return None
    return _map_kv(
        side, lambda m: replace(m, head_dim=derived, v_head_dim=derived) if m.head_dim == given else m
    )


def _window_ignored(side: Side) -> Side | None:
    """Every sliding or chunked layer charged ``t`` tokens instead of ``min(t, window)``."""
    return _with_layout(side, no_window(side.layout, side.fields))


def _window_layers_dropped(side: Side) -> Side | None:
    """Only the full-attention layers counted, as if local layers kept nothing."""
    return _with_layout(
        side, map_layout(side.layout, lambda m: NoCache() if isinstance(m, SlidingWindow | Chunked) else m)
    )


def _hybrid_kv_everywhere(side: Side) -> Side | None:
    """Each recurrent layer charged the cache of the model's first attention layer."""
    attention = _first_attention(side.layout)
    if attention is None:
        return None
    return _with_layout(side, map_layout(side.layout, lambda m: attention if isinstance(m, Recurrent) else m))


def _state_ignored(side: Side) -> Side | None:
    """The :func:`~registry.engine.variants.attention_only` layout: recurrent layers keep nothing."""
    return _with_layout(side, attention_only(side.layout, side.fields))


def _indexer_omitted(side: Side) -> Side | None:
    """The MLA latent alone, without DeepSeek-V3.2's ``index_head_dim`` indexer key per token."""

    def swap(mechanism: Mechanism) -> Mechanism:
        if isinstance(mechanism, MLA | Compressed) and mechanism.index_head_dim is not None:
            return replace(mechanism, index_head_dim=None)
        return mechanism

    return _with_layout(side, map_layout(side.layout, swap))


# ---------------------------------------------------------------- run changes


def _kv_dtype(name: str) -> Change:
    """The same cache at ``name``'s bytes per value; skipped when the run's dtype has the same width."""

    def change(side: Side) -> Side | None:
        if get_dtype(side.run.kv_dtype).bytes_per_element == get_dtype(name).bytes_per_element:
            return None
        return _with_run(side, replace(side.run, kv_dtype=name))

    return change


def _state_dtype(name: str) -> Change:
    """The recurrent state stored in ``name`` instead of the run's (or the engine's default) dtype."""

    def change(side: Side) -> Side | None:
        if Recurrent not in _kinds(side.layout):
            return None
        return _with_run(side, replace(side.run, state_dtype=name))

    return change


def _fp8_mla_one_byte(side: Side) -> Side | None:
    """An fp8 MLA cache under the ideal layout (1 byte a value) where the engine keeps a wider record."""
    if MLA not in _kinds(side.layout) or not side.run.kv_dtype.startswith("fp8"):
        return None
    return _with_run(side, replace(side.run, engine="ideal"))


def _engine_ignored(side: Side) -> Side | None:
    """The architectural minimum where the engine rounds to blocks, pads or keeps extra."""
    return _with_run(side, replace(side.run, engine="ideal"))


_PAYLOAD = {"q8_0": "int8", "q4_0": "int4", "q4_k": "int4", "nvfp4": "fp4", "mxfp4": "fp4"}
"""Block formats and the plain format of their values alone, without the shared scales."""


def _scales_ignored(side: Side) -> Side | None:
    """A block format counted at its payload width alone (``q8_0`` as 1 byte a value, not 34/32)."""
    payload = _PAYLOAD.get(side.run.kv_dtype)
    return None if payload is None else _with_run(side, replace(side.run, kv_dtype=payload, engine="ideal"))


def _context_k_as_thousand(side: Side) -> Side | None:
    """The context ``nK`` = ``n x 1,024`` tokens computed as ``n x 1,000``."""
    t = side.run.context_tokens
    return None if t % 1024 else _with_run(side, replace(side.run, context_tokens=t // 1024 * 1000))


# ---------------------------------------------------------------- readings


def _value(side: Side, quantity: ByteQuantity) -> Fraction | None:
    return measure(side.layout, side.run, quantity).value


_BINARY = {prefix: 2 ** (10 * (i + 1)) for i, prefix in enumerate("KMGTP")}
_DECIMAL = {prefix: 10 ** (3 * (i + 1)) for i, prefix in enumerate("KMGTP")}


def _unit_swap(computed_decimal: bool) -> Reading:
    """A figure computed in one unit family and written with the other family's unit of the same prefix:
    ``X / 10^9`` written as GiB (``computed_decimal``), or ``X / 2^30`` written as GB."""

    def reading(situation: Situation) -> Fraction | None:
        stated = situation.stated
        quantity = situation.quantity
        if quantity == "ratio" or not (stated.is_binary if computed_decimal else stated.is_decimal):
            return None
        prefix = stated.unit[0].upper()
        binary, decimal = Fraction(_BINARY[prefix]), Fraction(_DECIMAL[prefix])
        computed, written = (decimal, binary) if computed_decimal else (binary, decimal)
        exact = _value(situation.subject, quantity)
        return None if exact is None else exact / computed * written

    return reading


def _per_token_as_total(situation: Situation) -> Fraction | None:
    """The per-token figure stated as a sequence or batch total."""
    if situation.quantity not in ("bytes_per_sequence", "bytes_total"):
        return None
    return _value(situation.subject, "bytes_per_token")


def _total_as_per_token(situation: Situation) -> Fraction | None:
    """One sequence's total at the context stated as the per-token figure."""
    if situation.quantity != "bytes_per_token":
        return None
    return _value(situation.subject, "bytes_per_sequence")


def _batch_ignored(situation: Situation) -> Fraction | None:
    """One sequence's cache stated for the whole batch."""
    if situation.quantity != "bytes_total" or situation.subject.run.batch == 1:
        return None
    return _value(situation.subject, "bytes_per_sequence")


def _called_constant(kind: type) -> Reading:
    """A growing cache stated as if it were fixed: the size at one context given for another, or the
    whole cache at the context given as the fixed part."""

    def reading(situation: Situation) -> Fraction | None:
        side = situation.subject
        kinds = _kinds(side.layout)
        if kind not in kinds or (kind is Recurrent and len(kinds) == 1):
            return None
        if situation.quantity == "fixed_bytes":
            return _value(side, "bytes_per_sequence")
        if situation.quantity == "bytes_per_sequence" and kind is Recurrent:
            return _value(side, "fixed_bytes")
        if situation.quantity == "bytes_per_sequence" and side.run.context_tokens != situation.base_context:
            return _value(
                replace(side, run=replace(side.run, context_tokens=situation.base_context)),
                "bytes_per_sequence",
            )
        return None

    return reading


# ---------------------------------------------------------------- the catalogue

CATALOGUE: tuple[Misapplication, ...] = (
    Misapplication(
        "gqa-on-mla-hidden-head",
        "the GQA formula on an MLA model, num_key_value_heads K and V heads of hidden_size / attention heads",
        change=_gqa_on_mla(lambda m, fields: hidden_head_dim(fields)),
    ),
    Misapplication(
        "gqa-on-mla-qk-head",
        "the GQA formula on an MLA model, num_key_value_heads K and V heads of qk_nope + qk_rope head dims",
        change=_gqa_on_mla(_qk_head),
    ),
    Misapplication(
        "gqa-on-mla-v-head",
        "the GQA formula on an MLA model, num_key_value_heads K and V heads of v_head_dim",
        change=_gqa_on_mla(lambda m, fields: m.v_head_dim),
    ),
    Misapplication(
        "mla-kv-doubled",
        "the MLA latent and RoPE key counted twice, as if they were a K and a V",
        change=_mla_kv_doubled,
    ),
    Misapplication(
        "mla-rope-omitted",
        "MLA counted as the latent alone, without the decoupled RoPE key",
        change=_mla_rope_omitted,
    ),
    Misapplication("v-head-at-k-size", "the V heads counted at the K head size", change=_v_at_k_size),
    Misapplication(
        "attention-heads-as-kv-heads",
        "num_attention_heads used where the cache holds num_key_value_heads",
        change=_heads_as_kv_heads,
    ),
    Misapplication(
        "kv-factor-missing", "K counted but not V: the factor 2 is missing", change=_kv_factor_missing
    ),
    Misapplication(
        "head-dim-from-hidden",
        "the head size derived as hidden_size / num_attention_heads where the config gives head_dim",
        change=_head_dim_from_hidden,
    ),
    Misapplication(
        "window-ignored", "sliding-window and chunked layers charged the full context", change=_window_ignored
    ),
    Misapplication(
        "window-layers-dropped", "sliding-window and chunked layers left out", change=_window_layers_dropped
    ),
    Misapplication(
        "hybrid-kv-everywhere",
        "a hybrid charged attention KV on every layer, recurrent ones too",
        change=_hybrid_kv_everywhere,
    ),
    Misapplication("recurrent-state-ignored", "a hybrid's recurrent state left out", change=_state_ignored),
    Misapplication(
        "indexer-omitted", "the sparse-attention indexer's key cache left out", change=_indexer_omitted
    ),
    Misapplication(
        "fp8-mla-at-one-byte",
        "an fp8 MLA cache counted at 1 byte per value, where the engine keeps scales and the RoPE key wider",
        change=_fp8_mla_one_byte,
    ),
    Misapplication(
        "engine-layout-ignored",
        "the architectural minimum where the engine allocates more",
        change=_engine_ignored,
    ),
    Misapplication(
        "quant-scales-ignored", "a block-quantized cache counted without its scales", change=_scales_ignored
    ),
    Misapplication(
        "decimal-as-binary",
        "a figure computed in decimal units (GB) written with binary ones (GiB)",
        reading=_unit_swap(computed_decimal=True),
    ),
    Misapplication(
        "binary-as-decimal",
        "a figure computed in binary units (GiB) written with decimal ones (GB)",
        reading=_unit_swap(computed_decimal=False),
    ),
    Misapplication(
        "per-token-as-total",
        "the per-token figure stated where a whole-sequence total belongs",
        reading=_per_token_as_total,
    ),
    Misapplication(
        "total-as-per-token",
        "a whole-sequence total stated where a per-token figure belongs",
        reading=_total_as_per_token,
    ),
    Misapplication(
        "batch-ignored", "one sequence's cache stated as the whole batch's", reading=_batch_ignored
    ),
    Misapplication(
        "mla-called-constant", "MLA's growing cache treated as constant memory", reading=_called_constant(MLA)
    ),
    Misapplication(
        "hybrid-called-constant",
        "a hybrid treated as constant memory, its attention cache ignored",
        reading=_called_constant(Recurrent),
    ),
    *(
        Misapplication(
            f"kv-dtype-{name}", f"the KV cache counted at {label} per value ({name})", change=_kv_dtype(name)
        )
        for name, label in (
            ("fp32", "4 bytes"),
            ("bf16", "2 bytes"),
            ("fp8", "1 byte"),
            ("int4", "half a byte"),
        )
    ),
    *(
        Misapplication(
            f"state-dtype-{name}", f"the recurrent state counted in {name}", change=_state_dtype(name)
        )
        for name in ("fp32", "bf16")
    ),
    Misapplication(
        "context-k-as-thousand",
        "a context of nK tokens counted as n x 1,000 instead of n x 1,024",
        change=_context_k_as_thousand,
    ),
    Misapplication("arithmetic-slip", "the claim's own formula does not give the number stated beside it"),
)
"""Every known wrong formula, in the order candidates are tried: when two mistakes yield the same
number (bf16 at batch 4 is int4 at batch 1), the first, more common one is named."""

BY_NAME: dict[str, Misapplication] = {entry.name: entry for entry in CATALOGUE}


# ---------------------------------------------------------------- trying the catalogue


def _bytes(side: Side, quantity: ByteQuantity) -> Fraction | None:
    try:
        return _value(side, quantity)
    except ValueError:  # a changed run the engine refuses (an unknown dtype or engine layout)
        return None


def _ratio(numerator: Side, denominator: Side) -> Fraction | None:
    top, bottom = _bytes(numerator, "bytes_per_token"), _bytes(denominator, "bytes_per_token")
    return None if top is None or not bottom else top / bottom


def _changed(entry: Misapplication, change: Change, situation: Situation) -> Iterator[Candidate]:
    subject, versus = situation.subject, situation.versus
    wrong = change(subject)
    quantity = situation.quantity
    if quantity != "ratio":
        value = None if wrong is None else _bytes(wrong, quantity)
        if value is not None:
            yield Candidate(entry.name, entry.description, value)
        return
    if versus is None:
        return
    if wrong is not None and (value := _ratio(wrong, versus)) is not None:
        yield Candidate(entry.name, entry.description, value, subject.variant)
    wrong_versus = change(versus)
    if wrong_versus is not None and (value := _ratio(subject, wrong_versus)) is not None:
        yield Candidate(entry.name, entry.description, value, versus.variant)


def candidates(situation: Situation, exact: Fraction | None = None) -> list[Candidate]:
    """What every applicable misapplication yields for ``situation``, in catalogue order.

    A candidate equal to ``exact`` (the engine's own value) is left out: it explains nothing.
    """
    found: list[Candidate] = []
    for entry in CATALOGUE:
        if entry.change is not None:
            found.extend(_changed(entry, entry.change, situation))
        elif entry.reading is not None:
            try:
                value = entry.reading(situation)
            except ValueError:
                value = None
            if value is not None:
                found.append(Candidate(entry.name, entry.description, value))
    return [c for c in found if c.value != exact]


@dataclass(frozen=True)
class Explanation:
    """The misapplication a stated value admits, if any, and the nearest candidates otherwise."""

    match: Candidate | None
    nearest: tuple[Candidate, ...]


def explain(stated: Quantity, found: list[Candidate], count: int = 3) -> Explanation:
    """The first candidate whose exact value ``stated`` admits; else the ``count`` nearest distinct values.

    "Admits" is :meth:`~registry.engine.units.Quantity.admits`: the candidate rounds to the number as
    written, so ``~57x`` is explained by 56.89 but ``4,000,256 B`` only by exactly 4,000,256 bytes.
    """
    for candidate in found:
        if stated.admits(candidate.value):
            return Explanation(candidate, ())
    scale = abs(stated.value) or Fraction(1)
    ordered = sorted(found, key=lambda c: abs(c.value - stated.value) / scale)
    nearest: list[Candidate] = []
    for candidate in ordered:
        if all(candidate.value != kept.value for kept in nearest):
            nearest.append(candidate)
        if len(nearest) == count:
            break
    return Explanation(None, tuple(nearest))
