"""Cache bytes from a layout: the sum over its layer groups, at one context or along a ladder of them.

:func:`compute` asks an engine layout (:mod:`registry.engine.engines`) what it keeps for each layer group,
then adds it up in three parts:

- *growing* bytes grow with every token (full attention, MLA, compressed entries);
- *window* bytes are bounded by a sliding window or a chunk;
- *fixed* bytes are a per-sequence state whose size never depends on the context (recurrent layers).

Two figures per token: ``bytes_per_token`` is what one more token adds at the context (the marginal
cost: a sliding window that is not full yet still adds its entry), ``steady_state_bytes_per_token`` what
it adds once every window is full. They differ only while some window is longer than the context; a
model whose every layer has a window longer than its context would otherwise read as costing nothing
per token. Where a cache steps by a block, a page or a compression ratio, both are its growth averaged
over that step from the context on, and a paged window counts as full from the context where its pages
stop growing on average (under ``vllm`` the window's edge, past which its bytes swing by a block from
token to token and hold steady over a block), so the marginal figure is never below what the cache
adds (:attr:`Component.period <registry.engine.plan.Component.period>`).

Everything is exact: sizes are integers or fractions (sub-byte formats), rounded up to whole bytes only
when a group's bytes at the context are counted. A dimension that is ``None`` makes every figure that
depends on it "not computable", and the result says which field blocked what. A mechanism the engine does
not handle makes its group "not supported", with the engine's reason, and no number.

The formulas per mechanism are in :mod:`registry.engine.formulas`; one group's count and trace in
:mod:`registry.engine.groups`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from registry.engine import trace as tr
from registry.engine.dtypes import get_dtype
from registry.engine.engines import get_engine
from registry.engine.groups import (
    GroupResult,
    as_bytes,
    evaluate_group,
    group_growth,
    group_marginal,
    group_terms,
    layout_parts,
    plan_group,
    refused_group,
)
from registry.engine.layers import LayerGroup, LayerGroups
from registry.engine.plan import Bytes, EngineRules, GroupPlan, Settings


@dataclass(frozen=True, slots=True)
class CacheResult:
    """The whole cache at ``context_tokens`` and ``batch``: totals, parts, groups, and the trace."""

    model_type: str
    engine_layout: str
    context_tokens: int
    batch: int
    kv_dtype: str
    state_dtype: str | None
    total_bytes: int | None
    bytes_per_token: Bytes | None
    steady_state_bytes_per_token: Bytes | None
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
    parts beside it are :class:`CacheResult`'s figures at ``contexts[i]``, ``None`` where it has none;
    ``bytes_per_token[i]`` is what one more token adds at ``contexts[i]``. What does not depend on the
    context is held once: the steady-state growth per token and the reasons a figure is missing (a
    group's formula needs an unknown dimension, or the engine does not handle it)."""

    model_type: str
    engine_layout: str
    contexts: tuple[int, ...]
    batch: int
    kv_dtype: str
    state_dtype: str | None
    bytes_per_token: tuple[Bytes | None, ...]
    steady_state_bytes_per_token: Bytes | None
    growing_bytes: tuple[int | None, ...]
    window_bytes: tuple[int | None, ...]
    fixed_bytes: tuple[int | None, ...]
    total_bytes: tuple[int | None, ...]
    not_computable: tuple[str, ...] = ()
    unsupported: tuple[str, ...] = ()

    @property
    def computable(self) -> bool:
        """True when every group was supported and every needed dimension known."""
        return self.steady_state_bytes_per_token is not None


def _summary_lines(
    groups: Sequence[GroupResult],
    totals: dict[str, int | None],
    per_token: tuple[Bytes, Bytes] | None,
    context_tokens: int,
) -> list[str]:
    """The per-token sum (at the context, and once every window is full when that differs) and the
    total's sum of parts."""
    lines: list[str] = []
    if per_token is not None:
        marginal, steady = per_token
        if len(groups) > 1:
            terms = [g.bytes_per_token for g in groups if g.bytes_per_token]
            lines.append(tr.sum_line("per token (all groups)", [t for t in terms if t is not None], marginal))
        if marginal != steady:
            lines.append(
                f"one more token at t = {tr.number(context_tokens)} adds {tr.byte_count(marginal)}"
                f" (windows not yet full add their entry); once every window is full (steady state)"
                f" it adds {tr.byte_count(steady)}"
            )
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
    layout: LayerGroups,
    *,
    context_tokens: int,
    batch: int = 1,
    kv_dtype: str = "bf16",
    state_dtype: str | None = None,
    engine_layout: str = "ideal",
    model_dtype: str | None = None,
    include_mtp: bool = False,
    traced: bool = True,
) -> CacheResult:
    """The cache of ``layout`` at ``context_tokens`` for ``batch`` sequences under an engine layout.

    ``kv_dtype`` is the KV-cache format; ``state_dtype`` the recurrent-state format (``None``: the
    engine's default); ``model_dtype`` the activations' dtype, which engines use for state stored "as
    the model computes it" (``None``: taken from an unquantized ``kv_dtype``, else not computable).
    Multi-token-prediction layers are left out unless ``include_mtp``. Without ``traced`` the result
    has the same figures and reasons and an empty trace: what a table of figures needs, in less time
    (writing the trace is a large share of the work); :func:`compute_ladder` gives them at several
    contexts at once.
    """
    _checked("context_tokens", context_tokens, "tokens")
    _checked("batch", batch, "sequences")
    return _compute(
        layout, context_tokens, batch, kv_dtype, state_dtype, engine_layout, model_dtype, include_mtp, traced
    )


