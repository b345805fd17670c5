"""The benchmark leaderboards: per model and scenario, per accelerator, their index, their chart, and the
provenance on a benchmark's page, generated from a small registry of benchmark records."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from registry.checker.pipeline import check
from registry.kinds.records import Benchmark
from registry.site import generate
from registry.site._leaderboards import Boards, board_page, entry_of, hardware_page
from registry.site._svg import Figure, linear_bar_chart
from tests.browser.site_registry import ENGINE, HARDWARE, MODEL, PAYLOAD, make_registry

HOSTILE_SYSTEM = f'<script>{PAYLOAD}</script><img src=x onerror="{PAYLOAD}"> Rack & "Co"'
HOSTILE_VERSION = f"1.0 <svg onload=\"{PAYLOAD}\"></svg><a href='javascript:{PAYLOAD}'>v</a>"

OTHER_GPU = """\
schema_version: 1
id: hardware/other-gpu
kind: hardware
title: Other GPU (141 GB)
evidence: source-reported
name: Other GPU
vendor: Other Corp
memory_per_device: 141 GB
sources:
  - title: Other datasheet
    url: https://example.com/other
"""


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def benchmark(
    name: str,
    *,
    hardware: str = "hardware/example-gpu",
    count: int = 8,
    throughput: str = "8,000 tok/s",
    per: str = "system",
    scenario: str = "offline",
    system: str = "Example system",
    version: str = "1.0.0",
    latencies: str = "",
    provenance: str = "",
) -> str:
    """A measured benchmark record of the example model (schema version 2)."""
    return f"""\
schema_version: 2
id: benchmarks/{name}
kind: benchmark
title: Example benchmark {name}
evidence: measured
model: models/example-llama
engine: engines/example-engine
engine_version: {_quote(version)}
layout: vllm
hardware: {hardware}
hardware_count: {count}
precision:
  weights: fp8
  activations: fp8
  kv_cache: fp8
context_tokens: 4096
prefix_cache: none
workload:
  description: An example workload.
scenario: {scenario}
system:
  name: {_quote(system)}
metrics:
  - metric: output_throughput
    statistic: value
    per: {per}
    stated: {throughput}
{latencies}{provenance}sources:
  - title: Example results
    url: https://example.com/results/{name}
"""


LATENCIES = """\
  - metric: ttft
    statistic: p99
    per: request
    stated: 450 ms
  - metric: tpot
    statistic: p99
    per: request
    stated: 40 ms
"""

PROVENANCE = """\
provenance:
  source: mlperf
  repository: mlcommons/inference_results_v6.1
  file: summary.csv
  commit: 7bf15fd8089655a71fb75c81a744d7ba5a632424
  row: 42
  run_path: ./closed/Example/results/example/llama/Offline/performance/run_1
  round: v6.1
  division: closed
  availability: preview
  submitter: Example
"""

BENCHMARKS = {
    # 8,000 tok/s over 8 accelerators: 1,000 per accelerator.
    "benchmarks/a-eight": benchmark("a-eight", latencies=LATENCIES, provenance=PROVENANCE),
    # 3,000 tok/s over 2: 1,500 per accelerator, first although its system total is lower.
    "benchmarks/b-two": benchmark("b-two", count=2, throughput="3,000 tok/s"),
    # Stated per accelerator already: 1,200 as it is, whatever the count.
    "benchmarks/c-per-gpu": benchmark(
        "c-per-gpu", hardware="hardware/other-gpu", count=4, throughput="1,200 tok/s", per="accelerator"
    ),
    "benchmarks/d-hostile": benchmark(
        "d-hostile", count=4, throughput="2,000 tok/s", system=HOSTILE_SYSTEM, version=HOSTILE_VERSION
    ),
    "benchmarks/e-server": benchmark("e-server", scenario="server", hardware="hardware/other-gpu"),
}


RECORDS = {
    "models/example-llama": MODEL.replace(" Its runs: [[kv-efficiency/example-claims]].", ""),
    "hardware/example-gpu": HARDWARE,
    "hardware/other-gpu": OTHER_GPU,
    "engines/example-engine": ENGINE,
    **BENCHMARKS,
}
"""The registry the leaderboards are generated from (the browser test builds it too)."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_registry(tmp_path_factory.mktemp("leaderboards"), RECORDS)
    result = check(root)
    assert result.ok, [d.message for d in result.diagnostics]
    generate(root, result, downloads=False, workers=1)
    return root / "site"


