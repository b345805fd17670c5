from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock
from hypothesis import settings

from registry.checker.pipeline import CheckResult, check
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


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--screenshots",
        action="store_true",
        help="save a whole-page screenshot of every page the browser tests open under "
        "tests/artifacts/browser/ (by default only of a page that went wrong), to look at them",
    )


def render_check(root: Path) -> str:
    """What `registry check` prints for the registry at ``root``: findings, then the summary line."""
    result = check(root)
    out, err = io.StringIO(), io.StringIO()
    text(result, out, err)
    return out.getvalue() + err.getvalue()


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def real_check() -> CheckResult:
    """``registry check`` of the real registry, run once per worker for every test that reads it (it
    takes seconds); tests read it and never change it."""
    return check(REPO)


@dataclass(frozen=True)
class RealSite:
    """This repository's registry, copied and built: ``root`` holds the copy (with its generated
    Markdown under site/generated), ``out`` the built site, ``records`` the build's count per kind."""

    root: Path
    out: Path
    records: dict[str, int]


@pytest.fixture(scope="session")
def real_site_build(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> RealSite:
    """The real registry's whole site, built once for the run: the first worker to ask builds it under
    a lock in the run's shared temporary folder and the others read that build (it takes a minute, and
    the site-build and browser tests each need it). Tests read it and never change it."""
    from registry.site import build_site
    from tests.browser.site_registry import copy_real_registry

    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent
    root, done = shared / "real-site", shared / "real-site.json"
    with FileLock(str(shared / "real-site.lock")):
        if not done.is_file():
            report = build_site(copy_real_registry(root))
            done.write_text(json.dumps({"out": str(report.out), "records": report.records}), encoding="utf-8")
    built = json.loads(done.read_text(encoding="utf-8"))
    return RealSite(root, Path(built["out"]), built["records"])
