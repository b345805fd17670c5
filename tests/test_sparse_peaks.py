"""A sparse figure cannot pass as dense by accident (F017): a dense peak twice a sibling format's, equal
to (or above) the record's own sparse figure, or equal to another hardware record's sparse figure draws
a warning at its value, unless the record says why it is dense; the sparse figures are shown on the
hardware page and never read by the bounds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from registry.checker.peaks import same
from registry.checker.pipeline import check
from registry.db import build_database, run_query
from registry.engine.units import parse_quantity
from registry.site import _paths, generate
from tests.conftest import GOLDEN, REPO, render_check

HEADER = """\
schema_version: 1
id: hardware/{name}
kind: hardware
title: Example accelerator
evidence: source-reported
name: Example GPU
vendor: Example Corp
memory_per_device: 80 GB
"""
SOURCES = """\
sources:
  - title: Example datasheet
    url: https://example.com/datasheet
"""


def _write(root: Path, name: str, fields: str) -> None:
    folder = root / "records" / "hardware"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.yaml").write_text(HEADER.format(name=name) + fields + SOURCES, encoding="utf-8")
    if not (root / "schemas").exists():
        shutil.copytree(REPO / "schemas", root / "schemas")


def _findings(root: Path) -> list[str]:
    """The F017 lines `registry check` prints (each finding's first line, without its hint)."""
    return [line for line in render_check(root).splitlines() if " F017 " in line]


def test_a_datasheet_copied_whole_as_dense_is_not_flagged_when_consistent(tmp_path: Path) -> None:
    """H100 SXM's real dense figures, with the sparse ones beside them, check clean."""
    _write(
        tmp_path,
        "h100",
        "peak_dense_flops_per_device:\n  fp8: 1,979 TFLOP/s\n  int8: 1,979 TOPS\n  bf16: 989 TFLOP/s\n"
        "  fp16: 989 TFLOP/s\n  tf32: 494 TFLOP/s\n"
        "peak_sparse_flops_per_device:\n  fp8: 3,958 TFLOP/s\n  int8: 3,958 TOPS\n  bf16: 1,979 TFLOP/s\n"
        "  fp16: 1,979 TFLOP/s\n  tf32: 989 TFLOP/s\n",
    )
    assert render_check(tmp_path) == "Checked 1 record file: all clean.\n"


@pytest.mark.parametrize(
    ("dense", "expected"),
    [
        (
            "  fp8: 1,979 TFLOP/s\n  int8: 3,958 TOPS\n",
            "11:9: F017 sparse-peak-as-dense: [warning] dense int8 3,958 TOPS is twice the dense fp8 figure "
            "(1,979 TFLOP/s), a format vendors run at the same rate: it looks like the figure with sparsity",
        ),
        (
            "  bf16: 1.98 PFLOP/s\n  fp16: 989.4 TFLOP/s\n",
            "10:9: F017 sparse-peak-as-dense: [warning] dense bf16 1.98 PFLOP/s is twice the dense fp16 "
            "figure (989.4 TFLOP/s), a format vendors run at the same rate: it looks like the figure with "
            "sparsity",
        ),
        (
            "  nvfp4: 18 PFLOP/s\n  mxfp4: 9 PFLOP/s\n",
            "10:10: F017 sparse-peak-as-dense: [warning] dense nvfp4 18 PFLOP/s is twice the dense mxfp4 "
            "figure (9 PFLOP/s), a format vendors run at the same rate: it looks like the figure with sparsity",
        ),
    ],
)
def test_twice_a_sibling_format_is_flagged_at_the_doubled_figure(
    tmp_path: Path, dense: str, expected: str
) -> None:
    _write(tmp_path, "gpu", "peak_dense_flops_per_device:\n" + dense)
    assert _findings(tmp_path) == [f"records/hardware/gpu.yaml:{expected}"]


def test_formats_at_different_rates_are_not_siblings(tmp_path: Path) -> None:
    """fp8 at twice bf16 is the rule (a narrower format, twice the rate), and B300's int8 runs at a
    fraction of its fp8: neither is a sign of sparsity."""
    _write(
        tmp_path,
        "b300",
        "peak_dense_flops_per_device:\n  fp4: 14 PFLOP/s\n  fp8: 4.5 PFLOP/s\n  int8: 153.5 TOPS\n"
        "  bf16: 2.25 PFLOP/s\n",
    )
    assert _findings(tmp_path) == []


def test_a_dense_figure_equal_to_or_above_its_own_sparse_figure_is_flagged(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "gpu",
        "peak_dense_flops_per_device:\n  fp8: 3,958 TFLOP/s\n  bf16: 2,000 TFLOP/s\n"
        "peak_sparse_flops_per_device:\n  fp8: 3.958 PFLOP/s\n  bf16: 1,979 TFLOP/s\n",
    )
    assert _findings(tmp_path) == [
        "records/hardware/gpu.yaml:10:8: F017 sparse-peak-as-dense: [warning] dense fp8 3,958 TFLOP/s "
        "equals the sparse fp8 figure this record states (3.958 PFLOP/s)",
        "records/hardware/gpu.yaml:11:9: F017 sparse-peak-as-dense: [warning] dense bf16 2,000 TFLOP/s "
        "is above the sparse bf16 figure this record states (1,979 TFLOP/s)",
    ]


def test_another_records_sparse_figure_copied_as_dense_is_flagged(tmp_path: Path) -> None:
    """A system record that copies its GPU's datasheet row: the GPU's record states the figure as
    sparse, so the system's dense figure equal to it is flagged, naming the record."""
    _write(tmp_path, "h100", "peak_sparse_flops_per_device:\n  fp8: 3,958 TFLOP/s\n")
    _write(tmp_path, "dgx", "peak_dense_flops_per_device:\n  fp8: 3,958 TFLOP/s\n  bf16: 3,958 TFLOP/s\n")
    assert _findings(tmp_path) == [
        "records/hardware/dgx.yaml:10:8: F017 sparse-peak-as-dense: [warning] dense fp8 3,958 TFLOP/s "
        "equals the sparse fp8 figure of hardware/h100 (3,958 TFLOP/s)"
    ]  # bf16 is another format: its equal figure is no sign


def test_a_record_that_states_its_own_sparse_figure_is_not_held_to_anothers(tmp_path: Path) -> None:
    """A half-size part's sparse figure equal to a full part's dense one is chance when the full part
    states its own sparse figure beside it (AMD's MI350P is half an MI350X)."""
    _write(tmp_path, "mi350p", "peak_sparse_flops_per_device:\n  fp8: 4.6 PFLOP/s\n")
    _write(
        tmp_path,
        "mi350x",
        "peak_dense_flops_per_device:\n  fp8: 4.6 PFLOP/s\npeak_sparse_flops_per_device:\n  fp8: 9.2 PFLOP/s\n",
    )
    assert _findings(tmp_path) == []


def test_a_confirmed_figure_is_silent_and_a_stale_reason_is_reported(tmp_path: Path) -> None:
    reason = "GeForce Ada runs FP16 with FP16 accumulate at twice its BF16 rate (FP32 accumulate only)"
    _write(
        tmp_path,
        "rtx",
        "peak_dense_flops_per_device:\n  bf16: 165.2 TFLOP/s\n  fp16: 330.3 TFLOP/s\n  fp8: 660.6 TFLOP/s\n"
        f"peak_dense_confirmed:\n  fp16: {reason}\n  fp8: {reason}\n  int8: {reason}\n",
    )
    lines = render_check(tmp_path).splitlines()
    assert [line for line in lines if " F017 " in line] == [
        "records/hardware/rtx.yaml:15:8: F017 sparse-peak-as-dense: [warning] peak_dense_confirmed gives a "
        "reason for fp8, but nothing questions its dense figure",
        "records/hardware/rtx.yaml:16:9: F017 sparse-peak-as-dense: [warning] peak_dense_confirmed gives a "
        "reason for int8, which has no dense figure",
    ]
    assert (
        "  hint: remove peak_dense_confirmed.fp8: it explains a figure this record no longer states" in lines
    )


def test_figures_compare_at_their_written_precision() -> None:
    assert same(parse_quantity("1,979 TFLOP/s"), parse_quantity("989.4 TFLOP/s"), 2)
    assert same(parse_quantity("1.98 PFLOP/s"), parse_quantity("989 TFLOP/s"), 2)
    assert same(parse_quantity("330.3 TFLOP/s"), parse_quantity("165.2 TFLOP/s"), 2)
    assert not same(parse_quantity("1,979 TFLOP/s"), parse_quantity("985 TFLOP/s"), 2)
    assert not same(parse_quantity("4.6 PFLOP/s"), parse_quantity("2.5 PFLOP/s"), 2)
    assert not same(parse_quantity("5 PFLOP/s"), parse_quantity("4.6 PFLOP/s"))  # coarse, but 8% apart


def test_the_page_shows_dense_and_sparse_side_by_side(tmp_path: Path) -> None:
    reason = "GeForce Ada runs FP16 with FP16 accumulate at twice its BF16 rate (FP32 accumulate only)"
    _write(
        tmp_path,
        "rtx",
        "peak_dense_flops_per_device:\n  bf16: 165.2 TFLOP/s\n  fp16: 330.3 TFLOP/s\n"
        "peak_sparse_flops_per_device:\n  bf16: 330.4 TFLOP/s\n  fp16: 660.6 TFLOP/s\n  int8: 1,321.2 TOPS\n"
        f"peak_dense_confirmed:\n  fp16: {reason}\n",
    )
    result = check(tmp_path)
    assert result.ok and not result.diagnostics, result.diagnostics
    generate(tmp_path, result, downloads=False)
    page = (tmp_path / "site" / _paths.record_page("hardware/rtx")).read_text(encoding="utf-8")
    assert "### Peak compute per device" in page
    assert ">With 2:4 sparsity</th>" in page
    row = page[page.index("<td>int8</td>") :].split("</tr>", 1)[0]
    assert "—" in row and "1,321.2 TOPS" in row  # no dense int8 figure: a dash, the sparse one beside it
    assert reason in page


def test_the_bounds_never_read_a_sparse_figure(tmp_path: Path) -> None:
    """The prefill floor's example with its hardware's figures filed as sparse only: the bound is not
    computable for want of a dense peak, rather than computed from the sparse one."""
    shutil.copytree(GOLDEN / "F012", tmp_path / "registry")
    hardware = tmp_path / "registry" / "records" / "hardware" / "b200.yaml"
    text = hardware.read_text(encoding="utf-8")
    hardware.write_text(text.replace("peak_dense_flops_per_device:", "peak_sparse_flops_per_device:"))
    rows = run_query(
        build_database(tmp_path / "registry").path,
        "SELECT bound, bound_value, reason FROM benchmark_bounds WHERE bound = 'prefill-floor'",
    ).rows
    assert rows == [("prefill-floor", None, "hardware/b200 states no dense peak at bf16")]
