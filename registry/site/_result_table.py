"""Benchmark results as a readable table: the columns that decide a choice first, the rest behind
"more columns".

The first columns are the ones a reader chooses by: the system (its name, linked to the record), its
accelerators (``8 × NVIDIA B200``), the engine and its version as the record writes them, the weights and
KV-cache formats, the scenario, the throughput per accelerator and per system (a figure the site derived
is marked so), the latency the result met (measured, or the limit it ran under, said which), the share
of its tightest physical bound with that bound's name, and where the result comes from. Every latency
statistic the records state, the benchmark's name, the context and the record's id follow behind
"more columns". Nothing is shown that the record does not state.
"""

from __future__ import annotations

from collections.abc import Sequence

from registry.bounds import percent
from registry.site import _figures, _paths
from registry.site._bounds import BOUND_NAMES
from registry.site._context import SiteContext
from registry.site._html import Cell, Html, element, join, link
from registry.site._leaderboard_rows import (
    LATENCIES,
    LATENCY_NAMES,
    NOT_STATED,
    STATISTIC_ORDER,
    Entry,
    Limit,
    metric_of,
)
from registry.site._tables import Column, Row, readable_block

__all__ = [
    "SCENARIO_WORDS",
    "engine_name",
    "ranked",
    "result_columns",
    "result_row",
    "results_table",
    "scenario_words",
]

SCENARIO_WORDS = {
    "offline": "Offline",
    "server": "Server",
    "interactive": "Interactive",
    "single-stream": "Single stream",
    "multi-stream": "Multi-stream",
    "sweep-point": "Sweep point",
    NOT_STATED: "not stated",
}

BREAK = Html("<br>")

LATENCY_PREFERENCE = ("p99", "p95", "p90", "median", "mean", "value")
"""Which statistic of a latency the "latency met" column shows: the tail first, as MLPerf's limits are."""


def scenario_words(entry: Entry) -> str:
    """``Server``; a sweep point with its load, ``Sweep point, concurrency 8``."""
    words = SCENARIO_WORDS.get(entry.scenario, entry.scenario)
    return f"{words}, {entry.sweep}" if entry.sweep else words


def ranked(entries: Sequence[Entry], metric: str | None) -> list[Entry]:
    """Highest throughput per accelerator first, rows without the figure last, then by id."""
    return sorted(
        entries,
        key=lambda r: (metric not in r.per_accelerator, -r.per_accelerator.get(metric or "", 0.0), r.id),
    )


def result_columns(
    metric: tuple[str, str] | None,
    entries: Sequence[Entry] = (),
    *,
    with_model: bool = False,
    with_scenario: bool = True,
    latency_columns: bool = True,
) -> list[Column]:
    """The table's columns for rows ranked by ``metric`` (name and unit words, ``output tok/s``): the
    deciding ones, then, behind "more", the details and (with ``latency_columns``) one column per
    latency statistic ``entries`` state."""
    unit = metric[1] if metric else "throughput"
    present = {pair for entry in entries for pair in entry.latencies} if latency_columns else set()
    latencies = [
        Column(f"{m}:{s}", f"{LATENCY_NAMES[m]} {s}", numeric=True, more=True)
        for m in LATENCIES
        for s in STATISTIC_ORDER
        if (m, s) in present
    ]
    return [
        Column(
            "system", "System", explain="The system's name as its source gives it; each links to the record"
        ),
        *([Column("model", "Model")] if with_model else []),
        Column("accelerators", "Accelerators", numeric=False),
        Column("engine", "Engine", explain="The engine and its version, as the record writes them"),
        Column("precision", "Weights / KV", explain="The weight format and the KV-cache format"),
        *([Column("scenario", "Scenario")] if with_scenario else []),
        Column("per_accelerator", f"{unit.capitalize()} per accelerator", numeric=True),
        Column("per_system", f"{unit.capitalize()} per system", numeric=True),
        Column(
            "latency",
            "Latency met",
            numeric=True,
            explain="Measured time to first token and per output token (the tail the source states), or "
            "the limits the run had to meet; sorted by time per output token",
        ),
        Column(
            "bound",
            "% of bound",
            numeric=True,
            explain="The share of its tightest physical bound (compute roof, memory bandwidth) the figure "
            "reaches, with that bound's name",
        ),
        Column("source", "Source"),
        Column("benchmark", "Benchmark", more=True),
        Column("activations", "Activations", more=True),
        Column("context", "Context (tokens)", numeric=True, more=True),
        *latencies,
        Column("record", "Record", more=True),
    ]


