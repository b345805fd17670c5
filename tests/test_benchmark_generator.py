"""The benchmark's synthetic registry checks clean, so the benchmark times real work, not refusals; and
the site benchmark reads its figures against the site's targets."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from benchmarks.generate import generate
from registry.checker.pipeline import check


def test_generated_registry_checks_clean(tmp_path: Path) -> None:
    counts = generate(tmp_path / "registry", 120)
    result = check(tmp_path / "registry")
    # An F016 note (a synthetic record whose bounds lack an input) is information, not a refusal.
    faults = [d for d in result.diagnostics if d.severity.value != "info"]
    assert [f"{d.path}: {d.code} {d.message}" for d in faults] == []
    kinds = Counter(entry.record.kind for entry in result.index)
    assert sum(kinds.values()) == sum(counts.values()) == 120
    assert all(kinds[kind] > 0 for kind in ("model", "kv-efficiency", "benchmark", "engine", "hardware"))


def test_distinct_geometries_give_most_models_their_own_and_still_check_clean(tmp_path: Path) -> None:
    from registry.kinds.geometry import model_layer_groups_or_error

    generate(tmp_path / "shared", 1000)
    generate(tmp_path / "distinct", 1000, distinct_geometries=True)
    layouts = {}
    for name in ("shared", "distinct"):
        result = check(tmp_path / name)
        faults = [d for d in result.diagnostics if d.severity.value != "info"]  # F016 notes are information
        assert [f"{d.path}: {d.code} {d.message}" for d in faults] == []
        models = list(result.index.of_kind("model"))
        layouts[name] = {model_layer_groups_or_error(entry.record)[0] for entry in models}
    assert len(models) == 200
    assert len(layouts["shared"]) < 60  # the clones of the registry's own model records
    assert len(layouts["distinct"]) > 150


def _row(
    records: int, total: float, after_db: float, cold: float, bare: float, rss: tuple[float, ...]
) -> dict:
    generator, mkdocs, plain = rss
    return {
        "records": records,
        "total_s": total,
        "generate_after_db_s": after_db,
        "generate_s": cold,
        "bare_mkdocs_s": bare,
        "generator_rss_mib": generator,
        "mkdocs_rss_mib": mkdocs,
        "bare_rss_mib": plain,
    }


def test_the_site_benchmark_reads_its_rows_against_the_targets() -> None:
    """The report's last lines say, per size, whether the whole site is under 90 s and whether the
    generator (as `make run` runs it, after `registry db`) stays within 20% of a bare build, and how
    much each peak grows a record from one size to the next."""
    from benchmarks.site_bench import against_targets

    rows = [
        _row(1_000, 8.9, 0.6, 0.7, 3.0, (200, 76, 53)),
        _row(10_000, 91.0, 5.3, 6.0, 25.0, (245, 406, 160)),
    ]
    lines = against_targets(rows).splitlines()
    assert "1,000 records: the whole site 8.9 s (the 90 s target is for 10,000 records);" in lines[1]
    assert "the generator 20.0% of a bare build (met: at most 20%), 23.3% with the database" in lines[1]
    assert "10,000 records: the whole site 91.0 s (over 90 s);" in lines[2]
    assert "the generator 21.2% of a bare build (not met: at most 20%)" in lines[2]
    # (245 - 200) MiB over 9,000 records is 5.1 KB a record; MkDocs (406 - 76) MiB, 37.5 KB.
    assert lines[3].endswith("generator +5.1 KB, MkDocs +37.5 KB; a bare MkDocs build +12.2 KB a plain page")
