"""The site's one number formatter and its readable tables: figures written alike everywhere, derived
figures marked, empty columns left out, the rest behind "more columns", sorting by value."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from registry.checker.pipeline import check
from registry.site import _figures, generate
from registry.site._html import Cell, Html
from registry.site._tables import Column, readable_block, readable_table
from tests.browser.site_registry import SLIDING, make_registry
from tests.test_site_leaderboards import PROVENANCE, RECORDS, _cards, benchmark


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (591368.312764167, "591,368"),
        (16426.9, "16,427"),
        (1000, "1,000"),
        (123.45, "123"),
        (12.345, "12.3"),
        (1.5, "1.5"),
        (0.04567, "0.0457"),
        (9.996, "10"),
        (0, "0"),
        (-2500.4, "-2,500"),
    ],
)
def test_a_number_keeps_three_significant_digits_and_its_whole_part(value: float, text: str) -> None:
    assert _figures.number(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.4983, "498 ms"), (18.63, "18.6 s"), (0.04, "40 ms"), (4.5e-5, "45 µs"), (1, "1 s"), (125.0, "125 s")],
)
def test_a_duration_is_written_in_the_unit_that_reads(value: float, text: str) -> None:
    assert _figures.seconds(value) == text


def test_a_stated_figure_is_written_the_sites_way_with_the_original_on_hover() -> None:
    shown = _figures.stated("591368.312764167 tok/s")
    assert shown.text == "591,368 tok/s"
    assert shown.sort == pytest.approx(591368.312764167)
    assert shown.title == "as written: 591368.312764167 tok/s"
    assert _figures.stated("450 ms") == _figures.Shown("450 ms", 0.45, None)
    assert _figures.stated("18.6 s").sort > _figures.stated("498 ms").sort  # type: ignore[operator]
    assert _figures.stated("not a number").text == "not a number"


def test_a_derived_figure_says_it_is_derived_and_how() -> None:
    shown = _figures.derived_per_accelerator(8000.0, 8, "tok/s")
    assert (shown.text, shown.sort, shown.derived) == ("1,000 tok/s", 1000.0, True)
    assert shown.title == "derived: 8,000 tok/s for the system ÷ 8 accelerators"
    html = _figures.html(shown)
    assert html.startswith("1,000 tok/s")
    assert _figures.DERIVED_MARK in html and 'class="derived"' in html and "÷ 8 accelerators" in html
    assert _figures.DERIVED_MARK not in _figures.html(_figures.stated("8,000 tok/s"))


def test_a_figure_cell_sorts_by_its_value_and_links_to_its_record() -> None:
    cell = _figures.cell(_figures.stated("18.6 s"), href="../benchmarks/x.html")
    assert cell.sort == pytest.approx(18.6)
    assert cell.content == '<a href="../benchmarks/x.html">18.6 s</a>'
    assert _figures.cell(None).content == ""


class _Tables(HTMLParser):
    """The header texts of each table, and each row's cells (with their attributes), in order."""

    def __init__(self) -> None:
        super().__init__()
        self.headers: list[list[str]] = []
        self.cells: list[list[dict[str, str | None]]] = []
        self._in: str | None = None
        self.details = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.headers.append([])
        elif tag in ("th", "td"):
            self._in = tag
            if tag == "td":
                self.cells.append([dict(attrs)])
        elif tag == "details":
            self.details += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("th", "td"):
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in == "th":
            self.headers[-1].append(data)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.seen: set[str] = set()
        self.attributes: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.add(tag)
        self.attributes |= {name for name, _ in attrs}


COLUMNS = [
    Column("system", "System"),
    Column("figure", "Per accelerator", numeric=True),
    Column("empty", "Never filled"),
    Column("ttft", "TTFT mean", numeric=True, more=True),
    Column("tpot", "TPOT mean", numeric=True, more=True),
]


