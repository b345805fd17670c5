"""The benchmark tables: one row per benchmark record and one per metric, values in SI units, the
per-accelerator figure derived where it follows, both in the Parquet export; the runs table's
``measured_*`` columns read from a benchmark's metrics."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from registry.db import TABLES, build_database, export_parquet, run_query
from tests.test_db import TRICKY_ID, _source, _write, make_registry

SWEEP_ID = "benchmarks/llama-sweep-8"


def _sweep_point() -> dict[str, object]:
    """A sweep point on 8 GPUs that lists several weight formats and does not say its KV format."""
    return {
        "schema_version": 2,
        "id": SWEEP_ID,
        "kind": "benchmark",
        "title": "Llama 3.1 8B, 8 req/s on 8 GPUs",
        "evidence": "measured",
        "model": "models/llama-3.1-8b",
        "engine": "engines/vllm",
        "engine_version": "0.11.0",
        "layout": "vllm",
        "hardware": "hardware/gpu",
        "hardware_count": 8,
        "precision": {"weight_formats": ["fp4", "fp8"], "activations": "fp8"},
        "context_tokens": 2048,
        "prefix_cache": "none",
        "workload": {
            "input_tokens": 1024,
            "output_tokens": 1024,
            "lengths": "mean",
            "request_rate": "8 req/s",
        },
        "scenario": "sweep-point",
        "sweep": {"parameter": "request_rate", "value": 8},
        "system": {
            "name": "8xGPU",
            "nodes": 2,
            "accelerators_per_node": 4,
            "parallelism": {"tensor": 4, "data": 2},
        },
        "metrics": [
            {"metric": "output_throughput", "statistic": "value", "per": "system", "stated": "8,000 tok/s"},
            {"metric": "tpot", "statistic": "p99", "per": "request", "stated": "40 ms"},
            {"metric": "power", "statistic": "mean", "per": "system", "stated": "5.6 kW"},
            {"metric": "energy_per_token", "statistic": "value", "per": "system", "stated": "350 mJ/token"},
            {"metric": "request_throughput", "statistic": "value", "per": "accelerator", "stated": "1 req/s"},
            {"metric": "accuracy", "statistic": "value", "per": "system", "stated": "44.43"},
        ],
        "accuracy": [{"metric": "rouge1", "value": 44.43, "target": "99% of reference", "passed": True}],
        "provenance": {
            "source": "mlperf",
            "repository": "mlcommons/inference_results_v6.1",
            "file": "summary.csv",
            "commit": "7bf15fd8089655a71fb75c81a744d7ba5a632424",
            "row": 17,
            "round": "v6.1",
            "division": "closed",
            "availability": "available",
            "submitter": "Example",
            "valid": True,
        },
        "sources": _source("A results table"),
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_registry(tmp_path_factory.mktemp("benchmarks") / "registry")
    _write(root, _sweep_point())
    return build_database(root).path


def _rows(path: Path, sql: str, *parameters: object) -> list[tuple[object, ...]]:
    return run_query(path, sql, list(parameters)).rows


def test_one_benchmarks_row_per_record(built: Path) -> None:
    rows = _rows(
        built,
        "SELECT id, scenario, sweep_parameter, sweep_value, accelerators, nodes, accelerators_per_node, "
        "tensor_parallel, data_parallel, weights_dtype, weight_formats, kv_dtype, request_rate_per_s, "
        "lengths, source, mlperf_round, source_row, valid, metric_count FROM benchmarks ORDER BY id",
    )
    assert [row[0] for row in rows] == [TRICKY_ID, SWEEP_ID]
    assert rows[1][1:] == (
        "sweep-point", "request_rate", 8.0, 8, 2, 4, 4, 2, None, ["fp4", "fp8"], None, 8.0,
        "mean", "mlperf", "v6.1", 17, True, 6,
    )  # fmt: skip
    assert rows[0][1] == "offline" and rows[0][4] == 1
    accuracy = _rows(built, "SELECT accuracy FROM benchmarks WHERE id = ?", SWEEP_ID)[0][0]
    assert isinstance(accuracy, str) and json.loads(accuracy)[0]["metric"] == "rouge1"


def test_metrics_in_si_units_with_per_accelerator_figures(built: Path) -> None:
    rows = _rows(
        built,
        "SELECT metric, statistic, per, stated, value, unit, value_per_accelerator "
        "FROM benchmark_metrics WHERE benchmark_id = ? ORDER BY position",
        SWEEP_ID,
    )
    assert rows == [
        ("output_throughput", "value", "system", "8,000 tok/s", 8000.0, "tokens/s", 1000.0),
        ("tpot", "p99", "request", "40 ms", 0.04, "s", None),  # a latency is never divided
        ("power", "mean", "system", "5.6 kW", 5600.0, "W", 700.0),
        ("energy_per_token", "value", "system", "350 mJ/token", 0.35, "J/token", None),
        ("request_throughput", "value", "accelerator", "1 req/s", 1.0, "requests/s", 1.0),
        ("accuracy", "value", "system", "44.43", 44.43, "number", None),
    ]


def test_constraints_travel_as_json(built: Path) -> None:
    sql = "SELECT constraints FROM benchmark_metrics WHERE benchmark_id = ? AND metric = 'output_throughput'"
    text = _rows(built, sql, TRICKY_ID)[0][0]
    assert isinstance(text, str)
    assert json.loads(text) == [{"metric": "tpot", "statistic": "p99", "limit": "40 ms"}]
    memory = _rows(built, "SELECT value_per_accelerator FROM benchmark_metrics WHERE metric = 'memory'")
    assert memory == [(float(Fraction(86, 10) * 2**30),)]  # one accelerator


def test_runs_measured_columns_take_a_benchmarks_headline_metrics(built: Path) -> None:
    sql = "SELECT measured_ttft, measured_ttft_s, measured_memory_bytes, measured_tpot FROM runs WHERE id = ?"
    # the mean TTFT, not the p99; memory per system
    assert _rows(built, sql, TRICKY_ID) == [("1.25 s", 1.25, Decimal(round(Fraction(86, 10) * 2**30)), None)]
    sweep = _rows(
        built, "SELECT measured_throughput_tok_s, measured_tpot, kv_dtype FROM runs WHERE id = ?", SWEEP_ID
    )
    assert sweep == [(8000.0, None, None)]  # the only TPOT is a p99


def test_a_benchmark_without_its_kv_format_is_not_computable(built: Path) -> None:
    (reason,) = _rows(built, "SELECT not_computable FROM runs WHERE id = ?", SWEEP_ID)[0]
    assert isinstance(reason, str) and "'precision.kv_cache' is null" in reason


def test_both_tables_are_exported(built: Path, tmp_path: Path) -> None:
    export_parquet(built, tmp_path / "out")
    metrics = pq.read_table(tmp_path / "out" / "benchmark_metrics.parquet")
    benchmarks = pq.read_table(tmp_path / "out" / "benchmarks.parquet")
    assert metrics.num_rows == 4 + 6 and benchmarks.num_rows == 2
    assert {"benchmarks", "benchmark_metrics"} <= {table.name for table in TABLES}