def _name(context: SiteContext, record_id: str) -> str:
    """A record's ``name`` (``NVIDIA B200 SXM``, ``SGLang``) where it has one, else its title."""
    entry = context.index.get(record_id)
    if entry is None:
        return record_id
    name = getattr(entry.record, "name", None)
    return name if isinstance(name, str) and name else entry.title


def _accelerators(context: SiteContext, page: str, entry: Entry) -> Cell:
    parts: list[object] = []
    for hardware, count in entry.hardware:
        label = f"{count:,} × {_name(context, hardware)}" if count else _name(context, hardware)
        parts += [context.record_link(page, hardware, label), BREAK]
    return Cell(join(parts[:-1]), sort=entry.accelerators) if parts else Cell("")


def _engine(context: SiteContext, page: str, entry: Entry) -> Html | str:
    """The engine's name and the version the run used, as the record writes it; never the version the
    engine's own record was read at."""
    version = element("small", entry.engine_version) if entry.engine_version else ""
    if entry.engine is None:
        return join([version]) if version else "not stated"
    name = context.record_link(page, entry.engine, _name(context, entry.engine))
    return join([name, BREAK, version]) if version else name


def engine_name(context: SiteContext, page: str, entry: Entry) -> Cell:
    """The engine's name alone, its version as the record writes it on hover: for a narrow table."""
    if entry.engine is None:
        return Cell(entry.engine_version or "not stated")
    named = context.record_link(page, entry.engine, _name(context, entry.engine))
    return Cell(named, sort=_name(context, entry.engine), title=entry.engine_version)


def _precision(entry: Entry) -> str:
    weights = entry.weights or "not stated"
    return f"{weights} / {entry.kv_cache}" if entry.kv_cache else f"{weights} / KV not stated"


def _throughput(value: float | None, derived: bool, working: str, href: str) -> Cell:
    if value is None:
        return Cell("")
    shown = _figures.Shown(_figures.number(value), value, working if derived else None, derived=derived)
    return _figures.cell(shown, href=href)


def _latency(entry: Entry) -> Cell:
    """Measured TTFT and TPOT at the tail the record states, else the limits it ran under."""
    measured = []
    for metric in ("ttft", "tpot"):
        found = next(
            ((s, entry.latencies[(metric, s)]) for s in LATENCY_PREFERENCE if (metric, s) in entry.latencies),
            None,
        )
        if found is not None:
            statistic, (seconds, _stated) = found
            measured.append((metric, statistic, seconds))
    if measured:
        lines = [f"{LATENCY_NAMES[m]} {s} {_figures.seconds(v)}" for m, s, v in measured]
        sort = next((v for m, _, v in measured if m == "tpot"), measured[0][2])
        return Cell(join([*_lines(lines), BREAK, element("small", "measured")]), sort=sort)
    limits = [limit for limit in entry.limits if limit.metric in LATENCY_NAMES]
    if not limits:
        return Cell("")
    lines = [f"{LATENCY_NAMES[c.metric]} {c.statistic} ≤ {_limit(c)}" for c in limits]
    tpot = next((c.seconds for c in limits if c.metric == "tpot"), None)
    return Cell(join([*_lines(lines), BREAK, element("small", "limit")]), sort=tpot or limits[0].seconds)


def _limit(limit: Limit) -> str:
    return _figures.seconds(limit.seconds) if limit.seconds is not None else limit.limit


def _lines(lines: list[str]) -> list[object]:
    parts: list[object] = []
    for line in lines:
        parts += [line, BREAK]
    return parts[:-1]


def _bound(entry: Entry, metric: str) -> Cell:
    bound = entry.roofline.get(metric)
    reached = bound.reached if bound is not None else None
    if bound is None or reached is None:
        return Cell("")
    words = join([percent(reached), BREAK, element("small", BOUND_NAMES.get(bound.kind, bound.kind))])
    return Cell(words, sort=float(reached), title=bound.what)


