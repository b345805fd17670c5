"""The architectural minimum, the engine layout every serving engine's rules start from.

:class:`Ideal` keeps exactly what each mechanism needs (the formulas of :mod:`registry.engine.formulas`),
with no blocks and no padding; each engine module subclasses it and overrides the hooks where that engine
allocates differently. The helpers here are the ones those modules share.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from functools import partial
from math import lcm

from registry.engine.dtypes import FLOAT_DTYPES, INT64, DType
from registry.engine.formulas import (
    attention_entry_bytes,
    attention_factors,
    chunk_tokens,
    compressed_entries,
    hidden_state_entry_bytes,
    indexer_entry_bytes,
    mla_entry_bytes,
    mla_factors,
    state_tensor_elements,
    window_tokens,
)
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    Mechanism,
    NoCache,
    Parallel,
    Recurrent,
    Shared,
    SlidingWindow,
    StateTensor,
)
from registry.engine.plan import (
    Component,
    EngineRules,
    EntryRule,
    GroupPlan,
    MissingDimension,
    Settings,
    one_state,
    require,
    unsupported,
    windowed,
)
from registry.engine.trace import Factor, number, parenthesized_sum, product

FOR_ENGINE = "the engine's layout for it was not read from its source, so no number is given"
"""The end of a refusal for a mechanism an engine serves whose layout was not read from its source."""


def refusal(what: str, dtype: DType, known: frozenset[str]) -> str:
    """Why ``what`` cannot store ``dtype``, with the formats it does know."""
    return f"{what} has no {dtype.name} layout (known here: {', '.join(sorted(known))})"


def ceil_div(a: int, b: int) -> int:
    """``⌈a / b⌉`` in integers."""
    return -(-a // b)


def model_dtype(settings: Settings, what: str) -> DType:
    """The activations' dtype: given, or read off an unquantized KV dtype (which then equals it)."""
    if settings.model_dtype is not None:
        return settings.model_dtype
    if settings.kv_dtype.name in FLOAT_DTYPES:
        return settings.kv_dtype
    raise MissingDimension(["model dtype"], f"{what} is stored in the model dtype")


