"""``registry import mlperf --results DIR``: each run's own ``mlperf_log_summary.txt`` (fixtures of our
own, in LoadGen's layout) adds its latency statistics and verdict to the record, cited; a malformed log is
located and nothing is written; a log that disagrees with its row is a listed reason; an import given no
log for a run keeps the figures an earlier import read from it, and a log read again replaces them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from registry.authoring.importers.mlperf import ResultsOptions, SourceOptions, import_mlperf
from registry.authoring.importers.mlperf_log import milliseconds, read_log
from registry.authoring.importers.mlperf_table import SourceError
from registry.checker.pipeline import check
from registry.cli import main
from tests.conftest import REPO
from tests.test_import_mlperf import SUMMARY, _data, _records, make_root

RESULTS = REPO / "tests" / "fixtures" / "mlperf" / "results"
INTEL_SERVER = "benchmarks/mlperf-v6.1-intel-1-node-2s-gnr_128c-llama3_1-8b-server"
MIXED_INTERACTIVE = "benchmarks/mlperf-v6.1-mixed_systems-h200x8_mi350xx8-gpt-oss-120b-interactive"
INTEL_LOG = (
    "closed/Intel/results/1-node-2S-GNR_128C/llama3_1-8b/Server/performance/run_1/mlperf_log_summary.txt"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_root(tmp_path)


def _copy(tmp_path: Path) -> Path:
    tree = tmp_path / "results"
    shutil.copytree(RESULTS, tree)
    return tree


def test_a_run_log_adds_its_latencies_verdict_and_citation(root: Path) -> None:
    result = import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(RESULTS))
    assert result.logs == 3 and result.unmapped == []
    record = _data(root, INTEL_SERVER)
    metrics = record["metrics"]
    assert isinstance(metrics, list)
    assert metrics[0]["constraints"] == [
        {"metric": "ttft", "statistic": "p99", "limit": "2000 ms"},
        {"metric": "tpot", "statistic": "p99", "limit": "100 ms"},
    ]
    by = {(m["metric"], m["statistic"]): m["stated"] for m in metrics[1:]}
    assert by[("ttft", "p99")] == "1850 ms" and by[("ttft", "mean")] == "480 ms"
    assert by[("tpot", "median")] == "70.5 ms" and by[("tpot", "p99.9")] == "99 ms"
    assert by[("e2e_latency", "max")] == "61000 ms" and by[("ttft", "min")] == "40 ms"
    assert all(m["per"] == "request" for m in metrics[1:])
    assert not any(statistic == "p97" for _, statistic in by)  # no name for LoadGen's 97th percentile
    provenance = record["provenance"]
    assert isinstance(provenance, dict) and provenance["valid"] is True
    sources = record["sources"]
    assert isinstance(sources, list)
    log = next(s for s in sources if s["title"].endswith("run log summary"))
    assert log["file"] == INTEL_LOG and log["revision"] == "89abcdef0123456789abcdef0123456789abcdef"
    assert log["url"].startswith("https://github.com/example/inference_results_v6.1/blob/89abcdef")


def test_an_interactive_run_is_loadgen_s_server_and_its_verdict_is_kept(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(RESULTS))
    record = _data(root, MIXED_INTERACTIVE)
    provenance = record["provenance"]
    assert isinstance(provenance, dict) and provenance["valid"] is False
    metrics = record["metrics"]
    assert isinstance(metrics, list)
    assert {"metric": "ttft", "statistic": "p99", "per": "request", "stated": "2150 ms"} in metrics


def test_an_offline_log_gives_no_request_latency(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(RESULTS))
    record = _data(root, "benchmarks/mlperf-v6.1-example-b300-sxm-270gbx8_trt-llama2-70b-99.9-offline")
    metrics = record["metrics"]
    assert isinstance(metrics, list) and len(metrics) == 1  # the summary's throughput alone
    provenance = record["provenance"]
    assert isinstance(provenance, dict) and provenance["valid"] is True


def test_logs_import_twice_unchanged_and_check_clean(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(RESULTS))
    first = _records(root)
    again = import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(RESULTS))
    assert again.new == [] and again.changed == [] and _records(root) == first
    assert check(root, sorted((root / "records" / "benchmarks").glob("*.yaml"))).diagnostics == []


def test_milliseconds_move_the_decimal_point_exactly() -> None:
    assert milliseconds(419720124) == "419.720124 ms"
    assert milliseconds(2000000000) == "2000 ms"
    assert milliseconds(913788) == "0.913788 ms"


@pytest.mark.parametrize(
    ("edit", "line", "words"),
    [
        (lambda t: t.replace("MLPerf Results Summary", "Some other summary"), 1, "not an MLPerf log summary"),
        (lambda t: t.replace("Result is : VALID", "Result is : MAYBE"), 9, "neither VALID nor INVALID"),
        (lambda t: t.replace("Result is : VALID\n", ""), None, "no 'Result is :' line"),
        (
            lambda t: t.replace(
                "Mean First Token latency (ns)             : 480000000",
                "Mean First Token latency (ns) : 4.8e8",
            ),
            36,
            "is not a whole number of nanoseconds",
        ),
    ],
)
def test_a_malformed_log_is_located_exit_2_and_nothing_is_written(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: object, line: int | None, words: str
) -> None:
    tree = _copy(tmp_path)
    log = tree / INTEL_LOG
    assert callable(edit)
    log.write_text(edit(log.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(SourceError, match=words) as raised:
        read_log(log)
    if line is not None:
        assert str(raised.value).startswith(f"{log}:{line}: ")
    code = main(["import", "mlperf", str(SUMMARY), "--results", str(tree), "--root", str(root)])
    assert code == 2 and words in capsys.readouterr().err
    assert _records(root) == {}


def test_a_log_of_another_scenario_or_target_is_a_listed_reason(root: Path, tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    log = tree / INTEL_LOG
    log.write_text(
        log.read_text(encoding="utf-8").replace(
            "tpot_latency (ns): 100000000", "tpot_latency (ns): 200000000"
        )
    )
    result = import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(tree))
    assert [u.reason for u in result.unmapped] == [
        f"{log}: the log's tpot target 200 ms is not llama3.1-8b's 100 ms in the submission checker"
    ]
    log.write_text(log.read_text(encoding="utf-8").replace("Scenario : Server", "Scenario : Offline"))
    result = import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(tree))
    assert [u.reason for u in result.unmapped] == [
        f"{log}: the log's scenario 'Offline' is not the row's 'server'"
    ]


def test_a_results_tree_must_say_where_it_was_published(root: Path, tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    (tree / "README.md").unlink()
    code = main(["import", "mlperf", str(SUMMARY), "--results", str(tree), "--root", str(root)])
    assert code == 2
    options = ResultsOptions(
        tree, "example/inference_results_v6.1", "89abcdef0123456789abcdef0123456789abcdef"
    )
    assert import_mlperf(root, [SUMMARY], SourceOptions(), options).logs == 3


def test_a_location_leaving_the_tree_is_refused(root: Path, tmp_path: Path) -> None:
    rows = SUMMARY.read_text(encoding="utf-8").replace("./closed/Intel/", "../closed/Intel/")
    summary = tmp_path / "v6.1" / "summary.csv"
    summary.parent.mkdir()
    summary.write_text(rows, encoding="utf-8")
    shutil.copy(SUMMARY.parent / "README.md", summary.parent)
    with pytest.raises(SourceError, match="leaves the results tree"):
        import_mlperf(root, [summary], SourceOptions(), ResultsOptions(RESULTS))
    assert _records(root) == {}


def test_an_import_without_logs_keeps_the_figures_an_import_with_them_wrote(root: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(RESULTS))
    first = _records(root)
    again = import_mlperf(root, [SUMMARY], SourceOptions())
    assert again.kept == 3 and again.logs == 0
    assert again.new == [] and again.changed == [] and _records(root) == first


def test_a_log_read_again_replaces_the_figures_and_shows_as_a_change(root: Path, tmp_path: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(RESULTS))
    tree = _copy(tmp_path)
    log = tree / INTEL_LOG
    log.write_text(
        log.read_text(encoding="utf-8").replace(
            "Mean First Token latency (ns)             : 480000000",
            "Mean First Token latency (ns)             : 490000000",
        ),
        encoding="utf-8",
    )
    result = import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(tree))
    assert result.changed == [INTEL_SERVER] and result.new == [] and result.kept == 0
    metrics = _data(root, INTEL_SERVER)["metrics"]
    assert isinstance(metrics, list)
    assert {"metric": "ttft", "statistic": "mean", "per": "request", "stated": "490 ms"} in metrics
    changed = _records(root)
    assert import_mlperf(root, [SUMMARY], SourceOptions()).changed == [] and _records(root) == changed


def test_the_figures_of_another_run_are_not_kept(root: Path, tmp_path: Path) -> None:
    import_mlperf(root, [SUMMARY], SourceOptions(), ResultsOptions(RESULTS))
    rows = SUMMARY.read_text(encoding="utf-8").replace("Server/performance/run_1", "Server/performance/run_2")
    summary = tmp_path / "v6.1" / "summary.csv"
    summary.parent.mkdir()
    summary.write_text(rows, encoding="utf-8")
    shutil.copy(SUMMARY.parent / "README.md", summary.parent)
    result = import_mlperf(root, [summary], SourceOptions())
    assert INTEL_SERVER in result.changed
    record = _data(root, INTEL_SERVER)
    metrics, provenance, sources = record["metrics"], record["provenance"], record["sources"]
    assert isinstance(metrics, list) and len(metrics) == 1  # the summary's result alone
    assert isinstance(provenance, dict) and "valid" not in provenance
    assert isinstance(sources, list) and not any(s["title"].endswith("run log summary") for s in sources)
