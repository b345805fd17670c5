"""vLLM's and SGLang's result files of every generation: the keys each writes, the model read from the
file and matched to a record (or refused, naming both), the mean lengths from the totals, speculative
decoding, SGLang's server_info, a fixed-concurrency run and the per-line engine of an appended file."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from registry.authoring.importers.bench import import_bench
from registry.authoring.importers.imported import BenchOptions
from registry.authoring.importers.mlperf_table import SourceError
from registry.checker.load import load_text
from registry.checker.pipeline import check
from registry.cli import main
from tests.conftest import REPO

BENCH = REPO / "tests" / "fixtures" / "bench"
OPTIONS = BenchOptions(
    hardware="hardware/h100-sxm",
    count=1,
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


def _text(root: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in (root / "records" / "benchmarks").glob("*.yaml"))


def test_vllm_2024_keys_and_a_hub_cache_folder(root: Path) -> None:
    result = import_bench(root, "vllm-bench", [BENCH / "vllm-2024-cache-path.json"], OPTIONS)
    (record,) = _records(root)
    assert record["model"] == "models/gpt-oss-120b"
    assert "the Hub cache folder of openai/gpt-oss-120b" in result.models[0]
    assert {
        ("request_throughput", "value", "system", "3.906 req/s"),  # request_inthroughput (sic)
        ("input_throughput", "value", "system", "4000.0 tok/s"),
        ("e2e_latency", "mean", "request", "9880.0 ms"),  # mean_latency_ms
        ("e2e_latency", "p99", "request", "10311.0 ms"),
    } <= _metrics(record)
    workload = record["workload"]
    assert (workload["input_tokens"], workload["output_tokens"], workload["lengths"]) == (1024, 1000, "mean")
    assert "total_input_tokens 102400 / completed 100" in workload["description"]
    assert result.unknown == []


def test_the_2025_goodput_key_with_its_colon_and_the_per_request_lists(root: Path) -> None:
    import_bench(root, "vllm-bench", [BENCH / "vllm-2025-goodput.json"], OPTIONS)
    (record,) = _records(root)
    assert ("request_goodput", "value", "system", "1.0 req/s") in _metrics(record)
    assert ("e2e_latency", "median", "request", "3118.0 ms") in _metrics(record)
    # 4097 input tokens over 4 requests: a mean of 1024.25, rounded down, and said
    assert record["workload"]["input_tokens"] == 1024
    assert "= 1024.25, rounded down" in record["workload"]["description"]
    text = _text(root)
    assert "input_lens (per-request values)" in text and "ttfts (per-request values)" in text


def test_a_fixed_concurrency_run_is_a_sweep_point_not_offline(root: Path) -> None:
    import_bench(root, "vllm-bench", [BENCH / "vllm-2025-goodput.json"], OPTIONS)
    (record,) = _records(root)
    assert record["scenario"] == "sweep-point"
    assert record["sweep"] == {"parameter": "concurrency", "value": 32}
    assert "fixed concurrency 32" in record["title"]


def test_speculative_decoding_a_low_peak_and_an_unknown_key(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = BENCH / "vllm-spec-decode.json"
    argv = ["import", "--root", str(root), "vllm-bench", str(path), "--hardware", "hardware/h100-sxm"]
    argv += [
        "--count",
        "1",
        "--engine-version",
        "0.11.0",
        "--prefix-cache",
        "cold",
        "--speculative-method",
        "eagle3",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "gpu_type" in out and "keys no importer of this tool knows" in out
    (record,) = _records(root)
    assert record["system"]["speculative"] == {
        "method": "eagle3",
        "draft_tokens": 4,
        "acceptance_length": 3.5,
    }
    # max_output_tokens_per_s 46 sits below the mean of 1365.3: no peak, and said why
    assert not any(m["statistic"] == "max" for m in record["metrics"] if m["metric"] == "output_throughput")
    text = _text(root)
    assert "max_output_tokens_per_s 46.0 (below output_throughput 1365.3" in text
    assert "Keys this importer does not know (not read): gpu_type." in text
    assert "spec_decode_acceptance_rate (speculative decoding's counts" in text


def test_each_line_of_an_appended_file_is_served_by_its_framework(root: Path) -> None:
    import_bench(root, "vllm-bench", [BENCH / "vllm-two-frameworks.jsonl"], OPTIONS)
    engines = sorted((r["engine"], r["layout"], r["provenance"]["row"]) for r in _records(root))
    assert engines == [("engines/sglang", "sglang", 1), ("engines/vllm", "vllm", 2)]


def test_sglang_server_info_of_a_disaggregated_server(root: Path) -> None:
    import_bench(
        root, "sglang-bench", [BENCH / "sglang-pd-eagle.jsonl"], replace(OPTIONS, engine_version=None)
    )
    (record,) = _records(root)
    assert record["model"] == "models/deepseek-r1"  # /server_info/decode/0/model_path
    assert record["engine_version"] == "0.0.0-fixture"
    assert record["precision"]["kv_cache"] == "fp8_e4m3"
    assert record["system"]["parallelism"] == {"tensor": 8, "data": 8, "pipeline": 1, "expert": 8}
    # EAGLE verifying 4 tokens a step: a step yields at most 4, 1 + draft_tokens
    assert record["system"]["speculative"] == {
        "method": "eagle",
        "draft_tokens": 3,
        "acceptance_length": 2.71,
    }
    workload = record["workload"]
    assert (workload["input_tokens"], workload["output_tokens"], workload["lengths"]) == (1000, 1000, "fixed")
    assert record["scenario"] == "sweep-point"
    assert ("output_throughput", "max", "system", "12800.0 tok/s") in _metrics(record)


def test_an_option_the_server_info_contradicts_is_refused_naming_both(root: Path) -> None:
    with pytest.raises(
        SourceError, match=r"the file says the KV cache's format 'fp8_e4m3', the command line 'bf16'"
    ):
        import_bench(
            root,
            "sglang-bench",
            [BENCH / "sglang-pd-eagle.jsonl"],
            replace(OPTIONS, engine_version=None, kv_cache="bf16"),
        )
    assert not (root / "records" / "benchmarks").exists()


def test_no_model_option_imports_the_file_s_model_and_a_contradicting_one_is_refused(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(BENCH / "vllm-8qps-llama.json")
    assert main(["import", "--root", str(root), "vllm-bench", path]) == 0
    out = capsys.readouterr().out
    assert "models/llama-3.1-8b-instruct: Model read from the file: the file's model_id" in out
    shutil.rmtree(root / "records" / "benchmarks")
    assert main(["import", "--root", str(root), "vllm-bench", path, "--model", "models/qwen3.6-27b"]) == 2
    err = capsys.readouterr().err
    assert "--model models/qwen3.6-27b" in err and "'meta-llama/Llama-3.1-8B-Instruct'" in err
    assert not (root / "records" / "benchmarks").exists()


def test_a_checkpoint_of_the_model_is_no_contradiction(root: Path, tmp_path: Path) -> None:
    text = (BENCH / "vllm-8qps-llama.json").read_text()
    fp8 = tmp_path / "fp8.json"
    fp8.write_text(
        text.replace(
            '"model_id": "meta-llama/Llama-3.1-8B-Instruct"',
            '"model_id": "neuralmagic/Llama-3.1-8B-Instruct-FP8"',
        )
    )
    with pytest.raises(
        SourceError, match="is no model record's Hub repository; give the model record with --model"
    ):
        import_bench(root, "vllm-bench", [fp8], OPTIONS)
    import_bench(root, "vllm-bench", [fp8], replace(OPTIONS, model="models/llama-3.1-8b-instruct"))
    assert _records(root)[0]["model"] == "models/llama-3.1-8b-instruct"


def test_every_generation_with_its_options_checks_clean(root: Path) -> None:
    import_bench(
        root,
        "vllm-bench",
        [BENCH / n for n in ("vllm-2024-cache-path.json", "vllm-2025-goodput.json")],
        OPTIONS,
    )
    import_bench(root, "vllm-bench", [BENCH / "vllm-two-frameworks.jsonl"], OPTIONS)
    import_bench(
        root,
        "sglang-bench",
        [BENCH / "sglang-pd-eagle.jsonl"],
        replace(OPTIONS, hardware="hardware/h200", count=16, engine_version=None),
    )
    paths = sorted((root / "records" / "benchmarks").glob("*.yaml"))
    assert len(paths) == 5
    assert [d for d in check(root, paths).diagnostics if d.severity == "error"] == []


def test_hostile_keys_and_values_stay_inside_one_comment_line(root: Path, tmp_path: Path) -> None:
    values = json.loads((BENCH / "vllm-8qps-llama.json").read_text())
    values |= {f"extra\n{i}\u202e": i for i in range(200)}
    values["backend"] = "openai\n# injected: true"
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(values))
    result = import_bench(root, "vllm-bench", [hostile], OPTIONS)
    (path,) = (root / "records" / "benchmarks").glob("*.yaml")
    text = path.read_text(encoding="utf-8")
    assert "\u202e" not in text and "\n# injected" not in text
    assert "and 160 more" in text and "and 160 more" in result.unknown[0]
    assert _records(root)[0]["model"] == "models/llama-3.1-8b-instruct"
