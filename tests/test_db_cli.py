"""`registry db`, `registry query` and `registry export` as a user meets them."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from registry.cli import main
from tests.test_db import TRICKY_TITLE, _replace, make_registry

Capture = pytest.CaptureFixture[str]

QUESTION = (
    "SELECT model_id, kv_bytes_per_token, total_bytes FROM kv_at_context WHERE layout = 'vllm' "
    "AND kv_dtype = 'bf16' AND context = '128K' ORDER BY model_id"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_registry(tmp_path / "registry")


def _query(root: Path, sql: str, *options: str) -> int:
    return main(["query", "--root", str(root), sql, *options])


def test_db_writes_the_default_file(root: Path, capsys: Capture) -> None:
    assert main(["db", "--root", str(root)]) == 0
    assert (root / "build" / "registry.duckdb").is_file()
    assert "13 tables" in capsys.readouterr().err


def test_db_out_writes_elsewhere(root: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "r.duckdb"
    assert main(["db", "--root", str(root), "--out", str(target)]) == 0
    assert target.is_file() and not (root / "build").exists()


def test_db_refuses_a_broken_registry_and_lists_the_errors(root: Path, capsys: Capture) -> None:
    assert main(["db", "--root", str(root)]) == 0
    _replace(root / "records" / "engines" / "vllm.yaml", '"architectural"', '"measurd"')
    capsys.readouterr()
    assert main(["db", "--root", str(root)]) == 1
    out, err = capsys.readouterr()
    assert "records/engines/vllm.yaml" in out and "S004" in out
    assert "not building the database" in err


def test_query_table_format_builds_first(root: Path, capsys: Capture) -> None:
    assert _query(root, QUESTION) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split() == ["model_id", "kv_bytes_per_token", "total_bytes"]
    assert lines[2].split() == ["models/deepseek-v3", "70272", str(131072 * 70272)]
    assert lines[-1] == "(2 rows)"
    assert "Wrote" in err  # the file was missing, so it was built


def test_query_csv(root: Path, capsys: Capture) -> None:
    assert _query(root, QUESTION, "--format", "csv") == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == ["model_id", "kv_bytes_per_token", "total_bytes"]
    assert rows[1] == ["models/deepseek-v3", "70272", str(131072 * 70272)]


def test_query_json_keeps_exact_integers(root: Path, capsys: Capture) -> None:
    assert _query(root, QUESTION + " LIMIT 1", "--format", "json") == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload == [
        {"model_id": "models/deepseek-v3", "kv_bytes_per_token": 70272, "total_bytes": 131072 * 70272}
    ]
    huge = 17014118346046923173168730371588410  # beyond 2^63: still a JSON integer, not a float
    sql = f"SELECT CAST(2 AS DECIMAL(38,0)) * {huge} AS b, 0.5::DECIMAL(10,2) AS h"
    assert _query(root, sql, "--format", "json") == 0
    assert json.loads(capsys.readouterr().out) == [{"b": 2 * huge, "h": 0.5}]


def test_query_markdown_escapes_record_text(root: Path, capsys: Capture) -> None:
    assert _query(root, "SELECT id, title FROM records WHERE kind = 'benchmark'", "--format", "markdown") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["| id | title |", "| --- | --- |"]
    cell = lines[2].split(" | ", 1)[1]
    assert "<b>" not in cell and "&lt;b&gt;" in cell and "\\|" in cell
    assert lines[2].count(" | ") == 1  # the pipe inside the title does not open a column


def test_query_json_round_trips_unicode(root: Path, capsys: Capture) -> None:
    assert _query(root, "SELECT title FROM records WHERE kind = 'benchmark'", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out) == [{"title": TRICKY_TITLE}]


def test_sql_errors_are_a_message_and_exit_2(root: Path, capsys: Capture) -> None:
    assert _query(root, "SELEC id FROM records") == 2
    err = capsys.readouterr().err
    assert "registry query: error: SQL error: Parser Error" in err
    assert "Traceback" not in err
    assert _query(root, "SELECT nope FROM records") == 2
    assert 'Referenced column "nope" not found' in capsys.readouterr().err


def test_query_cannot_write(root: Path, capsys: Capture) -> None:
    assert _query(root, "DROP TABLE records") == 2
    assert "read-only" in capsys.readouterr().err
    assert _query(root, "SELECT count(*) AS n FROM records", "--format", "csv") == 0
    assert capsys.readouterr().out == "n\n6\n"


def test_query_reads_sql_from_stdin(root: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("SELECT count(*) AS n FROM models"))
    assert _query(root, "-", "--format", "json") == 0
    assert json.loads(capsys.readouterr().out) == [{"n": 2}]


def test_export_writes_one_parquet_file_per_table(root: Path, tmp_path: Path) -> None:
    from registry.db import TABLES

    out = tmp_path / "parquet"
    assert main(["export", "--root", str(root), "--parquet", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{t.name}.parquet" for t in TABLES)


def test_a_file_that_is_no_registry_database_is_kept(root: Path, tmp_path: Path, capsys: Capture) -> None:
    import duckdb

    theirs = tmp_path / "theirs.duckdb"
    connection = duckdb.connect(str(theirs))
    connection.execute("CREATE TABLE mine AS SELECT 42 AS answer")
    connection.close()
    before = theirs.read_bytes()
    assert _query(root, "SELECT 1", "--db", str(theirs)) == 2
    assert "is not a registry database; not replacing it" in capsys.readouterr().err
    assert main(["db", "--root", str(root), "--out", str(theirs)]) == 2
    assert theirs.read_bytes() == before
