"""``registry import mlperf``: MLPerf Inference summary rows as benchmark records, mapped through explicit
tables, idempotent, and all-or-nothing on bad input."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from registry.authoring.fmt import format_text
from registry.authoring.importers.mlperf import SourceOptions, import_mlperf, plan_import
from registry.authoring.importers.mlperf_table import COLUMNS, SourceError
from registry.checker.load import load_text
from registry.checker.pipeline import check
from registry.cli import main
from registry.db import build_database, run_query
from registry.errors import RegistryError
from tests.conftest import REPO

FIXTURES = REPO / "tests" / "fixtures" / "mlperf"
SUMMARY = FIXTURES / "v6.1" / "summary.csv"
LATER = FIXTURES / "v6.2" / "summary.csv"
COMMIT = "0123456789abcdef0123456789abcdef01234567"
B300_OFFLINE = "benchmarks/mlperf-v6.1-example-b300-sxm-270gbx8_trt-llama2-70b-99.9-offline"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A registry holding the repository's model, hardware and engine records, and no benchmarks."""
    return make_root(tmp_path)


def make_root(tmp_path: Path) -> Path:
    registry = tmp_path / "registry"
    for collection in ("models", "hardware", "engines"):
        shutil.copytree(REPO / "records" / collection, registry / "records" / collection)
    instruct = registry / "records" / "models" / "llama-3.1-8b-instruct.yaml"
    if not instruct.exists():  # the fixture's llama3.1-8b rows need the checkpoint MLPerf runs
        text = (REPO / "records" / "models" / "llama-3.1-8b.yaml").read_text(encoding="utf-8")
        instruct.write_text(text.replace("id: models/llama-3.1-8b\n", "id: models/llama-3.1-8b-instruct\n"))
    return registry


def _records(root: Path) -> dict[str, bytes]:
    folder = root / "records" / "benchmarks"
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.yaml"))} if folder.exists() else {}


def _data(root: Path, record_id: str) -> dict[str, object]:
    path = root / "records" / f"{record_id}.yaml"
    document = load_text(str(path), path.read_text(encoding="utf-8")).document
    assert document is not None
    data: dict[str, object] = document.data
    return data


def _rows() -> list[dict[str, str]]:
    with SUMMARY.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _write(path: Path, rows: list[dict[str, str]], header: tuple[str, ...] = COLUMNS) -> Path:
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n")
    writer.writerow(header)
    writer.writerows([[row.get(column, "") for column in header] for row in rows])
    path.write_text(out.getvalue(), encoding="utf-8")
    (path.parent / "README.md").write_text((SUMMARY.parent / "README.md").read_text(encoding="utf-8"))
    return path


def test_each_llm_row_is_one_record_and_the_rest_are_counted(root: Path) -> None:
    result = import_mlperf(root, [SUMMARY], SourceOptions())
    assert result.rows == 6
    assert dict(result.skipped) == {"resnet50": 1}
    assert result.unmapped == []
    assert len(result.new) == 5 and len(_records(root)) == 5
    assert B300_OFFLINE in result.new


