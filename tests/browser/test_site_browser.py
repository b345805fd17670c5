"""The site as a reader uses it, in headless Chromium: the home page and its chart, a record page with
the engine's figure and the verdict badge, search, a [[link]], a sortable table, and a hostile record
that runs nothing. Screenshots are saved under tests/artifacts/browser/."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import Watched
from tests.browser.site_registry import PAYLOAD

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _open(watched: Watched, url: str) -> Any:
    watched.page.goto(url)
    watched.page.wait_for_load_state("networkidle")
    return watched.page


def test_home_page_shows_counts_and_the_headline_chart(watched: Watched, site_url: str) -> None:
    page = _open(watched, site_url)
    assert "Inference Efficiency Registry" in page.title()
    chart = page.locator("svg#headline-chart, svg[aria-labelledby^='headline-chart']").first
    chart.wait_for(state="visible")
    box = chart.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 50
    bars = chart.locator("rect")
    assert bars.count() == 3
    assert all((bars.nth(i).bounding_box() or {"width": 0})["width"] > 0 for i in range(3))
    assert chart.locator("title").first.text_content().startswith("KV cache of one 131,072-token sequence")
    assert page.get_by_role("link", name="Models").first.is_visible()
    watched.shot("home")
    assert watched.errors == []


def test_record_page_shows_the_engines_figure_and_verdict(watched: Watched, site_url: str) -> None:
    page = _open(watched, site_url + "generated/kv-efficiency/example-claims.html")
    first = page.locator(".claims tbody tr").first
    assert first.locator("td.stated").inner_text() == "131,072 B"
    assert first.locator("td.engine-value").inner_text() == "131,072 B"
    badge = first.locator(".badge-agrees")
    assert badge.is_visible() and badge.inner_text() == "agrees"
    assert "per token = 32 × 2 × 8 × 128 × 2 = 131,072 B" in page.locator("pre.trace").first.inner_text()
    watched.shot("record-claims")
    assert watched.errors == []


def test_search_finds_a_model(watched: Watched, site_url: str) -> None:
    page = _open(watched, site_url)
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").press_sequentially("Example Sliding", delay=20)
    result = page.locator(".md-search-result__item a[href*='example-sliding']").first
    result.wait_for(state="visible")
    watched.shot("search")
    result.click()
    page.wait_for_url(re.compile(r"example-sliding\.html"))
    assert page.locator("h1").first.inner_text() == "Example sliding-window model"
    assert watched.errors == []


def test_following_a_wiki_link(watched: Watched, site_url: str) -> None:
    page = _open(watched, site_url + "generated/kv-efficiency/example-claims.html")
    page.locator(".record-prose a", has_text="models/example-llama").first.click()
    page.wait_for_url(re.compile(r"generated/models/example-llama\.html$"))
    assert page.locator("h1").first.inner_text() == "Example Llama-shaped model"
    image = page.locator(".chart img.registry-chart")
    image.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    assert image.is_visible() and image.get_attribute("alt", timeout=1000).startswith("Example Llama")
    watched.shot("model")
    assert watched.errors == []
    # The chart's own file, opened as the image's link leads: two lines, the MHA-equivalent dashed.
    # (Opened alone, a browser also asks the server for a favicon the site does not have.)
    image.click()
    page.wait_for_url(re.compile(r"example-llama\.memory\.svg$"))
    chart = page.locator("svg[aria-labelledby^='memory-chart']")
    assert chart.is_visible() and chart.locator("polyline").count() >= 2
    assert chart.locator("polyline[stroke-dasharray]").count() == 1


def test_sorting_and_filtering_an_index_table(watched: Watched, site_url: str) -> None:
    page = _open(watched, site_url + "generated/models/index.html")
    table = page.locator("table[data-sortable]")

    def names() -> list[str]:
        return [n.strip() for n in table.locator("tbody tr:not([hidden]) td:first-child").all_inner_texts()]

    assert names() == ["Example Latent", "Example Llama", "Example Sliding"]
    header = table.locator("th", has_text="KV at 128K").locator("button")
    header.click()
    ascending = names()
    header.click()
    assert names() == list(reversed(ascending)) and ascending[0] == "Example Sliding"  # 4K window: smallest
    page.locator("input.registry-filter").fill("latent")
    assert names() == ["Example Latent"]
    watched.shot("models-index")
    assert watched.errors == []


def test_hostile_record_runs_nothing(watched: Watched, site_url: str) -> None:
    page = _open(watched, site_url + "generated/kv-efficiency/hostile-text.html")
    page.mouse.move(300, 300)
    for link in page.locator(".record-prose a").all():
        link.hover()
    assert page.evaluate("window.__pwned") is None
    assert watched.dialogs == []
    heading = page.locator("h1").first.inner_text()
    assert heading.startswith("Hostile <script>") and PAYLOAD in heading  # shown, as text
    assert page.locator(".record-prose script, .record-prose iframe, .record-prose img").count() == 0
    assert page.locator(".record-prose .badge").count() == 0  # raw HTML cannot fake a verdict
    watched.shot("hostile")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator("input.md-search__input").press_sequentially("Hostile", delay=20)
    result = page.locator(".md-search-result__item").first
    result.wait_for(state="visible")
    assert "<script>" in result.inner_text()  # search results show the title as text too
    assert page.evaluate("window.__pwned") is None
    watched.shot("hostile-search")
    assert watched.errors == []
