"""A benchmark record as a leaderboard row: its throughput per accelerator and per system (which of the
two the site derived), its latency figures and the limits it ran under, its precisions, where it comes
from, and the % of roofline its figures reach (the tightest computable physical bound the check worked
out for them, read from the results, never recomputed). Only what the record states: a field the record
leaves out (a batch, an engine layout) is left out here too, never filled from the schema's default."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from registry.bounds import Bound
from registry.engine.units import QuantityError, parse_quantity
from registry.kinds.records import Benchmark
from registry.results import Results
from registry.site._bounds import roofline

THROUGHPUTS = (
    ("output_throughput", "output tok/s"),
    ("total_throughput", "total tok/s"),
    ("goodput", "goodput tok/s"),
    ("request_throughput", "req/s"),
    ("sample_throughput", "samples/s"),
    ("query_throughput", "queries/s"),
)
"""The throughput metrics a leaderboard ranks by, in order of preference, and the unit it shows each in:
a leaderboard ranks by the first of these that any of its rows states."""

LATENCIES = ("ttft", "tpot", "itl", "e2e_latency")
LATENCY_NAMES = {"ttft": "TTFT", "tpot": "TPOT", "itl": "ITL", "e2e_latency": "E2E"}
STATISTIC_ORDER = ("value", "mean", "median", "p90", "p95", "p99", "p99.9", "max", "min")
NOT_STATED = "not-stated"
"""The scenario slug of benchmarks whose source does not say how load was offered."""


@dataclass(frozen=True)
class Origin:
    """Where a result comes from, as its record says: the source (``mlperf``, a serving tool, or
    ``manual`` for a hand-written record), an MLPerf result's round, division, availability, result ID
    and submitter, and the publisher its first source names."""

    source: str | None = None
    round: str | None = None
    division: str | None = None
    availability: str | None = None
    result_id: str | None = None
    submitter: str | None = None
    publisher: str | None = None


@dataclass(frozen=True)
class Limit:
    """A latency target the ranked figure had to meet: ``tpot p99 <= 80 ms`` (seconds for sorting)."""

    metric: str
    statistic: str
    limit: str
    seconds: float | None


@dataclass(frozen=True)
class Entry:
    """One benchmark as a leaderboard row: its throughputs per accelerator (tokens or requests per
    second, by metric), its latency figures (seconds and as written, by metric and statistic), and
    the words and record ids its other cells show."""

    id: str
    model: str
    benchmark: str
    """The benchmark as the source names it (MLPerf's ``llama2-70b-99.9``), or "" when it names none:
    benchmarks of one model with other accuracy targets are other leaderboards."""
    scenario: str
    hardware: tuple[tuple[str, int], ...]
    accelerators: int | None
    per_accelerator: dict[str, float]
    latencies: dict[tuple[str, str], tuple[float, str]]
    precision: str
    engine: str | None
    engine_version: str | None
    system: str | None
    roofline: dict[str, Bound] = field(default_factory=dict)
    """By throughput metric: the tightest computable physical bound on the figure the row shows."""
    context_tokens: int | None = None
    """The run's context, when the record states one (its row says so when the model's maximum is
    shorter)."""
    title: str = ""
    per_system: dict[str, float] = field(default_factory=dict)
    derived: frozenset[str] = frozenset()
    """The metrics whose per-accelerator figure the site derived (the system's figure divided by the
    accelerators), not one the record states."""
    derived_per_system: frozenset[str] = frozenset()
    """The metrics whose per-system figure the site derived (per accelerator times the accelerators)."""
    limits: tuple[Limit, ...] = ()
    """The latency targets the throughput figure ran under (MLPerf's TTFT and TPOT per scenario)."""
    weights: str | None = None
    kv_cache: str | None = None
    activations: str | None = None
    origin: Origin = field(default_factory=Origin)
    sweep: str | None = None
    """A sweep point's load in words (``concurrency 8``)."""


Board = tuple[str, str, str]
"""A leaderboard's key: the model, the benchmark ("" when the source names none) and the scenario."""


def board_of(record: Benchmark) -> Board:
    """The leaderboard a benchmark record is ranked on."""
    benchmark = record.provenance.benchmark if record.provenance else None
    return (record.model, benchmark or "", record.scenario or NOT_STATED)


def entry_of(record: Benchmark, bounds: tuple[Bound, ...] = ()) -> Entry:
    """The row of one benchmark record: a per-system throughput is divided by the accelerator count
    (a record that states no count has no per-accelerator figure), a per-accelerator one is taken as it is;
    ``bounds`` (the record's, from the results) give the % of roofline of the figure shown."""
    count = record.accelerator_count
    per_accelerator: dict[str, float] = {}
    per_system: dict[str, float] = {}
    derived: set[str] = set()
    derived_system: set[str] = set()
    reached: dict[str, Bound] = {}
    limits: tuple[Limit, ...] = ()
    for metric, _unit in THROUGHPUTS:
        accelerator = record.headline(metric, "accelerator")
        system = record.headline(metric, "system")
        one = _si(accelerator.stated) if accelerator is not None else None
        whole = _si(system.stated) if system is not None else None
        if one is None and whole is not None and count:
            one = whole / count
            derived.add(metric)
        if whole is None and one is not None and count and metric not in derived:
            whole = one * count
            derived_system.add(metric)
        if whole is not None:
            per_system[metric] = whole
        figure = accelerator if accelerator is not None and _si(accelerator.stated) is not None else system
        if one is None or figure is None:
            continue
        per_accelerator[metric] = one
        if not limits:
            limits = tuple(Limit(c.metric, c.statistic, c.limit, _si(c.limit)) for c in figure.constraints)
        tightest = roofline(bounds, next(i for i, m in enumerate(record.metrics) if m is figure))
        if tightest is not None:
            reached[metric] = tightest
    latencies: dict[tuple[str, str], tuple[float, str]] = {}
    for measured in record.metrics:
        if measured.metric in LATENCIES and measured.per == "request":
            seconds = _si(measured.stated)
            if seconds is not None:
                latencies.setdefault((measured.metric, measured.statistic), (seconds, measured.stated))
    parts = record.system.accelerators if record.system else None
    if parts:
        hardware = tuple((part.hardware, part.count) for part in parts)
    else:
        hardware = ((record.hardware, record.hardware_count or 0),) if record.hardware else ()
    return Entry(
        id=record.id,
        model=record.model,
        benchmark=board_of(record)[1],
        scenario=record.scenario or NOT_STATED,
        hardware=hardware,
        accelerators=count,
        per_accelerator=per_accelerator,
        latencies=latencies,
        precision=precision_words(record),
        engine=record.engine,
        engine_version=record.engine_version,
        system=record.system.name if record.system else None,
        roofline=reached,
        context_tokens=record.context,
        title=record.title,
        per_system=per_system,
        derived=frozenset(derived),
        derived_per_system=frozenset(derived_system),
        limits=limits,
        weights=record.precision.weights or "/".join(record.precision.weight_formats or []) or None,
        kv_cache=record.precision.kv_cache,
        activations=record.precision.activations,
        origin=origin_of(record),
        sweep=f"{record.sweep.parameter.replace('_', ' ')} {record.sweep.value:g}" if record.sweep else None,
    )


def origin_of(record: Benchmark) -> Origin:
    """Where the record's result comes from, as far as it says."""
    source = record.provenance
    publisher = next((s.publisher for s in record.sources if s.publisher), None)
    if source is None:
        return Origin(publisher=publisher)
    return Origin(
        source=source.source,
        round=source.round,
        division=source.division,
        availability=source.availability,
        result_id=source.result_id,
        submitter=source.submitter,
        publisher=publisher,
    )


def _si(stated: str) -> float | None:
    try:
        return float(parse_quantity(stated).value)
    except QuantityError:
        return None


def precision_words(record: Benchmark) -> str:
    """``weights fp4, activations fp8, KV fp8``: the formats the run used, as far as the record says."""
    precision = record.precision
    weights = precision.weights or "/".join(precision.weight_formats or []) or "not stated"
    words = [f"weights {weights}"]
    if precision.activations:
        words.append(f"activations {precision.activations}")
    if precision.kv_cache:
        words.append(f"KV {precision.kv_cache}")
    return ", ".join(words)


@dataclass
class Boards:
    """Every benchmark's row, grouped by model, benchmark and scenario and by accelerator (ids sorted)."""

    by_board: dict[Board, list[Entry]] = field(default_factory=lambda: defaultdict(list))
    by_hardware: dict[str, list[Entry]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, records: Iterable[Benchmark], results: Results | None = None) -> Boards:
        boards = cls()
        for record in records:
            run = results.runs.get(record.id) if results is not None else None
            row = entry_of(record, run.bounds if run is not None else ())
            boards.by_board[(row.model, row.benchmark, row.scenario)].append(row)
            for hardware in dict(row.hardware):
                boards.by_hardware[hardware].append(row)
        return boards


def metric_of(rows: Iterable[Entry]) -> tuple[str, str] | None:
    """The throughput metric a set of rows is ranked by, and its unit: the first any row states."""
    stated = {metric for row in rows for metric in row.per_accelerator}
    return next(((m, unit) for m, unit in THROUGHPUTS if m in stated), None)
