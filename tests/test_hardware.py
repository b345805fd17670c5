"""A hardware record's figures for the bounds: peak dense compute per format (FLOP/s) and the scale-up
interconnect's bandwidth, each checked by its dimension and located in the file like any other quantity."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from registry.checker.pipeline import check
from registry.kinds.equipment import COMPUTE_DTYPES, Hardware
from registry.kinds.schema import generate as generate_schema
from registry.site import _paths, generate
from tests.conftest import REPO, render_check

HEADER = """\
schema_version: 1
id: hardware/example-gpu
kind: hardware
title: Example accelerator
evidence: source-reported
name: Example GPU
vendor: Example Corp
memory_per_device: 141 GB
"""
SOURCES = """\
sources:
  - title: Example datasheet
    url: https://example.com/datasheet
"""


def _registry(tmp_path: Path, fields: str) -> Path:
    folder = tmp_path / "records" / "hardware"
    folder.mkdir(parents=True)
    (folder / "example-gpu.yaml").write_text(HEADER + fields + SOURCES, encoding="utf-8")
    shutil.copytree(REPO / "schemas", tmp_path / "schemas")
    return tmp_path


def test_peak_figures_and_interconnect_check_clean(tmp_path: Path) -> None:
    fields = (
        "peak_dense_flops_per_device:\n"
        "  fp8: 1,979 TFLOP/s\n"
        "  bf16: 989 TFLOP/s\n"
        "  int8: 1,979 TOPS\n"
        "interconnect_bandwidth_per_device: 900 GB/s\n"
    )
    assert render_check(_registry(tmp_path, fields)) == "Checked 1 record file: all clean.\n"


def test_a_bandwidth_in_a_flops_field_is_located_at_its_value(tmp_path: Path) -> None:
    fields = "peak_dense_flops_per_device:\n  bf16: 989 TFLOP/s\n  fp8: 3.35 TB/s\n"
    assert render_check(_registry(tmp_path, fields)) == (
        "records/hardware/example-gpu.yaml:11:8: S005 invalid-quantity: "
        "'peak_dense_flops_per_device.fp8' is measured in FLOP/s, but '3.35 TB/s' is in bytes/second\n"
        "  hint: state the figure in FLOP/s\n"
        "Checked 1 record file: 1 error, 0 warnings.\n"
    )


def test_a_flops_figure_as_the_interconnect_and_an_unknown_format(tmp_path: Path) -> None:
    fields = (
        "peak_dense_flops_per_device:\n  fp9: 1 PFLOP/s\ninterconnect_bandwidth_per_device: 1.8 PFLOP/s\n"
    )
    lines = render_check(_registry(tmp_path, fields)).splitlines()
    assert lines[0] == (
        "records/hardware/example-gpu.yaml:10:3: S002 unknown-field: "
        "'peak_dense_flops_per_device' has no field 'fp9'"
    )
    assert lines[1] == "  hint: did you mean 'fp8'?"
    assert lines[2] == (
        "records/hardware/example-gpu.yaml:11:36: S005 invalid-quantity: "
        "'interconnect_bandwidth_per_device' is measured in bytes/second, but '1.8 PFLOP/s' is in FLOP/s"
    )


@pytest.mark.parametrize(
    "peaks",
    [{"fp8": "3.35 TB/s"}, {"fp9": "1 PFLOP/s"}, {"fp8": 1979}, {"fp8": "989 TFLOPS"}],
)
def test_the_model_refuses_what_the_schema_refuses(peaks: dict[str, object]) -> None:
    data = {
        "schema_version": 1,
        "id": "hardware/example-gpu",
        "kind": "hardware",
        "title": "Example accelerator",
        "evidence": "source-reported",
        "name": "Example GPU",
        "vendor": "Example Corp",
        "memory_per_device": "141 GB",
        "peak_dense_flops_per_device": peaks,
        "sources": [{"title": "Example datasheet", "url": "https://example.com/datasheet"}],
    }
    with pytest.raises(ValidationError):
        Hardware.model_validate(data)
    assert Hardware.model_validate({**data, "peak_dense_flops_per_device": {"fp8": "1,979 TFLOP/s"}})


def test_the_schema_names_every_format_and_no_other() -> None:
    peaks = generate_schema("hardware")["properties"]["peak_dense_flops_per_device"]
    assert list(peaks["properties"]) == list(COMPUTE_DTYPES)
    assert peaks["additionalProperties"] is False
    assert "dense" in peaks["description"].lower() and "sparsity" in peaks["description"]
    assert {"fp4", "fp8", "int8", "bf16", "fp16", "tf32", "fp32"} <= set(COMPUTE_DTYPES)


def test_the_hardware_page_shows_the_peaks_and_the_interconnect(tmp_path: Path) -> None:
    fields = (
        "peak_dense_flops_per_device:\n"
        "  fp8: 1,979 TFLOP/s\n"
        "  int8: 1,979 TOPS\n"
        "interconnect_bandwidth_per_device: 900 GB/s\n"
    )
    root = _registry(tmp_path, fields)
    result = check(root)
    assert result.ok, result.diagnostics
    generate(root, result, downloads=False)
    page = (root / "site" / _paths.record_page("hardware/example-gpu")).read_text(encoding="utf-8")
    assert "### Peak compute per device" in page
    # No sparse figure stated: the dense column alone, no column of dashes beside it.
    assert '<tr><td>fp8</td><td class="num">1,979 TFLOP/s</td></tr>' in page
    assert '<tr><td>int8</td><td class="num">1,979 TOPS</td></tr>' in page
    assert "<dt>Interconnect per device</dt><dd>900 GB/s</dd>" in page
