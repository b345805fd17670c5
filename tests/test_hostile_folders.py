"""The folders the tool writes into or removes from are its own, and it removes only what it wrote.

A pull request can commit a symbolic link where the tool expects a folder of its own (``.gitignore``'s
``site/generated/`` matches only a folder, so ``git add`` takes a link of that name): every such folder
is refused before a byte is written; pruning removes only files an earlier build listed in its
manifest; and the schema files, which the cache fingerprint and the check read, are read with a
record's bounds.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from registry.checker.pipeline import check
from registry.files import UnsafeFolder
from registry.site import generate
from registry.site._writer import MANIFEST, GeneratedFolder
from tests.conftest import REPO
from tests.test_hostile import run_cli


@pytest.fixture
def small_registry(tmp_path: Path) -> Path:
    root = tmp_path / "registry"
    for fixture, relative in (("model-config", "models/example-llama"), ("hardware", "hardware/example-gpu")):
        (root / "records" / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "tests/fixtures/valid" / f"{fixture}.yaml", root / "records" / f"{relative}.yaml")
    shutil.copytree(REPO / "schemas", root / "schemas")
    return root


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_generated_folder_that_is_a_link_is_refused_before_anything_is_written(
    small_registry: Path,
) -> None:
    (small_registry / "site").mkdir()
    (small_registry / "site" / "generated").symlink_to("../records")
    before = _tree(small_registry / "records")
    result = check(small_registry)
    with pytest.raises(UnsafeFolder, match="generated is a symbolic link"):
        generate(small_registry, result, downloads=False)
    assert _tree(small_registry / "records") == before


def test_a_link_inside_the_generated_folder_is_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "models").symlink_to(outside)
    with pytest.raises(UnsafeFolder, match="models is a symbolic link"):
        GeneratedFolder(tmp_path, "generated").write("generated/models/x.md", "page")
    assert list(outside.iterdir()) == []


def test_pruning_removes_only_files_an_earlier_build_wrote(tmp_path: Path) -> None:
    first = GeneratedFolder(tmp_path, "generated")
    first.write("generated/kept.md", "kept")
    stale = first.write("generated/old/stale.md", "stale")
    first.prune()
    foreign = tmp_path / "generated" / "notes-of-mine.md"
    foreign.write_text("not the tool's", encoding="utf-8")

    second = GeneratedFolder(tmp_path, "generated")
    second.write("generated/kept.md", "kept")
    assert second.prune() == 1
    assert not stale.exists() and not stale.parent.exists()
    assert foreign.read_text(encoding="utf-8") == "not the tool's"
    assert (tmp_path / "generated" / MANIFEST).read_text(encoding="utf-8") == "kept.md\n"


def test_a_manifest_entry_through_a_link_removes_nothing_it_points_at(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    (records / "x.md").write_text("a record's neighbour", encoding="utf-8")
    generated = tmp_path / "generated"
    generated.mkdir()
    (generated / "models").symlink_to(records)
    (generated / MANIFEST).write_text("models/x.md\n../records/x.md\n/etc/passwd\n", encoding="utf-8")
    with pytest.raises(UnsafeFolder, match="symbolic link"):
        GeneratedFolder(tmp_path, "generated").prune()
    assert (records / "x.md").exists()


@pytest.mark.parametrize("command", [("db",), ("site", "--no-downloads")])
def test_a_build_folder_that_is_a_link_is_refused(small_registry: Path, command: tuple[str, ...]) -> None:
    elsewhere = small_registry / "records" / "models"
    before = _tree(elsewhere)
    (small_registry / "build").symlink_to(elsewhere)
    code, _, err = run_cli(*command, "--root", str(small_registry))
    assert code == 2 and "build is a symbolic link" in err and "internal error" not in err
    assert _tree(elsewhere) == before


def test_a_schema_file_linked_to_a_device_is_refused_at_once(small_registry: Path) -> None:
    schema = small_registry / "schemas" / "model.schema.json"
    schema.unlink()
    os.symlink("/dev/zero", schema)
    code, _, err = run_cli("check", "--root", str(small_registry))
    assert code == 2 and "model.schema.json" in err and "symbolic link" in err
    assert "internal error" not in err


def test_a_schema_file_that_is_not_json_is_a_located_error(small_registry: Path) -> None:
    (small_registry / "schemas" / "model.schema.json").write_text('{"$id": "x",\n  oops}', encoding="utf-8")
    code, _, err = run_cli("check", "--root", str(small_registry), "--no-cache")
    assert code == 2 and "model.schema.json" in err and "line 2, column 3" in err
    assert "internal error" not in err
