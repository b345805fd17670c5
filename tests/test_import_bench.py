"""``registry import vllm-bench`` and ``sglang-bench``: a user's own serving-benchmark runs as benchmark
records, key by key from the writers' own keys, drafts without the options, idempotent, and
all-or-nothing on bad input."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from registry.authoring.importers.bench import import_bench
from registry.authoring.importers.imported import BenchOptions
from registry.authoring.importers.mlperf_table import SourceError
from registry.checker.load import load_text
from registry.checker.pipeline import check
from registry.cli import main
from registry.errors import RegistryError
from tests.conftest import REPO

FIXTURES = REPO / "tests" / "fixtures" / "bench"
VLLM = FIXTURES / "vllm-8qps-llama.json"
SGLANG = FIXTURES / "sglang-sweep.jsonl"
MODEL = "models/llama-3.1-8b-instruct"
FULL = BenchOptions(
    model=MODEL,
    hardware="hardware/h100-sxm",
    count=1,
    engine_version="0.11.0",
    weights="bf16",
    kv_cache="bf16",
    prefix_cache="cold",
    url="https://example.org/runs/result",
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A registry holding the repository's model, hardware and engine records, and no benchmarks."""
    registry = tmp_path / "registry"
    for collection in ("models", "hardware", "engines"):
        shutil.copytree(REPO / "records" / collection, registry / "records" / collection)
    return registry


def _records(root: Path) -> dict[str, dict[str, object]]:
    found = {}
    for path in sorted((root / "records" / "benchmarks").glob("*.yaml")):
        loaded = load_text(str(path), path.read_text(encoding="utf-8"))
        assert loaded.document is not None
        found[path.stem] = loaded.document.data
    return found


def _metrics(record: dict[str, object]) -> list[tuple[str, str, str, str]]:
    items = record["metrics"]
    assert isinstance(items, list)
    return [(m["metric"], m["statistic"], m["per"], m["stated"]) for m in items]


def test_vllm_keys_map_one_by_one(root: Path) -> None:
    result = import_bench(root, "vllm-bench", [VLLM], FULL)
    assert result.new == ["benchmarks/vllm-bench-vllm-8qps-llama-e630de3b"] and result.drafts == []
    (record,) = _records(root).values()
    assert _metrics(record) == [
        ("request_throughput", "value", "system", "7.5705 req/s"),  # request_throughput
        ("output_throughput", "value", "system", "969.03 tok/s"),  # output_throughput
        ("total_throughput", "value", "system", "8721.25 tok/s"),  # total_token_throughput
        ("output_throughput", "max", "system", "1408.0 tok/s"),  # max_output_tokens_per_s
        ("ttft", "mean", "request", "48.21 ms"),
        ("ttft", "median", "request", "41.7 ms"),
        ("ttft", "p99", "request", "131.62 ms"),
        ("tpot", "mean", "request", "14.02 ms"),
        ("tpot", "median", "request", "13.88 ms"),
        ("tpot", "p99", "request", "17.45 ms"),
        ("itl", "mean", "request", "13.97 ms"),
        ("itl", "median", "request", "12.6 ms"),
        ("itl", "p99", "request", "39.5 ms"),
    ]
    workload = record["workload"]
    assert isinstance(workload, dict)
    assert (workload["requests"], workload["concurrency"], workload["request_rate"]) == (200, 64, "8.0 req/s")
    assert "meta-llama/Llama-3.1-8B-Instruct" in workload["description"]
    assert "total_input_tokens 204800" in workload["description"]
    assert record["scenario"] == "server"
    assert (record["engine"], record["engine_version"], record["layout"]) == (
        "engines/vllm",
        "0.11.0",
        "vllm",
    )
    assert (record["hardware"], record["hardware_count"], record["prefix_cache"]) == (
        "hardware/h100-sxm",
        1,
        "cold",
    )
    assert record["provenance"] == {"source": "vllm-bench", "file": VLLM.name}
    text = next((root / "records" / "benchmarks").glob("*.yaml")).read_text(encoding="utf-8")
    assert "std_ttft_ms (no such statistic)" in text and "p50_itl_ms (the median is stated)" in text


