"""The claims ``registry new`` fills in for a run record: the byte figures the formula engine computes for
the model under the record's run, each stated exactly and checked as ``registry check`` checks a claim.

``bytes_per_token`` (what one more token adds at the context, when it is not 0: a sliding window not yet
full there adds its entry), ``bytes_per_sequence`` at the context,
``bytes_total`` for a batch above 1 and ``fixed_bytes`` when the model keeps recurrent state. A figure
the engine cannot compute, or that has no exact decimal expansion, is left out with a note saying why.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from registry.engine.claims import ClaimSpec, check_claim
from registry.engine.trace import number
from registry.engine.units import format_bytes, format_int
from registry.engine.variants import ByteQuantity, Run, measure
from registry.errors import RegistryError
from registry.kinds.geometry import model_fields, model_layer_groups
from registry.kinds.records import Model


@dataclass(frozen=True)
class ComputedClaim:
    """One claim ``new`` filled in: the quantity, the stated value and the trace behind it."""

    quantity: str
    stated: str
    trace: tuple[str, ...]


def format_claim_bytes(value: Fraction) -> str | None:
    """An exact byte count as a stated value (``70,272 B``, ``4,608.5 B``); None when it has no finite
    decimal expansion and so cannot be written exactly."""
    if value.denominator == 1:
        return f"{format_int(value.numerator)} B"
    written = number(value)
    return None if "/" in written else f"{written} B"


def human_bytes(text: str) -> str:
    """``17,179,869,184 B`` → ``17,179,869,184 B (16 GiB)`` for a reader."""
    value = Fraction(text.removesuffix(" B").replace(",", ""))
    return text if value < 1024 else f"{text} ({format_bytes(value)})"


def _lines_giving(stated: str, trace: tuple[str, ...]) -> tuple[str, ...]:
    """The trace lines that arrive at ``stated`` (``... = 70,272 B``): the derivation of that figure."""
    return tuple(line for line in trace if f"= {stated}" in line)


def computed_claims(model: Model, run: Run) -> tuple[list[ComputedClaim], list[str], tuple[str, ...]]:
    """The claims the engine can fill for ``model`` under ``run``, each checked as ``registry check``
    checks it; a note for each figure left out, saying why; and the whole trace for one sequence."""
    try:
        layout = model_layer_groups(model)
    except ValueError as error:
        return [], [f"no claims: the engine cannot lay out {model.id}: {error}"], ()
    batch: tuple[ByteQuantity, ...] = ("bytes_total",) if run.batch > 1 else ()
    quantities: tuple[ByteQuantity, ...] = ("bytes_per_token", "bytes_per_sequence", *batch, "fixed_bytes")
    claims: list[ComputedClaim] = []
    notes: list[str] = []
    trace: tuple[str, ...] = ()
    for quantity in quantities:
        try:
            measured = measure(layout, run, quantity)
        except ValueError as error:
            return [], [f"no claims: {error}"], ()
        if quantity == "bytes_per_sequence":
            trace = measured.result.trace
        if measured.value is None:
            notes.append(f"{quantity} left out: {measured.reason}")
            continue
        if measured.value == 0:
            continue  # no growth at the context, or no recurrent state: nothing worth claiming
        stated = format_claim_bytes(measured.value)
        if stated is None:
            notes.append(f"{quantity} left out: {measured.value} B cannot be written exactly in decimals")
            continue
        verdict = check_claim(ClaimSpec(quantity, stated), layout, model_fields(model), run)
        if verdict.agrees is not True:
            raise RegistryError(
                f"internal error: the engine's own {quantity} {stated} does not check; please report it"
            )
        claims.append(ComputedClaim(quantity, stated, _lines_giving(stated, measured.result.trace)))
    return claims, notes, trace if claims else ()
