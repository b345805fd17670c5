"""The MLPerf Inference history page: per benchmark and scenario, the best per-accelerator result of
each round on each accelerator (the hardware record is the generation), as a table and an SVG chart
written into the page at site build (readable with JavaScript off; every label is escaped text).

A per-accelerator figure is derived: the record's per-system result over its accelerator count, as the
leaderboards derive it. A run the table files under both -99 and -99.9 is one record
(``provenance.also_filed_as``), so it is counted once, under -99.9.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from registry.kinds.records import Benchmark
from registry.site import _figures
from registry.site._context import SiteContext
from registry.site._html import Html, element, escape, join
from registry.site._leaderboard_rows import THROUGHPUTS, entry_of

PAGE = "generated/history.md"
ROUNDS = ("v4.1", "v5.0", "v5.1", "v6.0", "v6.1")
"""The rounds in order; a round with no record has no column."""


@dataclass(frozen=True)
class Best:
    """The best per-accelerator figure of one accelerator in one round, and the record that gives it."""

    value: float
    record_id: str


History = dict[tuple[str, str, str], dict[str, dict[str, Best]]]
"""(benchmark, scenario, unit) -> hardware id -> round -> the best figure."""


def history_of(records: list[Benchmark]) -> History:
    """The best per-accelerator figure per benchmark, scenario, accelerator and round (MLPerf records
    with one kind of accelerator and a throughput result only)."""
    found: History = defaultdict(lambda: defaultdict(dict))
    for record in records:
        provenance = record.provenance
        if provenance is None or provenance.source != "mlperf" or not provenance.round or not record.hardware:
            continue
        row = entry_of(record)
        metric = next(((m, unit) for m, unit in THROUGHPUTS if m in row.per_accelerator), None)
        if metric is None:
            continue
        value = row.per_accelerator[metric[0]]
        cell = found[(provenance.benchmark or "", record.scenario or "", metric[1])][record.hardware]
        best = cell.get(provenance.round)
        if best is None or value > best.value or (value == best.value and record.id < best.record_id):
            cell[provenance.round] = Best(value, record.id)
    return found


def pages(context: SiteContext) -> Iterator[tuple[str, str]]:
    records = [e.record for e in context.index.of_kind("benchmark") if isinstance(e.record, Benchmark)]
    yield PAGE, render_history(context, history_of(records))


def _figure(value: float) -> str:
    return _figures.number(value)  # the site's one formatter


def render_history(context: SiteContext, history: History) -> str:
    parts = [
        "# MLPerf Inference history\n",
        "Per benchmark and scenario, the best result per accelerator of each round on each accelerator",
        "(its hardware record). The figure is derived: the system's result over its accelerator count.",
        "A run filed under both -99 and -99.9 is one record, counted once under -99.9. Mixed systems",
        "and results stated as latencies are left out.\n",
    ]
    for (benchmark, scenario, unit), by_hardware in sorted(history.items()):
        rounds = [r for r in ROUNDS if any(r in cells for cells in by_hardware.values())]
        parts.append(f"## {escape(benchmark)} {escape(scenario)}\n")
        parts.append(chart(benchmark, scenario, unit, by_hardware, rounds) + "\n")
        parts.append(f"The best {escape(unit)} per accelerator, each linked to its record:\n")
        parts.append(_table(context, by_hardware, rounds) + "\n")
    if not history:
        parts.append("No MLPerf result in the registry yet.\n")
    parts.append(QUERY)
    return "\n".join(parts)


QUERY = """## The same with `registry query`

The best per-accelerator output throughput of each round, per benchmark, scenario and accelerator:

```sh
registry query "SELECT b.source_benchmark, b.scenario, b.hardware_id, b.mlperf_round,
  max(m.value_per_accelerator) AS best_tokens_per_s
FROM benchmarks b JOIN benchmark_metrics m ON m.benchmark_id = b.id
WHERE b.source = 'mlperf' AND m.metric = 'output_throughput' AND m.per = 'system'
GROUP BY ALL ORDER BY 1, 2, 3, 4"
```

One accelerator's history on one benchmark:

