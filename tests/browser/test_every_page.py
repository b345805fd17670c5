"""Every page of the built site in headless Chromium, at a desktop's width and a phone's: no console
error, no uncaught exception, no failed request, and no content hidden sideways (see
:mod:`tests.browser.every_page`). The pages are found by walking the built site's folder, so a page the
site starts to generate is checked without a change here. A page that went wrong leaves a screenshot
under tests/artifacts/browser/pages/<width>/ (pages-real/ for the real site); with ``--screenshots``
every page opened does, to look at them (whole-page screenshots double the tests' time).

Two sites: the test registry's (its records, with benchmarks so that the leaderboards are drawn, plus
every page the site always generates: the reference, the codes, the data pages), every page at both
widths but the codes' pages, which are all opened at the phone's width and the 4 largest at the
desktop's (one template, and a narrower column is the harder test of the same content); and the real
registry's, for what real values do to those templates. The real one has hundreds
of record pages made by the same templates as the test site's, and a page takes Chromium most of a
second, so within the suite's time it is opened at the phone's width, where content runs out of room
first: every page that is not a record page (indexes, the data pages, history), and the 4 largest
record pages of each collection, leaderboards and serving results pages (one template each, generated per
model, benchmark and scenario: with every MLPerf round they are hundreds, and opening them all took 7 of
the suite's 12 minutes; the largest hold the longest names and the most rows, so they run out of room
first); its collection indexes are opened at 1920 px too. The reference and code pages are made from
the code, not the records, so the test site's are the same pages."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from registry.site import build_site, serve_in_background
from tests.browser import site_registry
from tests.browser.conftest import ARTIFACTS
from tests.browser.every_page import WIDTHS, check_pages, site_pages
from tests.conftest import RealSite
from tests.test_site_leaderboards import BENCHMARKS, OTHER_GPU

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RECORDS = {**site_registry.RECORDS, "hardware/other-gpu": OTHER_GPU, **BENCHMARKS}
"""The browser tests' registry with the leaderboard tests' benchmarks: every kind of record page."""

RECORD_PAGE = re.compile(
    r"generated/(models|kv-efficiency|benchmarks|engines|hardware)/(?!index\.html$)[^/]+"
)
SAMPLED_PAGE = re.compile(
    r"generated/(models|kv-efficiency|benchmarks|engines|hardware|leaderboards|results)/(?!index\.html$).+"
)
"""A page the real registry's test samples: one of a collection's record, leaderboard or results pages."""


def _serve(root: Path) -> Iterator[tuple[Path, str]]:
    report = build_site(root)
    server, url = serve_in_background(report.out)
    yield report.out, url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def test_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    yield from _serve(site_registry.make_registry(tmp_path_factory.mktemp("every-page"), RECORDS))


@pytest.fixture(scope="module")
def real_site(real_site_build: RealSite) -> Iterator[tuple[Path, str]]:
    server, url = serve_in_background(real_site_build.out)
    yield real_site_build.out, url
    server.shutdown()
    server.server_close()


def _report(found: dict[str, list[str]]) -> str:
    return "\n".join(
        f"{page}:\n" + "\n".join(f"  {problem}" for problem in problems) for page, problems in found.items()
    )


def _every(request: pytest.FixtureRequest) -> Callable[[str], bool]:
    """Which pages to screenshot besides those that went wrong: all of them with ``--screenshots``."""
    wanted = bool(request.config.getoption("--screenshots"))
    return lambda page: wanted


def _check_all(
    browser: Any, site: tuple[Path, str], width: int, shots: Path, shot: Callable[[str], bool]
) -> None:
    folder, url = site
    shutil.rmtree(shots, ignore_errors=True)  # no screenshot left from a page that is gone
    pages = site_pages(folder)
    if width > min(WIDTHS):
        codes = [page for page in pages if page.startswith("generated/reference/codes/")]
        kept = sorted(codes, key=lambda page: (-(folder / page).stat().st_size, page))[:LARGEST]
        pages = [page for page in pages if page not in codes or page in kept]
    found = check_pages(browser, url, pages, width, shots, shot=shot)
    assert not found, f"{len(found)} of {len(pages)} pages at {width} px:\n{_report(found)}"
    assert len(list(shots.glob("*.png"))) == len([page for page in pages if shot(page)])


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
def test_every_page_of_the_test_site(
    browser: Any, test_site: tuple[Path, str], width: int, request: pytest.FixtureRequest
) -> None:
    _check_all(browser, test_site, width, ARTIFACTS / "pages" / str(width), _every(request))


REAL_SITE = pytest.mark.xdist_group("real-site")
"""The tests that read the real registry's site run on one worker, the one that builds it: another
worker would wait a minute on its lock (``make test`` distributes by group)."""

LARGEST = 4
"""How many of each collection's record pages, the largest, the real registry's test opens."""
SAMPLED = ("models", "kv-efficiency", "benchmarks", "engines", "hardware")
"""The record collections, whose pages one template each makes."""


def real_pages(folder: Path) -> list[str]:
    """The real site's pages the test opens (module docstring)."""
    pages = [page for page in site_pages(folder) if not page.startswith("generated/reference/")]
    chosen = {page for page in pages if SAMPLED_PAGE.fullmatch(page) is None}
    for collection in (*SAMPLED, "leaderboards", "results"):
        records = [
            page
            for page in pages
            if page.startswith(f"generated/{collection}/") and not page.endswith("/index.html")
        ]
        chosen.difference_update(records)
        chosen.update(sorted(records, key=lambda page: (-(folder / page).stat().st_size, page))[:LARGEST])
    return [page for page in pages if page in chosen]


