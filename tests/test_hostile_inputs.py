"""Hostile input outside the records: ids that climb out of ``records/``, links that lead writes
elsewhere, config files that never end or nest without end, a full disk, an output folder that is a
file, and the temporary files a killed write leaves behind.

Each test names the issue's item it holds. Every command is run as a person runs it (``registry ...``
in this process) and must answer in one line on standard error with exit code 2, or do its work:
never a traceback, never "internal error", never a read or a write outside the registry.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from registry.files import is_temporary, write_atomic
from tests.conftest import REPO
from tests.test_hostile import run_cli

CONFIG = REPO / "tests" / "fixtures" / "valid" / "model-config.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A small registry (the valid fixtures' model and hardware) beside a folder ``elsewhere``."""
    registry = tmp_path / "registry"
    for collection in ("models", "hardware"):
        (registry / "records" / collection).mkdir(parents=True)
    model = (REPO / "records" / "models" / "qwen3-8b.yaml").read_text(encoding="utf-8")
    alone = re.sub(r"(?m)^related:\n(?:  - .*\n)+", "", model)  # its relatives are not in this registry
    (registry / "records" / "models" / "qwen3-8b.yaml").write_text(alone, encoding="utf-8")
    (tmp_path / "elsewhere").mkdir()
    return registry


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fail a test that has not finished in 20 seconds (a read that never ends) instead of hanging."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError("still running after 20 s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def one_line_error(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "internal error" not in err and "Traceback" not in err
    return lines[0]


# ---------------------------------------------------------------- item 8: ids and links


@pytest.mark.parametrize(
    "argv",
    [
        ["calc", "--model", "../../../evil"],
        ["calc", "--model", "models/../../evil"],
        ["new", "kv-efficiency/x", "--model", "../../../evil"],
        ["explain", "../../evil"],
    ],
)
def test_an_id_that_climbs_out_of_records_is_refused_before_any_read(root: Path, argv: list[str]) -> None:
    evil = root.parent / "evil.yaml"
    evil.write_text(
        (REPO / "records" / "models" / "qwen3-8b.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    code, out, err = run_cli(*argv, "--root", str(root))
    assert "is not a record id" in one_line_error(code, err)
    assert out == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["new", "hardware/zzz"],
        ["import-config", "CONFIG", "--id", "models/zzz", "--repository", "o/n", "--revision", "r"],
    ],
)
def test_no_write_goes_through_a_linked_collection(root: Path, argv: list[str], tmp_path: Path) -> None:
    collection = "models" if argv[0] == "import-config" else "hardware"
    shutil.rmtree(root / "records" / collection)
    (root / "records" / collection).symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"model_type": "llama", "num_hidden_layers": 2}), encoding="utf-8")
    code, _, err = run_cli(*[str(config) if a == "CONFIG" else a for a in argv], "--root", str(root))
    assert "symbolic link" in one_line_error(code, err)
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_a_target_written_with_its_yaml_suffix_names_the_record(root: Path) -> None:
    code, out, err = run_cli("new", "hardware/x.yaml", "--root", str(root))
    assert code == 0, err
    assert out.startswith("wrote records/hardware/x.yaml\n")
    assert [p.name for p in (root / "records" / "hardware").iterdir()] == ["x.yaml"]


# ---------------------------------------------------------------- item 9: config files


def _fifo(tmp_path: Path) -> Path:
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    return fifo


