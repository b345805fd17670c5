"""One serving-benchmark run (a ``vllm bench serve`` or ``sglang.bench_serving`` result object) as the
fields of a benchmark record (schema version 2).

The files' figures are copied as written, with the unit the writer gives them: the latencies are
milliseconds (the keys end in ``_ms``), the token throughputs tokens per second, the request throughput
requests per second; nothing is converted. What the file does not hold (hardware, count, engine version,
precisions, prefix-cache state, where the result is published) comes from :class:`BenchOptions`; a run
imported without the options a measured record needs is a draft, with those fields left out and a
``TODO`` comment naming each, so that ``registry check`` flags it until a person fills it in.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from registry.authoring.importers.bench_json import TRACE, BenchRun, Number, Trace
from registry.authoring.importers.mlperf_maps import ENGINE_LAYOUTS
from registry.authoring.importers.mlperf_record import slug
from registry.authoring.importers.writing import Planned
from registry.authoring.writer import Todo
from registry.errors import RegistryError
from registry.ids import record_id, record_path

LATENCY_KEY = re.compile(
    r"(mean|median|std|max|min|p[0-9]+(?:\.[0-9]+)?)_(ttft|tpot|itl|e2el|e2e_latency)_ms"
)
"""A latency statistic as both writers name it: ``p99_ttft_ms``, ``median_e2el_ms`` (vLLM),
``mean_e2e_latency_ms`` (SGLang)."""
LATENCY_METRICS = {
    "ttft": "ttft",
    "tpot": "tpot",
    "itl": "itl",
    "e2el": "e2e_latency",
    "e2e_latency": "e2e_latency",
}
STATISTICS = ("mean", "median", "max", "min", "p90", "p95", "p99", "p99.9")
"""The statistics a record states; a standard deviation or another percentile is named in a comment."""


@dataclass(frozen=True)
class BenchOptions:
    """What the command line says of the run beyond its file."""

    model: str
    hardware: str | None = None
    count: int | None = None
    engine: str | None = None
    engine_version: str | None = None
    weights: str | None = None
    kv_cache: str | None = None
    prefix_cache: str | None = None
    scenario: str | None = None
    context: int | None = None
    record_id: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class Tool:
    """One engine's benchmark writer: its source name, its command, the keys it always writes, its
    throughput keys (metric, unit, statistic) and the engine its client backends stand for."""

    source: str
    command: str
    required: tuple[str, ...]
    throughputs: dict[str, tuple[str, str, str]]
    model_key: str
    engines: dict[str, str]
    default_engine: str | None


def _stated(value: Number, unit: str) -> str:
    text = str(value)
    return f"{format(value, 'f') if isinstance(value, Decimal) and 'E' in text else text} {unit}"


def metrics(run: BenchRun, tool: Tool) -> tuple[list[dict[str, Any]], list[str]]:
    """The run's figures as metrics, and the keys of the statistics a record cannot state."""
    found: list[dict[str, Any]] = []
    for key, (metric, unit, statistic) in tool.throughputs.items():
        value = run.number(key)
        if value is not None:
            found.append(
                {"metric": metric, "statistic": statistic, "per": "system", "stated": _stated(value, unit)}
            )
    left: list[str] = []
    for key in run.values:
        match = LATENCY_KEY.fullmatch(key)
        value = run.number(key) if match else None
        if match is None or value is None:
            continue
        statistic = match.group(1)
        if statistic not in STATISTICS:
            left.append(key)
            continue
        metric = LATENCY_METRICS[match.group(2)]
        found.append(
            {"metric": metric, "statistic": statistic, "per": "request", "stated": _stated(value, "ms")}
        )
    return found, left


_TOTALS = (
    "total_input_tokens",
    "total_output_tokens",
    "failed",
    "duration",
    "max_concurrent_requests",
)
"""What the description quotes of a run's own counts: ``max_concurrent_requests`` is the peak number of
requests in flight, which SGLang's newer writer records."""


def workload(run: BenchRun, tool: Tool) -> dict[str, Any]:
    """The requests the run served: the dataset, its lengths where the file states them, the count,
    the concurrency cap and the offered rate (none for a replayed trace, which the description says)."""
    fields: dict[str, Any] = {}
    dataset = run.text_of("dataset_name")
    rate = run.rate("request_rate")
    totals = [(key, run.number(key)) for key in _TOTALS]
    said = ", ".join(f"{key} {value}" for key, value in totals if value is not None)
    replayed = "; requests sent at the times the dataset's trace gives (request_rate trace)"
    fields["description"] = (
        f"{tool.command} against {run.text_of(tool.model_key) or 'a model the file does not name'} "
        f"(client backend {run.text_of('backend')!r}){replayed if rate == TRACE else ''}; "
        f"the run's own counts: {said or 'not stated'}."
    )
    if dataset:
        fields["dataset"] = dataset
    if dataset and dataset.startswith("random"):
        fields["input_tokens"] = run.count("random_input_len")
        fields["output_tokens"] = run.count("random_output_len")
        ratio = run.number("random_range_ratio")
        if ratio is not None:  # lengths drawn uniformly from [ratio x length, length]
            fields["lengths"] = "fixed" if ratio == 1 else "max"
            fields["distribution"] = f"uniform, random_range_ratio {ratio}"
    elif dataset == "sharegpt" and run.count("sharegpt_output_len") is not None:
        fields["output_tokens"] = run.count("sharegpt_output_len")
        fields["lengths"] = "fixed"
    completed = run.count("completed")
    if completed is not None:
        fields["requests"] = completed
    concurrency = run.count("max_concurrency")
    if concurrency is not None:
        fields["concurrency"] = concurrency
    if rate is not None and rate != TRACE:
        fields["request_rate"] = _stated(rate, "req/s")
    return {key: value for key, value in fields.items() if value is not None}


