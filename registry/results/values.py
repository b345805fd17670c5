"""The engine's results for a registry, as one value: every model's geometry, every run's own figures
and memory fit, every claim's verdict, and the derived figures of each geometry.

:func:`compute_results` works them out once, as ``registry check`` runs; the check turns them into
findings, and the database, the site and ``explain`` read them: none of them calls the engine itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from registry.bounds import Bound, RunFacts, bounds_of
from registry.checker.index import Entry, RegistryIndex
from registry.engine.claims import ClaimSpec, ClaimVerdict, check_claim
from registry.engine.compute import CacheResult, compute
from registry.engine.dtypes import get_dtype
from registry.engine.layers import LayerGroups
from registry.engine.units import parse_quantity
from registry.engine.variants import Run
from registry.kinds.records import Benchmark, Hardware, Model
from registry.results.bounds import (
    LEAST_KV_DTYPE,
    OPEN_DIVISION,
    KvFigure,
    coherent_host,
    open_division,
    run_facts,
    starting_formats,
)
from registry.results.figures import Figures, reasons
from registry.results.geometry import ModelGeometry, model_geometry
from registry.results.parameters import counted_parameters
from registry.results.specs import RUN_KINDS, RunRecord, claim_run, engine_key, run_at, run_of, spec_of


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """One claim of a run: its position in the record, the spec the engine took, and the verdict (None
    when the run's model has no geometry to check it against)."""

    position: int
    spec: ClaimSpec
    verdict: ClaimVerdict | None


@dataclass(frozen=True, slots=True)
class MemoryFit:
    """A run's weights and its batch's least cache against the memory of the hardware it names (bytes)."""

    weights: Fraction
    cache: Fraction
    memory: Fraction
    count: int
    """Units of the hardware record: ``hardware_count``, 1 when not stated."""
    weight_format: str = ""
    """The format the weights are counted in: the run's, or the narrowest of the formats it lists."""
    weight_note: str = ""
    """Why ``weight_format`` is not the stated one (an MLPerf row's 16-bit format, which may be the
    checkpoint the run started from), else empty."""
    replicas: int = 1
    """Copies of the weights: the run's data-parallel degree (each replica holds the whole model)."""
    cache_not_counted: str | None = None
    """Why the cache is not counted (its format or the context not stated): the fit is then the weights
    alone against the memory, still a bound the run must meet."""

    @property
    def counted_as(self) -> str:
        """The weights' format as a derivation writes it: the format, with why where it is not stated."""
        return f"{self.weight_format}: {self.weight_note}" if self.weight_note else self.weight_format

    @property
    def needed(self) -> Fraction:
        """The least memory the run takes: every replica's weights and the batch's cache."""
        return self.weights * self.replicas + self.cache

    @property
    def exceeds(self) -> bool:
        return self.needed > self.memory


@dataclass(frozen=True, slots=True)
class RunResult:
    """A kv-efficiency or benchmark record's results."""

    id: str
    run: Run | None
    """The run's conditions as the engine takes them (the record's own engine layout, written as is);
    None for a benchmark that states no context."""
    engine_layout: str | None
    """The engine's layout for the record's ``layout`` field; None when the engine has no rules for it."""
    geometry: ModelGeometry | None
    """The geometry of the model the run names; None when it names no model record."""
    problem: str | None
    """Why the run's figures cannot be computed at all: no model record, or a model without a layout."""
    result: CacheResult | str
    """The engine's computation of the run's own setting, with its trace, or why there is none."""
    claims: tuple[ClaimResult, ...]
    fit: MemoryFit | str | None
    """Weights and cache against the named hardware; why that cannot be computed (the weights' format,
    the KV cache's or the context not stated, no parameter count, no cache figure); None when no hardware
    is named."""
    bounds: tuple[Bound, ...] = ()
    """A benchmark's bounds on its stated figures (:mod:`registry.bounds`), computable or not."""
    facts: RunFacts | None = None
    """A benchmark's run as the bounds read it: what its roof curve (:mod:`registry.results.roof`) is
    drawn from."""

    @property
    def layout(self) -> LayerGroups | None:
        return None if self.geometry is None else self.geometry.layout


@dataclass
class Results:
    """Everything the engine gives for one registry, by record id."""

    models: dict[str, ModelGeometry] = field(default_factory=dict)
    runs: dict[str, RunResult] = field(default_factory=dict)
    figures: Figures = field(default_factory=Figures)

    def model(self, model_id: str) -> ModelGeometry | None:
        return self.models.get(model_id)

    def run(self, run_id: str) -> RunResult | None:
        return self.runs.get(run_id)

    def prepare_figures(self) -> None:
        """Make every geometry's derived figures now (see :meth:`Figures.prepare`)."""
        seen: dict[int, tuple[LayerGroups, Any]] = {}
        for geometry in self.models.values():
            if geometry.layout is not None:
                seen.setdefault(id(geometry), (geometry.layout, geometry.fields))
        self.figures.prepare(list(seen.values()))


def compute_results(index: RegistryIndex) -> Results:
    """Every model's geometry (referenced or not) and every run's results, each worked out once."""
    results = Results()
    geometry_of = _Geometries(index, results.models)
    caches: dict[tuple[Any, ...], KvFigure] = {}
    for entry in index:
        if entry.kind == "model":
            geometry_of(entry.id)
        elif entry.kind in RUN_KINDS:
            record = entry.record
            assert isinstance(record, RunRecord)
            results.runs[entry.id] = _run_result(index, record, geometry_of(record.model), caches)
    return results


class _Geometries:
    """Each model's geometry on first use; equal geometries are one object, so whatever is kept by
    geometry (the engine's memoised figures, :class:`Figures`) is made once for them all."""

    def __init__(self, index: RegistryIndex, models: dict[str, ModelGeometry]) -> None:
        self.index = index
        self.models = models
        self.equal: dict[tuple[Any, ...], ModelGeometry] = {}

    def __call__(self, model_id: str) -> ModelGeometry | None:
        found = self.models.get(model_id)
        if found is not None:
            return found
        entry = self.index.get(model_id)
        if entry is None or entry.kind != "model":
            return None
        model = entry.record
        assert isinstance(model, Model)
        geometry = model_geometry(model)
        if geometry.layout is not None:
            key = (geometry.layout, tuple(sorted(geometry.fields.items())), geometry.derived)
            geometry = self.equal.setdefault(key, geometry)
        self.models[model_id] = geometry
        return geometry


def _run_result(
    index: RegistryIndex,
    record: RunRecord,
    geometry: ModelGeometry | None,
    caches: dict[tuple[Any, ...], KvFigure],
) -> RunResult:
    run, key = run_of(record), engine_key(record.layout)
    problem = f"{record.model} is not a model record" if geometry is None else geometry.error
    layout = None if geometry is None else geometry.layout
    facts = (
        run_facts(
            index,
            record,
            geometry,
            _input_cache(layout, record, caches),
            _input_cache(layout, record, caches, key),
            _input_cache(layout, record, caches, "ideal", _output_growth(record)),
        )
        if isinstance(record, Benchmark)
        else None
    )
    bounds = bounds_of(facts) if facts is not None and facts.figures else ()
    if geometry is None or layout is None:
        claims = tuple(ClaimResult(at, spec_of(claim), None) for at, claim in enumerate(record.claims))
        return RunResult(record.id, run, key, geometry, problem, problem or "", claims, None, bounds, facts)
    claims = tuple(
        ClaimResult(at, spec, check_claim(spec, layout, geometry.fields, claim_run(record, run, spec)))
        for at, spec in enumerate(map(spec_of, record.claims))
    )
    if key is None:
        result: CacheResult | str = f"the formula engine has no rules for the layout {record.layout!r}"
    elif record.precision.kv_cache is None:
        result = KV_NOT_STATED
    elif run is None:
        result = CONTEXT_NOT_STATED
    else:
        result = _computed(lambda: _compute(layout, run))
    fit = _fit(index, record, layout, run, result)
    return RunResult(record.id, run, key, geometry, None, result, claims, fit, bounds, facts)


def _compute(layout: LayerGroups, run: Run) -> CacheResult:
    return compute(
        layout,
        context_tokens=run.context_tokens,
        batch=run.batch,
        kv_dtype=run.kv_dtype,
        state_dtype=run.state_dtype,
        engine_layout=run.engine_layout,
        model_dtype=run.model_dtype,
    )


def _output_growth(record: Benchmark) -> int:
    """Tokens a sequence's cache holds past its prompt at its last decode step (output tokens - 1), 0
    when the workload states no fixed output length."""
    workload = record.workload
    if workload is None or workload.lengths not in (None, "fixed") or not workload.output_tokens:
        return 0
    return workload.output_tokens - 1


def _input_cache(
    layout: LayerGroups | None,
    record: Benchmark,
    caches: dict[tuple[Any, ...], KvFigure],
    engine_layout: str | None = "ideal",
    past_prompt: int = 0,
) -> KvFigure:
    """One sequence's cache at the workload's input length under ``engine_layout``, or why there is
    none: under the ideal layout, the least any engine keeps, which a decode step reads; under the
    run's own, what its memory holds per sequence. Worked out once per layout, length and formats
    (``caches``), which the benchmarks of one model share."""
    if engine_layout is None:
        return f"the formula engine has no rules for the layout {record.layout!r}"
    tokens = record.workload.input_tokens if record.workload else None
    if layout is None:
        return f"{record.model} has no cache layout"
    if not tokens:
        return "the workload states no input length"
    run = run_at(record, tokens + past_prompt)
    if record.precision.kv_cache is None:
        if engine_layout != "ideal":
            return "the KV-cache format is not stated"
        run = replace(run, kv_dtype=LEAST_KV_DTYPE)
    key = (layout, tokens + past_prompt, run.kv_dtype, run.state_dtype, run.model_dtype, engine_layout)
    if key not in caches:
        caches[key] = _sequence_cache(layout, run, engine_layout)
    return caches[key]


def _sequence_cache(layout: LayerGroups, run: Run, engine_layout: str) -> KvFigure:
    result = _computed(
        lambda: compute(
            layout,
            context_tokens=run.context_tokens,
            kv_dtype=run.kv_dtype,
            state_dtype=run.state_dtype,
            engine_layout=engine_layout,
            model_dtype=run.model_dtype,
            traced=False,
        )
    )
    if isinstance(result, str):
        return result
    if result.total_bytes is None:
        return reasons(result) or "the engine gives no cache figure"
    return Fraction(result.total_bytes)


def _computed(make: Callable[[], CacheResult]) -> CacheResult | str:
    """The engine's result, or the reason it could not compute one (a message, never an exception)."""
    try:
        return make()
    except ValueError as error:
        return str(error)


# ---------------------------------------------------------------- does the run fit its hardware?


KV_NOT_STATED = "'precision.kv_cache' is null: the source does not say how the KV cache was stored"
"""Why a benchmark that leaves its KV-cache format unstated has no cache figure."""
CONTEXT_NOT_STATED = "'context_tokens' is not stated: the source gives no context length for the run"
"""Why a benchmark that states no context has no cache figure and no memory fit."""


def _fit(
    index: RegistryIndex, record: RunRecord, layout: LayerGroups, run: Run | None, result: CacheResult | str
) -> MemoryFit | str | None:
    hardware = index.get(record.hardware) if record.hardware else None
    model = index.get(record.model)
    if hardware is None or model is None or not isinstance(hardware.record, Hardware):
        return None
    if isinstance(record, Benchmark) and open_division(record):
        return OPEN_DIVISION
    coherent = coherent_host(hardware.id, hardware.record)
    if coherent is not None:
        return coherent
    weight_format = _weight_format(record)
    note = ""
    if isinstance(record, Benchmark) and starting_formats(record) is not None and weight_format is not None:
        note = f"the stated {weight_format} may be the checkpoint the run started from, which MLPerf lets it quantize"
        weight_format = LEAST_KV_DTYPE
    weights = _weights(model, weight_format, counted=isinstance(record, Benchmark))
    if isinstance(weights, str):
        return weights
    count = record.hardware_count or 1
    memory = parse_quantity(hardware.record.memory_per_device).value * hardware.record.devices * count
    uncounted = KV_NOT_STATED if record.precision.kv_cache is None else None
    uncounted = uncounted or (CONTEXT_NOT_STATED if run is None else None)
    if uncounted is not None or run is None:
        # The weights alone, at the narrowest stated format, still bound the run: they must fit.
        return MemoryFit(
            weights, Fraction(0), memory, count, weight_format or "", note, _replicas(record), uncounted
        )
    cache = _least_cache(layout, run, result)
    if cache is None:
        return result if isinstance(result, str) else "the engine gives no cache figure for this run"
    return MemoryFit(weights, cache, memory, count, weight_format or "", note, _replicas(record))


def _weight_format(record: RunRecord) -> str | None:
    """The run's weight format; for a benchmark listing several, the narrowest (a lower bound on the
    weights' bytes, whatever share each format has)."""
    if record.precision.weights is not None or not isinstance(record, Benchmark):
        return record.precision.weights
    listed = record.precision.weight_formats or []
    return min(listed, key=lambda name: get_dtype(name).bytes_per_element) if listed else None


def _replicas(record: RunRecord) -> int:
    """Whole copies of the weights: the data-parallel degree, when the stated degrees (data x tensor x
    pipeline, no expert parallelism) partition the run's accelerators into replicas; else 1. Attention
    data parallelism beside expert parallelism shards the experts, so it is no replica of the model."""
    system = record.system if isinstance(record, Benchmark) else None
    degrees = system.parallelism if system else None
    if degrees is None or not degrees.data or (degrees.expert or 1) > 1:
        return 1
    accelerators = record.accelerator_count if isinstance(record, Benchmark) else None
    whole = degrees.data * (degrees.tensor or 1) * (degrees.pipeline or 1) == accelerators
    return degrees.data if whole else 1


def _weights(entry: Entry, dtype: str | None, counted: bool = False) -> Fraction | str:
    """``params_total_b x 10^9 x bytes per weight``, or why it is not known: no single weight format
    (a benchmark may list several in ``weight_formats``; none is picked for it) or no parameter count."""
    model = entry.record
    assert isinstance(model, Model)
    if dtype is None:
        return "'precision.weights' is null and no 'weight_formats' are listed: the weights' format is not stated"
    if model.params_total_b is None and not counted:
        return f"{entry.id} states no params_total_b"
    if model.params_total_b is None:
        # A benchmark's bounds take the config's count, a lower bound (registry.results.parameters).
        config = model.config or {}
        found = counted_parameters({**config, **(config.get("text_config") or {})})
        if found is None:
            return f"{entry.id} states no params_total_b, and its config too little to count them"
        return Fraction(found.total) * get_dtype(dtype).bytes_per_element
    return Fraction(str(model.params_total_b)) * 10**9 * get_dtype(dtype).bytes_per_element


def _least_cache(layout: LayerGroups, run: Run, result: CacheResult | str) -> Fraction | None:
    """The batch's cache under the run's engine layout (the run's own result), else under the ideal
    one: the architectural minimum is a lower bound whatever the engine, so the fit check holds either
    way."""
    if isinstance(result, CacheResult) and result.total_bytes is not None:
        return Fraction(result.total_bytes)
    if run.engine_layout == "ideal":
        return None
    ideal = _computed(lambda: _compute(layout, replace(run, engine_layout="ideal")))
    if isinstance(ideal, str) or ideal.total_bytes is None:
        return None
    return Fraction(ideal.total_bytes)
