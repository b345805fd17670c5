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
from collections.abc import Iterator, Mapping, Sequence

from registry.kinds.records import Benchmark
from registry.results import Roof, roof
from registry.site import _figures, _parts, _paths
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, block, element, join, link
from registry.site._leaderboards import model_name
from registry.site._result_table import SCENARIO_WORDS, results_table
from registry.site._scatter import RoofLine
from registry.site._serving_chart import chart_block, hover_text
from registry.site._serving_tables import (
    SCENARIOS,
    Result,
    best_table,
    result_of,
    scenario_rank,
    side_by_side,
)
from registry.site._tables import Column, readable_block

__all__ = ["HOME_SNIPPET", "RESULTS_INDEX", "Result", "pages", "results_page"]

RESULTS_INDEX = _paths.RESULTS_INDEX
results_page = _paths.results_page
HOME_SNIPPET = f"{_paths.GENERATED}/snippets/results.txt"
"""The home page's list of the models with the most results, pulled into ``site/index.md``."""
HOME_MODELS = 8


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
                page = results_page(model, benchmark or UNNAMED)
                yield page, render_model(context, model, chosen, [benchmark], page=page)
    ranked = sorted(by_model.items(), key=lambda item: (-len(item[1]), item[0]))
    yield RESULTS_INDEX, render_index(context, ranked)
    yield HOME_SNIPPET, render_home(context, ranked)


UNNAMED = "unnamed"
"""The page slug of a model's results whose source names no benchmark."""

INTRO = (
    ". Output per accelerator is the record's own figure, or its system's figure over the accelerators it "
    "used (marked derived). Tokens per second per user is the per-user rate where the source states one, "
    "1000 / TPOT in ms where the record measured TPOT, and for a result run under a TPOT limit (MLPerf "
    "Server and Interactive) 1000 / that limit, marked ≥: at least that interactive. "
)


def _benchmark_words(benchmark: str) -> str:
    return benchmark or "no benchmark named"


def _intro(
    context: SiteContext, page: str, model: str, results: Sequence[Result], benchmarks: Sequence[str]
) -> list[Html]:
    count = f"{len(results):,} benchmark record{'s' if len(results) != 1 else ''} of "
    every = link(_paths.href(page, RESULTS_INDEX), "All serving results")
    parts = [
        element(
            "p",
            join([count, context.record_link(page, model, model_name(context, model)), INTRO, every, "."]),
        )
    ]
    if len(benchmarks) > 1:
        links = [
            link(_paths.href(page, results_page(model, b or UNNAMED)), _benchmark_words(b))
            for b in benchmarks
        ]
        parts.append(element("p", join(["Each benchmark on its own page: ", join(links, ", "), "."])))
    return parts


def roof_lines(context: SiteContext, results: Sequence[Result]) -> list[RoofLine]:
    """The roofs of the charted results (:func:`registry.results.roof`), one line per accelerator; a
    result whose roof cannot be worked out (no bandwidth on its datasheet, say) adds none."""
    by_hardware: dict[str, list[Roof]] = defaultdict(list)
    for result in results:
        found = roof(context.results, result.record.id)
        if isinstance(found, Roof) and result.point is not None:
            by_hardware[result.point.hardware].append(found)
    return highest_roofs(by_hardware)


def highest_roofs(by_hardware: Mapping[str, Sequence[Roof]]) -> list[RoofLine]:
    """For each accelerator, at each rate its results' roofs are sampled at, the highest of them.

    Each result's roof bounds that result; the highest at each rate bounds every result on the
    accelerator, so one line per accelerator is a bound on all its points."""
    lines = []
    for hardware, roofs in sorted(by_hardware.items()):
        rates = sorted({x for each in roofs for x, _ in each.points()})
        highest = [(x, max(_bound_at(each, x) for each in roofs)) for x in rates]
        count = len({each.points() for each in roofs})
        label = roofs[0].label if count == 1 else f"{hardware}: the highest of {count} roofs of its results"
        lines.append(RoofLine(label, tuple(highest), hardware))
    return lines


def _bound_at(each: Roof, rate: float) -> float:
    """A roof's bound at ``rate``. Below its first sample the curve only rises (there the memory caps
    the batch, and the rate times a fixed batch grows with the rate), so its first sample bounds it;
    past its last no system is that interactive, and it bounds at zero."""
    points = each.points()
    if points and rate < points[0][0]:
        return points[0][1]
    found = each.at(rate)
    return found if found is not None else 0.0


