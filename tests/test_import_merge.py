"""Importing again never destroys a person's work, and an import is written all or none.

A draft completed by hand (hardware, engine version, prefix cache, sources, notes, a comment) stays
completed when the same file is imported again; a source value that changed is shown ``old -> new``;
``--force`` alone discards the hand edits. A full disk, an error or Ctrl-C while the records are
written leaves the registry as it was, with no temporary file.
"""

from __future__ import annotations

import csv
import errno
import re
import shutil
from pathlib import Path

import pytest

from registry import files
from registry.authoring.importers.bench import import_bench
from registry.authoring.importers.imported import BenchOptions
from registry.authoring.importers.mlperf import SourceOptions, import_mlperf
from registry.checker.load import load_text
from registry.checker.pipeline import check
from registry.cli import main
from tests.conftest import REPO
from tests.test_hostile import run_cli

BENCH = REPO / "tests" / "fixtures" / "bench"
VLLM = BENCH / "vllm-8qps-llama.json"
SGLANG = BENCH / "sglang-sweep.jsonl"
MLPERF = REPO / "tests" / "fixtures" / "mlperf" / "v6.1" / "summary.csv"
MODEL = "models/llama-3.1-8b-instruct"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    registry = tmp_path / "registry"
    for collection in ("models", "hardware", "engines"):
        shutil.copytree(REPO / "records" / collection, registry / "records" / collection)
    return registry


def _only(root: Path) -> Path:
    (path,) = (root / "records" / "benchmarks").glob("*.yaml")
    return path


def _data(path: Path) -> dict[str, object]:
    document = load_text(str(path), path.read_text(encoding="utf-8")).document
    assert document is not None
    return document.data


def _complete_by_hand(path: Path) -> None:
    """What a contributor does to the draft: fill each TODO, add notes and a comment."""
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"# TODO: (hardware|engine_version|prefix_cache).*\n", "", text)
    text = text.replace(
        "sources: []  # TODO: where the result file is published (--url)",
        "sources:\n  - title: our run\n    url: https://example.org/our-run",
    )
    text = text.replace(
        "layout: vllm\n",
        "layout: vllm\nhardware: hardware/h100-sxm\nhardware_count: 1\nengine_version: 0.11.0\nprefix_cache: cold\n",
    )
    text = text.replace(
        "tags:\n", "notes: Run on our own cluster.\n# checked against the server log\ntags:\n"
    )
    path.write_text(text, encoding="utf-8")


def test_a_draft_completed_by_hand_stays_completed_when_imported_again(root: Path) -> None:
    import_bench(root, "vllm-bench", [VLLM], BenchOptions(model=MODEL))
    path = _only(root)
    _complete_by_hand(path)
    assert check(root, [path]).ok

    again = import_bench(root, "vllm-bench", [VLLM], BenchOptions(model=MODEL))
    data = _data(path)
    assert (data["hardware"], data["hardware_count"], data["engine_version"]) == (
        "hardware/h100-sxm",
        1,
        "0.11.0",
    )
    assert data["prefix_cache"] == "cold" and data["notes"] == "Run on our own cluster."
    assert data["sources"] == [{"title": "our run", "url": "https://example.org/our-run"}]
    text = path.read_text(encoding="utf-8")
    assert "# checked against the server log" in text and "TODO" not in text
    assert again.drafts == [] and check(root, [path]).ok
    unchanged = import_bench(root, "vllm-bench", [VLLM], BenchOptions(model=MODEL))
    assert unchanged.unchanged == [again.changed[0]] and path.read_text(encoding="utf-8") == text


