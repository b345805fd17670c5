"""``registry import guidellm``: GuideLLM's ``benchmarks.json``, one record per benchmark of the report.

The writer read, vllm-project/guidellm: ``GenerativeBenchmarksReport`` holds ``metadata``, then
``args`` at ``metadata.version`` 1 (``src/guidellm/benchmark/schemas/generative/report.py`` at v0.5.0,
adfa108ab1df6f2a1452d1037a71817a493303a8, and v0.6.1, e82b62ae3403568d3693a4a49b0c63a82a55df84) or
``config`` at version 2 (``src/guidellm/benchmark/schemas/report.py`` at v0.7.0,
c6389a57a135449c3a79bbad05723a12844bb3a7, to v0.7.3, 39383552962841086d05e25c37b58a83ef06c758), and ``benchmarks``: each a
``GenerativeBenchmark`` whose ``config`` holds the scheduling ``strategy`` (``type_`` synchronous,
concurrent with ``streams``, throughput with ``max_concurrency``, constant or poisson with ``rate``) and
the ``backend`` the requests went to (its ``model``), and whose ``metrics`` are
``StatusDistributionSummary`` objects: per request status (``successful``, ``incomplete``, ``errored``,
``total``) a ``DistributionSummary`` of ``mean``, ``median``, ``min``, ``max``, ``std_dev``, ``count``,
``total_sum`` and ``percentiles`` (``p001`` ... ``p999``).

The record states the successful requests' figures, as the engines' own benchmarks count completed
requests only. The rates (``requests_per_second``, ``output_tokens_per_second``,
``prompt_tokens_per_second``, ``tokens_per_second``) are GuideLLM's event rates weighted by the time
each holds, whose mean is the events over the measured duration: the run's throughput, stated as its
single figure. ``time_to_first_token_ms``, ``time_per_output_token_ms`` and ``inter_token_latency_ms``
are milliseconds, ``request_latency`` seconds. The mean prompt and output token counts are the
workload's mean lengths (rounded down where not whole).
"""

from __future__ import annotations

import json
from pathlib import Path

from registry.authoring.importers.bench_json import read_value
from registry.authoring.importers.imported import RunDraft, stated
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.model_match import FileModel, plain
from registry.authoring.importers.nodes import Node, add_statistics
from registry.authoring.importers.sniff import other_tool

COMMAND = "guidellm benchmark"
RATES = {
    "requests_per_second": ("request_throughput", "req/s"),
    "output_tokens_per_second": ("output_throughput", "tok/s"),
    "prompt_tokens_per_second": ("input_throughput", "tok/s"),
    "tokens_per_second": ("total_throughput", "tok/s"),
}
LATENCIES = {
    "time_to_first_token_ms": ("ttft", "ms"),
    "time_per_output_token_ms": ("tpot", "ms"),
    "inter_token_latency_ms": ("itl", "ms"),
    "request_latency": ("e2e_latency", "s"),
}
READ_METRICS = {*RATES, *LATENCIES, "request_totals", "prompt_token_count", "output_token_count"}
KNOWN_METRICS = READ_METRICS | {
    "request_concurrency",
    "request_streaming_iterations_count",
    "total_token_count",
    "time_to_first_output_token_ms",
    "output_tokens_per_iteration",
    "iter_tokens_per_iteration",
    "text",
    "image",
    "video",
    "audio",
    "tool_call",
}
KNOWN_BENCHMARK = {
    "type_", "id_", "run_id", "run_index", "config", "scheduler_state", "scheduler_metrics", "metrics",
    "requests", "start_time", "end_time", "duration", "warmup_duration", "cooldown_duration",
}  # fmt: skip
KNOWN_REPORT = {"metadata", "args", "config", "benchmarks"}


def _scenario(out: RunDraft, strategy: Node) -> None:
    kind = strategy.get("type_").text()
    if kind == "synchronous":
        out.scenario, out.load = "single-stream", "one request at a time (synchronous)"
        out.workload["concurrency"] = 1
        return
    streams = (
        strategy.get("streams").count() if kind == "concurrent" else strategy.get("max_concurrency").count()
    )
    if kind in ("concurrent", "throughput") and streams:
        out.scenario, out.sweep = "sweep-point", {"parameter": "concurrency", "value": streams}
        out.workload["concurrency"] = streams
        out.load = f"fixed concurrency {streams} ({kind})"
    elif kind == "throughput":
        out.scenario, out.load = "offline", "all requests at once (throughput)"
    elif kind in ("constant", "poisson"):
        rate = strategy.get("rate").number()
        if rate is None or rate <= 0:
            raise strategy.get("rate").fail("a request rate")
        out.scenario, out.load = "server", f"{stated(rate, 'req/s')} ({kind})"
        out.workload["request_rate"] = stated(rate, "req/s")
        out.workload["distribution"] = "constant arrivals" if kind == "constant" else "Poisson arrivals"
        cap = strategy.get("max_concurrency").count()
        out.workload["concurrency"] = cap
    else:
        out.unmapped = f"GuideLLM strategy {plain(str(kind))!r} is no load this importer knows"


