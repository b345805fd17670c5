"""The bounds stage of ``registry check``: each benchmark figure that breaks a bound, as a finding.

The bounds are worked out once with the results (:mod:`registry.results`); here a broken one becomes a
finding at the figure's ``stated`` node, its message naming the bound and the ratio, its hint the
likeliest slip and the bound's last derivation lines. A bound that cannot be computed is no finding:
its reason is shown by ``explain``, the database and the record's page.
"""

from __future__ import annotations

from collections.abc import Iterator

from registry.bounds import Bound, percent, times
from registry.bounds.written import rate, seconds
from registry.checker.index import Entry, RegistryIndex
from registry.codes import formula as rules
from registry.codes.rule import Rule
from registry.diagnostics import Diagnostic
from registry.results import MemoryFit, Results, RunResult

RULE_OF: dict[str, Rule] = {
    "compute-roof": rules.BEATS_COMPUTE_ROOF,
    "bandwidth-roof": rules.BEATS_BANDWIDTH_ROOF,
    "prefill-floor": rules.BEATS_PREFILL_FLOOR,
    "consistency": rules.INCONSISTENT_FIGURES,
    "decode-roof": rules.BEATS_DECODE_ROOF,
}

NO_SLIP = "no single slip explains it: check the figure and its unit, its 'per', the accelerator count and the precision"


BOUND_WORDS = {
    "compute-roof": "compute roof",
    "bandwidth-roof": "bandwidth roof",
    "decode-roof": "decode roof",
    "prefill-floor": "prefill floor",
    "consistency": "consistency",
}


def bound_findings(index: RegistryIndex, results: Results) -> list[Diagnostic]:
    """Every broken bound of every benchmark, located at the figure it bounds, and a note on each
    benchmark none of whose bounds can be computed, naming what each lacks."""
    found: list[Diagnostic] = []
    for run_id, run in results.runs.items():
        entry = index.get(run_id)
        if entry is not None and run.bounds:
            found.extend(_findings(entry, run.bounds))
            found.extend(_uncovered(entry, run))
    return found


def missing_inputs(run: RunResult) -> list[str]:
    """What each of a run's bounds lacks, once per bound and reason, when none can be computed; empty
    when one can (or the run has no figures to bound)."""
    if any(bound.computable for bound in run.bounds) or isinstance(run.fit, MemoryFit):
        return []
    said: dict[str, list[str]] = {}
    for bound in run.bounds:
        reasons = said.setdefault(BOUND_WORDS[bound.kind], [])
        if bound.reason and bound.reason not in reasons:
            reasons.append(bound.reason)
    if isinstance(run.fit, str):
        said["memory fit"] = [run.fit]
    return [f"{kind}: {'; '.join(reasons)}" for kind, reasons in said.items() if reasons]


def _uncovered(entry: Entry, run: RunResult) -> Iterator[Diagnostic]:
    missing = missing_inputs(run)
    if missing:
        line, column = entry.document.locate("/metrics")
        message = "no bound on this record's figures can be computed: " + " | ".join(missing)
        yield rules.NO_COMPUTABLE_BOUND.diagnostic(entry.path, line, column, message, pointer="/metrics")


def _findings(entry: Entry, bounds: tuple[Bound, ...]) -> Iterator[Diagnostic]:
    for bound in bounds:
        if bound.exceeded:
            pointer = f"/metrics/{bound.position}/stated"
            line, column = entry.document.locate(pointer)
            rule = RULE_OF[bound.kind]
            yield rule.diagnostic(entry.path, line, column, message(bound), hint=hint(bound), pointer=pointer)


def written_limit(bound: Bound) -> str:
    """The bound's value in the figure's unit: ``11,200 tok/s``, ``0.2 s``."""
    assert bound.limit is not None
    if bound.unit == "s":
        return seconds(bound.limit)
    return rate(bound.limit, bound.unit).rstrip()


def message(bound: Bound) -> str:
    """``output throughput per accelerator 36,384 tok/s is 3.2x the compute roof of ... (11,200 tok/s)``."""
    reached = bound.reached
    assert reached is not None
    stated = f"{bound.subject} {bound.stated}"
    if bound.side == "floor":
        return f"{stated} is {times(reached)} below {bound.what} ({written_limit(bound)})"
    if bound.side == "equal" and reached < 1:
        return f"{stated} is {times(1 / reached)} below {bound.what} ({written_limit(bound)})"
    return f"{stated} is {times(reached)} {bound.what} ({written_limit(bound)})"


def hint(bound: Bound) -> str:
    """The likeliest slip, what the figure reaches once it is undone, and the bound's derivation."""
    slip = bound.slip
    reached = bound.reached
    assert reached is not None
    derivation = "; ".join(bound.trace[-2:])
    if slip is None:
        return f"{NO_SLIP}; {derivation}"
    undone = f" (undone, it reaches {percent(reached / slip.factor)} of the bound)" if slip.exact else ""
    return f"likeliest slip: {slip.description}{undone}; {derivation}"
