"""The "Serving results" summary of a model, hardware or engine page: how many benchmark records name
it, and the best result per accelerator of each group (a model's per scenario and accelerator, a
part's per model and scenario), each with its system, engine and precision, linked to its record and
its leaderboard; or, in words, that the registry holds none yet.

It replaces the list of every benchmark that links to the record: a reader wants the best figures and
a way to all of them, not a hundred titles. The rows are the leaderboards' (``SiteContext.boards``),
made once for the whole site.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from registry.site import _figures, _parts, _paths
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, block, element, escape, join, link
from registry.site._leaderboard_rows import Entry, metric_of
from registry.site._leaderboards import INDEX, WIDE, board_words, hardware_page, model_name, page_of
from registry.site._result_table import engine_name, ranked, result_row
from registry.site._tables import Column, Row, readable_block

__all__ = ["BENCHMARKS_INDEX", "benchmarks_index", "engine_section", "hardware_section", "model_section"]

BENCHMARKS_INDEX = _paths.collection_page("benchmarks")

HEADING = "## Serving results\n"


def _best(
    context: SiteContext, page: str, group: Sequence[Entry], versions: bool = False
) -> tuple[Row, bool] | None:
    """The group's best result per accelerator as a row (the leaderboard's cells, the figure with its
    unit, as groups of one page may rank by different metrics, the scenario linked to its
    leaderboard), and whether its figure is derived; None when no row states a throughput. The engine
    is named alone, its version on hover, unless ``versions`` (an engine's own page, where the version
    is what tells its rows apart)."""
    metric = metric_of(group)
    if metric is None:
        return None
    best = ranked(group, metric[0])[0]
    row = dict(result_row(context, page, best, metric))
    value = best.per_accelerator[metric[0]]
    derived = metric[0] in best.derived
    working = (
        f"derived: {_figures.quantity(best.per_system[metric[0]], metric[1])} for the system ÷ "
        f"{best.accelerators or 0:,} accelerators"
        if derived and metric[0] in best.per_system
        else None
    )
    shown = _figures.Shown(_figures.quantity(value, metric[1]), value, working, derived=derived)
    record = _paths.href(page, _paths.record_page(best.id))
    row["per_accelerator"] = _figures.cell(shown, href=record)
    board = (best.model, best.benchmark, best.scenario)
    row["scenario"] = Cell(
        link(_paths.href(page, page_of(board)), board_words(board)), sort=board_words(board)
    )
    row["model"] = context.record_link(page, best.model, model_name(context, best.model))
    row["count"] = Cell(f"{len(group):,}", sort=len(group))
    if not versions:  # the engine's name alone, its version on hover: a narrow column
        row["engine"] = engine_name(context, page, best)
    return row, derived


def _section(
    context: SiteContext,
    page: str,
    entries: Sequence[Entry],
    key: Callable[[Entry], tuple[str, ...]],
    columns: Sequence[Column],
    intro: Html,
    none: str,
    versions: bool = False,
) -> str:
    if not entries:
        return HEADING + "\n" + none + "\n\n"
    groups: dict[tuple[str, ...], list[Entry]] = defaultdict(list)
    for entry in entries:
        groups[key(entry)].append(entry)
    best = [found for _, group in sorted(groups.items()) if (found := _best(context, page, group, versions))]
    rows = [row for row, _ in best]
    derived = any(is_derived for _, is_derived in best)
    note = _figures.DERIVED_NOTE if derived else ""
    return (
        HEADING + block(element("p", intro)) + readable_block(list(columns), rows, label="system", note=note)
    )


BEST = Column("per_accelerator", "Best per accelerator", numeric=True)
SYSTEM = Column("system", "System")
ENGINE = Column("engine", "Engine")
PRECISION = Column("precision", "Weights / KV")
SCENARIO = Column("scenario", "Leaderboard", explain="The benchmark, if named, and the scenario")
ACCELERATORS = Column("accelerators", "Accelerators")
MODEL = Column("model", "Model")
COUNT = Column("count", "Results", numeric=True)
LATENCY = Column(
    "latency", "Latency met", numeric=True, explain="Measured TTFT and TPOT, or the limits run under"
)
BOUND = Column(
    "bound", "% of bound", numeric=True, explain="The share of its tightest physical bound reached"
)
SOURCE = Column("source", "Source")


def _parts_of(entry: Entry) -> str:
    return " + ".join(hardware for hardware, _ in entry.hardware)


def _count(entries: Sequence[Entry]) -> str:
    return f"{len(entries):,} serving result{'s' if len(entries) != 1 else ''}"


def model_section(context: SiteContext, page: str, model: str) -> str:
    """A model's results: the best per accelerator for each leaderboard and accelerator."""
    entries = [row for board, rows in context.boards.by_board.items() if board[0] == model for row in rows]
    results = _paths.results_page(model)
    intro = join(
        [
            f"{_count(entries)} of this model in the registry; below, the best per accelerator for each "
            "scenario and accelerator. Every one of them, on a chart of throughput against interactivity: ",
            link(_paths.href(page, results), "its serving results"),
            ".",
        ]
    )
    return _section(
        context,
        page,
        entries,
        lambda e: (e.benchmark, e.scenario, _parts_of(e)),
        [SCENARIO, ACCELERATORS, BEST, SYSTEM, ENGINE, PRECISION, COUNT],
        intro,
        "The registry holds no serving result of this model yet.",
    )


