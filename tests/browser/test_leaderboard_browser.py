"""A benchmark leaderboard as a reader uses it, in headless Chromium: the chart drawn, the table sorted
by throughput per accelerator and by a latency percentile (by value, its unit understood), the first
eight columns in a 1400 px window without sideways scrolling, a card per row at 390 px with nothing cut
off, and a hostile system name that runs nothing. Screenshots are saved under tests/artifacts/browser/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from registry.site import build_site, serve_in_background
from tests.browser.conftest import Watched
from tests.browser.site_registry import make_registry
from tests.test_site_leaderboards import PROVENANCE, RECORDS, benchmark

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def board_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = make_registry(tmp_path_factory.mktemp("leaderboard-registry"), {**RECORDS, **WIDE})
    report = build_site(root, downloads=False)
    server, url = serve_in_background(report.out)
    yield url + "generated/leaderboards/example-llama/offline.html"
    server.shutdown()
    server.server_close()


TTFT = """\
  - metric: ttft
    statistic: p99
    per: request
    stated: {}
"""

WIDE = {
    # A system and engine version as long as MLPerf's, on a rack: what widens a table the most.
    "benchmarks/f-long": benchmark(
        "f-long",
        count=72,
        throughput="600,000 tok/s",
        system="NVIDIA GB300 NVL72 (72x GB300-288GB_aarch64, TensorRT) by Example Cloud Provider Inc.",
        version="TensorRT 10.14, CUDA 13.1, cuDNN 9.17, TensorRT-LLM feat/1.2-mlpinf, NVIDIA Dynamo "
        "mlperf-v6.0-dynamo-v0.8.0, vLLM CentML:mlperf-inf-mm-q3vl-v6.1",
        latencies=TTFT.format("18.6 s"),
        provenance=PROVENANCE,
    ),
    "benchmarks/g-fast": benchmark(
        "g-fast", count=1, throughput="900 tok/s", latencies=TTFT.format("498 ms")
    ),
}
"""Two more results on the offline leaderboard: a wide row, and TTFTs in seconds and milliseconds."""

BOARD = ["f-long", "b-two", "c-per-gpu", "a-eight", "g-fast", "d-hostile"]
"""The offline leaderboard's records, highest throughput per accelerator first."""


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

    assert records() == BOARD
    throughput = table.locator("th", has_text="per accelerator").locator("button")
    throughput.click()
    assert records() == BOARD[::-1]  # ascending: 500 first
    throughput.click()
    assert records() == BOARD
    chart = page.locator(".chart svg.registry-chart")
    chart.wait_for(state="visible")
    assert chart.locator("rect").count() == len(BOARD)
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


def test_a_latency_column_sorts_by_value_with_its_unit(watched: Watched, board_url: str) -> None:
    page = _open(watched, board_url)
    page.locator("details.more-columns summary").click()
    more = page.locator("details.more-columns table[data-sortable]")
    column = page.evaluate(
        "() => [...document.querySelectorAll('details.more-columns thead th')].map(th => th.textContent)"
    )
    ttft = next(i for i, header in enumerate(column) if header.startswith("TTFT p99")) + 1

    def shown() -> list[str]:
        cells = more.locator(f"tbody tr td:nth-child({ttft})").all_inner_texts()
        return [text.strip() for text in cells if text.strip()]

    header = more.locator("th", has_text="TTFT p99").locator("button")
    header.click()
    assert shown() == ["450 ms", "498 ms", "18.6 s"]  # by value: 18.6 s is the longest, not the "smallest"
    header.click()
    assert shown() == ["18.6 s", "498 ms", "450 ms"]
    assert watched.errors == []


def _fits(page: Any) -> dict[str, Any]:
    """The window's width, the page's, and the right edge of each header of the page's first readable
    table, with how far its scrolling box overflows."""
    return page.evaluate(
        """() => {
        const table = document.querySelector('.readable-table table');
        const box = table.closest('.md-typeset__scrollwrap') || table.parentElement;
        return {
          window: window.innerWidth,
          page: document.documentElement.scrollWidth,
          overflow: box.scrollWidth - box.clientWidth,
          rights: [...table.querySelectorAll('thead th')].map(th => th.getBoundingClientRect().right),
        };
    }"""
    )


@pytest.mark.parametrize("path", ["", "../../benchmarks/index.html", "../hardware/example-gpu.html"])
def test_the_first_eight_columns_fit_a_1400_px_window(watched: Watched, board_url: str, path: str) -> None:
    watched.page.set_viewport_size({"width": 1400, "height": 900})
    page = _open(watched, board_url.rsplit("/", 1)[0] + "/" + path if path else board_url)
    found = _fits(page)
    assert len(found["rights"]) >= 8
    assert max(found["rights"][:8]) <= found["window"], found
    assert found["page"] <= found["window"] and found["overflow"] <= 1, found
    watched.shot(f"readable-1400-{path.replace('/', '_').replace('.', '') or 'offline'}")


@pytest.mark.parametrize("path", ["", "../../benchmarks/index.html", "../../models/example-llama.html"])
def test_at_390_px_each_row_is_a_card_with_nothing_cut_off(
    watched: Watched, board_url: str, path: str
) -> None:
    watched.page.set_viewport_size({"width": 390, "height": 844})
    page = _open(watched, board_url.rsplit("/", 1)[0] + "/" + path if path else board_url)
    found = page.evaluate(
        """() => {
        const table = document.querySelector('.readable-table table');
        const cells = [...table.querySelectorAll('tbody td')].filter(td => td.offsetParent !== null);
        const cut = cells.filter(td => {
          const r = td.getBoundingClientRect();
          return r.left < 0 || r.right > window.innerWidth + 0.5 || td.scrollWidth > td.clientWidth + 1;
        }).map(td => td.getAttribute('data-label') + ': ' + td.textContent.trim());
        const first = table.querySelector('tbody tr');
        const shown = [...first.querySelectorAll('td')].filter(td => td.offsetParent !== null)
          .map(td => td.getAttribute('data-label'));
        return {page: document.documentElement.scrollWidth, window: window.innerWidth, cut, shown,
                display: getComputedStyle(first).display};
    }"""
    )
    assert found["page"] <= found["window"], found
    assert found["cut"] == [], found["cut"]
    assert found["display"] == "block"  # a card, not a table row
    for label in ("System", "Accelerators"):
        assert label in found["shown"], found["shown"]
    assert any("per accelerator" in label for label in found["shown"]), found["shown"]
    watched.shot(f"readable-390-{path.replace('/', '_').replace('.', '') or 'offline'}")


def test_hostile_names_stay_text_on_every_table_page(watched: Watched, board_url: str) -> None:
    base = board_url.rsplit("/", 1)[0] + "/"
    for path in (
        "",
        "../../benchmarks/index.html",
        "../hardware/example-gpu.html",
        "../../models/example-llama.html",
    ):
        page = _open(watched, base + path if path else board_url)
        for summary in page.locator("details.more-columns summary").all():
            summary.click()
        for link in page.locator(".readable-table a").all()[:40]:
            link.hover()
        assert page.evaluate("window.__pwned") is None, path
        if "models/" not in path and "index" not in path:  # those show only the best of each group
            texts = " ".join(page.locator(".readable-table td").all_inner_texts())
            assert "<script>" in texts, path  # the hostile system's name, shown as text
    assert watched.dialogs == []
    assert watched.errors == []
