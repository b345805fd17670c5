"""A benchmark record's bounds, read from the registry into the pure bounds' plain facts.

The model's active parameters (a dense model's total: a config that names no experts), the hardware's
dense peaks and bandwidth per part, the run's formats, workload and load, each metric in SI units, and
one sequence's cache at the input length, which :mod:`registry.results.values` has the engine compute.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from registry.bounds import Bound, Figure, ModelFacts, Part, RunFacts, bounds_of
from registry.checker.index import RegistryIndex
from registry.engine.dtypes import DTYPES, get_dtype
from registry.engine.units import QuantityError, parse_quantity
from registry.kinds.records import Benchmark, Hardware, Model
from registry.results.geometry import ModelGeometry
from registry.results.parameters import counted_parameters

EXPERT_FIELDS = ("num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts")
"""Config fields that name a mixture of experts: a model whose config has none of them is dense, and
its total parameters are the ones every token passes through."""


LEAST_KV_DTYPE = min(DTYPES, key=lambda name: get_dtype(name).bytes_per_element)
"""The format a cache of unstated format is counted in: the narrowest the engine knows (4 bits), so the
bytes it gives are the least any serving engine's cache takes, and a bound built on them stays a bound."""

QUANTIZABLE = (
    "MLPerf's table writes the format the submission's measurements file gives as weight_data_types, "
    "beside which that file states the weight_transformations it applied (the closed division allows "
    "quantizing the reference checkpoint): a 16-bit or wider format there may be the checkpoint the run "
    "started from (v4.1's TensorRT rows all state fp16 and reach up to 112% of an H200's 16-bit dense "
    "peak), so the weights are counted at {least}, the narrowest any engine serves, and the compute at "
    "the accelerator's fastest dense peak"
)
"""Why an MLPerf record's 16-bit (or wider) weight format bounds neither its compute format nor its
weights' bytes."""


def starting_formats(record: Benchmark) -> str | None:
    """Why the record's stated weight formats may be the checkpoint it started from rather than the one
    it served (an MLPerf row stating only 16-bit or wider formats), or None."""
    provenance = record.provenance
    if provenance is None or provenance.source != "mlperf":
        return None
    precision = record.precision
    stated = (precision.weights,) if precision.weights else tuple(precision.weight_formats or ())
    if not stated or any(get_dtype(name).bytes_per_element < 2 for name in stated):
        return None
    return QUANTIZABLE.format(least=LEAST_KV_DTYPE)


KvFigure = Fraction | str
"""One sequence's cache at the input length (bytes), or why there is none."""


MEAN_OUTPUT_SOURCE = (
    "the submission's accuracy report, tokens_per_sample; taken as the performance run's mean, whose "
    "samples LoadGen draws from the same dataset"
)
"""Where an MLPerf record's mean output length comes from, said in each derivation that uses it."""


def benchmark_bounds(
    index: RegistryIndex,
    record: Benchmark,
    geometry: ModelGeometry | None,
    cache: KvFigure,
    engine_cache: KvFigure | None = None,
    end_cache: KvFigure | None = None,
) -> tuple[Bound, ...]:
    """Every bound on the record's figures (nothing for a record that states none): ``cache`` is one
    sequence's at its prompt under the ideal layout, ``engine_cache`` the same under the run's engine
    layout, ``end_cache`` the ideal one at the last decode step (prompt + output - 1 tokens)."""
    if not record.metrics:
        return ()
    return bounds_of(run_facts(index, record, geometry, cache, engine_cache, end_cache))


def mean_output_tokens(record: Benchmark) -> Fraction | None:
    """The mean output tokens per sample the record's accuracy report states (MLPerf's
    ``tokens_per_sample``), or None."""
    for score in record.accuracy or ():
        if score.metric == "tokens_per_sample" and score.value > 0:
            return Fraction(str(score.value))
    return None


def run_facts(
    index: RegistryIndex,
    record: Benchmark,
    geometry: ModelGeometry | None,
    cache: KvFigure,
    engine_cache: KvFigure | None = None,
    end_cache: KvFigure | None = None,
) -> RunFacts:
    workload = record.workload
    system = record.system
    speculative = system.speculative if system else None
    input_tokens = workload.input_tokens if workload else None
    kv_bytes, kv_reason = (None, cache) if isinstance(cache, str) else (cache, None)
    parts = _parts(index, record)
    precision = record.precision
    model = model_facts(index, record.model, geometry)
    started = starting_formats(record)
    return RunFacts(
        id=record.id,
        model=replace(model, unbound=OPEN_DIVISION) if open_division(record) else model,
        parts=parts if isinstance(parts, tuple) else (),
        weights=(precision.weights,) if precision.weights else tuple(precision.weight_formats or ()),
        activations=precision.activations,
        kv_dtype=precision.kv_cache,
        kv_assumed=None if precision.kv_cache else LEAST_KV_DTYPE,
        weights_assumed=LEAST_KV_DTYPE if started else None,
        weights_reason=started,
        synthetic_prompts=bool(workload and workload.dataset and "synthetic" in workload.dataset.lower()),
        scenario=record.scenario,
        concurrency=_concurrency(record),
        input_tokens=input_tokens,
        output_tokens=workload.output_tokens if workload else None,
        output_cap=workload.max_output_tokens if workload else None,
        lengths=workload.lengths if workload else None,
        prefix_cache=record.prefix_cache,
        speculative=speculative is not None,
        draft_tokens=speculative.draft_tokens if speculative else None,
        kv_bytes=kv_bytes,
        kv_reason=kv_reason,
        figures=tuple(_figures(record)),
        hardware_reason=None if isinstance(parts, tuple) else parts,
        disaggregated=bool(system and system.disaggregation),
        mean_output_tokens=mean_output_tokens(record),
        output_source=MEAN_OUTPUT_SOURCE,
        engine_kv_bytes=engine_cache if isinstance(engine_cache, Fraction) else None,
        end_kv_bytes=end_cache if isinstance(end_cache, Fraction) else None,
    )


