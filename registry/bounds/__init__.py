"""Bounds on benchmark figures: what no hardware can beat, and what a run's figures say of each other.

A serving measurement cannot be recomputed, but it can be bounded. From the model (active parameters,
attention geometry), the hardware (dense peak FLOP/s per format, memory bandwidth), the run's formats,
workload and load, and one sequence's cache from the engine, each stated figure gets the bounds that
apply to it (:func:`bounds_of`): the compute roof, the bandwidth roof or floor, the decode roof from what the memory holds, the
prefill floor, and
the consistency relations between figures. Each :class:`Bound` carries its value, its inputs and its
derivation line by line, or the reason it cannot be computed.

Pure like the engine: plain values in (:mod:`registry.bounds.facts`), exact fractions, no I/O.
"""

from registry.bounds.bound import (
    BOUND_KINDS,
    CONSISTENCY_TOLERANCE,
    PHYSICS_TOLERANCE,
    Bound,
    BoundKind,
    Slip,
    not_computable,
)
from registry.bounds.consistency import consistency
from registry.bounds.decode import decode_roof
from registry.bounds.facts import Figure, ModelFacts, Part, RunFacts
from registry.bounds.roofs import STEP_LATENCIES, THROUGHPUTS, bandwidth_roof, compute_roof, prefill_floor
from registry.bounds.written import percent, times

EXTREME = (
    "a {statistic} is one request's extreme, which its timing can distort (a first token reported "
    "late, tokens that arrive together); the bound holds for the central statistics"
)
"""Why a minimum latency or a maximum rate is not bounded: MLPerf's logs give a Min TPOT far below what
any step can take, from a request whose time is divided by more tokens than steps."""


def bounds_of(run: RunFacts) -> tuple[Bound, ...]:
    """Every bound on every figure of the run, in the order of its metrics, consistency last."""
    found: list[Bound] = []
    for figure in run.figures:
        made: list[Bound] = []
        if figure.metric in THROUGHPUTS:
            made.append(compute_roof(run, figure))
        if figure.metric in STEP_LATENCIES or figure.metric == "output_throughput":
            made.append(bandwidth_roof(run, figure))
        if figure.metric == "output_throughput" and figure.per != "request":
            made.append(decode_roof(run, figure))
        if figure.metric == "ttft":
            made.append(prefill_floor(run, figure))
        found.extend(_unless_extreme(bound, figure) for bound in made)
    found.extend(consistency(run))
    return tuple(found)


def _unless_extreme(bound: Bound, figure: Figure) -> Bound:
    """The bound, or, on the extreme statistic of the side it would flag (a minimum latency, a maximum
    rate), the bound marked not computable with the reason."""
    extreme = "min" if bound.side == "floor" else "max"
    if figure.statistic != extreme:
        return bound
    reason = EXTREME.format(statistic="minimum" if extreme == "min" else "maximum")
    return not_computable(bound.kind, figure, bound.subject, bound.side, bound.unit, reason)


__all__ = [
    "BOUND_KINDS",
    "CONSISTENCY_TOLERANCE",
    "PHYSICS_TOLERANCE",
    "Bound",
    "BoundKind",
    "Figure",
    "ModelFacts",
    "Part",
    "RunFacts",
    "Slip",
    "bounds_of",
    "percent",
    "times",
]