```sh
registry query "SELECT b.mlperf_round, b.submitter, b.id, m.value_per_accelerator
FROM benchmarks b JOIN benchmark_metrics m ON m.benchmark_id = b.id
WHERE b.source_benchmark = 'llama2-70b-99.9' AND b.scenario = 'offline'
  AND b.hardware_id = 'hardware/h200' AND m.metric = 'output_throughput'
ORDER BY m.value_per_accelerator DESC"
```
"""


def _table(context: SiteContext, by_hardware: dict[str, dict[str, Best]], rounds: list[str]) -> str:
    head = element("tr", join([element("th", "Accelerator"), *(element("th", r) for r in rounds)]))
    rows = []
    for hardware in sorted(by_hardware):
        cells = [element("td", context.record_link(PAGE, hardware))]
        for name in rounds:
            best = by_hardware[hardware].get(name)
            text: object = context.record_link(PAGE, best.record_id, _figure(best.value)) if best else "—"
            cells.append(element("td", text))
        rows.append(element("tr", join(cells)))
    return str(element("table", join([element("thead", head), element("tbody", join(rows))])))


COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")
DASHES = ("", "8 4", "2 3")
"""A line's colour cycles first, then its dash pattern, so up to 24 accelerators stay apart."""
WIDTH, PLOT_HEIGHT, LEFT, RIGHT, TOP = 600, 260, 64, 24, 34


def _short(value: float) -> str:
    """A tick label: 9.1k, 950, 0.5."""
    return f"{value / 1000:,.3g}k" if value >= 1000 else f"{value:,.3g}"


def chart(
    benchmark: str, scenario: str, unit: str, by_hardware: dict[str, dict[str, Best]], rounds: list[str]
) -> str:
    """A line per accelerator across the rounds on a linear axis from zero, the legend below the plot
    (so a narrow screen keeps the plot wide); every text is an escaped element."""
    hardware = sorted(by_hardware)
    legend_rows = (len(hardware) + 1) // 2
    height = PLOT_HEIGHT + 30 + 20 * legend_rows
    peak = max((b.value for cells in by_hardware.values() for b in cells.values()), default=1.0) or 1.0
    span = WIDTH - LEFT - RIGHT

    def x(name: str) -> float:
        return LEFT + (rounds.index(name) * span / (len(rounds) - 1) if len(rounds) > 1 else span / 2)

    def y(value: float) -> float:
        return TOP + (PLOT_HEIGHT - TOP) * (1 - value / peak)

    shapes: list[str] = [str(element("text", f"{unit} per accelerator (derived)", x=str(LEFT), y="16"))]
    for tick in (0.0, peak / 2, peak):
        shapes.append(
            f'<line x1="{LEFT}" y1="{y(tick):.1f}" x2="{WIDTH - RIGHT}" y2="{y(tick):.1f}" stroke="#ccc"/>'
        )
        shapes.append(
            str(element("text", _short(tick), x=str(LEFT - 6), y=f"{y(tick) + 4:.1f}", text_anchor="end"))
        )
    for name in rounds:
        shapes.append(
            str(element("text", name, x=f"{x(name):.1f}", y=str(PLOT_HEIGHT + 20), text_anchor="middle"))
        )
    for n, name in enumerate(hardware):
        colour, dash = COLOURS[n % len(COLOURS)], DASHES[(n // len(COLOURS)) % len(DASHES)]
        pattern = f' stroke-dasharray="{dash}"' if dash else ""
        points = [(x(r), y(b.value)) for r in rounds if (b := by_hardware[name].get(r))]
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        shapes.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{pattern}/>')
        shapes += [f'<circle cx="{px:.1f}" cy="{py:.1f}" r="4" fill="{colour}"/>' for px, py in points]
        lx, ly = LEFT + (n % 2) * span / 2, PLOT_HEIGHT + 44 + 20 * (n // 2)
        shapes.append(
            f'<line x1="{lx:.1f}" y1="{ly - 4}" x2="{lx + 14:.1f}" y2="{ly - 4}" stroke="{colour}" '
            f'stroke-width="3"{pattern}/>'
        )
        shapes.append(str(element("text", name.removeprefix("hardware/"), x=f"{lx + 18:.1f}", y=str(ly))))
    title = f"{benchmark} {scenario}: best {unit} per accelerator by round and accelerator"
    svg = element(
        "svg",
        Html(join([element("title", title), Html("".join(shapes))])),
        viewBox=f"0 0 {WIDTH} {height}",
        role="img",
        width="100%",
        style="max-width:600px;font-size:15px",
    )
    return str(svg)
