"""The figure of an MLPerf row: its unit (the round's checker's and the run log's over a contradicting
``Units`` column), the metric it is, its latency constraints, and its power where the table gives one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from registry.authoring.importers import mlperf_maps as maps
from registry.authoring.importers import mlperf_rules as rules
from registry.authoring.importers.mlperf_runs import RunFile
from registry.authoring.importers.mlperf_table import SourceError, SummaryRow
from registry.authoring.importers.numbers import NumberRefused, source_number


class Unmappable(Exception):
    """A row that has no record to map to; the message says which spelling or record is missing."""


@dataclass(frozen=True)
class Unit:
    """The unit a row's result is in, and why, when that is not what its ``Units`` column says."""

    units: str
    overridden: tuple[str, ...] = ()


def unit_of(row: SummaryRow, round_rules: rules.RoundRules, scenario: str, run: RunFile | None) -> Unit:
    """The result's unit: the one the round's checker reads the benchmark's result in, and the run log's
    own figure where this import read it; the ``Units`` column only where neither contradicts it."""
    benchmark, column = rules.benchmark_of(row["Model"]), row["Units"]
    known = rules.known_unit(round_rules, benchmark, scenario)
    logged = run.log.unit_of(row["Result"]) if run is not None else None
    if logged is not None and known is not None and logged != known:
        raise Unmappable(
            f"the run log states the result {row['Result']} as {logged}, but the round's submission "
            f"checker reads {benchmark} {scenario} results in {known}"
        )
    unit = logged or known or column
    if unit == column:
        return Unit(unit)
    why = (
        f"the run log's {run.log.path.name} (sources) states {row['Result']} as its {unit} figure:"
        if logged is not None and run is not None
        else f"the round's submission checker (sources) reads {benchmark}'s {row['Scenario']} result in {unit}:"
    )
    return Unit(
        unit,
        (
            f"The table's Units column says {column!r}, but",
            why,
            "the figure is in that unit, and the column is overridden.",
        ),
    )


def metric_of(row: SummaryRow, scenario: str, round_rules: rules.RoundRules, unit: Unit) -> dict[str, Any]:
    units = unit.units
    if units in maps.THROUGHPUT_UNITS:
        metric, written = maps.THROUGHPUT_UNITS[units]
        limits = rules.limits(round_rules, rules.benchmark_of(row["Model"]), scenario)
        constraints = [
            {"metric": m.metric, "statistic": m.statistic, "limit": f"{m.limit_ms} ms"} for m in limits
        ]
        figure = {
            "metric": metric,
            "statistic": "value",
            "per": "system",
            "stated": f"{row['Result']} {written}",
        }
        return figure | ({"constraints": constraints} if constraints else {})
    if units in maps.LATENCY_UNITS and scenario in maps.LATENCY_STATISTICS:
        statistic = maps.LATENCY_STATISTICS[scenario]
        stated = f"{row['Result']} {maps.LATENCY_UNITS[units]}"
        return {"metric": "e2e_latency", "statistic": statistic, "per": "request", "stated": stated}
    raise Unmappable(f"Units {units!r} in scenario {row['Scenario']!r} is not in the metric tables")


def power_of(row: SummaryRow) -> list[dict[str, Any]]:
    """The result's power, where the table gives one: the system's mean power over the run, in watts."""
    power, units = row.cells.get("power", ""), row.cells.get("power_units", "")
    if not power:
        return []
    if units != "Watts":
        raise Unmappable(f"Power_Units {units!r} of an LLM result is not Watts")
    return [{"metric": "power", "statistic": "mean", "per": "system", "stated": f"{power} W"}]


_SCORE = re.compile(r"([A-Za-z][A-Za-z0-9_]*): (\S+)")


def accuracy(row: SummaryRow) -> list[dict[str, Any]]:
    """The ``Accuracy`` cell's scores, named as the source names them (in lower case): ``ROUGE1: 44.4
    ROUGE2: 22.1`` is two scores; a bare number is one score whose metric the source does not name."""
    text = row["Accuracy"].strip()
    if _is_number(text):
        return [{"metric": "unnamed", "value": _value(row, text)}]
    pairs = _SCORE.findall(text)
    if not pairs or _SCORE.sub("", text).strip() or not all(_is_number(v) for _, v in pairs):
        raise SourceError(
            f"{row.where}: Accuracy {row['Accuracy']!r} is neither a number nor 'NAME: number' pairs"
        )
    return [{"metric": name.lower(), "value": _value(row, value)} for name, value in pairs]


def _is_number(text: str) -> bool:
    return re.fullmatch(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?", text) is not None


def _value(row: SummaryRow, text: str) -> int | float:
    """A score by the record's rules for numbers (a 5,000-digit one is refused, not an internal error)."""
    try:
        value = source_number(text)
    except NumberRefused as refused:
        raise SourceError(f"{row.where}: Accuracy {refused}") from None
    return value if isinstance(value, int) else float(value)
