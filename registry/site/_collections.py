"""Collection index pages and the home page's summary: sortable, filterable tables and the headline chart.

Record pages are reached from these tables and from search, never from the navigation: a navigation
listing every record makes every page carry the whole list, and the build quadratic in the records.
Each table is plain HTML that reads fine without JavaScript; the site's small script adds sorting by
any column and a filter box. Rows are collected while the record pages are written, so no engine
result is computed twice.
"""

from __future__ import annotations

import tempfile
import weakref
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import IO

from registry.checker.index import Entry
from registry.kinds.records import KINDS, Benchmark, Engine, Hardware, KvEfficiency, Model
from registry.site import _parts, _paths
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, block, element, join, link, table, table_parts, table_row
from registry.site._results import (
    CHART_LAYOUT,
    HEADLINE_CONTEXT,
    MECHANISM_CLASSES,
    bytes_text,
    hardware_bytes,
    model_facts,
)
from registry.site._svg import PALETTE, Bar, bar_chart

COLLECTION_TITLES = {
    "models": "Models",
    "kv-efficiency": "KV efficiency",
    "benchmarks": "Benchmarks",
    "engines": "Engines",
    "hardware": "Hardware",
}

COLLECTION_INTROS = {
    "models": "Model geometry, from each model's published config.json or its stated layer groups. The "
    f"cache figures are the engine's, bf16, laid out as {CHART_LAYOUT} lays it out.",
    "kv-efficiency": "Architectural and measured facts about KV-cache and recurrent-state memory. Every "
    "stated figure is recomputed by the engine; the cache column is the engine's figure for each record's "
    "own context, batch, formats and engine layout, and the claims column counts the verdicts.",
    "engines": "Serving engines and libraries, and which cache mechanisms each handles natively.",
    "hardware": "Accelerators and systems, with memory as their vendor's datasheet writes it.",
}

MECHANISM_COLOURS = {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(MECHANISM_CLASSES)}


class SpooledRows:
    """Each collection's index rows, in order, written to a temporary file as they arrive: the rows
    grow with the registry but are never all in memory, and each index page is written from its file."""

    def __init__(self) -> None:
        self._files: dict[str, IO[str]] = {}
        weakref.finalize(self, _close_all, self._files)  # rows never read are closed with the spool

    def extend(self, folder: str, rows: list[Html]) -> None:
        if rows:
            if folder not in self._files:
                self._files[folder] = tempfile.TemporaryFile(  # noqa: SIM115 - read back, then closed
                    "w+", encoding="utf-8", errors="surrogatepass", newline=""
                )
            self._files[folder].write("".join(rows))

    def text(self, folder: str) -> Iterator[str]:
        """The rows of ``folder``, a megabyte of text at a time; the file is closed once read."""
        handle = self._files.pop(folder, None)
        if handle is None:
            return
        with handle:
            handle.seek(0)
            while chunk := handle.read(1 << 20):
                yield chunk


def _close_all(files: dict[str, IO[str]]) -> None:
    for handle in files.values():
        handle.close()
    files.clear()


