"""``registry migrate``: a version 1 benchmark becomes version 2 by the tool, losslessly, comments kept;
a second run changes nothing; the real records are current and their figures are the v1 figures."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from registry.authoring.fmt import format_text
from registry.authoring.migrate import V1_METRICS, migrate, migrate_text, needs_migration
from registry.checker.load import load_text
from registry.checker.pipeline import check
from registry.errors import FmtRefused
from registry.kinds.records import Benchmark
from tests.conftest import REPO

FIXTURES = REPO / "tests" / "fixtures" / "migrate"
V1 = (FIXTURES / "v1.yaml").read_text(encoding="utf-8")
V2 = (FIXTURES / "v2.yaml").read_text(encoding="utf-8")


def test_a_v1_record_becomes_the_expected_v2_text() -> None:
    assert migrate_text(V1) == V2


def test_migrating_twice_changes_nothing() -> None:
    once = migrate_text(V1)
    assert migrate_text(once) == once


def test_the_migrated_text_is_canonical_and_a_valid_benchmark() -> None:
    assert format_text(V2) == V2
    document = load_text("v2.yaml", V2).document
    assert document is not None
    record = Benchmark.model_validate(document.data)
    assert [(m.metric, m.statistic, m.per, m.stated) for m in record.metrics] == [
        ("ttft", "value", "request", "0.35 s"),
        ("tpot", "value", "request", "35 ms"),
        ("output_throughput", "value", "system", "1,234 tok/s"),
    ]
    assert record.scenario is None  # not guessed


def test_memory_becomes_a_system_metric() -> None:
    text = V1.replace("measured_throughput", "measured_memory").replace('"1,234 tok/s"', "80 GB")
    migrated = migrate_text(text)
    assert "  - metric: memory\n    statistic: value\n    per: system\n    stated: 80 GB\n" in migrated
    assert set(V1_METRICS) == {"measured_ttft", "measured_tpot", "measured_throughput", "measured_memory"}


def test_other_kinds_and_current_records_are_left_as_they_are() -> None:
    model = (REPO / "tests" / "fixtures" / "valid" / "model-config.yaml").read_text(encoding="utf-8")
    assert migrate_text(model) == model
    assert migrate_text(V2) == V2
    assert not needs_migration({"kind": "kv-efficiency", "schema_version": 1})
    assert needs_migration({"kind": "benchmark", "schema_version": 1})


def test_a_record_mixing_versions_is_refused() -> None:
    with pytest.raises(FmtRefused, match="already has v2 fields"):
        migrate_text(V1.replace("claims: []\n", "claims: []\nscenario: offline\n"))


def test_migrate_writes_and_check_reports(tmp_path: Path) -> None:
    folder = tmp_path / "records" / "benchmarks"
    folder.mkdir(parents=True)
    path = folder / "example-v1.yaml"
    path.write_text(V1, encoding="utf-8")
    report = migrate(tmp_path, check=True)
    assert [f.status for f in report.files] == ["migrated"] and not report.ok
    assert path.read_text(encoding="utf-8") == V1  # --check writes nothing
    report = migrate(tmp_path)
    assert report.ok and path.read_text(encoding="utf-8") == V2
    assert [f.status for f in migrate(tmp_path, check=True).files] == ["unchanged"]


def test_the_cli_says_what_it_would_migrate(tmp_path: Path) -> None:
    folder = tmp_path / "records" / "benchmarks"
    folder.mkdir(parents=True)
    (folder / "example-v1.yaml").write_text(V1, encoding="utf-8")
    command = [sys.executable, "-m", "registry", "migrate", "--root", str(tmp_path)]
    checked = subprocess.run([*command, "--check"], capture_output=True, text=True, check=False)
    assert checked.returncode == 1
    assert "records/benchmarks/example-v1.yaml: of an earlier schema version" in checked.stdout
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "migrated records/benchmarks/example-v1.yaml" in done.stdout
    again = subprocess.run([*command, "--check"], capture_output=True, text=True, check=False)
    assert again.returncode == 0 and "nothing to migrate" in again.stderr


def test_a_v1_benchmark_is_refused_by_the_check_with_a_hint_to_migrate(tmp_path: Path) -> None:
    folder = tmp_path / "records" / "benchmarks"
    folder.mkdir(parents=True)
    (folder / "example-v1.yaml").write_text(V1, encoding="utf-8")
    shutil.copytree(REPO / "schemas", tmp_path / "schemas")
    found = check(tmp_path, formulas=False).diagnostics
    assert [(d.code, d.line) for d in found] == [("S009", 2)]
    assert "registry migrate records/benchmarks/example-v1.yaml" in found[0].hint


def test_the_real_benchmarks_are_current_and_keep_their_v1_figures() -> None:
    """The committed records were migrated by the tool; their figures are those of version 1."""
    figures = {
        "sglang-gb200-deepseek-r1-ttft-128k-nochunk": ("ttft", "request", "18.6 s"),
        "sglang-gb300-deepseek-r1-ttft-128k-nochunk": ("ttft", "request", "15.2 s"),
        "sglang-gb300-deepseek-r1-ttft-128k": ("ttft", "request", "8.6 s"),
        "trtllm-b200-deepseek-r1-throughput-1k2k": ("output_throughput", "system", "36384.0838 tok/s"),
    }
    for slug, (metric, per, stated) in figures.items():
        text = (REPO / "records" / "benchmarks" / f"{slug}.yaml").read_text(encoding="utf-8")
        assert migrate_text(text) == text
        document = load_text(slug, text).document
        assert document is not None
        record = Benchmark.model_validate(document.data)
        assert [(m.metric, m.statistic, m.per, m.stated) for m in record.metrics] == [
            (metric, "value", per, stated)
        ]
