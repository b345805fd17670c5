"""A benchmark leaderboard as a reader uses it, in headless Chromium: the chart drawn, the table sorted
by throughput per accelerator and by a latency percentile, and a hostile system name that runs nothing.
Screenshots are saved under tests/artifacts/browser/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from registry.site import build_site, serve_in_background
from tests.browser.conftest import Watched
from tests.browser.site_registry import make_registry
from tests.test_site_leaderboards import RECORDS

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def board_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = make_registry(tmp_path_factory.mktemp("leaderboard-registry"), RECORDS)
    report = build_site(root, downloads=False)
    server, url = serve_in_background(report.out)
    yield url + "generated/leaderboards/example-llama/offline.html"
    server.shutdown()
    server.server_close()


def _open(watched: Watched, url: str) -> Any:
    watched.page.goto(url)
    watched.page.wait_for_load_state("networkidle")
    return watched.page


def test_the_leaderboard_sorts_and_its_chart_shows_each_system(watched: Watched, board_url: str) -> None:
    page = _open(watched, board_url)
    table = page.locator(".readable-table table[data-sortable]").first

    def records() -> list[str]:
        links = table.locator("tbody tr td:nth-child(1) a")
        return [
            str(h).rsplit("/", 1)[1].removesuffix(".html")
            for h in links.evaluate_all("l => l.map(a => a.href)")
        ]

    assert records() == ["b-two", "c-per-gpu", "a-eight", "d-hostile"]
    throughput = table.locator("th", has_text="per accelerator").locator("button")
    throughput.click()
    assert records() == ["d-hostile", "a-eight", "c-per-gpu", "b-two"]  # ascending: 500 first
    throughput.click()
    assert records() == ["b-two", "c-per-gpu", "a-eight", "d-hostile"]
    table.locator("th", has_text="Latency met").locator("button").click()
    assert records()[0] == "a-eight"  # the one record with the figure; the others have none
    chart = page.locator(".chart svg.registry-chart")
    chart.wait_for(state="visible")
    assert chart.locator("rect").count() == 4
    chart.hover()
    for link in table.locator("a").all()[:12]:
        link.hover()
    assert page.evaluate("window.__pwned") is None
    assert watched.dialogs == []
    assert "<script>" in " ".join(
        table.locator("tbody td:nth-child(1)").all_inner_texts()
    )  # the name, as text
    assert "<svg onload=" in " ".join(table.locator("small").all_inner_texts())  # the version, as text
    watched.shot("leaderboard")
    assert watched.errors == []
