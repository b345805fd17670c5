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