def test_sglang_lines_map_one_record_each(root: Path) -> None:
    import_bench(root, "sglang-bench", [SGLANG], FULL)
    records = sorted(_records(root).values(), key=lambda r: r["provenance"]["row"])  # type: ignore[index]
    assert [r["provenance"] for r in records] == [
        {"source": "sglang-bench", "file": SGLANG.name, "row": 1},
        {"source": "sglang-bench", "file": SGLANG.name, "row": 2},
    ]
    first, second = records
    # Infinity with max_concurrency 16 is a fixed-concurrency run, then 4.0 req/s
    assert (first["scenario"], second["scenario"]) == ("sweep-point", "server")
    assert first["sweep"] == {"parameter": "concurrency", "value": 16}
    assert first["workload"] == first["workload"] | {
        "dataset": "random", "input_tokens": 1024, "output_tokens": 256, "lengths": "fixed",
        "requests": 500, "concurrency": 16,
    }  # fmt: skip
    assert "request_rate" not in first["workload"] and second["workload"]["request_rate"] == "4.0 req/s"  # type: ignore[index]
    assert ("e2e_latency", "p99", "request", "1577.9 ms") in _metrics(first)
    assert ("itl", "p95", "request", "6.02 ms") in _metrics(first)
    assert ("output_throughput", "value", "system", "3101.5 tok/s") in _metrics(first)
    assert first["engine"] == "engines/sglang"


def test_records_with_the_options_check_clean(root: Path) -> None:
    import_bench(root, "vllm-bench", [VLLM], FULL)
    import_bench(root, "sglang-bench", [SGLANG], FULL)
    paths = sorted((root / "records" / "benchmarks").glob("*.yaml"))
    assert len(paths) == 3
    assert check(root, paths).diagnostics == []


def test_without_the_options_a_draft_whose_gaps_the_check_names(root: Path) -> None:
    result = import_bench(root, "sglang-bench", [SGLANG], BenchOptions(model=MODEL))
    assert len(result.drafts) == 2
    paths = sorted((root / "records" / "benchmarks").glob("*.yaml"))
    messages = " ".join(d.message for d in check(root, paths).diagnostics)
    for named in ("'hardware'", "'engine_version'", "'prefix_cache'", "'sources'"):
        assert named in messages
    assert "# TODO: engine_version" in paths[0].read_text(encoding="utf-8")


def test_a_second_import_changes_no_byte(root: Path) -> None:
    import_bench(root, "sglang-bench", [SGLANG], FULL)
    before = {p: p.read_bytes() for p in (root / "records" / "benchmarks").glob("*.yaml")}
    again = import_bench(root, "sglang-bench", [SGLANG], FULL)
    assert again.new == [] and again.changed == [] and len(again.unchanged) == 2
    assert {p: p.read_bytes() for p in before} == before


def _bad(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("source", "text", "message"),
    [
        ("vllm-bench", '{"date": "x", "backend": ', "bad.json:1:26: not JSON"),
        ("sglang-bench", SGLANG.read_text().splitlines()[0] + "\n{oops}\n", "bad.json:2:2: not JSON"),
        ("vllm-bench", '{"Organization": "x"}', "not a vllm bench serve result"),
        (
            "sglang-bench",
            VLLM.read_text(),
            "this is a vllm bench serve result; use `registry import vllm-bench`",
        ),
        (
            "vllm-bench",
            VLLM.read_text().replace('"p99_ttft_ms": 131.62', '"p99_ttft_ms": "fast"'),
            "/p99_ttft_ms",
        ),
        (
            "sglang-bench",
            SGLANG.read_text().replace('"completed": 500', '"completed": 2.5', 1),
            "bad.json:1: /completed",
        ),
    ],
)
def test_bad_input_is_located_and_nothing_is_written(
    root: Path, tmp_path: Path, source: str, text: str, message: str
) -> None:
    bad = _bad(tmp_path, "bad.json", text)
    good = VLLM if source == "vllm-bench" else SGLANG
    with pytest.raises(SourceError, match=message.replace("/", "/")):
        import_bench(root, source, [good, bad], FULL)
    assert not (root / "records" / "benchmarks").exists()


