"""The MLPerf history page: the best per-accelerator result per round and accelerator, as a table and
an inline SVG, from records imported from a fixture of our own; a -99/-99.9 pair counts once and
hostile text stays text."""

from __future__ import annotations

from pathlib import Path

from registry.authoring.importers.mlperf import SourceOptions, import_mlperf
from registry.checker.pipeline import check
from registry.site._context import SiteContext
from registry.site._history import pages
from registry.site._run_page import render
from tests.test_import_mlperf import make_root
from tests.test_import_mlperf_rounds import JSON_TABLE


def test_history_table_and_chart(tmp_path: Path) -> None:
    root = make_root(tmp_path)
    import_mlperf(root, [JSON_TABLE], SourceOptions())
    result = check(root, sorted((root / "records").rglob("*.yaml")))
    [(page, text)] = list(pages(SiteContext.from_check(result)))
    assert page == "generated/history.md"
    assert "## llama2-70b-99.9 offline" in text and "## llama2-70b-99 server" in text
    assert "## llama2-70b-99 offline" not in text  # filed twice, counted once under -99.9
    assert ">4,252<" in text and "output tok/s per accelerator" in text  # 34012.5 / 8, derived
    assert "<svg" in text and "<script>" not in text
    assert "registry query" in text


def test_a_run_page_shows_the_result_id_and_the_other_benchmark_it_is_filed_under(tmp_path: Path) -> None:
    root = make_root(tmp_path)
    import_mlperf(root, [JSON_TABLE], SourceOptions())
    result = check(root, sorted((root / "records").rglob("*.yaml")))
    context = SiteContext.from_check(result)
    entry = context.index.entries["benchmarks/mlperf-v5.1-example-h200x8_trt-llama2-70b-99.9-offline"]
    page = render(context, entry)
    assert page.count("Result ID") == 1 and "5.1-0007" in page  # said once
    assert "llama2-70b-99 (data row 2)" in page
