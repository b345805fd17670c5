"""``registry import inference-perf``: the request-lifecycle report of Kubernetes inference-perf
(``stage_<N>_lifecycle_metrics.json``, ``summary_lifecycle_metrics.json``), one record a file.

The writer read, kubernetes-sigs/inference-perf ``inference_perf/reportgen/base.py``
(``summarize_requests``) at v0.2.0 (1ccc48b6bb9c9abb61558b719041fb000b265e59) and v0.6.1
(a40897e6500e4524adf563a91f7c880eb5296e12), where ``successes`` holds ``prompt_len`` and ``output_len``
distributions, and at 7de5ef2ed6f7934e0ecbc8297e593f79e68430c0, where it holds ``prompt_tokens``
(``total``, ``cached``, ``uncached`` and the distribution), ``output_len``, ``output_tokens``,
``goodput_metrics``, the multimodal counts and a top-level ``benchmark_time_seconds``. ``load_summary``
gives a stage's ``requested_rate`` and ``achieved_rate`` (and ``concurrency`` for a stage run at a
concurrency level); ``successes.latency`` the distributions (``mean``, ``min``, ``max``, ``median``,
``p<N>``) of ``request_latency``, ``time_to_first_token``, ``time_per_output_token``,
``inter_token_latency`` and ``normalized_time_per_output_token`` in seconds; ``successes.throughput``
the tokens and requests per second over the stage.

Two latencies are not stated. ``inter_token_latency`` gives every token of a streamed chunk the chunk's
arrival time, so its gaps within a chunk are 0 and its distribution is not one of decode steps. And a
report written before ``successes.output_tokens`` (the server's count, 92a6e60, with the chunk counting
fixed in d8e2275, inference-perf issue #564) divides ``time_per_output_token`` by a client re-count that
a tokenizer adding a BOS to every chunk roughly doubles: its TPOT is not stated either (the demo's
Llama 3.1 8B reports, with 0.48 s requests of 63 tokens after a 33 ms TTFT, give 3.5 ms, half the 7.1 ms
a token those requests took).

The file names neither the model nor the server: give them as options. A summary file pools every stage
of a sweep, so it is one measurement at no single load (its scenario is left unset and its workload says
so).
"""

from __future__ import annotations

import json
from pathlib import Path

from registry.authoring.importers.bench_json import read_value
from registry.authoring.importers.imported import RunDraft, stated
from registry.authoring.importers.mlperf_table import SourceError
from registry.authoring.importers.model_match import plain
from registry.authoring.importers.nodes import Node, add_statistics
from registry.authoring.importers.sniff import identify, other_tool

LATENCIES = {
    "time_to_first_token": "ttft",
    "time_per_output_token": "tpot",
    "request_latency": "e2e_latency",
}
NOT_STATED_LATENCIES = {
    "normalized_time_per_output_token": "request latency over output tokens: no such figure",
    "inter_token_latency": (
        "the gaps between tokens as the client re-counts streamed chunks: the tokens of one chunk share its "
        "arrival time, so the gaps within a chunk are 0 and the distribution is not of decode steps"
    ),
}
BEFORE_SERVER_COUNTS = (
    "written before inference-perf counted output tokens as the server does (successes.output_tokens, "
    "92a6e60 and d8e2275, issue #564): it divided by a client re-count that a tokenizer prepending a BOS "
    "to every streamed chunk (Llama, Gemma, Mistral) roughly doubles"
)
THROUGHPUTS = {
    "requests_per_sec": ("request_throughput", "req/s"),
    "output_tokens_per_sec": ("output_throughput", "tok/s"),
    "input_tokens_per_sec": ("input_throughput", "tok/s"),
    "total_tokens_per_sec": ("total_throughput", "tok/s"),
}
KNOWN_SUCCESSES = {
    "count",
    "latency",
    "throughput",
    "prompt_len",
    "prompt_tokens",
    "output_len",
    "output_tokens",
}
NAMED_SUCCESSES = {
    "goodput_metrics": "its SLOs are the run's configuration, which the file does not hold",
    "token_count_mismatches": "a count of the client's recounting",
    "request_size_bytes": "the request bodies' sizes",
    "image": "multimodal inputs",
    "video": "multimodal inputs",
    "audio": "multimodal inputs",
}
KNOWN_TOP = {"load_summary", "successes", "failures", "benchmark_time_seconds"}


