"""Trying the catalogue on a claim: what every applicable mistake yields, and which one the stated number
admits."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from registry.engine.misapply.catalogue import CATALOGUE
from registry.engine.misapply.situation import Candidate, Change, Misapplication, Side, Situation, side_bytes
from registry.engine.units import Quantity
from registry.engine.variants import ByteQuantity


def _bytes(side: Side, quantity: ByteQuantity) -> Fraction | None:
    try:
        return side_bytes(side, quantity)
    except ValueError:  # a changed run the engine refuses (an unknown dtype or engine layout)
        return None


def _ratio(numerator: Side, denominator: Side) -> Fraction | None:
    top, bottom = _bytes(numerator, "bytes_per_token"), _bytes(denominator, "bytes_per_token")
    return None if top is None or not bottom else top / bottom


def changed_values(change: Change, situation: Situation) -> Iterator[tuple[Fraction, str]]:
    """What ``change`` yields for ``situation``: its value, and for a ratio the variant it was applied to
    (the numerator's, then the denominator's)."""
    subject, versus = situation.subject, situation.versus
    wrong = change(subject)
    quantity = situation.quantity
    if quantity != "ratio":
        value = None if wrong is None else _bytes(wrong, quantity)
        if value is not None:
            yield value, ""
        return
    if versus is None:
        return
    if wrong is not None and (value := _ratio(wrong, versus)) is not None:
        yield value, subject.variant
    wrong_versus = change(versus)
    if wrong_versus is not None and (value := _ratio(subject, wrong_versus)) is not None:
        yield value, versus.variant


def _changed(entry: Misapplication, change: Change, situation: Situation) -> Iterator[Candidate]:
    for value, applied_to in changed_values(change, situation):
        yield Candidate(entry.name, entry.description, value, applied_to)


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
