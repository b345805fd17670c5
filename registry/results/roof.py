"""The physical roof of a benchmark's result as a curve for the results chart: output tokens/s per
accelerator (y) that no system of its kind can pass at each interactivity, tokens/s per user (x).

Derivation (:mod:`registry.bounds.curve`): at a per-user rate ``r`` each sequence must get a token
every ``t / r`` seconds (``t`` tokens per step: 1, or 1 + draft tokens), so a decode step may take at
most that long. A step reads at least the active weights ``W`` and each sequence's cache ``c`` (the
engine's figure at the workload's prompt and output, ideal layout) at the memory bandwidth ``B`` of all
the run's accelerators: it can serve at most ``(B t / r − W) / c`` sequences, and the memory beside
the weights holds at most ``S``. The system then gives at most ``r × min(S, (B t / r − W) / c)``
tokens/s, never more than its compute roof (each output token's share of its request's FLOPs at the
dense peak), divided by the accelerators for the chart's per-accelerator axis. Where the cache cannot
be counted (no KV format, no fixed prompt) the curve is the compute roof alone, up to ``B t / W``. Each
point is an upper bound, so any real result at that interactivity lies on or under it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from registry.bounds.curve import Curve, curve
from registry.results.values import Results

POINTS = 40
"""Points the curve is sampled at, log-spaced."""
BELOW_KNEE = 10
"""The sampled range starts this factor below the knee, where the memory stops capping the batch."""


@dataclass(frozen=True, slots=True)
class Roof:
    """A roof line for the chart: its label, the hardware record and accelerator count it is for, and
    the curve sampled as ``(tokens/s per user, output tokens/s per accelerator)`` points, x rising."""

    label: str
    hardware: str
    accelerators: int
    samples: tuple[tuple[float, float], ...]

    def points(self) -> tuple[tuple[float, float], ...]:
        """The sampled curve, x ascending; every y an upper bound on a result at that x."""
        return self.samples

    def at(self, tokens_per_user: float) -> float | None:
        """y at ``tokens_per_user`` by interpolating the samples (a straight line on log axes); None
        outside the sampled range."""
        points = self.samples
        if not points or not points[0][0] <= tokens_per_user <= points[-1][0]:
            return None
        for (x0, y0), (x1, y1) in pairwise(points):
            if x0 <= tokens_per_user <= x1:
                share = 0.0 if x1 == x0 else (tokens_per_user - x0) / (x1 - x0)
                return y0 + share * (y1 - y0)
        return points[-1][1]


def sample(shape: Curve, points: int = POINTS) -> tuple[tuple[float, float], ...]:
    """``points`` log-spaced per-user rates from a tenth of the knee to the fastest, each with its y."""
    top = shape.fastest
    span = float(top / (shape.knee / BELOW_KNEE))
    found: list[tuple[float, float]] = []
    for step in range(points):
        x = float(top) / span ** (1 - step / (points - 1))
        y = shape.at(min(Fraction(x), top))
        if y is not None:
            found.append((x, float(y)))
    return tuple(found)


def roof(results: Results, record_id: str) -> Roof | str:
    """The roof of the benchmark ``record_id``'s system, model and workload, or why there is none."""
    run = results.runs.get(record_id)
    if run is None or run.facts is None:
        return f"{record_id} is not a benchmark record of this registry"
    facts = run.facts
    if not facts.parts:
        return facts.no_hardware
    shape = curve(facts)
    if isinstance(shape, str):
        return shape
    return Roof(shape.label, facts.parts[0].hardware, facts.accelerators, sample(shape))