def _page(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


class _Rows(HTMLParser):
    """The cells of every table row, as (text, data-sort) pairs."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, str | None]]] = []
        self._cell: list[str] | None = None
        self._sort: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self._cell, self._sort = [], dict(attrs).get("data-sort")

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.rows[-1].append(("".join(self._cell).strip(), self._sort))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


class _Tags(HTMLParser):
    """Every element a browser would make of a page: tag names, event-handler attributes, addresses."""

    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()
        self.handlers: list[str] = []
        self.addresses: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.add(tag)
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append(name)
            if name in ("href", "src") and value:
                self.addresses.append(value)


def _rows(text: str) -> list[list[tuple[str, str | None]]]:
    parser = _Rows()
    parser.feed(text)
    return [row for row in parser.rows if row]


class _Cards(HTMLParser):
    """The rows of a page's first readable table, each cell by its column's name (``data-label``) as
    (text, data-sort), and ``record``: the slug of the benchmark record the row's system links to."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[dict[str, tuple[str, str | None]]] = []
        self.tables = 0
        self._label: str | None = None
        self._sort: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self.tables += 1
        if self.tables != 1:
            return
        if tag == "tr" and self._label is None:
            self.rows.append({})
        elif tag == "td":
            self._label, self._sort, self._text = found.get("data-label"), found.get("data-sort"), []
        elif tag == "a" and self._label == "System" and "record" not in self.rows[-1]:
            slug = (found.get("href") or "").rsplit("/", 1)[-1].removesuffix(".html")
            self.rows[-1]["record"] = (slug, None)
        elif tag == "br" and self._label is not None:
            self._text.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._label is not None:
            self.rows[-1][self._label] = ("".join(self._text).strip(), self._sort)
            self._label = None

    def handle_data(self, data: str) -> None:
        if self._label is not None:
            self._text.append(data)


def _cards(text: str) -> list[dict[str, tuple[str, str | None]]]:
    parser = _Cards()
    parser.feed(text.split('class="readable-table"', 1)[1])
    return [row for row in parser.rows if row]


def test_every_leaderboard_page_exists_and_the_index_reaches_them(site: Path) -> None:
    expected = [
        board_page("models/example-llama", "offline"),
        board_page("models/example-llama", "server"),
        hardware_page("hardware/example-gpu"),
        hardware_page("hardware/other-gpu"),
    ]
    index = _page(site, "generated/leaderboards/index.md")
    for page in expected:
        assert (site / page).is_file(), page
        assert f'href="{page.removeprefix("generated/leaderboards/").replace(".md", ".html")}"' in index
    assert 'href="../leaderboards/index.html"' in _page(site, "generated/benchmarks/index.md")
    # The index is in the navigation; the leaderboards themselves, as many as the records, are not.
    navigation = (site.parent / "mkdocs.yml").read_text(encoding="utf-8")
    assert [line for line in navigation.splitlines() if "leaderboards" in line] == [
        "      - Leaderboards: generated/leaderboards/index.md"
    ]


def test_figures_per_accelerator_divide_a_system_figure_by_its_count(site: Path) -> None:
    text = _page(site, board_page("models/example-llama", "offline"))
    rows = _cards(text)
    column = "Output tok/s per accelerator"
    ranked = [(row["record"][0], float(row[column][1] or "nan")) for row in rows]
    assert ranked == [
        ("b-two", 1500.0),
        ("c-per-gpu", 1200.0),
        ("a-eight", 1000.0),
        ("d-hostile", 500.0),
    ]
    # Divided here, so marked derived; the one stated per accelerator is not.
    assert [row[column][0] for row in rows] == ["1,500\xa0†", "1,200", "1,000\xa0†", "500\xa0†"]
    assert [row["Output tok/s per system"][0] for row in rows] == ["3,000", "4,800\xa0†", "8,000", "2,000"]
    assert "derived: 3,000 output tok/s for the system ÷ 2 accelerators" in text
    assert "† derived here, not stated by the source" in text


def test_the_leaderboard_sorts_by_number_and_shows_latency_percentiles(site: Path) -> None:
    text = _page(site, board_page("models/example-llama", "offline"))
    assert "<table data-sortable>" in text
    headers = re.findall(r"<th scope=\"col\"( data-type=\"number\")?[^>]*>([^<]*)</th>", text)
    named = {name: bool(numeric) for numeric, name in headers}
    assert named["Output tok/s per accelerator"] and named["Latency met"]
    assert named["TTFT p99"] and named["TPOT p99"]  # behind "more columns"
    assert not named["Engine"]
    assert "Scenario" not in named  # one scenario on the page: its title says it
    rows = {row["record"][0]: row for row in _cards(text)}
    latency = rows["a-eight"]["Latency met"]
    assert latency == ("TTFT p99 450 ms | TPOT p99 40 ms | measured", "0.04")  # sorts by TPOT
    assert rows["b-two"]["Latency met"] == ("", None)  # no figure: sorts last whichever the direction
    assert rows["a-eight"]["Weights / KV"][0] == "fp8 / fp8"
    more = text.split('<details class="more-columns">', 1)[1]
    assert (
        "<summary>More columns (5): Activations, Context (tokens), TTFT p99, TPOT p99, Record</summary>"
        in more
    )


def test_each_row_links_to_its_record_and_its_model_hardware_and_engine(site: Path) -> None:
    text = _page(site, board_page("models/example-llama", "offline"))
    row = next(line for line in text.splitlines() if "a-eight" in line)
    for target in (
        "../../benchmarks/a-eight.html",
        "../../hardware/example-gpu.html",
        "../../engines/example-engine.html",
    ):
        assert f'href="{target}"' in row, target
    assert row.count('href="../../benchmarks/a-eight.html"') >= 3  # the system, and both throughputs
    cards = {card["record"][0]: card for card in _cards(text)}
    assert cards["a-eight"]["System"][0] == "Example system"  # its name, not the record's slug
    assert cards["a-eight"]["Accelerators"] == ("8 × Example GPU", "8")
    assert cards["a-eight"]["Engine"][0] == "Example engine | 1.0.0"  # the run's version, as written


def test_the_chart_draws_one_bar_per_figure_and_loads_nothing(site: Path) -> None:
    text = _page(site, board_page("models/example-llama", "offline"))
    svg = re.search(r"<svg .*?</svg>", text, re.S)
    assert svg is not None
    tree = ET.fromstring(svg.group(0))  # well-formed, whatever the labels held
    ns = "{http://www.w3.org/2000/svg}"
    bars = tree.findall(f"{ns}rect")
    assert len(bars) == 4
    widths = [float(bar.get("width", "0")) for bar in bars]
    assert widths == sorted(widths, reverse=True)
    assert widths[0] / widths[2] == pytest.approx(1.5, rel=0.01)  # linear: 1,500 against 1,000
    tags = {element.tag.removeprefix(ns) for element in tree.iter()}
    assert tags <= {"svg", "title", "desc", "line", "text", "rect"}, tags
    names = {name.lower() for element in tree.iter() for name in element.attrib}
    assert not {name for name in names if name.startswith("on") or "href" in name}, names


def test_a_hostile_system_name_and_engine_version_reach_pages_and_chart_only_as_text(site: Path) -> None:
    for page in (
        board_page("models/example-llama", "offline"),
        hardware_page("hardware/example-gpu"),
        "generated/benchmarks/d-hostile.md",
    ):
        text = _page(site, page)
        tags = _Tags()
        tags.feed(text)
        assert not tags.found & {"script", "img", "iframe"}, (page, tags.found)
        assert not tags.handlers, (page, tags.handlers)
        assert not [a for a in tags.addresses if "javascript" in a.lower()], page
        assert "&lt;script&gt;" in text, page  # shown, as text
    chart = re.search(r"<svg .*?</svg>", _page(site, board_page("models/example-llama", "offline")), re.S)
    assert chart is not None
    labels = [t.text or "" for t in ET.fromstring(chart.group(0)).iter("{http://www.w3.org/2000/svg}text")]
    assert any(label.startswith("<script>") for label in labels)  # the parsed text is the name itself
    board = _page(site, board_page("models/example-llama", "offline"))
    assert "<small>1.0 &lt;svg onload=" in board


def test_a_legend_name_too_long_for_the_chart_is_cut_short_and_kept_whole_in_its_title() -> None:
    """A CPU system's accelerator name (sockets, memory, vendor) ran past the chart's right edge."""
    long = "Intel Xeon 6788P, 4 sockets, 2048GB host memory (Cisco X410M M8 compute node, 2 sockets each)"
    svg = linear_bar_chart(
        "c",
        [Figure("a", 2.0, "2", long), Figure("b", 1.0, "1", "GPU")],
        title="T",
        description="D",
        colours={long: "#000", "GPU": "#111"},
    )
    ns = "{http://www.w3.org/2000/svg}"
    tree = ET.fromstring(svg)
    width = float(tree.get("viewBox", "0 0 0 0").split()[2])
    legend = [text for text in tree.iter(f"{ns}text") if text.find(f"{ns}title") is not None]
    assert len(legend) == 1 and legend[0].findtext(f"{ns}title") == long
    shown = "".join(legend[0].itertext()).removeprefix(long)
    assert shown.endswith("…") and long.startswith(shown[:-1])
    assert float(legend[0].get("x", "0")) + 7 * len(shown) <= width  # the estimate that lays rows out
    assert "GPU" in {text.text for text in tree.iter(f"{ns}text")}  # a short name stays whole


def test_an_accelerator_page_compares_its_results_across_scenarios(site: Path) -> None:
    rows = _cards(_page(site, hardware_page("hardware/other-gpu")))
    shown = [(r["Scenario"][0], r["record"][0], r["Output tok/s per accelerator"][0]) for r in rows]
    assert shown == [("Offline", "c-per-gpu", "1,200"), ("Server", "e-server", "1,000\xa0†")]
    assert {r["Model"][0] for r in rows} == {"Example Llama"}
    example = _cards(_page(site, hardware_page("hardware/example-gpu")))
    assert {row["record"][0] for row in example} == {"a-eight", "b-two", "d-hostile"}


def test_a_benchmark_page_shows_its_provenance_and_links(site: Path) -> None:
    text = _page(site, "generated/benchmarks/a-eight.md")
    provenance = text.split("## Provenance", 1)[1].split("##", 1)[0]
    for fact in (
        "<code>mlcommons/inference_results_v6.1</code>",
        "<code>summary.csv</code>",
        "<code>7bf15fd8089655a71fb75c81a744d7ba5a632424</code>",
        "data row 42",
        "./closed/Example/results/example/llama/Offline/performance/run_1",
        "<dd>v6.1</dd>",
        "<dd>closed</dd>",
        "<dd>preview</dd>",
    ):
        assert fact in provenance, fact
    for target in (
        "../models/example-llama.html",
        "../hardware/example-gpu.html",
        "../engines/example-engine.html",
        "../leaderboards/example-llama/offline.html",
        "../leaderboards/hardware/example-gpu.html",
    ):
        assert f'href="{target}"' in provenance, target
    assert "not stated (hand-written record" in _page(site, "generated/benchmarks/b-two.md")


def test_rows_are_made_once_per_record() -> None:
    """Each record is one row on one leaderboard and one per accelerator page: linear in the records."""
    records = [Benchmark.model_validate(yaml.safe_load(text)) for text in BENCHMARKS.values()]
    boards = Boards.of(records)
    assert sum(len(rows) for rows in boards.by_board.values()) == len(records)
    assert sum(len(rows) for rows in boards.by_hardware.values()) == len(records)
    eight = entry_of(records[0])
    assert eight.per_accelerator == {"output_throughput": 1000.0}
    assert eight.latencies[("ttft", "p99")] == (0.45, "450 ms")


def test_benchmarks_with_other_accuracy_targets_are_other_leaderboards() -> None:
    """MLPerf's llama2-70b-99 and llama2-70b-99.9 run one model to two accuracy targets: two boards."""

    def record(name: str, named: str | None) -> Benchmark:
        provenance = PROVENANCE + (f"  benchmark: {named}\n" if named else "")
        return Benchmark.model_validate(yaml.safe_load(benchmark(name, provenance=provenance)))

    boards = Boards.of(
        [record("f-99", "llama2-70b-99"), record("g-999", "llama2-70b-99.9"), record("h", None)]
    )
    assert sorted(boards.by_board) == [
        ("models/example-llama", "", "offline"),
        ("models/example-llama", "llama2-70b-99", "offline"),
        ("models/example-llama", "llama2-70b-99.9", "offline"),
    ]
    pages = {board_page(m, s, b) for m, b, s in boards.by_board}
    assert pages == {
        "generated/leaderboards/example-llama/offline.md",
        "generated/leaderboards/example-llama/llama2-70b-99/offline.md",
        "generated/leaderboards/example-llama/llama2-70b-99.9/offline.md",
    }


def test_a_row_beyond_the_models_maximum_says_so_in_words(tmp_path: Path) -> None:
    short = RECORDS["models/example-llama"].replace("max_context_tokens: 131072", "max_context_tokens: 2048")
    beyond = benchmark("a-eight").replace(
        "context_tokens: 4096\n",
        "context_tokens: 4096\nbeyond_max_context: The run serves past the card's 2,048 tokens, as its page says.\n",
    )
    records = {**RECORDS, "models/example-llama": short, "benchmarks/a-eight": beyond}
    root = make_registry(tmp_path, records)
    result = check(root)
    assert [d.code for d in result.diagnostics] == ["R012"] * 4  # the other rows give no reason
    generate(root, result, downloads=False, workers=1)
    cards = _cards(_page(root / "site", board_page("models/example-llama", "offline")))
    systems = {card["record"][0]: card["System"][0] for card in cards}
    words = "context 4,096 tokens, beyond the model's maximum of 2,048 tokens"
    assert systems["a-eight"] == f"Example system | {words}"
    assert systems["b-two"] == f"Example system | {words}"