def test_a_row_maps_to_its_model_hardware_engine_and_figures(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions())
    record = _data(root, B300_OFFLINE)
    assert record["model"] == "models/llama-2-70b-chat"
    assert record["hardware"] == "hardware/b300"
    assert record["engine"] == "engines/tensorrt-llm"
    assert record["layout"] == "trtllm"
    assert record["hardware_count"] == 8
    assert record["scenario"] == "offline"
    assert record["metrics"] == [
        {"metric": "output_throughput", "statistic": "value", "per": "system", "stated": "51234.5 tok/s"}
    ]
    assert record["precision"] == {"weights": "fp4", "weight_formats": ["fp4"], "kv_cache": None}
    assert "context_tokens" not in record  # the summary states no sequence length; none is made up
    assert record["system"] == {
        "name": "Example DGX B300 (8x B300-SXM-270GB, TensorRT)",
        "nodes": 1,
        "accelerators_per_node": 8,
        "host_processor": "Intel(R) Xeon(R) Platinum 8570",
    }
    assert record["accuracy"] == [  # each with MLPerf's target: 99.9% of the reference (the -99.9 benchmark)
        {
            "metric": "rouge1",
            "value": 44.4312,
            "target": "99.9% of the reference 44.4312",
            "target_value": 44.3867688,
        },
        {
            "metric": "rouge2",
            "value": 22.0811,
            "target": "99.9% of the reference 22.0352",
            "target_value": 22.0131648,
        },
        {
            "metric": "rougel",
            "value": 28.7202,
            "target": "99.9% of the reference 28.6162",
            "target_value": 28.5875838,
        },
        {
            "metric": "tokens_per_sample",
            "value": 284.0,
            "target": "90% to 110% of the reference 294.45",
            "target_value": 265.005,
        },
    ]
    assert record["provenance"] == {
        "source": "mlperf",
        "repository": "example/inference_results_v6.1",
        "file": "summary.csv",
        "commit": COMMIT,
        "row": 1,
        "run_path": "./closed/Example/results/B300-SXM-270GBx8_TRT/llama2-70b-99.9/Offline/performance/run_1",
        "benchmark": "llama2-70b-99.9",
        "round": "v6.1",
        "division": "closed",
        "availability": "available",
        "submitter": "Example",
    }


def test_a_benchmark_s_dataset_gives_its_mean_input_length_with_its_citations(root: Path) -> None:
    """A llama2-70b record states the dataset's mean prompt (rounded down), why the run's mean is it and
    the closed division's cap on the output; a benchmark whose dataset has no cited lengths states none,
    and an open-division run no cap."""
    import_mlperf(root, [SUMMARY], SourceOptions())
    workload = _data(root, B300_OFFLINE)["workload"]
    assert isinstance(workload, dict)
    assert workload["input_tokens"] == 222 and workload["lengths"] == "mean"  # 5,463,976 / 24,576 = 222.3
    assert workload["max_output_tokens"] == 1024  # the closed division's max_new_tokens
    assert "equal issue" in workload["distribution"] and "OpenOrca" in workload["dataset"]
    sources = _data(root, B300_OFFLINE)["sources"]
    assert isinstance(sources, list)
    files = [source.get("file") for source in sources]
    assert "mlperf-data/summaries/llama2-70b-99.csv" in files and "loadgen/mlperf.conf" in files
    quotes = " ".join(str(source.get("quote", "")) for source in sources)
    assert "llama2-70b.*.sample_concatenate_permutation = 1" in quotes
    assert "|Summarization (Llama2-70b) |max_new_tokens |1024 |" in quotes
    others = [
        _data(root, record_id)
        for record_id in (f"benchmarks/{p.stem}" for p in (root / "records" / "benchmarks").glob("*.yaml"))
    ]
    by_benchmark = {r["provenance"]["benchmark"]: r["workload"] for r in others}  # type: ignore[index]
    assert by_benchmark["llama3.1-8b"]["input_tokens"] == 870  # type: ignore[index]
    assert by_benchmark["llama3.1-8b"]["max_output_tokens"] == 128  # type: ignore[index]
    edge = by_benchmark["llama3.1-8b-edge"]  # an open-division run of a 5,000-article subset: neither
    assert "input_tokens" not in edge and "max_output_tokens" not in edge  # type: ignore[operator]


