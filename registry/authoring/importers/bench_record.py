"""One serving-benchmark run (a ``vllm bench serve`` or SGLang result object, of any generation
:mod:`registry.authoring.importers.bench_keys` lists) as a :class:`RunDraft`.

The figures are copied as written, with the unit the writer gives them: the latencies milliseconds (the
keys end in ``_ms``), the token throughputs tokens per second, the request rates requests per second;
nothing is converted. The workload's input and output lengths are the file's own means
(``total_input_tokens / completed``, ``total_output_tokens / completed``); they are every request's
(``lengths: fixed``) only when the dataset fixes them (SGLang's random dataset at
``random_range_ratio`` 1) and the means equal them. A run at a fixed concurrency (``max_concurrency``
set, ``request_rate`` inf: the client keeps that many requests in flight) is a point of a load sweep on
concurrency (``scenario: sweep-point``, ``sweep.parameter: concurrency``), not an offline run, which is
every request sent at once with no cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from registry.authoring.importers import bench_keys as keys
from registry.authoring.importers.bench_json import TRACE, BenchRun
from registry.authoring.importers.imported import BenchOptions, RunDraft, stated
from registry.authoring.importers.model_match import FileModel, plain

__all__ = ["BenchOptions", "Tool", "draft"]


@dataclass(frozen=True)
class Tool:
    """One engine's benchmark writer: its source name, its command, the keys it always writes and the
    engine a run is served by when neither a ``framework`` key nor the client backend names one."""

    source: str
    command: str
    required: tuple[str, ...]
    default_engine: str | None


def _figures(run: BenchRun, out: RunDraft) -> set[str]:
    """The run's figures as metrics; the keys taken."""
    taken: set[str] = set()
    for key, (metric, unit) in keys.THROUGHPUTS.items():
        value = run.number(key) if key in run.values else None
        if value is not None:
            out.add_metric(metric, "value", "system", value, unit)
            taken.add(key)
        elif key in run.values:
            out.not_stated.append(f"{plain(key)} (null)")
            taken.add(key)
    peak, mean = run.number(keys.PEAK_OUTPUT), run.number("output_throughput")
    if peak is not None and (mean is None or peak >= mean):
        out.add_metric("output_throughput", "max", "system", peak, "tok/s")
    elif peak is not None:
        out.not_stated.append(
            f"{keys.PEAK_OUTPUT} {peak} (below output_throughput {mean}: the writer counts a token in the "
            "second its inter-token latency places it, and a run whose client saw no inter-token latencies "
            "counts only first tokens, so it is no peak of the output rate)"
        )
    taken.add(keys.PEAK_OUTPUT)
    for key in run.values:
        match = keys.LATENCY_KEY.fullmatch(key)
        if match is None:
            continue
        taken.add(key)
        value = run.number(key)
        statistic = keys.STATISTICS.get(match.group(1))
        if value is None:
            out.not_stated.append(f"{key} (null)")
        elif statistic is None:
            out.not_stated.append(f"{key} (no such statistic)")
        elif match.group(1) == "p50" and f"median_{match.group(2)}_ms" in run.values:
            out.not_stated.append(f"{key} (the median is stated)")
        else:
            out.add_metric(keys.LATENCY_METRICS[match.group(2)], statistic, "request", value, "ms")
    return taken


def _means(run: BenchRun) -> tuple[int | None, int | None, list[str]]:
    """The mean input and output lengths from the file's totals, rounded down where not whole (which
    keeps every bound computed from them a bound), and what the workload says of them."""
    completed = run.count("completed")
    lengths: list[int | None] = []
    said: list[str] = []
    for key in ("total_input_tokens", "total_output_tokens"):
        total = run.number(key)
        if completed is None or not isinstance(total, int) or total < 0:
            lengths.append(None)
            continue
        mean, left = divmod(total, completed)
        lengths.append(mean)
        exact = "" if left == 0 else f" = {Decimal(total) / completed:.2f}, rounded down"
        said.append(f"{key} {total} / completed {completed}{exact}")
    return lengths[0], lengths[1], said


