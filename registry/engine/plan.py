"""The rules types: what an engine layout answers for one layer group, and how it says a number is missing.

An engine layout (:mod:`registry.engine.engines`) is an :class:`EngineRules`: for a cache mechanism and
the formats asked for (:class:`Settings`) it gives a :class:`GroupPlan`, the :class:`Component` s each
layer keeps and how many entries each holds at a context (an :data:`EntryRule`), or the reason it does
not handle the mechanism. A formula that needs an unknown dimension raises :class:`MissingDimension`.
:mod:`registry.engine.compute` adds the plans up; both it and the engine layouts import these types
from here, so neither imports the other's module to find them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from registry.engine import trace as tr
from registry.engine.dtypes import DType
from registry.engine.layers import Mechanism

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
    growing cache, ``entry_bytes / ratio`` for a compressed one, 0 for windows and fixed state): the
    steady state. A part whose entries grow and then stop (a window, a compressor's buffer, the pages
    still inside a window) still grows before that: until the context reaches ``full_at`` tokens, one
    more token adds ``filling`` (:meth:`marginal`).
    Both are per-token figures averaged over the component's ``period``: where its entries step by a
    block, a page or a compression ratio, what token ``t + 1`` adds is that average over the ``period``
    tokens from ``t``, never less; where they step one token at a time it is exactly what the token adds.
    ``entry_factors`` multiply to ``entry_bytes`` and are what the trace prints.
    """

    part: Part
    label: str
    entry_bytes: Fraction
    entry_factors: tuple[tr.Factor, ...]
    entries: EntryRule
    growth: Fraction
    per: str = "token"
    """What one entry is, as the trace names it ("per token"; "per block" for a page's padding)."""
    filling: Fraction = Fraction(0)
    """What one more token adds per layer while a window part is filling (before ``full_at``)."""
    full_at: int | None = None
    """The context, in tokens, from which a part that fills adds ``growth`` only; ``None`` for parts
    that never fill (a cache that grows for good, a fixed state)."""
    period: int = 1
    """Tokens over which the entries step and the per-token figures are averaged: 1, or a block, a
    page, a compression ratio, a chunk (whose entries start again at each chunk)."""

    def marginal(self, t: int) -> Fraction:
        """What token ``t + 1`` adds per layer to one sequence of ``t`` tokens: ``filling`` while a
        window is not full yet, else the steady-state ``growth``."""
        if self.full_at is not None and t < self.full_at:
            return self.filling
        return self.growth


def windowed(component: Component, entries: EntryRule, full_at: int, period: int | None = None) -> Component:
    """``component`` bounded by a window: ``entries(t)`` entries, full at ``full_at`` tokens. Until then
    each token adds one entry (``filling``), after it nothing (``growth`` 0). ``period`` replaces the
    component's own where the window steps otherwise (a chunk starts again every ``chunk`` tokens)."""
    return replace(
        component,
        part="window",
        entries=entries,
        growth=Fraction(0),
        filling=component.entry_bytes,
        full_at=full_at,
        period=component.period if period is None else period,
    )


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


class EngineRules:
    """What an engine layout must provide: a key, a title, and a plan for each mechanism.

    The implementations live in :mod:`registry.engine.engines`, one module per engine.
    """

    key: str = ""
    title: str = ""

    def plan(self, mechanism: Mechanism, settings: Settings) -> GroupPlan:
        raise NotImplementedError
