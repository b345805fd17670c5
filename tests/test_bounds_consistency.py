"""The relations that bind a run's figures to each other and to its benchmark: per-user rate x
concurrency against the system's rate, a statistic's order (mean <= max, p50 <= p99), a figure's unit
against its benchmark's and its run log's, and the weights alone against memory."""

from __future__ import annotations

import shutil
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from registry.bounds import Bound, Figure, bounds_of
from registry.bounds.units import (
    benchmark_unit,
    log_contradiction,
    tokens_per_sample_contradiction,
    unit_contradiction,
)
from registry.checker.pipeline import check
from tests.conftest import GOLDEN
from tests.test_bounds import LLAMA_8B, _figure, _run


def _consistency(*figures: Figure, **changes: object) -> list[Bound]:
    return [b for b in bounds_of(_run(*figures, **changes)) if b.kind == "consistency"]


def test_the_system_rate_is_at_most_the_users_times_their_rate() -> None:
    total = _figure("output_throughput", 100_000, at=0)
    per_user = _figure("output_throughput", 50, per="request", statistic="mean", at=1)
    (bound,) = _consistency(total, per_user, concurrency=8)
    assert bound.limit == 400 and bound.exceeded
    fine = _consistency(replace(total, value=Fraction(380)), per_user, concurrency=8)
    assert not fine[0].exceeded


def test_a_mean_rate_bounds_only_fixed_lengths_and_the_maximum_always() -> None:
    total = _figure("output_throughput", 100_000, at=0)
    mean = _figure("output_throughput", 50, per="request", statistic="mean", at=1)
    assert _consistency(total, mean, concurrency=8, lengths="mean") == []
    top = _figure("output_throughput", 60, per="request", statistic="max", at=1)
    (bound,) = _consistency(total, top, concurrency=8, lengths="mean")
    assert bound.limit == 480


def test_a_mean_tpot_bounds_the_system_rate_with_fixed_outputs() -> None:
    total = _figure("output_throughput", 10_000, at=0)
    tpot = _figure("tpot", Fraction(1, 50), per="request", statistic="mean", at=1)
    bounds = _consistency(total, tpot, concurrency=8, output_tokens=101, lengths="fixed")
    assert [b.limit for b in bounds] == [Fraction(8 * 50 * 101, 100)]
    assert bounds[0].exceeded


def test_a_maximum_below_its_mean_and_a_p99_below_its_median_are_flagged() -> None:
    mean = _figure("ttft", Fraction(2), per="request", statistic="mean", at=0)
    top = _figure("ttft", Fraction(1, 5), per="request", statistic="max", at=1)
    p50 = _figure("ttft", Fraction(1), per="request", statistic="median", at=2)
    p99 = _figure("ttft", Fraction(1, 10), per="request", statistic="p99", at=3)
    found = {(b.position, b.stated): b for b in _consistency(mean, top, p50, p99)}
    assert found[(1, top.text)].exceeded  # a maximum below its own mean
    assert found[(3, p99.text)].exceeded and found[(3, p99.text)].limit == 1
    assert all(b.side == "floor" for b in found.values())
    ordered = _consistency(replace(top, value=Fraction(5)), replace(p99, value=Fraction(3)), mean, p50)
    assert not any(b.exceeded for b in ordered)


def test_the_benchmarks_unit_and_the_run_logs_lines() -> None:
    assert benchmark_unit("llama2-70b-99.9", "offline") == "tokens/s"
    assert benchmark_unit("qwen3-vl-235b-a22b", "offline") == "samples/s"
    assert benchmark_unit("qwen3-vl-235b-a22b", "server") == "queries/s"
    assert unit_contradiction("qwen3-vl-235b-a22b", "server", "query_throughput") is None
    found = unit_contradiction("deepseek-r1", "server", "query_throughput")
    assert found is not None and found.expected_unit == "tokens/s"
    swapped = log_contradiction(Fraction("13.33"), "tokens/s", Fraction("3883.67"), Fraction("13.33"))
    assert swapped is not None and "samples/s written as tokens/s" in swapped.slip
    assert log_contradiction(Fraction("3883.67"), "tokens/s", Fraction("3883.67"), Fraction("13.33")) is None
    ratio = tokens_per_sample_contradiction(Fraction("13.33"), Fraction("13.33"), Fraction("291"))
    assert ratio is not None and "samples/s written as tokens/s" in ratio[1].slip
    assert tokens_per_sample_contradiction(Fraction("3883.67"), Fraction("13.33"), Fraction("291")) is None


