"""Hostile inputs that cannot be committed, built at run time: huge files, deep nesting, links, pipes,
and a code-execution payload whose effect would be visible (tests/hostile/README.md lists them).

Each gets its located finding and exit 1 within the time bound, reads nothing it should not, and runs
nothing it reads.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from registry.checker.limits import MAX_DEPTH, MAX_FILE_BYTES
from registry.checker.load import load_canonical
from registry.checker.validate import validate
from registry.codes.rule import MAX_MESSAGE
from tests.test_hostile import HOSTILE, REPO, SECONDS_PER_FILE, check_json, finding_lines, run_cli

VALID = (HOSTILE / "alias-small" / "records" / "hardware" / "gpu.yaml").read_text(encoding="utf-8")
"""A valid hardware record (the corpus's accepted alias case) to build the huge and deep ones from."""

SECRET = "the contents of a file outside the registry"


def registry_with(tmp_path: Path, relative: str, content: bytes) -> Path:
    target = tmp_path / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)
    return tmp_path


def timed_findings(root: Path) -> tuple[int, list[str]]:
    code, report, elapsed = check_json(root)
    assert elapsed < SECONDS_PER_FILE
    return code, finding_lines(report)


# ---------------------------------------------------------------- size


def test_a_50_mb_file_is_refused_by_its_size_without_being_read(tmp_path: Path) -> None:
    size = 50 * 1024 * 1024
    root = registry_with(tmp_path, "records/hardware/gpu.yaml", b"notes: " + b"x" * (size - 8) + b"\n")
    tracemalloc.start()
    try:
        code, out, _ = run_cli("check", "--root", str(root))  # with the cache, as CI runs it by default
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert code == 1
    assert out.startswith(f"records/hardware/gpu.yaml:1:1: Y006 file-too-large: the file has {size:,} bytes")
    assert peak < 8 * 1024 * 1024, f"{peak:,} bytes allocated while checking a {size:,}-byte file"


def test_fmt_and_db_refuse_a_50_mb_file_quickly_and_leave_it_as_it_is(tmp_path: Path) -> None:
    size = 50 * 1024 * 1024
    root = registry_with(tmp_path, "records/hardware/gpu.yaml", b"notes: " + b"x" * (size - 8) + b"\n")
    started = time.process_time()
    code, out, _ = run_cli("fmt", "--root", str(root))
    assert (code, out) == (
        1,
        f"records/hardware/gpu.yaml: {size:,} bytes, more than a record may hold; left untouched\n",
    )
    tracemalloc.start()
    try:
        assert run_cli("db", "--root", str(root), "--out", str(tmp_path / "r.duckdb"))[0] == 1
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # db imports DuckDB and Arrow on the way, so its bound is looser; the file itself is never held whole
    assert peak < size // 2, f"{peak:,} bytes allocated by db for a {size:,}-byte file"
    assert time.process_time() - started < 2 * SECONDS_PER_FILE
    assert (root / "records/hardware/gpu.yaml").stat().st_size == size


def test_one_byte_past_the_limit_is_too_large_and_the_limit_itself_is_not(tmp_path: Path) -> None:
    head = VALID + "notes: "
    filler = MAX_FILE_BYTES - len(head.encode()) - 1
    at_limit = (head + "x" * filler + "\n").encode()
    assert len(at_limit) == MAX_FILE_BYTES
    root = registry_with(tmp_path / "a", "records/hardware/gpu.yaml", at_limit)
    assert "Y006" not in " ".join(timed_findings(root)[1])
    root = registry_with(tmp_path / "b", "records/hardware/gpu.yaml", at_limit + b"\n")
    assert timed_findings(root) == (1, ["records/hardware/gpu.yaml:1:1: Y006"])


def test_a_1_mb_string_makes_the_file_too_large(tmp_path: Path) -> None:
    text = VALID + "notes: " + "x" * (1 << 20) + "\n"
    root = registry_with(tmp_path, "records/hardware/gpu.yaml", text.encode())
    assert timed_findings(root) == (1, ["records/hardware/gpu.yaml:1:1: Y006"])


def test_a_900_kb_string_is_refused_by_the_schema_with_a_bounded_message(tmp_path: Path) -> None:
    text = VALID.replace("title: Example accelerator", "title: " + "x" * 900_000)
    root = registry_with(tmp_path, "records/hardware/gpu.yaml", text.encode())
    code, report, elapsed = check_json(root)
    assert (code, finding_lines(report)) == (1, ["records/hardware/gpu.yaml:4:8: S004"])
    assert elapsed < SECONDS_PER_FILE
    diagnostics = report["diagnostics"]
    assert isinstance(diagnostics, list) and len(diagnostics[0]["message"]) < MAX_MESSAGE + 100


def test_a_900_kb_id_is_quoted_at_most_max_message_characters(tmp_path: Path) -> None:
    text = VALID.replace("id: hardware/gpu", "id: hardware/" + "x" * 900_000)
    root = registry_with(tmp_path, "records/hardware/gpu.yaml", text.encode())
    code, report, _ = check_json(root)
    assert code == 1
    diagnostics = report["diagnostics"]
    assert isinstance(diagnostics, list)
    for diagnostic in diagnostics:
        assert len(diagnostic["message"]) < MAX_MESSAGE + 100
        assert len(diagnostic["hint"]) < MAX_MESSAGE + 100


