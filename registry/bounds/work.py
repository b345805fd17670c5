"""The least arithmetic a figure's tokens cost over the whole request: the prompt's prefill, the output's
decode, and attention over both, from the workload's own token counts.

A request of ``i`` input and ``o`` output tokens passes ``i + o - 1`` tokens through the active weights (2
FLOPs per parameter each: the prompt in prefill, then each output token but the last, which is sampled
and never fed back) and, in causal attention, each of those attends to every one before it. An
output rate then costs, per output token, the whole request's work over its ``o`` tokens; a total rate
(input and output tokens) the same work over ``i + o``. With mean lengths (an MLPerf dataset, a serving
tool's totals over its requests) the linear part is exact in the means and attention is bounded below
through Jensen's inequality by a convex count of pairs (:func:`registry.bounds.flops.request_attention`),
so the work stays a lower bound and the roof an upper bound. Where only the output length is known,
output tokens attend at least to each other; where only the input is known, with fixed lengths each
output token attends at least to its prompt, and with mean lengths and a cap on the output
(``max_output_tokens``) an output rate's tokens each carry at least ``(input + cap - 1) / cap`` of the
weights' work: a request's work over its output tokens, ``(i + o - 1) / o``, falls as ``o`` grows, and
the mean output is at most the cap (attention is then not counted). A cap on the lengths themselves
(``lengths: max``) bounds nothing from below.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from registry.bounds.facts import RunFacts
from registry.bounds.flops import decode_attention, request_attention, weight_flops
from registry.bounds.written import count, si


@dataclass(frozen=True, slots=True)
class Lengths:
    """The request's input and output tokens as the bounds may use them (None where unknown)."""

    input: Fraction | None
    output: Fraction | None
    fixed: bool
    lines: tuple[str, ...]


def lengths_of(run: RunFacts) -> Lengths:
    """The workload's lengths, the output taken from the accuracy report where the workload has none."""
    if run.lengths == "max":
        return Lengths(
            None, None, False, ("lengths: the workload's are caps, which bound no work from below",)
        )
    fixed = run.lengths == "fixed"
    word = "" if fixed else "mean "
    lines: list[str] = []
    inp = Fraction(run.input_tokens) if run.input_tokens else None
    if inp is not None:
        lines.append(f"{word}input tokens per request: {count(inp)} (the workload)")
    out: Fraction | None = Fraction(run.output_tokens) if run.output_tokens else None
    if out is not None:
        lines.append(f"{word}output tokens per request: {count(out)} (the workload)")
    elif run.mean_output_tokens:
        out = run.mean_output_tokens
        fixed = False
        lines.append(f"mean output tokens per request: {count(out)} ({run.output_source or 'stated'})")
    return Lengths(inp, out, fixed, tuple(lines))


def work_per_token(
    run: RunFacts, metric: str
) -> tuple[Fraction, tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The least FLOPs one token of ``metric`` (an output or a total rate) costs, its lines and inputs;
    the caller has checked ``params_active``."""
    per_token, line, inputs = weight_flops(run.model)
    lengths = lengths_of(run)
    lines = [line, *lengths.lines]
    inp, out = lengths.input, lengths.output
    total = metric == "total_throughput"
    if inp is not None and out is not None:
        request = inp + out - 1
        attention = request_attention(run.model, request, lengths.fixed)
        work = per_token * request + attention.flops
        tokens = inp + out if total else out
        lines.extend(attention.lines)
        lines.append(
            f"request: {si(per_token, 'FLOP')} × {count(request)} tokens + attention = {si(work, 'FLOP')}"
        )
        lines.append(
            f"per {'token' if total else 'output token'}: {si(work, 'FLOP')} / {count(tokens)} = {si(work / tokens, 'FLOP')}"
        )
        used = (("input tokens", count(inp)), ("output tokens", count(out)))
        return work / tokens, tuple(lines), (*inputs, *used)
    if out is not None and not total:
        attention = request_attention(run.model, out, lengths.fixed)
        lines.append("input tokens: not counted (the workload states no input length)")
        lines.extend(attention.lines)
        flops = per_token + attention.flops / out
        lines.append(
            f"per output token: {si(per_token, 'FLOP')} + attention / {count(out)} = {si(flops, 'FLOP')}"
        )
        return flops, tuple(lines), (*inputs, ("output tokens", count(out)))
    if inp is not None and not total and run.output_cap and run.lengths == "mean":
        cap = run.output_cap
        lines.append(f"output tokens per request: at most {count(cap)} (the benchmark's cap), so at least")
        flops = per_token * (inp + cap - 1) / cap
        lines.append(
            f"per output token: {si(per_token, 'FLOP')} × ({count(inp)} + {count(cap)} - 1) / {count(cap)} = "
            f"{si(flops, 'FLOP')} (attention not counted)"
        )
        used = (("input tokens", count(inp)), ("output cap", count(cap)))
        return flops, tuple(lines), (*inputs, *used)
    if inp is not None and not total and run.lengths != "mean":
        attention = decode_attention(run.model, int(inp))
        lines.extend(attention.lines)
        lines.append(f"per output token: {si(per_token + attention.flops, 'FLOP')}")
        return per_token + attention.flops, tuple(lines), (*inputs, *attention.inputs)
    lines.append("attention and prefill: not counted (the workload states too little of its lengths)")
    return per_token, tuple(lines), inputs
