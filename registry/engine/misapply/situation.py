"""What a mistake is computed for: a claim's situation and its sides, and what a mistake yields.

A layout change or a run change (:data:`Change`) turns a :class:`Side` into the wrong one; a reading
(:data:`Reading`) turns the whole :class:`Situation` into a wrong value. The helpers at the end are the
ones every kind of mistake uses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

from registry.engine.layers import LayerGroups, parts_of
from registry.engine.units import Quantity
from registry.engine.variants import ByteQuantity, ClaimQuantity, Fields, Run, measure


@dataclass(frozen=True)
class Side:
    """One variant of the model under one run: a claim's subject, or one side of a ratio."""

    variant: str
    layout: LayerGroups
    model: LayerGroups
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
class Occurrence:
    """Where a mistake was made in public: the page (an issue, a pull request, a calculator's source) and
    what it wrote there."""

    title: str
    url: str
    wrote: str


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
    seen_in: Occurrence | None = None


@dataclass(frozen=True)
class Candidate:
    """What one misapplication yields for a claim, with where it was applied (for a ratio).

    A pair of mistakes made together is one candidate: ``parts`` names both, in catalogue order, and
    ``name`` joins them (``mla-kv-doubled + mla-rope-omitted``).
    """

    name: str
    description: str
    value: Fraction
    applied_to: str = ""
    parts: tuple[str, ...] = ()


def with_layer_groups(side: Side, layout: LayerGroups) -> Side | None:
    """``side`` with ``layout``; ``None`` when that changes nothing (the mistake does not apply)."""
    return None if layout == side.layout else replace(side, layout=layout)


def with_run(side: Side, run: Run) -> Side | None:
    """``side`` under ``run``; ``None`` when that changes nothing (the mistake does not apply)."""
    return None if run == side.run else replace(side, run=run)


def mechanism_kinds(layout: LayerGroups) -> set[type]:
    """The mechanism classes ``layout``'s groups use (a parallel layer's parts, not the pair)."""
    return {type(part) for group in layout.groups for part in parts_of(group.mechanism)}


def side_bytes(side: Side, quantity: ByteQuantity) -> Fraction | None:
    """The engine's ``quantity`` for ``side`` (``None`` when not computable)."""
    return measure(side.layout, side.run, quantity).value
