"""Does a model fit on hardware: weights, KV cache and recurrent state against the hardware's memory.

One set of functions answers ``registry fit`` and the model pages' "128K sequences per hardware" table:
the weights are the model's parameters at the weights' precision (:func:`weight_bytes`; unless told
otherwise, the format the model's config publishes them in,
:func:`registry.results.weights.published_weights`), the memory one
hardware record's units (:func:`hardware_bytes`), and the sequences that fit beside the weights
``⌊(memory − weights) ÷ cache per sequence⌋`` (:func:`sequences_that_fit`). :func:`fit` adds the two
answers people ask for, each with its derivation: the largest batch at a context and the longest context
at a batch. Activations and an engine's own reserve are not subtracted: every answer is an upper bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from registry.engine.compute import CacheResult, compute
from registry.engine.dtypes import bytes_per_element
from registry.engine.layers import LayerGroups
from registry.engine.units import MAX_CONTEXT_TOKENS, format_bytes, format_int, parse_quantity
from registry.kinds.records import Hardware
from registry.results.weights import WEIGHTS_DTYPE


def weight_bytes(params_total_b: float | None, dtype: str) -> int | None:
    """``params_total_b × 10⁹ × bytes per weight`` of ``dtype``, rounded up to a whole byte; None when
    no parameter count is stated."""
    if params_total_b is None:
        return None
    return math.ceil(Fraction(str(params_total_b)) * 10**9 * bytes_per_element(dtype))


def hardware_bytes(hardware: Hardware, count: int = 1) -> int:
    """Memory of ``count`` units of the record: ``count × devices × memory_per_device``, in bytes as the
    datasheet writes them (80 GB is 80 × 10⁹ B)."""
    return math.floor(count * hardware.devices * parse_quantity(hardware.memory_per_device).value)


def sequences_that_fit(memory_bytes: int, sequence_bytes: int | None, weights: int = 0) -> int | None:
    """Whole sequences whose cache fits in ``memory_bytes`` beside ``weights`` bytes of weights:
    ``⌊(memory − weights) ÷ sequence⌋``, 0 when the weights alone fill the memory; None without a
    cache figure. A batch's cache is its sequences' caches side by side, so this is the largest batch."""
    if not sequence_bytes:
        return None
    return max(0, memory_bytes - weights) // sequence_bytes


@dataclass(frozen=True)
class FitSettings:
    """How the cache is laid out and stored: the engine layout and each part's format."""

    kv_dtype: str = "bf16"
    state_dtype: str | None = None
    model_dtype: str | None = None
    engine_layout: str = "vllm"


@dataclass(frozen=True)
class Fit:
    """The answer for one model on some memory, at a context and batch, with its derivation."""

    memory_bytes: int
    weight_bytes: int | None
    """None when the model states no parameter count: the weights are then not subtracted."""
    context_tokens: int
    batch: int
    cache_bytes: int | None
    """The batch's cache at the context; None when the engine gives no figure (see ``problem``)."""
    largest_batch: int | None
    """Sequences of ``context_tokens`` that fit beside the weights."""
    longest_context: int | None
    """Tokens a sequence of the batch may reach with the cache beside the weights; 0 when not one."""
    context_limit: str
    """What bounds ``longest_context`` other than memory: the model's maximum, a cache that stops growing."""
    problem: str | None
    trace: tuple[str, ...]

    @property
    def room(self) -> int:
        """Memory left for the cache once the weights are in."""
        return self.memory_bytes - (self.weight_bytes or 0)

    @property
    def fits(self) -> bool:
        return self.cache_bytes is not None and self.cache_bytes <= self.room