def _workload(run: BenchRun, out: RunDraft) -> None:
    fields: dict[str, Any] = {}
    dataset = run.text_of("dataset_name")
    mean_in, mean_out, said = _means(run)
    fields["dataset"] = plain(dataset, 80) if dataset else None
    fields["input_tokens"], fields["output_tokens"] = mean_in, mean_out
    fields["lengths"] = "mean" if mean_in is not None or mean_out is not None else None
    if dataset and dataset.startswith("random"):
        wanted = (run.count("random_input_len"), run.count("random_output_len"))
        ratio = run.number("random_range_ratio")
        fields["distribution"] = (
            f"{plain(dataset, 40)}: random_input_len {wanted[0]}, random_output_len {wanted[1]}, random_range_ratio {ratio}"
        )
        if ratio == 1 and wanted == (mean_in, mean_out):
            fields["lengths"] = "fixed"
    elif dataset == "sharegpt" and run.count("sharegpt_output_len") is not None:
        fields["distribution"] = f"sharegpt, sharegpt_output_len {run.count('sharegpt_output_len')}"
    fields["requests"] = run.count("completed")
    fields["concurrency"] = run.count("max_concurrency")
    rate = run.rate("request_rate")
    if rate is not None and rate != TRACE:
        fields["request_rate"] = stated(rate, "req/s")
    counts = [
        f"{key} {run.number(key)}"
        for key in ("duration", "failed", "concurrency", "max_concurrent_requests")
        if run.number(key) is not None
    ]
    replayed = (
        "; requests sent at the times the dataset's trace gives (request_rate trace)" if rate == TRACE else ""
    )
    model = out.model.text if out.model else "a model the file does not name"
    fields["description"] = (
        f"{out.command} against {plain(model)} (client backend {plain(run.text_of('backend') or '')!r}){replayed}; "
        f"mean lengths from the file's totals: {', '.join(said) or 'not stated'}; the run's own counts "
        f"(concurrency is the mean requests in flight, max_concurrent_requests the peak): {', '.join(counts) or 'not stated'}."
    )[:2000]
    out.workload = fields


def _load(run: BenchRun, out: RunDraft) -> None:
    """The scenario, the sweep point and the title's words for how load was offered."""
    rate, cap = run.rate("request_rate"), run.count("max_concurrency")
    capped = f", concurrency {cap}" if cap else ""
    if rate is None and cap:
        out.scenario, out.sweep = "sweep-point", {"parameter": "concurrency", "value": cap}
        out.load = f"fixed concurrency {cap}"
    elif rate is None:
        out.scenario, out.load = "offline", "all requests at once"
    else:
        out.scenario = "server"
        out.load = ("arrivals as traced" if rate == TRACE else stated(rate, "req/s")) + capped


def _engine(run: BenchRun, tool: Tool, out: RunDraft) -> None:
    framework = run.text_of("framework")
    backend = run.text_of("backend") or ""
    if framework is not None:
        out.engine = keys.ENGINES.get(framework.lower())
        out.engine_why = f"framework {plain(framework)!r}"
        if out.engine is None:
            out.not_stated.append(f"framework {plain(framework)!r} (no engine record it names)")
    elif backend in keys.SGLANG_BACKENDS and tool.source == "sglang-bench":
        out.engine, out.engine_why = "engines/sglang", f"client backend {backend!r}"
    elif backend in keys.VLLM_BACKENDS and tool.source == "sglang-bench":
        out.engine, out.engine_why = "engines/vllm", f"client backend {backend!r}"
    elif backend == "sglang" and tool.source == "vllm-bench":
        out.engine, out.engine_why = "engines/sglang", "client backend 'sglang'"
    else:
        out.engine, out.engine_why = tool.default_engine, tool.command


def _spec_vllm(run: BenchRun, out: RunDraft) -> None:
    drafts, drafted = run.count("spec_decode_num_drafts"), run.count("spec_decode_draft_tokens")
    length = run.number("spec_decode_acceptance_length")
    if drafts is None and length is None:
        return
    speculative: dict[str, Any] = {}
    if drafts and drafted and drafted % drafts == 0:
        speculative["draft_tokens"] = drafted // drafts
        out.read.append(
            f"draft_tokens: spec_decode_draft_tokens {drafted} / spec_decode_num_drafts {drafts}."
        )
    elif drafts and drafted:
        out.read.append(
            f"No draft_tokens: spec_decode_draft_tokens {drafted} over spec_decode_num_drafts {drafts} is no "
            "whole number of tokens a step."
        )
    if length is not None and length >= 1:
        speculative["acceptance_length"] = float(length)
    out.speculative = speculative


