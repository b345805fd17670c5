"""The three physical bounds on a stated figure.

- **Compute roof** (output, total throughput, goodput): tokens per second ≤ the system's dense peak
  FLOP/s at the run's compute format / the FLOPs of one token (:mod:`registry.bounds.flops`).
- **Bandwidth roof** (TPOT, ITL, a sequence's output rate, a system's output rate at a stated
  concurrency): every decode step reads the active weights once and each sequence's cache, so one step
  takes at least ``(weight bytes + concurrency x cache bytes) / memory bandwidth``; a step yields one
  token per sequence, ``1 + draft tokens`` under speculative decoding.
- **Prefill floor** (TTFT): the first token waits at least for the prefill's FLOPs at the system's peak.

Each uses every accelerator of the run (a disaggregated run's prefill or decode pool is smaller), so it
is a bound whatever the parallelism.
"""

from __future__ import annotations

from fractions import Fraction

from registry.bounds.bound import PHYSICS_TOLERANCE, Bound, Side, Slip, not_computable
from registry.bounds.facts import Figure, RunFacts
from registry.bounds.flops import prefill_attention, weight_flops
from registry.bounds.hardware import describe_system, system_bandwidth, system_peak
from registry.bounds.work import work_per_token
from registry.bounds.written import count, rate, seconds, si, significant
from registry.engine.dtypes import get_dtype

THROUGHPUTS = ("output_throughput", "total_throughput", "goodput")
STEP_LATENCIES = ("tpot", "itl")

_WORDS = {
    "output_throughput": "output throughput",
    "total_throughput": "total throughput",
    "goodput": "goodput",
    "request_throughput": "request throughput",
    "tpot": "TPOT",
    "itl": "ITL",
    "ttft": "TTFT",
    "e2e_latency": "end-to-end latency",
}

TENFOLD = Slip("a tenfold slip: a digit too many or a decimal point misplaced", Fraction(10))
THOUSAND = Slip("a thousands separator or 'k' misread: the figure is 1,000 times too large", Fraction(1000))
UNSTATED_SPECULATION = Slip(
    "speculative decoding the record does not state: a step that yields several tokens per sequence",
    Fraction(8),
    exact=False,
)
"""A draft of up to 7 tokens, the most the serving engines' speculative methods propose per step."""
MILLI = Slip("the unit: a figure in s written as ms, or in ms as µs (1,000 times too small)", Fraction(1000))


def subject_of(figure: Figure) -> str:
    """``output throughput per accelerator``, ``TPOT (p99)``."""
    words = _WORDS.get(figure.metric, figure.metric.replace("_", " "))
    if figure.per != "request" or figure.metric in THROUGHPUTS:
        words += f" per {figure.per}"
    return words if figure.statistic == "value" else f"{words} ({figure.statistic})"


def _per_figure(run: RunFacts, figure: Figure, system: Fraction) -> tuple[Fraction, str]:
    """A system rate as the figure states it: divided by the accelerators for a per-accelerator figure."""
    if figure.per == "accelerator":
        n = run.accelerators
        return system / n, f"per accelerator: {rate(system)} / {n} = {rate(system / n)}"
    return system, ""


def _per_accelerator_slip(run: RunFacts, figure: Figure) -> tuple[Slip, ...]:
    if figure.per == "accelerator" and run.accelerators > 1:
        n = run.accelerators
        return (Slip(f"a per-system figure written per accelerator (x{n} accelerators)", Fraction(n)),)
    return ()


def _active(run: RunFacts) -> str | None:
    if run.model.unbound is not None or run.model.params_active is None:
        return run.model.missing("active parameter count (params_active_b)")
    return None


