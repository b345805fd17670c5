"""A benchmark record as a point of a model's serving chart: output tokens/s per accelerator against
tokens/s per user, and the Pareto front of those points per precision.

The per-user rate (interactivity) is read from the record alone, in this order: the per-user output
rate the source states (``output_throughput`` per request); else ``1 / TPOT`` from a measured TPOT
(its value, mean or median, as the leaderboard's single-number figure); else, for a result run under a
TPOT limit (MLPerf Server and Interactive), ``1 / limit``, which the result is *at least* as
interactive as (every token but the tail above the limit's percentile came faster); else none (Offline
results, and any result that states no latency), drawn in a band of its own. Nothing is estimated.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from registry.engine.units import QuantityError, parse_quantity
from registry.kinds.records import Benchmark
from registry.site._leaderboard_rows import Entry

__all__ = [
    "OUTPUT",
    "SOURCE_KINDS",
    "Interactivity",
    "Point",
    "front_of",
    "interactivity_of",
    "precision_key",
    "source_kind",
]

OUTPUT = "output_throughput"
"""The figure the chart's y axis shows, per accelerator."""

SOURCE_KINDS = ("MLPerf", "published", "community run")
"""How a result reached the registry, as the chart marks it: MLPerf's results tables; a figure copied by
hand from a vendor's or a project's publication; a serving tool's own result file."""

XKind = Literal["stated", "measured", "at least", "none"]


@dataclass(frozen=True)
class Interactivity:
    """A result's tokens/s per user, how it was found, and the words that say so."""

    value: float | None
    kind: XKind
    basis: str


@dataclass(frozen=True)
class Point:
    """One result on a model's chart, and every word its hover text and the filters need."""

    id: str
    y: float
    """Output tokens/s per accelerator."""
    derived: bool
    """True when ``y`` is the system's figure divided by the accelerator count."""
    x: Interactivity
    hardware: str
    """The accelerator's name (its record's title), the colour key."""
    accelerators: str
    """``8 × NVIDIA B200``, or ``not stated``."""
    system: str
    engine: str
    precision: str
    """The weights' format and the KV cache's (``fp4 / KV fp8``), the front's key."""
    source: str
    """One of :data:`SOURCE_KINDS`."""
    division: str
    """MLPerf's ``closed`` or ``open``, else ""."""
    scenario: str
    benchmark: str


def source_kind(record: Benchmark) -> str:
    """MLPerf, a hand-copied publication (``manual``, or no provenance), or a serving tool's file."""
    source = record.provenance.source if record.provenance else "manual"
    if source == "mlperf":
        return SOURCE_KINDS[0]
    return SOURCE_KINDS[1] if source == "manual" else SOURCE_KINDS[2]


def precision_key(record: Benchmark) -> str:
    """``fp4 / KV fp8``: the weights' format (or formats) and the cache's, as the record states them."""
    precision = record.precision
    weights = precision.weights or "+".join(precision.weight_formats or []) or "weights not stated"
    return f"{weights} / KV {precision.kv_cache}" if precision.kv_cache else weights


def _seconds(stated: str) -> float | None:
    try:
        value = float(parse_quantity(stated).value)
    except QuantityError:
        return None
    return value if value > 0 else None


def interactivity_of(record: Benchmark, entry: Entry) -> Interactivity:
    """The result's tokens/s per user, in the order the module's docstring gives."""
    per_user = record.headline(OUTPUT, "request")
    if per_user is not None:
        rate = _seconds(per_user.stated)
        if rate is not None:
            return Interactivity(rate, "stated", f"per-user output rate stated: {per_user.stated}")
    for statistic in ("value", "mean", "median"):
        found = entry.latencies.get(("tpot", statistic))
        if found is not None and found[0] > 0:
            words = "TPOT" if statistic == "value" else f"{statistic} TPOT"
            return Interactivity(1 / found[0], "measured", f"1 / {words} {found[1]}")
    figure = record.headline(OUTPUT, "accelerator") or record.headline(OUTPUT, "system")
    for constraint in figure.constraints if figure is not None else ():
        limit = _seconds(constraint.limit) if constraint.metric == "tpot" else None
        if limit is not None:
            words = f"1 / the {constraint.statistic} TPOT limit {constraint.limit} it met"
            return Interactivity(1 / limit, "at least", words)
    return Interactivity(None, "none", "no per-user rate or TPOT stated")


def front_of(points: Sequence[Point]) -> set[str]:
    """The ids of the points no other point of the same precision dominates.

    A point is dominated when another is at least as interactive and at least as fast, and strictly
    better in one of the two. Points with no per-user rate are on no front. Sorted by interactivity,
    highest first, a point is on the front when it is the fastest of its interactivity and faster than
    every more interactive point: one pass per precision."""
    by_precision: dict[str, dict[float, list[Point]]] = defaultdict(lambda: defaultdict(list))
    for point in points:
        if point.x.value is not None:
            by_precision[point.precision][point.x.value].append(point)
    front: set[str] = set()
    for by_x in by_precision.values():
        best = float("-inf")
        for _x, same in sorted(by_x.items(), reverse=True):
            top = max(point.y for point in same)
            if top > best:
                front.update(point.id for point in same if point.y == top)
                best = top
    return front
