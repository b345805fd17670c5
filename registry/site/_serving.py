"""The serving results pages: per model (and per model and benchmark where a model has several), and
their index, listing models by how many results they hold.

A model's page answers the reader's question, which system, engine and precision gives the most output
per accelerator at the interactivity they need: first the best result per accelerator for each
scenario, then the chart of every result (output tok/s per accelerator against tok/s per user), then
Offline, Server and Interactive side by side per system, then every result. Each row and each marker
links to its record. Figures are the records' own; a per-accelerator figure made from a per-system one
says it is derived.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from registry.kinds.records import Benchmark, Engine, Hardware
from registry.site import _parts, _paths
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, block, element, join, link, table
from registry.site._leaderboard_rows import Entry, entry_of
from registry.site._leaderboards import _figure, model_name
from registry.site._scatter import RoofLine
from registry.site._serving_chart import chart_block, hover_text
from registry.site._serving_points import OUTPUT, Point, interactivity_of, precision_key, source_kind

__all__ = ["HOME_SNIPPET", "RESULTS_INDEX", "Result", "pages", "results_page"]

FOLDER = f"{_paths.GENERATED}/results"
RESULTS_INDEX = f"{FOLDER}/index.md"
HOME_SNIPPET = f"{_paths.GENERATED}/snippets/results.txt"
"""The home page's list of the models with the most results, pulled into ``site/index.md``."""
HOME_MODELS = 8
SCENARIOS = ("offline", "server", "interactive")
"""The scenarios MLPerf's own table sets side by side, in its order."""


def results_page(model: str, benchmark: str = "") -> str:
    """``models/x`` → ``generated/results/x.md``; with the benchmark ``b``, ``generated/results/x/b.md``."""
    slug = model.split("/", 1)[1]
    return f"{FOLDER}/{slug}/{benchmark}.md" if benchmark else f"{FOLDER}/{slug}.md"


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


def pages(context: SiteContext) -> Iterator[tuple[str, str]]:
    """Every model's results page, each benchmark's where a model has several, the index, and the
    home page's list."""
    by_model: dict[str, list[Result]] = defaultdict(list)
    for found in context.index.of_kind("benchmark"):
        if isinstance(found.record, Benchmark):
            by_model[found.record.model].append(result_of(context, found.record))
    for model, results in by_model.items():
        benchmarks = sorted({r.entry.benchmark for r in results})
        yield results_page(model), render_model(context, model, results, benchmarks)
        if len(benchmarks) > 1:
            for benchmark in benchmarks:
                chosen = [r for r in results if r.entry.benchmark == benchmark]
                page = results_page(model, benchmark or "unnamed")
                yield page, render_model(context, model, chosen, [benchmark], page=page)
    ranked = sorted(by_model.items(), key=lambda item: (-len(item[1]), item[0]))
    yield RESULTS_INDEX, render_index(context, ranked)
    yield HOME_SNIPPET, render_home(context, ranked)


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
                element("small", version if len(version) <= 40 else version[:39] + "…", title=version),
            ]
        )
        if version
        else name
    )


def _system_cell(context: SiteContext, page: str, result: Result) -> Html:
    href = _paths.href(page, _paths.record_page(result.record.id))
    return link(href, result.entry.system or _accelerators(context, result.entry))


def _scenario_rank(scenario: str) -> int:
    return SCENARIOS.index(scenario) if scenario in SCENARIOS else len(SCENARIOS)


def best_table(context: SiteContext, page: str, results: Sequence[Result]) -> Html:
    """The best output per accelerator for each scenario and accelerator: one row each."""
    best: dict[tuple[str, str, str], Result] = {}
    for result in results:
        point = result.point
        if point is None:
            continue
        key = (point.benchmark, point.scenario, point.hardware)
        held = best.get(key)
        if held is None or (held.point is not None and point.y > held.point.y):
            best[key] = result
    several = len({key[0] for key in best}) > 1
    rows = []
    for (benchmark, scenario, hardware), result in sorted(
        best.items(),
        key=lambda item: (item[0][0], _scenario_rank(item[0][1]), -(item[1].point.y if item[1].point else 0)),
    ):
        rows.append(
            [
                *([benchmark or "unnamed"] if several else []),
                scenario,
                hardware,
                _system_cell(context, page, result),
                _engine_cell(context, page, result.record),
                precision_key(result.record),
                _per_accelerator(page, result),
                _per_user(result.point),
                _source_words(result.record),
            ]
        )
    headers = [
        *(["Benchmark"] if several else []),
        "Scenario",
        "Accelerator",
        "System",
        "Engine",
        "Precision",
        "Output tok/s per accelerator",
        "Tok/s per user",
        "Source",
    ]
    first = 1 if several else 0
    return table(headers, rows, sortable=True, numeric=(first + 5, first + 6))


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


def _roofs(context: SiteContext, results: Sequence[Result]) -> list[RoofLine]:
    """The physical roofs of the page's results, one line per distinct bound."""
    return []


