from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hypothesis import settings

from registry.checker.pipeline import check
from registry.report.reporters import text

REPO = Path(__file__).resolve().parent.parent
GOLDEN = REPO / "registry" / "codes" / "examples"

# In CI the property-based tests try the same examples on every run, so a submission's result does not
# depend on the draw; finding new inputs is the fuzz campaign's job (fuzz/), and locally each run
# still draws afresh.
settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
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
