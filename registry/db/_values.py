"""Turning the engine's exact numbers and a record's written quantities into column values.

Rows carry exact numbers (``int`` or :class:`~fractions.Fraction`); they become decimals of the
column's scale only when the Arrow column is built (:func:`decimal_array`). A quantity written by a
person ("80 GB", "8.6 s") is read with the project's quantity parser, never re-parsed here.
"""

from __future__ import annotations

import json
from fractions import Fraction
from operator import itemgetter
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped]

from registry.engine.units import QuantityError, parse_context, parse_quantity

POOL = pa.system_memory_pool()
"""Where the columns' Arrow buffers are allocated: the C library's allocator, which gives freed memory
back to the next chunk of a build, where Arrow's default pool kept more of it."""

Columns = dict[str, list[Any]]
"""A table's values, column by column, by column name."""


def columns_of(rows: list[dict[str, Any]]) -> Columns:
    """Rows (dicts with the same keys) as columns; no rows give no columns (an empty table)."""
    if not rows:
        return {}
    names = list(rows[0])
    for row in rows:
        if row.keys() != rows[0].keys():
            raise ValueError(f"rows differ in their columns: {sorted(row.keys() ^ rows[0].keys())}")
    if len(names) == 1:  # itemgetter of one key gives the value, not a 1-tuple
        return {names[0]: [row[names[0]] for row in rows]}
    # Transposed in C (itemgetter, zip) rather than one Python loop per column.
    values = zip(*map(itemgetter(*names), rows), strict=True)
    return {name: list(column) for name, column in zip(names, values, strict=True)}


def decimal_array(values: list[int | Fraction | None], scale: int) -> pa.Array:
    """A ``DECIMAL(38, scale)`` column's values as an Arrow array.

    When every value is a whole number within 64 bits (nearly always: bytes at batch 1), the array is
    ``int64`` and DuckDB widens it to the declared decimal type on insert, exactly and in bulk; otherwise
    every value is scaled to a whole number of ``10^-scale`` units, rounding half to even where it
    does not fit. Every byte count the engine produces fits exactly: totals are whole bytes, and a
    per-token figure is a multiple of 1/256 byte (the largest block of a storage format), which eight
    decimal digits hold. (``round`` of a Fraction rounds half to even.)
    """
    if not any(type(v) is Fraction for v in values):  # Arrow would truncate a Fraction silently
        try:
            return pa.array(values, type=pa.int64(), memory_pool=POOL)
        except (pa.ArrowException, OverflowError):  # beyond 64 bits: refused, never wrapped
            pass
    factor = 10**scale
    unscaled = [v if v is None else v * factor if type(v) is int else round(v * factor) for v in values]
    whole = pa.array(unscaled, type=pa.decimal128(38, 0), memory_pool=POOL)
    # A decimal is stored as its unscaled integer: the same buffers read with the column's scale.
    return pa.Array.from_buffers(pa.decimal128(38, scale), len(whole), whole.buffers(), whole.null_count)


def quantity_value(text: str | None) -> Fraction | None:
    """The exact value of a written quantity in its base unit (bytes, seconds, tokens/s, a ratio)."""
    if text is None:
        return None
    try:
        return parse_quantity(text).value
    except QuantityError:
        return None


def quantity_float(text: str | None) -> float | None:
    """A written quantity in its base unit as a float, for times and rates meant for display."""
    value = quantity_value(text)
    return None if value is None else float(value)


def context_tokens(value: int | str | None) -> int | None:
    """A context length as written (131072, "131,072", "128K") in tokens."""
    if value is None:
        return None
    try:
        return parse_context(value)
    except QuantityError:
        return None


def as_json(value: Any) -> str | None:
    """Compact JSON text, Unicode kept as is; None stays NULL."""
    if value is None:
        return None
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
