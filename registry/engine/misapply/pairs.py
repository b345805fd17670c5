"""Two catalogued mistakes made at once, tried when no single one explains a stated number.

A published figure can carry two mistakes together: LMCache's calculator wrote DeepSeek-V3's MLA cache as
``2 x L x d_c x B`` (LMCache/LMCache#694), the latent counted as a K and a V *and* its decoupled RoPE key
left out; no single entry gives that number. Each pair of entries is composed as the two would be made:
two layout or run changes one after the other (in both orders, since one may undo what the other needs),
or a change followed by a reading of its result. Two readings are not composed: each reads the right
bytes, so a second one has nothing wrong to read.

A pair is offered only when its value is new: a value a single mistake (or the engine) already gives is
explained by the simpler story. Pairs are tried in catalogue order of their first, then second, entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from itertools import combinations

from registry.engine.misapply.catalogue import CATALOGUE
from registry.engine.misapply.search import Explanation, candidates, changed_values, explain
from registry.engine.misapply.situation import (
    Candidate,
    Change,
    Misapplication,
    Reading,
    Side,
    Situation,
)


def _then(first: Change, second: Change) -> Change:
    """``first``, then ``second`` on its result; ``None`` unless both apply."""

    def change(side: Side) -> Side | None:
        wrong = first(side)
        return None if wrong is None else second(wrong)

    return change


def _read_changed(change: Change, reading: Reading, situation: Situation) -> Fraction | None:
    """``reading`` of the situation whose subject ``change`` got wrong first."""
    if situation.quantity == "ratio" or (wrong := change(situation.subject)) is None:
        return None
    try:
        return reading(replace(situation, subject=wrong))
    except ValueError:  # a changed run the engine refuses
        return None


def _pair_values(
    first: Misapplication, second: Misapplication, situation: Situation
) -> Iterator[tuple[Fraction, str]]:
    if first.change is not None and second.change is not None:
        yield from changed_values(_then(first.change, second.change), situation)
        yield from changed_values(_then(second.change, first.change), situation)
        return
    change = first.change or second.change
    reading = first.reading or second.reading
    if change is not None and reading is not None:
        value = _read_changed(change, reading, situation)
        if value is not None:
            yield value, ""


def pair_candidates(
    situation: Situation, singles: list[Candidate], exact: Fraction | None
) -> list[Candidate]:
    """What every pair of catalogued mistakes yields for ``situation`` that no single one (``singles``)
    and not the engine's own value (``exact``) already gives, each value once, in catalogue order."""
    known = {c.value for c in singles} | ({exact} if exact is not None else set())
    entries = [entry for entry in CATALOGUE if entry.change is not None or entry.reading is not None]
    found: list[Candidate] = []
    for first, second in combinations(entries, 2):
        for value, applied_to in _pair_values(first, second, situation):
            if value in known:
                continue
            known.add(value)
            found.append(
                Candidate(
                    f"{first.name} + {second.name}",
                    f"{first.description}, and {second.description}",
                    value,
                    applied_to,
                    (first.name, second.name),
                )
            )
    return found


def explain_situation(situation: Situation, exact: Fraction | None) -> tuple[list[Candidate], Explanation]:
    """Every single mistake's value for ``situation``, and what explains its stated number: the first
    single mistake the number admits, else the first pair, else no match and the nearest single ones."""
    found = candidates(situation, exact)
    explanation = explain(situation.stated, found)
    if explanation.match is None:
        paired = explain(situation.stated, pair_candidates(situation, found, exact)).match
        if paired is not None:
            explanation = Explanation(paired, ())
    return found, explanation
