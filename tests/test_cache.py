"""The check cache: an unchanged registry is answered from it, and any change is never answered stale."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import registry.checker.pipeline
from registry.cli import main
from tests.conftest import GOLDEN, REPO


@pytest.fixture
def registry_dir(tmp_path: Path) -> Path:
    shutil.copytree(GOLDEN / "R006" / "records", tmp_path / "records")
    shutil.copytree(REPO / "schemas", tmp_path / "schemas")
    return tmp_path


def _forbid_checking(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the check ran although the cache should have answered")

    monkeypatch.setattr(registry.checker.pipeline, "check", refuse)


def test_an_unchanged_registry_is_answered_from_the_cache(
    registry_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--root", str(registry_dir)]) == 1
    first = capsys.readouterr()
    _forbid_checking(monkeypatch)
    assert main(["check", "--root", str(registry_dir)]) == 1
    second = capsys.readouterr()
    assert second.out == first.out and second.err == first.err
    assert "R006 broken-link" in second.out


@pytest.mark.parametrize("change", ["edit", "add", "remove", "schema"])
def test_any_change_is_checked_afresh(
    registry_dir: Path, change: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--root", str(registry_dir)]) == 1
    capsys.readouterr()
    record = registry_dir / "records" / "hardware" / "gpu.yaml"
    if change == "edit":  # same size, written straight after the cache: only the digest can tell
        record.write_text(record.read_text().replace("[[hardware/gpu-two]]", "[[engines/example]] "))
    elif change == "add":
        (registry_dir / "records" / "hardware" / "other.yml").write_text("a: 1\n")
    elif change == "remove":
        record.unlink()
    else:
        from registry.kinds import schema as _schema

        schema = registry_dir / "schemas" / "hardware.schema.json"
        schema.write_text(schema.read_text().replace('"vendor"', '"vendor2"', 1))
        for cached in (_schema._load_committed, _schema.validator_for, _schema.fast_validator_for):
            cached.cache_clear()  # a new process would read the schema afresh
    code = main(["check", "--root", str(registry_dir)])
    out = capsys.readouterr().out
    expected = {"edit": (0, ""), "add": (1, "R007"), "remove": (0, ""), "schema": (1, "S00")}[change]
    assert code == expected[0]
    assert expected[1] in out


def test_a_file_edited_while_it_is_checked_is_checked_again(
    registry_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cache keeps the digest of the bytes the check read, not of the file as it is afterwards:
    an edit landing between the two (same size, same tick) must not be answered with the old findings."""
    record = registry_dir / "records" / "hardware" / "gpu.yaml"
    real_check = registry.checker.pipeline.check

    def check_then_edit(*args: object, **kwargs: object) -> registry.checker.pipeline.CheckResult:
        result = real_check(*args, **kwargs)  # type: ignore[arg-type]
        record.write_text(record.read_text().replace("[[hardware/gpu-two]]", "[[engines/example]] "))
        return result

    monkeypatch.setattr(registry.checker.pipeline, "check", check_then_edit)
    assert main(["check", "--root", str(registry_dir)]) == 1
    monkeypatch.setattr(registry.checker.pipeline, "check", real_check)
    assert main(["check", "--root", str(registry_dir)]) == 0  # the edit fixed the broken link
    assert "R006" not in capsys.readouterr().out.split("\n", 1)[-1]


def test_a_corrupt_cache_is_ignored(registry_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--root", str(registry_dir)]) == 1
    cache = registry_dir / ".registry-cache" / "check.json"
    assert cache.exists()
    cache.write_text('{"key": [1, 2')
    assert main(["check", "--root", str(registry_dir)]) == 1
    cache.write_text('{"key": "x", "files": "not a mapping"}')
    assert main(["check", "--root", str(registry_dir)]) == 1
    assert "R006" in capsys.readouterr().out


def test_no_cache_checks_afresh(
    registry_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--root", str(registry_dir)]) == 1
    _forbid_checking(monkeypatch)
    assert main(["check", "--root", str(registry_dir), "--no-cache"]) == 2
    assert "the check ran" in capsys.readouterr().err


def test_the_cache_folder_ignores_itself(registry_dir: Path) -> None:
    main(["check", "--root", str(registry_dir)])
    assert (registry_dir / ".registry-cache" / ".gitignore").read_text() == "*\n"


def test_the_digests_are_each_file_s_content_digest_in_the_order_read() -> None:
    """What the cache and the database's fingerprint compare: the bytes the check read, file by file."""
    from registry.checker.cache import content_digest
    from registry.checker.discover import discover
    from registry.checker.pipeline import check

    result = check(REPO)
    assert list(result.digests) == discover(REPO)[0]
    for path, digest in result.digests.items():
        assert digest == content_digest((REPO / path).read_bytes())