def default_id(run: BenchRun, tool: Tool) -> str:
    """An id made of the file's name and a digest of the result's text, so the same run keeps its id."""
    digest = hashlib.sha256(run.text.encode()).hexdigest()[:8]
    stem = slug(run.path.stem)[:60].strip("-._") or "run"
    return f"benchmarks/{tool.source}-{stem}-{digest}"


def existing(root: Path, text: str, collection: str) -> str:
    """The id ``text`` names in ``collection``, whose record must exist."""
    wanted = record_id(text, collection)
    if not record_path(root, wanted).is_file():
        raise RegistryError(f"{wanted}: no such record in this registry")
    return wanted


def scenario(run: BenchRun, options: BenchOptions) -> str:
    """The option's scenario, else ``server`` for a finite request rate (arrivals at that rate) or a
    replayed trace (arrivals at the trace's times), and ``offline`` for an infinite rate (every request
    sent at once)."""
    if options.scenario:
        return options.scenario
    return "offline" if run.rate("request_rate") is None else "server"


_TODO = {
    "hardware": "TODO: hardware and hardware_count: the accelerator and how many ran the server (--hardware, --count)",
    "engine": "TODO: engine: the engine record that served the run (--engine)",
    "engine_version": "TODO: engine_version: the server's version (--engine-version)",
    "prefix_cache": "TODO: prefix_cache: none, cold or warm, as the server ran (--prefix-cache)",
}


def map_run(root: Path, run: BenchRun, tool: Tool, options: BenchOptions, rid: str) -> Planned:
    """The record of one run; what the options do not give is left out with a ``TODO`` comment."""
    model = existing(root, options.model, "models")
    hardware = existing(root, options.hardware, "hardware") if options.hardware else None
    backend = run.text_of("backend") or ""
    default = tool.engines.get(backend, tool.default_engine)
    if options.engine:
        engine: str | None = existing(root, options.engine, "engines")
    else:  # the backend's engine, when this registry has its record; else a TODO
        engine = default if default and record_path(root, default).is_file() else None
    figures, left = metrics(run, tool)
    fields: dict[str, Any] = {
        "schema_version": 2,
        "id": rid,
        "kind": "benchmark",
        "title": _title(run, tool, model),
        "evidence": "measured",
        "model": model,
    }
    fields |= {"engine": engine} if engine else {}
    fields |= {"engine_version": options.engine_version} if options.engine_version else {}
    fields["layout"] = ENGINE_LAYOUTS.get(engine or default or "", "ideal")
    fields |= {"hardware": hardware, "hardware_count": options.count} if hardware else {}
    fields["precision"] = {"weights": options.weights, "kv_cache": options.kv_cache}
    fields |= {"context_tokens": options.context} if options.context else {}
    fields |= {"prefix_cache": options.prefix_cache} if options.prefix_cache else {}
    fields["workload"] = workload(run, tool)
    fields["scenario"] = scenario(run, options)
    fields["metrics"] = figures
    fields["provenance"] = {"source": tool.source, "file": run.path.name} | (
        {"row": run.line} if run.line else {}
    )
    citation = {"title": f"{tool.command} result {run.path.name}", "file": run.path.name}
    fields["sources"] = (
        [{"url": options.url} | citation]
        if options.url
        else Todo("where the result file is published (--url)", [])
    )
    fields["related"] = [model, *([hardware] if hardware else []), *([engine] if engine else [])]
    fields["tags"] = [tool.source]
    missing = [_TODO[name] for name in _TODO if name not in fields]
    comments: dict[str, tuple[str, ...]] = {
        "workload": () if options.context else _CONTEXT_NOTE,
        "precision": ("As given on the command line (--weights, --kv-cache); null where not given.",),
        "metrics": tuple(missing)
        + ((f"Not stated here: {', '.join(left)} (no such statistic).",) if left else ()),
    }
    if missing:
        comments["evidence"] = ("evidence: architectural | measured | source-reported | derived",)
    draft = bool(missing) or not options.url
    return Planned(rid, fields, {key: lines for key, lines in comments.items() if lines}, draft)


_CONTEXT_NOTE = ("No context_tokens: the result file states none (give it with --context).",)


def _offered(rate: Number | Trace) -> str:
    return "arrivals as traced" if rate == TRACE else _stated(rate, "req/s")


def _title(run: BenchRun, tool: Tool, model: str) -> str:
    rate = run.rate("request_rate")
    load = "all requests at once" if rate is None else _offered(rate)
    concurrency = run.count("max_concurrency")
    cap = f", concurrency {concurrency}" if concurrency else ""
    return f"{tool.command}: {model}, {load}{cap}"[:300]