def _load(out: RunDraft, load: Node) -> None:
    rate, concurrency = load.get("requested_rate").number(), load.get("concurrency").count()
    if concurrency:
        out.scenario, out.sweep = "sweep-point", {"parameter": "concurrency", "value": concurrency}
        out.workload["concurrency"] = concurrency
        out.load = f"concurrency level {concurrency}"
    elif rate is not None and rate > 0:
        out.scenario, out.load = "server", stated(rate, "req/s")
        out.workload["request_rate"] = stated(rate, "req/s")
    else:
        out.load = "every stage of the run pooled"


def _lengths(out: RunDraft, successes: Node) -> None:
    prompt = (
        successes.get("prompt_tokens")
        if successes.get("prompt_tokens").value is not None
        else successes.get("prompt_len")
    )
    output = (
        successes.get("output_len")
        if successes.get("output_len").value is not None
        else successes.get("output_tokens")
    )
    for node, field in ((prompt, "input_tokens"), (output, "output_tokens")):
        mean = node.get("mean").number()
        out.workload[field] = int(mean) if mean is not None and mean >= 0 else None
        if mean is not None:
            out.read.append(
                f"{field}: {node.pointer}/mean {mean}{'' if mean == int(mean) else ', rounded down'}."
            )
    out.workload["lengths"] = "mean"
    cached = prompt.get("cached").number()
    if cached:
        out.read.append(f"The server's prefix cache served {cached} prompt tokens ({prompt.pointer}/cached).")


def _figures(out: RunDraft, successes: Node) -> None:
    latency = successes.get("latency")
    counted = successes.get("output_tokens").value is not None
    for key, metric in LATENCIES.items():
        if key == "time_per_output_token" and not counted and latency.get(key).value is not None:
            out.not_stated.append(f"latency/{key} ({BEFORE_SERVER_COUNTS})")
            continue
        add_statistics(out, latency.get(key), metric, "request", "s")
    for key in latency.names():
        if key in NOT_STATED_LATENCIES:
            out.not_stated.append(f"latency/{key} ({NOT_STATED_LATENCIES[key]})")
        elif key not in LATENCIES:
            out.unknown.append(plain(f"successes/latency/{key}", 80))
    throughput = successes.get("throughput")
    for key in throughput.names():
        value = throughput.get(key).number()
        if key in THROUGHPUTS and value is not None:
            metric, unit = THROUGHPUTS[key]
            out.add_metric(metric, "value", "system", value, unit)
        elif key not in THROUGHPUTS and key.endswith("_per_sec"):
            out.not_stated.append(f"throughput/{key} (multimodal inputs)")
        elif key not in THROUGHPUTS:
            out.unknown.append(plain(f"successes/throughput/{key}", 80))


def _draft(path: Path, value: object, source: str) -> RunDraft:
    root = Node(path, "", value)
    out = RunDraft(
        source=source,
        command="inference-perf",
        path=path,
        where=str(path),
        text=json.dumps(value, sort_keys=True, default=str),
    )
    successes = root.get("successes")
    _load(out, root.get("load_summary"))
    _figures(out, successes)
    _lengths(out, successes)
    out.workload["requests"] = successes.get("count").count()
    for key in successes.names():
        if key in NAMED_SUCCESSES:
            out.not_stated.append(f"successes/{key} ({NAMED_SUCCESSES[key]})")
        elif key not in KNOWN_SUCCESSES:
            out.unknown.append(plain(f"successes/{key}", 80))
    out.unknown += [plain(k, 80) for k in root.names() if k not in KNOWN_TOP]
    load = root.get("load_summary")
    failures = root.at("failures", "count").number()
    achieved = load.get("achieved_rate").number()
    pooled = "" if out.scenario else "; a summary pooling every stage of the run, so at no single load"
    out.workload["description"] = (
        f"inference-perf lifecycle metrics {plain(path.name, 120)}{pooled}; achieved rate "
        f"{achieved if achieved is not None else 'not stated'} req/s, failures {failures if failures is not None else 'not stated'}; "
        "the successful requests' figures, latencies in seconds."
    )
    return out


def drafts(source: str, paths: list[Path]) -> list[RunDraft]:
    """One run a report file, checked before any record is made."""
    runs = []
    for path in paths:
        _, value = read_value(path)
        if identify(value) != "inference-perf":
            message = other_tool(value, source) or (
                "not an inference-perf lifecycle report: it lacks load_summary, successes or failures "
                "(a prometheus_metrics report is the server's view and is not read)"
            )
            raise SourceError(f"{path}: {message}")
        assert isinstance(value, dict)
        if not isinstance(value["load_summary"], dict) or "count" not in value["load_summary"]:
            raise SourceError(
                f"{path}: /load_summary: empty: this is inference-perf's prometheus_metrics report (the server's "
                "counters); import the *_lifecycle_metrics.json beside it"
            )
        runs.append(_draft(path, value, source))
    return runs
