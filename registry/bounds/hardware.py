"""The system's peak FLOP/s at the run's compute format and its memory bandwidth, summed over its parts.

The compute format is the run's activation format when it states one (a W4A8 kernel multiplies at the
fp8 rate), else its weight formats (MLPerf's ``fp8`` means weights and activations both). A part's peak
is the highest of its dense peaks at those formats; a format is looked up by its own name, then by its
family (``nvfp4`` and ``mxfp4`` at the ``fp4`` peak, ``fp8_e4m3`` at the ``fp8`` peak), then among its
family's members (plain ``fp4`` at an ``mxfp4`` peak: the same E2M1 multiply). A part with no peak at
any of them (an H200 serving mxfp4 weights, which it has no fp4 units for) runs them in a format it has,
so its fastest dense peak bounds the rate; a part with no dense peak at all makes the roof not
computable: its datasheet figure is missing, and none is guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from registry.bounds.facts import Part, RunFacts
from registry.bounds.written import si

FAMILIES: dict[str, str] = {
    "nvfp4": "fp4",
    "mxfp4": "fp4",
    "fp8_e4m3": "fp8",
    "fp8_e5m2": "fp8",
}
"""A format's family, whose peak it runs at when the datasheet names the family only."""


@dataclass(frozen=True, slots=True)
class Peak:
    """The system's peak at the compute format, the format it was taken at, and its derivation."""

    flops: Fraction
    formats: tuple[str, ...]
    line: str


def compute_formats(run: RunFacts) -> tuple[str, ...]:
    return (run.activations,) if run.activations else run.weights


def _peak_of(part: Part, fmt: str) -> tuple[Fraction, str] | None:
    """The part's peak at ``fmt``: its own, else its family's (``fp8`` for ``fp8_e4m3``), else the
    highest of the family's members the datasheet names (``mxfp4`` for a run stating plain ``fp4``)."""
    family = FAMILIES.get(fmt, fmt)
    for key in (fmt, family):
        if key in part.peaks:
            return part.peaks[key], key
    members = [(peak, key) for key, peak in part.peaks.items() if FAMILIES.get(key) == family]
    return max(members) if members else None


def system_peak(run: RunFacts) -> Peak | str:
    """The system's dense peak at the run's compute format, or why there is none."""
    formats = compute_formats(run)
    if not run.parts:
        return run.no_hardware
    if not formats:
        return "the run states neither its weight nor its activation format"
    total = Fraction(0)
    terms: list[str] = []
    taken: list[str] = []
    for part in run.parts:
        found = [peak for fmt in formats if (peak := _peak_of(part, fmt)) is not None]
        fastest = ""
        if run.weights_assumed is not None and not run.activations and part.peaks:
            # The stated weights may be the checkpoint the run quantized: no faster than its fastest.
            found = [max((peak, key) for key, peak in part.peaks.items())]
            fastest = f", its fastest: the stated {' or '.join(formats)} may have been quantized"
        elif not found and part.peaks:
            # A part without units for the format converts it to one it has: no faster than its fastest.
            found = [max((peak, key) for key, peak in part.peaks.items())]
            fastest = f", its fastest: none at {' or '.join(formats)}"
        if not found:
            return f"{part.hardware} states no dense peak at {' or '.join(formats)}"
        flops, key = max(found)
        total += part.count * flops
        taken.append(key)
        terms.append(f"{part.count} × {si(flops, 'FLOP/s')} ({part.name}, dense {key}{fastest})")
    line = f"peak: {' + '.join(terms)} = {si(total, 'FLOP/s')}"
    return Peak(total, tuple(dict.fromkeys(taken)), line)


def system_bandwidth(run: RunFacts) -> tuple[Fraction, str] | str:
    """The system's memory bandwidth (bytes/s) and its line, or why there is none."""
    if not run.parts:
        return run.no_hardware
    total = Fraction(0)
    terms: list[str] = []
    for part in run.parts:
        if part.memory_unbound is not None:
            # It also reads its host's memory, at its link's rate on top of its own memory's.
            return f"{part.memory_unbound}, and reads it beside its own at a rate not counted here"
        if part.bandwidth is None:
            return f"{part.hardware} states no memory bandwidth"
        total += part.count * part.bandwidth
        terms.append(f"{part.count} × {si(part.bandwidth, 'B/s')} ({part.name})")
    return total, f"bandwidth: {' + '.join(terms)} = {si(total, 'B/s')}"


def describe_system(run: RunFacts) -> str:
    """``8 x NVIDIA B200`` or ``8 x NVIDIA H200 + 8 x AMD MI350X``."""
    return " + ".join(f"{part.count} x {part.name}" for part in run.parts)