def _server_info(run: BenchRun, out: RunDraft) -> None:
    """SGLang's ``server_info`` (a disaggregated server's decode side): model, parallelism, version,
    KV format and speculative decoding."""
    info = run.values.get("server_info")
    if isinstance(info, dict) and isinstance(info.get("decode"), list) and info["decode"]:
        info = info["decode"][0]
        out.read.append("server_info: a disaggregated server's; its decode side read.")
    if not isinstance(info, dict):
        return
    path = info.get("model_path")
    if isinstance(path, str) and path:
        out.model = FileModel(path, "/server_info/model_path")
    for name, part in (
        ("tp_size", "tensor"),
        ("dp_size", "data"),
        ("pp_size", "pipeline"),
        ("ep_size", "expert"),
    ):
        value = info.get(name)
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 1_000_000:
            out.parallelism[part] = value
    version = info.get("version")
    if isinstance(version, str) and version:
        out.engine_version = plain(version, 80)
    kv = info.get("kv_cache_dtype")
    if isinstance(kv, str) and kv in keys.KV_DTYPES:
        out.precision["kv_cache"] = keys.KV_DTYPES[kv]
    read = [name for name in keys.SERVER_INFO if info.get(name) is not None]
    out.read.append(
        f"From server_info: {', '.join(read) or 'nothing'} (its other keys are the server's other arguments)."
    )
    algorithm = info.get("speculative_algorithm")
    if isinstance(algorithm, str) and algorithm:
        speculative: dict[str, Any] = {"method": plain(algorithm, 40).lower()}
        tokens, steps = info.get("speculative_num_draft_tokens"), info.get("speculative_num_steps")
        if isinstance(tokens, int) and tokens >= 2:
            speculative["draft_tokens"] = tokens - 1
            out.read.append(
                f"draft_tokens: speculative_num_draft_tokens {tokens} - 1, the tokens a step verifies beyond its first."
            )
        elif isinstance(steps, int) and steps >= 1:
            speculative["draft_tokens"] = steps
        model = info.get("speculative_draft_model_path")
        if isinstance(model, str) and model:
            speculative["draft_model"] = plain(model, 200)
        out.speculative = (out.speculative or {}) | speculative


def _spec_sglang(run: BenchRun, out: RunDraft) -> None:
    length = run.number("accept_length")
    if length is not None and length >= 1:
        out.speculative = (out.speculative or {}) | {"acceptance_length": float(length)}


def _known(key: str) -> bool:
    return (
        key in keys.SETUP
        or key in keys.PER_REQUEST
        or key in keys.SPECULATIVE
        or key in keys.THROUGHPUTS
        or key == keys.PEAK_OUTPUT
        or bool(keys.LATENCY_KEY.fullmatch(key) or keys.CLIENT_QUEUE.fullmatch(key))
        or bool(keys.PROBE.fullmatch(key) or keys.DIFFUSION.fullmatch(key))
    )


def _leftovers(run: BenchRun, out: RunDraft, taken: set[str]) -> None:
    for key in run.values:
        if key in taken:
            continue
        if not _known(key):
            out.unknown.append(plain(key, 80))
        elif keys.CLIENT_QUEUE.fullmatch(key):
            out.not_stated.append(f"{key} (the client's own queueing)")
        elif keys.PROBE.fullmatch(key) or keys.DIFFUSION.fullmatch(key):
            out.not_stated.append(
                f"{key} (not a figure of the benchmark's requests)"
                if key.startswith("probe")
                else f"{key} (diffusion decoding)"
            )
        elif key in keys.SPECULATIVE:
            out.not_stated.append(
                f"{key} (speculative decoding's counts; acceptance_length and draft_tokens are stated)"
            )
        elif key in keys.PER_REQUEST:
            out.not_stated.append(f"{key} (per-request values)")


def draft(run: BenchRun, tool: Tool) -> RunDraft:
    """Everything the run's object says, as a draft of its record."""
    out = RunDraft(
        source=tool.source, command=tool.command, path=run.path, where=run.where, text=run.text, row=run.line
    )
    model = run.text_of("model_id")
    out.model = FileModel(model, "model_id") if model else None
    _server_info(run, out)
    _spec_vllm(run, out)
    _spec_sglang(run, out)
    _engine(run, tool, out)
    taken = _figures(run, out)
    _workload(run, out)
    _load(run, out)
    _leftovers(run, out, taken)
    return out
