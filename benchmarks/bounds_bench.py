"""The bounds measured on the real registry: coverage, planted slips caught, % of the tightest bound
reached by MLPerf closed results, and the bounds' cost at 10,000 generated records.

- **coverage**: benchmark records with at least one computed bound, by ``registry query`` on
  ``benchmark_bounds`` (the memory fit counts), and the records left with none;
- **x1000**: in a temporary copy of the registry, every MLPerf Offline and Server record's headline
  figure multiplied by 1,000: how many ``registry check`` flags;
- **x10**: 20 records picked at random (seeded) among all benchmark records, multiplied by 10;
- **the issue's five impossible results** (and a 70B model in bf16 on one 80 GB H100 with its cache's
  format unstated), planted as new records: the code and hint each draws;
- **% of bound**: the median and the deciles, over MLPerf closed results, of the fraction of its tightest
  computed physical bound (compute, bandwidth, decode roof, prefill floor) each headline figure reaches;
- **cost**: the check's results stage on 10,000 generated records with the bounds and without (the
  median of 3 runs of :func:`registry.results.compute_results`, in-process).

    .venv/bin/python benchmarks/bounds_bench.py [--seed 7] [--sizes 10000]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
sys.path.insert(0, str(REPO))

from benchmarks.generate import generate  # noqa: E402
from registry.checker.pipeline import check  # noqa: E402
from registry.diagnostics import Diagnostic  # noqa: E402
from registry.results import compute_results  # noqa: E402
from registry.results import values as results_values  # noqa: E402

HEADLINE = re.compile(
    r"(  - metric: (output_throughput|sample_throughput|query_throughput)\n    statistic: value\n"
    r"    per: (system|accelerator)\n    stated: )([0-9][0-9,.]*)( \S+)"
)
PHYSICS = ("compute-roof", "bandwidth-roof", "decode-roof", "prefill-floor")


def query(sql: str, root: Path = REPO) -> list[dict[str, object]]:
    """``registry query`` as a user runs it, answered in JSON."""
    done = subprocess.run(
        [str(BIN / "registry"), "query", "--root", str(root), "--format", "json", sql],
        capture_output=True,
        text=True,
        check=True,
    )
    answer: list[dict[str, object]] = json.loads(done.stdout)
    return answer


def coverage() -> tuple[int, int, list[dict[str, object]]]:
    rows = query(
        "SELECT benchmark_id, bool_or(bound_value IS NOT NULL) AS computed FROM benchmark_bounds GROUP BY 1"
    )
    total = query("SELECT count(*) AS n FROM benchmarks")[0]["n"]
    assert isinstance(total, int)
    return sum(1 for row in rows if row["computed"]), total, [row for row in rows if not row["computed"]]


def copy_registry(into: Path) -> Path:
    root = into / "registry"
    shutil.copytree(REPO / "records", root / "records")
    return root


def multiply(path: Path, factor: int) -> bool:
    """The record's headline rate times ``factor``; False when it has none."""
    text = path.read_text(encoding="utf-8")
    found = HEADLINE.search(text)
    if found is None:
        return False
    value = float(found.group(4).replace(",", "")) * factor
    written = f"{value:,.0f}" if value >= 100 else f"{value:.6g}"
    path.write_text(text[: found.start(4)] + written + text[found.end(4) :], encoding="utf-8")
    return True


def flagged(diagnostics: list[Diagnostic]) -> dict[str, list[Diagnostic]]:
    by_path: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if d.severity.value == "error":
            by_path.setdefault(d.path, []).append(d)
    return by_path


def planted_slips(files: list[Path], factor: int, workdir: Path) -> tuple[int, int, list[str]]:
    """``files`` (relative to records/) multiplied by ``factor`` in one copy; how many are flagged."""
    root = copy_registry(workdir)
    planted = [f for f in files if multiply(root / "records" / f, factor)]
    found = flagged(check(root).diagnostics)
    missed = [str(f) for f in planted if f"records/{f}" not in found]
    return len(planted) - len(missed), len(planted), missed


