"""Benchmark leaderboards: per model and scenario, and per accelerator, from the benchmark records.

Each benchmark record (schema version 2) becomes one :class:`Entry` row, read from the record and the
bounds the check computed for it (``SiteContext.boards``, made once per site). The rows are grouped by
model and scenario into a leaderboard page with a readable table (:mod:`registry.site._result_table`)
and a chart of throughput per accelerator, and by accelerator into a page comparing that part's results
across models; an index page lists both. Every row is made once and appears on exactly two pages, so
the pages grow with the records, never with their square. Only the index is in the navigation (under
Records); the leaderboards are reached from it, from the benchmarks index and from record pages.
"""

from __future__ import annotations

from collections.abc import Iterator

from registry.kinds.records import Model
from registry.site import _figures, _parts, _paths, _result_table
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, block, element, join, link, table
from registry.site._leaderboard_rows import (
    NOT_STATED,
    Board,
    Boards,
    Entry,
    board_of,
    entry_of,
    metric_of,
    origin_of,
)
from registry.site._result_table import results_table
from registry.site._svg import PALETTE, Figure, linear_bar_chart

__all__ = [
    "NOT_STATED",
    "Board",
    "Boards",
    "Entry",
    "board_of",
    "board_page",
    "board_words",
    "entry_of",
    "hardware_page",
    "model_name",
    "origin_of",
    "page_of",
    "pages",
]

BREAK = Html("<br>")
FOLDER = f"{_paths.GENERATED}/leaderboards"
INDEX = f"{FOLDER}/index.md"


def model_name(context: SiteContext, model: str) -> str:
    """A model's name (``Llama 2 70B Chat``), shorter than its record's title; its id if it is missing."""
    entry = context.index.get(model)
    return entry.record.name if entry and isinstance(entry.record, Model) else model


def board_page(model: str, scenario: str, benchmark: str = "") -> str:
    """``models/x`` and ``offline`` → ``generated/leaderboards/x/offline.md``; with the benchmark ``b``
    named, ``generated/leaderboards/x/b/offline.md``."""
    return f"{FOLDER}/{model.split('/', 1)[1]}/{benchmark + '/' if benchmark else ''}{scenario}.md"


def page_of(board: Board) -> str:
    model, benchmark, scenario = board
    return board_page(model, scenario, benchmark)


def board_words(board: Board) -> str:
    """``llama2-70b-99.9, offline``: the benchmark, if named, and the scenario."""
    _, benchmark, scenario = board
    return f"{benchmark + ', ' if benchmark else ''}{scenario.replace('-', ' ')}"


def hardware_page(hardware: str) -> str:
    """``hardware/x`` → ``generated/leaderboards/hardware/x.md``."""
    return f"{FOLDER}/hardware/{hardware.split('/', 1)[1]}.md"


def pages(context: SiteContext) -> Iterator[tuple[str, str]]:
    """Every leaderboard page, per accelerator page and the index, as (path, Markdown)."""
    boards = context.boards
    for board, rows in boards.by_board.items():
        yield page_of(board), render_board(context, board, rows)
    for hardware, rows in boards.by_hardware.items():
        yield hardware_page(hardware), render_hardware(context, hardware, rows)
    yield INDEX, render_index(context, boards)


def _figure(value: float | None, unit: str) -> str:
    """A figure written the site's way (:mod:`registry.site._figures`), and its unit if given."""
    return "—" if value is None else _figures.quantity(value, unit)


def _label(context: SiteContext, row: Entry) -> str:
    """A chart row's label: the system's name, else its hardware and count (text, escaped in the SVG)."""
    hardware = ", ".join(
        f"{n:,} × {context.title_of(h)}" if n else context.title_of(h) for h, n in row.hardware
    )
    return f"{row.system} ({hardware})" if row.system else hardware or row.id


def board_chart(context: SiteContext, rows: list[Entry], metric: tuple[str, str], title: str) -> Html:
    """Throughput per accelerator by system, highest first, coloured by accelerator."""
    name, unit = metric
    ranked = [row for row in _result_table.ranked(rows, name) if name in row.per_accelerator]
    categories = list(dict.fromkeys(_category(context, row) for row in ranked))
    colours = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(categories)}
    figures = [
        Figure(
            _label(context, row),
            row.per_accelerator[name],
            _figure(row.per_accelerator[name], ""),
            _category(context, row),
        )
        for row in ranked
    ]
    return linear_bar_chart(
        "leaderboard-chart",
        figures,
        title=f"{title}: {name} per accelerator, {unit}",
        description=f"One bar per benchmark record: {name} per accelerator, in {unit}, on a linear scale "
        "from zero, coloured by accelerator.",
        colours=colours,
    )


def _category(context: SiteContext, row: Entry) -> str:
    return " + ".join(context.title_of(h) for h, _ in row.hardware) or "not stated"


