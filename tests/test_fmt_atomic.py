"""Writes are atomic: a failure in the middle of a write, or a killed process, leaves the old file intact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from registry.authoring.fmt import fmt

SCRAMBLED = "kind: hardware\nvendor: Example Corp  # maker\nschema_version: 1\nid: hardware/gpu\n"


@pytest.fixture
def registry(tmp_path: Path) -> Path:
    (tmp_path / "records" / "hardware").mkdir(parents=True)
    (tmp_path / "records" / "hardware" / "gpu.yaml").write_text(SCRAMBLED, encoding="utf-8")
    return tmp_path


def _folder(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "records" / "hardware").iterdir())


def test_a_failed_rename_leaves_the_old_file_and_no_temporary(
    registry: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        fmt(registry)
    assert (registry / "records/hardware/gpu.yaml").read_text(encoding="utf-8") == SCRAMBLED
    assert _folder(registry) == ["gpu.yaml"]


def test_a_failure_halfway_through_writing_leaves_the_old_file(
    registry: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", fail)  # the data is written, not yet durable, not yet renamed
    with pytest.raises(OSError):
        fmt(registry)
    assert (registry / "records/hardware/gpu.yaml").read_text(encoding="utf-8") == SCRAMBLED
    assert _folder(registry) == ["gpu.yaml"]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_process_killed_mid_write_leaves_the_old_file(registry: Path, tmp_path: Path) -> None:
    started = tmp_path / "started"
    script = textwrap.dedent(
        f"""
        import os, time
        from pathlib import Path
        from registry.authoring.fmt import fmt

        def stall(fd):
            Path({str(started)!r}).write_text("writing")
            time.sleep(60)

        os.fsync = stall
        fmt(Path({str(registry)!r}))
        """
    )
    process = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).resolve().parent.parent)
    try:
        deadline = time.monotonic() + 60
        while not started.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert started.exists(), "the formatter never reached the write"
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    assert (registry / "records/hardware/gpu.yaml").read_text(encoding="utf-8") == SCRAMBLED
    leftovers = [name for name in _folder(registry) if name != "gpu.yaml"]
    assert all(name.startswith(".gpu.yaml.") and name.endswith(".tmp") for name in leftovers)