def hardware_section(context: SiteContext, page: str, hardware: str) -> str:
    """A part's results: the best per accelerator for each model and leaderboard it ran."""
    entries = context.boards.by_hardware.get(hardware, [])
    intro = join(
        [
            f"{_count(entries)} on this hardware; below, the best per accelerator for each model and "
            "scenario. Every one of them, side by side: ",
            link(_paths.href(page, hardware_page(hardware)), "its results"),
            ".",
        ]
    )
    return _section(
        context,
        page,
        entries,
        lambda e: (e.model, e.benchmark, e.scenario),
        [MODEL, SCENARIO, ACCELERATORS, BEST, SYSTEM, ENGINE, PRECISION, COUNT],
        intro,
        "The registry holds no serving result on this hardware yet.",
    )


def engine_section(context: SiteContext, page: str, engine: str) -> str:
    """An engine's results: the best per accelerator for each model, leaderboard and accelerator."""
    entries = [row for rows in context.boards.by_board.values() for row in rows if row.engine == engine]
    intro = escape(
        f"{_count(entries)} served by this engine; below, the best per accelerator for each model, "
        "scenario and accelerator, each with the engine version it ran."
    )
    return _section(
        context,
        page,
        entries,
        lambda e: (e.model, e.benchmark, e.scenario, _parts_of(e)),
        [MODEL, SCENARIO, ACCELERATORS, BEST, SYSTEM, ENGINE, PRECISION, COUNT],
        intro,
        "The registry holds no serving result run on this engine yet.",
        versions=True,
    )


def _models(boards: dict[tuple[str, str, str], list[Entry]]) -> str:
    models = len({board[0] for board in boards})
    return f"{models:,} model{'s' if models != 1 else ''}"


def benchmarks_index(context: SiteContext) -> str:
    """The benchmarks index: one row per model and leaderboard (benchmark and scenario) with how many
    results it holds and its best per accelerator, that result's system, accelerators, engine,
    precision, latency, bound and source; every result is on its leaderboard, one click on."""
    page = BENCHMARKS_INDEX
    boards = context.boards.by_board
    count = sum(len(rows) for rows in boards.values())
    best = [
        found
        for _, (board, rows) in sorted((model_name(context, b[0]), (b, r)) for b, r in boards.items())
        if (found := _best(context, page, rows))
    ]
    intro = join(
        [
            f"{count:,} serving measurement{'s' if count != 1 else ''} of {_models(boards)}, each a record "
            "with the run around it. One row per model and leaderboard (the benchmark, "
            "if its source names one, and the scenario): how many results it holds and the best per "
            "accelerator, with its system, engine, precision, the latency it met and where it comes from. "
            "Each leaderboard lists every result; each accelerator's results are in the ",
            link(_paths.href(page, INDEX), "leaderboards' index"),
            ".",
        ]
    )
    columns = [MODEL, SCENARIO, COUNT, SYSTEM, ACCELERATORS, ENGINE, PRECISION, BEST, LATENCY, BOUND, SOURCE]
    derived = any(is_derived for _, is_derived in best)
    table = (
        readable_block(
            columns, [row for row, _ in best], label="system", note=_figures.DERIVED_NOTE if derived else ""
        )
        if best
        else block(element("p", "No benchmark record yet."))
    )
    return (
        _parts.front_matter("Benchmarks", hide=WIDE)
        + block(element("h1", "Benchmarks"), element("p", intro))
        + table
    )
