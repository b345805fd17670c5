"""The llm-d Benchmark Report v0.2, checked against what its published JSON Schema requires, with our
own code: llm-d/llm-d-benchmark ``llmdbenchmark/analysis/benchmark_report/br_v0_2_json_schema.json`` at
f0dd0ba6ad5c2e44b0e1e5952fa8673089601084.

Checked: the report is an object of ``version``, ``run``, ``scenario`` and ``results`` only, with
``run`` (its ``uid`` a string) and ``results`` present; every object the schema closes
(``additionalProperties: false``) on the way to the figures holds only the keys it names; a
``Statistics`` object has its ``units`` (one of the schema's ``Units``) and a numeric ``mean``, its other
statistics numbers or null; ``requests.total`` is an integer; each ``scenario.stack`` component has its
``metadata`` (``label``, ``cfg_id``), ``standardized`` and ``native``, and an ``inference_engine``
component its ``tool``, ``tool_version``, ``role`` (replica, prefill or decode), ``replicas`` (at least
1), ``model.name`` and ``accelerator`` (``model``, ``count`` at least 0, ``parallelism``); the load its
``metadata``, ``standardized`` (``tool``, ``tool_version``, ``source``, ``input_seq_len`` with its
``distribution`` and ``value``) and ``native``. A report that breaks one is refused at the JSON pointer
of the value, saying what the schema wants there.

One key beyond the schema file is accepted: ``results.session_performance``, which llm-d-benchmark's own
v0.2 model (``schema_v0_2.py``) and writer (``native_to_br0_2.py``) at
8bc9f1ddd873a24f1657d6cca2e0d0fb6947dd36 write, and its ``br_v0_2_example.yaml`` holds, while the JSON
Schema file (last changed at f0dd0ba6) does not list it: a report the tool writes is not refused for it.
"""

from __future__ import annotations

from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.nodes import Node