def compute_roof(run: RunFacts, figure: Figure) -> Bound:
    subject = subject_of(figure)
    peak = system_peak(run)
    cached = (
        "a prefix cache serves input tokens without computing them"
        if figure.metric == "total_throughput" and run.prefix_cache != "none"
        else None
    )
    missing = cached or _active(run) or (peak if isinstance(peak, str) else None)
    if missing is not None or isinstance(peak, str):
        return not_computable("compute-roof", figure, subject, "ceiling", "tok/s", missing or "")
    flops, work_lines, inputs = work_per_token(run, figure.metric)
    lines = list(work_lines)
    if run.weights_reason is not None and not run.activations:
        lines.append(f"compute format: {run.weights_reason}")
    lines.append(peak.line)
    system = peak.flops / flops
    lines.append(f"roof: {si(peak.flops, 'FLOP/s')} / {si(flops, 'FLOP')} = {rate(system)} per system")
    limit, per_line = _per_figure(run, figure, system)
    lines.extend([per_line] if per_line else [])
    assert run.model.params_active is not None
    what = (
        f"the compute roof of {describe_system(run)} at {'/'.join(peak.formats)} for "
        f"{significant(run.model.params_active / 10**9)} B active parameters"
    )
    return Bound(
        "compute-roof",
        figure.position,
        subject,
        "ceiling",
        "tok/s",
        figure.text,
        figure.value,
        limit,
        PHYSICS_TOLERANCE,
        what,
        inputs=(
            *inputs,
            ("peak", peak.line.removeprefix("peak: ")),
            ("accelerators", str(run.accelerators)),
        ),
        trace=tuple(lines),
        slips=(*_per_accelerator_slip(run, figure), TENFOLD, THOUSAND),
    )


def _weight_bytes(run: RunFacts) -> tuple[Fraction, str, str] | str:
    """Bytes of the active weights in the run's narrowest stated weight format, and its line."""
    if not run.weights:
        return "the run states no weight format"
    active = run.model.params_active
    assert active is not None
    fmt, why = run.narrowest_weights()
    per = get_dtype(fmt).bytes_per_element
    params = active - (run.model.untied_embedding or 0)
    written = (
        count(active)
        if not run.model.untied_embedding
        else f"({count(active)} − {count(run.model.untied_embedding)})"
    )
    return (
        params * per,
        f"weights read per step: {written} × {count(per)} B ({why or fmt}) = {si(params * per, 'B')}",
        fmt,
    )


def _bandwidth_reason(run: RunFacts, in_flight: int | None) -> str | None:
    """Why the bandwidth bound cannot be computed, or None."""
    bandwidth = system_bandwidth(run)
    weights = None if _active(run) else _weight_bytes(run)
    if run.speculative and run.draft_tokens is None:
        speculation: str | None = (
            "speculative decoding without 'draft_tokens': a step may yield any number of tokens"
        )
    else:
        speculation = None
    return (
        _active(run)
        or (bandwidth if isinstance(bandwidth, str) else None)
        or (weights if isinstance(weights, str) else None)
        or (None if in_flight else "the run states no concurrency (sequences in flight)")
        or speculation
    )


def _step(run: RunFacts, in_flight: int) -> tuple[Fraction, list[str], tuple[tuple[str, str], ...], str]:
    """The least time of one decode step with ``in_flight`` sequences, its lines, its inputs and the
    weight format; the caller has checked :func:`_bandwidth_reason`."""
    weights, bandwidth = _weight_bytes(run), system_bandwidth(run)
    assert isinstance(weights, tuple) and isinstance(bandwidth, tuple)
    (weight_bytes, weight_line, fmt), (per_second, bandwidth_line) = weights, bandwidth
    cache = run.kv_bytes or Fraction(0)
    sequences = in_flight if run.prefix_cache == "none" else 1
    if run.kv_bytes is None:
        cache_line = f"KV cache read per step: not counted ({run.kv_reason or 'not computable'})"
    else:
        shared = "" if sequences == in_flight else " (a prefix cache may share it: counted once)"
        at = count(run.input_tokens or 0)
        cache_line = (
            f"KV cache read per step: {sequences} × {si(cache, 'B')} at {at} tokens{shared}{run.kv_note}"
        )
    step_bytes = weight_bytes + sequences * cache
    step = step_bytes / per_second
    lines = [
        weight_line,
        cache_line,
        bandwidth_line,
        f"step: {si(step_bytes, 'B')} / {si(per_second, 'B/s')} = {seconds(step)}",
    ]
    inputs = (
        ("weight bytes", si(weight_bytes, "B")),
        ("KV cache per sequence", "not counted" if run.kv_bytes is None else si(cache, "B")),
        ("sequences in flight", str(in_flight)),
        ("bandwidth", si(per_second, "B/s")),
    )
    return step, lines, inputs, fmt