class Ideal(EngineRules):
    """The architectural minimum: exactly what the mechanism needs, no blocks, no padding.

    Engines subclass it and override the rules where they allocate differently.
    """

    key = "ideal"
    title = "architectural minimum"

    def plan(self, mechanism: Mechanism, settings: Settings) -> GroupPlan:
        reason = self.kv_dtype_problem(settings.kv_dtype)
        match mechanism:
            case Recurrent():
                return self.recurrent(mechanism, settings)
            case Shared():
                layer = mechanism.source_layer
                source = "another layer" if layer is None else f"layer {layer}"
                return GroupPlan(notes=(f"reads {source}'s cache: 0 B of its own",))
            case NoCache():
                return GroupPlan(notes=("keeps no cache: 0 B",))
            case Parallel():
                return self.parallel(mechanism, settings)
            case _ if reason:
                return unsupported(reason)
            case Attention():
                return self.attention(mechanism, settings)
            case SlidingWindow():
                return self.sliding_window(mechanism, settings)
            case Chunked():
                return self.chunked(mechanism, settings)
            case MLA():
                return self.mla(mechanism, settings)
            case Compressed():
                return self.compressed(mechanism, settings)
        raise TypeError(f"not a cache mechanism: {mechanism!r}")

    # -- hooks an engine overrides

    def kv_dtype_problem(self, dtype: DType) -> str:
        """Why the engine cannot store a KV cache in ``dtype`` ("" when it can)."""
        return ""

    def full_entries(self, t: int, mechanism: Mechanism) -> tuple[int, str]:
        """Token slots held for a full-attention or MLA layer at context ``t``: exactly ``t``."""
        return t, ""

    def window_entries(self, t: int, window: int, mechanism: Mechanism) -> tuple[int, str]:
        """Token slots held for a sliding-window layer: ``min(t, window)`` (:func:`window_tokens`)."""
        return window_tokens(t, window), f"min(t, {number(window)})"

    def chunk_entries(self, t: int, chunk: int, mechanism: Mechanism) -> tuple[int, str]:
        """Token slots held for a chunked-attention layer: the current chunk (:func:`chunk_tokens`)."""
        return chunk_tokens(t, chunk), f"tokens of the current {number(chunk)}-token chunk"

    def window_full_at(self, window: int) -> int:
        """The context at which a sliding-window or chunked layer of ``window`` tokens stops growing:
        ``window`` (one more token adds its entry until the window is full, then nothing)."""
        return window

    def block_tokens(self, mechanism: Mechanism) -> int:
        """Tokens per block of what :meth:`full_entries` and :meth:`window_entries` hold: 1 here, where
        every token is its own slot. A component's per-token figures are averaged over it
        (:attr:`Component.period <registry.engine.plan.Component.period>`)."""
        return 1

    def chunk_period(self, chunk: int, mechanism: Mechanism) -> int:
        """Tokens after which :meth:`chunk_entries` repeats: the chunk (a whole number of blocks), since
        each chunk starts the count again."""
        return lcm(chunk, self.block_tokens(mechanism))

    # -- attention family

    def kv_component(self, mechanism: Attention | SlidingWindow | Chunked, settings: Settings) -> Component:
        """K and V of a token (:func:`attention_entry_bytes`), or the hidden state a layer keeps in their
        place (:func:`hidden_state_entry_bytes`), in the KV cache's dtype: either is that layer's cache."""
        element = settings.kv_dtype.bytes_per_element
        rule, period = self.full_rule(mechanism), self.block_tokens(mechanism)
        if not isinstance(mechanism, Chunked) and mechanism.hidden_state is not None:
            size = hidden_state_entry_bytes(mechanism.hidden_state, element)
            state: tuple[Factor, ...] = (mechanism.hidden_state, element)
            return Component("growing", "hidden states", size, state, rule, size, period=period)
        heads, k, v = require(mechanism, "num_kv_heads", "head_dim", "v_head_dim")
        entry = attention_entry_bytes(heads, k, v, element)
        factors = tuple(attention_factors(heads, k, v, element))
        return Component("growing", "", entry, factors, rule, entry, period=period)

    def full_rule(self, mechanism: Mechanism) -> EntryRule:
        """:meth:`full_entries` for ``mechanism``, as a rule of the context."""
        return partial(self.full_entries, mechanism=mechanism)

    def attention(self, mechanism: Attention, settings: Settings) -> GroupPlan:
        """Full attention keeps K and V of every token (:func:`attention_entry_bytes`), a sparse indexer's
        key of every token where the layer has one (MiniMax-M3's sparse layers), and K and V of the
        ``prefix_tokens`` the model puts ahead of every sequence, a fixed part (:func:`_prefix`)."""
        kv = self.kv_component(mechanism, settings)
        keys = beside(self.indexer(mechanism, settings, kv.entries), kv)
        parts = (kv, *keys, *_buckets(mechanism), *_prefix(mechanism, kv))
        return GroupPlan(parts, notes=self.position_ids_notes(mechanism))

    def position_ids_notes(self, mechanism: Attention) -> tuple[str, ...]:
        """Position ids an implementation caches with the layer (:attr:`Attention.cached_position_ids`)
        are not kept here: a token's position is its index. Said, so that nothing is dropped unsaid."""
        count = mechanism.cached_position_ids
        if count is None:
            return ()
        return (
            f"keeps no position ids: a token's position is its index (transformers caches {count} int64 "
            "position ids per token with this layer)",
        )

    def sliding_window(self, mechanism: SlidingWindow, settings: Settings) -> GroupPlan:
        """A sliding-window layer keeps at most ``window`` tokens; it adds nothing once the window is full.
        A window over one vector that is both key and value (:attr:`SlidingWindow.latent`, DeepSeek-V4's
        sliding-only layers) keeps that vector once (:func:`mla_entry_bytes`), as the compressed layers'
        local window does, not a K and a V: the trace says so."""
        (window,) = require(mechanism, "window")
        if mechanism.latent is not None and mechanism.hidden_state is None:
            base, notes = self.latent_window_component(mechanism.latent, mechanism, settings)
        else:
            base, notes = self.kv_component(mechanism, settings), ()
        entries = partial(self.window_entries, window=window, mechanism=mechanism)
        return GroupPlan((windowed(base, entries, self.window_full_at(window)),), notes=notes)

    def latent_window_component(
        self, latent: MLA, mechanism: SlidingWindow, settings: Settings
    ) -> tuple[Component, tuple[str, ...]]:
        """The one vector per token of a window whose key is also its value: ``kv_lora_rank +
        qk_rope_head_dim`` values in the KV dtype, with the note that says it is held once."""
        rank, rope = require(latent, "kv_lora_rank", "qk_rope_head_dim")
        element = settings.kv_dtype.bytes_per_element
        entry = mla_entry_bytes(rank, rope, element)
        factors = tuple(mla_factors(rank, rope, element))
        period = self.block_tokens(mechanism)
        component = Component("growing", "", entry, factors, self.full_rule(mechanism), entry, period=period)
        note = (
            f"one vector per token, key and value alike: {number(rank)} latent + {number(rope)} rotary "
            "values, held once (not a K and a V)"
        )
        return component, (note,)

    def chunked(self, mechanism: Chunked, settings: Settings) -> GroupPlan:
        """A chunked-attention layer keeps the tokens of its current chunk only."""
        (chunk,) = require(mechanism, "chunk")
        base = self.kv_component(mechanism, settings)
        entries = partial(self.chunk_entries, chunk=chunk, mechanism=mechanism)
        period = self.chunk_period(chunk, mechanism)
        return GroupPlan((windowed(base, entries, self.window_full_at(chunk), period),))

    # -- MLA

    def mla(self, mechanism: MLA, settings: Settings) -> GroupPlan:
        """The latent plus the RoPE key per token (:func:`mla_entry_bytes`), and indexer keys if any; a
        layer with a window keeps the tokens of its window only (:meth:`window_entries`)."""
        rank, rope = require(mechanism, "kv_lora_rank", "qk_rope_head_dim")
        element = settings.kv_dtype.bytes_per_element
        entry = mla_entry_bytes(rank, rope, element)
        factors = tuple(mla_factors(rank, rope, element))
        entries = self.full_rule(mechanism)
        period = self.block_tokens(mechanism)
        latent = Component("growing", "", entry, factors, entries, entry, period=period)
        if mechanism.window is not None:
            if mechanism.index_head_dim is not None:
                return unsupported("an MLA layer with both a window and an indexer (no model has one)")
            kept = partial(self.window_entries, window=mechanism.window, mechanism=mechanism)
            return GroupPlan((windowed(latent, kept, self.window_full_at(mechanism.window)),))
        return GroupPlan((latent, *beside(self.indexer(mechanism, settings, entries), latent)))

    def indexer(
        self, mechanism: MLA | Attention, settings: Settings, entries: EntryRule
    ) -> tuple[Component, ...]:
        """A sparse indexer's keys (DeepSeek-V3.2's beside the latent, MiniMax-M3's beside K and V), one per
        token, in the KV dtype (:func:`indexer_entry_bytes`)."""
        if mechanism.index_head_dim is None:
            return ()
        element = settings.kv_dtype.bytes_per_element
        entry = indexer_entry_bytes(mechanism.index_head_dim, element)
        factors = (mechanism.index_head_dim, element)
        return (Component("growing", "indexer keys", entry, factors, entries, entry),)

    # -- recurrent state

    def state_element(self, tensor: StateTensor, mechanism: Recurrent, settings: Settings) -> DType:
        """The dtype a state tensor is stored in: the requested state dtype, else the model dtype."""
        return settings.state_dtype or model_dtype(settings, "the recurrent state")

    def state_positions(self, tensor: StateTensor, mechanism: Recurrent) -> tuple[int | None, ...]:
        """The shape an engine stores for a tensor (the layout's shape unless the engine keeps more)."""
        return tensor.shape

    def recurrent(self, mechanism: Recurrent, settings: Settings) -> GroupPlan:
        """Fixed state per sequence: ``Σ prod(shape) × bytes`` per layer (:func:`state_bytes`); token ids
        in int64 whatever the formats asked, and a note on each tensor that is not a plain state or
        window (:func:`state_notes`)."""
        terms: list[list[Factor]] = []
        total = Fraction(0)
        for tensor in mechanism.tensors:
            shape = self.state_positions(tensor, mechanism)
            stored = StateTensor(tensor.name, shape, tensor.role, tensor.dilation)
            dtype = INT64 if tensor.role == "tokens" else self.state_element(tensor, mechanism, settings)
            element = dtype.bytes_per_element
            total += state_tensor_elements(stored) * element
            terms.append([*(s for s in shape if s is not None), element])
        factors: tuple[Factor, ...] = (
            tuple(terms[0]) if len(terms) == 1 else (parenthesized_sum([product(t) for t in terms]),)
        )
        component = Component("fixed", "", total, factors, one_state, Fraction(0))
        return GroupPlan((component,), notes=state_notes(mechanism))

    # -- mechanisms side by side

    def parallel(self, mechanism: Parallel, settings: Settings) -> GroupPlan:
        """Each part's plan under this engine's own rules, their components kept side by side (labelled
        with the part they belong to): a layer running two mechanisms holds both caches."""
        components: list[Component] = []
        notes: list[str] = []
        for part in mechanism.parts:
            plan = self.plan(part, settings)
            if not plan.supported:
                return unsupported(f"its {part.kind} part: {plan.reason}")
            label = f"{part.variant} state" if isinstance(part, Recurrent) else part.kind
            components.extend(replace(c, label=f"{label} {c.label}".strip()) for c in plan.components)
            notes.extend(plan.notes)
        return GroupPlan(tuple(components), notes=tuple(notes))

    # -- sequence-compressed attention

    def compressed(self, mechanism: Compressed, settings: Settings) -> GroupPlan:
        """``⌈t / ratio⌉`` entries shaped like ``inner``, plus the local window and indexer keys if any."""
        (ratio,) = require(mechanism, "ratio")
        element = settings.kv_dtype.bytes_per_element
        entry, factors = _inner_entry(mechanism.inner, element)
        count = partial(_compressed, ratio=ratio, note=f"⌈t / {number(ratio)}⌉ entries")
        label = f"compressed (1 per {number(ratio)})"
        parts = [Component("growing", label, entry, factors, count, entry / ratio, period=ratio)]
        if mechanism.window is not None:
            kept = partial(_window, window=mechanism.window, note=f"min(t, {number(mechanism.window)})")
            local = Component("window", "local window", entry, factors, kept, Fraction(0))
            parts.append(windowed(local, kept, self.window_full_at(mechanism.window)))
        if mechanism.index_head_dim is not None:
            idx = indexer_entry_bytes(mechanism.index_head_dim, element)
            idx_factors = (mechanism.index_head_dim, element)
            parts.append(
                Component("growing", "indexer keys", idx, idx_factors, count, idx / ratio, period=ratio)
            )
        return GroupPlan(tuple(parts))


