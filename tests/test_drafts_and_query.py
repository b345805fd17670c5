"""A day of querying: an unfinished draft from ``registry new`` keeps nobody from ``registry query`` or
``registry site`` (its findings are shown, the rest of the registry is built), an empty query is a
message, and the SQL reaches no file, with a message that says why and how to export on purpose."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from registry.checker.clean import without_drafts
from registry.checker.pipeline import check
from registry.cli import build_parser, main
from registry.db import stored_left_out
from registry.site import SiteRefused, build_site
from tests.test_db import make_registry

Capture = pytest.CaptureFixture[str]
DRAFT = "records/hardware/draft-gpu.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return make_registry(tmp_path / "registry")


def _draft(root: Path, capsys: Capture) -> None:
    """``registry new`` of a hardware record: a draft whose empty fields the check reports as errors."""
    assert main(["new", "hardware/draft-gpu", "--root", str(root)]) == 0
    capsys.readouterr()
    assert not check(root).ok


def _ids(root: Path, capsys: Capture, *options: str) -> list[str]:
    sql = "SELECT id FROM records ORDER BY id"
    assert main(["query", "--root", str(root), sql, "--format", "json", *options]) == 0
    return [row["id"] for row in json.loads(capsys.readouterr().out)]


def test_a_draft_does_not_block_a_query_and_its_findings_are_shown(root: Path, capsys: Capture) -> None:
    _draft(root, capsys)
    assert main(["query", "--root", str(root), "SELECT count(*) AS n FROM models", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert out == "n\n2\n"
    assert f"{DRAFT}:" in err and "S004" in err  # the draft's finding, as the check prints it
    assert (
        f"note: built without 1 record file, drafts that do not validate yet or records pointing at one ({DRAFT})"
        in err
    )
    ids = _ids(root, capsys)
    assert "hardware/draft-gpu" not in ids and "models/llama-3.1-8b" in ids
    # the file is current now: a later query does not rebuild, but still says what it lacks
    assert main(["query", "--root", str(root), "SELECT 1 AS x", "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert out == "x\n1\n" and "Wrote" not in err and DRAFT in err


def test_a_draft_does_not_block_a_query_of_a_good_db_file(
    root: Path, tmp_path: Path, capsys: Capture
) -> None:
    good = tmp_path / "good.duckdb"
    assert main(["db", "--root", str(root), "--out", str(good)]) == 0
    _draft(root, capsys)
    assert "kv-efficiency/dsv3-128k" in _ids(root, capsys, "--db", str(good))
    assert stored_left_out(good) == (DRAFT,)


def test_db_and_export_still_refuse_a_registry_with_errors(
    root: Path, tmp_path: Path, capsys: Capture
) -> None:
    _draft(root, capsys)
    assert _ids(root, capsys)  # a partial file, built for the query
    assert main(["db", "--root", str(root)]) == 1
    assert main(["export", "--root", str(root), "--parquet", str(tmp_path / "parquet")]) == 1
    assert "not building the database" in capsys.readouterr().err
    assert not (tmp_path / "parquet").exists()


def test_a_record_pointing_at_a_draft_is_left_out_with_it(root: Path, capsys: Capture) -> None:
    _draft(root, capsys)
    model = root / "records" / "models" / "llama-3.1-8b.yaml"
    data = json.loads(model.read_text(encoding="utf-8"))
    data["related"] = ["hardware/draft-gpu"]
    model.write_text(json.dumps(data), encoding="utf-8")
    part = without_drafts(check(root))
    # the benchmark of that model goes too: nothing kept points at a gap
    assert part.left_out == (
        "records/benchmarks/llama-fp8-cold.yaml",
        DRAFT,
        "records/models/llama-3.1-8b.yaml",
    )
    kept = set(part.result.index.entries)
    for entry in part.result.index:
        assert all(reference.target in kept for reference in entry.references), entry.id
    assert part.result.ok


def test_an_error_that_is_not_a_drafts_still_refuses_query_and_site(root: Path, capsys: Capture) -> None:
    _draft(root, capsys)
    claims = root / "records" / "kv-efficiency" / "dsv3-128k.yaml"
    data = json.loads(claims.read_text(encoding="utf-8"))
    data["claims"][0]["stated"] = "65,536 B"  # a finished record whose number the geometry contradicts
    claims.write_text(json.dumps(data), encoding="utf-8")
    part = without_drafts(check(root))
    assert part.left_out == (DRAFT,) and not part.result.ok
    assert main(["query", "--root", str(root), "SELECT 1"]) == 1
    out, err = capsys.readouterr()
    assert "records/kv-efficiency/dsv3-128k.yaml:" in out and "not building the database" in err
    assert main(["site", "--root", str(root), "--pages-only", "--no-downloads"]) == 2
    assert "the site is built only from records that check clean" in capsys.readouterr().err


def test_a_draft_does_not_block_the_site(root: Path, capsys: Capture) -> None:
    _draft(root, capsys)
    with pytest.raises(SiteRefused):
        build_site(root, downloads=False, render=False)
    report = build_site(root, downloads=False, render=False, leave_out_drafts=True)
    assert report.left_out == (DRAFT,)
    generated = root / "site" / "generated"
    assert (generated / "models").is_dir()
    assert not list(generated.rglob("draft-gpu*"))


def test_registry_site_lists_the_drafts_findings_and_builds_the_rest(root: Path, capsys: Capture) -> None:
    _draft(root, capsys)
    assert main(["site", "--root", str(root), "--pages-only", "--no-downloads"]) == 0
    err = capsys.readouterr().err
    assert f"{DRAFT}:" in err and "S004" in err and "note: built without 1 record file" in err
    assert main(["site", "--root", str(root), "--pages-only", "--no-downloads", "--strict"]) == 2
    assert "the site is built only from records that check clean" in capsys.readouterr().err


@pytest.mark.parametrize("sql", ["", "   ", "\n\t\n"])
def test_an_empty_query_is_a_message_and_exit_2(root: Path, sql: str, capsys: Capture) -> None:
    assert main(["query", "--root", str(root), sql]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == 'registry query: error: the SQL is empty; give a query, e.g. registry query "SELECT id FROM models"\n'
    )


def test_an_empty_query_from_standard_input_is_a_message(
    root: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("  \n"))
    assert main(["query", "--root", str(root), "-"]) == 2
    assert "the SQL is empty" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("sql", "target"),
    [
        ("COPY (SELECT 1) TO '{tmp}/x.csv'", "x.csv"),
        ("SELECT * FROM read_csv('/etc/passwd')", None),
    ],
)
def test_the_sql_reaches_no_file_and_says_so_clearly(
    root: Path, tmp_path: Path, sql: str, target: str | None, capsys: Capture
) -> None:
    assert main(["query", "--root", str(root), "SELECT 1"]) == 0  # built first
    capsys.readouterr()
    assert main(["query", "--root", str(root), sql.format(tmp=tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert "registry query reaches no file but the database" in err
    assert "--allow-files" in err and "registry export" in err
    if target is not None:
        assert not (tmp_path / target).exists()


def test_query_help_says_how_to_export_on_purpose() -> None:
    parser = build_parser()
    sub = parser._subparsers._group_actions[0].choices["query"]  # type: ignore[union-attr]
    text = sub.format_help()
    assert "registry export --parquet" in text
    assert "--format csv" in text and "COPY ... TO" in text
