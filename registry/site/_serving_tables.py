"""The serving results pages' tables, from one :class:`Result` per benchmark record: the best output per
accelerator by scenario, the scenarios side by side per system (as MLPerf's own results table sets
Offline, Server and Interactive), and every result. Each row links to its record."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from registry.kinds.records import Benchmark, Engine, Hardware
from registry.site import _paths
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, element, join, link, table
from registry.site._leaderboard_rows import Entry, entry_of
from registry.site._leaderboards import _figure
from registry.site._serving_points import OUTPUT, Point, interactivity_of, precision_key, source_kind

__all__ = ["SCENARIOS", "Result", "all_table", "best_table", "result_of", "scenario_rank", "side_by_side"]

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


def _source_words(record: Benchmark) -> str:
    """``MLPerf v6.1 closed, available``; ``published by NVIDIA TensorRT-LLM team``; ``inference-perf run``."""
    provenance = record.provenance
    kind = source_kind(record)
    if provenance is not None and kind == "MLPerf":
        words = ", ".join(w for w in (provenance.division, provenance.availability) if w)
        return f"MLPerf {provenance.round or ''} {words}".replace("  ", " ").strip()
    if kind == "published":
        publisher = next((s.publisher for s in record.sources if s.publisher), None)
        return f"published by {publisher}" if publisher else "published"
    return f"{provenance.source} run" if provenance else kind


def _per_accelerator(page: str, result: Result) -> Cell:
    """The figure, linked to its record, marked when derived from the system's."""
    point = result.point
    if point is None:
        return Cell("—")
    href = _paths.href(page, _paths.record_page(result.record.id))
    shown = link(href, _figure(point.y, ""))
    if point.derived:
        return Cell(
            join([shown, element("small", " derived")]),
            sort=point.y,
            title="the system's figure over its accelerators",
        )
    return Cell(shown, sort=point.y)


def _per_user(point: Point | None) -> Cell:
    if point is None or point.x.value is None:
        return Cell("—", title=point.x.basis if point else None)
    shown = _figure(point.x.value, "")
    return Cell(
        f"≥ {shown}" if point.x.kind == "at least" else shown, sort=point.x.value, title=point.x.basis
    )


def _engine_cell(context: SiteContext, page: str, record: Benchmark) -> Html:
    name = (
        context.record_link(page, record.engine, _name(context, record.engine))
        if record.engine
        else Html("not stated")
    )
    version = record.engine_version
    return (
        join(
            [
                name,
                " ",
                element("small", version if len(version) <= 24 else version[:23] + "…", title=version),
            ]
        )
        if version
        else name
    )


def _system_cell(context: SiteContext, page: str, result: Result) -> Html:
    href = _paths.href(page, _paths.record_page(result.record.id))
    return link(href, result.entry.system or _accelerators(context, result.entry))


def scenario_rank(scenario: str) -> int:
    return SCENARIOS.index(scenario) if scenario in SCENARIOS else len(SCENARIOS)


def best_table(context: SiteContext, page: str, results: Sequence[Result]) -> Html:
    """The best output per accelerator for each scenario and kind of accelerator: one row each."""
    best: dict[tuple[str, str], Result] = {}
    for result in results:
        point = result.point
        if point is None:
            continue
        key = (point.scenario, point.hardware)
        held = best.get(key)
        if held is None or (held.point is not None and point.y > held.point.y):
            best[key] = result
    ordered = sorted(best.items(), key=lambda item: (scenario_rank(item[0][0]), item[0][0], -_y(item[1])))
    rows = [
        [
            scenario.replace("-", " "),
            _accelerators(context, result.entry),
            _system_cell(context, page, result),
            _engine_cell(context, page, result.record),
            precision_key(result.record),
            _per_accelerator(page, result),
            _per_user(result.point),
            _source_words(result.record),
        ]
        for (scenario, _hardware), result in ordered
    ]
    headers = [
        "Scenario",
        "Accelerators",
        "System",
        "Engine",
        "Precision",
        "Output tok/s per accelerator",
        "Tok/s per user",
        "Source",
    ]
    return table(headers, rows, sortable=True, numeric=(5, 6))


def _y(result: Result) -> float:
    return result.point.y if result.point is not None else 0.0


def side_by_side(context: SiteContext, page: str, results: Sequence[Result]) -> Html:
    """Offline, Server and Interactive per accelerator in adjacent columns, one row per system."""
    rows: dict[tuple[str, str, str, str], dict[str, Result]] = defaultdict(dict)
    for result in results:
        if result.point is None or result.entry.scenario not in SCENARIOS:
            continue
        p = result.point
        row = rows[(p.system, p.accelerators, p.engine, p.precision)]
        held = row.get(p.scenario)
        if held is None or (held.point is not None and p.y > held.point.y):
            row[p.scenario] = result
    present = [s for s in SCENARIOS if any(s in row for row in rows.values())]
    body = []
    for (system, accelerators, engine, precision), row in sorted(rows.items(), key=lambda i: i[0]):
        cells: list[object] = [system, accelerators, engine, precision]
        cells += [_per_accelerator(page, row[s]) if s in row else Cell("—") for s in present]
        body.append(cells)
    headers = [
        "System",
        "Accelerators",
        "Engine",
        "Precision",
        *(f"{s.title()} tok/s per accelerator" for s in present),
    ]
    return table(headers, body, sortable=True, numeric=tuple(range(4, 4 + len(present))))


def all_table(context: SiteContext, page: str, results: Sequence[Result]) -> Html:
    """Every result of the page, the highest output per accelerator first."""
    ordered = sorted(results, key=lambda r: (r.point is None, -(r.point.y if r.point else 0), r.record.id))
    rows = [
        [
            _system_cell(context, page, result),
            _accelerators(context, result.entry),
            _engine_cell(context, page, result.record),
            precision_key(result.record),
            result.entry.scenario,
            _per_accelerator(page, result),
            _per_user(result.point),
            _source_words(result.record),
        ]
        for result in ordered
    ]
    headers = [
        "System",
        "Accelerators",
        "Engine",
        "Precision",
        "Scenario",
        "Output tok/s per accelerator",
        "Tok/s per user",
        "Source",
    ]
    return table(headers, rows, sortable=True, numeric=(5, 6))