def state_notes(mechanism: Recurrent) -> tuple[str, ...]:
    """What each unusual state tensor is, for the trace: a dilated convolution's window (its length is
    not ``kernel − 1``) and token ids (int64, whatever the formats asked)."""
    notes: list[str] = []
    for tensor in mechanism.tensors:
        positions = tensor.shape[0]
        if tensor.dilated and positions is not None:
            span = f"(kernel − 1) × dilation = {positions // tensor.dilation} × {tensor.dilation}"
            notes.append(
                f"{tensor.name}: a dilated convolution's window, the last {span} = {positions} inputs"
            )
        elif tensor.role == "tokens":
            notes.append(f"{tensor.name}: token ids, int64 (8 B each) whatever the KV or state dtype")
    return tuple(notes)


def unread_state(mechanism: Recurrent) -> str:
    """The first state tensor of a kind whose layout a serving engine's rules were not read for (a
    dilated convolution's window, token ids), in words; "" when there is none."""
    for tensor in mechanism.tensors:
        if tensor.dilated:
            return f"a dilated convolution's window ({tensor.name})"
        if tensor.role == "tokens":
            return f"a state of token ids ({tensor.name})"
    return ""


class Serving(Ideal):
    """A serving engine's rules: it runs only the models it implements, so a layer that only a model it
    does not implement keeps (:func:`unserved`) is refused with that reason, whatever its other rules
    would say of the mechanism; so is a state tensor of a kind its rules were not read for
    (:func:`unread_state`)."""

    name = ""
    """The engine's name as a sentence starts it (``vLLM``)."""

    def plan(self, mechanism: Mechanism, settings: Settings) -> GroupPlan:
        reason = unserved(mechanism)
        if reason:
            return unsupported(f"{self.name} {reason}")
        if isinstance(mechanism, Recurrent) and (unread := unread_state(mechanism)):
            return unsupported(f"{self.name}'s layout for {unread}: {FOR_ENGINE}")
        return super().plan(mechanism, settings)


