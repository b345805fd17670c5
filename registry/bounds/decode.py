"""The decode roof: what the memory can hold bounds the batch, and the bandwidth bounds each step.

A server decodes at most as many sequences at once as its memory holds beside the weights:

    sequences ≤ ⌊(memory − weights held) / cache of one sequence at its prompt⌋

with the weights held counted in full (every expert of a mixture is resident) in the run's narrowest
stated format, and one sequence's cache at the workload's input length under the run's own engine layout
and KV format (the engine's exact figure, block rounding and all; the ideal layout where the engine has
no rules for the run's). A sequence being decoded holds at least its whole prompt, so with fixed prompt
lengths no sequence holds less; activations, workspace and the cache's growth past the prompt are not
counted, which only lets more sequences in. Each decode step then reads at least the weights one token
passes through (a mixture of experts reads at most all its experts at a large batch, but the bound
takes the least a step must read: one token's active parameters) and each sequence's cache at its
prompt under the ideal layout (the least any engine keeps), so

    step ≥ (active weight bytes + sequences × cache) / memory bandwidth
    output rate ≤ sequences × tokens per step / step

which grows with the sequences, so the most the memory holds (or the run's stated concurrency, if
lower) gives the roof. A step yields one token per sequence, ``1 + draft tokens`` under speculative
decoding. No cache is shared between sequences unless the record says a prefix cache was on (then the
roof is not computed: shared prefixes let more sequences in), save a cold cache over a synthetic
dataset's random token ids, which share no block. A cache of unstated format is counted at the
narrowest format the engine knows. It needs no stated concurrency.
"""

from __future__ import annotations

from fractions import Fraction

from registry.bounds.bound import PHYSICS_TOLERANCE, Bound, BoundKind, Slip, not_computable
from registry.bounds.facts import Figure, RunFacts
from registry.bounds.hardware import describe_system, system_bandwidth
from registry.bounds.roofs import TENFOLD, THOUSAND, UNSTATED_SPECULATION, subject_of
from registry.bounds.written import count, rate, seconds, si, significant
from registry.engine.dtypes import get_dtype

KIND: BoundKind = "decode-roof"


def _narrowest(run: RunFacts) -> tuple[str, Fraction]:
    fmt, why = run.narrowest_weights()
    return why or fmt, get_dtype(fmt).bytes_per_element


def _memory(run: RunFacts) -> tuple[Fraction, str] | str:
    total = Fraction(0)
    terms: list[str] = []
    for part in run.parts:
        if part.memory_unbound is not None:
            return part.memory_unbound
        if part.memory is None:
            return f"{part.hardware} states no memory capacity"
        total += part.count * part.memory
        terms.append(f"{part.count} × {si(part.memory, 'B')} ({part.name})")
    return total, f"memory: {' + '.join(terms)} = {si(total, 'B')}"


def decode_reason(run: RunFacts) -> str | None:
    """Why the decode roof cannot be computed, or None."""
    model = run.model
    bandwidth = system_bandwidth(run)
    memory = _memory(run) if run.parts else run.no_hardware
    checks: tuple[tuple[bool, str], ...] = (
        (not run.parts, run.no_hardware),
        (model.unbound is not None, str(model.unbound)),
        (model.params_active is None, model.missing("active parameter count (params_active_b)")),
        (model.params_total is None, model.missing("total parameter count (params_total_b)")),
        (isinstance(bandwidth, str), str(bandwidth)),
        (isinstance(memory, str), str(memory)),
        (not run.weights, "the run states no weight format"),
        (run.kv_bytes is None, f"no cache figure for one sequence: {run.kv_reason or 'not computable'}"),
        (run.lengths in ("mean", "max"), f"the prompts' lengths are a {run.lengths}, not each prompt's"),
        (
            run.prefix_cache == "warm" or (run.prefix_cache == "cold" and not run.synthetic_prompts),
            f"a {run.prefix_cache} prefix cache lets sequences share their cache",
        ),
        (
            run.speculative and run.draft_tokens is None,
            "speculative decoding without 'draft_tokens': a step may yield any number of tokens",
        ),
    )
    return next((why for failed, why in checks if failed), None)


def decode_roof(run: RunFacts, figure: Figure) -> Bound:
    """The output-rate ceiling from the sequences the memory holds and the bandwidth each step needs."""
    subject = subject_of(figure)
    reason = decode_reason(run)
    if reason is not None:
        return not_computable(KIND, figure, subject, "ceiling", "tok/s", reason)
    rate_per_system, lines, inputs = decode_rate(run, run.concurrency)
    if isinstance(rate_per_system, str):
        return not_computable(KIND, figure, subject, "ceiling", "tok/s", rate_per_system)
    limit = rate_per_system
    slips: tuple[Slip, ...] = (
        (TENFOLD, THOUSAND) if run.speculative else (UNSTATED_SPECULATION, TENFOLD, THOUSAND)
    )
    if figure.per == "accelerator":
        n = run.accelerators
        limit = rate_per_system / n
        lines.append(f"per accelerator: {rate(rate_per_system)} / {n} = {rate(limit)}")
        if n > 1:
            slips = (
                Slip(f"a per-system figure written per accelerator (x{n} accelerators)", Fraction(n)),
                *slips,
            )
    fmt = run.narrowest_weights()[0]
    what = f"the decode roof of {describe_system(run)} with {fmt} weights and the cache the memory holds"
    return Bound(
        KIND,
        figure.position,
        subject,
        "ceiling",
        "tok/s",
        figure.text,
        figure.value,
        limit,
        PHYSICS_TOLERANCE,
        what,
        inputs=inputs,
        trace=tuple(lines),
        slips=slips,
    )