def test_a_changed_source_value_is_shown_old_to_new_and_force_discards_hand_edits(
    root: Path, tmp_path: Path
) -> None:
    import_bench(root, "vllm-bench", [VLLM], BenchOptions(model=MODEL))
    path = _only(root)
    _complete_by_hand(path)
    changed = tmp_path / VLLM.name
    changed.write_text(VLLM.read_text().replace('"p99_ttft_ms": 131.62', '"p99_ttft_ms": 140.5'))
    argv = ["import", "--root", str(root), "vllm-bench", str(changed), "--model", MODEL]
    argv += ["--id", path.stem]
    code, out, _ = run_cli(*argv)
    assert code == 0 and "'131.62 ms' -> '140.5 ms'" in out
    assert _data(path)["engine_version"] == "0.11.0"

    code, out, _ = run_cli(*argv, "--force")
    assert code == 0 and "engine_version" not in _data(path) and "notes" not in _data(path)


def test_force_is_spelled_out_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    assert "--force" in capsys.readouterr().out


def test_an_mlperf_reimport_keeps_notes_and_a_comment_a_person_added(root: Path) -> None:
    import_mlperf(root, [MLPERF], SourceOptions())
    path = sorted((root / "records" / "benchmarks").glob("*.yaml"))[0]
    text = path.read_text(encoding="utf-8").replace(
        "tags:\n", "notes: Seen on the vendor's blog too.\n# kept\ntags:\n"
    )
    path.write_text(text, encoding="utf-8")
    again = import_mlperf(root, [MLPERF], SourceOptions())
    assert (
        path.read_text(encoding="utf-8") == text or _data(path)["notes"] == "Seen on the vendor's blog too."
    )
    assert "# kept" in path.read_text(encoding="utf-8") and again.changes.get(path.stem, []) == []


def _nothing_changed(root: Path, before: dict[str, bytes]) -> None:
    folder = root / "records" / "benchmarks"
    now = {p.name: p.read_bytes() for p in folder.iterdir()} if folder.exists() else {}
    assert now == before


def _imported(root: Path) -> dict[str, bytes]:
    """A registry with the MLPerf fixture imported and one record edited by hand: its records' bytes."""
    import_mlperf(root, [MLPERF], SourceOptions())
    path = sorted((root / "records" / "benchmarks").glob("*.yaml"))[0]
    path.write_text(path.read_text(encoding="utf-8").replace("tags:\n", "notes: mine\ntags:\n"))
    return {p.name: p.read_bytes() for p in path.parent.iterdir()}


def _every_result_changed(tmp_path: Path) -> Path:
    """The fixture with every row's Result one higher, beside its README."""
    with MLPERF.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        row["Result"] = str(float(row["Result"]) + 1)
    changed = tmp_path / "changed" / "summary.csv"
    changed.parent.mkdir()
    with changed.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), quoting=csv.QUOTE_ALL)
        writer.writeheader()
        writer.writerows(rows)
    shutil.copy(MLPERF.parent / "README.md", changed.parent)
    return changed


@pytest.mark.parametrize("failure", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()])
def test_a_full_disk_or_ctrl_c_while_writing_leaves_the_registry_as_it_was(
    root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, failure: BaseException
) -> None:
    before = _imported(root)
    staged: list[Path] = []
    real = files._stage

    def stage(path: Path, data: bytes) -> str:
        if len(staged) == 1:
            raise failure
        staged.append(path)
        return real(path, data)

    monkeypatch.setattr(files, "_stage", stage)
    with pytest.raises(type(failure)):
        import_mlperf(root, [_every_result_changed(tmp_path)], SourceOptions())
    assert len(staged) == 1
    _nothing_changed(root, before)


def test_a_failed_rename_puts_back_every_record_already_replaced(
    root: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    before = _imported(root)
    replaced: list[str] = []
    real = files.os.replace

    def replace(source: str, target: object) -> None:
        replaced.append(str(target))
        if len(replaced) == 2:  # the second record's rename fails; the first is put back
            raise OSError(errno.EIO, "Input/output error")
        real(source, target)  # type: ignore[arg-type]

    monkeypatch.setattr(files.os, "replace", replace)
    with pytest.raises(OSError, match="Input/output error"):
        import_mlperf(root, [_every_result_changed(tmp_path)], SourceOptions())
    assert len(replaced) >= 2
    _nothing_changed(root, before)