def unserved(mechanism: Mechanism) -> str:
    """Why no serving engine sizes ``mechanism`` ("" when one may): it is kept only by a model that none of
    vLLM (``vllm/model_executor/models/registry.py``), SGLang (``python/sglang/srt/models/``) and
    llama.cpp (``LLM_ARCH_NAMES``, ``src/llama-arch.cpp``) implements. BLT's local layers
    (:mod:`registry.engine.adapters.blt`), XLNet's and Reformer's hidden states (:attr:`Attention.hidden_state`) and the
    prompt tokens CPM-Ant caches ahead of every sequence
    (:attr:`Attention.prefix_tokens`) are such layers: an engine's block rounding of them would describe
    a model it never ran (and rounding the context alone would leave out the prompt tokens the cache
    holds ahead of it)."""
    if isinstance(mechanism, SlidingWindow) and mechanism.variant == "blt":
        return "implements no BLT model (BltForCausalLM), so BLT's local encoder and decoder layers get no number"
    if isinstance(mechanism, Attention | SlidingWindow) and mechanism.hidden_state is not None:
        return (
            "implements neither XLNet (XLNetLMHeadModel) nor Reformer (ReformerModelWithLMHead), the models "
            "that cache each layer's input hidden states in place of K and V, so such a layer gets no number"
        )
    if isinstance(mechanism, Attention) and mechanism.prefix_tokens:
        return (
            "implements no CPM-Ant model (CpmAntForCausalLM), the one that caches prompt tokens of its own "
            "ahead of every sequence, so a layer holding them gets no number"
        )
    return ""


