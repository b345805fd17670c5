"""The bounds reported as well as checked: the database's ``benchmark_bounds`` (bound, inputs, % of
roofline, the reason a bound cannot be computed, the memory fit) in the Parquet export, and on the site
a leaderboard's % of roofline beside each result and a benchmark page's bounds with their derivation,
a hostile hardware name shown only as text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from registry.checker.pipeline import check
from registry.db import build_database, export_parquet, run_query
from registry.site._context import SiteContext
from registry.site._leaderboards import pages
from registry.site._run_page import render
from tests.conftest import GOLDEN

RUN = "benchmarks/llama-8b-b200-long-prompt"
HOSTILE = '<script>alert(1)</script> B200 "x" onmouseover=alert(2)'


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The prefill floor's example with a plausible TTFT, an output rate beside it, and a hardware name
    that tries to run script."""
    made = tmp_path_factory.mktemp("bounds") / "registry"
    shutil.copytree(GOLDEN / "F012", made)
    run = made / "records" / f"{RUN}.yaml"
    rate = "  - metric: output_throughput\n    statistic: value\n    per: system\n    stated: 120 tok/s\n"
    text = run.read_text(encoding="utf-8").replace("    stated: 0.35 ms\n", "    stated: 0.5 s\n" + rate)
    run.write_text(text, encoding="utf-8")
    hardware = made / "records" / "hardware" / "b200.yaml"
    hardware.write_text(
        hardware.read_text(encoding="utf-8").replace("name: NVIDIA B200 SXM", f"name: '{HOSTILE}'"),
        encoding="utf-8",
    )
    return made


def test_the_table_holds_each_bound_its_inputs_and_the_fraction_reached(root: Path, tmp_path: Path) -> None:
    path = build_database(root).path
    sql = (
        "SELECT position, bound, metric, side, bound_value, unit, reached, exceeded, reason, inputs, derivation "
        "FROM benchmark_bounds WHERE benchmark_id = ? ORDER BY position NULLS LAST, bound"
    )
    rows = run_query(path, sql, [RUN]).rows
    assert [(row[0], row[1]) for row in rows] == [
        (0, "prefill-floor"),
        (1, "bandwidth-roof"),
        (1, "compute-roof"),
        (None, "memory-fit"),
    ]
    floor = rows[0]
    assert floor[2:4] == ("ttft", "floor") and floor[5] == "s"
    assert floor[4] == pytest.approx(0.343, rel=0.01) and floor[6] == pytest.approx(floor[4] / 0.5)
    assert floor[7] is False and floor[8] is None
    assert json.loads(floor[9])["input tokens"] == "32,768" and floor[10][-1].startswith("floor: ")
    bandwidth = rows[1]
    assert bandwidth[5] == "tokens/s" and 0 < bandwidth[6] < 1  # 120 tok/s of one stream's roof
    fit = rows[3]
    assert fit[5] == "B" and 0 < fit[6] < 1 and fit[7] is False
    export_parquet(path, tmp_path / "out")
    exported = pq.read_table(tmp_path / "out" / "benchmark_bounds.parquet")
    assert exported.num_rows == len(rows)


def test_a_bound_that_cannot_be_computed_has_its_reason_in_the_table(root: Path, tmp_path: Path) -> None:
    copy = tmp_path / "registry"
    shutil.copytree(root, copy)
    hardware = copy / "records" / "hardware" / "b200.yaml"
    text = hardware.read_text(encoding="utf-8")
    hardware.write_text(text[: text.index("peak_dense_flops_per_device")] + text[text.index("sources:") :])
    rows = run_query(
        build_database(copy).path,
        "SELECT bound, bound_value, reached, reason FROM benchmark_bounds WHERE bound = 'prefill-floor'",
    ).rows
    assert rows == [("prefill-floor", None, None, "hardware/b200 states no dense peak at bf16")]


def test_the_leaderboard_shows_the_percent_of_roofline(root: Path) -> None:
    context = SiteContext.from_check(check(root))
    board = dict(pages(context))["generated/leaderboards/llama-3.1-8b-instruct/single-stream.md"]
    assert "% of bound" in board
    bound = next(b for b in context.results.runs[RUN].bounds if b.kind == "bandwidth-roof")
    assert bound.reached is not None  # one stream's output rate: the tightest of its bounds
    assert f"{float(bound.reached) * 100:.3g}%" in board
    assert "<script>" not in board and "&lt;script&gt;" in board


def test_the_benchmark_page_shows_each_bound_and_its_derivation(root: Path) -> None:
    context = SiteContext.from_check(check(root))
    entry = context.index.get(RUN)
    assert entry is not None
    page = render(context, entry)
    assert "## Bounds" in page and "Each bound worked out" in page
    assert "prefill floor on TTFT (mean)" in page and "floor: 771 TFLOP / 2.25 PFLOP/s = 343 ms" in page
    assert "<script>" not in page and "&lt;script&gt;" in page