def test_units_scenarios_mixed_parts_and_cpu_systems_map_by_their_tables(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions())
    vlm = _data(
        root,
        "benchmarks/mlperf-v6.1-other_cloud-gb300-nvl72_gb300-288gb_aarch64x72_trt-qwen3-vl-235b-a22b-server",
    )
    assert (
        vlm["engine"] == "engines/vllm"
        and vlm["hardware"] == "hardware/gb300"
        and vlm["hardware_count"] == 72
    )
    assert vlm["metrics"] == [  # qwen3-vl has no token latencies: its server target is end to end
        {
            "metric": "query_throughput",
            "statistic": "value",
            "per": "system",
            "stated": "210.57 queries/s",
            "constraints": [{"metric": "e2e_latency", "statistic": "p99", "limit": "12000 ms"}],
        }
    ]
    assert vlm["precision"] == {"weights": "nvfp4", "weight_formats": ["nvfp4"], "kv_cache": "fp8"}
    assert vlm["accuracy"] == [  # unnamed in the summary; the checker's only target for it names it
        {
            "metric": "f1_hierarchical",
            "value": 0.7871234,
            "target": "99% of the reference 0.7903",
            "target_value": 0.782397,
        }
    ]
    assert vlm["provenance"]["availability"] == "preview"  # type: ignore[index]
    mixed = _data(root, "benchmarks/mlperf-v6.1-mixed_systems-h200x8_mi350xx8-gpt-oss-120b-interactive")
    assert "hardware" not in mixed and mixed["hardware_count"] == 16
    assert mixed["metrics"][0]["constraints"] == [  # type: ignore[index]
        {"metric": "ttft", "statistic": "p99", "limit": "2000 ms"},
        {"metric": "tpot", "statistic": "p99", "limit": "15 ms"},
    ]
    assert mixed["system"]["accelerators"] == [  # type: ignore[index]
        {"hardware": "hardware/h200", "count": 8},
        {"hardware": "hardware/mi350x", "count": 8},
    ]
    edge = _data(root, "benchmarks/mlperf-v6.1-edge-co-rtx_pro_4500x4_trt_open-llama3.1-8b-edge-singlestream")
    assert edge["scenario"] == "single-stream" and edge["engine"] is None and edge["layout"] == "ideal"
    assert edge["metrics"] == [
        {"metric": "e2e_latency", "statistic": "p90", "per": "request", "stated": "1843.27 ms"}
    ]
    assert edge["precision"] == {"weights": None, "weight_formats": ["fp8", "fp4"], "kv_cache": None}
    cpu = _data(root, "benchmarks/mlperf-v6.1-intel-1-node-2s-gnr_128c-llama3_1-8b-server")
    assert cpu["provenance"]["benchmark"] == "llama3.1-8b"  # type: ignore[index]  # llama3_1-8b is its spelling
    assert cpu["hardware"] == "hardware/xeon-6980p-2s-intel" and cpu["hardware_count"] == 1
    assert "accelerators_per_node" not in cpu["system"]  # type: ignore[operator]


def test_records_are_canonical(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions())
    for name, raw in _records(root).items():
        assert format_text(raw.decode()) == raw.decode(), name


def test_importing_twice_changes_no_byte(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions())
    before = _records(root)
    stamps = {p: p.stat().st_mtime_ns for p in (root / "records" / "benchmarks").iterdir()}
    again = import_mlperf(root, [SUMMARY], SourceOptions())
    assert again.new == again.changed == [] and len(again.unchanged) == 5
    assert _records(root) == before
    assert {p: p.stat().st_mtime_ns for p in (root / "records" / "benchmarks").iterdir()} == stamps


def test_a_round_whose_checker_rules_are_not_tabled_is_listed_not_guessed(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions())
    before = _records(root)
    options = SourceOptions(
        "example/inference_results_v6.2", "89abcdef0123456789abcdef0123456789abcdef", "summary.csv"
    )
    later = import_mlperf(root, [LATER], options)
    assert later.new == [] and len(later.unmapped) == 1
    assert "'v6.2': no round whose submission-checker rules are tabled" in later.unmapped[0].reason
    assert _records(root) == before