def bandwidth_roof(run: RunFacts, figure: Figure) -> Bound:
    """The TPOT / ITL floor, or the output-rate ceiling, from memory bandwidth."""
    subject = subject_of(figure)
    side: Side = "floor" if figure.metric in STEP_LATENCIES else "ceiling"
    unit = "s" if side == "floor" else "tok/s"
    in_flight = 1 if figure.metric in STEP_LATENCIES or figure.per == "request" else run.concurrency
    reason = _bandwidth_reason(run, in_flight)
    if reason is not None or not in_flight:
        return not_computable("bandwidth-roof", figure, subject, side, unit, reason or "")
    step, lines, inputs, fmt = _step(run, in_flight)
    tokens = 1 + (run.draft_tokens or 0) if run.speculative else 1
    per_step = f"{tokens} token{'s' if tokens > 1 else ''} per step"
    speculation = () if run.speculative else (UNSTATED_SPECULATION,)
    if side == "floor":
        limit = step / tokens
        lines.append(f"floor: {seconds(step)} / {per_step} = {seconds(limit)}")
        slips: tuple[Slip, ...] = (*speculation, MILLI)
    else:
        system = in_flight * tokens / step
        lines.append(f"roof: {in_flight} in flight × {per_step} / {seconds(step)} = {rate(system)}")
        limit, per_line = _per_figure(run, figure, system)
        lines.extend([per_line] if per_line else [])
        slips = (*_per_accelerator_slip(run, figure), *speculation, TENFOLD, THOUSAND)
    what = f"the memory-bandwidth {side if side == 'floor' else 'roof'} of {describe_system(run)} with {fmt} weights"
    return Bound(
        "bandwidth-roof",
        figure.position,
        subject,
        side,
        unit,
        figure.text,
        figure.value,
        limit,
        PHYSICS_TOLERANCE,
        what,
        inputs=(*inputs, ("tokens per step", str(tokens))),
        trace=tuple(lines),
        slips=slips,
    )


def _prefill_reason(run: RunFacts, figure: Figure) -> str | None:
    if not run.input_tokens:
        return "the workload states no input length"
    if run.lengths == "max":
        return "the workload's input length is a cap, not the prompts' length"
    if run.lengths == "mean" and figure.statistic != "mean" and figure.statistic != "value":
        return f"the workload's input length is a mean, which bounds the mean TTFT only, not its {figure.statistic}"
    if run.prefix_cache != "none":
        return f"a {run.prefix_cache} prefix cache may serve part of a prompt without computing it"
    return _active(run)


def prefill_floor(run: RunFacts, figure: Figure) -> Bound:
    subject = subject_of(figure)
    peak = system_peak(run)
    reason = _prefill_reason(run, figure) or (peak if isinstance(peak, str) else None)
    if reason is not None or isinstance(peak, str):
        return not_computable("prefill-floor", figure, subject, "floor", "s", reason or "")
    tokens = run.input_tokens or 0
    per_token, line, inputs = weight_flops(run.model)
    attention = prefill_attention(run.model, tokens)
    flops = per_token * tokens + attention.flops
    lines = [
        line,
        f"weights over the prompt: {si(per_token, 'FLOP')} × {count(tokens)} tokens = {si(per_token * tokens, 'FLOP')}",
        *attention.lines,
        f"prefill: {si(flops, 'FLOP')}",
        peak.line,
    ]
    limit = flops / peak.flops
    lines.append(f"floor: {si(flops, 'FLOP')} / {si(peak.flops, 'FLOP/s')} = {seconds(limit)}")
    what = f"the prefill floor of {count(tokens)} input tokens on {describe_system(run)} at {'/'.join(peak.formats)}"
    return Bound(
        "prefill-floor",
        figure.position,
        subject,
        "floor",
        "s",
        figure.text,
        figure.value,
        limit,
        PHYSICS_TOLERANCE,
        what,
        inputs=(*inputs, ("input tokens", count(tokens)), ("peak", peak.line.removeprefix("peak: "))),
        trace=tuple(lines),
        slips=(MILLI,),
    )