def mlperf_records(scenarios: tuple[str, ...]) -> list[Path]:
    out: list[Path] = []
    for path in sorted((REPO / "records" / "benchmarks").glob("mlperf-*.yaml")):
        text = path.read_text(encoding="utf-8")
        if any(f"\nscenario: {s}\n" in text for s in scenarios):
            out.append(path.relative_to(REPO / "records"))
    return out


IMPOSSIBLE = {
    "ttft-1ms-128k-8b-h100": (
        "models/llama-3.1-8b-instruct",
        "hardware/h100-sxm",
        1,
        "bf16",
        "bf16",
        "  input_tokens: 131072\n  output_tokens: 1\n  lengths: fixed\n  concurrency: 1\n",
        "single-stream",
        [("ttft", "mean", "request", "1 ms")],
    ),
    "per-user-50-x8-b300": (
        "models/llama-3.1-8b-instruct",
        "hardware/b300",
        8,
        "fp8",
        "fp8",
        "  input_tokens: 1024\n  output_tokens: 1024\n  lengths: fixed\n  concurrency: 8\n",
        "server",
        [
            ("output_throughput", "value", "system", "100,000 tok/s"),
            ("output_throughput", "mean", "request", "50 tok/s"),
        ],
    ),
    "tpot-below-hbm-70b-h100": (
        "models/llama-3.1-70b",
        "hardware/h100-sxm",
        8,
        "fp8",
        "fp8",
        "  input_tokens: 1024\n  output_tokens: 1024\n  lengths: fixed\n  concurrency: 1\n",
        "single-stream",
        [("tpot", "mean", "request", "0.2 ms")],
    ),
    "per-gpu-above-system-8b-b200": (
        "models/llama-3.1-8b-instruct",
        "hardware/b200",
        8,
        "fp8",
        "fp8",
        "  input_tokens: 1024\n  output_tokens: 1024\n  lengths: fixed\n",
        "offline",
        [
            ("output_throughput", "value", "system", "40,000 tok/s"),
            ("output_throughput", "value", "accelerator", "40,000 tok/s"),
        ],
    ),
    "70b-bf16-one-h100-kv-unstated": (
        "models/llama-3.1-70b",
        "hardware/h100-sxm",
        1,
        "bf16",
        None,
        "  input_tokens: 1024\n  output_tokens: 1024\n  lengths: fixed\n",
        "offline",
        [("output_throughput", "value", "system", "500 tok/s")],
    ),
}
"""The issue's impossible results, as records (the first, 10 x a real B200 Llama 2 70B Offline figure,
is planted in an existing record)."""


def _record(name: str, spec: tuple[object, ...]) -> str:
    model, hardware, count, weights, kv, workload, scenario, metrics = spec
    assert isinstance(metrics, list)
    lines = [
        "schema_version: 2",
        f"id: benchmarks/planted-{name}",
        "kind: benchmark",
        f"title: Planted impossible result {name}",
        "evidence: measured",
        f"model: {model}",
        "engine: engines/vllm",
        "engine_version: 0.11.0",
        "layout: vllm",
        f"hardware: {hardware}",
        f"hardware_count: {count}",
        "precision:",
        f"  weights: {weights}",
        *([f"  kv_cache: {kv}"] if kv else []),
        "prefix_cache: none",
        f"scenario: {scenario}",
        "workload:",
        workload.rstrip("\n") if isinstance(workload, str) else "",
        "metrics:",
    ]
    for metric, statistic, per, stated in metrics:
        lines += [
            f"  - metric: {metric}",
            f"    statistic: {statistic}",
            f"    per: {per}",
            f"    stated: {stated}",
        ]
    lines += ["sources:", "  - title: planted", f"    url: https://example.org/{name}"]
    return "\n".join(lines) + "\n"