@dataclass
class Collected:
    """What the index pages and the home page need, gathered one record at a time: each index row as
    its HTML (a few hundred bytes a record), each model's bar in the headline chart, and the verdicts.

    A batch's rows are kept in ``rows``; the whole registry's, gathered from the batches, go to
    ``spooled`` when there is one (:meth:`take`)."""

    rows: dict[str, list[Html]] = field(default_factory=lambda: {folder: [] for folder in KINDS.values()})
    counts: Counter[str] = field(default_factory=Counter)
    bars: list[Bar] = field(default_factory=list)
    verdicts: Counter[str] = field(default_factory=Counter)
    spooled: SpooledRows | None = None

    def take(self, other: Collected) -> None:
        """Add a batch's rows, bars and verdicts after this one's."""
        for folder, rows in other.rows.items():
            if self.spooled is not None:
                self.spooled.extend(folder, rows)
            else:
                self.rows[folder].extend(rows)
        self.counts.update(other.counts)
        self.bars.extend(other.bars)
        self.verdicts.update(other.verdicts)

    def text(self, folder: str) -> Iterator[str]:
        """The index rows of ``folder``, in order, as HTML text."""
        if self.spooled is not None:
            yield from self.spooled.text(folder)
        yield "".join(self.rows[folder])

    def add(self, context: SiteContext, entry: Entry, verdicts: list[str]) -> None:
        """Add one record's index row (and, for a model, its bar in the headline chart)."""
        folder = entry.id.split("/", 1)[0]
        page = _paths.collection_page(folder)
        self.verdicts.update(verdicts)
        record = entry.record
        if isinstance(record, Model):
            cells = self._model_row(context, entry, record, page)
        elif isinstance(record, Benchmark):
            self.counts[folder] += 1  # its index row is the leaderboards' (registry.site._leaderboards)
            return
        elif isinstance(record, KvEfficiency):
            cells = _run_row(context, record, page, verdicts)
        elif isinstance(record, Engine):
            cells = _engine_row(context, record, page)
        elif isinstance(record, Hardware):
            cells = _hardware_row(context, record, page)
        else:
            return
        self.rows[folder].append(table_row(cells, HEADERS[folder][1]))
        self.counts[folder] += 1

    def _model_row(self, context: SiteContext, entry: Entry, model: Model, page: str) -> list[object]:
        facts = model_facts(context.results, model)
        href = _paths.href(_paths.HOME, _paths.record_page(entry.id))
        self.bars.append(
            Bar(model.name, facts.at_headline, facts.mechanism or "no cache", href, facts.problem or "")
        )
        per_token = facts.per_token
        return [
            context.record_link(page, model.id, model.name),
            model.org,
            Cell(
                "" if model.params_total_b is None else f"{model.params_total_b:g}", sort=model.params_total_b
            ),
            facts.mechanism or Cell("no layout", title=facts.problem),
            Cell(
                "" if facts.layout is None else f"{facts.layout.num_layers:,}",
                sort=facts.layout.num_layers if facts.layout else None,
            ),
            _bytes_cell(per_token),
            _bytes_cell(facts.at_headline),
            Cell(
                "" if model.max_context_tokens is None else f"{model.max_context_tokens:,}",
                sort=model.max_context_tokens,
            ),
        ]


def _bytes_cell(value: int | Fraction | None) -> Cell:
    if value is None:
        return Cell("—", sort=None)
    exact = f"{value:,} B" if isinstance(value, int) else f"{float(value):,.2f} B"
    return Cell(bytes_text(value), sort=float(value), title=exact)


def _verdict_summary(verdicts: list[str]) -> Cell:
    if not verdicts:
        return Cell("—", sort=0)
    counts = Counter(verdicts)
    badges = [
        _parts.badge(
            f"{n} {word}", "agrees" if word == "agrees" else "disagrees" if word == "disagrees" else "neutral"
        )
        for word, n in sorted(counts.items())
    ]
    return Cell(join(badges, " "), sort=counts.get("disagrees", 0) * 1000 + len(verdicts))


def _run_row(context: SiteContext, run: KvEfficiency, page: str, verdicts: list[str]) -> list[object]:
    tokens = run.context
    return [
        context.record_link(page, run.id),
        context.record_link(page, run.model, run.model.split("/", 1)[1]),
        element("code", run.layout),
        run.precision.kv_cache or "not stated",
        _context_cell(context, run, tokens),
        Cell(f"{run.batch:,}", sort=run.batch),
        # a fact, no run, whose figure is the engine's cache of its setting
        _cache_cell(context, run),
        _verdict_summary(verdicts),
        run.evidence,
    ]


def _context_cell(context: SiteContext, run: KvEfficiency | Benchmark, tokens: int | None) -> Cell:
    """The run's context, and in words when it is beyond its model's maximum."""
    if tokens is None:
        return Cell("not stated", sort=-1)
    beyond = context.beyond_max_context(run.model, tokens)
    return Cell(f"{tokens:,} ({beyond})" if beyond else f"{tokens:,}", sort=tokens, title=beyond or None)


def _cache_cell(context: SiteContext, run: KvEfficiency) -> Cell:
    """The record's cache at its own context, batch, formats and engine layout, as the engine gives it."""
    result = context.results.runs[run.id].result
    total = None if isinstance(result, str) else result.total_bytes
    return _bytes_cell(total)