def render_board(context: SiteContext, board: Board, rows: list[Entry]) -> str:
    """A leaderboard page: what it ranks, the chart, and the readable table."""
    page, (model, benchmark, scenario) = page_of(board), board
    metric = metric_of(rows)
    title = f"{model_name(context, model)}, {board_words(board)}"
    ranks = (
        f"Ranked by {metric[1]} per accelerator; a figure the source states for the whole system is "
        "divided by the accelerators the run used, and marked derived."
        if metric
        else "No record here states a throughput; the table lists them as they are."
    )
    intro = element(
        "p",
        join(
            [
                f"{len(rows):,} benchmark record{'s' if len(rows) != 1 else ''} of ",
                context.record_link(page, model),
                f"{', benchmark ' + benchmark if benchmark else ''}, scenario "
                f"{scenario.replace('-', ' ')}. {ranks} ",
                "% of bound is the share of its tightest physical bound (compute roof, memory bandwidth) "
                "the figure reaches, from the vendor's dense peaks; empty where none can be computed, "
                "the record's page says why. Each system's name links to its record. ",
                link(_paths.href(page, INDEX), "All leaderboards"),
                ".",
            ]
        ),
    )
    chart = (
        block(
            element("p", element("strong", f"Throughput per accelerator ({metric[1]}), by system")),
            board_chart(context, rows, metric, title),
            class_="chart",
            searchable=False,
        )
        if metric
        else ""
    )
    return (
        _parts.front_matter(f"Leaderboard: {title}", hide=WIDE)
        + block(element("h1", f"Leaderboard: {title}"), intro)
        + results_table(context, page, rows, metric=metric, with_scenario=False)
        + chart
    )


WIDE = ("navigation", "toc")
"""What a page of wide tables hides of the theme: the whole window's width goes to the table."""


def render_hardware(context: SiteContext, hardware: str, rows: list[Entry]) -> str:
    """An accelerator's page: every benchmark on it, best per accelerator first, with its model."""
    page = hardware_page(hardware)
    name = context.title_of(hardware)
    intro = element(
        "p",
        join(
            [
                f"{len(rows):,} benchmark record{'s' if len(rows) != 1 else ''} on ",
                context.record_link(page, hardware),
                ", by model and scenario, the highest throughput per accelerator first; sort by any "
                "column, or filter by a model's name. ",
                link(_paths.href(page, INDEX), "All leaderboards"),
                ".",
            ]
        ),
    )
    return (
        _parts.front_matter(f"Results on {name}", hide=WIDE)
        + block(element("h1", f"Results on {name}"), intro)
        + results_table(
            context, page, by_model(context, rows), with_model=True, latency_columns=False, keep_order=True
        )
    )


def _best_figure(best: Entry | None, metric: tuple[str, str] | None) -> Cell:
    """A leaderboard's best figure per accelerator with its unit, marked when the site derived it."""
    if best is None or metric is None or metric[0] not in best.per_accelerator:
        return Cell("")
    name, unit = metric
    value = best.per_accelerator[name]
    derived = name in best.derived and name in best.per_system
    working = (
        f"derived: {_figures.quantity(best.per_system[name], unit)} for the system ÷ "
        f"{best.accelerators or 0:,} accelerators"
        if derived
        else None
    )
    return _figures.cell(_figures.Shown(_figures.quantity(value, unit), value, working, derived=derived))


def _derived(rows: list[Entry]) -> bool:
    """Whether the best figure of these rows, the one the index shows, is derived."""
    metric = metric_of(rows)
    return metric is not None and metric[0] in _result_table.ranked(rows, metric[0])[0].derived


def render_index(context: SiteContext, boards: Boards) -> str:
    """The leaderboards' index: one row per model and scenario with its best result per accelerator and
    that result's system, one row per accelerator."""
    board_rows = []
    for board, rows in sorted(boards.by_board.items()):
        model = board[0]
        metric = metric_of(rows)
        best = _result_table.ranked(rows, metric[0])[0] if metric else None
        value = best.per_accelerator.get(metric[0]) if best and metric else None
        board_rows.append(
            [
                link(_paths.href(INDEX, page_of(board)), model_name(context, model)),
                board_words(board),
                Cell(f"{len(rows):,}", sort=len(rows)),
                _best_figure(best, metric),
                (best.system or best.title) if best and value is not None else "",
            ]
        )
    hardware_rows = [
        [
            link(_paths.href(INDEX, hardware_page(hardware)), context.title_of(hardware)),
            Cell(f"{len(rows):,}", sort=len(rows)),
            Cell(f"{len({row.model for row in rows}):,}", sort=len({row.model for row in rows})),
        ]
        for hardware, rows in sorted(boards.by_hardware.items())
    ]
    empty = element("p", "No benchmark record yet.")
    return (
        _parts.front_matter("Benchmark leaderboards", hide=("toc",))
        + "# Benchmark leaderboards\n\nServing results ranked by throughput per accelerator, per model and "
        "scenario; and each accelerator's results across models. Figures are the records' own, as stated; "
        "every result is also in the [benchmarks index](../benchmarks/index.md). "
        f"{_figures.DERIVED_NOTE if any(_derived(rows) for rows in boards.by_board.values()) else ''}\n"
        + "\n## By model and scenario\n"
        + block(
            table(
                ["Model", "Scenario", "Records", "Best per accelerator", "Best system"],
                board_rows,
                sortable=True,
                numeric=(2, 3),
            )
            if board_rows
            else empty,
            class_="leaderboard-index",
            searchable=False,
        )
        + "## By accelerator\n"
        + block(
            table(["Accelerator", "Records", "Models"], hardware_rows, sortable=True, numeric=(1, 2))
            if hardware_rows
            else empty,
            class_="leaderboard-index",
            searchable=False,
        )
    )


def by_model(context: SiteContext, rows: list[Entry]) -> list[Entry]:
    """Rows by model name, benchmark and scenario, the highest throughput per accelerator first in each."""
    metric = metric_of(rows)
    name = metric[0] if metric else ""
    return sorted(
        rows,
        key=lambda r: (
            model_name(context, r.model),
            r.benchmark,
            r.scenario,
            name not in r.per_accelerator,
            -r.per_accelerator.get(name, 0.0),
            r.id,
        ),
    )
