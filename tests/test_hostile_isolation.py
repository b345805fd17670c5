"""One broken record never hides the findings in the others.

The real registry plus a few records with known findings is checked alone, then again with every file
of the hostile corpus dropped in beside it (renamed so that no two collide; a bad name stays bad). Every
finding in every other file must be reported exactly as before, and every hostile file that had
findings of its own still has them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from registry.checker.pipeline import check
from registry.diagnostics import Diagnostic
from tests.conftest import GOLDEN, REPO
from tests.test_hostile import CASES, HOSTILE, read_expected

DANGLING = """schema_version: 1
id: hardware/base-dangling
kind: hardware
title: A record with a dangling reference
evidence: source-reported
name: Example GPU
vendor: Example Corp
memory_per_device: 80 GB
sources:
  - title: Example datasheet
    url: https://example.com/datasheet
related: [hardware/base-missing]
"""


def make_base(root: Path) -> Path:
    """The real registry, a formula finding (F001), a schema finding (S004) and a dangling one (R004)."""
    shutil.copytree(REPO / "records", root / "records")
    shutil.copy(
        GOLDEN / "F001/records/kv-efficiency/deepseek-v3-mha-equivalent.yaml", root / "records/kv-efficiency"
    )
    shutil.copy(GOLDEN / "S004/records/hardware/value.yaml", root / "records/hardware")
    (root / "records/hardware/base-dangling.yaml").write_text(DANGLING, encoding="utf-8")
    return root


def add_hostile_files(root: Path) -> dict[str, str]:
    """Every corpus file under ``root``, ``name.ext`` renamed ``name--CASE.ext``; new path -> case."""
    placed: dict[str, str] = {}
    for case in CASES:
        records = HOSTILE / case / "records"
        for source in sorted(p for p in records.rglob("*") if p.is_file()):
            relative = source.relative_to(HOSTILE / case)
            name = f"{relative.stem}--{case}{relative.suffix}"
            target = root / relative.parent / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            placed[(relative.parent / name).as_posix()] = case
    return placed


def key(d: Diagnostic) -> tuple[str, int, int, str, str]:
    """What a finding says, without its hint (a hint may suggest one of the new ids)."""
    return (d.path, d.line, d.column, d.code, d.message)


def test_broken_files_hide_no_finding_in_any_other_file(tmp_path: Path) -> None:
    base = check(make_base(tmp_path / "base")).diagnostics
    assert {d.code for d in base} >= {"F001", "S004", "R004"}

    root = make_base(tmp_path / "mixed")
    placed = add_hostile_files(root)
    mixed = check(root).diagnostics

    assert [key(d) for d in mixed if d.path not in placed] == [key(d) for d in base]
    flagged = {d.path for d in mixed}
    for path, case in placed.items():
        original = _original(path, case) + ":"
        if any(line.startswith(original) for line in read_expected(case).findings):
            assert path in flagged, f"{path} had findings alone and has none beside the registry"


def _original(path: str, case: str) -> str:
    folder, _, name = path.rpartition("/")
    return f"{folder}/{name.replace(f'--{case}', '')}"
