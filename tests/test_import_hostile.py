"""Importers never write what ``registry check`` refuses, and never fail with an internal error.

Every number is read by the record's rules before it is parsed (Python's ``float()`` takes ``1_000``,
other scripts' digits, ``-0`` and ``1e308``); JSON is read with a depth bound, an integer bound and
duplicate keys refused; and each record is checked with the check's own rules before anything is
written, so a line break in a name, a 400-character organisation, a version that is a path, a
negative latency or a ``javascript:`` URL is refused with its place in the source.
"""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from registry.authoring.importers.bench import import_bench
from registry.authoring.importers.imported import BenchOptions
from registry.authoring.importers.mlperf import SourceOptions, import_mlperf
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.numbers import NumberRefused, source_number
from registry.authoring.importers.sources import import_source
from tests.conftest import REPO
from tests.test_hostile import run_cli

VLLM = REPO / "tests" / "fixtures" / "bench" / "vllm-8qps-llama.json"
MLPERF = REPO / "tests" / "fixtures" / "mlperf" / "v6.1" / "summary.csv"
MODEL = "models/llama-3.1-8b-instruct"


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    registry = tmp_path_factory.mktemp("hostile-imports") / "registry"
    for collection in ("models", "hardware", "engines"):
        shutil.copytree(REPO / "records" / collection, registry / "records" / collection)
    return registry


def _no_benchmarks(root: Path) -> None:
    assert not (root / "records" / "benchmarks").exists()


def _vllm(tmp_path: Path, old: str, new: str) -> Path:
    text = VLLM.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "result.json"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def _mlperf(tmp_path: Path, column: str, value: str) -> Path:
    with MLPERF.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows[0][column] = value
    path = tmp_path / "round" / "summary.csv"
    path.parent.mkdir()
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(rows)
    shutil.copy(MLPERF.parent / "README.md", path.parent)
    return path


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("1_000", "is not a number"),
        ("\u0661\u0660\u0660\u0660", "is not a number"),  # Arabic-Indic digits
        ("\uff11\uff10", "is not a number"),  # full-width digits
        ("-0", "negative zero"),
        ("1e308", "exponent beyond"),
        (" 12", "is not a number"),
        ("NaN", "is not a number"),
    ],
)
def test_an_mlperf_result_python_would_take_is_refused_at_its_row(
    root: Path, tmp_path: Path, value: str, message: str
) -> None:
    with pytest.raises(SourceError, match=f"summary.csv:2: Result .*{message}"):
        import_mlperf(root, [_mlperf(tmp_path, "Result", value)], SourceOptions())
    _no_benchmarks(root)


@pytest.mark.parametrize(
    ("column", "value", "code"),
    [
        ("SystemName", "Example DGX\nforged: line", "S008"),
        ("Organization", "X" * 400, "S004"),
        ("Accuracy", "ROUGE1: " + "9" * 5000, "more than 40 digits"),
        ("SystemName", "Example\u200f DGX", r"U\+200F \(RIGHT-TO-LEFT MARK"),
        ("Organization", "Example\U000e0041", r"U\+E0041 \(TAG"),
    ],
)
def test_an_mlperf_row_the_check_would_refuse_writes_nothing(
    root: Path, tmp_path: Path, column: str, value: str, code: str
) -> None:
    with pytest.raises(SourceError, match=f"summary.csv:2: .*{code}"):
        import_mlperf(root, [_mlperf(tmp_path, column, value)], SourceOptions())
    _no_benchmarks(root)


def test_an_mlperf_row_of_a_round_no_rules_are_tabled_for_is_listed_not_written(tmp_path: Path) -> None:
    """A version cell such as ``v6.1/../..`` names no round: the row is listed with its reason (as every
    LLM row that cannot be mapped), and no record or file name takes the text."""
    isolated = tmp_path / "registry"
    for collection in ("models", "hardware", "engines"):
        shutil.copytree(REPO / "records" / collection, isolated / "records" / collection)
    result = import_mlperf(isolated, [_mlperf(tmp_path, "version", "v6.1/../..")], SourceOptions())
    assert [item.reason for item in result.unmapped if item.where.endswith("summary.csv:2")] == [
        "version 'v6.1/../..': no round whose submission-checker rules are tabled"
    ]
    written = [p.read_text(encoding="utf-8") for p in (isolated / "records" / "benchmarks").glob("*.yaml")]
    assert written and not any("v6.1/../.." in text for text in written)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('"request_throughput": 7.5705', '"request_throughput": 1e1200000', "exponent beyond 40"),
        ('"completed": 200', '"completed": ' + "9" * 5000, "more than 40 digits"),
        (
            '"request_throughput": 7.5705',
            '"request_throughput": 7.57, "request_throughput": 99999.0',
            "twice",
        ),
        ('"mean_ttft_ms": 48.21', '"mean_ttft_ms": -48.21', "S005"),
    ],
)
def test_a_vllm_result_the_check_would_refuse_writes_nothing(
    root: Path, tmp_path: Path, old: str, new: str, message: str
) -> None:
    with pytest.raises(SourceError, match=message):
        import_bench(root, "vllm-bench", [_vllm(tmp_path, old, new)], BenchOptions(model=MODEL))
    _no_benchmarks(root)


