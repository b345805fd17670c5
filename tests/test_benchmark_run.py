"""A measured figure is refused without the run around it: engine and version, hardware, precision,
workload and prefix-cache state; a benchmark's fields that depend on each other agree."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from registry.checker.load import load_canonical
from registry.checker.pipeline import CheckResult, check
from registry.kinds.records import Benchmark
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
    assert len(found) == 1  # the measured figures are one list, 'metrics'
    assert found[0].pointer == "/metrics"
    assert "add 'engine_version', 'workload', 'prefix_cache'" in found[0].message
    assert found[0].line > 1


def test_the_real_benchmarks_carry_their_run(real_check: CheckResult) -> None:
    assert [d for d in real_check.diagnostics if d.code == "S006"] == []


def _benchmark(**changes: object) -> dict[str, object]:
    from_fixture = load_canonical(
        "run.yaml", (REPO / "tests" / "fixtures" / "valid" / "run.yaml").read_bytes()
    )
    assert from_fixture.document is not None
    data = dict(from_fixture.document.data)
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"scenario": "offline"}, "'sweep' belongs to scenario 'sweep-point' only"),
        ({"sweep": None}, "'sweep' belongs to scenario 'sweep-point' only"),
        ({"metrics": []}, "at least one figure"),
        ({"hardware": None}, "names its hardware"),
        (
            {"system": {"accelerators": [{"hardware": "hardware/example-gpu", "count": 8}]}},
            "leave the top-level 'hardware' out",
        ),
        ({"precision": {"weights": "bf16"}}, "state 'precision.kv_cache'"),
        ({"provenance": {"source": "manual", "round": "v6.1"}}, "belong to MLPerf results"),
        ({"context_tokens": None}, "state 'context_tokens', or each claim's own"),
    ],
)
def test_benchmark_fields_that_disagree_are_refused(changes: dict[str, object], words: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(words)):
        Benchmark.model_validate(_benchmark(**changes))


@pytest.mark.parametrize(
    ("metric", "stated"),
    [("ttft", "8 tok/s"), ("output_throughput", "8 s"), ("power", "8 J/token"), ("request_throughput", "8")],
)
def test_a_metric_is_checked_by_its_dimension(metric: str, stated: str) -> None:
    figure = {"metric": metric, "statistic": "value", "per": "system", "stated": stated}
    with pytest.raises(ValidationError, match="is measured in"):
        Benchmark.model_validate(_benchmark(metrics=[figure]))
    limit = {"metric": metric, "statistic": "p99", "limit": stated}
    good = {"metric": "ttft", "statistic": "p99", "per": "request", "stated": "1 s", "constraints": [limit]}
    with pytest.raises(ValidationError, match="limit is measured in"):
        Benchmark.model_validate(_benchmark(metrics=[good]))


def test_the_headline_figure_is_a_single_value_or_a_central_statistic() -> None:
    record = Benchmark.model_validate(_benchmark())
    assert record.headline("ttft", "request") is None  # only a p99 is stated
    tpot = record.headline("tpot", "request")
    assert tpot is not None and tpot.stated == "35 ms"
    throughput = record.headline("output_throughput", "system")
    assert throughput is not None and throughput.stated == "1,234 tok/s"


def test_a_benchmark_may_leave_its_context_out_when_its_claims_name_theirs() -> None:
    claims = [{"quantity": "bytes_total", "context_tokens": "128K", "kv_cache": "bf16", "stated": "~32 GiB"}]
    record = Benchmark.model_validate(_benchmark(context_tokens=None, claims=claims))
    assert record.context_tokens is None and record.context is None
    bare = Benchmark.model_validate(_benchmark(context_tokens=None, claims=[]))
    assert bare.context is None
