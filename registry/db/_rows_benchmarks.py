"""Rows of the benchmark tables: ``benchmarks`` (one per benchmark record) and ``benchmark_metrics`` (one
per metric, in SI units, with the per-accelerator figure derived where it follows)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from registry.checker.index import RegistryIndex
from registry.db._values import Columns, as_json, columns_of, quantity_float
from registry.engine.units import Dimension, QuantityError, parse_quantity
from registry.kinds.records import Benchmark, Metric

Row = dict[str, Any]

SI_UNITS: dict[Dimension, str] = {
    Dimension.SECONDS: "s",
    Dimension.TOKENS_PER_SECOND: "tokens/s",
    Dimension.REQUESTS_PER_SECOND: "requests/s",
    Dimension.WATTS: "W",
    Dimension.JOULES_PER_TOKEN: "J/token",
    Dimension.BYTES: "B",
    Dimension.RATIO: "ratio",
    Dimension.COUNT: "number",
}
"""The name of the SI unit a metric's value is given in, by the dimension of its stated quantity."""

ADDITIVE = frozenset(
    {Dimension.TOKENS_PER_SECOND, Dimension.REQUESTS_PER_SECOND, Dimension.WATTS, Dimension.BYTES}
)
"""Dimensions whose system figure is a sum over accelerators, so that dividing it by their count gives a
per-accelerator figure; a latency, an energy per token or an accuracy of the system is not divided."""


def _benchmarks(index: RegistryIndex) -> Iterator[Benchmark]:
    for entry in index:
        if entry.kind == "benchmark":
            record = entry.record
            assert isinstance(record, Benchmark)
            yield record


def benchmarks_columns(index: RegistryIndex) -> Columns:
    """One row per benchmark record."""
    return columns_of([_benchmark_row(record) for record in _benchmarks(index)])


def _benchmark_row(record: Benchmark) -> Row:
    return {
        "id": record.id,
        "title": record.title,
        "evidence": record.evidence,
        "model_id": record.model,
        "engine_id": record.engine,
        "engine_version": record.engine_version,
        "layout": record.layout,
        "hardware_id": record.hardware,
        "hardware_count": record.hardware_count,
        "accelerators": record.accelerator_count,
        "scenario": record.scenario,
        "sweep_parameter": record.sweep.parameter if record.sweep else None,
        "sweep_value": float(record.sweep.value) if record.sweep else None,
        **_system_columns(record),
        **_precision_columns(record),
        "context_tokens": record.context,
        "batch": record.batch,
        "prefix_cache": record.prefix_cache,
        **_workload_columns(record),
        "metric_count": len(record.metrics),
        "accuracy": as_json([a.model_dump(exclude_none=True) for a in record.accuracy])
        if record.accuracy
        else None,
        **_provenance_columns(record),
    }


def _system_columns(record: Benchmark) -> Row:
    system = record.system
    parallelism = system.parallelism if system else None
    split = system.disaggregation if system else None
    speculative = system.speculative if system else None
    parts = system.accelerators if system else None
    return {
        "system_name": system.name if system else None,
        "nodes": system.nodes if system else None,
        "accelerators_per_node": system.accelerators_per_node if system else None,
        "system_accelerators": as_json([p.model_dump() for p in parts]) if parts else None,
        "host_processor": system.host_processor if system else None,
        "tensor_parallel": parallelism.tensor if parallelism else None,
        "pipeline_parallel": parallelism.pipeline if parallelism else None,
        "expert_parallel": parallelism.expert if parallelism else None,
        "data_parallel": parallelism.data if parallelism else None,
        "prefill_accelerators": split.prefill_accelerators if split else None,
        "decode_accelerators": split.decode_accelerators if split else None,
        "speculative_method": speculative.method if speculative else None,
        "speculative_draft_tokens": speculative.draft_tokens if speculative else None,
        "speculative_draft_model": speculative.draft_model if speculative else None,
    }


def _precision_columns(record: Benchmark) -> Row:
    precision = record.precision
    return {
        "weights_dtype": precision.weights,
        "weight_formats": list(precision.weight_formats) if precision.weight_formats else None,
        "activations_dtype": precision.activations,
        "kv_dtype": precision.kv_cache,
        "state_dtype": precision.recurrent_state,
    }


def _workload_columns(record: Benchmark) -> Row:
    workload = record.workload
    rate = workload.request_rate if workload else None
    return {
        "dataset": workload.dataset if workload else None,
        "input_tokens": workload.input_tokens if workload else None,
        "output_tokens": workload.output_tokens if workload else None,
        "lengths": workload.lengths if workload else None,
        "max_output_tokens": workload.max_output_tokens if workload else None,
        "distribution": workload.distribution if workload else None,
        "requests": workload.requests if workload else None,
        "request_rate": rate,
        "request_rate_per_s": quantity_float(rate),
        "concurrency": workload.concurrency if workload else None,
        "workload": workload.description if workload else None,
    }


def _provenance_columns(record: Benchmark) -> Row:
    source = record.provenance
    return {
        "source": source.source if source else None,
        "source_repository": source.repository if source else None,
        "source_file": source.file if source else None,
        "source_commit": source.commit if source else None,
        "source_row": source.row if source else None,
        "source_run_path": source.run_path if source else None,
        "source_benchmark": source.benchmark if source else None,
        "mlperf_round": source.round if source else None,
        "mlperf_division": source.division if source else None,
        "mlperf_availability": source.availability if source else None,
        "submitter": source.submitter if source else None,
        "valid": source.valid if source else None,
    }


# ---------------------------------------------------------------- metrics


def benchmark_metrics_columns(index: RegistryIndex) -> Columns:
    """One row per metric of every benchmark record, in the record's order."""
    rows = [
        _metric_row(record, position, metric)
        for record in _benchmarks(index)
        for position, metric in enumerate(record.metrics)
    ]
    return columns_of(rows)


def _metric_row(record: Benchmark, position: int, metric: Metric) -> Row:
    value, unit, dimension = _si(metric.stated)
    count = record.accelerator_count
    return {
        "benchmark_id": record.id,
        "position": position,
        "metric": metric.metric,
        "statistic": metric.statistic,
        "per": metric.per,
        "stated": metric.stated,
        "value": value,
        "unit": unit,
        "value_per_accelerator": per_accelerator(value, dimension, metric.per, count),
        "accelerators": count,
        "constraints": as_json([c.model_dump() for c in metric.constraints]) if metric.constraints else None,
    }


def _si(stated: str) -> tuple[float | None, str | None, Dimension | None]:
    """A stated figure in its SI unit, the unit's name, and its dimension (the record model has
    checked that it reads; a figure that does not is NULL)."""
    try:
        quantity = parse_quantity(stated)
    except QuantityError:
        return None, None, None
    return float(quantity.value), SI_UNITS.get(quantity.dimension), quantity.dimension


def per_accelerator(
    value: float | None, dimension: Dimension | None, per: str, count: int | None
) -> float | None:
    """The figure per accelerator: the value itself when it is stated per accelerator; a system's
    additive figure (:data:`ADDITIVE`) divided by the accelerators; otherwise NULL."""
    if value is None:
        return None
    if per == "accelerator":
        return value
    if per == "system" and count and dimension in ADDITIVE:
        return value / count
    return None
