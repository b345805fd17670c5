"""Files the tool writes are never left half-written: a failure or a killed process leaves the old file.

Every write goes to a temporary file beside the target, is flushed and synced, then renamed into place
(``registry.files.write_atomic``; the database is built the same way under its own temporary name). The
tests inject a failure halfway (after the data is written, before the rename) and at the rename, and kill
a process in that window; one end-to-end test each for ``registry schema`` and ``registry db``. A static
test keeps every file write in the package going through those two places. ``fmt``'s own
failure and kill tests are in tests/test_fmt_atomic.py.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from registry import files as _io
from tests.conftest import REPO
from tests.test_hostile import run_cli

OLD = b"the old content, complete\n"
NEW = b"new content " * 200_000


def _fail(*args: object) -> None:
    raise OSError(28, "No space left on device")


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    target = tmp_path / "file.json"
    target.write_bytes(OLD)
    monkeypatch.setattr(os, step, _fail)
    with pytest.raises(OSError):
        _io.write_atomic(target, NEW)
    assert target.read_bytes() == OLD
    assert _leftovers(tmp_path) == []


_STALL_THEN_RUN = """
import os, sys, time
def stall(fd):  # the data is written to the temporary file; it is not yet renamed
    print("written", flush=True)
    time.sleep(120)
os.fsync = stall
{body}
"""


def _kill_in_the_window(body: str, cwd: Path) -> None:
    """Run ``body`` in a child whose first fsync stalls; SIGKILL it there."""
    script = textwrap.dedent(_STALL_THEN_RUN).format(body=textwrap.dedent(body))
    command = [sys.executable, "-c", script]
    with subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, text=True) as child:
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "written"
        finally:
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=60)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_process_killed_mid_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "file.json"
    target.write_bytes(OLD)
    _kill_in_the_window(
        f"""
        from pathlib import Path
        from registry.files import write_atomic
        write_atomic(Path({str(target)!r}), b"new " * 1_000_000)
        """,
        REPO,
    )
    assert target.read_bytes() == OLD
    # a killed process cannot clean up: its temporary file may stay, hidden, never in the target's place
    assert all(name.startswith(".file.json.") for name in _leftovers(tmp_path))


@pytest.fixture
def small_registry(tmp_path: Path) -> Path:
    """The valid fixtures as a registry that checks clean, and the committed schemas."""
    root = tmp_path / "registry"
    for fixture, relative in (
        ("model-config", "models/example-llama"),
        ("hardware", "hardware/example-gpu"),
        ("engine", "engines/example"),
    ):
        (root / "records" / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "tests/fixtures/valid" / f"{fixture}.yaml", root / "records" / f"{relative}.yaml")
    shutil.copytree(REPO / "schemas", root / "schemas")
    return root


def test_registry_schema_failing_at_the_rename_leaves_every_schema_whole(
    small_registry: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = small_registry / "schemas" / "model.schema.json"
    stale.write_bytes(OLD)
    monkeypatch.setattr(os, "replace", _fail)
    code, _, err = run_cli("schema", "--root", str(small_registry))
    assert code == 2 and "No space left on device" in err
    assert stale.read_bytes() == OLD
    assert _leftovers(small_registry / "schemas") == []


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_registry_schema_killed_mid_write_leaves_the_old_schema(small_registry: Path) -> None:
    stale = small_registry / "schemas" / "model.schema.json"
    stale.write_bytes(OLD)
    _kill_in_the_window(
        f"""
        from registry.cli import main
        main(["schema", "--root", {str(small_registry)!r}])
        """,
        REPO,
    )
    assert stale.read_bytes() == OLD
    assert run_cli("schema", "--root", str(small_registry))[0] == 0  # and a later run completes it
    assert stale.read_bytes() != OLD


def test_registry_db_failing_at_the_rename_keeps_the_previous_database(
    small_registry: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = small_registry / "build" / "registry.duckdb"
    assert run_cli("db", "--root", str(small_registry))[0] == 0
    before = database.read_bytes()
    record = small_registry / "records/hardware/example-gpu.yaml"
    record.write_text(record.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    monkeypatch.setattr(os, "replace", _fail)
    code, _, err = run_cli("db", "--root", str(small_registry))
    assert code == 2 and "No space left on device" in err
    assert database.read_bytes() == before
    assert sorted(p.name for p in database.parent.iterdir()) == ["registry.duckdb"]


# ---------------------------------------------------------------- every write is atomic

_WRITERS = {"write_text", "write_bytes"}
_MODE = re.compile(r"[rwxabt+]{1,3}")
_ALLOWED = {
    "registry/files.py",  # write_atomic itself
    "registry/db/_build.py",  # DuckDB writes its own file, under a temporary name that is then renamed
    # Generated site pages: an existing page is replaced by rename; a new one is created in place (no
    # older version to keep; one torn by a crash differs from its content and is rewritten next build).
    "registry/site/_writer.py",
}


def _raw_writes(path: Path) -> list[int]:
    """Lines of ``path`` that open a file for writing or call write_text / write_bytes."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        # open(file, mode), os.fdopen(fd, mode) and Path.open(mode): a mode among the first two arguments
        given = [*node.args[:2], *(k.value for k in node.keywords if k.arg == "mode")]
        modes = [str(a.value) for a in given if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        writing = any(_MODE.fullmatch(m) and set(m) & set("wax+") for m in modes)
        if name in _WRITERS or (name in ("open", "fdopen") and writing):
            found.append(node.lineno)
    return found


def test_every_write_in_the_package_goes_through_write_atomic() -> None:
    package = REPO / "registry"
    offenders = {
        rel: lines
        for path in sorted(package.rglob("*.py"))
        if (rel := path.relative_to(REPO).as_posix()) not in _ALLOWED and (lines := _raw_writes(path))
    }
    assert offenders == {}
