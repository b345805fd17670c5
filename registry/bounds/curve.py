"""The roof as a curve: the most output throughput a system can give at each per-user rate.

At a per-user rate ``r`` (tokens/s each sequence receives), a decode step that yields ``t`` tokens per
sequence (1, or ``1 + draft tokens``) may take at most ``t / r`` seconds. A step reads at least the
active weights ``W`` and each sequence's cache ``c`` (:mod:`registry.bounds.decode`), so at bandwidth
``B`` the sequences it can serve in time are at most ``(B t / r - W) / c``; the memory holds at most
``S`` of them beside the weights. The system's output is the sequences times their rate:

    throughput(r) ≤ r × min(S, (B t / r − W) / c)

and never more than the compute roof. Past ``r_max = B t / (W + c)`` not one sequence can be served
that fast. Where the cache cannot be counted (no KV format, no fixed prompt length) the curve is the
compute roof alone, up to ``B t / W``, the rate at which the weights alone take a whole step.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from registry.bounds.decode import decode_reason, held_sequences, read_per_sequence
from registry.bounds.facts import Figure, RunFacts
from registry.bounds.hardware import describe_system, system_bandwidth
from registry.bounds.roofs import compute_roof
from registry.bounds.written import count
from registry.engine.dtypes import get_dtype


@dataclass(frozen=True, slots=True)
class Curve:
    """The constants of the roof curve of one system, model and workload."""

    label: str
    accelerators: int
    bandwidth: Fraction
    weights: Fraction
    """Bytes a step reads at least: the active weights."""
    tokens_per_step: int
    cache: Fraction | None
    """Bytes a step reads per sequence; None when the cache cannot be counted."""
    sequences: Fraction | None
    """The most sequences the memory holds; None when the cache cannot be counted."""
    compute: Fraction | None
    """The compute roof per accelerator, tok/s; None when not computable."""

    @property
    def fastest(self) -> Fraction:
        """The per-user rate past which not one sequence can be served."""
        read = self.weights + (self.cache or 0)
        return self.bandwidth * self.tokens_per_step / read

    @property
    def knee(self) -> Fraction:
        """The per-user rate below which the memory, not the bandwidth, caps the sequences (the fastest
        rate over 100 where the cache cannot be counted)."""
        if self.cache is None or self.sequences is None:
            return self.fastest / 100
        return self.bandwidth * self.tokens_per_step / (self.weights + self.sequences * self.cache)

    def at(self, per_user: Fraction) -> Fraction | None:
        """Output tok/s per accelerator at ``per_user`` tok/s per user; None past :attr:`fastest`."""
        if per_user <= 0 or per_user > self.fastest:
            return None
        ceiling = self.compute
        if self.cache is not None and self.sequences is not None:
            served = (self.bandwidth * self.tokens_per_step / per_user - self.weights) / self.cache
            system = per_user * min(self.sequences, served)
            per_accelerator = system / self.accelerators
            ceiling = per_accelerator if ceiling is None else min(ceiling, per_accelerator)
        return ceiling


def curve(run: RunFacts) -> Curve | str:
    """The run's roof curve, or why there is none."""
    bandwidth = system_bandwidth(run)
    if isinstance(bandwidth, str):
        return bandwidth
    if run.model.unbound is not None or run.model.params_active is None:
        return run.model.missing("active parameter count")
    if not run.weights:
        return "no weight format"
    fmt = min(run.weights, key=lambda name: get_dtype(name).bytes_per_element)
    weights = (run.model.params_active - (run.model.untied_embedding or 0)) * get_dtype(fmt).bytes_per_element
    tokens = 1 + (run.draft_tokens or 0) if run.speculative else 1
    probe = Figure(0, "output_throughput", "value", "accelerator", Fraction(0), "")
    roof = compute_roof(run, probe)
    compute = roof.limit if roof.computable else None
    cache: Fraction | None = None
    sequences: Fraction | None = None
    if decode_reason(run) is None:
        held = held_sequences(run)
        if not isinstance(held, str):
            sequences = held[0]
            cache = read_per_sequence(run)[0]
    if cache is None and compute is None:
        return roof.reason or "neither the cache nor the compute roof can be counted"
    lengths = (
        f", {count(run.input_tokens)} + {count(run.output_tokens or 0)} tokens" if run.input_tokens else ""
    )
    kind = "decode roof" if cache is not None else "compute roof (cache not counted)"
    label = f"{kind}: {describe_system(run)}, {fmt} weights{lengths}"
    return Curve(label, run.accelerators, bandwidth[0], weights, tokens, cache, sequences, compute)
