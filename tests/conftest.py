from __future__ import annotations

import io
from pathlib import Path

import pytest

from registry.checker.pipeline import check
from registry.report.reporters import text

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "registry" / "codes" / "examples"
"""Every code's example (package data of :mod:`registry.codes`): ``<CODE>/records/`` and ``expected.txt``."""


def render_check(root: Path) -> str:
    """What `registry check` prints for the registry at ``root``: findings, then the summary line."""
    result = check(root)
    out, err = io.StringIO(), io.StringIO()
    text(result, out, err)
    return out.getvalue() + err.getvalue()


@pytest.fixture
def repo() -> Path:
    return REPO
