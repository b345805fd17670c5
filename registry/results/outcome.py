"""A claim's verdict in one word and one message: what the database's ``claims`` rows and a run's page
say of it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from registry.engine.claims import ClaimVerdict


@dataclass(frozen=True)
class Outcome:
    """The verdict word (``agrees``, ``disagrees``, ``unreadable``, ``wrong-dimension``,
    ``unknown-variant``, ``unsupported``, ``not-computable``) and why: the check's reason when there is
    no comparison, the mistake that explains a disagreement, else empty."""

    word: str
    message: str


def outcome_of(verdict: ClaimVerdict) -> Outcome:
    """The verdict in one word, and the reason that goes with it."""
    for word, reason in (
        ("unreadable", verdict.stated_error),
        ("wrong-dimension", verdict.wrong_dimension),
        ("unknown-variant", verdict.unknown_variant),
        ("unsupported", verdict.unsupported),
        ("not-computable", verdict.not_computable),
    ):
        if reason:
            return Outcome(word, reason)
    if verdict.agrees is None:
        return Outcome("not-computable", "the engine gives no value")
    if verdict.agrees:
        return Outcome("agrees", "")
    match = verdict.misapplication
    return Outcome("disagrees", match.description if match else _nearest(verdict))


def _nearest(verdict: ClaimVerdict) -> str:
    if not verdict.nearest:
        return "no known misapplication explains the stated value"
    names = ", ".join(f"{c.name} ({_short(c.value)})" for c in verdict.nearest)
    return f"no known misapplication explains the stated value; nearest: {names}"


def _short(value: Fraction) -> str:
    return f"{float(value):,.6g}"