def beside(parts: Iterable[Component], cache: Component) -> tuple[Component, ...]:
    """``parts`` kept one per entry of ``cache`` (an indexer's keys), so stepping as it does: its period."""
    return tuple(replace(part, period=cache.period) for part in parts)


def _prefix(mechanism: Attention, kv: Component) -> tuple[Component, ...]:
    """K and V of the tokens every sequence keeps ahead of its own: ``prefix × entry`` per layer, whatever
    the context (none when the layer has no prefix)."""
    count = mechanism.prefix_tokens
    if not count:
        return ()
    label = f"K + V of the {number(count)} prefix tokens"
    return (
        Component("fixed", label, count * kv.entry_bytes, (count, *kv.entry_factors), one_state, Fraction(0)),
    )


def _buckets(mechanism: Attention) -> tuple[Component, ...]:
    """Hash bucket ids of every token (:attr:`Attention.buckets`, int64 whatever the formats asked), from
    the context :attr:`Attention.buckets_from` on: Reformer's LSH layers keep none until they first hash,
    then one per head and hash for each token so far."""
    count = mechanism.buckets
    if count is None:
        return ()
    start = mechanism.buckets_from or 0
    entry = Fraction(count * INT64.bytes_per_element)
    rule = partial(_from, start=start, note=f"t once t ≥ {number(start)}, else none")
    label = "hash buckets (int64)"
    return (Component("growing", label, entry, (count, INT64.bytes_per_element), rule, entry),)


def _from(t: int, start: int, note: str) -> tuple[int, str]:
    """``t`` entries once the context reaches ``start`` tokens, none before."""
    return (t if t >= start else 0), note


def _compressed(t: int, ratio: int, note: str) -> tuple[int, str]:
    """:func:`compressed_entries` as an entry rule (with ``ratio`` and ``note`` bound)."""
    return compressed_entries(t, ratio), note


def _window(t: int, window: int, note: str) -> tuple[int, str]:
    """:func:`window_tokens` as an entry rule (with ``window`` and ``note`` bound)."""
    return window_tokens(t, window), note


def _inner_entry(inner: MLA | Attention, element: Fraction) -> tuple[Fraction, tuple[Factor, ...]]:
    if isinstance(inner, MLA):
        rank, rope = require(inner, "kv_lora_rank", "qk_rope_head_dim")
        return mla_entry_bytes(rank, rope, element), tuple(mla_factors(rank, rope, element))
    heads, k, v = require(inner, "num_kv_heads", "head_dim", "v_head_dim")
    return attention_entry_bytes(heads, k, v, element), tuple(attention_factors(heads, k, v, element))