def test_the_command_exits_2_on_bad_input_and_needs_model(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _bad(tmp_path, "bad.json", "[1, 2]")
    assert main(["import", "--root", str(root), "vllm-bench", str(bad), "--model", MODEL]) == 2
    assert main(["import", "--root", str(root), "sglang-bench", str(SGLANG)]) == 2
    assert "does not name its model; give the model record with --model" in capsys.readouterr().err
    with pytest.raises(RegistryError, match="not a record id"):
        import_bench(root, "vllm-bench", [VLLM], BenchOptions(model=MODEL, record_id="benchmarks/../x"))


def test_a_vllm_file_of_appended_results_is_one_record_a_line(root: Path, tmp_path: Path) -> None:
    appended = _bad(
        tmp_path, "appended.json", VLLM.read_text().strip() + "\n" + VLLM.read_text().replace("8.0", "16.0")
    )
    result = import_bench(root, "vllm-bench", [appended], FULL)
    assert len(result.new) == 2
    rows = sorted(r["provenance"]["row"] for r in _records(root).values())  # type: ignore[index]
    assert rows == [1, 2]


def test_hardware_needs_a_count_and_id_names_one_run(root: Path) -> None:
    with pytest.raises(RegistryError, match="--count"):
        import_bench(root, "vllm-bench", [VLLM], BenchOptions(model=MODEL, hardware="hardware/h100-sxm"))
    with pytest.raises(RegistryError, match="--id names one record"):
        import_bench(root, "sglang-bench", [SGLANG], BenchOptions(model=MODEL, record_id="benchmarks/x"))
    assert not (root / "records" / "benchmarks").exists()


SGLANG_TRACE = FIXTURES / "sglang-serving-trace.jsonl"
"""One line as ``python -m sglang.benchmark.serving`` writes it: a replayed trace (``request_rate``
``"trace"``), the server's own description, p90 and p95 of every latency, the peak output throughput and
the peak number of requests in flight."""


def test_sglangs_newer_writer_and_a_replayed_trace(root: Path) -> None:
    import_bench(root, "sglang-bench", [SGLANG_TRACE], replace(FULL, engine_version=None, model=None))
    (record,) = _records(root).values()
    assert record["scenario"] == "server"  # arrivals spread over time, at the trace's own times
    workload = record["workload"]
    assert isinstance(workload, dict) and "request_rate" not in workload
    assert "times the dataset's trace gives" in workload["description"]
    assert "max_concurrent_requests 37" in workload["description"]
    assert record["engine_version"] == "0.0.0-fixture"  # server_info's version
    assert record["model"] == MODEL  # server_info's model_path
    assert "arrivals as traced" in str(record["title"])
    assert ("output_throughput", "max", "system", "2210.0 tok/s") in _metrics(record)
    assert ("ttft", "p90", "request", "420.6 ms") in _metrics(record)
    assert ("e2e_latency", "p95", "request", "3120.8 ms") in _metrics(record)
    paths = sorted((root / "records" / "benchmarks").glob("*.yaml"))
    assert check(root, paths).diagnostics == []


def test_a_request_rate_that_is_neither_a_number_nor_inf_nor_trace_is_refused(
    root: Path, tmp_path: Path
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(SGLANG_TRACE.read_text().replace('"request_rate": "trace"', '"request_rate": "fast"'))
    with pytest.raises(
        SourceError,
        match=r'bad.jsonl:1: /request_rate: .fast. is not a request rate \(a positive number, inf or "trace"\)',
    ):
        import_bench(root, "sglang-bench", [bad], FULL)
    assert not (root / "records" / "benchmarks").exists()
