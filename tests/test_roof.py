"""The roof curve the results chart draws: output tokens/s per accelerator no system can pass at each
per-user rate, from the decode roof (memory and bandwidth) under the compute roof."""

from __future__ import annotations

import shutil
from pathlib import Path

from registry.bounds import bounds_of
from registry.bounds.curve import curve
from registry.checker.pipeline import check
from registry.results import Roof, roof
from tests.conftest import GOLDEN
from tests.test_bounds import _decode_run, _figure


def test_the_curve_is_rate_times_the_sequences_memory_and_bandwidth_allow() -> None:
    shape = curve(_decode_run(_figure("output_throughput", 100)))
    assert not isinstance(shape, str)
    assert shape.cache is not None and shape.sequences is not None
    slow, fast = shape.knee / 2, (shape.knee + shape.fastest) / 2
    assert shape.at(slow) == min(shape.compute or slow * shape.sequences, slow * shape.sequences)
    served = (shape.bandwidth / fast - shape.weights) / shape.cache
    assert shape.at(fast) == fast * served
    assert shape.at(shape.fastest * 2) is None  # not one sequence can be served that fast


def test_the_curves_peak_is_the_decode_roof_at_the_knee() -> None:
    run = _decode_run(_figure("output_throughput", 100, per="accelerator"))
    shape = curve(run)
    assert not isinstance(shape, str)
    decode = next(b for b in bounds_of(run) if b.kind == "decode-roof")
    assert decode.limit is not None
    highest = max(shape.at(shape.knee * k / 20) or 0 for k in range(1, 60))
    assert highest <= decode.limit
    assert shape.at(shape.knee) == decode.limit  # where memory and bandwidth bind at once


def test_roof_of_a_record_and_why_none(tmp_path: Path) -> None:
    root = tmp_path / "registry"
    shutil.copytree(GOLDEN / "F015", root)
    results = check(root).results
    assert results is not None
    found = roof(results, "benchmarks/llama-8b-b200-offline")
    assert isinstance(found, Roof)
    assert found.hardware == "hardware/b200" and found.accelerators == 1
    assert found.label.startswith("decode roof: 1 x NVIDIA B200 SXM, bf16 weights, 1,024 + 1,024 tokens")
    xs = [x for x, _ in found.points()]
    assert xs == sorted(xs) and len(xs) == 40
    x, y = found.points()[10]
    assert found.at(x) == y and found.at(xs[-1] * 2) is None
    assert roof(results, "benchmarks/none") == "benchmarks/none is not a benchmark record of this registry"


def test_a_roof_made_by_hand_answers_as_one_computed() -> None:
    made = Roof("bound", "hardware/x", 8, ((1.0, 100.0), (10.0, 50.0)))
    assert made.points() == ((1.0, 100.0), (10.0, 50.0))
    assert made.at(5.5) == 75.0 and made.at(0.5) is None
