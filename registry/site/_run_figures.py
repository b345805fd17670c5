"""A benchmark page's figures: every metric the record states, written the site's way (the value as
the record writes it on hover), the target it had to meet, and the figure per accelerator the site
derives from a per-system one, marked derived, as the leaderboards show it."""

from __future__ import annotations

from collections.abc import Sequence

from registry.kinds.records import Benchmark
from registry.site import _figures
from registry.site._html import Cell, Html, block, element, table
from registry.site._leaderboard_rows import THROUGHPUTS, Entry

METRIC_WORDS = {
    "ttft": "Time to first token",
    "tpot": "Time per output token",
    "itl": "Inter-token latency",
    "e2e_latency": "End-to-end latency",
    "output_throughput": "Output throughput",
    "input_throughput": "Input throughput",
    "total_throughput": "Total throughput",
    "goodput": "Goodput",
    "request_goodput": "Request goodput",
    "request_throughput": "Request throughput",
    "sample_throughput": "Sample throughput",
    "query_throughput": "Query throughput",
    "accuracy": "Accuracy",
    "power": "Power",
    "energy_per_token": "Energy per token",
    "memory": "Memory",
}


def _target(limits: Sequence[tuple[str, str, str]]) -> str:
    return "; ".join(
        f"{METRIC_WORDS.get(m, m)} {s} ≤ {_figures.stated(limit).text}" for m, s, limit in limits
    )


def _derived_rows(run: Benchmark, entry: Entry) -> list[list[object]]:
    """A row per throughput whose figure per accelerator the site derived, marked so."""
    rows: list[list[object]] = []
    for metric, unit in THROUGHPUTS:
        value = entry.per_accelerator.get(metric)
        system = entry.per_system.get(metric)
        if metric not in entry.derived or value is None or system is None or not entry.accelerators:
            continue
        shown = _figures.derived_per_accelerator(system, entry.accelerators, unit.split()[-1])
        rows.append(
            [
                METRIC_WORDS.get(metric, metric),
                "value",
                "accelerator",
                Cell(_figures.html(shown), sort=value, class_="derived-figure"),
                "",
            ]
        )
    return rows


def section(run: Benchmark, entry: Entry) -> str:
    """The "Figures" section: one row per metric as the record states it, then the derived ones."""
    if not run.metrics:
        return ""
    rows: list[list[object]] = []
    for metric in run.metrics:
        shown = _figures.stated(metric.stated)
        limits = [(c.metric, c.statistic, c.limit) for c in metric.constraints]
        rows.append(
            [
                METRIC_WORDS.get(metric.metric, metric.metric),
                metric.statistic,
                metric.per,
                Cell(shown.text, sort=shown.sort, title=shown.title),
                _target(limits),
            ]
        )
    derived = _derived_rows(run, entry)
    body = table(["Figure", "Statistic", "Per", "Value", "Target"], [*rows, *derived], numeric=(3,))
    note: Html | str = element("p", _figures.DERIVED_NOTE, class_="table-note") if derived else ""
    words = element(
        "p", "Each figure the record states; hover a value to see it as written.", class_="table-note"
    )
    return "## Figures\n" + block(words, body, note)