def compute_ladder(
    layout: LayerGroups,
    contexts: Sequence[int],
    *,
    batch: int = 1,
    kv_dtype: str = "bf16",
    state_dtype: str | None = None,
    engine_layout: str = "ideal",
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
    rules, settings, groups = _prepare(layout, engine_layout, kv_dtype, state_dtype, model_dtype, include_mtp)
    planned: list[tuple[LayerGroup, GroupPlan]] = []
    refused: list[GroupResult] = []
    for group in groups:
        plan = plan_group(group, rules, settings)
        if isinstance(plan, GroupPlan) and plan.supported:
            planned.append((group, plan))
        else:
            refused.append(refused_group(group, rules, plan, False))
    not_computable, unsupported = _reasons(refused)
    columns: list[tuple[int | None, ...]] = [(None,) * len(contexts)] * 4
    per_token: tuple[Bytes | None, ...] = (None,) * len(contexts)
    steady: Bytes | None = None
    if not refused:
        terms = [group_terms(group, plan, batch) for group, plan in planned]
        parts = [layout_parts(terms, tokens) for tokens in contexts]
        columns = [*(tuple(p[i] for p in parts) for i in range(3)), tuple(map(sum, parts))]
        steady = as_bytes(sum((group_growth(group, plan) for group, plan in planned), start=0))
        per_token = tuple(
            as_bytes(sum((group_marginal(group, plan, tokens) for group, plan in planned), start=0))
            for tokens in contexts
        )
    return Ladder(
        model_type=layout.model_type,
        engine_layout=rules.key,
        contexts=tuple(contexts),
        batch=batch,
        kv_dtype=settings.kv_dtype.name,
        state_dtype=settings.state_dtype.name if settings.state_dtype else None,
        bytes_per_token=per_token,
        steady_state_bytes_per_token=steady,
        growing_bytes=columns[0],
        window_bytes=columns[1],
        fixed_bytes=columns[2],
        total_bytes=columns[3],
        not_computable=not_computable,
        unsupported=unsupported,
    )


def _prepare(
    layout: LayerGroups,
    engine_layout: str,
    kv_dtype: str,
    state_dtype: str | None,
    model_dtype: str | None,
    include_mtp: bool,
) -> tuple[EngineRules, Settings, tuple[LayerGroup, ...]]:
    """The engine layout's rules, the formats asked for, and the layer groups to count."""
    settings = Settings(
        kv_dtype=get_dtype(kv_dtype),
        state_dtype=get_dtype(state_dtype) if state_dtype is not None else None,
        model_dtype=get_dtype(model_dtype) if model_dtype is not None else None,
    )
    groups = (*layout.groups, *layout.mtp_groups) if include_mtp else layout.groups
    return get_engine(engine_layout), settings, groups


@lru_cache(maxsize=16384)
def _compute(
    layout: LayerGroups,
    context_tokens: int,
    batch: int,
    kv_dtype: str,
    state_dtype: str | None,
    engine_layout: str,
    model_dtype: str | None,
    include_mtp: bool,
    traced: bool,
) -> CacheResult:
    # A pure function of hashable values, so results are shared: many records name the same model
    # at the same context, and a registry checks each combination once.
    rules, settings, groups = _prepare(layout, engine_layout, kv_dtype, state_dtype, model_dtype, include_mtp)
    results = tuple(
        evaluate_group(g, rules, plan_group(g, rules, settings), context_tokens, batch, traced)
        for g in groups
    )
    return _assemble(layout, rules, settings, context_tokens, batch, results, traced)


def _assemble(
    layout: LayerGroups,
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
    per_token: tuple[Bytes, Bytes] | None = None
    if not blocked:  # every group has every figure
        totals["growing"] = sum(g.growing_bytes or 0 for g in results)
        totals["window"] = sum(g.window_bytes or 0 for g in results)
        totals["fixed"] = sum(g.fixed_bytes or 0 for g in results)
        totals["total"] = sum(g.bytes_at_context or 0 for g in results)
        per_token = (
            as_bytes(sum((g.bytes_per_token or 0 for g in results), start=0)),
            as_bytes(sum((g.steady_state_bytes_per_token or 0 for g in results), start=0)),
        )
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
        lines.extend(_summary_lines(results, totals, per_token, context_tokens))
    return CacheResult(
        model_type=layout.model_type,
        engine_layout=rules.key,
        context_tokens=context_tokens,
        batch=batch,
        kv_dtype=settings.kv_dtype.name,
        state_dtype=state,
        total_bytes=totals["total"],
        bytes_per_token=None if per_token is None else per_token[0],
        steady_state_bytes_per_token=None if per_token is None else per_token[1],
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


def per_token_bytes(
    layout: LayerGroups, kv_dtype: str = "bf16", engine_layout: str = "ideal"
) -> Bytes | None:
    """Growth of the whole cache per extra token of one sequence once every window is full (the steady
    state: windows and fixed state add nothing).

    ``None`` when a group is not computable or not supported.
    """
    result = compute(layout, context_tokens=1, kv_dtype=kv_dtype, engine_layout=engine_layout)
    return result.steady_state_bytes_per_token