def test_a_column_no_row_fills_is_left_out_and_the_rest_sit_behind_more_columns() -> None:
    rows = [
        {
            "system": "A",
            "figure": Cell("1,000", sort=1000.0),
            "empty": "",
            "ttft": Cell("498 ms", sort=0.498),
        },
        {"system": "B", "figure": Cell("900", sort=900.0), "ttft": Cell("18.6 s", sort=18.6), "tpot": None},
    ]
    parsed = _Tables()
    parsed.feed(readable_table(COLUMNS, rows, label="system"))
    assert parsed.headers == [["System", "Per accelerator"], ["System", "TTFT mean"]]
    assert parsed.details == 1
    sorts = [cell[0].get("data-sort") for cell in parsed.cells if cell[0].get("data-label") == "TTFT mean"]
    assert sorts == ["0.498", "18.6"]
    labels = {cell[0].get("data-label") for cell in parsed.cells}
    assert labels == {"System", "Per accelerator", "TTFT mean"}


def test_without_a_more_column_filled_there_is_no_more_columns_control() -> None:
    html = readable_table(COLUMNS, [{"system": "A", "figure": "1"}], label="system")
    assert "<details" not in html and "Never filled" not in html


def test_hostile_text_in_any_cell_header_or_note_stays_text() -> None:
    hostile = '<script>alert(1)</script><img src=x onerror="alert(1)">'
    columns = [Column("system", hostile, explain=hostile), Column("x", "X", more=True)]
    html = readable_block(
        columns,
        [{"system": hostile, "x": Cell(hostile, title=hostile, sort=hostile)}],
        label="system",
        note=hostile,
    )
    tags = _Tags()
    tags.feed(html)
    assert not tags.seen & {"script", "img"}
    assert not any(name.startswith("on") for name in tags.attributes)
    assert "&lt;script&gt;" in html
    assert isinstance(readable_table(columns, [], label="system"), Html)


RAW = benchmark("f-raw", throughput="591368.312764167 tok/s", version="0.9.2")
UNNAMED = (
    benchmark("g-unnamed", version="PyTorch 2.10.0, ROCm 7.2", provenance=PROVENANCE)
    .replace("engine: engines/example-engine\n", "engine: null\n")
    .replace("layout: vllm\n", "layout: ideal\n")
)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = {
        **RECORDS,
        "benchmarks/f-raw": RAW,
        "benchmarks/g-unnamed": UNNAMED,
        "models/example-sliding": SLIDING,
    }
    root = make_registry(tmp_path_factory.mktemp("record-figures"), records)
    result = check(root)
    assert result.ok, [d.message for d in result.diagnostics]
    generate(root, result, downloads=False, workers=1)
    return root / "site" / "generated"


def _visible(html: str) -> str:
    """The page's text as a reader sees it (attribute values, such as hover titles, left out)."""
    parser = _Text()
    parser.feed(html)
    return "".join(parser.parts)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def test_a_record_page_writes_its_figures_the_sites_way_and_marks_the_derived_one(pages: Path) -> None:
    page = (pages / "benchmarks" / "f-raw.md").read_text(encoding="utf-8")
    figures = page.split("## Figures", 1)[1].split("\n## ", 1)[0]
    assert "591368.312764167" not in _visible(figures)
    assert "591,368 tok/s" in figures and 'title="as written: 591368.312764167 tok/s"' in figures
    # per accelerator: 591,368 / 8, derived here and said so
    assert "73,921 tok/s" in figures and "derived: 591,368 tok/s for the system ÷ 8 accelerators" in figures
    assert "† derived here" in figures
    leaderboard = (pages / "leaderboards" / "example-llama" / "offline.md").read_text(encoding="utf-8")
    assert "73,921" in _visible(leaderboard) and "591,368" in _visible(leaderboard)


def test_a_record_page_shows_only_what_the_record_states(pages: Path) -> None:
    raw = (pages / "benchmarks" / "f-raw.md").read_text(encoding="utf-8")
    unnamed = (pages / "benchmarks" / "g-unnamed.md").read_text(encoding="utf-8")
    for page in (raw, unnamed):
        assert "<dt>Batch</dt>" not in page  # the schema's default, stated by no record here
    assert "<dt>Engine layout</dt><dd><code>vllm</code>" in raw
    assert "<dt>Engine layout</dt>" not in unnamed  # "ideal" stands for an engine nobody named
    assert "<dt>Prefix cache</dt><dd>none</dd>" in raw  # stated
    engine = raw.split("<dt>Engine</dt><dd>", 1)[1].split("</dd>", 1)[0]
    assert _visible(engine) == "Example engine 0.9.2"  # the run's release, not the engine record's 1.0.0
    assert "<dt>Engine</dt><dd>PyTorch 2.10.0, ROCm 7.2</dd>" in unnamed  # as written


