"""``registry import`` of GuideLLM, genai-perf and AIPerf, inference-perf, llm-d and InferenceX files:
each file of our own in its writer's shape becomes the records its runs are, a file of another tool is
named as such, and a report that breaks the llm-d schema is refused where it breaks it."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from registry.authoring.importers.imported import BenchOptions
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.sources import import_source
from registry.checker.load import load_text
from registry.checker.pipeline import check
from registry.cli import main
from tests.conftest import REPO

TOOLS = REPO / "tests" / "fixtures" / "tools"
DONE = BenchOptions(prefix_cache="cold", url="https://example.org/runs/result")
ON_H100 = BenchOptions(
    hardware="hardware/h100-sxm",
    count=1,
    engine="engines/vllm",
    engine_version="0.11.0",
    prefix_cache="cold",
    url="https://example.org/runs/result",
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    registry = tmp_path / "registry"
    for collection in ("models", "hardware", "engines"):
        shutil.copytree(REPO / "records" / collection, registry / "records" / collection)
    return registry


def _records(root: Path) -> list[dict[str, Any]]:
    found = []
    for path in sorted((root / "records" / "benchmarks").glob("*.yaml")):
        loaded = load_text(str(path), path.read_text(encoding="utf-8"))
        assert loaded.document is not None
        found.append(loaded.document.data)
    return found


def _metrics(record: dict[str, Any]) -> set[tuple[str, str, str, str]]:
    return {(m["metric"], m["statistic"], m["per"], m["stated"]) for m in record["metrics"]}


def _clean(root: Path) -> None:
    paths = sorted((root / "records" / "benchmarks").glob("*.yaml"))
    assert paths
    assert [d.message for d in check(root, paths).diagnostics if d.severity == "error"] == []


def test_guidellm_versions_1_and_2_one_record_a_benchmark(root: Path) -> None:
    result = import_source(
        root, "guidellm", [TOOLS / "guidellm-v1.json", TOOLS / "guidellm-v2.json"], ON_H100
    )
    assert result.runs == 4 and len(result.new) == 4
    records = sorted(_records(root), key=lambda r: (r["provenance"]["file"], r["provenance"]["row"]))
    constant, synchronous, concurrent, throughput = records
    assert constant["model"] == "models/qwen3-8b"  # the benchmark's config.backend.model
    assert (constant["scenario"], constant["workload"]["request_rate"]) == ("server", "5.0 req/s")
    assert synchronous["scenario"] == "single-stream" and synchronous["workload"]["concurrency"] == 1
    assert concurrent["scenario"] == "sweep-point" and concurrent["sweep"] == {
        "parameter": "concurrency",
        "value": 8,
    }
    assert throughput["scenario"] == "offline"
    assert {
        ("output_throughput", "value", "system", "1331.2 tok/s"),  # output_tokens_per_second, successful mean
        ("request_throughput", "value", "system", "5.2 req/s"),
        ("ttft", "p99.9", "request", "90.0 ms"),  # percentiles.p999
        ("e2e_latency", "median", "request", "1.5 s"),  # request_latency is in seconds
    } <= _metrics(concurrent)
    workload = concurrent["workload"]
    assert (workload["input_tokens"], workload["output_tokens"], workload["lengths"]) == (512, 256, "mean")
    assert "metrics/gpu_seconds" in result.unknown[0]  # a key no generation writes, named
    _clean(root)


def test_a_guidellm_report_without_a_version_is_refused(root: Path, tmp_path: Path) -> None:
    old = tmp_path / "benchmarks.json"
    old.write_text(json.dumps({"benchmarks": [{"type_": "generative_benchmark"}], "args": {}}))
    with pytest.raises(SourceError, match=r"metadata.version 1 .* and 2 .* are read"):
        import_source(root, "guidellm", [old], ON_H100)


def test_genai_perf_both_generations_and_aiperf(root: Path) -> None:
    files = [TOOLS / "genai-perf-args.json", TOOLS / "genai-perf-config.json", TOOLS / "aiperf.json"]
    options = BenchOptions(
        hardware="hardware/h100-sxm", count=1, engine_version="1.0", prefix_cache="cold", url=DONE.url
    )
    import_source(root, "genai-perf", files[:1], options)  # its backend names the engine
    import_source(root, "genai-perf", files[1:], replace(options, engine="engines/vllm"))
    by_file = {r["provenance"]["file"]: r for r in _records(root)}
    args, config, aiperf = (by_file[f.name] for f in files)
    assert args["engine"] == "engines/tensorrt-llm"  # backend tensorrtllm
    assert args["scenario"] == "sweep-point" and args["sweep"]["value"] == 16
    assert config["scenario"] == "server" and config["workload"]["request_rate"] == "8.0 req/s"
    assert aiperf["provenance"]["source"] == "aiperf" and aiperf["model"] == "models/gpt-oss-120b"
    # inter_token_latency is (latency - TTFT) / (output tokens - 1): a TPOT
    assert ("tpot", "mean", "request", "7.7 ms") in _metrics(args)
    assert ("output_throughput", "median", "request", "131.0 tok/s") in _metrics(args)  # per user
    assert ("request_goodput", "value", "system", "7.1 req/s") in _metrics(aiperf)
    assert (args["workload"]["input_tokens"], args["workload"]["output_tokens"]) == (550, 256)
    text = (root / "records" / "benchmarks").joinpath(f"{aiperf['id'].split('/')[1]}.yaml").read_text()
    assert "inter_chunk_latency (between streamed chunks" in text
    _clean(root)


def test_inference_perf_generations_and_a_prometheus_report(root: Path) -> None:
    files = [TOOLS / "inference-perf-stage-0.json", TOOLS / "inference-perf-concurrency.json"]
    options = BenchOptions(
        model="models/llama-3.1-8b-instruct",
        **{
            k: getattr(ON_H100, k)
            for k in ("hardware", "count", "engine", "engine_version", "prefix_cache", "url")
        },
    )
    import_source(root, "inference-perf", files, options)
    old, new = sorted(_records(root), key=lambda r: r["provenance"]["file"], reverse=True)
    assert old["scenario"] == "server" and old["workload"]["request_rate"] == "1.0 req/s"
    assert ("ttft", "p99", "request", "0.0425 s") in _metrics(old)  # seconds, as written
    assert (old["workload"]["input_tokens"], old["workload"]["output_tokens"]) == (
        200,
        62,
    )  # prompt_len, output_len
    # a report without the server's output_tokens divided its TPOT by a doubled client re-count
    assert not any(m[0] == "tpot" for m in _metrics(old))
    assert ("tpot", "mean", "request", "0.0075 s") in _metrics(new)
    assert not any(m[0] == "itl" for r in (old, new) for m in _metrics(r))  # a chunk's tokens share a time
    assert new["scenario"] == "sweep-point" and new["sweep"]["value"] == 32
    assert new["workload"]["input_tokens"] == 2048  # prompt_tokens
    text = "".join(p.read_text() for p in (root / "records" / "benchmarks").glob("*.yaml"))
    assert "prefix cache served 921600.0 prompt tokens" in text
    with pytest.raises(SourceError, match="prometheus_metrics report"):
        import_source(root, "inference-perf", [TOOLS / "inference-perf-prometheus.json"], options)
    _clean(root)


def test_llmd_report_json_and_yaml(root: Path) -> None:
    import_source(root, "llm-d", [TOOLS / "llmd-report-v0.2.json", TOOLS / "llmd-report-v0.2.yaml"], DONE)
    by_file = {r["provenance"]["file"]: r for r in _records(root)}
    pd, single = by_file["llmd-report-v0.2.json"], by_file["llmd-report-v0.2.yaml"]
    assert (pd["model"], pd["engine"], pd["engine_version"]) == ("models/qwen3-32b", "engines/vllm", "0.11.0")
    # 2 prefill replicas of 2 GPUs and a decode replica of 4: 8 H100s, disaggregated 4 + 4
    assert (pd["hardware"], pd["hardware_count"]) == ("hardware/h100-sxm", 8)
    assert pd["system"]["disaggregation"] == {"prefill_accelerators": 4, "decode_accelerators": 4}
    assert ("ttft", "p99", "request", "0.41 s") in _metrics(pd)
    assert ("tpot", "mean", "request", "0.021 s") in _metrics(pd)  # s/token
    assert single["engine"] == "engines/sglang" and single["scenario"] == "sweep-point"
    _clean(root)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("run"), r"/run: absent, and the schema requires it \(llm-d/llm-d-benchmark"),
        (lambda r: r.update(extra=1), r"/extra: 1 is not a key the schema allows here"),
        (
            lambda r: r["results"]["request_performance"]["aggregate"]["latency"][
                "time_to_first_token"
            ].update(units="hours"),
            "/units: 'hours' is not one of the schema's Units",
        ),
        (
            lambda r: r["scenario"]["stack"][0]["standardized"].update(role="router"),
            "/role: 'router' is not replica, prefill or decode",
        ),
        (lambda r: r.update(version="0.2.1"), "only Benchmark Report v0.2 is read"),
    ],
)
def test_an_llmd_report_that_breaks_its_schema_is_refused_where_it_breaks(
    root: Path, tmp_path: Path, change: Any, message: str
) -> None:
    report = json.loads((TOOLS / "llmd-report-v0.2.json").read_text())
    change(report)
    bad = tmp_path / "report.json"
    bad.write_text(json.dumps(report))
    with pytest.raises(SourceError, match=message):
        import_source(root, "llm-d", [bad], DONE)
    assert not (root / "records" / "benchmarks").exists()


def test_inferencex_rows(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "import",
        "--root",
        str(root),
        "inferencex",
        str(TOOLS / "inferencex-agg.json"),
        "--prefix-cache",
        "none",
    ]
    assert main([*argv, "--url", "https://example.org/agg.json"]) == 0
    rows = sorted(_records(root), key=lambda r: r["provenance"]["row"])
    single, multi, h200 = rows
    assert (single["hardware"], single["hardware_count"], single["model"]) == (
        "hardware/b200",
        8,
        "models/deepseek-r1",
    )
    assert single["engine"] == "engines/sglang" and single["engine_version"].startswith("container image")
    assert single["scenario"] == "sweep-point" and single["sweep"]["value"] == 64
    assert (single["workload"]["input_tokens"], single["workload"]["lengths"]) == (1024, "max")
    assert {
        ("total_throughput", "value", "accelerator", "3200.0 tok/s"),
        ("output_throughput", "value", "accelerator", "1600.0 tok/s"),
        ("ttft", "p99", "request", "0.9 s"),
    } <= _metrics(single)
    assert not any(m[0] == "output_throughput" for m in _metrics(multi))  # per decode GPU: not stated
    assert multi["system"]["disaggregation"] == {"prefill_accelerators": 8, "decode_accelerators": 16}
    assert multi["hardware_count"] == 24 and multi["system"]["speculative"] == {"method": "mtp"}
    assert "hardware" not in h200  # an H200 is SXM or NVL: the row does not say
    assert "1 drafts" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("source", "fixture", "named"),
    [
        (
            "vllm-bench",
            "guidellm-v2.json",
            "this is a GuideLLM benchmarks.json; use `registry import guidellm`",
        ),
        (
            "guidellm",
            "aiperf.json",
            "this is a AIPerf profile_export_aiperf.json; use `registry import genai-perf`",
        ),
        (
            "llm-d",
            "inferencex-agg.json",
            "this is a InferenceX aggregated result; use `registry import inferencex`",
        ),
        ("inferencex", "llmd-report-v0.2.json", "use `registry import llm-d`"),
        ("genai-perf", "inference-perf-stage-0.json", "use `registry import inference-perf`"),
        ("sglang-bench", "guidellm-v1.json", "use `registry import guidellm`"),
    ],
)
def test_a_file_of_another_tool_is_named_and_exits_2(
    root: Path, capsys: pytest.CaptureFixture[str], source: str, fixture: str, named: str
) -> None:
    assert (
        main(["import", "--root", str(root), source, str(TOOLS / fixture), "--model", "models/qwen3-8b"]) == 2
    )
    assert named in capsys.readouterr().err
    assert not (root / "records" / "benchmarks").exists()


def test_a_second_import_changes_no_byte(root: Path) -> None:
    for source, fixture in (
        ("guidellm", "guidellm-v2.json"),
        ("llm-d", "llmd-report-v0.2.json"),
        ("inferencex", "inferencex-agg.json"),
    ):
        import_source(root, source, [TOOLS / fixture], ON_H100 if source == "guidellm" else DONE)
    before = {p: p.read_bytes() for p in (root / "records" / "benchmarks").glob("*.yaml")}
    for source, fixture in (
        ("guidellm", "guidellm-v2.json"),
        ("llm-d", "llmd-report-v0.2.json"),
        ("inferencex", "inferencex-agg.json"),
    ):
        again = import_source(root, source, [TOOLS / fixture], ON_H100 if source == "guidellm" else DONE)
        assert again.new == [] and again.changed == []
    assert {p: p.read_bytes() for p in before} == before
