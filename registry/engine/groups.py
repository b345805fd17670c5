"""One layer group under an engine's plan: its bytes at a context, split by part, and its trace.

:func:`plan_group` asks the engine layout for the group's plan (memoised: a plan depends on the mechanism
and the formats alone); :func:`evaluate_group` counts it at one context. :mod:`registry.engine.compute`
adds the groups of a layout up, at one context or along a ladder of them (:func:`group_terms`,
:func:`layout_parts`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from registry.engine import trace as tr
from registry.engine.layers import LayerGroup, Mechanism
from registry.engine.plan import (
    Bytes,
    Component,
    EngineRules,
    EntryRule,
    GroupPlan,
    MissingDimension,
    Part,
    Settings,
)


@dataclass(frozen=True, slots=True)
class GroupResult:
    """One layer group's bytes at the context, for the whole batch, split by part.

    ``bytes_per_token`` is what one more token of one sequence adds across the group's layers at the
    context (a sliding window not yet full adds its entry); ``steady_state_bytes_per_token`` what it
    adds once every window is full. Every figure is ``None`` when the group is not supported or not
    computable.
    """

    mechanism: str
    variant: str | None
    layers: tuple[int, ...]
    supported: bool
    reason: str
    bytes_per_token: Bytes | None
    steady_state_bytes_per_token: Bytes | None
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
    per_layer_total = layers * as_bytes(component.entry_bytes)
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
    label = f"{component.label} per {component.per}" if component.label else f"per {component.per}"
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
        steady_state_bytes_per_token=None,
        growing_bytes=None,
        window_bytes=None,
        fixed_bytes=None,
        bytes_at_context=None,
        not_computable=missing,
        trace=tuple(lines),
    )


def as_bytes(value: Bytes) -> Bytes:
    """A whole number of bytes as an ``int``: the sums of a group are then integer arithmetic, exact
    as fractions are and cheaper (most formats cost whole bytes per entry)."""
    return value.numerator if value.denominator == 1 else value


def plan_group(group: LayerGroup, rules: EngineRules, settings: Settings) -> GroupPlan | MissingDimension:
    """The engine's plan for a group, which holds at every context; or the dimension it lacks."""
    return _plan(rules, group.mechanism, settings)


@lru_cache(maxsize=4096)
def _plan(rules: EngineRules, mechanism: Mechanism, settings: Settings) -> GroupPlan | MissingDimension:
    """A plan depends on the mechanism and the formats alone, not on the group's layers, so the groups
    of many models share it (models of one family differ mostly in their number of layers), and looking
    it up is cheaper than making it."""
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
        return refused_group(group, rules, plan, traced)
    lines = _group_lines(group, plan, context_tokens, batch) if traced else ()
    return _group_figures(group, plan, context_tokens, batch, lines)


def refused_group(
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


def group_terms(group: LayerGroup, plan: GroupPlan, batch: int) -> tuple[Term, ...]:
    """The :data:`Term` of each component of ``plan``: what depends on the context is left to the rule."""
    return tuple((c.part, c.entries, _sequence_bytes(c, group.count, 1)[0] * batch) for c in plan.components)


def _parts_at(terms: Sequence[Term], t: int) -> tuple[int, int, int]:
    """A group's growing, window and fixed bytes at context ``t``, each rounded up to whole bytes."""
    parts: dict[Part, Bytes] = {"growing": 0, "window": 0, "fixed": 0}
    for part, entries, entry_bytes in terms:
        parts[part] += entry_bytes if part == "fixed" else entries(t)[0] * entry_bytes
    return _whole_bytes(parts["growing"]), _whole_bytes(parts["window"]), _whole_bytes(parts["fixed"])


def layout_parts(terms_by_group: Sequence[Sequence[Term]], t: int) -> tuple[int, int, int]:
    """The growing, window and fixed bytes of every group together at context ``t``."""
    growing = window = fixed = 0
    for terms in terms_by_group:
        group_growing, group_window, group_fixed = _parts_at(terms, t)
        growing, window, fixed = growing + group_growing, window + group_window, fixed + group_fixed
    return growing, window, fixed


def group_growth(group: LayerGroup, plan: GroupPlan) -> Bytes:
    """What one more token of one sequence adds across the group's layers once every window is full."""
    return as_bytes(sum((group.count * as_bytes(c.growth) for c in plan.components), start=0))


def group_marginal(group: LayerGroup, plan: GroupPlan, t: int) -> Bytes:
    """What one more token of one sequence of ``t`` tokens adds across the group's layers: the steady
    growth, and the entry of every window that is not full yet (:meth:`Component.marginal`)."""
    return as_bytes(sum((group.count * as_bytes(c.marginal(t)) for c in plan.components), start=0))


def _group_figures(
    group: LayerGroup, plan: GroupPlan, t: int, batch: int, trace: tuple[str, ...]
) -> GroupResult:
    """The bytes of a group the engine has a plan for, at context ``t``, for the whole batch."""
    growing, window, fixed = _parts_at(group_terms(group, plan, batch), t)
    return GroupResult(
        mechanism=group.mechanism.kind,
        variant=getattr(group.mechanism, "variant", None),
        layers=group.layers,
        supported=True,
        reason="",
        bytes_per_token=group_marginal(group, plan, t),
        steady_state_bytes_per_token=group_growth(group, plan),
        growing_bytes=growing,
        window_bytes=window,
        fixed_bytes=fixed,
        bytes_at_context=growing + window + fixed,
        not_computable=(),
        trace=trace,
    )