def _source(entry: Entry) -> Cell:
    """An MLPerf result's round, division, availability and result ID; else the publisher its source
    names, and the tool whose file it was read from."""
    origin = entry.origin
    if origin.source == "mlperf":
        details = " · ".join(w for w in (origin.division, origin.availability, origin.result_id) if w)
        head = f"MLPerf {origin.round}" if origin.round else "MLPerf"
        return Cell(
            join([head, BREAK, element("small", details)]) if details else head, title=origin.submitter
        )
    tool = origin.source if origin.source and origin.source != "manual" else None
    if origin.publisher and tool:
        return Cell(join([origin.publisher, BREAK, element("small", f"{tool} file")]))
    return Cell(origin.publisher or (f"{tool} file" if tool else ""))


def _system(context: SiteContext, entry: Entry, named: Html, name: str) -> Cell:
    """The system's name, linked to the record, and in words the run's context when it is beyond the
    model's maximum (R012: text, not only a colour, so every reader sees it)."""
    beyond = context.beyond_max_context(entry.model, entry.context_tokens)
    if not beyond:
        return Cell(named, sort=name)
    words = f"context {entry.context_tokens:,} tokens, {beyond}"
    return Cell(join([named, BREAK, element("small", words)]), sort=name)


def result_row(context: SiteContext, page: str, entry: Entry, metric: tuple[str, str] | None) -> Row:
    """One benchmark record's cells, by column key."""
    href = _paths.href(page, _paths.record_page(entry.id))
    name, unit = metric or ("", "")
    system_name = entry.system or entry.title
    count = entry.accelerators or 0
    per_system = entry.per_system.get(name)
    working = (
        f"derived: {_figures.quantity(per_system, unit)} for the system ÷ {count:,} accelerators"
        if per_system is not None
        else "derived"
    )
    per_one = entry.per_accelerator.get(name)
    system_working = (
        f"derived: {_figures.quantity(per_one, unit)} per accelerator × {count:,}"
        if per_one is not None
        else ""
    )
    row: dict[str, object] = {
        "system": _system(context, entry, link(href, system_name), system_name),
        "model": context.record_link(page, entry.model, _name(context, entry.model)),
        "accelerators": _accelerators(context, page, entry),
        "engine": _engine(context, page, entry),
        "precision": _precision(entry),
        "scenario": scenario_words(entry),
        "per_accelerator": _throughput(per_one, name in entry.derived, working, href),
        "per_system": _throughput(per_system, name in entry.derived_per_system, system_working, href),
        "latency": _latency(entry),
        "bound": _bound(entry, name),
        "source": _source(entry),
        "benchmark": entry.benchmark,
        "activations": entry.activations,
        "context": Cell(f"{entry.context_tokens:,}", sort=entry.context_tokens)
        if entry.context_tokens
        else "",
        "record": Cell(element("code", entry.id.split("/", 1)[1]), sort=entry.id),
    }
    for (metric_name, statistic), (seconds, stated) in entry.latencies.items():
        row[f"{metric_name}:{statistic}"] = Cell(_figures.seconds(seconds), sort=seconds, title=stated)
    return row


def results_table(
    context: SiteContext,
    page: str,
    entries: Sequence[Entry],
    *,
    metric: tuple[str, str] | None = None,
    with_model: bool = False,
    with_scenario: bool = True,
    latency_columns: bool = True,
    caption: str | None = None,
    keep_order: bool = False,
) -> str:
    """The readable table of ``entries``, highest throughput per accelerator first, as a raw block of
    a Markdown page; ``metric`` defaults to the first throughput any row states. A note above it says
    what the derived mark means when a shown figure is derived. A page of one model (one scenario)
    leaves its column out with ``with_model`` (``with_scenario``) false; ``keep_order`` keeps the
    order ``entries`` come in (a page of several models, grouped by model)."""
    chosen = metric or metric_of(entries)
    name = chosen[0] if chosen else None
    rows = list(entries) if keep_order else ranked(entries, name)
    derived = any(name in e.derived or name in e.derived_per_system for e in rows) if name else False
    return readable_block(
        result_columns(
            chosen, rows, with_model=with_model, with_scenario=with_scenario, latency_columns=latency_columns
        ),
        [result_row(context, page, entry, chosen) for entry in rows],
        label="system",
        caption=caption,
        note=_figures.DERIVED_NOTE if derived else "",
    )