def render_model(
    context: SiteContext, model: str, results: Sequence[Result], benchmarks: Sequence[str], page: str = ""
) -> str:
    """A results page: the best per accelerator, the chart, the scenarios side by side, every result."""
    page = page or results_page(model)
    name = model_name(context, model)
    single = benchmarks[0] if len(benchmarks) == 1 and page != results_page(model) else ""
    heading = f"Serving results: {name}" + (f", {single}" if single else "")
    points = [r.point for r in results if r.point is not None]
    charted = [r for r in results if r.point is not None]
    hrefs = [_paths.href(page, _paths.record_page(r.record.id)) for r in charted]
    hover = [
        hover_text(p, _figure(p.y, ""), _figure(p.x.value, "") if p.x.value is not None else "")
        for p in points
    ]
    parts = [
        element(
            "p",
            join(
                [
                    f"{len(results):,} benchmark record{'s' if len(results) != 1 else ''} of ",
                    context.record_link(page, model, name),
                    ". Output per accelerator is the record's own figure, or its system's figure over the accelerators "
                    "it used (marked derived). Tokens per second per user is 1000 / TPOT in ms where the record "
                    "measured it, the per-user rate where the source states one, and for a result run under a TPOT "
                    "limit (MLPerf Server and Interactive) 1000 / that limit, marked ≥: at least that interactive. ",
                    link(_paths.href(page, RESULTS_INDEX), "All serving results"),
                    ".",
                ]
            ),
        )
    ]
    if len(benchmarks) > 1:
        parts.append(
            element(
                "p",
                join(
                    [
                        "By benchmark: ",
                        join(
                            [
                                link(_paths.href(page, results_page(model, b or "unnamed")), b or "unnamed")
                                for b in benchmarks
                            ],
                            ", ",
                        ),
                        ".",
                    ]
                ),
            )
        )
    text = _parts.front_matter(heading, hide=("toc",)) + block(element("h1", heading), *parts)
    text += "\n## Best per accelerator\n" + block(
        best_table(context, page, results), class_="serving-table", searchable=False
    )
    if points:
        title = f"{name}: output tok/s per accelerator against tok/s per user"
        text += "\n## Throughput against interactivity\n" + chart_block(
            "serving", points, hrefs, hover, _roofs(context, charted), title=title
        )
    for benchmark in benchmarks:
        chosen = [r for r in results if r.entry.benchmark == benchmark]
        if any(r.entry.scenario in SCENARIOS and r.point for r in chosen):
            words = f" ({benchmark or 'no benchmark named'})" if len(benchmarks) > 1 else ""
            text += f"\n## Scenarios side by side{words}\n" + block(
                side_by_side(context, page, chosen), class_="serving-table", searchable=False
            )
    text += "\n## Every result\n" + block(
        all_table(context, page, results), class_="serving-table", searchable=False
    )
    return text


def render_index(context: SiteContext, ranked: Sequence[tuple[str, Sequence[Result]]]) -> str:
    """Every model with a serving result, the most results first."""
    rows = []
    for model, results in ranked:
        best = max((r.point.y for r in results if r.point), default=None)
        scenarios = sorted({r.entry.scenario for r in results}, key=lambda s: (_scenario_rank(s), s))
        rows.append(
            [
                link(_paths.href(RESULTS_INDEX, results_page(model)), model_name(context, model)),
                Cell(f"{len(results):,}", sort=len(results)),
                ", ".join(scenarios),
                Cell(_figure(best, "") if best is not None else "—", sort=best),
            ]
        )
    body = (
        table(
            ["Model", "Results", "Scenarios", "Best output tok/s per accelerator"],
            rows,
            sortable=True,
            numeric=(1, 3),
        )
        if rows
        else element("p", "No benchmark record yet.")
    )
    return (
        _parts.front_matter("Serving results", hide=("toc",))
        + "# Serving results\n\nFor each model, every serving benchmark the registry holds: the best output "
        "per accelerator by scenario, a chart of throughput per accelerator against tokens per second per "
        "user with its Pareto front, and the scenarios side by side. Models with the most results first.\n"
        + block(body, class_="serving-table", searchable=False)
    )


def render_home(context: SiteContext, ranked: Sequence[tuple[str, Sequence[Result]]]) -> str:
    """The home page's links to the results pages of the models with the most results."""
    if not ranked:
        return "## Serving results\n\nNo benchmark record yet.\n"
    items = [
        element(
            "li",
            join(
                [
                    link(_paths.href(_paths.HOME, results_page(model)), model_name(context, model)),
                    f": {len(results):,} result{'s' if len(results) != 1 else ''}",
                ]
            ),
        )
        for model, results in ranked[:HOME_MODELS]
    ]
    every = link(_paths.href(_paths.HOME, RESULTS_INDEX), f"All {len(ranked):,} models with serving results")
    return (
        "## Serving results\n\nOutput per accelerator against interactivity, with the Pareto front, for the "
        "models with the most results:\n"
        + block(element("ul", join(items)), element("p", join([every, "."])))
    )
