"""Every page of the built site in headless Chromium, at a desktop's width and a phone's: no console
error, no uncaught exception, no failed request, and no content hidden sideways (see
:mod:`tests.browser.every_page`). The pages are found by walking the built site's folder, so a page the
site starts to generate is checked without a change here. A screenshot of each page at each width is
saved under tests/artifacts/browser/pages/<width>/.

The site is the test registry's: its records, with benchmarks so that the leaderboards are drawn, plus
every page the site always generates (the reference, the codes, the data pages)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from registry.site import build_site, serve_in_background
from tests.browser import site_registry
from tests.browser.conftest import ARTIFACTS
from tests.browser.every_page import WIDTHS, check_pages, site_pages
from tests.test_site_leaderboards import BENCHMARKS, OTHER_GPU

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RECORDS = {**site_registry.RECORDS, "hardware/other-gpu": OTHER_GPU, **BENCHMARKS}
"""The browser tests' registry with the leaderboard tests' benchmarks: every kind of record page."""


def _serve(root: Path) -> Iterator[tuple[Path, str]]:
    report = build_site(root)
    server, url = serve_in_background(report.out)
    yield report.out, url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def test_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    yield from _serve(site_registry.make_registry(tmp_path_factory.mktemp("every-page"), RECORDS))


def _report(found: dict[str, list[str]]) -> str:
    return "\n".join(
        f"{page}:\n" + "\n".join(f"  {problem}" for problem in problems) for page, problems in found.items()
    )


def _check_all(browser: Any, site: tuple[Path, str], width: int, shots: Path) -> None:
    folder, url = site
    shutil.rmtree(shots, ignore_errors=True)  # no screenshot left from a page that is gone
    pages = site_pages(folder)
    found = check_pages(browser, url, pages, width, shots)
    assert not found, f"{len(found)} of {len(pages)} pages at {width} px:\n{_report(found)}"
    assert len(list(shots.glob("*.png"))) == len(pages)


def test_the_walk_finds_every_kind_of_page(test_site: tuple[Path, str]) -> None:
    pages = set(site_pages(test_site[0]))
    assert {
        "index.html",
        "404.html",
        "generated/models/example-llama.html",
        "generated/kv-efficiency/hostile-text.html",
        "generated/benchmarks/a-eight.html",
        "generated/engines/example-engine.html",
        "generated/hardware/other-gpu.html",
        "generated/leaderboards/example-llama/offline.html",
        "generated/reference/codes/F001.html",
        "generated/querying.html",
        "generated/downloads.html",
    } <= pages


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_of_the_test_site(browser: Any, test_site: tuple[Path, str], width: int) -> None:
    _check_all(browser, test_site, width, ARTIFACTS / "pages" / str(width))
