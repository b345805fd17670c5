"""Records planted with impossible figures, each flagged by ``registry check`` with the right code and
the slip that explains it; a plausible figure in the same record passes."""

from __future__ import annotations

import shutil
from pathlib import Path

from registry.checker.pipeline import CheckResult, check
from registry.diagnostics import Diagnostic
from registry.report.explain import explain
from tests.conftest import GOLDEN

F012_RUN = "records/benchmarks/llama-8b-b200-long-prompt.yaml"
F011_RUN = "records/benchmarks/llama-8b-b200-single-stream.yaml"


def _registry(tmp_path: Path, example: str) -> Path:
    root = tmp_path / example
    shutil.copytree(GOLDEN / example, root)
    return root


def _planted(root: Path, record: str, old: str, new: str) -> list[Diagnostic]:
    path = root / record
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    return check(root).diagnostics


def _one(found: list[Diagnostic], code: str) -> Diagnostic:
    assert [d.code for d in found] == [code], [(d.code, d.message) for d in found]
    return found[0]


def _roofs(found: list[Diagnostic]) -> Diagnostic:
    """The compute roof's finding where the decode roof (what the memory holds) flags the figure too."""
    assert sorted(d.code for d in found) == ["F010", "F015"], [(d.code, d.message) for d in found]
    return next(d for d in found if d.code == "F010")


def _offline(tmp_path: Path, stated: str, per: str = "system", count: int = 8) -> list[Diagnostic]:
    root = _registry(tmp_path, "F012")
    path = root / F012_RUN
    text = path.read_text(encoding="utf-8").replace("hardware_count: 1", f"hardware_count: {count}")
    text = text.replace("scenario: single-stream", "scenario: offline")
    # An offline run of 1,024-token prompts and outputs: each output token carries its prompt's share.
    text = text.replace(
        "input_tokens: 32768\n  output_tokens: 1\n", "input_tokens: 1024\n  output_tokens: 1024\n"
    )
    text = text.replace(
        "  - metric: ttft\n    statistic: mean\n    per: request\n    stated: 0.35 ms",
        f"  - metric: output_throughput\n    statistic: value\n    per: {per}\n    stated: {stated}",
    )
    path.write_text(text, encoding="utf-8")
    return check(root).diagnostics


def test_an_offline_throughput_times_a_thousand(tmp_path: Path) -> None:
    assert _offline(tmp_path / "real", "96,000 tok/s") == []
    finding = _roofs(_offline(tmp_path / "planted", "96,000,000 tok/s"))
    assert "x the compute roof of 8 x NVIDIA B200 SXM at bf16 for 8 B active parameters" in finding.message
    assert "likeliest slip: a thousands separator or 'k' misread" in finding.hint


def test_a_large_systems_figure_written_per_accelerator(tmp_path: Path) -> None:
    assert _offline(tmp_path / "real", "20,000 tok/s", per="accelerator", count=72) == []
    finding = _roofs(_offline(tmp_path / "planted", "1,440,000 tok/s", per="accelerator", count=72))
    assert "output throughput per accelerator 1,440,000 tok/s is" in finding.message
    assert "a per-system figure written per accelerator (x72 accelerators)" in finding.hint


def test_a_ttft_below_the_prefill_floor(tmp_path: Path) -> None:
    root = _registry(tmp_path, "F012")
    assert _planted(root, F012_RUN, "stated: 0.35 ms", "stated: 0.35 s") == []
    finding = _one(_planted(root, F012_RUN, "stated: 0.35 s", "stated: 0.35 ms"), "F012")
    assert "below the prefill floor of 32,768 input tokens" in finding.message
    assert "a figure in s written as ms" in finding.hint


def test_a_single_stream_tpot_below_the_bandwidth_floor(tmp_path: Path) -> None:
    root = _registry(tmp_path, "F011")
    assert _planted(root, F011_RUN, "stated: 0.9 ms", "stated: 2.1 ms") == []
    finding = _one(_planted(root, F011_RUN, "stated: 2.1 ms", "stated: 2.1 µs"), "F011")
    assert "below the memory-bandwidth floor of 1 x NVIDIA B200 SXM with bf16 weights" in finding.message
    assert "a figure in s written as ms, or in ms as µs" in finding.hint
    # with the speculative decoding the run used stated, the same figure is possible
    stated = "scenario: single-stream\nsystem:\n  speculative:\n    method: eagle3\n    draft_tokens: 3\n"
    root = _registry(tmp_path / "speculative", "F011")
    path = root / F011_RUN
    text = path.read_text(encoding="utf-8").replace("stated: 0.9 ms", "stated: 0.6 ms")
    path.write_text(text.replace("scenario: single-stream\n", stated), encoding="utf-8")
    assert check(root).diagnostics == []