def test_the_benchmarks_index_is_readable_and_states_no_default(pages: Path) -> None:
    index = (pages / "benchmarks" / "index.md").read_text(encoding="utf-8")
    headers = re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', index)
    assert headers[:8] == [
        "Model",
        "Leaderboard",
        "Results",
        "System",
        "Accelerators",
        "Engine",
        "Weights / KV",
        "Best per accelerator",
    ]
    assert "Batch" not in headers and "Layout" not in headers
    assert ">ideal<" not in index
    cards = {card["Leaderboard"][0]: card for card in _cards(index)}
    assert set(cards) == {"offline", "server"}
    offline = cards["offline"]
    assert offline["Results"][0] == "6" and offline["record"][0] == "f-raw"  # the best of six
    assert offline["Accelerators"][0] == "8 × Example GPU"
    assert 'href="../leaderboards/example-llama/offline.html"' in index
    assert "7 serving measurements of 1 model," in _visible(index)


def _section(page: str, heading: str) -> str:
    return page.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_a_model_page_sums_up_its_serving_results_and_links_to_them(pages: Path) -> None:
    page = (pages / "models" / "example-llama.md").read_text(encoding="utf-8")
    summary = _section(page, "Serving results")
    assert "7 serving results of this model" in _visible(summary)
    assert 'href="../results/example-llama.html"' in summary
    cards = {(c["Leaderboard"][0], c["Accelerators"][0]): c for c in _cards(summary)}
    # The best per accelerator of each scenario and accelerator, with its system and its figure.
    assert set(cards) == {
        ("offline", "8 × Example GPU"),
        ("offline", "4 × Other GPU"),
        ("server", "8 × Other GPU"),
    }
    best = cards[("offline", "8 × Example GPU")]
    assert best["Best per accelerator"][0] == "73,921 output tok/s\xa0†"
    assert best["record"][0] == "f-raw" and best["Results"][0] == "5"
    assert cards[("offline", "4 × Other GPU")]["Best per accelerator"][0] == "1,200 output tok/s"
    assert 'href="../leaderboards/example-llama/offline.html"' in summary
    links = _section(page, "Links") if "## Links" in page else ""
    assert "benchmarks/" not in links  # no list of every benchmark: the summary stands for them


def test_a_model_without_results_says_so(pages: Path) -> None:
    page = (pages / "models" / "example-sliding.md").read_text(encoding="utf-8")
    assert "The registry holds no serving result of this model yet." in _section(page, "Serving results")


def test_hardware_and_engine_pages_sum_up_their_results_the_same_way(pages: Path) -> None:
    hardware = _section((pages / "hardware" / "other-gpu.md").read_text(encoding="utf-8"), "Serving results")
    assert "2 serving results on this hardware" in _visible(hardware)
    assert 'href="../leaderboards/hardware/other-gpu.html"' in hardware
    assert {c["record"][0] for c in _cards(hardware)} == {"c-per-gpu", "e-server"}
    engine = _section(
        (pages / "engines" / "example-engine.md").read_text(encoding="utf-8"), "Serving results"
    )
    assert "6 serving results served by this engine" in _visible(engine)  # g-unnamed names no engine
    assert {c["Model"][0] for c in _cards(engine)} == {"Example Llama"}
    assert "Example engine | 0.9.2" in {c["Engine"][0] for c in _cards(engine)}  # the version it ran
    assert {c["Engine"][0] for c in _cards(hardware)} == {"Example engine"}  # elsewhere, on hover
    tags = _Tags()
    tags.feed(engine + hardware)
    assert not tags.seen & {"script", "img", "svg"} and not any(a.startswith("on") for a in tags.attributes)
