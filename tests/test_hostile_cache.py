"""A hostile ``.registry-cache/``: anyone can commit one in a pull request, so CI must neither trust it
nor choke on it. Whatever stands at ``.registry-cache/check.json`` (a link to ``/dev/zero``, a pipe, a
300 MB file, JSON nested 200,000 deep, entries of the wrong shape) the check answers as if there were
no cache, in a bounded time, and the next write replaces it; a ``.registry-cache`` that is a link into
``records/`` gets nothing written through it. And an edit the stat signature could miss (same size, the
mtime put back) is never answered from the cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import GOLDEN, REPO
from tests.test_hostile import run_cli


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A registry whose check finds one error (R006), with its schemas."""
    shutil.copytree(GOLDEN / "R006" / "records", tmp_path / "records")
    shutil.copytree(REPO / "schemas", tmp_path / "schemas")
    return tmp_path


def check(root: Path) -> tuple[int, str, str]:
    return run_cli("check", "--root", str(root))


def _zero(cache: Path) -> None:
    cache.symlink_to("/dev/zero")


def _fifo(cache: Path) -> None:
    os.mkfifo(cache)


def _large(cache: Path) -> None:
    with open(cache, "wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: 300 MB long, nothing on disk


def _nested(cache: Path) -> None:
    cache.write_text("[" * 200_000 + "]" * 200_000)


def _wrong_shapes(cache: Path) -> None:
    real = json.loads(cache.with_name("real.json").read_text())
    for path in real["files"]:
        real["files"][path] = 5
    cache.write_text(json.dumps(real))


def _link_to_other(cache: Path) -> None:
    cache.symlink_to(cache.with_name("real.json"))


PLANTED: dict[str, Callable[[Path], None]] = {
    "link-to-dev-zero": _zero,
    "fifo": _fifo,
    "300-mb": _large,
    "nested-200000": _nested,
    "wrong-shapes": _wrong_shapes,
    "link-to-a-valid-cache": _link_to_other,
}


def check_apart(root: Path) -> tuple[tuple[int, str, str], int]:
    """``registry check`` in a process of its own, stopped after 60 seconds: its exit code and output,
    and its peak memory in KiB."""
    measured = (
        "import resource, sys; from registry.cli import main; code = main(); "
        "sys.stderr.write(f'peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n'); sys.exit(code)"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", measured, "check", "--root", str(root)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the check was still reading the planted cache after 60 s")
    err, _, peak = done.stderr.rpartition("peak ")
    return (done.returncode, done.stdout, err), int(peak)


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_a_planted_cache_file_is_ignored_then_replaced(root: Path, case: str) -> None:
    expected, plain_peak = check_apart(root)
    assert expected[0] == 1
    cache = root / ".registry-cache" / "check.json"
    shutil.copy(cache, cache.with_name("real.json"))
    cache.unlink()
    PLANTED[case](cache)
    answer, peak = check_apart(root)
    assert answer == expected
    assert (peak - plain_peak) / 1024 < 64, (
        f"{(peak - plain_peak) / 1024:.0f} MiB more: the planted file was read"
    )
    assert cache.is_file() and not cache.is_symlink()
    assert json.loads(cache.read_text())["result"]["files"] == 2  # the check's own answer, written anew
    assert check(root) == expected


def test_a_cache_folder_linked_into_records_gets_nothing_written_through_it(root: Path) -> None:
    inside = root / "records" / "hardware"
    before = sorted(p.name for p in inside.iterdir())
    (root / ".registry-cache").symlink_to(inside, target_is_directory=True)
    expected = run_cli("check", "--root", str(root), "--no-cache")
    assert check(root) == expected
    assert sorted(p.name for p in inside.iterdir()) == before
    assert (root / ".registry-cache").is_dir() and not (root / ".registry-cache").is_symlink()
    assert check(root) == expected


def test_an_edit_in_place_with_its_mtime_put_back_is_checked_afresh(root: Path) -> None:
    record = root / "records" / "hardware" / "gpu.yaml"
    past = record.stat().st_mtime_ns - 3_600 * 10**9  # older than the cache by far: trusted on stat alone
    os.utime(record, ns=(past, past))
    code, out, _ = check(root)
    assert code == 1 and "R006" in out
    text = record.read_text(encoding="utf-8")
    fixed = text.replace("[[hardware/gpu-two]]", "[[hardware/gpu]]    ")
    assert len(fixed) == len(text) and fixed != text
    with open(record, "r+", encoding="utf-8") as handle:  # in place: the same inode
        handle.write(fixed)
    os.utime(record, ns=(past, past))  # touch -r: size and mtime as before
    code, out, _ = check(root)
    assert "R006" not in out, "the edit was answered from the cache"