def test_fp4_weights_declared_as_bf16_no_longer_fit(tmp_path: Path) -> None:
    root = _registry(tmp_path, "F008")
    hardware = (GOLDEN / "F012" / "records" / "hardware" / "b200.yaml").read_text(encoding="utf-8")
    (root / "records" / "hardware" / "b200.yaml").write_text(hardware, encoding="utf-8")
    run = "records/benchmarks/deepseek-v3-one-h100.yaml"
    text = (root / run).read_text(encoding="utf-8").replace("hardware/h100-sxm", "hardware/b200")
    (root / run).write_text(text.replace("hardware_count: 1", "hardware_count: 3"), encoding="utf-8")
    assert _planted(root, run, "weights: bf16", "weights: nvfp4") == []
    finding = _one(_planted(root, run, "weights: nvfp4", "weights: bf16"), "F008")
    assert "671B parameters x bf16" in finding.message
    assert "likeliest slip: the weights declared bf16 but stored narrower: in nvfp4" in finding.hint


def test_the_registry_s_own_benchmarks_are_within_every_bound(real_check: CheckResult) -> None:
    result = real_check
    assert result.results is not None
    bounds = [bound for run in result.results.runs.values() for bound in run.bounds]
    assert bounds and not [bound for bound in bounds if bound.exceeded]
    assert all(bound.reason for bound in bounds if not bound.computable)


def test_explain_shows_each_bound_s_derivation_and_why_one_cannot_be_computed(tmp_path: Path) -> None:
    root = _registry(tmp_path, "F012")
    text = explain(root, "benchmarks/llama-8b-b200-long-prompt")
    assert "bound: prefill floor on TTFT (mean), stated 0.35 ms" in text
    assert "  weights over the prompt: 14.9 GFLOP × 32,768 tokens = 490 TFLOP" in text
    assert "  floor: 771 TFLOP / 2.25 PFLOP/s = 343 ms" in text
    assert "  verdict: F012 beats-prefill-floor: TTFT (mean) 0.35 ms is 979x below" in text
    hardware = root / "records" / "hardware" / "b200.yaml"
    written = hardware.read_text(encoding="utf-8")
    only_fp8 = written.replace("  bf16: 2,250 TFLOP/s\n", "")
    hardware.write_text(only_fp8, encoding="utf-8")
    text = explain(root, "benchmarks/llama-8b-b200-long-prompt")
    assert "dense fp4, its fastest: none at bf16" in text  # no faster than its fastest units
    cut = written[: written.index("peak_dense_flops_per_device")] + written[written.index("sources:") :]
    hardware.write_text(cut, encoding="utf-8")
    text = explain(root, "benchmarks/llama-8b-b200-long-prompt")
    assert "  not computable: hardware/b200 states no dense peak at bf16" in text


MLPERF_PROVENANCE = "provenance:\n  source: mlperf\n  round: v4.1\n  division: closed\nsources:\n"


def test_an_mlperf_row_s_16_bit_format_may_be_its_starting_checkpoint(tmp_path: Path) -> None:
    """MLPerf's weight_data_types may name the checkpoint a closed run quantized (v4.1's TensorRT rows
    state fp16 beyond the 16-bit peak): such a row is held to the fastest peak, its weights counted at
    4 bits; the same format elsewhere is the served one."""

    def offline(where: Path, mlperf: bool) -> tuple[list[Diagnostic], Path]:
        _offline(where, "1,000,000 tok/s")
        root = where / "F012"
        path = root / F012_RUN
        text = path.read_text(encoding="utf-8").replace("lengths: fixed", "lengths: mean")
        path.write_text(text.replace("sources:\n", MLPERF_PROVENANCE) if mlperf else text, encoding="utf-8")
        return check(root).diagnostics, root

    served, _ = offline(tmp_path / "served", mlperf=False)
    assert "at bf16 for 8 B active parameters" in _one(served, "F010").message
    started, root = offline(tmp_path / "mlperf", mlperf=True)
    assert started == []
    text = explain(root, "benchmarks/llama-8b-b200-long-prompt")
    assert "compute format: MLPerf's table writes the format" in text
    assert "dense fp4, its fastest: the stated bf16 may have been quantized" in text
    assert "weights 4 GB (int4: the stated bf16 may be the checkpoint the run started from" in text