def held_sequences(run: RunFacts) -> tuple[Fraction, list[str]] | str:
    """The most sequences a decode step can hold beside the weights (not rounded down: the roof
    averages over steps), with its lines; the caller has checked :func:`_reason`."""
    memory = _memory(run)
    assert not isinstance(memory, str) and run.model.params_total is not None and run.kv_bytes is not None
    total, memory_line = memory
    fmt, per = _narrowest(run)
    held = run.model.params_total * per
    free = total - held
    hold = run.engine_kv_bytes or run.kv_bytes
    layout = "the run's engine layout" if run.engine_kv_bytes else "the ideal layout"
    lines = [
        memory_line,
        f"weights held: {count(run.model.params_total)} × {count(per)} B ({fmt}, every expert resident) = {si(held, 'B')}",
        f"cache of one sequence at its {count(run.input_tokens or 0)}-token prompt ({layout}): {si(hold, 'B')}"
        + run.kv_note,
    ]
    mean, _ = read_per_sequence(run)
    if mean > hold:
        hold = mean
        lines.append(
            f"cache a sequence holds, averaged over its decode steps: at least {si(mean, 'B')} (the ideal "
            "layout's mean of prompt and last step, below)"
        )
    if free <= 0:
        return "the weights alone fill the memory: no sequence fits beside them"
    if run.prefix_cache != "none":
        lines.append(
            "no cache shared: a cold prefix cache shares only whole blocks of equal tokens, and the "
            "synthetic prompts are random token ids, which share none"
        )
    sequences = free / hold
    lines.append(
        f"sequences a step holds: ({si(total, 'B')} − {si(held, 'B')}) / {si(hold, 'B')} = "
        f"{significant(sequences)} on average over the steps (activations and workspace not counted)"
    )
    if sequences < 1:
        return "the memory beside the weights holds not one sequence's cache"
    return sequences, lines


def read_per_sequence(run: RunFacts) -> tuple[Fraction, str]:
    """The least cache a step reads per sequence, averaged over its decode: the mean of the cache at the
    prompt and at the last step when every sequence decodes its whole fixed output one token a step (a
    cache grows by a concave function of its length, so its mean over the steps is at least that
    chord's), else the cache at the prompt."""
    assert run.kv_bytes is not None
    end = run.end_kv_bytes
    if end is not None and end > run.kv_bytes and not run.speculative and run.output_tokens:
        mean = (run.kv_bytes + end) / 2
        return mean, (
            f"cache read per sequence and step: ({si(run.kv_bytes, 'B')} at the prompt + {si(end, 'B')} at "
            f"the last step) / 2 = {si(mean, 'B')} (ideal layout: the least any engine keeps)"
        )
    return (
        run.kv_bytes,
        f"cache read per sequence and step: {si(run.kv_bytes, 'B')} at the prompt (ideal layout)",
    )


def decode_rate(
    run: RunFacts, concurrency: int | None, per_user: Fraction | None = None
) -> tuple[Fraction | str, list[str], tuple[tuple[str, str], ...]]:
    """The system's output-rate roof, its lines and inputs (or why there is none); the caller has checked
    :func:`_reason`. With ``per_user`` (tokens/s each sequence must get), a step may take at most
    ``tokens per step / per_user``, which caps the sequences its bandwidth can serve."""
    held = held_sequences(run)
    if isinstance(held, str):
        return held, [], ()
    sequences, lines = held
    if concurrency is not None and concurrency < sequences:
        lines.append(f"in flight: the run's concurrency, {count(concurrency)}, fewer than memory holds")
        sequences = Fraction(concurrency)
    bandwidth = system_bandwidth(run)
    assert not isinstance(bandwidth, str) and run.model.params_active is not None
    per_second, bandwidth_line = bandwidth
    fmt, per = _narrowest(run)
    active = run.model.params_active - (run.model.untied_embedding or 0)
    weights = active * per
    read, read_line = read_per_sequence(run)
    tokens = 1 + (run.draft_tokens or 0) if run.speculative else 1
    lines.extend(
        [
            f"weights read per step: {count(active)} × {count(per)} B ({fmt}) = {si(weights, 'B')} "
            "(the least a step reads: one token's active parameters, though a large batch may touch every expert)",
            read_line,
            bandwidth_line,
        ]
    )
    if per_user is not None:
        longest = Fraction(tokens) / per_user
        served = (longest * per_second - weights) / read
        if served <= 0:
            return f"one step's weights alone take longer than {seconds(longest)}", lines, ()
        if served < sequences:
            lines.append(
                f"at {rate(per_user)} per sequence a step takes at most {seconds(longest)}: "
                f"({seconds(longest)} × {si(per_second, 'B/s')} − {si(weights, 'B')}) / {si(read, 'B')} = "
                f"{significant(served)} sequences"
            )
            sequences = served
    step_bytes = weights + sequences * read
    step = step_bytes / per_second
    roof = sequences * tokens / step
    lines.extend(
        [
            f"step: ({si(weights, 'B')} + {significant(sequences)} × {si(read, 'B')}) / {si(per_second, 'B/s')} = {seconds(step)}",
            f"roof: {significant(sequences)} sequences × {tokens} token{'s' if tokens > 1 else ''} per step / "
            f"{seconds(step)} = {rate(roof)} per system",
        ]
    )
    inputs = (
        ("sequences in flight", significant(sequences)),
        ("weight bytes read per step", si(weights, "B")),
        ("KV cache read per sequence", si(read, "B")),
        ("bandwidth", si(per_second, "B/s")),
        ("tokens per step", str(tokens)),
    )
    return roof, lines, inputs