SCHEMA = (
    "llm-d/llm-d-benchmark llmdbenchmark/analysis/benchmark_report/br_v0_2_json_schema.json at "
    "f0dd0ba6ad5c2e44b0e1e5952fa8673089601084"
)
UNITS = frozenset(
    {"count", "percent", "fraction", "ms", "s", "MB", "GB", "TB", "MiB", "GiB", "TiB", "Mbit/s", "Gbit/s"}
    | {"Tbit/s", "GiB/s", "MB/s", "GB/s", "TB/s", "ms/token", "s/token", "tokens/s", "queries/s", "Watts"}
)
STATISTIC_KEYS = frozenset(
    {"mean", "mode", "stddev", "min", "p0p1", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95"}
    | {"p99", "p99p9", "max"}
)
CLOSED = {
    "": {"version", "run", "scenario", "results"},
    "run": {"uid", "eid", "cid", "pid", "time", "user", "description", "keywords"},
    "scenario": {"stack", "load"},
    "results": {"request_performance", "session_performance", "observability", "profiling", "component_health"},
    "request_performance": {"aggregate", "time_series"},
    "aggregate": {"requests", "latency", "throughput"},
    "requests": {"total", "failures", "incomplete", "input_length", "output_length"},
    "latency": {
        "time_to_first_token", "normalized_time_per_output_token", "time_per_output_token",
        "inter_token_latency", "request_latency",
    },
    "throughput": {"input_token_rate", "output_token_rate", "total_token_rate", "request_rate"},
    "component": {"metadata", "standardized", "native"},
    "engine": {"kind", "tool", "tool_version", "role", "replicas", "model", "accelerator"},
    "accelerator": {"model", "count", "parallelism"},
    "parallelism": {"tp", "dp", "dp_local", "workers", "ep", "pp"},
    "load_standardized": {
        "tool", "tool_version", "parallelism", "source", "stage", "input_seq_len", "output_seq_len",
        "prefix", "multi_turn", "rate_qps", "concurrency",
    },
}  # fmt: skip


def _object(node: Node, closed: str | None = None, required: tuple[str, ...] = ()) -> None:
    if not isinstance(node.value, dict):
        raise node.fail(f"an object ({SCHEMA})")
    if closed is not None:
        extra = sorted(set(node.value) - CLOSED[closed])
        if extra:
            raise node.get(extra[0]).fail(
                f"a key the schema allows here: {', '.join(sorted(CLOSED[closed]))} ({SCHEMA})"
            )
    for key in required:
        if node.value.get(key) is None:
            raise SourceError(f"{node.get(key).where}: absent, and the schema requires it ({SCHEMA})")


def _string(node: Node) -> None:
    if not isinstance(node.value, str):
        raise node.fail(f"a string ({SCHEMA})")


def _integer(node: Node, least: int) -> None:
    if isinstance(node.value, bool) or not isinstance(node.value, int) or node.value < least:
        raise node.fail(f"an integer of at least {least} ({SCHEMA})")


def statistics(node: Node) -> None:
    """A ``Statistics`` object: its ``units`` and ``mean``, the rest numbers or null."""
    _object(node, None, ("units", "mean"))
    units = node.get("units").value
    if not isinstance(units, str) or units not in UNITS:  # a list or an object is no unit (nor hashable)
        raise node.get("units").fail(f"one of the schema's Units ({SCHEMA})")
    if node.get("mean").number() is None:
        raise node.get("mean").fail(f"a number ({SCHEMA})")
    for key in node.names():
        if key in STATISTIC_KEYS:
            node.get(key).number()


def _engine(node: Node) -> None:
    _object(node, "engine", ("kind", "tool", "tool_version", "role", "replicas", "model", "accelerator"))
    _string(node.get("tool"))
    _string(node.get("tool_version"))
    if node.get("role").value not in ("replica", "prefill", "decode"):
        raise node.get("role").fail(f"replica, prefill or decode ({SCHEMA})")
    _integer(node.get("replicas"), 1)
    _object(node.get("model"), None, ("name",))
    _string(node.at("model", "name"))
    accelerator = node.get("accelerator")
    _object(accelerator, "accelerator", ("model", "count", "parallelism"))
    _string(accelerator.get("model"))
    _integer(accelerator.get("count"), 0)
    _object(accelerator.get("parallelism"), "parallelism")
    for key in accelerator.get("parallelism").names():
        _integer(accelerator.at("parallelism", key), 0)


def _scenario(node: Node) -> None:
    if node.value is None:
        return
    _object(node, "scenario")
    for component in node.get("stack").items():
        _object(component, "component", ("metadata", "standardized", "native"))
        _object(component.get("metadata"), None, ("label", "cfg_id"))
        standardized = component.get("standardized")
        _object(standardized, None, ("kind", "tool", "tool_version"))
        if standardized.get("kind").value == "inference_engine":
            _engine(standardized)
        elif standardized.get("kind").value != "generic":
            raise standardized.get("kind").fail(f"inference_engine or generic ({SCHEMA})")
    load = node.get("load")
    if load.value is not None:
        _object(load, None, ("metadata", "standardized", "native"))
        standardized = load.get("standardized")
        _object(standardized, "load_standardized", ("tool", "tool_version", "source", "input_seq_len"))
        if standardized.get("source").value not in ("random", "sampled", "unknown"):
            raise standardized.get("source").fail(f"random, sampled or unknown ({SCHEMA})")
        _object(standardized.get("input_seq_len"), None, ("distribution", "value"))


def check(report: Node) -> None:
    """Refuse the report where it breaks what the v0.2 schema requires."""
    _object(report, "", ("run", "results"))
    _object(report.get("run"), "run", ("uid",))
    _string(report.at("run", "uid"))
    _scenario(report.get("scenario"))
    results = report.get("results")
    _object(results, "results")
    performance = results.get("request_performance")
    if performance.value is None:
        return
    _object(performance, "request_performance")
    aggregate = performance.get("aggregate")
    if aggregate.value is None:
        return
    _object(aggregate, "aggregate")
    for group in ("requests", "latency", "throughput"):
        part = aggregate.get(group)
        if part.value is None:
            continue
        _object(part, group, ("total",) if group == "requests" else ())
        for key in part.names():
            if key == "total" or (key in ("failures", "incomplete") and part.get(key).value is not None):
                _integer(part.get(key), 0)
            elif part.get(key).value is not None:
                statistics(part.get(key))
