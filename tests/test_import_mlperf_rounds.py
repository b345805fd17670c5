"""``registry import mlperf`` on the shapes earlier rounds publish (fixtures of our own): v4.1 to v6.0's
``summary_results.json`` and the submission checker's 28- and 29-column per-submitter summaries; units
from the round's checker and the run log over a contradicting Units column; one run filed under -99
and -99.9 as one record; result IDs, power and the inferred flag kept; run logs found under the
layouts rounds use, and each row without one listed with where it was looked for."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path, PurePosixPath

import pytest

from registry.authoring.importers.mlperf import (
    ResultsOptions,
    SourceOptions,
    import_mlperf,
    log_candidates,
)
from registry.authoring.importers.mlperf_table import COLUMNS, SUBMITTER_COLUMNS, SUBMITTER_TOTAL_COLUMNS
from registry.checker.pipeline import check
from registry.cli import main
from tests.conftest import REPO
from tests.test_import_mlperf import SUMMARY, _data, _records, make_root

FIXTURES = REPO / "tests" / "fixtures" / "mlperf"
JSON_TABLE = FIXTURES / "v5.1" / "summary_results.json"
RESULTS = FIXTURES / "results-v5.1"
OFFLINE = "benchmarks/mlperf-v5.1-example-h200x8_trt-llama2-70b-99.9-offline"
SERVER = "benchmarks/mlperf-v5.1-example-h200x8_trt-llama2-70b-99.9-server"
INTERACTIVE = "benchmarks/mlperf-v5.1-example-h200x8_trt-llama3.1-8b-interactive"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_root(tmp_path)


def _metric(record: dict[str, object]) -> dict[str, object]:
    metrics = record["metrics"]
    assert isinstance(metrics, list)
    first: dict[str, object] = metrics[0]
    return first


def test_a_round_json_table_imports_with_ids_power_and_targets(root: Path) -> None:
    result = import_mlperf(root, [JSON_TABLE], SourceOptions())
    assert result.rows == 7 and dict(result.skipped) == {"resnet": 1}
    assert sorted(_records(root)) == sorted(
        f"{name.split('/')[1]}.yaml"
        for name in (
            OFFLINE,
            SERVER,
            INTERACTIVE,
            "benchmarks/mlperf-v5.1-example-h200x8_trt-llama2-70b-99-server",
        )
    )
    record = _data(root, SERVER)
    provenance = record["provenance"]
    assert isinstance(provenance, dict)
    assert provenance["result_id"] == "5.1-0007" and provenance["round"] == "v5.1"
    metrics = record["metrics"]
    assert isinstance(metrics, list)
    assert metrics[0]["stated"] == "31000.25 tok/s"
    assert metrics[1] == {"metric": "power", "statistic": "mean", "per": "system", "stated": "5612.3 W"}
    assert metrics[0]["constraints"] == [
        {"metric": "ttft", "statistic": "p99", "limit": "2000 ms"},
        {"metric": "tpot", "statistic": "p99", "limit": "200 ms"},
    ]
    sources = record["sources"]
    assert isinstance(sources, list)
    rules = sources[-1]
    assert rules["revision"] == "e20506b2293e82564e1183817a889ed6258bb7dd"  # v5.1's checker, not v6.1's
    paths = sorted((root / "records" / "benchmarks").glob("*.yaml"))
    assert check(root, paths).diagnostics == []


def test_one_run_filed_under_99_and_99_9_is_one_record(root: Path) -> None:
    result = import_mlperf(root, [JSON_TABLE], SourceOptions())
    assert result.merged == 1
    record = _data(root, OFFLINE)
    provenance = record["provenance"]
    assert isinstance(provenance, dict)
    assert provenance["benchmark"] == "llama2-70b-99.9"
    assert provenance["also_filed_as"] == [{"benchmark": "llama2-70b-99", "row": 2}]
    text = (root / "records" / f"{OFFLINE}.yaml").read_text(encoding="utf-8")
    assert "one\n" in text and "measurement, recorded once" in text
    assert not (
        root / "records" / "benchmarks" / "mlperf-v5.1-example-h200x8_trt-llama2-70b-99-offline.yaml"
    ).exists()
    # Server figures differ (31000.25 and 30950.75): two runs, two records.
    assert "also_filed_as" not in _data(root, SERVER)["provenance"]  # type: ignore[operator]


def test_a_units_column_that_contradicts_the_checker_is_overridden_and_said(root: Path) -> None:
    import_mlperf(root, [JSON_TABLE], SourceOptions())
    metric = _metric(_data(root, INTERACTIVE))
    assert metric["metric"] == "output_throughput" and metric["stated"] == "70123.0 tok/s"
    text = (root / "records" / f"{INTERACTIVE}.yaml").read_text(encoding="utf-8")
    assert "Units column says 'Queries/s', but" in text and "the column is overridden" in text


def test_another_checkpoint_under_a_benchmark_is_listed_not_mapped(root: Path) -> None:
    result = import_mlperf(root, [JSON_TABLE], SourceOptions())
    assert [u.reason for u in result.unmapped] == [
        "UsedModel 'example_Llama-2-7b-chat-FP8' ran under the benchmark 'llama2-70b-99.9': another "
        "checkpoint than the benchmark's, in no table of the models that ran"
    ]


def test_reimport_reproduces_every_record_byte_for_byte(root: Path) -> None:
    import_mlperf(root, [JSON_TABLE], SourceOptions())
    before = _records(root)
    again = import_mlperf(root, [JSON_TABLE], SourceOptions())
    assert again.new == [] and again.changed == [] and _records(root) == before


def test_the_run_log_is_found_where_a_v5_1_location_stops_and_its_unit_is_read(root: Path) -> None:
    result = import_mlperf(root, [JSON_TABLE], SourceOptions(), ResultsOptions(RESULTS))
    assert result.logs == 1
    record = _data(root, INTERACTIVE)
    provenance = record["provenance"]
    assert isinstance(provenance, dict) and provenance["valid"] is True
    text = (root / "records" / f"{INTERACTIVE}.yaml").read_text(encoding="utf-8")
    assert "the run log's mlperf_log_summary.txt (sources) states 70123.0 as its Tokens/s figure" in text
    reasons = {u.where.rsplit(":", 1)[1]: u.reason for u in result.no_log}
    assert len(reasons) == 5
    assert any("the tree stops at closed/Example/results/H200x8_TRT/" in r for r in reasons.values())


def test_log_candidates_cover_the_rounds_layouts() -> None:
    v6 = "./closed/A/results/P/gpt-oss-120b/Offline/performance/run_1"
    assert log_candidates(v6) == [
        PurePosixPath("closed/A/results/P/gpt-oss-120b/Offline/performance/run_1/mlperf_log_summary.txt"),
        PurePosixPath(
            "build/submission/closed/A/results/P/gpt-oss-120b/Offline/performance/run_1/mlperf_log_summary.txt"
        ),
    ]
    assert log_candidates("build/submission/" + v6[2:]) == log_candidates(v6)
    assert log_candidates("closed/A/results/P/m/Server")[0] == PurePosixPath(
        "closed/A/results/P/m/Server/performance/run_1/mlperf_log_summary.txt"
    )


def _submitter_csv(tmp_path: Path, columns: tuple[str, ...], power: bool) -> Path:
    with SUMMARY.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    server = next(r for r in rows if r["Scenario"] == "Server" and r["Model"] == "llama3_1-8b")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerow([server[c] for c in columns])
    if power:
        writer.writerow(
            [
                server[c] if c not in ("Result", "Units") else {"Result": "812.5", "Units": "Watts"}[c]
                for c in columns
            ]
        )
    folder = tmp_path / f"sub{len(columns)}"
    folder.mkdir()
    path = folder / "summary.csv"
    path.write_text(out.getvalue(), encoding="utf-8")
    (folder / "README.md").write_text((SUMMARY.parent / "README.md").read_text(encoding="utf-8"))
    return path


@pytest.mark.parametrize("columns", [SUBMITTER_COLUMNS, SUBMITTER_TOTAL_COLUMNS])
def test_the_checker_s_per_submitter_summaries_import_as_the_round_table_does(
    root: Path, tmp_path: Path, columns: tuple[str, ...]
) -> None:
    assert len(columns) in (28, 29)
    result = import_mlperf(root, [_submitter_csv(tmp_path, columns, power=True)], SourceOptions())
    assert len(result.new) == 1 and result.unmapped == []
    record = _data(root, result.new[0])
    metrics = record["metrics"]
    assert isinstance(metrics, list) and metrics[1]["stated"] == "812.5 W"
    assert record["hardware_count"] == 1


def test_a_json_syntax_error_is_located_at_line_and_column_and_nothing_is_written(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = JSON_TABLE.read_text(encoding="utf-8").replace(
        '"Platform": "H200x8_TRT",', '"Platform": "H200x8_TRT"', 1
    )
    bad = tmp_path / "bad" / "summary_results.json"
    bad.parent.mkdir()
    bad.write_text(text, encoding="utf-8")
    code = main(
        [
            "import",
            "mlperf",
            str(JSON_TABLE),
            str(bad),
            "--root",
            str(root),
            "--repository",
            "e/r",
            "--commit",
            "0123456",
            "--file",
            "summary_results.json",
        ]
    )
    assert code == 2
    assert f"{bad}:10:5: not JSON" in capsys.readouterr().err
    assert _records(root) == {}


def test_another_tool_s_json_is_named(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "result.json"
    path.write_text(json.dumps({"num_prompts": 10, "completed": 10, "date": "x"}), encoding="utf-8")
    code = main(
        ["import", "mlperf", str(path), "--root", str(root), "--repository", "e/r", "--commit", "0123456"]
    )
    assert code == 2
    assert "this is a vllm bench serve result; use `registry import vllm-bench`" in capsys.readouterr().err


def test_a_csv_of_another_shape_names_the_shapes_it_reads(root: Path, tmp_path: Path) -> None:
    path = tmp_path / "x" / "summary.csv"
    path.parent.mkdir()
    path.write_text(",".join(COLUMNS[:20]) + "\n", encoding="utf-8")
    code = main(
        ["import", "mlperf", str(path), "--root", str(root), "--repository", "e/r", "--commit", "0123456"]
    )
    assert code == 2


V4_1 = FIXTURES / "v4.1" / "summary_results.json"
V6_0 = FIXTURES / "v6.0" / "summary_results.json"


def test_a_v4_1_table_keeps_its_v_prefixed_ids_float_counts_power_and_its_own_targets(root: Path) -> None:
    result = import_mlperf(root, [V4_1], SourceOptions())
    assert len(result.new) == 3  # mixtral-8x7b Offline and Server, gptj-99 Offline
    gptj = _data(root, "benchmarks/mlperf-v4.1-example-h100-sxm-80gbx8_trt-gptj-99-offline")
    assert gptj["model"] == "models/gpt-j-6b"
    record = _data(root, "benchmarks/mlperf-v4.1-example-h100-sxm-80gbx8_trt-mixtral-8x7b-offline")
    assert record["hardware_count"] == 8
    provenance = record["provenance"]
    assert isinstance(provenance, dict) and provenance["result_id"] == "v4.1-0049"
    metrics = record["metrics"]
    assert isinstance(metrics, list) and metrics[1]["stated"] == "6012.5 W"
    accuracy = record["accuracy"]
    assert isinstance(accuracy, list)
    assert accuracy[0]["target"] == "99% of the reference 45.4911"  # v4.1's reference, not v5.1's 45.5989
    sources = record["sources"]
    assert isinstance(sources, list) and sources[-1]["revision"] == "c7db1c3f9a0ae0623200e05580d77a8759644812"
    reasons = [u.reason for u in result.unmapped]
    assert len(reasons) == 1 and "example_Llama-2-7b-chat-FP8" in reasons[0]


def test_a_v6_0_table_with_a_count_its_name_contradicts_and_an_inferred_row(root: Path) -> None:
    result = import_mlperf(root, [V6_0], SourceOptions())
    assert len(result.new) == 2 and result.unmapped == []
    cluster = "benchmarks/mlperf-v6.0-example-87xmi355x_22xepyc_9575f-llama2-70b-99-interactive"
    record = _data(root, cluster)
    assert record["hardware_count"] == 87
    system = record["system"]
    assert isinstance(system, dict) and system["nodes"] == 11 and "accelerators_per_node" not in system
    provenance = record["provenance"]
    assert isinstance(provenance, dict) and provenance["inferred"] is True
    assert provenance["run_path"].startswith("./closed/Example/results/")
    text = (root / "records" / f"{cluster}.yaml").read_text(encoding="utf-8")
    assert "gives 88" in text and "inferred" in text
    nvl = _data(root, "benchmarks/mlperf-v6.0-example-gb300x72_trt-gpt-oss-120b-offline")
    assert nvl["hardware_count"] == 72
    sources = nvl["sources"]
    assert isinstance(sources, list) and sources[-1]["revision"] == "6d0cf9dcb1b470e1fed4c7cd913e6a345b1b658a"
    paths = sorted((root / "records" / "benchmarks").glob("*.yaml"))
    assert check(root, paths).diagnostics == []


def test_a_run_log_under_build_submission_is_found(root: Path, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    nested = tree / "build" / "submission"
    shutil.copytree(RESULTS / "closed", nested / "closed")
    shutil.copy(RESULTS / "README.md", tree / "README.md")
    result = import_mlperf(root, [JSON_TABLE], SourceOptions(), ResultsOptions(tree))
    assert result.logs == 1
    sources = _data(root, INTERACTIVE)["sources"]
    assert isinstance(sources, list)
    assert any(str(s.get("file", "")).startswith("build/submission/closed/Example/") for s in sources)


def test_another_checkpoint_named_by_its_submission_is_mapped_and_cited(root: Path, tmp_path: Path) -> None:
    rows = json.loads(JSON_TABLE.read_text(encoding="utf-8"))
    row = rows[0] | {"Submitter": "Krai", "Category": "open", "UsedModel": "llama3_1-70b-fp8_pre"}
    row |= {
        "weight_data_types": "UNSET",
        "Location": "open/Krai/results/H200x8_TRT/llama3_1-70b-fp8_pre/Offline",
    }
    folder = tmp_path / "krai"
    folder.mkdir()
    path = folder / "summary_results.json"
    path.write_text(json.dumps([row], indent=2), encoding="utf-8")
    shutil.copy(JSON_TABLE.parent / "README.md", folder / "README.md")
    result = import_mlperf(root, [path], SourceOptions())
    assert result.unmapped == [] and len(result.new) == 1
    record = _data(root, result.new[0])
    assert record["model"] == "models/llama-3.1-70b"
    precision = record["precision"]
    assert isinstance(precision, dict) and precision["weights"] == "fp8"
    text = (root / "records" / f"{result.new[0]}.yaml").read_text(encoding="utf-8")
    assert "names its checkpoint neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8, served as fp8" in text
    assert "open/Krai/documentation/calibration.md" in text