@REAL_SITE
def test_the_real_registrys_pages_at_390(
    browser: Any, real_site: tuple[Path, str], request: pytest.FixtureRequest
) -> None:
    folder, url = real_site
    shots = ARTIFACTS / "pages-real" / "390"
    shutil.rmtree(shots, ignore_errors=True)
    pages = real_pages(folder)
    assert {"generated/querying.html", "generated/kv-efficiency/index.html"} <= set(pages)
    assert "generated/leaderboards" in " ".join(pages) and "generated/models/" in " ".join(pages)
    found = check_pages(browser, url, pages, 390, shots, shot=_every(request))
    assert not found, f"{len(found)} of {len(pages)} pages at 390 px:\n{_report(found)}"


@REAL_SITE
def test_the_real_registrys_collection_indexes_at_1920(
    browser: Any, real_site: tuple[Path, str], request: pytest.FixtureRequest
) -> None:
    """The widest tables, in a wide window too (the KV-efficiency index once ran past its text column
    there, its last column cut off)."""
    folder, url = real_site
    indexes = [page for page in site_pages(folder) if re.fullmatch(r"generated/[a-z-]+/index\.html", page)]
    assert "generated/kv-efficiency/index.html" in indexes
    found = check_pages(browser, url, indexes, 1920, ARTIFACTS / "pages-real" / "1920", shot=_every(request))
    assert not found, _report(found)


QUESTIONS = (("DeepSeek-R1", "Server"), ("gpt-oss-120b", "Server"), ("Llama 2 70B Chat", "Offline"))
"""The models and scenarios a reader comes with: from the home page, one click reaches the answer."""


@REAL_SITE
def test_from_the_home_page_one_click_shows_the_best_per_accelerator_and_the_chart(
    browser: Any, real_site: tuple[Path, str]
) -> None:
    _folder, url = real_site
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    for model, scenario in QUESTIONS:
        page.goto(url)
        page.get_by_role("link", name=model, exact=True).first.click()
        page.wait_for_load_state("networkidle")
        assert page.url.endswith(".html") and "/generated/results/" in page.url
        assert page.evaluate("document.documentElement.scrollWidth") <= 1400
        rows = page.evaluate(
            """scenario => [...document.querySelectorAll('.readable-table table')]
                .filter(t => t.closest('section').previousElementSibling?.textContent.startsWith('Best'))
                .flatMap((t, table) => [...t.querySelectorAll('tbody tr')].map(tr => {
                    const cell = key => tr.querySelector(`td[data-label^="${key}"]`);
                    const box = tr.getBoundingClientRect();
                    return { table, scenario: cell('Scenario')?.textContent.trim(),
                        system: cell('System')?.textContent.trim(), engine: cell('Engine')?.textContent.trim(),
                        precision: cell('Weights')?.textContent.trim(),
                        figure: parseFloat(cell('Output')?.getAttribute('data-sort')),
                        fits: box.right <= 1400 && t.scrollWidth <= t.parentElement.clientWidth + 1 };
                }))
                .filter(row => row.scenario === scenario)""",
            scenario,
        )
        assert rows, (model, scenario)
        best = rows[0]
        assert best["system"] and best["engine"] and best["precision"] and best["figure"] > 0, best
        # Each benchmark of the model has its own table (llama2-70b-99 and -99.9): the first is ranked.
        assert best["figure"] == max(row["figure"] for row in rows if row["table"] == best["table"])
        assert all(row["fits"] for row in rows)
        chart = page.locator("svg.serving-chart.wide")
        assert chart.is_visible()
        words = " ".join(chart.locator("text").all_text_contents())
        assert "per accelerator" in words and "per user" in words
        assert chart.locator('a.point[href*="benchmarks/"]').count() > 0
    context.close()