def impossible(workdir: Path) -> Iterator[tuple[str, list[Diagnostic]]]:
    root = copy_registry(workdir)
    b200 = sorted((root / "records" / "benchmarks").glob("mlperf-*b200*llama2-70b*-offline.yaml"))
    real = b200[0] if b200 else None
    if real is not None:
        multiply(real, 10)
    for name, spec in IMPOSSIBLE.items():
        (root / "records" / "benchmarks" / f"planted-{name}.yaml").write_text(
            _record(name, spec), encoding="utf-8"
        )
    found = flagged(check(root).diagnostics)
    if real is not None:
        yield f"10 x {real.stem}", found.get(f"records/benchmarks/{real.name}", [])
    for name in IMPOSSIBLE:
        yield name, found.get(f"records/benchmarks/planted-{name}.yaml", [])


def percent_of_bound() -> list[float]:
    """The % of its tightest physical bound each MLPerf closed figure reaches, sorted."""
    rows = query(
        "SELECT b.benchmark_id, b.position, max(b.reached) AS reached FROM benchmark_bounds b "
        "JOIN benchmarks r ON r.id = b.benchmark_id "
        "WHERE r.source = 'mlperf' AND r.mlperf_division = 'closed' AND b.reached IS NOT NULL "
        f"AND b.bound IN ({', '.join(repr(k) for k in PHYSICS)}) GROUP BY 1, 2"
    )
    return sorted(100 * float(row["reached"]) for row in rows if isinstance(row["reached"], (int, float)))


def cost(size: int, workdir: Path, repeat: int = 3) -> tuple[float, float]:
    """The results stage on ``size`` generated records, with and without the bounds (median s)."""
    root = workdir / f"gen-{size}"
    generate(root, size)
    result = check(root)
    index = result.index
    assert index is not None

    def timed() -> float:
        start = time.perf_counter()
        compute_results(index)
        return time.perf_counter() - start

    with_bounds = statistics.median(timed() for _ in range(repeat))
    with mock.patch.object(results_values, "bounds_of", lambda facts: ()):
        without = statistics.median(timed() for _ in range(repeat))
    return with_bounds, without


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10000])
    options = parser.parse_args()
    computed, total, rest = coverage()
    print(
        f"coverage: {computed} of {total} benchmark records have a computed bound ({100 * computed / total:.1f}%)"
    )
    for row in rest:
        print(f"  none: {row['benchmark_id']}")
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        caught, planted, missed = planted_slips(mlperf_records(("offline", "server")), 1000, work / "x1000")
        print(f"x1000, MLPerf Offline and Server: {caught} of {planted} flagged")
        for name in missed:
            print(f"  missed: {name}")
        every = sorted(
            p.relative_to(REPO / "records") for p in (REPO / "records" / "benchmarks").glob("*.yaml")
        )
        picked = random.Random(options.seed).sample(every, 20)
        caught, planted, missed = planted_slips(picked, 10, work / "x10")
        print(f"x10, 20 records at random (seed {options.seed}): {caught} of {planted} flagged")
        for name in missed:
            print(f"  missed: {name}")
        for name, found in impossible(work / "five"):
            said = "; ".join(f"{d.code} {d.message[:140]} | {d.hint[:160]}" for d in found) or "NOT FLAGGED"
            print(f"planted {name}: {said}")
        reached = percent_of_bound()
        print(
            f"median % of tightest bound, MLPerf closed: {statistics.median(reached):.2f}% over {len(reached)} figures"
        )
        deciles = statistics.quantiles(reached, n=10)
        print(
            "  distribution: "
            + ", ".join(f"p{10 * (i + 1)} {value:.1f}%" for i, value in enumerate(deciles))
            + f", max {reached[-1]:.1f}%"
        )
        for size in options.sizes:
            with_bounds, without = cost(size, work)
            print(
                f"results stage at {size:,} records: {with_bounds:.2f} s with bounds, {without:.2f} s without"
            )


if __name__ == "__main__":
    main()
