"""A measured figure is refused without the run around it: engine and version, hardware, precision,
workload and prefix-cache state."""

from __future__ import annotations

import shutil
from pathlib import Path

from registry.checker.pipeline import check
from tests.conftest import REPO


def test_a_measured_figure_without_its_run_is_located_and_named(tmp_path: Path) -> None:
    shutil.copytree(REPO / "tests" / "fixtures" / "valid", tmp_path / "valid")
    records = tmp_path / "records"
    for kind, name in (
        ("benchmarks", "run"),
        ("models", "model-config"),
        ("engines", "engine"),
        ("hardware", "hardware"),
    ):
        (records / kind).mkdir(parents=True)
        shutil.copy(tmp_path / "valid" / f"{name}.yaml", records / kind)
    shutil.move(records / "benchmarks" / "run.yaml", records / "benchmarks" / "example-run.yaml")
    shutil.move(records / "models" / "model-config.yaml", records / "models" / "example-llama.yaml")
    shutil.move(records / "engines" / "engine.yaml", records / "engines" / "example.yaml")
    shutil.move(records / "hardware" / "hardware.yaml", records / "hardware" / "example-gpu.yaml")
    run = records / "benchmarks" / "example-run.yaml"
    text = run.read_text()
    start, end = text.index("workload:"), text.index("claims:")
    trimmed = text[:start] + text[end:]
    run.write_text(trimmed.replace('engine_version: "0.9.2"\n', "").replace("prefix_cache: warm\n", ""))
    found = [d for d in check(tmp_path, formulas=False).diagnostics if d.code == "S006"]
    assert len(found) == 4  # one for each measured figure
    assert {d.pointer.rsplit("/", 1)[1] for d in found} == {
        "measured_ttft",
        "measured_tpot",
        "measured_throughput",
        "measured_memory",
    }
    assert "add 'engine_version', 'workload', 'prefix_cache'" in found[0].message
    assert found[0].line > 1


def test_the_real_benchmarks_carry_their_run() -> None:
    result = check(REPO, [REPO / "records" / "benchmarks"])
    assert [d for d in result.diagnostics if d.code == "S006"] == []