def _chart(context: SiteContext, page: str, name: str, results: Sequence[Result]) -> str:
    charted = [r for r in results if r.point is not None]
    points = [r.point for r in charted if r.point is not None]
    if not points:
        return ""
    hrefs = [_paths.href(page, _paths.record_page(r.record.id)) for r in charted]
    hover = [
        hover_text(p, _figures.number(p.y), _figures.number(p.x.value) if p.x.value is not None else "")
        for p in points
    ]
    title = f"{name}: output tok/s per accelerator against tok/s per user"
    roofs = roof_lines(context, charted)
    words = CHART_WORDS + (ROOF_WORDS if roofs else "")
    return (
        "\n## Throughput against interactivity\n"
        + block(element("p", words))
        + chart_block("serving", points, hrefs, hover, roofs, title=title)
    )


CHART_WORDS = (
    "One marker per result, coloured by accelerator and shaped by source; each links to its record, and "
    "hovering or focusing one names its system, accelerators, engine, precision and both figures. The "
    "line of each precision is its Pareto front: the results no other of that precision beats on both "
    "axes. Results with no per-user rate (Offline) sit in the band at the left. "
)
ROOF_WORDS = (
    "Dashed lines are physical bounds, not results: for each accelerator, the highest of its results' "
    "roofs (the sequences memory holds and bandwidth can serve in a step's time, under the dense compute "
    "peak), which no result on it can pass."
)


def render_model(
    context: SiteContext, model: str, results: Sequence[Result], benchmarks: Sequence[str], page: str = ""
) -> str:
    """A results page: the best per accelerator, the chart, the scenarios side by side, every result."""
    page = page or results_page(model)
    name = model_name(context, model)
    one = page != results_page(model)
    heading = f"Serving results: {name}" + (f", {_benchmark_words(benchmarks[0])}" if one else "")
    text = _parts.front_matter(heading, hide=("toc", "navigation"))
    text += block(element("h1", heading), *_intro(context, page, model, results, benchmarks))
    ordered = sorted(benchmarks, key=lambda b: (not b, b))
    groups = [(b, [r for r in results if r.entry.benchmark == b]) for b in ordered]
    for benchmark, chosen in groups:
        words = f" ({_benchmark_words(benchmark)})" if len(benchmarks) > 1 else ""
        text += f"\n## Best per accelerator{words}\n" + best_table(context, page, chosen)
    text += _chart(context, page, name, results)
    for benchmark, chosen in groups:
        if any(r.entry.scenario in SCENARIOS and r.point for r in chosen):
            words = f" ({_benchmark_words(benchmark)})" if len(benchmarks) > 1 else ""
            text += f"\n## Scenarios side by side{words}\n" + side_by_side(context, page, chosen)
    return text + "\n## Every result\n" + results_table(context, page, [r.entry for r in results])


INDEX_COLUMNS = [
    Column("model", "Model"),
    Column("results", "Results", numeric=True),
    Column("scenarios", "Scenarios"),
    Column("best", "Best output tok/s per accelerator", numeric=True),
]


def render_index(context: SiteContext, ranked: Sequence[tuple[str, Sequence[Result]]]) -> str:
    """Every model with a serving result, the most results first."""
    rows = []
    for model, results in ranked:
        best = max((r.point.y for r in results if r.point), default=None)
        scenarios = sorted({r.entry.scenario for r in results}, key=lambda s: (scenario_rank(s), s))
        rows.append(
            {
                "model": link(_paths.href(RESULTS_INDEX, results_page(model)), model_name(context, model)),
                "results": Cell(f"{len(results):,}", sort=len(results)),
                "scenarios": ", ".join(SCENARIO_WORDS.get(s, s) for s in scenarios),
                "best": Cell(_figures.number(best), sort=best) if best is not None else "",
            }
        )
    body = (
        readable_block(INDEX_COLUMNS, rows, label="model")
        if rows
        else block(element("p", "No benchmark record yet."))
    )
    return (
        _parts.front_matter("Serving results", hide=("toc", "navigation"))
        + "# Serving results\n\nFor each model, every serving benchmark the registry holds: the best output "
        "per accelerator by scenario, a chart of output per accelerator against tokens per second per user "
        "with each precision's Pareto front, and the scenarios side by side. Models with the most results "
        "first.\n" + body
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
        + block(element("ul", join(items)), element("p", join([every, "."])), searchable=False)
    )
