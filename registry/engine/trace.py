"""The derivation written factor by factor, the way the course in the seeds writes it.

The engine computes with exact integers and fractions; this module only turns those values into the
lines a reader checks by hand::

    per token = 32 × 2 × 8 × 128 × 2 = 131,072 B = 128 KiB
    t = 131,072 → 131,072 × 131,072 = 17,179,869,184 B = 16 GiB

Byte counts are written in bytes first, then in the largest binary unit (KiB, MiB, GiB) that keeps the
number at least 1, so a reader never has to guess whether "GB" meant 10⁹ or 2³⁰.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction

from registry.engine.layers import LayerGroup, Mechanism, StateTensor
from registry.engine.units import format_bytes, format_int

Factor = int | Fraction | str
"""One factor of a product: a number, or an already written sub-expression such as ``(512 + 64)``."""


def number(value: int | Fraction) -> str:
    """Write a number exactly: ``131072`` → ``131,072``, ``17/16`` → ``1.0625``, ``1/3`` → ``1/3``."""
    if isinstance(value, int):  # most numbers of a trace: no fraction to make
        return format_int(value)
    exact = Fraction(value)
    if exact.denominator == 1:
        return format_int(exact.numerator)
    denominator = exact.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{exact.numerator}/{exact.denominator}"
    whole, rest = divmod(abs(exact.numerator), exact.denominator)
    digits = ""
    while rest:
        rest *= 10
        digit, rest = divmod(rest, exact.denominator)
        digits += str(digit)
    sign = "-" if exact < 0 else ""
    return f"{sign}{format_int(whole)}.{digits}"


def factor(value: Factor) -> str:
    """Write one factor of a product."""
    return value if isinstance(value, str) else number(value)


def parenthesized_sum(terms: Sequence[Factor]) -> str:
    """``(512 + 64)``: a sum written as one factor of a product."""
    return "(" + " + ".join(factor(t) for t in terms) + ")"


def product(factors: Sequence[Factor]) -> str:
    """``32 × 2 × 8 × 128 × 2``."""
    return " × ".join(factor(f) for f in factors)


def byte_count(value: int | Fraction) -> str:
    """``131,072 B = 128 KiB``; values under 1 KiB are written in bytes only."""
    text = f"{number(value)} B"
    if value >= 1024:
        text += f" = {format_bytes(value)}"
    return text


def product_line(label: str, factors: Sequence[Factor], value: int | Fraction) -> str:
    """``per token = 32 × 2 × 8 × 128 × 2 = 131,072 B = 128 KiB``."""
    if len(factors) == 1:
        return f"{label} = {byte_count(value)}"
    return f"{label} = {product(factors)} = {byte_count(value)}"


def context_line(context_tokens: int, factors: Sequence[Factor], value: int | Fraction) -> str:
    """``t = 131,072 → 131,072 × 131,072 = 17,179,869,184 B = 16 GiB``."""
    return f"t = {number(context_tokens)} → {product(factors)} = {byte_count(value)}"


def sum_line(label: str, terms: Sequence[int | Fraction], value: int | Fraction) -> str:
    """``total = 536,870,912 + 1,048,576 = 537,919,488 B = 513 MiB``."""
    if len(terms) == 1:
        return f"{label} = {byte_count(value)}"
    return f"{label} = {' + '.join(number(t) for t in terms)} = {byte_count(value)}"


def layer_span(layers: Sequence[int]) -> str:
    """``0–31`` for a contiguous run, ``0, 2, 4, …, 46`` (first three and last) otherwise."""
    ordered = sorted(layers)
    if len(ordered) == 1:
        return str(ordered[0])
    if ordered[-1] - ordered[0] + 1 == len(ordered):
        return f"{ordered[0]}–{ordered[-1]}"
    if len(ordered) <= 4:
        return ", ".join(str(i) for i in ordered)
    return ", ".join(str(i) for i in ordered[:3]) + f", …, {ordered[-1]}"


def _shape(sizes: tuple[int | None, ...]) -> str:
    """``3 × 8192``, with ``?`` for an unknown size."""
    return " × ".join("?" if n is None else str(n) for n in sizes)


def dimensions(mechanism: Mechanism) -> str:
    """``num_kv_heads 8, head_dim 128, v_head_dim 128``: the mechanism's known sizes, by field name, in
    words a person reads (never the dataclass's own representation)."""
    parts: list[str] = []
    for item in dataclasses.fields(mechanism):
        value = getattr(mechanism, item.name)
        if value is None or item.name == "variant":
            continue
        if item.name == "tensors":
            shapes = ", ".join(f"{t.name} {_shape(t.shape)}" for t in value if isinstance(t, StateTensor))
            parts.append(f"state tensors {shapes}")
        elif item.name == "inner":
            parts.append(f"entries like {value.kind} ({dimensions(value)})")
        elif item.name == "parts":  # a parallel layer: its mechanisms side by side
            parts.append(" beside ".join(f"{_name(part)} ({dimensions(part)})" for part in value))
        else:
            parts.append(f"{item.name} {value}")
    return ", ".join(parts)


def group_line(group: LayerGroup) -> str:
    """``36 × attention, layers 0–35: num_kv_heads 8, head_dim 128, v_head_dim 128``: a layer group as
    ``import-config`` and ``explain`` show it."""
    dims = dimensions(group.mechanism)
    return f"{group.count} × {_name(group.mechanism)}, layers {layer_span(group.layers)}" + (
        f": {dims}" if dims else ""
    )


def _name(mechanism: Mechanism) -> str:
    """``recurrent (mamba2)``: the mechanism's kind, with its variant when it has one."""
    variant = getattr(mechanism, "variant", None)
    return f"{mechanism.kind} ({variant})" if variant else mechanism.kind
