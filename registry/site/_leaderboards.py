"""Benchmark leaderboards: per model and scenario, and per accelerator, from the benchmark records.

Each benchmark record (schema version 2) becomes one :class:`Entry` row, read from the record alone (no
engine result is needed: the figures are the record's own, as stated). The rows are grouped by model and
scenario into a leaderboard page with a sortable table and a chart of throughput per accelerator, and
by accelerator into a page comparing that part's results across models; an index page lists both.
Every row is made once and appears on exactly two pages, so the pages grow with the records, never
with their square. These pages are out of the navigation, as record pages are: the benchmarks index
links to the leaderboards' index.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from registry.bounds import percent
from registry.kinds.records import Benchmark, Model
from registry.site import _parts, _paths
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, block, element, join, link, table
from registry.site._leaderboard_rows import (
    LATENCIES,
    LATENCY_NAMES,
    NOT_STATED,
    STATISTIC_ORDER,
    Board,
    Boards,
    Entry,
    board_of,
    entry_of,
    metric_of,
)
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
    records = [e.record for e in context.index.of_kind("benchmark") if isinstance(e.record, Benchmark)]
    boards = Boards.of(records, context.results)
    for board, rows in boards.by_board.items():
        yield page_of(board), render_board(context, board, rows)
    for hardware, rows in boards.by_hardware.items():
        yield hardware_page(hardware), render_hardware(context, hardware, rows)
    yield INDEX, render_index(context, boards)


def _figure(value: float | None, unit: str) -> str:
    """A figure with one decimal (three significant digits below 100), and its unit if given."""
    if value is None:
        return "—"
    shown = f"{value:,.1f}" if value >= 100 else f"{value:,.3g}"
    return f"{shown} {unit}".rstrip()


def _seconds(value: float) -> str:
    return f"{value * 1000:,.4g} ms" if value < 1 else f"{value:,.4g} s"


def _system(context: SiteContext, page: str, row: Entry) -> Html:
    parts: list[object] = []
    for hardware, count in row.hardware:
        parts += [context.record_link(page, hardware), f" × {count}" if count else "", "; "]
    parts = parts[:-1] or ["not stated"]
    if row.system:
        parts += [BREAK, element("small", row.system)]
    return join(parts)


def _engine(context: SiteContext, page: str, row: Entry) -> Html:
    name = (
        context.record_link(page, row.engine, row.engine.split("/", 1)[1]) if row.engine else "not recorded"
    )
    return join([name, BREAK, element("small", row.engine_version)] if row.engine_version else [name])


def _columns(rows: list[Entry]) -> list[tuple[str, str]]:
    """The latency (metric, statistic) pairs any row states, in a fixed order."""
    present = {pair for row in rows for pair in row.latencies}
    return [(m, s) for m in LATENCIES for s in STATISTIC_ORDER if (m, s) in present]


def _ranked(rows: list[Entry], metric: str | None) -> list[Entry]:
    """Highest throughput per accelerator first, rows without the figure last, then by id."""
    return sorted(
        rows, key=lambda r: (metric not in r.per_accelerator, -r.per_accelerator.get(metric or "", 0.0), r.id)
    )


def board_table(context: SiteContext, page: str, rows: list[Entry], metric: tuple[str, str] | None) -> Html:
    """The sortable leaderboard: rank, record, throughput per accelerator, each latency column, precision,
    engine and version, system. The figures link to the record they come from."""
    name, unit = metric or ("", "")
    latencies = _columns(rows)
    headers = [
        "#",
        "Record",
        f"Per accelerator ({unit})" if metric else "Per accelerator",
        *(f"{LATENCY_NAMES[m]} {s}" for m, s in latencies),
        "% of roofline",
        "Precision",
        "Engine",
        "System",
    ]
    body = []
    for rank, row in enumerate(_ranked(rows, name), start=1):
        record = _paths.href(page, _paths.record_page(row.id))
        value = row.per_accelerator.get(name)
        cells: list[object] = [
            Cell(rank, sort=rank),
            _record_cell(context, page, row),
            Cell(link(record, _figure(value, "")), sort=value, class_="throughput"),
        ]
        for pair in latencies:
            seconds, stated = row.latencies.get(pair, (None, None))
            shown = link(record, _seconds(seconds)) if seconds is not None else "—"
            cells.append(Cell(shown, sort=seconds, title=stated))
        cells += [
            roofline_cell(row, name),
            row.precision,
            _engine(context, page, row),
            _system(context, page, row),
        ]
        body.append(cells)
    numeric = (0, *range(2, 4 + len(latencies)))
    return table(headers, body, sortable=True, numeric=numeric)


def _record_cell(context: SiteContext, page: str, row: Entry) -> Html:
    """The row's record, and in words its context when that is beyond the model's maximum."""
    record = context.record_link(page, row.id, row.id.split("/", 1)[1])
    beyond = context.beyond_max_context(row.model, row.context_tokens)
    return join([record, f" (context {row.context_tokens:,} tokens, {beyond})"]) if beyond else record


def roofline_cell(row: Entry, metric: str) -> Cell:
    """The fraction of its tightest physical bound the row's figure reaches, the bound named in the
    cell's title; a dash when no bound on it could be computed."""
    bound = row.roofline.get(metric)
    reached = bound.reached if bound is not None else None
    if bound is None or reached is None:
        return Cell("—", title="no bound computable on this figure (its page says why)")
    return Cell(percent(reached), sort=float(reached), title=bound.what, class_="roofline")


