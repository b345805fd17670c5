"""Readings: the right bytes reported wrongly (GB written as GiB, a per-token figure given as a total, a
growing cache called constant)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from registry.engine.layers import Recurrent
from registry.engine.misapply.situation import Reading, Situation, mechanism_kinds, side_bytes

_BINARY = {prefix: 2 ** (10 * (i + 1)) for i, prefix in enumerate("KMGTP")}
_DECIMAL = {prefix: 10 ** (3 * (i + 1)) for i, prefix in enumerate("KMGTP")}


def unit_swap(computed_decimal: bool) -> Reading:
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
        exact = side_bytes(situation.subject, quantity)
        return None if exact is None else exact / computed * written

    return reading


def per_token_as_total(situation: Situation) -> Fraction | None:
    """The per-token figure stated as a sequence or batch total."""
    if situation.quantity not in ("bytes_per_sequence", "bytes_total"):
        return None
    return side_bytes(situation.subject, "bytes_per_token")


def total_as_per_token(situation: Situation) -> Fraction | None:
    """One sequence's total at the context stated as the per-token figure."""
    if situation.quantity != "bytes_per_token":
        return None
    return side_bytes(situation.subject, "bytes_per_sequence")


def batch_ignored(situation: Situation) -> Fraction | None:
    """One sequence's cache stated for the whole batch."""
    if situation.quantity != "bytes_total" or situation.subject.run.batch == 1:
        return None
    return side_bytes(situation.subject, "bytes_per_sequence")


def called_constant(kind: type) -> Reading:
    """A growing cache stated as if it were fixed: the size at one context given for another, or the
    whole cache at the context given as the fixed part."""

    def reading(situation: Situation) -> Fraction | None:
        side = situation.subject
        kinds = mechanism_kinds(side.layout)
        if kind not in kinds or (kind is Recurrent and len(kinds) == 1):
            return None
        if situation.quantity == "fixed_bytes":
            return side_bytes(side, "bytes_per_sequence")
        if situation.quantity == "bytes_per_sequence" and kind is Recurrent:
            return side_bytes(side, "fixed_bytes")
        if situation.quantity == "bytes_per_sequence" and side.run.context_tokens != situation.base_context:
            return side_bytes(
                replace(side, run=replace(side.run, context_tokens=situation.base_context)),
                "bytes_per_sequence",
            )
        return None

    return reading