def test_json_nested_100000_deep_is_refused_in_one_line(root: Path, tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    code, _, err = run_cli("import", "--root", str(root), "vllm-bench", str(deep), "--model", MODEL)
    assert code == 2 and "nested deeper than 64 levels" in err and "internal error" not in err
    _no_benchmarks(root)


def test_a_url_of_another_scheme_is_refused(root: Path) -> None:
    options = BenchOptions(model=MODEL, url="javascript:alert(1)")
    with pytest.raises(SourceError, match=r"sources\[0\]\.url"):
        import_bench(root, "vllm-bench", [VLLM], options)
    _no_benchmarks(root)


@pytest.mark.parametrize(("text", "value"), [("12", 12), ("0.5", "0.5"), ("1.25e3", "1.25E+3"), ("-3", -3)])
def test_the_numbers_a_source_writes_are_read_exactly(text: str, value: object) -> None:
    assert str(source_number(text)) == str(value)


def test_an_exponent_is_bounded_before_it_is_parsed() -> None:
    with pytest.raises(NumberRefused, match="exponent"):
        source_number("1e" + "9" * 100_000)


def test_two_rows_of_one_result_differing_only_in_case_are_one_result(root: Path, tmp_path: Path) -> None:
    """``Example`` and ``EXAMPLE`` as the organisation made two records of one result (and, on a
    case-insensitive file system, two files that collide): now they are the same result, refused."""
    with MLPERF.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows.append(rows[0] | {"Organization": rows[0]["Organization"].upper()})
    path = tmp_path / "round" / "summary.csv"
    path.parent.mkdir()
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(rows)
    shutil.copy(MLPERF.parent / "README.md", path.parent)
    with pytest.raises(SourceError, match=r"summary.csv:\d+: the same result"):
        import_mlperf(root, [path], SourceOptions())
    _no_benchmarks(root)


def test_a_skipped_rows_cells_cannot_act_on_the_terminal(root: Path, tmp_path: Path) -> None:
    """A skipped row's Model cell is printed: ESC ] 0 ; ... BEL retitles a terminal, ESC [ 2J clears
    it and a line break forges a line. Every line the import prints goes through one escaping."""
    payload = "resnet\x1b]0;owned\x07\x1b[2J\nrecords: 0 new"
    with MLPERF.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows.append(rows[1] | {"Model": payload, "MlperfModel": payload})
    path = tmp_path / "round" / "summary.csv"
    path.parent.mkdir()
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(rows)
    shutil.copy(MLPERF.parent / "README.md", path.parent)
    isolated = tmp_path / "registry"
    shutil.copytree(root, isolated)
    code, out, err = run_cli("import", "--root", str(isolated), "mlperf", str(path))
    assert code in (0, 1) and "\x1b" not in out + err and "\x07" not in out + err
    assert "resnet\\x1b]0;owned\\x07\\x1b[2J\\nrecords: 0 new" in out
    assert not any(line.startswith("records: 0 new") for line in out.splitlines())


def test_a_figure_the_checks_later_stages_refuse_is_not_written(root: Path, tmp_path: Path) -> None:
    """A throughput ten billion billion times what the run's own request rate and lengths allow passes
    the schema; the check's consistency stage (F013) refuses it, and so does the import."""
    huge = _vllm(tmp_path, '"output_throughput": 969.03', '"output_throughput": 9.69e30')
    options = BenchOptions(
        model=MODEL,
        hardware="hardware/h100-sxm",
        count=1,
        engine_version="0.11.0",
        prefix_cache="cold",
        url="https://example.org/run",
    )
    with pytest.raises(SourceError, match="F013"):
        import_bench(root, "vllm-bench", [huge], options)
    _no_benchmarks(root)


def test_a_name_of_150_digits_is_written_as_text_not_an_internal_error(root: Path, tmp_path: Path) -> None:
    """Found by the importers' fuzz target: a plain scalar of more than 100 digits is one the loader
    refuses as a number, so the writer quotes it, and the import answers as for any other name."""
    path = _mlperf(tmp_path, "SystemName", "9" * 150)
    isolated = tmp_path / "registry"
    shutil.copytree(root, isolated)
    result = import_mlperf(isolated, [path], SourceOptions())
    assert result.new


def test_an_llmd_statistic_whose_units_is_an_object_is_refused_at_its_place(
    root: Path, tmp_path: Path
) -> None:
    """Found by the importers' fuzz target: ``units`` holding an object ended in a TypeError."""
    report = (REPO / "tests" / "fixtures" / "tools" / "llmd-report-v0.2.json").read_text(encoding="utf-8")
    assert '"units": "' in report
    bad = tmp_path / "report.json"
    bad.write_text(report.replace('"units": "', '"units": {"x": 1}, "was": "', 1), encoding="utf-8")
    options = BenchOptions(engine_version="0.11.0", prefix_cache="cold", url="https://example.org/r")
    with pytest.raises(SourceError, match="units"):
        import_source(root, "llm-d", [bad], options)
    _no_benchmarks(root)
