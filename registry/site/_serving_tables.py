"""The serving results pages' tables, from one :class:`Result` per benchmark record: the best output per
accelerator by scenario, the scenarios side by side per system (as MLPerf's own results table sets
Offline, Server and Interactive), and every result. Each row links to its record."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from registry.kinds.records import Benchmark, Engine, Hardware
from registry.site import _figures
from registry.site._context import SiteContext
from registry.site._html import Cell
from registry.site._leaderboard_rows import Entry, entry_of
from registry.site._result_table import SCENARIO_WORDS, result_columns, result_row
from registry.site._serving_points import OUTPUT, Point, interactivity_of, precision_key, source_kind
from registry.site._tables import Column, Row, readable_block

__all__ = ["SCENARIOS", "Result", "best_table", "result_of", "scenario_rank", "side_by_side"]

SCENARIOS = ("offline", "server", "interactive")
"""The scenarios MLPerf's own table sets side by side, in its order."""


@dataclass(frozen=True)
class Result:
    """A benchmark record as the results pages show it: its leaderboard row and, when it states an
    output rate per accelerator, its point on the chart."""

    record: Benchmark
    entry: Entry
    point: Point | None


def _name(context: SiteContext, record_id: str | None) -> str:
    entry = context.index.get(record_id) if record_id else None
    record = entry.record if entry else None
    return record.name if isinstance(record, Hardware | Engine) else (record_id or "not stated")


def _accelerators(context: SiteContext, entry: Entry) -> str:
    parts = [
        f"{count} × {_name(context, hardware)}" if count else _name(context, hardware)
        for hardware, count in entry.hardware
    ]
    return " + ".join(parts) or "not stated"


def result_of(context: SiteContext, record: Benchmark) -> Result:
    """The record's row, read from the record and its bounds in the results, and its chart point."""
    run = context.results.runs.get(record.id)
    entry = entry_of(record, run.bounds if run is not None else ())
    y = entry.per_accelerator.get(OUTPUT)
    if y is None or y <= 0:
        return Result(record, entry, None)
    accelerators = _accelerators(context, entry)
    point = Point(
        id=record.id,
        y=y,
        derived=record.headline(OUTPUT, "accelerator") is None,
        x=interactivity_of(record, entry),
        hardware=" + ".join(_name(context, h) for h, _ in entry.hardware) or "not stated",
        accelerators=accelerators,
        system=entry.system or accelerators,
        engine=_name(context, record.engine) if record.engine else "engine not stated",
        precision=precision_key(record),
        source=source_kind(record),
        division=record.provenance.division or "" if record.provenance else "",
        scenario=entry.scenario,
        benchmark=entry.benchmark,
    )
    return Result(record, entry, point)


METRIC = (OUTPUT, "output tok/s")


def scenario_rank(scenario: str) -> int:
    return SCENARIOS.index(scenario) if scenario in SCENARIOS else len(SCENARIOS)


def _per_user(point: Point | None) -> Cell:
    """Tokens per second per user, ``≥`` where it is the TPOT limit's, how it was found on hover."""
    if point is None or point.x.value is None:
        return Cell("", title=point.x.basis if point else None)
    shown = _figures.number(point.x.value)
    at_least = point.x.kind == "at least"
    return Cell(f"≥ {shown}" if at_least else shown, sort=point.x.value, title=point.x.basis)


def _row(context: SiteContext, page: str, result: Result) -> dict[str, object]:
    row = dict(result_row(context, page, result.entry, METRIC))
    row["per_user"] = _per_user(result.point)
    return row


def _best(
    results: Sequence[Result], key: Callable[[Point], tuple[str, ...]]
) -> dict[tuple[str, ...], Result]:
    """The result with the highest output per accelerator for each ``key`` of its point."""
    best: dict[tuple[str, ...], Result] = {}
    for result in results:
        point = result.point
        if point is None:
            continue
        held = best.get(key(point))
        if held is None or (held.point is not None and point.y > held.point.y):
            best[key(point)] = result
    return best


SCENARIO = Column("scenario", "Scenario")
PER_USER = Column(
    "per_user",
    "Tok/s per user",
    numeric=True,
    explain="1000 / TPOT in ms as measured, the per-user rate the source states, or (≥) 1000 / the TPOT "
    "limit the run met",
)


def _columns(*keys: str) -> list[Column]:
    found = {column.key: column for column in result_columns(METRIC, with_scenario=False)}
    extra = {"scenario": SCENARIO, "per_user": PER_USER}
    return [extra[key] if key in extra else found[key] for key in keys]


def best_table(context: SiteContext, page: str, results: Sequence[Result]) -> str:
    """The best output per accelerator for each scenario and kind of accelerator: one row each, in
    MLPerf's order of scenarios, the fastest first."""
    best = _best(results, lambda p: (p.scenario, p.hardware))
    ordered = sorted(best.items(), key=lambda item: (scenario_rank(item[0][0]), item[0][0], -_y(item[1])))
    columns = _columns(
        "scenario", "system", "accelerators", "engine", "precision", "per_accelerator", "per_user", "source"
    )
    rows = [_row(context, page, result) for _key, result in ordered]
    for row, (_key, result) in zip(rows, ordered, strict=True):
        row["scenario"] = SCENARIO_WORDS.get(result.entry.scenario, result.entry.scenario)
    return readable_block(columns, rows, label="system", note=_note(results))


def _y(result: Result) -> float:
    return result.point.y if result.point is not None else 0.0


def _note(results: Sequence[Result]) -> str:
    return _figures.DERIVED_NOTE if any(r.point is not None and r.point.derived for r in results) else ""


def side_by_side(context: SiteContext, page: str, results: Sequence[Result]) -> str:
    """Offline, Server and Interactive output per accelerator in adjacent columns, one row per system
    (its name, accelerators, engine and precision), as MLPerf's own results table sets them."""
    best = _best(
        [r for r in results if r.entry.scenario in SCENARIOS],
        lambda p: (p.system, p.accelerators, p.engine, p.precision, p.scenario),
    )
    systems: dict[tuple[str, ...], dict[str, Result]] = defaultdict(dict)
    for key, result in best.items():
        systems[key[:-1]][key[-1]] = result
    present = [s for s in SCENARIOS if any(s in row for row in systems.values())]
    rows: list[Row] = []
    for _system, by_scenario in sorted(
        systems.items(), key=lambda item: (-max(map(_y, item[1].values())), item[0])
    ):
        first = next(by_scenario[s] for s in SCENARIOS if s in by_scenario)
        row = _row(context, page, first)
        for scenario in present:
            found = by_scenario.get(scenario)
            row[scenario] = _row(context, page, found)["per_accelerator"] if found else ""
        rows.append(row)
    columns = _columns("system", "accelerators", "engine", "precision")
    columns += [
        Column(s, f"{SCENARIO_WORDS[s]}, output tok/s per accelerator", numeric=True) for s in present
    ]
    return readable_block(columns, rows, label="system", note=_note(results))
