"""Small, typed, boring code: ruff and mypy --strict are part of the suite, as the house style says."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

BIN = Path(sys.executable).parent
PATHS = ["registry", "tests", "benchmarks", "fuzz"]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600)


def _tool(name: str) -> str:
    found = BIN / name
    if not found.exists() and shutil.which(name) is None:
        pytest.fail(f"{name} is a test extra and is missing")
    return str(found) if found.exists() else name


def test_ruff_lint_is_clean() -> None:
    done = _run(_tool("ruff"), "check", "--output-format", "concise", *PATHS)
    assert done.returncode == 0, done.stdout


def test_ruff_format_is_applied() -> None:
    done = _run(_tool("ruff"), "format", "--check", *PATHS)
    assert done.returncode == 0, done.stdout


@pytest.mark.slow
def test_mypy_strict_is_clean() -> None:
    done = _run(_tool("mypy"), "registry")
    assert done.returncode == 0, done.stdout[-4000:]