def fit(
    layout: LayerGroups,
    *,
    memory_bytes: int,
    weights: int | None,
    context_tokens: int,
    batch: int = 1,
    settings: FitSettings = FitSettings(),
    max_context: int | None = None,
) -> Fit:
    """The batch's cache at the context beside the weights in ``memory_bytes``, the largest batch at the
    context and the longest context at the batch (up to ``max_context``, the model's, when stated; a
    context beyond it is said to be, in a line of the derivation)."""
    lines = [
        f"memory: {format_int(memory_bytes)} B = {format_bytes(memory_bytes)}",
        "weights: not subtracted (no parameter count)"
        if weights is None
        else f"weights: {format_int(weights)} B = {format_bytes(weights)}",
    ]
    room = memory_bytes - (weights or 0)
    lines.append(
        f"room for the cache: memory − weights = {format_int(room)} B = {format_bytes(room)}"
        if room >= 0
        else f"room for the cache: none, the weights alone exceed the memory by {format_bytes(-room)}"
    )
    if max_context is not None and context_tokens > max_context:
        lines.append(
            f"context: {format_int(context_tokens)} tokens, beyond the model's maximum of "
            f"{format_int(max_context)} tokens"
        )
    one = _cache(layout, settings, context_tokens, 1, traced=True)
    if one.total_bytes is None:
        problem = "; ".join([*one.unsupported, *one.not_computable]) or "the engine gives no figure"
        return Fit(memory_bytes, weights, context_tokens, batch, None, None, None, "", problem, tuple(lines))
    lines += ["", f"one sequence of {format_int(context_tokens)} tokens:", *one.trace, ""]
    cache = one.total_bytes * batch
    largest = sequences_that_fit(memory_bytes, one.total_bytes, weights or 0)
    lines += [
        f"batch {format_int(batch)}: {format_int(batch)} × {format_int(one.total_bytes)} B = "
        f"{format_int(cache)} B = {format_bytes(cache)} "
        + ("≤ room: fits" if cache <= room else "> room: does not fit"),
        f"largest batch at {format_int(context_tokens)} tokens: ⌊{format_int(room)} ÷ "
        f"{format_int(one.total_bytes)}⌋ = {format_int(largest or 0)}",
    ]
    longest, limit = _longest_context(layout, settings, batch, room, max_context)
    lines.append(_longest_line(layout, settings, batch, longest, limit))
    return Fit(
        memory_bytes, weights, context_tokens, batch, cache, largest, longest, limit, None, tuple(lines)
    )


def _cache(layout: LayerGroups, settings: FitSettings, context: int, batch: int, traced: bool) -> CacheResult:
    return compute(
        layout,
        context_tokens=context,
        batch=batch,
        kv_dtype=settings.kv_dtype,
        state_dtype=settings.state_dtype,
        model_dtype=settings.model_dtype,
        engine_layout=settings.engine_layout,
        traced=traced,
    )


def _total(layout: LayerGroups, settings: FitSettings, context: int, batch: int) -> int:
    total = _cache(layout, settings, context, batch, traced=False).total_bytes
    assert total is not None  # computable at one context, so at every context
    return total


def _longest_context(
    layout: LayerGroups, settings: FitSettings, batch: int, room: int, max_context: int | None
) -> tuple[int, str]:
    """The most tokens whose cache for the batch fits in ``room`` (the cache grows with the context, so a
    bisection finds it), and what else bounds it: the model's maximum context, or none at all."""
    top = max_context or MAX_CONTEXT_TOKENS
    if _total(layout, settings, top, batch) <= room:
        grows = _total(layout, settings, top, batch) > _total(layout, settings, max(1, top // 2), batch)
        if max_context is not None:
            return top, "the model's maximum context"
        return top, "the registry's largest context" if grows else "the cache stops growing"
    if _total(layout, settings, 1, batch) > room:
        return 0, ""
    low, high = 1, top  # fits at low, not at high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if _total(layout, settings, middle, batch) <= room else (low, middle)
    return low, ""


def _longest_line(layout: LayerGroups, settings: FitSettings, batch: int, longest: int, limit: str) -> str:
    head = f"longest context at batch {format_int(batch)}: "
    if longest == 0:
        return head + "none: the cache of one token does not fit"
    at = _total(layout, settings, longest, batch)
    if limit == "the cache stops growing":
        return head + f"any: the cache stops growing ({format_int(at)} B ≤ room)"
    if limit:
        return head + f"{format_int(longest)} tokens, {limit} ({format_int(at)} B ≤ room)"
    over = _total(layout, settings, longest + 1, batch)
    return head + (
        f"{format_int(longest)} tokens ({format_int(at)} B ≤ room; "
        f"{format_int(longest + 1)} tokens need {format_int(over)} B)"
    )


__all__ = [
    "WEIGHTS_DTYPE",
    "Fit",
    "FitSettings",
    "fit",
    "hardware_bytes",
    "sequences_that_fit",
    "weight_bytes",
]