def model_facts(index: RegistryIndex, model_id: str, geometry: ModelGeometry | None) -> ModelFacts:
    entry = index.get(model_id)
    model = entry.record if entry is not None else None
    if not isinstance(model, Model):
        return ModelFacts(model_id, None)
    config: Mapping[str, Any] = model.config or {}
    stated = {**config, **(config.get("text_config") or {})}
    fields = geometry.fields if geometry else {}
    counted = counted_parameters(stated) if model.params_total_b is None else None
    active = _active(model, stated)
    total = Fraction(str(model.params_total_b)) * 10**9 if model.params_total_b else None
    return ModelFacts(
        id=model_id,
        params_active=active if active is not None or counted is None else Fraction(counted.active),
        params_total=total if total is not None or counted is None else Fraction(counted.total),
        params_counted=counted is not None and model.params_active_b is None,
        untied_embedding=_untied_embedding(stated, fields),
        layout=geometry.layout if geometry else None,
        fields=fields,
    )


def _active(model: Model, stated: Mapping[str, Any]) -> Fraction | None:
    if model.params_active_b is not None:
        return Fraction(str(model.params_active_b)) * 10**9
    dense = bool(stated) and not any(name in stated for name in EXPERT_FIELDS)
    if dense and model.params_total_b is not None:
        return Fraction(str(model.params_total_b)) * 10**9
    return None


def _untied_embedding(stated: Mapping[str, Any], fields: Mapping[str, int | float]) -> int | None:
    vocab, hidden = fields.get("vocab_size"), fields.get("hidden_size")
    if stated.get("tie_word_embeddings") is False and isinstance(vocab, int) and isinstance(hidden, int):
        return vocab * hidden
    return None


def _parts(index: RegistryIndex, record: Benchmark) -> tuple[Part, ...] | str:
    """The run's accelerators by kind, or why they cannot be read (a hardware record that is missing)."""
    if record.hardware:
        wanted = [(record.hardware, record.hardware_count or 1)]
    else:
        wanted = [(p.hardware, p.count) for p in (record.system.accelerators or [])] if record.system else []
    parts: list[Part] = []
    for hardware_id, count in wanted:
        entry = index.get(hardware_id)
        hardware = entry.record if entry is not None else None
        if not isinstance(hardware, Hardware):
            return f"{hardware_id} is not a hardware record of this registry"
        parts.append(_part(hardware_id, hardware, count))
    return tuple(parts)


OPEN_DIVISION = (
    "an MLPerf Open division result: its rules let a submitter change the model (prune, retrain, quantize "
    "it), so the reference model's parameters bound nothing of what ran"
)
"""Why a run of MLPerf's Open division gets no bound from its record's model."""


def open_division(record: Benchmark) -> bool:
    """The record is an MLPerf Open division result, whose model may not be the record's."""
    provenance = record.provenance
    return provenance is not None and provenance.source == "mlperf" and provenance.division == "open"


def coherent_host(hardware_id: str, hardware: Hardware) -> str | None:
    """Why the accelerator's own memory does not limit what a run holds, or None."""
    if hardware.host_memory_coherent is None:
        return None
    how = hardware.host_memory_coherent
    return f"{hardware_id} reads its host's memory coherently ({how}): its own memory does not limit what a run holds"


def _part(hardware_id: str, hardware: Hardware, count: int) -> Part:
    """One kind of accelerator; a record of several devices (a rack) counts per device."""
    peaks = {name: parse_quantity(text).value for name, text in hardware.dense_peaks().items()}
    bandwidth = parse_quantity(hardware.bandwidth_per_device).value if hardware.bandwidth_per_device else None
    memory = parse_quantity(hardware.memory_per_device).value
    unbound = coherent_host(hardware_id, hardware)
    return Part(hardware_id, hardware.name, count * hardware.devices, peaks, bandwidth, memory, unbound)


def _concurrency(record: Benchmark) -> int | None:
    if record.workload and record.workload.concurrency:
        return record.workload.concurrency
    if record.sweep and record.sweep.parameter == "concurrency" and isinstance(record.sweep.value, int):
        return record.sweep.value
    return 1 if record.scenario == "single-stream" else None


def _figures(record: Benchmark) -> list[Figure]:
    figures: list[Figure] = []
    for position, metric in enumerate(record.metrics):
        try:
            value = parse_quantity(metric.stated).value
        except QuantityError:  # the schema stage has reported it
            continue
        figures.append(Figure(position, metric.metric, metric.statistic, metric.per, value, metric.stated))
    return figures


__all__ = ["KvFigure", "benchmark_bounds", "model_facts", "run_facts", "starting_formats"]
