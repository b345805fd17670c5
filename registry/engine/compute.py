"""Cache bytes from a layout: the formulas, one per mechanism, and the sum over layer groups.

:func:`compute` asks an engine layout (:mod:`registry.engine.engines`) what it keeps for each layer group,
then adds it up in three parts:

- *growing* bytes grow with every token (full attention, MLA, compressed entries);
- *window* bytes are bounded by a sliding window or a chunk;
- *fixed* bytes are a per-sequence state whose size never depends on the context (recurrent layers).

Everything is exact: sizes are integers or fractions (sub-byte formats), rounded up to whole bytes only
when a group's bytes at the context are counted. A dimension that is ``None`` makes every figure that
depends on it "not computable", and the result says which field blocked what. A mechanism the engine does
not handle makes its group "not supported", with the engine's reason, and no number.

The formulas below are the architectural ones; engine layouts call them with the sizes they actually use.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from registry.engine import trace as tr
from registry.engine.dtypes import DType, get_dtype
from registry.engine.layout import LayerGroup, Layout, Mechanism, StateTensor

Part = Literal["growing", "window", "fixed"]
Bytes = int | Fraction


class MissingDimension(Exception):
    """Raised by a formula when a dimension it needs is unknown (``None``)."""

    def __init__(self, names: Sequence[str], why: str = "") -> None:
        self.names = tuple(names)
        self.why = why
        super().__init__(", ".join(self.names))


def require(owner: object, *names: str) -> tuple[int, ...]:
    """The values of ``names`` on ``owner``; raises :class:`MissingDimension` naming every unknown one."""
    values = [getattr(owner, name) for name in names]
    missing = [name for name, value in zip(names, values, strict=True) if value is None]
    if missing:
        raise MissingDimension(missing)
    return tuple(values)


# ---------------------------------------------------------------- formulas (one layer, one sequence)


def attention_entry_bytes(num_kv_heads: int, head_dim: int, v_head_dim: int, element: Fraction) -> Fraction:
    """Bytes one token costs in one full-attention layer: ``kv_heads × (head_dim + v_head_dim) × bytes``.

    With equal K and V head sizes this is the familiar ``2 × kv_heads × head_dim × bytes`` (K and V
    both cached; Vaswani et al. 2017, GQA: Ainslie et al. 2023). ``v_head_dim = 0`` is a layer whose
    single cached vector serves as both K and V (DeepSeek-V4's shared-KV MQA).
    """
    return num_kv_heads * (head_dim + v_head_dim) * element


def attention_factors(
    num_kv_heads: int, head_dim: int, v_head_dim: int, element: Fraction
) -> list[tr.Factor]:
    """The factors of :func:`attention_entry_bytes` as a person writes them (``2 × 8 × 128 × 2``)."""
    if head_dim == v_head_dim:
        return [2, num_kv_heads, head_dim, element]
    if v_head_dim == 0:
        return [num_kv_heads, head_dim, element]
    return [num_kv_heads, tr.parenthesized_sum([head_dim, v_head_dim]), element]


def mla_entry_bytes(kv_lora_rank: int, qk_rope_head_dim: int, element: Fraction) -> Fraction:
    """Bytes one token costs in one MLA layer: ``(kv_lora_rank + qk_rope_head_dim) × bytes``.

    MLA caches the compressed latent ``c_t`` and the decoupled RoPE key, shared by all heads; K and V
    are rebuilt from the latent at read time (DeepSeek-V2, arXiv:2405.04434, §2.1; DeepSeek-V3,
    arXiv:2412.19437, §2.1.1). There is no per-head K, no separate V, no factor 2.
    """
    return (kv_lora_rank + qk_rope_head_dim) * element


def mla_factors(kv_lora_rank: int, qk_rope_head_dim: int, element: Fraction) -> list[tr.Factor]:
    """``(512 + 64) × 2``; a latent without a RoPE part is written ``512 × 2``."""
    if qk_rope_head_dim == 0:
        return [kv_lora_rank, element]
    return [tr.parenthesized_sum([kv_lora_rank, qk_rope_head_dim]), element]


def mla_expanded_entry_bytes(
    num_heads: int, qk_nope_head_dim: int, qk_rope_head_dim: int, v_head_dim: int, element: Fraction
) -> Fraction:
    """Bytes per token per layer when an implementation caches MLA's K and V *after* expansion.

    ``num_heads × (qk_nope_head_dim + qk_rope_head_dim)`` for K plus ``num_heads × v_head_dim`` for V,
    times bytes: the per-head tensors the latent expands to (what transformers 4.x caches for DeepSeek).
    """
    return num_heads * (qk_nope_head_dim + qk_rope_head_dim + v_head_dim) * element


def indexer_entry_bytes(index_head_dim: int, element: Fraction) -> Fraction:
    """Bytes per token per layer of a sparse-attention indexer key cache: ``index_head_dim × bytes``.

    DeepSeek-V3.2's lightning indexer keeps one key of ``index_head_dim`` values per token, shared by its
    query heads (DeepSeek-V3.2-Exp report, §2.1), next to the MLA latent.
    """
    return index_head_dim * element


def state_tensor_elements(tensor: StateTensor) -> int:
    """Values in one state tensor: the product of its shape; raises when a size is unknown."""
    if any(size is None for size in tensor.shape):
        raise MissingDimension([f"{tensor.name} shape"])
    return math.prod(size for size in tensor.shape if size is not None)


def state_bytes(tensors: Sequence[StateTensor], elements: Sequence[Fraction]) -> Fraction:
    """Bytes of one layer's recurrent state for one sequence: ``Σ prod(shape) × bytes``, fixed in ``t``.

    A recurrent layer (Mamba: Gu & Dao 2023; gated DeltaNet: Yang et al. 2024; KDA) folds the whole
    past into matrices of fixed size plus a short-convolution window, so this does not depend on context.
    """
    return sum(
        (state_tensor_elements(t) * e for t, e in zip(tensors, elements, strict=True)),
        start=Fraction(0),
    )


def window_tokens(context_tokens: int, window: int) -> int:
    """Tokens a sliding-window layer must keep at context ``t``: ``min(t, window)``."""
    return min(context_tokens, window)


def chunk_tokens(context_tokens: int, chunk: int) -> int:
    """Tokens of the current chunk at context ``t``: ``((t - 1) mod chunk) + 1``, at most ``chunk``.

    Chunked attention (Llama 4 ``attention_chunk_size``) attends only within fixed, aligned chunks, so
    only the chunk holding the latest token is needed.
    """
    return (context_tokens - 1) % chunk + 1 if context_tokens > 0 else 0


def compressed_entries(context_tokens: int, ratio: int) -> int:
    """Entries of a sequence-compressed cache at context ``t``: ``⌈t / ratio⌉`` (one per ``ratio`` tokens)."""
    return -(-context_tokens // ratio)


# ---------------------------------------------------------------- what an engine keeps for one group


@dataclass(frozen=True)
class Settings:
    """The formats one computation asks for; engines read dtypes from here. The context is not part of
    it: a plan holds for every context, and its components say how many entries each one keeps."""

    kv_dtype: DType
    state_dtype: DType | None = None
    model_dtype: DType | None = None


EntryRule = Callable[[int], tuple[int, str]]
"""How many entries a component keeps at context ``t``, and how that was found, in words for the trace
("" when it is simply ``t``): a window, a chunk, block rounding."""


def every_token(context_tokens: int) -> tuple[int, str]:
    """One entry per token: ``t``."""
    return context_tokens, ""


def one_state(context_tokens: int) -> tuple[int, str]:
    """One entry whatever the context: a fixed state."""
    return 1, ""


@dataclass(frozen=True)
class Component:
    """One thing a layer keeps: ``entries(t)`` entries of ``entry_bytes`` each, per layer and sequence.

    ``growth`` is what one more token adds per layer once every window is full (``entry_bytes`` for a
    growing cache, ``entry_bytes / ratio`` for a compressed one, 0 for windows and fixed state).
    ``entry_factors`` multiply to ``entry_bytes`` and are what the trace prints.
    """

    part: Part
    label: str
    entry_bytes: Fraction
    entry_factors: tuple[tr.Factor, ...]
    entries: EntryRule
    growth: Fraction


@dataclass(frozen=True)
class GroupPlan:
    """An engine's answer for one layer group: its components, or why it does not handle the mechanism."""

    components: tuple[Component, ...] = ()
    supported: bool = True
    reason: str = ""
    notes: tuple[str, ...] = ()


def unsupported(reason: str) -> GroupPlan:
    """A plan for a mechanism the engine does not handle: no number, only the reason."""
    return GroupPlan(supported=False, reason=reason)


# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class GroupResult:
    """One layer group's bytes at the context, for the whole batch, split by part.

    ``bytes_per_token`` is the growth per extra token of one sequence across the group's layers.
    Every figure is ``None`` when the group is not supported or not computable.
    """

    mechanism: str
    variant: str | None
    layers: tuple[int, ...]
    supported: bool
    reason: str
    bytes_per_token: Bytes | None
    growing_bytes: int | None
    window_bytes: int | None
    fixed_bytes: int | None
    bytes_at_context: int | None
    not_computable: tuple[str, ...]
    trace: tuple[str, ...]

    @property
    def layer_count(self) -> int:
        """How many layers the group has."""
        return len(self.layers)


@dataclass(frozen=True, slots=True)
class CacheResult:
    """The whole cache at ``context_tokens`` and ``batch``: totals, parts, groups, and the trace."""

    model_type: str
    engine: str
    context_tokens: int
    batch: int
    kv_dtype: str
    state_dtype: str | None
    total_bytes: int | None
    bytes_per_token: Bytes | None
    growing_bytes: int | None
    window_bytes: int | None
    fixed_bytes: int | None
    groups: tuple[GroupResult, ...]
    trace: tuple[str, ...]
    not_computable: tuple[str, ...] = ()
    unsupported: tuple[str, ...] = field(default=())

    @property
    def computable(self) -> bool:
        """True when every group was supported and every needed dimension known."""
        return self.total_bytes is not None


@dataclass(frozen=True, slots=True)
class Ladder:
    """One layout's figures at several contexts (:func:`compute_ladder`): ``total_bytes[i]`` and the
    parts beside it are :class:`CacheResult`'s figures at ``contexts[i]``, ``None`` where it has none.
    What does not depend on the context is held once: the growth per token and the reasons a figure is
    missing (a group's formula needs an unknown dimension, or the engine does not handle it)."""

    model_type: str
    engine: str
    contexts: tuple[int, ...]
    batch: int
    kv_dtype: str
    state_dtype: str | None
    bytes_per_token: Bytes | None
    growing_bytes: tuple[int | None, ...]
    window_bytes: tuple[int | None, ...]
    fixed_bytes: tuple[int | None, ...]
    total_bytes: tuple[int | None, ...]
    not_computable: tuple[str, ...] = ()
    unsupported: tuple[str, ...] = ()

    @property
    def computable(self) -> bool:
        """True when every group was supported and every needed dimension known."""
        return self.bytes_per_token is not None


# ---------------------------------------------------------------- evaluating a group


def _whole_bytes(value: Bytes) -> int:
    """Bytes actually occupied: a fractional total (sub-byte formats) is rounded up."""
    return math.ceil(value)


def _group_header(group: LayerGroup) -> str:
    mechanism = group.mechanism
    variant = getattr(mechanism, "variant", None)
    name = f"{mechanism.kind} ({variant})" if variant else mechanism.kind
    plural = "layer" if group.count == 1 else "layers"
    return f"{name} × {group.count} {plural} ({tr.layer_span(group.layers)})"


def _sequence_bytes(component: Component, layers: int, entries: int) -> tuple[Bytes, Bytes]:
    """One component's bytes across the group's layers for one entry, and for one sequence keeping
    ``entries`` entries (tokens kept, or one fixed state)."""
    per_layer_total = layers * _as_bytes(component.entry_bytes)
    if component.part == "fixed":
        return per_layer_total, per_layer_total
    return per_layer_total, entries * per_layer_total


def _component_lines(component: Component, layers: int, t: int) -> tuple[list[str], Bytes]:
    """Trace lines for one component and its bytes for one sequence at context ``t``."""
    entries, note = component.entries(t)
    per_layer_total, sequence_bytes = _sequence_bytes(component, layers, entries)
    factors: list[tr.Factor] = [layers, *component.entry_factors]
    if component.part == "fixed":
        label = component.label or "fixed state"
        lines = [
            tr.product_line(label, factors, per_layer_total),
            f"t = {tr.number(t)} → {tr.byte_count(per_layer_total)}, independent of t",
        ]
        return lines, sequence_bytes
    label = f"{component.label} per token" if component.label else "per token"
    context = tr.context_line(t, [entries, per_layer_total], sequence_bytes)
    if note:
        context += f" ({note})"
    return [tr.product_line(label, factors, per_layer_total), context], sequence_bytes


def _group_lines(group: LayerGroup, plan: GroupPlan, t: int, batch: int) -> tuple[str, ...]:
    """The trace of a group the engine has a plan for, at context ``t``."""
    lines = [_group_header(group), *plan.notes]
    per_sequence: Bytes = 0
    for component in plan.components:
        component_lines, sequence_bytes = _component_lines(component, group.count, t)
        lines.extend(component_lines)
        per_sequence += sequence_bytes
    if batch > 1:
        sequence = tr.byte_count(Fraction(per_sequence))
        lines.append(f"batch {tr.number(batch)} → {tr.number(batch)} × {sequence}")
    return tuple(lines)


def _not_computable(group: LayerGroup, error: MissingDimension) -> str:
    span = tr.layer_span(group.layers)
    names = ", ".join(error.names)
    verb = "is" if len(error.names) == 1 else "are"
    why = f" ({error.why})" if error.why else ""
    return f"{group.mechanism.kind} layers {span}: {names} {verb} unknown{why}: cache not computable"


def _blank(
    group: LayerGroup, supported: bool, reason: str, lines: list[str], missing: tuple[str, ...]
) -> GroupResult:
    variant = getattr(group.mechanism, "variant", None)
    return GroupResult(
        mechanism=group.mechanism.kind,
        variant=variant,
        layers=group.layers,
        supported=supported,
        reason=reason,
        bytes_per_token=None,
        growing_bytes=None,
        window_bytes=None,
        fixed_bytes=None,
        bytes_at_context=None,
        not_computable=missing,
        trace=tuple(lines),
    )


def _as_bytes(value: Bytes) -> Bytes:
    """A whole number of bytes as an ``int``: the sums of a group are then integer arithmetic, exact
    as fractions are and many times faster (most formats cost whole bytes per entry)."""
    return value.numerator if value.denominator == 1 else value


def plan_group(group: LayerGroup, rules: EngineRules, settings: Settings) -> GroupPlan | MissingDimension:
    """The engine's plan for a group, which holds at every context; or the dimension it lacks."""
    return _plan(rules, group.mechanism, settings)


@lru_cache(maxsize=4096)
def _plan(rules: EngineRules, mechanism: Mechanism, settings: Settings) -> GroupPlan | MissingDimension:
    """A plan depends on the mechanism and the formats alone, not on the group's layers, so the groups
    of many models share it (models of one family differ mostly in their number of layers); looking it
    up costs a fifth of making it."""
    try:
        return rules.plan(mechanism, settings)
    except MissingDimension as error:
        return error.with_traceback(None)  # kept: its traceback would keep the frames alive


def evaluate_group(
    group: LayerGroup,
    rules: EngineRules,
    plan: GroupPlan | MissingDimension,
    context_tokens: int,
    batch: int,
    traced: bool = True,
) -> GroupResult:
    """One group's bytes at ``context_tokens`` under an engine's :func:`plan <plan_group>` for it, with
    its trace (an empty one unless ``traced``); never raises for unknown dimensions."""
    if isinstance(plan, MissingDimension) or not plan.supported:
        return _refused(group, rules, plan, traced)
    lines = _group_lines(group, plan, context_tokens, batch) if traced else ()
    return _group_figures(group, plan, context_tokens, batch, lines)


def _refused(
    group: LayerGroup, rules: EngineRules, plan: GroupPlan | MissingDimension, traced: bool
) -> GroupResult:
    """A group with no figure at any context: a dimension it needs is unknown, or the engine does not
    handle its mechanism."""
    header = _group_header(group) if traced else ""
    if isinstance(plan, MissingDimension):
        message = _not_computable(group, plan)
        return _blank(group, True, "", [header, f"not computable: {message}"] if traced else [], (message,))
    lines = [header, f"not supported by {rules.key}: {plan.reason}"] if traced else []
    return _blank(group, False, plan.reason, lines, ())


Term = tuple[Part, EntryRule, Bytes]
"""One component of a group's plan as the ladder and a single context both count it: its part, its
entry rule, and what one of its entries costs across the group's layers for the whole batch."""


def _terms(group: LayerGroup, plan: GroupPlan, batch: int) -> tuple[Term, ...]:
    """The :data:`Term` of each component of ``plan``: what depends on the context is left to the rule."""
    return tuple((c.part, c.entries, _sequence_bytes(c, group.count, 1)[0] * batch) for c in plan.components)


def _parts_at(terms: Sequence[Term], t: int) -> tuple[int, int, int]:
    """A group's growing, window and fixed bytes at context ``t``, each rounded up to whole bytes."""
    parts: dict[Part, Bytes] = {"growing": 0, "window": 0, "fixed": 0}
    for part, entries, entry_bytes in terms:
        parts[part] += entry_bytes if part == "fixed" else entries(t)[0] * entry_bytes
    return _whole_bytes(parts["growing"]), _whole_bytes(parts["window"]), _whole_bytes(parts["fixed"])


def _layout_parts(terms_by_group: Sequence[Sequence[Term]], t: int) -> tuple[int, int, int]:
    """The growing, window and fixed bytes of every group together at context ``t``."""
    growing = window = fixed = 0
    for terms in terms_by_group:
        group_growing, group_window, group_fixed = _parts_at(terms, t)
        growing, window, fixed = growing + group_growing, window + group_window, fixed + group_fixed
    return growing, window, fixed


def _group_growth(group: LayerGroup, plan: GroupPlan) -> Bytes:
    """What one more token of one sequence adds across the group's layers once every window is full."""
    return _as_bytes(sum((group.count * _as_bytes(c.growth) for c in plan.components), start=0))


def _group_figures(
    group: LayerGroup, plan: GroupPlan, t: int, batch: int, trace: tuple[str, ...]
) -> GroupResult:
    """The bytes of a group the engine has a plan for, at context ``t``, for the whole batch."""
    growing, window, fixed = _parts_at(_terms(group, plan, batch), t)
    return GroupResult(
        mechanism=group.mechanism.kind,
        variant=getattr(group.mechanism, "variant", None),
        layers=group.layers,
        supported=True,
        reason="",
        bytes_per_token=_group_growth(group, plan),
        growing_bytes=growing,
        window_bytes=window,
        fixed_bytes=fixed,
        bytes_at_context=growing + window + fixed,
        not_computable=(),
        trace=trace,
    )


class EngineRules:
    """What an engine layout must provide: a key, a title, and a plan for each mechanism.

    The implementations live in :mod:`registry.engine.engines`.
    """

    key: str = ""
    title: str = ""

    def plan(self, mechanism: Mechanism, settings: Settings) -> GroupPlan:
        raise NotImplementedError


# ---------------------------------------------------------------- the whole layout


def _summary_lines(
    groups: Sequence[GroupResult], totals: dict[str, int | None], per_token: Bytes | None
) -> list[str]:
    lines: list[str] = []
    if len(groups) > 1 and per_token is not None:
        terms = [g.bytes_per_token for g in groups if g.bytes_per_token]
        lines.append(tr.sum_line("per token (all groups)", [t for t in terms if t is not None], per_token))
    parts = [(name, value) for name, value in totals.items() if name != "total" and value]
    total = totals["total"]
    if total is not None and (len(parts) > 1 or len(groups) > 1):
        names = " + ".join(name for name, _ in parts) or "total"
        lines.append(
            tr.sum_line(f"total ({names})", [value for _, value in parts if value is not None], total)
        )
    return lines


def _checked(name: str, value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} is a whole number of {what} >= 1, not {value!r}")
    return value


def compute(
    layout: Layout,
    *,
    context_tokens: int,
    batch: int = 1,
    kv_dtype: str = "bf16",
    state_dtype: str | None = None,
    engine: str = "ideal",
    model_dtype: str | None = None,
    include_mtp: bool = False,
    traced: bool = True,
) -> CacheResult:
    """The cache of ``layout`` at ``context_tokens`` for ``batch`` sequences under an engine layout.

    ``kv_dtype`` is the KV-cache format; ``state_dtype`` the recurrent-state format (``None``: the
    engine's default); ``model_dtype`` the activations' dtype, which engines use for state stored "as
    the model computes it" (``None``: taken from an unquantized ``kv_dtype``, else not computable).
    Multi-token-prediction layers are left out unless ``include_mtp``. Without ``traced`` the result
    has the same figures and reasons and an empty trace: what a table of figures needs, for about
    60% of the time (writing the trace is the other 40%); :func:`compute_ladder` gives them at several
    contexts at once.
    """
    _checked("context_tokens", context_tokens, "tokens")
    _checked("batch", batch, "sequences")
    return _compute(
        layout, context_tokens, batch, kv_dtype, state_dtype, engine, model_dtype, include_mtp, traced
    )


def compute_ladder(
    layout: Layout,
    contexts: Sequence[int],
    *,
    batch: int = 1,
    kv_dtype: str = "bf16",
    state_dtype: str | None = None,
    engine: str = "ideal",
    model_dtype: str | None = None,
    include_mtp: bool = False,
) -> Ladder:
    """The figures at each of ``contexts``: the totals :func:`compute` gives with ``traced=False`` at
    each, without the per-group split, for a fraction of the time. Each layer group is planned once (a
    plan holds at every context), and what does not depend on the context (the growth per token, the
    reasons a figure is missing) is worked out once. What a table or a chart of one model asks for."""
    for tokens in contexts:
        _checked("context_tokens", tokens, "tokens")
    _checked("batch", batch, "sequences")
    rules, settings, groups = _prepare(layout, engine, kv_dtype, state_dtype, model_dtype, include_mtp)
    planned: list[tuple[LayerGroup, GroupPlan]] = []
    refused: list[GroupResult] = []
    for group in groups:
        plan = plan_group(group, rules, settings)
        if isinstance(plan, GroupPlan) and plan.supported:
            planned.append((group, plan))
        else:
            refused.append(_refused(group, rules, plan, False))
    not_computable, unsupported = _reasons(refused)
    columns: list[tuple[int | None, ...]] = [(None,) * len(contexts)] * 4
    per_token: Bytes | None = None
    if not refused:
        terms = [_terms(group, plan, batch) for group, plan in planned]
        parts = [_layout_parts(terms, tokens) for tokens in contexts]
        columns = [*(tuple(p[i] for p in parts) for i in range(3)), tuple(map(sum, parts))]
        per_token = _as_bytes(sum((_group_growth(group, plan) for group, plan in planned), start=0))
    return Ladder(
        model_type=layout.model_type,
        engine=rules.key,
        contexts=tuple(contexts),
        batch=batch,
        kv_dtype=settings.kv_dtype.name,
        state_dtype=settings.state_dtype.name if settings.state_dtype else None,
        bytes_per_token=per_token,
        growing_bytes=columns[0],
        window_bytes=columns[1],
        fixed_bytes=columns[2],
        total_bytes=columns[3],
        not_computable=not_computable,
        unsupported=unsupported,
    )


def _prepare(
    layout: Layout,
    engine: str,
    kv_dtype: str,
    state_dtype: str | None,
    model_dtype: str | None,
    include_mtp: bool,
) -> tuple[EngineRules, Settings, tuple[LayerGroup, ...]]:
    """The engine layout's rules, the formats asked for, and the layer groups to count."""
    # Imported here because the engine rules are built from the formulas above.
    from registry.engine.engines import get_engine

    settings = Settings(
        kv_dtype=get_dtype(kv_dtype),
        state_dtype=get_dtype(state_dtype) if state_dtype is not None else None,
        model_dtype=get_dtype(model_dtype) if model_dtype is not None else None,
    )
    groups = (*layout.groups, *layout.mtp_groups) if include_mtp else layout.groups
    return get_engine(engine), settings, groups


@lru_cache(maxsize=16384)
def _compute(
    layout: Layout,
    context_tokens: int,
    batch: int,
    kv_dtype: str,
    state_dtype: str | None,
    engine: str,
    model_dtype: str | None,
    include_mtp: bool,
    traced: bool,
) -> CacheResult:
    # A pure function of hashable values, so results are shared: many records name the same model
    # at the same context, and a registry checks each combination once.
    rules, settings, groups = _prepare(layout, engine, kv_dtype, state_dtype, model_dtype, include_mtp)
    results = tuple(
        evaluate_group(g, rules, plan_group(g, rules, settings), context_tokens, batch, traced)
        for g in groups
    )
    return _assemble(layout, rules, settings, context_tokens, batch, results, traced)


def _assemble(
    layout: Layout,
    rules: EngineRules,
    settings: Settings,
    context_tokens: int,
    batch: int,
    results: tuple[GroupResult, ...],
    traced: bool = True,
) -> CacheResult:
    """The whole cache from its groups' results."""
    not_computable, unsupported = _reasons(results)
    blocked = bool(not_computable or unsupported)
    totals: dict[str, int | None] = dict.fromkeys(("growing", "window", "fixed", "total"))
    per_token: Bytes | None = None
    if not blocked:  # every group has every figure
        totals["growing"] = sum(g.growing_bytes or 0 for g in results)
        totals["window"] = sum(g.window_bytes or 0 for g in results)
        totals["fixed"] = sum(g.fixed_bytes or 0 for g in results)
        totals["total"] = sum(g.bytes_at_context or 0 for g in results)
        per_token = _as_bytes(sum((g.bytes_per_token or 0 for g in results), start=0))
    state = settings.state_dtype.name if settings.state_dtype else None
    lines: list[str] = []
    if traced:
        lines.append(
            f"engine layout {rules.key} ({rules.title}) · KV {settings.kv_dtype.name}"
            + (f" · state {state}" if state else "")
            + f" · t = {tr.number(context_tokens)} · batch {tr.number(batch)}"
        )
        lines.extend(layout.notes)
        for group in results:
            lines.extend(group.trace)
        lines.extend(_summary_lines(results, totals, per_token))
    return CacheResult(
        model_type=layout.model_type,
        engine=rules.key,
        context_tokens=context_tokens,
        batch=batch,
        kv_dtype=settings.kv_dtype.name,
        state_dtype=state,
        total_bytes=totals["total"],
        bytes_per_token=per_token,
        growing_bytes=totals["growing"],
        window_bytes=totals["window"],
        fixed_bytes=totals["fixed"],
        groups=results,
        trace=tuple(lines),
        not_computable=not_computable,
        unsupported=unsupported,
    )


def _reasons(results: Sequence[GroupResult]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Why groups have no figures: the dimensions unknown, and the mechanisms the engine does not handle."""
    return (
        tuple(m for g in results for m in g.not_computable),
        tuple(
            f"{g.mechanism} layers {tr.layer_span(g.layers)}: {g.reason}" for g in results if not g.supported
        ),
    )


def per_token_bytes(layout: Layout, kv_dtype: str = "bf16", engine: str = "ideal") -> Bytes | None:
    """Growth of the whole cache per extra token of one sequence once every window is full.

    ``None`` when a group is not computable or not supported. Windows and fixed state add nothing.
    """
    return compute(layout, context_tokens=1, kv_dtype=kv_dtype, engine=engine).bytes_per_token
