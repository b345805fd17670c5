"""A part whose peaks no source prints, but whose vendor states its compute units, its peak clock and its
architecture's rate per unit per clock, gets its dense peaks computed by the engine, exactly, as the
vendor derives them; a format is stated or computed, never both; the bounds and the hardware page read
the computed figures."""

from __future__ import annotations

import shutil
from pathlib import Path

from registry.checker.pipeline import check, load_record
from registry.engine.units import parse_quantity
from registry.kinds.equipment import PeakFromClock
from registry.kinds.records import Hardware
from registry.site import _paths, generate
from tests.conftest import GOLDEN, REPO, render_check

B200 = "records/hardware/b200.yaml"
STATED = "peak_dense_flops_per_device:\n  fp4: 9,000 TFLOP/s\n  fp8: 4,500 TFLOP/s\n  bf16: 2,250 TFLOP/s\n"
COMPUTED = (
    "peak_dense_flops_per_device:\n  fp4: 9,000 TFLOP/s\n  fp8: 4,500 TFLOP/s\n"
    "peak_dense_from_clock:\n  compute_units: 150\n  max_clock_mhz: 1875\n"
    "  dense_ops_per_clock_per_unit:\n    bf16: 8000\n"
)
"""The prefill floor's example with its bf16 peak computed instead of stated: 150 units x 1,875 MHz x
8,000 per clock is the stated 2,250 TFLOP/s."""


def test_the_peaks_are_the_product_exact() -> None:
    clock = PeakFromClock(
        compute_units=304,
        max_clock_mhz=2100,
        dense_ops_per_clock_per_unit={"fp8": 4096, "int8": 4096, "fp16": 2048},
    )
    assert clock.peaks() == {
        "fp8": "2614.8864 TFLOP/s",
        "int8": "2614.8864 TOPS",
        "fp16": "1307.4432 TFLOP/s",
    }


def test_the_product_gives_amds_own_mi300x_figures() -> None:
    """AMD's MI300X table is the same product at the same clock, rounded to a tenth: the derivation is
    the vendor's, not ours."""
    mi300x = load_record(REPO, "hardware/mi300x", Hardware)
    mi325x = load_record(REPO, "hardware/mi325x", Hardware)
    assert mi325x.peak_dense_from_clock is not None and not mi325x.peak_dense_flops_per_device
    stated = mi300x.dense_peaks()
    computed = mi325x.dense_peaks()
    assert set(computed) == set(stated)
    for name, text in computed.items():
        assert round(parse_quantity(text).value / 10**12, 1) == parse_quantity(stated[name]).value / 10**12


def _registry(tmp_path: Path, peaks: str) -> Path:
    root = tmp_path / "registry"
    shutil.copytree(GOLDEN / "F012", root)
    hardware = root / B200
    hardware.write_text(hardware.read_text(encoding="utf-8").replace(STATED, peaks), encoding="utf-8")
    return root


def test_the_bounds_read_a_computed_peak_as_a_stated_one(tmp_path: Path) -> None:
    """The example's result beats its prefill floor: with the peak computed, the same finding, the same
    derivation."""
    stated = [d for d in check(_registry(tmp_path / "a", STATED)).diagnostics if d.code == "F012"]
    computed = [d for d in check(_registry(tmp_path / "b", COMPUTED)).diagnostics if d.code == "F012"]
    assert len(stated) == 1 and [d.message for d in computed] == [stated[0].message]
    assert [d.hint for d in computed] == [stated[0].hint] and "2.25 PFLOP/s" in stated[0].hint


def test_a_format_stated_and_computed_is_refused_at_its_place(tmp_path: Path) -> None:
    root = _registry(
        tmp_path, COMPUTED.replace("  fp8: 4,500 TFLOP/s\n", "  fp8: 4,500 TFLOP/s\n  bf16: 2,250 TFLOP/s\n")
    )
    shown = render_check(root)
    assert (
        f"{B200}:15:3: S004 invalid-value: 'peak_dense_from_clock': bf16: stated in peak_dense_flops_per_device and computed here"
        in shown
    )


def test_the_page_shows_the_product(tmp_path: Path) -> None:
    root = _registry(tmp_path, COMPUTED)
    shutil.rmtree(root / "records" / "benchmarks")
    result = check(root)
    assert result.ok and not result.diagnostics, result.diagnostics
    generate(root, result, downloads=False)
    page = (root / "site" / _paths.record_page("hardware/b200")).read_text(encoding="utf-8")
    row = page[page.index("<td>bf16</td>") :].split("</tr>", 1)[0]
    assert "2250 TFLOP/s" in row and "150 units × 1,875 MHz × 8,000 per clock" in row
    assert ">Dense, computed as</th>" in page
    assert "2:4 sparsity" not in page  # no sparse figure on this part: no column of dashes
