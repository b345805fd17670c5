"""The benchmark's synthetic registry checks clean, so the benchmark times real work, not refusals."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from benchmarks.generate import generate
from registry._check import check


def test_generated_registry_checks_clean(tmp_path: Path) -> None:
    counts = generate(tmp_path / "registry", 120)
    result = check(tmp_path / "registry")
    assert [f"{d.path}: {d.code} {d.message}" for d in result.diagnostics] == []
    kinds = Counter(entry.record.kind for entry in result.index)
    assert sum(kinds.values()) == sum(counts.values()) == 120
    assert all(kinds[kind] > 0 for kind in ("model", "kv-efficiency", "benchmark", "engine", "hardware"))


def test_distinct_geometries_give_most_models_their_own_and_still_check_clean(tmp_path: Path) -> None:
    from registry._geometry import model_layout_or_error

    generate(tmp_path / "shared", 1000)
    generate(tmp_path / "distinct", 1000, distinct_geometries=True)
    layouts = {}
    for name in ("shared", "distinct"):
        result = check(tmp_path / name)
        assert [f"{d.path}: {d.code} {d.message}" for d in result.diagnostics] == []
        models = list(result.index.of_kind("model"))
        layouts[name] = {model_layout_or_error(entry.record)[0] for entry in models}
    assert len(models) == 200
    assert len(layouts["shared"]) < 60  # the clones of the registry's own model records
    assert len(layouts["distinct"]) > 150
