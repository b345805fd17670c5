"""``registry import genai-perf``: the summary NVIDIA's genai-perf writes (``profile_export_genai_perf.json``)
and the same summary from its successor AIPerf (``profile_export_aiperf.json``), one record a file.

The writers read: genai-perf's ``genai_perf/export_data/json_exporter.py`` in
triton-inference-server/perf_analyzer, at a186b900ab7fd266f0743cdb8acff6e60ac775f9 (``input_config`` is
the command's arguments: ``model`` a list, ``concurrency``, ``request_rate``, ``backend``) and at
263c5f6e0c7a6c15472a54409174981f67930cfe (``input_config`` is the config file's tree: ``model_names``,
``perf_analyzer.stimulus`` ``{concurrency: N}`` or ``{request_rate: R}``, ``endpoint``); AIPerf's
``aiperf/exporters/json_exporter.py`` and ``aiperf/common/models/export_models.py`` in ai-dynamo/aiperf at
db4f6397d11ee2d4cfbb41f70b2327315163dcf0 (``input_config.endpoint.model_names``,
``input_config.loadgen.concurrency`` and ``request_rate``). Each metric is an object of ``unit``,
``avg``, ``min``, ``max``, ``std`` and percentiles ``p1`` ... ``p99``.

Both tools define ``inter_token_latency`` as (request latency - time to first token) / (output tokens
- 1) of each request (genai-perf's ``llm_profile_data_parser.py``, AIPerf's
``inter_token_latency_metric.py``): that is the time per output token, stated as ``tpot``.
``output_token_throughput_per_user`` is each request's output rate. AIPerf's ``inter_chunk_latency``
(time between streamed chunks, which may carry several tokens) is named, not stated.
"""

from __future__ import annotations

import json
from pathlib import Path

from registry.authoring.importers.bench_json import read_value
from registry.authoring.importers.imported import RunDraft, stated
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.model_match import FileModel, plain
from registry.authoring.importers.nodes import Node, add_statistics
from registry.authoring.importers.sniff import identify, other_tool

UNITS = {
    "ms": "ms",
    "sec": "s",
    "s": "s",
    "requests/sec": "req/s",
    "per sec": "req/s",
    "tokens/sec": "tok/s",
    "tokens/sec/user": "tok/s",
}
SYSTEM_RATES = {
    "request_throughput": "request_throughput",
    "output_token_throughput": "output_throughput",
    "request_goodput": "request_goodput",
    "goodput": "request_goodput",
}
PER_REQUEST = {
    "time_to_first_token": "ttft",
    "inter_token_latency": "tpot",
    "request_latency": "e2e_latency",
    "output_token_throughput_per_user": "output_throughput",
}
NAMED = {
    "time_to_second_token": "no such figure",
    "inter_chunk_latency": "between streamed chunks, which may carry several tokens",
    "input_sequence_length": "read as the mean input length",
    "output_sequence_length": "read as the mean output length",
    "request_count": "read as the requests",
    "benchmark_duration": "quoted in the workload",
    "telemetry_stats": "GPU telemetry, not a figure of the requests",
    "sessions": "per-session figures",
}
SETUP = {"input_config", "was_cancelled", "error_summary", "start_time", "end_time"}
COUNTS = frozenset(
    {"good_request_count", "output_token_count", "reasoning_token_count", "total_output_tokens"}
    | {"total_reasoning_tokens", "total_isl", "total_osl", "error_request_count", "error_isl"}
    | {"total_error_isl", "min_request_timestamp", "max_response_timestamp", "prefill_throughput"}
)
ENGINES = {"vllm": "engines/vllm", "tensorrtllm": "engines/tensorrt-llm", "trtllm": "engines/tensorrt-llm"}
ENGINES |= {"sglang": "engines/sglang"}


def _unit(node: Node) -> str | None:
    unit = node.get("unit").text()
    if unit is None:
        return None
    if unit not in UNITS:
        raise node.get("unit").fail("a unit this importer knows (" + ", ".join(UNITS) + ")")
    return UNITS[unit]