def test_a_changed_value_rewrites_its_record_and_only_it(root: Path, tmp_path: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions())
    before = _records(root)
    rows = _rows()
    rows[0]["Result"] = "52000.0"
    (tmp_path / "src").mkdir()
    changed = _write(tmp_path / "src" / "summary.csv", rows)
    result = import_mlperf(root, [changed], SourceOptions())
    assert result.changed == [B300_OFFLINE] and result.new == []
    after = _records(root)
    assert after.keys() == before.keys()
    assert [name for name in after if after[name] != before[name]] == [B300_OFFLINE.split("/")[1] + ".yaml"]
    assert _data(root, B300_OFFLINE)["metrics"][0]["stated"] == "52000.0 tok/s"  # type: ignore[index]


def test_unmappable_rows_are_listed_with_reasons_and_exit_1(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = _rows()
    first = rows[0]
    other_model = first | {
        "Organization": "Lambda",
        "Platform": "B200-SXM-180GBx8_SGLANG",
        "Model": "qwen3.6-27b",
        "MlperfModel": "agentic edge",
        "Scenario": "SingleStream",
        "Units": "Latency (ms)",
    }
    unknown_part = first | {"accelerator_model_name": "NVIDIA H999", "Platform": "H999x8"}
    unknown_stack = first | {"framework": "Mystery Engine 1.0", "Platform": "Mystery"}
    unknown_dtype = first | {"weight_data_types": "BF16/F8_E4M3/U8", "Platform": "U8"}
    unlisted_dtype = first | {"weight_data_types": "fp3", "Platform": "FP3"}
    (tmp_path / "src").mkdir()
    path = _write(
        tmp_path / "src" / "summary.csv",
        [first, other_model, unknown_part, unknown_stack, unknown_dtype, unlisted_dtype],
    )
    code = main(["import", "mlperf", str(path), "--root", str(root)])
    out = capsys.readouterr().out
    assert code == 1
    assert "not imported, 5 LLM rows that cannot be mapped:" in out
    assert f"{path}:3: Model 'qwen3.6-27b': the run served moonshotai/Kimi-K2.6" in out
    assert f"{path}:4: accelerator_model_name 'NVIDIA H999' is not in the hardware table" in out
    assert f"{path}:5: framework 'Mystery Engine 1.0' is not in the framework table" in out
    assert (
        f"{path}:6: weight_data_types 'BF16/F8_E4M3/U8' lists checkpoint storage types, not formats "
        "(U8 is no format), and no submitter config of this run" in out
    )
    assert f"{path}:7: weight_data_types 'fp3' is not in the precision table" in out
    assert list(_records(root)) == [B300_OFFLINE.split("/")[1] + ".yaml"]


def test_storage_types_map_by_the_submitter_s_config_of_the_run(root: Path, tmp_path: Path) -> None:
    vlm = _rows()[2] | {
        "Organization": "Nebius",
        "Platform": "B300-SXM-270GBx8_TRT",
        "Scenario": "Offline",
        "weight_data_types": "BF16/F8_E4M3/U8",
        "Units": "Samples/s",
    }
    (tmp_path / "src").mkdir()
    result = import_mlperf(root, [_write(tmp_path / "src" / "summary.csv", [vlm])], SourceOptions())
    assert result.unmapped == [] and len(result.new) == 1
    record = _data(root, result.new[0])
    assert record["precision"] == {"weights": "nvfp4", "weight_formats": ["nvfp4"], "kv_cache": "fp8"}
    config = "closed/Nebius/configs/qwen3_vl_235b_a22b/B300-SXM-270GBx8/VLLM/Offline/qwen3vl_config.yaml"
    assert config in [source["file"] for source in record["sources"]]  # type: ignore[union-attr,index]


def test_a_mapped_record_missing_from_the_registry_is_a_reason(root: Path) -> None:
    (root / "records" / "hardware" / "gb300.yaml").unlink()
    result, _ = plan_import(root, [SUMMARY], SourceOptions())
    assert [u.reason for u in result.unmapped] == [
        "'NVIDIA GB300' maps to hardware/gb300, which has no record in this registry"
    ]


def _bad(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "bad"
    folder.mkdir(exist_ok=True)
    (folder / "README.md").write_text((SUMMARY.parent / "README.md").read_text(encoding="utf-8"))
    path = folder / "summary.csv"
    path.write_text(text, encoding="utf-8")
    return path


def _good_text() -> str:
    return SUMMARY.read_text(encoding="utf-8")


BAD_INPUTS = {
    "wrong header": (lambda t: t.replace('"Organization"', '"Org"', 1), ":1: not the header of an MLPerf"),
    "short row": (lambda t: _drop_field(t, 4), ":4: 30 fields, but the header has 31"),
    "not a number": (lambda t: t.replace('"210.57"', '"fast"'), ":4: Result 'fast' is not a number"),
    "bad count": (
        lambda t: t.replace('"72"', '"seventy-two"'),
        ":4: total_accelerators 'seventy-two' is not a whole number",
    ),
    "bad accuracy": (
        lambda t: t.replace('"exact_match: 83.402"', '"exact_match: high"'),
        ":5: Accuracy 'exact_match: high'",
    ),
    "another tool": (
        lambda t: '{"date": "20260101-120000", "backend": "vllm", "request_throughput": 3.2}\n',
        ":1: not a round's summary_results.json",
    ),
    "unterminated quote": (lambda t: t + '"Example,"available\n', ":8: not valid CSV"),
}


def _drop_field(text: str, line: int) -> str:
    lines = text.split("\n")
    lines[line - 1] = lines[line - 1].rsplit(",", 1)[0]
    return "\n".join(lines)


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_located_exit_2_and_nothing_is_written(
    root: Path, tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions())
    before = _records(root)
    change, expected = BAD_INPUTS[case]
    bad = _bad(tmp_path, change(_good_text()))
    options = ["--repository", "example/r", "--commit", COMMIT, "--file", "summary.csv"]
    # a good file first: nothing of it is written either
    code = main(["import", "mlperf", str(LATER), str(bad), "--root", str(root), *options])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{bad}{expected}" in err
    assert _records(root) == before


def test_the_source_must_be_known(root: Path, tmp_path: Path) -> None:
    (tmp_path / "alone").mkdir()
    path = tmp_path / "alone" / "summary.csv"
    path.write_text(_good_text(), encoding="utf-8")
    with pytest.raises(RegistryError, match="--repository --commit"):
        import_mlperf(root, [path], SourceOptions(file="summary.csv"))
    assert _records(root) == {}


def test_help_states_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    out = capsys.readouterr().out
    assert "exit codes: 0 every LLM row imported, 1 some rows could not be mapped" in out
    assert "SOURCE" in out and "--commit" in out


def test_source_error_is_a_registry_error() -> None:
    assert issubclass(SourceError, RegistryError)


def test_imported_records_check_clean(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions())
    paths = sorted((root / "records" / "benchmarks").glob("*.yaml"))
    assert len(paths) == 5
    assert check(root, paths).diagnostics == []


def test_the_database_tells_a_benchmark_s_accuracy_target_apart(tmp_path: Path) -> None:
    root = tmp_path / "registry"
    shutil.copytree(REPO / "records", root / "records")
    import_mlperf(root, [SUMMARY], SourceOptions())
    build_database(root, tmp_path / "registry.duckdb")
    sql = (
        "SELECT source_benchmark FROM benchmarks "
        "WHERE source_repository = 'example/inference_results_v6.1' ORDER BY source_benchmark"
    )
    rows = run_query(tmp_path / "registry.duckdb", sql).rows
    assert [row[0] for row in rows] == [
        "gpt-oss-120b",
        "llama2-70b-99.9",
        "llama3.1-8b",
        "llama3.1-8b-edge",
        "qwen3-vl-235b-a22b",
    ]