def _deep(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    return path


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.json"
    path.write_text(text, encoding="utf-8")
    return path


BAD_CONFIGS = {
    "dev-zero": (lambda tmp: Path("/dev/zero"), "not a regular file"),
    "link-to-dev-zero": (lambda tmp: _link(tmp, Path("/dev/zero")), "not a regular file"),
    "fifo": (_fifo, "not a regular file"),
    "nested-100000": (_deep, "nested deeper than 64"),
    "nested-65": (lambda tmp: _write(tmp, '{"a": ' + "[" * 65 + "]" * 65 + "}"), "nested deeper than 64"),
    "duplicate-key": (lambda tmp: _write(tmp, '{"a": 1, "a": 2}'), "names the key 'a' twice"),
    "5000-digits": (lambda tmp: _write(tmp, '{"num_hidden_layers": ' + "9" * 5000 + "}"), "5,000 digits"),
    "kv-heads-above-heads": (
        lambda tmp: _write(
            tmp, json.dumps({"model_type": "llama", "num_attention_heads": 8, "num_key_value_heads": 16})
        ),
        "does not divide",
    ),
    "kv-heads-not-dividing": (
        lambda tmp: _write(
            tmp, json.dumps({"model_type": "llama", "num_attention_heads": 32, "num_key_value_heads": 5})
        ),
        "does not divide",
    ),
    "kv-heads-zero": (
        lambda tmp: _write(
            tmp, json.dumps({"model_type": "llama", "num_attention_heads": 32, "num_key_value_heads": 0})
        ),
        "at least 1",
    ),
}


def _link(tmp_path: Path, target: Path) -> Path:
    link = tmp_path / "config.json"
    link.symlink_to(target)
    return link


@pytest.mark.parametrize("case", sorted(BAD_CONFIGS))
@pytest.mark.parametrize("command", ["calc", "import-config"])
def test_a_config_is_read_with_a_records_bounds(
    root: Path, tmp_path: Path, case: str, command: str, deadline: None
) -> None:
    make, message = BAD_CONFIGS[case]
    config = make(tmp_path)
    if command == "calc":
        argv = ["calc", "--config", str(config)]
    else:
        argv = ["import-config", str(config), "--id", "models/x", "--repository", "o/n", "--revision", "r"]
    code, _, err = run_cli(*argv, "--root", str(root))
    assert message in one_line_error(code, err)
    assert not (root / "records" / "models" / "x.yaml").exists()


def test_a_config_linked_to_a_regular_file_is_read(root: Path, tmp_path: Path) -> None:
    """Hugging Face's cache keeps config.json as a link into its blobs: that is a config like any other."""
    target = _write(
        tmp_path,
        json.dumps(
            {
                "model_type": "llama",
                "num_hidden_layers": 2,
                "num_attention_heads": 8,
                "num_key_value_heads": 2,
                "hidden_size": 512,
            }
        ),
    )
    link = tmp_path / "snapshot.json"
    link.symlink_to(target)
    code, out, err = run_cli("calc", "--config", str(link), "--context", "4K", "--root", str(root))
    assert code == 0, err
    assert "per token" in out


# ---------------------------------------------------------------- item 10: OS errors, the site's folder


@pytest.mark.parametrize("number", [errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES])
def test_a_full_disk_is_one_line_with_the_path(
    root: Path, monkeypatch: pytest.MonkeyPatch, number: int
) -> None:
    def refuse(fd: int) -> None:
        raise OSError(number, os.strerror(number))

    monkeypatch.setattr("registry.files.os.fsync", refuse)
    code, _, err = run_cli("new", "hardware/full", "--root", str(root))
    line = one_line_error(code, err)
    assert str(root / "records" / "hardware" / "full.yaml") in line and os.strerror(number) in line
    assert [p.name for p in (root / "records" / "hardware").iterdir()] == []


def test_a_site_folder_that_is_a_file_is_one_line(root: Path) -> None:
    (root / "build").write_text("not a folder\n", encoding="utf-8")
    code, _, err = run_cli("site", "--root", str(root))
    line = [text for text in err.strip().splitlines() if text.startswith("registry site: error:")]
    assert code == 2 and len(line) == 1, err
    assert "build is not a folder" in line[0] and "Traceback" not in err
    assert not (root / "site" / "generated").exists()  # refused before any page was written


# ---------------------------------------------------------------- item 7: a killed write's leftovers


def test_a_killed_writes_leftover_is_a_warning_and_fmt_removes_it(root: Path) -> None:
    record = root / "records" / "models" / "qwen3-8b.yaml"
    leftover = root / "records" / "models" / ".qwen3-8b.yaml.k2j3h4x9.registry.tmp"
    leftover.write_bytes(record.read_bytes()[:100])  # killed halfway
    assert is_temporary(leftover.name)
    code, out, _ = run_cli("check", "--root", str(root), "--no-cache")
    assert code == 0, out
    assert "R009 leftover-temporary: [warning]" in out and "registry fmt" in out
    young = time.time() - 10
    os.utime(leftover, (young, young))
    assert run_cli("fmt", "--root", str(root))[0] == 0
    assert leftover.exists()  # it may belong to a write still running
    old = time.time() - 120
    os.utime(leftover, (old, old))
    code, _, err = run_cli("fmt", "--root", str(root))
    assert code == 0 and "removed records/models/.qwen3-8b.yaml.k2j3h4x9.registry.tmp" in err
    assert not leftover.exists()
    assert run_cli("check", "--root", str(root), "--no-cache")[1].count("R009") == 0


def test_the_atomic_writer_names_its_temporary_files_as_the_check_knows_them(tmp_path: Path) -> None:
    seen: list[str] = []

    def fill(handle: object) -> None:
        seen.extend(p.name for p in tmp_path.iterdir())
        raise KeyboardInterrupt  # killed between writing and renaming

    from registry.files import write_atomic_with

    with pytest.raises(KeyboardInterrupt):
        write_atomic_with(tmp_path / "x.yaml", fill)
    assert len(seen) == 1 and is_temporary(seen[0])
    write_atomic(tmp_path / "x.yaml", "a: 1\n")
    assert [p.name for p in tmp_path.iterdir()] == ["x.yaml"]