def test_the_weights_alone_must_fit_when_the_kv_format_is_not_stated(tmp_path: Path) -> None:
    root = tmp_path / "registry"
    shutil.copytree(GOLDEN / "F012", root)
    run = root / "records" / "benchmarks" / "llama-8b-b200-long-prompt.yaml"
    text = run.read_text(encoding="utf-8").replace("  kv_cache: bf16\n", "")
    run.write_text(text.replace("stated: 0.35 ms", "stated: 0.5 s"), encoding="utf-8")
    assert [d.code for d in check(root).diagnostics] == []
    model = root / "records" / "models" / "llama-3.1-8b-instruct.yaml"
    body = model.read_text(encoding="utf-8")
    assert "params_total_b: 8" in body
    model.write_text(body.replace("params_total_b: 8", "params_total_b: 180"), encoding="utf-8")
    found = check(root).diagnostics
    assert "F008" in [d.code for d in found], [(d.code, d.message) for d in found]
    fit = next(d for d in found if d.code == "F008")
    assert "no KV cache (not counted" in fit.message


def test_a_record_with_no_computable_bound_gets_a_note_naming_what_is_missing(tmp_path: Path) -> None:
    root = tmp_path / "registry"
    shutil.copytree(GOLDEN / "F016", root)
    (note,) = check(root).diagnostics
    assert note.code == "F016" and note.severity.value == "info"
    assert "compute roof: the run states neither its weight nor its activation format" in note.message
    assert "memory fit:" in note.message
    run = root / "records" / "benchmarks" / "llama-8b-b200-unbounded.yaml"
    run.write_text(
        run.read_text(encoding="utf-8").replace("weights: null", "weights: bf16"), encoding="utf-8"
    )
    assert check(root).diagnostics == []  # a compute roof and a memory fit now bound it


def test_a_model_that_may_not_be_what_ran_bounds_nothing_and_says_why() -> None:
    """MLPerf's Open division lets a submitter prune or retrain the model: the record's model is the
    benchmark's reference, so no bound may count its parameters."""
    reason = "an Open division result: the model may be changed"
    figure = _figure("output_throughput", 10**9, at=0)
    bounded = bounds_of(_run(figure, model=LLAMA_8B))
    assert any(b.exceeded for b in bounded)  # a billion tokens/s on one B200 is impossible
    unbound = bounds_of(_run(figure, model=replace(LLAMA_8B, unbound=reason)))
    assert unbound and all(b.limit is None for b in unbound)
    assert all(b.reason == reason for b in unbound if b.kind != "consistency")


def test_an_accelerator_that_reads_its_hosts_memory_is_not_held_to_its_own(tmp_path: Path) -> None:
    """A Grace Hopper GPU reads the Grace CPU's memory over NVLink-C2C: weights beyond its HBM are no
    contradiction, so neither the memory fit nor the decode roof counts its HBM alone."""
    root = tmp_path / "registry"
    shutil.copytree(GOLDEN / "F012", root)
    run = root / "records" / "benchmarks" / "llama-8b-b200-long-prompt.yaml"
    text = run.read_text(encoding="utf-8").replace("  kv_cache: bf16\n", "")
    run.write_text(text.replace("stated: 0.35 ms", "stated: 0.5 s"), encoding="utf-8")
    model = root / "records" / "models" / "llama-3.1-8b-instruct.yaml"
    body = model.read_text(encoding="utf-8")
    model.write_text(body.replace("params_total_b: 8", "params_total_b: 180"), encoding="utf-8")
    assert "F008" in [d.code for d in check(root).diagnostics]
    hardware = root / "records" / "hardware" / "b200.yaml"
    body = hardware.read_text(encoding="utf-8")
    coherent = 'host_memory_coherent: "the vendor: a memory-coherent chip-to-chip link to the CPU"\n'
    hardware.write_text(
        body.replace("memory_per_device:", coherent + "memory_per_device:", 1), encoding="utf-8"
    )
    assert "F008" not in [d.code for d in check(root).diagnostics]