# ---------------------------------------------------------------- nesting


@pytest.mark.parametrize(
    ("prefix", "opener", "closer"),
    [("deep: ", "[", "]"), ("deep: ", "{a: ", "}"), ("deep:\n", "- ", "")],
    ids=["flow-sequences", "flow-mappings", "block-sequences"],
)
def test_nesting_10000_deep_is_refused_at_the_limit(
    tmp_path: Path, prefix: str, opener: str, closer: str
) -> None:
    text = VALID + prefix + opener * 10_000 + "x" + closer * 10_000 + "\n"
    root = registry_with(tmp_path, "records/hardware/gpu.yaml", text.encode())
    # the root mapping is the first level, so the refused collection is the MAX_DEPTH-th opener
    line = VALID.count("\n") + prefix.count("\n") + 1
    column = len(prefix.rsplit("\n", 1)[-1]) + (MAX_DEPTH - 1) * len(opener) + 1
    assert timed_findings(root) == (1, [f"records/hardware/gpu.yaml:{line}:{column}: Y008"])


# ---------------------------------------------------------------- links and special files


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A file and a folder outside the registry, holding something the check must never show."""
    folder = tmp_path / "outside"
    (folder / "hardware").mkdir(parents=True)
    (folder / "secret.yaml").write_text(f"notes: {SECRET}\n", encoding="utf-8")
    (folder / "hardware" / "gpu.yaml").write_text(VALID, encoding="utf-8")
    return folder


def test_a_link_to_a_file_outside_records_is_refused_unread(tmp_path: Path, outside: Path) -> None:
    root = registry_with(tmp_path / "registry", "records/hardware/gpu.yaml", VALID.encode())
    (root / "records/hardware/secret.yaml").symlink_to(outside / "secret.yaml")
    (root / "records/hardware/passwd.yaml").symlink_to("/etc/passwd")
    code, out, err = run_cli("check", "--root", str(root), "--no-cache")
    assert code == 1
    assert [line.split(" ")[:2] for line in out.splitlines() if not line.startswith(" ")] == [
        ["records/hardware/passwd.yaml:1:1:", "R007"],
        ["records/hardware/secret.yaml:1:1:", "R007"],
    ]
    assert SECRET not in out + err and "root:" not in out + err


def test_links_to_folders_loops_and_dangling_links_are_refused(tmp_path: Path, outside: Path) -> None:
    root = registry_with(tmp_path / "registry", "records/hardware/gpu.yaml", VALID.encode())
    (root / "records/engines").symlink_to(outside / "hardware", target_is_directory=True)
    (root / "records/hardware/loop.yaml").symlink_to(root / "records/hardware/loop.yaml")
    (root / "records/hardware/dangling.yaml").symlink_to(root / "records/hardware/missing.yaml")
    assert timed_findings(root) == (
        1,
        [
            "records/engines:1:1: R007",
            "records/hardware/dangling.yaml:1:1: R007",
            "records/hardware/loop.yaml:1:1: R007",
        ],
    )


def test_records_itself_a_link_is_refused_and_nothing_read(tmp_path: Path, outside: Path) -> None:
    root = tmp_path / "registry"
    root.mkdir()
    (root / "records").symlink_to(outside, target_is_directory=True)
    code, out, err = run_cli("check", "--root", str(root))
    assert (code, out.split(" ")[:2]) == (1, ["records:1:1:", "R007"])
    assert SECRET not in out + err


def test_naming_a_link_on_the_command_line_does_not_follow_it(tmp_path: Path, outside: Path) -> None:
    root = registry_with(tmp_path / "registry", "records/hardware/gpu.yaml", VALID.encode())
    (root / "records/hardware/secret.yaml").symlink_to(outside / "secret.yaml")
    named = str(root / "records/hardware/secret.yaml")
    code, out, err = run_cli("check", "--root", str(root), "--no-cache", named)
    assert (code, out.split(" ")[:2]) == (1, ["records/hardware/secret.yaml:1:1:", "R007"])
    assert SECRET not in out + err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need a POSIX system")
def test_a_named_pipe_is_refused_without_being_opened(tmp_path: Path) -> None:
    """Opening a pipe blocks until a writer comes: the check (and its cache) must never open one. Run
    in a child process with a timeout, so that a regression fails instead of hanging the suite."""
    root = registry_with(tmp_path, "records/hardware/gpu.yaml", VALID.encode())
    os.mkfifo(root / "records/hardware/pipe.yaml")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "registry", "check", "--root", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("records/hardware/pipe.yaml:1:1: R007 outside-records: not a regular file")
    assert time.perf_counter() - started < 60


def test_file_and_folder_names_cannot_write_to_the_terminal(tmp_path: Path) -> None:
    """Git allows any byte but NUL and '/' in a name: a name holding an escape sequence or a line break
    is refused (R007) and shown escaped, so it can neither clear a terminal nor forge a finding."""
    root = registry_with(tmp_path, "records/hardware/a\x1b[2Jb.yaml", VALID.encode())
    (root / "records/ha\nrecords.yaml:1:1: Y001 forged").mkdir()
    (root / "records/ha\nrecords.yaml:1:1: Y001 forged/gpu.yaml").write_text(VALID, encoding="utf-8")
    code, out, err = run_cli("check", "--root", str(root), "--no-cache")
    assert code == 1
    assert "\x1b" not in out + err
    findings = [line for line in out.splitlines() if not line.startswith("  hint: ")]
    assert len(findings) == 2 and all(line.startswith("records/") for line in findings)
    assert "records/ha\\nrecords.yaml:1:1: Y001 forged/gpu.yaml:1:1: R007" in out
    assert "records/hardware/a\\x1b[2Jb.yaml:1:1: R007" in out
    code, out, _ = run_cli("check", "--root", str(root), "--no-cache", "--format", "github")
    assert len(out.splitlines()) == 2 and "\x1b" not in out


# ---------------------------------------------------------------- nothing read is run

PAYLOADS = [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/apply:subprocess.call [['touch', '{marker}']]",
    "!!python/object/new:subprocess.Popen [['touch', '{marker}']]",
    "!!python/object/apply:builtins.exec [\"open('{marker}', 'w').close()\"]",
    "!python/object/apply:os.system ['touch {marker}']",
]


@pytest.mark.parametrize("payload", PAYLOADS, ids=["system", "subprocess", "popen", "exec", "local-tag"])
def test_no_tag_constructs_anything_in_check_fmt_or_db(tmp_path: Path, payload: str) -> None:
    """A record whose tag would run ``touch MARKER`` under an unsafe loader: check, fmt and db refuse it
    and the marker file is never created."""
    marker = tmp_path / "pwned"
    text = VALID.replace("name: Example GPU", "name: " + payload.format(marker=marker))
    root = registry_with(tmp_path / "registry", "records/hardware/gpu.yaml", text.encode())
    code, out, _ = run_cli("check", "--root", str(root), "--no-cache")
    assert (code, out.split(" ")[1]) == (1, "Y009")
    assert run_cli("fmt", "--root", str(root))[0] == 1
    assert run_cli("fmt", "--root", str(root), "--check")[0] == 1
    assert run_cli("db", "--root", str(root), "--out", str(tmp_path / "x.duckdb"))[0] == 1
    assert (root / "records/hardware/gpu.yaml").read_text(encoding="utf-8") == text
    assert not marker.exists()


# ---------------------------------------------------------------- wrong types in every field


def _fields(value: Any, pointer: str = "", depth: int = 0) -> Iterator[str]:
    """The pointer of every field, three levels down (the first item of a list stands for the rest)."""
    if depth == 3:
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{pointer}/{key}"
            yield from _fields(item, f"{pointer}/{key}", depth + 1)
    elif isinstance(value, list) and value:
        yield from _fields(value[0], f"{pointer}/0", depth + 1)


def _set(data: Any, pointer: str, value: Any) -> Any:
    head, _, rest = pointer.lstrip("/").partition("/")
    if isinstance(data, list):
        index = int(head)
        return [*data[:index], _set(data[index], rest, value) if rest else value, *data[index + 1 :]]
    return {**data, head: _set(data[head], rest, value) if rest else value}


def _wrong(value: Any) -> Any:
    """A value of a type the field cannot have: a list for a scalar, text for a list or a mapping."""
    return "not a list or a mapping" if isinstance(value, list | dict) else [value]


FIXTURE_NAMES = ["model-config", "model-layout", "hardware", "engine", "run"]


@pytest.mark.parametrize("fixture", FIXTURE_NAMES)
def test_a_wrong_type_in_any_field_is_found_on_that_fields_line(fixture: str) -> None:
    original = load_canonical(
        "r.yaml", (REPO / "tests/fixtures/valid" / f"{fixture}.yaml").read_bytes()
    ).document
    assert original is not None
    # a config is free-form, copied verbatim; the config adapters type its fields (the corpus's
    # geometry-* cases), not the schema
    for pointer in (p for p in _fields(original.data) if not p.startswith("/config/")):
        current: Any = original.data
        for part in pointer.lstrip("/").split("/"):
            current = current[int(part)] if isinstance(current, list) else current[part]
        text = _dump(_set(original.data, pointer, _wrong(current)))
        document = load_canonical("r.yaml", text).document
        assert document is not None
        _, findings = validate(document, REPO)
        assert findings, f"{fixture}: {pointer} = {_wrong(current)!r} was accepted"
        assert {d.code[0] for d in findings} == {"S"}
        field_lines = {document.locate(pointer, key=True)[0], document.locate(pointer)[0]}
        assert field_lines & {d.line for d in findings}, (fixture, pointer, findings)


def _dump(data: Any) -> bytes:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue().encode("utf-8")
