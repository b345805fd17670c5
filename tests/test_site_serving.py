"""The serving chart's parts without a browser: the Pareto front is exactly the non-dominated points,
a roof is drawn as a labelled bound, and record text is inert in the SVG and in the filters' data."""

from __future__ import annotations

import json
import random
import re
from xml.etree import ElementTree

from registry.results import Roof
from registry.site._scatter import NARROW, WIDE, Marker, RoofLine, scatter
from registry.site._serving import highest_roofs
from registry.site._serving_chart import chart_block, json_data
from registry.site._serving_points import Interactivity, Point, front_of

HOSTILE = '</script><script>alert(1)</script><img src=x onerror="alert(2)"> & \u2028'


def point(name: str, x: float | None, y: float, precision: str = "fp8", hardware: str = "GPU") -> Point:
    kind = "measured" if x is not None else "none"
    return Point(
        id=name,
        y=y,
        derived=False,
        x=Interactivity(x, kind, "test"),
        hardware=hardware,
        accelerators="8 × GPU",
        system=name,
        engine="engine",
        precision=precision,
        source="MLPerf",
        division="closed",
        scenario="server",
        benchmark="",
    )


def brute_front(points: list[Point]) -> set[str]:
    def dominates(q: Point, p: Point) -> bool:
        assert q.x.value is not None and p.x.value is not None
        better = q.x.value > p.x.value or q.y > p.y
        return q.x.value >= p.x.value and q.y >= p.y and better

    placed = [p for p in points if p.x.value is not None]
    return {
        p.id
        for p in placed
        if not any(dominates(q, p) for q in placed if q.precision == p.precision and q is not p)
    }


def test_the_front_is_exactly_the_non_dominated_points_of_each_precision() -> None:
    generator = random.Random(7)
    for trial in range(200):
        points = [
            point(
                f"p{trial}-{i}",
                generator.choice([None, *range(1, 12)]),
                float(generator.randint(1, 12)),
                precision=generator.choice(["fp8", "fp4"]),
            )
            for i in range(generator.randint(0, 25))
        ]
        assert front_of(points) == brute_front(points)


def test_ties_are_all_on_the_front_and_a_point_without_a_rate_is_on_none() -> None:
    points = [point("a", 10, 5), point("b", 10, 5), point("c", None, 100), point("d", 10, 4)]
    assert front_of(points) == {"a", "b"}


def _marker(index: int, x: float | None, y: float, title: str = "t") -> Marker:
    return Marker(index, x, y, False, "#000000", "circle", f"r{index}.html", title, False)


def test_a_roof_is_drawn_as_a_bound_in_words_and_its_label_is_escaped() -> None:
    roof = RoofLine(HOSTILE, ((1.0, 5000.0), (10.0, 3000.0), (100.0, 200.0)))
    svg = scatter(
        "c", [_marker(0, 5, 1000), _marker(1, 50, 800)], [], [roof], plot=WIDE, title="t", description="d"
    )
    tree = ElementTree.fromstring(svg)  # well-formed: nothing of the label broke out of its element
    names = "{http://www.w3.org/2000/svg}"
    group = tree.find(f"{names}g[@class='roof']")
    assert group is not None
    title = group.find(f"{names}title")
    assert title is not None and title.text == f"Physical bound, not a result: {HOSTILE}"
    assert [t.text for t in group.iter(f"{names}text")] == ["bound"]
    assert "<script>" not in svg


def test_hostile_hover_text_stays_text_at_both_sizes() -> None:
    for plot in (WIDE, NARROW):
        svg = scatter(
            "c",
            [_marker(0, None, 10, HOSTILE), _marker(1, 3, 5, HOSTILE)],
            [],
            [],
            plot=plot,
            title=HOSTILE,
            description=HOSTILE,
        )
        tree = ElementTree.fromstring(svg)
        titles = [t.text for t in tree.iter("{http://www.w3.org/2000/svg}title")]
        assert titles.count(HOSTILE) == 3  # the chart's and each marker's, as text
        assert len(list(tree.iter("{http://www.w3.org/2000/svg}script"))) == 0


def test_the_filters_data_cannot_close_its_script_element() -> None:
    html = json_data([point("a", 1, 1, hardware=HOSTILE)], {"a"})
    inner = re.fullmatch(r'<script type="application/json" class="serving-data">(.*)</script>', html)
    assert inner is not None
    text = inner.group(1)
    assert not set("<>&\u2028") & set(text)
    assert json.loads(text)[0]["hardware"] == HOSTILE


def test_one_roof_per_accelerator_bounds_every_roof_of_its_results() -> None:
    low = Roof(
        "decode roof: 8 × GPU, short prompts",
        "hardware/gpu",
        8,
        ((10.0, 900.0), (20.0, 600.0), (40.0, 100.0)),
    )
    late = Roof("decode roof: 4 × GPU, long prompts", "hardware/gpu", 4, ((20.0, 800.0), (30.0, 300.0)))
    other = Roof(HOSTILE, "hardware/other", 8, ((1.0, 50.0), (2.0, 40.0)))
    lines = {line.hardware: line for line in highest_roofs({"GPU": [low, late], HOSTILE: [other]})}
    assert set(lines) == {"GPU", HOSTILE}
    gpu = dict(lines["GPU"].points)
    for each in (low, late):
        for x, y in each.points():
            assert gpu[x] >= y  # a bound on each result's own bound
    assert gpu[10.0] == 900.0 and gpu[20.0] == 800.0  # below its first sample a roof holds its first
    assert gpu[40.0] == 100.0  # past its last sample a roof bounds nothing there
    assert (
        lines["GPU"].label == "GPU: the highest of 2 roofs of its results" and lines[HOSTILE].label == HOSTILE
    )
    svg = scatter("c", [_marker(0, 1.5, 30)], [], [lines[HOSTILE]], plot=WIDE, title="t", description="d")
    group = ElementTree.fromstring(svg).find("{http://www.w3.org/2000/svg}g[@class='roof']")
    assert group is not None and group.get("data-hardware") == HOSTILE  # an attribute, escaped


def test_a_bound_far_above_every_result_is_named_under_the_chart() -> None:
    points = [point("a", 10, 100, hardware=HOSTILE), point("b", 20, 50, hardware="GPU")]
    far = RoofLine("far", ((5.0, 90_000.0), (30.0, 80_000.0)), HOSTILE)
    near = RoofLine("near", ((5.0, 900.0), (30.0, 800.0)), "GPU")
    html = chart_block("c", points, ["a.html", "b.html"], ["a", "b"], [far, near], title="t")
    note = re.search(r'<p class="serving-note">([^<]*)</p>', html)
    assert note is not None
    assert "80,000 or more" in note.group(1) and "&lt;script&gt;" in note.group(1)
    assert "GPU, 800" not in note.group(1)  # the near one is drawn, not named


def test_a_bounds_word_stays_inside_the_chart_when_its_line_starts_at_the_right_edge() -> None:
    for plot in (WIDE, NARROW):
        roof = RoofLine("late", ((99.0, 50.0), (100.0, 40.0)), "GPU")
        svg = scatter(
            "c", [_marker(0, 1, 30), _marker(1, 100, 20)], [], [roof], plot=plot, title="t", description="d"
        )
        word = ElementTree.fromstring(svg).find(".//{http://www.w3.org/2000/svg}text[@class='roof-label']")
        assert word is not None and word.text == "bound"
        assert float(word.get("x", "0")) + 5 * 7 <= plot.width - plot.right