def _mean_length(node: Node, key: str, out: RunDraft) -> int | None:
    value = node.at(key, "successful", "mean").number()
    if value is None or value < 0:
        return None
    whole = int(value)
    out.read.append(
        f"{key.replace('_count', '')} length: the successful requests' mean {value}{'' if whole == value else ', rounded down'}."
    )
    return whole


def _metrics(out: RunDraft, metrics: Node) -> None:
    for key, (metric, unit) in RATES.items():
        mean = metrics.at(key, "successful", "mean").number()
        if mean is not None:
            out.add_metric(metric, "value", "system", mean, unit)
    for key, (metric, unit) in LATENCIES.items():
        node = metrics.at(key, "successful")
        add_statistics(out, node, metric, "request", unit)
        add_statistics(
            out, node.get("percentiles"), metric, "request", unit, only=("p90", "p95", "p99", "p99.9")
        )
    out.workload["input_tokens"] = _mean_length(metrics, "prompt_token_count", out)
    out.workload["output_tokens"] = _mean_length(metrics, "output_token_count", out)
    out.workload["lengths"] = "mean"
    out.workload["requests"] = metrics.at("request_totals", "successful").count()
    for key in metrics.names():
        if key not in KNOWN_METRICS:
            out.unknown.append(plain(f"metrics/{key}", 80))
        elif key not in READ_METRICS:
            out.not_stated.append(f"metrics/{key} (no such figure)")


def _benchmark(path: Path, report: Node, bench: Node, version: int, index: int) -> RunDraft:
    out = RunDraft(
        source="guidellm", command=COMMAND, path=path, where=bench.where,
        text=json.dumps(bench.value, sort_keys=True, default=str), row=index + 1, place=bench.pointer,
    )  # fmt: skip
    if bench.get("type_").text() not in (None, "generative_benchmark"):
        out.unmapped = f"a {plain(str(bench.get('type_').value))} benchmark, not a generative one"
        return out
    config = bench.get("config")
    model_node = config.at("backend", "model")
    if model_node.text() is None:
        model_node = report.at("args" if version == 1 else "config", "model")
    model = model_node.text()
    out.model = FileModel(model, model_node.pointer) if model else None
    _scenario(out, config.get("strategy"))
    _metrics(out, bench.get("metrics"))
    duration = bench.get("duration").number()
    out.workload["description"] = (
        f"GuideLLM benchmark {index} (metadata.version {version}) against {plain(model or 'a model the file does not name')}, "
        f"strategy {plain(str(config.at('strategy', 'type_').value))}"
        f"{f', {duration} s measured' if duration is not None else ''}; the successful requests' figures."
    )[:2000]
    out.unknown += [plain(k, 80) for k in bench.names() if k not in KNOWN_BENCHMARK]
    return out


def drafts(source: str, paths: list[Path]) -> list[RunDraft]:
    """Every benchmark of every report, checked before any record is made."""
    runs: list[RunDraft] = []
    for path in paths:
        _, value = read_value(path)
        report = Node(path, "", value)
        if not isinstance(value, dict) or not isinstance(value.get("benchmarks"), list):
            message = (
                other_tool(value, source) or "not a GuideLLM benchmarks.json: it has no 'benchmarks' list"
            )
            raise SourceError(f"{path}: {message}")
        version = report.at("metadata", "version").value
        if version not in (1, 2):
            raise SourceError(
                f"{path}: /metadata/version: {plain(repr(version))}: GuideLLM reports of metadata.version 1 "
                "(guidellm 0.5 and 0.6) and 2 (0.7 on) are read; an older report (no metadata) is not"
            )
        benchmarks = report.get("benchmarks").items()
        if not benchmarks:
            raise SourceError(f"{path}: /benchmarks: no benchmarks")
        unknown = [plain(k, 80) for k in report.names() if k not in KNOWN_REPORT]
        for index, bench in enumerate(benchmarks):
            run = _benchmark(path, report, bench, version, index)
            run.unknown = unknown + run.unknown
            runs.append(run)
    return runs