def _label(context: SiteContext, row: Entry) -> str:
    """A chart row's label: the system's name, else its hardware and count (text, escaped in the SVG)."""
    hardware = ", ".join(f"{context.title_of(h)} × {n}" for h, n in row.hardware)
    return f"{row.system} ({hardware})" if row.system else hardware or row.id


def board_chart(context: SiteContext, rows: list[Entry], metric: tuple[str, str], title: str) -> Html:
    """Throughput per accelerator by system, highest first, coloured by accelerator."""
    name, unit = metric
    ranked = [row for row in _ranked(rows, name) if name in row.per_accelerator]
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
    """A leaderboard page: what it ranks, the chart, and the table."""
    page, (model, benchmark, scenario) = page_of(board), board
    metric = metric_of(rows)
    title = f"{model_name(context, model)}, {board_words(board)}"
    ranks = (
        f"Ranked by {metric[0]} per accelerator ({metric[1]}): a figure stated for the whole system is "
        "divided by the accelerators the run used."
        if metric
        else "No record here states a throughput; the table lists them as they are."
    )
    intro = element(
        "p",
        join(
            [
                f"{len(rows):,} benchmark record{'s' if len(rows) != 1 else ''} of ",
                context.record_link(page, model),
                f"{', benchmark ' + benchmark if benchmark else ''}, scenario {scenario}. {ranks} ",
                "% of roofline is the fraction of its tightest physical bound "
                "(compute roof, memory bandwidth) the figure reaches, from the vendor's dense peaks; a dash "
                "where none can be computed, the record's page says why. Latencies are per request, as each "
                "record states them. ",
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
        _parts.front_matter(f"Leaderboard: {title}", hide=("toc",))
        + block(element("h1", f"Leaderboard: {title}"), intro)
        + chart
        + block(board_table(context, page, rows, metric), class_="leaderboard", searchable=False)
    )


def render_hardware(context: SiteContext, hardware: str, rows: list[Entry]) -> str:
    """An accelerator's page: every benchmark on it, by model and scenario, best per accelerator first."""
    page = hardware_page(hardware)
    name = context.title_of(hardware)
    groups: dict[Board, list[Entry]] = defaultdict(list)
    for row in rows:
        groups[(row.model, row.benchmark, row.scenario)].append(row)
    body = []
    for board, group in sorted(groups.items()):
        model = board[0]
        metric = metric_of(group)
        for row in _ranked(group, metric[0] if metric else None):
            value = row.per_accelerator.get(metric[0]) if metric else None
            body.append(
                [
                    context.record_link(page, model, model.split("/", 1)[1]),
                    link(_paths.href(page, page_of(board)), board_words(board)),
                    context.record_link(page, row.id, row.id.split("/", 1)[1]),
                    Cell(_figure(value, metric[1] if metric else ""), sort=value),
                    roofline_cell(row, metric[0]) if metric else Cell("—"),
                    row.precision,
                    _engine(context, page, row),
                    _system(context, page, row),
                ]
            )
    headers = [
        "Model",
        "Scenario",
        "Record",
        "Per accelerator",
        "% of roofline",
        "Precision",
        "Engine",
        "System",
    ]
    intro = element(
        "p",
        join(
            [
                f"{len(rows):,} benchmark record{'s' if len(rows) != 1 else ''} on ",
                context.record_link(page, hardware),
                ", by model and scenario; within each, the highest throughput per accelerator first. ",
                link(_paths.href(page, INDEX), "All leaderboards"),
                ".",
            ]
        ),
    )
    return (
        _parts.front_matter(f"Results on {name}", hide=("toc",))
        + block(element("h1", f"Results on {name}"), intro)
        + block(table(headers, body, sortable=True, numeric=(3, 4)), class_="leaderboard", searchable=False)
    )


def render_index(context: SiteContext, boards: Boards) -> str:
    """The leaderboards' index: one row per model and scenario, one per accelerator."""
    board_rows = []
    for board, rows in sorted(boards.by_board.items()):
        model = board[0]
        metric = metric_of(rows)
        best = max(row.per_accelerator.get(metric[0], 0.0) for row in rows) if metric else None
        board_rows.append(
            [
                link(_paths.href(INDEX, page_of(board)), model_name(context, model)),
                board_words(board),
                Cell(f"{len(rows):,}", sort=len(rows)),
                Cell(_figure(best, metric[1]) if metric else "—", sort=best),
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
        "scenario; and each accelerator's results across models. Figures are the records' own, as stated.\n"
        + "\n## By model and scenario\n"
        + block(
            table(
                ["Model", "Scenario", "Records", "Best per accelerator"],
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
