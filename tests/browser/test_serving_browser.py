"""A model's serving results page as a reader uses it, in headless Chromium: every result that states
both figures is a marker linking to its record, the front drawn is exactly the non-dominated points,
the filters redraw it, hostile names run nothing, and on a phone the chart's text is readable and
nothing is cut off. Screenshots are saved under tests/artifacts/browser/."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.browser.conftest import Watched
from tests.browser.site_registry import HOSTILE_SYSTEM, SERVING, SERVING_FRONT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PAGE = "generated/results/example-llama.html"
BOTH_AXES = {"benchmarks/s-server", "benchmarks/s-measured", "benchmarks/s-dominated", "benchmarks/s-rate"}
"""The test registry's serving results with an output per accelerator and a per-user rate."""


def _open(watched: Watched, url: str, width: int = 1400) -> Any:
    watched.page.set_viewport_size({"width": width, "height": 900})
    watched.page.goto(url + PAGE)
    watched.page.wait_for_load_state("networkidle")
    return watched.page


def _points(page: Any) -> list[dict[str, Any]]:
    """The markers of the chart drawn at this width: the record each links to, and where it sits."""
    return page.evaluate(
        """() => [...document.querySelectorAll('svg.serving-chart')]
            .filter(svg => svg.getBoundingClientRect().width > 0)
            .flatMap(svg => [...svg.querySelectorAll('a.point')].map(a => ({
                record: new URL(a.getAttribute('href'), location.href).pathname,
                title: a.querySelector('title').textContent,
                front: a.hasAttribute('data-front'),
                shown: a.style.display !== 'none',
                px: +a.getAttribute('data-px'), py: +a.getAttribute('data-py'),
                band: +a.getAttribute('data-px') < svg.querySelector('rect[fill-opacity]').getBBox().x
                    + svg.querySelector('rect[fill-opacity]').getBBox().width,
            })))"""
    )


def _record(path: str) -> str:
    return "benchmarks/" + path.rsplit("/", 1)[1].removesuffix(".html")


def test_every_result_with_both_figures_is_a_marker_linking_to_its_record(
    watched: Watched, site_url: str
) -> None:
    page = _open(watched, site_url)
    points = _points(page)
    benchmarks = {_record(p["record"]) for p in points}
    assert benchmarks == {k for k in SERVING if k.startswith("benchmarks/")}
    assert {_record(p["record"]) for p in points if not p["band"]} == BOTH_AXES
    assert {_record(p["record"]) for p in points if p["band"]} == {"benchmarks/s-offline"}
    for point in points:  # each link opens its record's page
        response = page.request.get(site_url.rstrip("/") + point["record"])
        assert response.ok, point["record"]
    server = next(p for p in points if p["record"].endswith("s-server.html"))
    assert "at least 25" in server["title"] and "2,000" in server["title"]
    watched.shot("serving-results")
    assert watched.errors == []


def _front_lines(page: Any) -> list[list[tuple[float, float]]]:
    return page.evaluate(
        """() => [...document.querySelectorAll('svg.serving-chart')]
            .filter(svg => svg.getBoundingClientRect().width > 0)
            .flatMap(svg => [...svg.querySelectorAll('polyline.front')].map(line =>
                line.getAttribute('points').trim().split(/\\s+/).map(p => p.split(',').map(Number))))"""
    )


def _corners(lines: list[list[tuple[float, float]]]) -> set[tuple[float, float]]:
    """The points a staircase passes through: its first vertex and every second one after."""
    return {tuple(line[i]) for line in lines for i in range(0, len(line), 2)}  # type: ignore[misc]


def test_the_drawn_front_is_exactly_the_non_dominated_points(watched: Watched, site_url: str) -> None:
    page = _open(watched, site_url)
    points = _points(page)
    assert {_record(p["record"]) for p in points if p["front"]} == SERVING_FRONT
    fronts = {(p["px"], p["py"]) for p in points if p["front"]}
    assert _corners(_front_lines(page)) == fronts
    # filtered to fp8 the bf16 front goes; filtered to the one bf16 result, it alone is the front
    page.select_option(".serving-filters select >> nth=1", "bf16 / KV bf16")
    shown = [p for p in _points(page) if p["shown"]]
    assert [_record(p["record"]) for p in shown] == ["benchmarks/s-rate"]
    assert [_record(p["record"]) for p in shown if p["front"]] == ["benchmarks/s-rate"]
    assert _corners(_front_lines(page)) == {(shown[0]["px"], shown[0]["py"])}
    page.check(".serving-filters input[type=checkbox]")
    assert watched.errors == []


def test_hostile_names_stay_text_in_titles_data_and_filters(watched: Watched, site_url: str) -> None:
    page = _open(watched, site_url)
    page.locator('svg.serving-chart.wide a.point[href$="s-measured.html"]').focus()
    assert HOSTILE_SYSTEM in page.locator(".serving-caption").inner_text()  # written as text
    for marker in page.locator("svg.serving-chart.wide a.point").all():
        marker.hover()
        marker.focus()
    for select in page.locator(".serving-filters select").all():
        for value in select.locator("option").evaluate_all("options => options.map(o => o.value)"):
            select.select_option(value)
    assert page.evaluate("window.__pwned") is None
    assert watched.dialogs == []
    assert page.locator(".chart.serving script:not(.serving-data), .chart.serving img").count() == 0
    data = json.loads(page.locator("script.serving-data").text_content() or "[]")
    assert any("<script>" in row["hardware"] for row in data)
    titles = page.locator("svg.serving-chart.wide a.point title").all_text_contents()
    assert any("</title><script>" in title for title in titles)
    assert watched.errors == []


def test_on_a_phone_the_chart_is_readable_and_nothing_is_cut_off(watched: Watched, site_url: str) -> None:
    page = _open(watched, site_url, width=390)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    found = page.evaluate(
        """() => { const svg = [...document.querySelectorAll('svg.serving-chart')]
                .find(s => s.getBoundingClientRect().width > 0);
            const box = svg.getBoundingClientRect();
            return { width: box.width, texts: [...svg.querySelectorAll('text')].map(t => {
                const r = t.getBoundingClientRect();
                return { text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * box.width
                    / svg.viewBox.baseVal.width, inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5
                    && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 }; }) }; }"""
    )
    assert found["width"] <= 390
    assert found["texts"]
    for text in found["texts"]:
        assert text["size"] >= 11, text
        assert text["inside"], text
    assert len(_points(page)) == len([k for k in SERVING if k.startswith("benchmarks/")])
    watched.shot("serving-results-390")
    assert watched.errors == []