def _load(out: RunDraft, config: Node) -> None:
    stimulus = config.at("perf_analyzer", "stimulus")
    concurrency = (
        config.get("concurrency").count()
        or config.at("loadgen", "concurrency").count()
        or stimulus.get("concurrency").count()
    )
    rate_node = next(
        (
            n
            for n in (
                config.get("request_rate"),
                config.at("loadgen", "request_rate"),
                stimulus.get("request_rate"),
            )
            if n.value is not None
        ),
        None,
    )
    rate = rate_node.number() if rate_node else None
    if rate is not None and rate > 0:
        out.scenario, out.load = "server", stated(rate, "req/s")
        out.workload["request_rate"] = stated(rate, "req/s")
        out.workload["concurrency"] = concurrency
        out.load += f", concurrency {concurrency}" if concurrency else ""
    elif concurrency:
        out.scenario, out.sweep = "sweep-point", {"parameter": "concurrency", "value": concurrency}
        out.workload["concurrency"] = concurrency
        out.load = f"fixed concurrency {concurrency}"


def _model(out: RunDraft, config: Node) -> None:
    for node in (config.get("model"), config.get("model_names"), config.at("endpoint", "model_names")):
        names = node.items() if isinstance(node.value, list) else ([node] if node.value is not None else [])
        if names:
            text = names[0].text()
            out.model = FileModel(text, names[0].pointer) if text else None
            if len(names) > 1:
                out.unmapped = (
                    f"a run of {len(names)} models at once ({node.pointer}); one record is one model"
                )
            return


def _metrics(out: RunDraft, root: Node) -> None:
    for key in root.names():
        node = root.get(key)
        if key in SYSTEM_RATES:
            value, unit = node.get("avg").number(), _unit(node)
            if value is not None and unit:
                out.add_metric(SYSTEM_RATES[key], "value", "system", value, unit)
        elif key in PER_REQUEST:
            unit = _unit(node)
            if unit:
                add_statistics(out, node, PER_REQUEST[key], "request", unit)
        elif key in NAMED:
            if not NAMED[key].startswith(("read", "quoted")):
                out.not_stated.append(f"{key} ({NAMED[key]})")
        elif key in COUNTS:
            out.not_stated.append(f"{key} (a count of the run, not a rate)")
        elif key not in SETUP:
            out.unknown.append(plain(key, 80))
    for key, field in (
        ("input_sequence_length", "input_tokens"),
        ("output_sequence_length", "output_tokens"),
    ):
        mean = root.at(key, "avg").number()
        out.workload[field] = int(mean) if mean is not None and mean >= 0 else None
    out.workload["lengths"] = "mean" if out.workload.get("input_tokens") is not None else None
    out.workload["requests"] = root.at("request_count", "avg").count()


def _engine(out: RunDraft, config: Node) -> None:
    backend = config.get("backend").value or config.at("endpoint", "backend").value
    if isinstance(backend, str) and backend.lower() in ENGINES:
        out.engine, out.engine_why = ENGINES[backend.lower()], f"backend {backend!r}"


def drafts(source: str, paths: list[Path]) -> list[RunDraft]:
    """One run a file, checked before any record is made."""
    runs: list[RunDraft] = []
    for path in paths:
        _, value = read_value(path)
        found = identify(value)
        if found not in ("genai-perf", "aiperf"):
            message = (
                other_tool(value, source)
                or "not a genai-perf or AIPerf summary: it has no 'input_config' object"
            )
            raise SourceError(f"{path}: {message}")
        assert found is not None
        root = Node(path, "", value)
        config = root.get("input_config")
        out = RunDraft(
            source=found,
            command=found,
            path=path,
            where=str(path),
            text=json.dumps(value, sort_keys=True, default=str),
        )
        _model(out, config)
        _engine(out, config)
        _load(out, config)
        _metrics(out, root)
        duration = root.at("benchmark_duration", "avg").number()
        out.workload["description"] = (
            f"{found} against {plain(out.model.text if out.model else 'a model the file does not name')}"
            f"{f', {duration} s' if duration is not None else ''}; mean lengths are the summary's input_sequence_length "
            "and output_sequence_length averages (rounded down)."
        )
        runs.append(out)
    return runs
