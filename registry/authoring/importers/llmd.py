"""``registry import llm-d``: an llm-d Benchmark Report v0.2 (JSON, or YAML as llm-d-benchmark writes
it), one record a report, checked first against what its schema requires
(:mod:`registry.authoring.importers.llmd_schema`).

What a report becomes: the model is the inference engines' ``model.name``; the accelerators are each
engine component's ``accelerator.count`` (its ``tp * dp_local``, as llm-d-benchmark's
``native_to_br0_2.py`` at d4c78228d326b626c912dae0708f2597cdb760b6 fills it) times its ``replicas``,
summed, and a prefill and a decode role make the run disaggregated; the accelerator model maps to a
hardware record by :data:`~registry.authoring.importers.hardware_names.PRODUCT_LABELS`. The engine is
the component's ``tool`` (``vllm``, ``sglang``; ``llm-d``, whose images serve with vLLM, is vLLM). The
load's ``rate_qps`` is a server run's rate, a finite ``concurrency`` with no rate a point of a
concurrency sweep. ``results.request_performance.aggregate`` gives the figures in the units each
``Statistics`` names (``s``, ``ms``, ``s/token``, ``tokens/s``, ``queries/s``), and the mean input and
output lengths.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from registry.authoring.importers.bench_json import MAX_BYTES, read_value
from registry.authoring.importers.hardware_names import PRODUCT_LABELS
from registry.authoring.importers.imported import RunDraft, stated
from registry.authoring.importers.llmd_schema import check
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.model_match import FileModel, plain
from registry.authoring.importers.nodes import Node, add_statistics
from registry.authoring.importers.sniff import identify, other_tool
from registry.checker.builder import EventBuilder, Refused
from registry.checker.load import load_text
from registry.checker.yaml_rules import resolve_plain
from registry.reading import read_regular

UNITS = {"s": "s", "ms": "ms", "s/token": "s", "ms/token": "ms", "tokens/s": "tok/s", "queries/s": "req/s"}
LATENCIES = {
    "time_to_first_token": "ttft",
    "time_per_output_token": "tpot",
    "inter_token_latency": "itl",
    "request_latency": "e2e_latency",
}
THROUGHPUTS = {
    "output_token_rate": "output_throughput",
    "input_token_rate": "input_throughput",
    "total_token_rate": "total_throughput",
    "request_rate": "request_throughput",
}
ENGINES = {"vllm": "engines/vllm", "llm-d": "engines/vllm", "sglang": "engines/sglang"}


def _stack(out: RunDraft, scenario: Node) -> None:
    engines = [
        c.get("standardized")
        for c in scenario.get("stack").items()
        if c.at("standardized", "kind").value == "inference_engine"
    ]
    if not engines:
        return
    models = {e.at("model", "name").value for e in engines}
    if len(models) > 1:
        out.unmapped = f"the stack serves {len(models)} models ({', '.join(sorted(map(str, models)))}); one record is one model"
        return
    out.model = FileModel(engines[0].at("model", "name").value, engines[0].at("model", "name").pointer)
    tools = {e.get("tool").value for e in engines}
    tool = next(iter(tools)) if len(tools) == 1 else None
    if isinstance(tool, str) and tool.lower() in ENGINES:
        out.engine, out.engine_why = ENGINES[tool.lower()], f"inference engine tool {tool!r}"
    out.engine_version = plain(engines[0].get("tool_version").value, 80) if len(tools) == 1 else None
    labels = {e.at("accelerator", "model").value for e in engines}
    label = next(iter(labels)) if len(labels) == 1 else None
    if isinstance(label, str) and label in PRODUCT_LABELS:
        out.hardware, out.hardware_why = PRODUCT_LABELS[label], f"accelerator.model {label!r}"
    elif label is not None:
        out.read.append(
            f"Hardware not mapped: accelerator.model {plain(str(label))!r} names no one part here (give --hardware)."
        )
    pools: dict[str, int] = {}
    for engine in engines:
        count = engine.at("accelerator", "count").value * engine.get("replicas").value
        pools[engine.get("role").value] = pools.get(engine.get("role").value, 0) + count
    out.count = sum(pools.values()) or None
    by_role = ", ".join(f"{role} {count}" for role, count in pools.items())
    out.read.append(
        f"Accelerators: accelerator.count x replicas of the inference engines, by role: {by_role}."
    )
    if "prefill" in pools and "decode" in pools:
        out.disaggregation = {
            "prefill_accelerators": pools["prefill"],
            "decode_accelerators": pools["decode"],
        }
    first = engines[0].at("accelerator", "parallelism")
    for key, part in (("tp", "tensor"), ("pp", "pipeline"), ("ep", "expert")):
        value = first.get(key).value
        if len(engines) == 1 and isinstance(value, int) and value >= 1:
            out.parallelism[part] = value


def _load(out: RunDraft, scenario: Node) -> None:
    load = scenario.at("load", "standardized")
    rate, concurrency = load.get("rate_qps").number(), load.get("concurrency").value
    cap = (
        concurrency
        if isinstance(concurrency, int) and not isinstance(concurrency, bool) and concurrency >= 1
        else None
    )
    if rate is not None and rate > 0:
        out.scenario, out.load = "server", stated(rate, "req/s") + (f", concurrency {cap}" if cap else "")
        out.workload["request_rate"], out.workload["concurrency"] = stated(rate, "req/s"), cap
    elif cap:
        out.scenario, out.sweep = "sweep-point", {"parameter": "concurrency", "value": cap}
        out.workload["concurrency"], out.load = cap, f"fixed concurrency {cap}"
    tool = load.get("tool").value
    out.workload["description"] = (
        f"llm-d Benchmark Report v0.2; load generator {plain(str(tool))} {plain(str(load.get('tool_version').value), 40)}, "
        f"stage {load.get('stage').value if load.get('stage').value is not None else 0}."
    )


def _figures(out: RunDraft, aggregate: Node) -> None:
    for key, metric in LATENCIES.items():
        node = aggregate.at("latency", key)
        if node.value is not None:
            add_statistics(out, node, metric, "request", UNITS[node.get("units").value])
    if aggregate.at("latency", "normalized_time_per_output_token").value is not None:
        out.not_stated.append(
            "latency/normalized_time_per_output_token (request latency over output tokens: no such figure)"
        )
    for key, metric in THROUGHPUTS.items():
        node = aggregate.at("throughput", key)
        unit = UNITS.get(node.get("units").value or "")
        if node.value is not None and unit in ("tok/s", "req/s"):
            out.add_metric(metric, "value", "system", node.get("mean").number() or 0, unit)
    requests = aggregate.get("requests")
    out.workload["requests"] = requests.get("total").value or None
    for key, field in (("input_length", "input_tokens"), ("output_length", "output_tokens")):
        mean = requests.at(key, "mean").number()
        out.workload[field] = int(mean) if mean is not None and mean >= 0 else None
    out.workload["lengths"] = "mean"


def _report(path: Path, value: Any, source: str) -> RunDraft:
    report = Node(path, "", value)
    check(report)
    out = RunDraft(
        source=source,
        command="llm-d-benchmark",
        path=path,
        where=str(path),
        text=json.dumps(value, sort_keys=True, default=str),
    )
    _stack(out, report.get("scenario"))
    _load(out, report.get("scenario"))
    aggregate = report.at("results", "request_performance", "aggregate")
    if aggregate.value is None:
        raise SourceError(
            f"{path}: /results/request_performance/aggregate: absent: the report states no figures"
        )
    _figures(out, aggregate)
    for key in report.get("results").names():
        if key != "request_performance":
            out.not_stated.append(f"results/{key} (not a figure of the requests)")
    return out


class _ReportBuilder(EventBuilder):
    """The records' YAML builder, but ``.inf`` and ``.nan`` stay numbers: a report may say so
    (llm-d-benchmark's own ``br_v0_2_example.yaml`` writes ``concurrency: .inf``), and the importer
    reads no such value as a figure."""

    def scalar(self, event: Any, pointer: str) -> Any:
        try:
            return super().scalar(event, pointer)
        except Refused:
            value = resolve_plain(event.value) if _NON_FINITE.fullmatch(event.value) else None
            if isinstance(value, float) and not math.isfinite(value):
                return value
            raise


_NON_FINITE = re.compile(r"[-+]?\.(inf|Inf|INF|nan|NaN|NAN)")


def _read(path: Path) -> Any:
    """A report as JSON, or as YAML (llm-d-benchmark writes both) with the registry's safe loader."""
    if path.suffix.lower() not in (".yaml", ".yml"):
        return read_value(path)[1]
    try:
        text = read_regular(path, MAX_BYTES).decode("utf-8")
    except UnicodeDecodeError as error:
        raise SourceError(f"{path}: not UTF-8 text (byte {error.start})") from None
    loaded = load_text(str(path), text, builder_class=_ReportBuilder)
    if loaded.document is None:
        first = loaded.diagnostics[0]
        raise SourceError(f"{path}:{first.line}:{first.column}: not YAML: {first.message}")
    return loaded.document.data


def drafts(source: str, paths: list[Path]) -> list[RunDraft]:
    runs = []
    for path in paths:
        value = _read(path)
        if identify(value) != "llm-d":
            message = (
                other_tool(value, source) or "not an llm-d Benchmark Report: it lacks version, run or results"
            )
            raise SourceError(f"{path}: {message}")
        if value["version"] != "0.2":
            raise SourceError(
                f"{path}: /version: {plain(repr(value['version']))}: only Benchmark Report v0.2 is read"
            )
        runs.append(_report(path, value, source))
    return runs