def _engine_row(context: SiteContext, engine: Engine, page: str) -> list[object]:
    supported = sum(1 for c in engine.capabilities.values() if c.supported)
    return [
        context.record_link(page, engine.id, engine.name),
        engine.version,
        element("code", engine.layout) if engine.layout else "",
        Cell(f"{supported} of {len(engine.capabilities)}", sort=supported),
    ]


def _hardware_row(context: SiteContext, hardware: Hardware, page: str) -> list[object]:
    memory = hardware_bytes(hardware)
    return [
        context.record_link(page, hardware.id, hardware.name),
        hardware.vendor,
        Cell(f"{hardware.devices:,}", sort=hardware.devices),
        hardware.memory_per_device,
        Cell(bytes_text(memory), sort=memory, title=f"{memory:,} B"),
    ]


HEADERS = {
    "models": (
        [
            "Model",
            "Org",
            "Params (B)",
            "Cache class",
            "Layers",
            "KV per token at 128K",
            "KV at 128K",
            "Max context",
        ],
        (2, 4, 5, 6, 7),
    ),
    "kv-efficiency": (
        ["Record", "Model", "Layout", "KV", "Context", "Batch", "Cache", "Claims", "Evidence"],
        (4, 5, 6),
    ),
    "engines": (["Engine", "Version", "Layout", "Capabilities"], (3,)),
    "hardware": (["Hardware", "Vendor", "Devices", "Memory per device", "Unit memory"], (2, 4)),
}


def render_collection(folder: str, count: int, rows: Iterable[str]) -> Iterator[str]:
    """A collection's index page, in parts as they are made (the rows are written through, never
    joined): an introduction and one sortable, filterable table of ``count`` rows."""
    title = COLLECTION_TITLES[folder]
    headers, numeric = HEADERS[folder]
    written = f"{count:,} record{'s' if count != 1 else ''}."
    yield _parts.front_matter(title, hide=("toc",)) + f"# {title}\n\n{COLLECTION_INTROS[folder]} {written}\n"
    # The rows stay out of the search index: each row's record has a page of its own there.
    opening, closing = block(_ROWS, class_=f"collection collection-{folder}", searchable=False).split(_ROWS)
    yield opening
    yield from table_parts(headers, rows, sortable=True, numeric=numeric)
    yield closing


_ROWS = Html("<!-- rows -->")
"""Where a collection's table goes in the block around it."""


def headline_chart(bars: list[Bar]) -> Html:
    """Every model's KV cache at 128K, bf16, under the chart's engine layout: largest first."""
    ordered = sorted(bars, key=lambda b: (b.value is None, -(b.value or 0), b.label))
    used = {b.category for b in ordered}
    colours = {name: colour for name, colour in MECHANISM_COLOURS.items() if name in used}
    return bar_chart(
        "headline-chart",
        ordered,
        title=f"KV cache of one {HEADLINE_CONTEXT:,}-token sequence, bf16, {CHART_LAYOUT} layout",
        description="One bar per model, on a logarithmic scale, coloured by how the model's cache grows. "
        "Each bar links to the model's page.",
        colours=colours,
    )


def render_home_summary(collected: Collected) -> str:
    """The generated part of the home page: counts, verdicts and the headline chart (a snippet)."""
    counts = [
        [
            link(_paths.href(_paths.HOME, _paths.collection_page(folder)), COLLECTION_TITLES[folder]),
            Cell(f"{collected.counts[folder]:,}", sort=collected.counts[folder]),
        ]
        for folder in KINDS.values()
    ]
    total = sum(collected.counts.values())
    verdicts = ", ".join(f"{n:,} {word}" for word, n in sorted(collected.verdicts.items())) or "none yet"
    return (
        "## The records\n"
        + block(
            table(["Collection", "Records"], counts, numeric=(1,)),
            element("p", f"{total:,} records in all. Claims checked by the engine: {verdicts}."),
        )
        + "## KV cache at 128K, every model\n\n"
        f"bf16 KV cache, `{CHART_LAYOUT}` engine layout, one sequence of {HEADLINE_CONTEXT:,} tokens. "
        "The scale is logarithmic: each step is a factor of two.\n"
        + block(headline_chart(collected.bars), class_="chart", searchable=False)
    )
