"""Quantities as people write them: exact values, written precision as tolerance, units kept apart."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from registry.engine.units import (
    Dimension,
    QuantityError,
    format_bytes,
    parse_context,
    parse_quantity,
    quantity_pattern,
)


def test_exact_bytes_must_match_exactly() -> None:
    q = parse_quantity("70,272 B")
    assert q.value == 70272 and q.dimension is Dimension.BYTES
    assert q.admits(70272) and not q.admits(70273)


def test_written_precision_is_the_tolerance() -> None:
    q = parse_quantity("68.6 KiB")
    assert q.admits(70272)  # 68.625 KiB rounds to 68.6
    assert not q.admits(71000)
    approx = parse_quantity("~8.6 GiB")
    assert approx.approximate
    assert approx.admits(131072 * 70272)  # 8.578 GiB
    assert not approx.admits(9 * 2**30)


def test_binary_and_decimal_units_are_distinct() -> None:
    gib, gb = parse_quantity("16 GiB"), parse_quantity("16 GB")
    assert gib.value == 16 * 2**30 and gb.value == 16 * 10**9
    assert gib.is_binary and gb.is_decimal
    assert not gb.admits(16 * 2**30)
    assert parse_quantity("2.62GB").admits(2_621_440_000)


@pytest.mark.parametrize(
    ("text", "dimension", "value"),
    [
        ("4,000,256 B/token", Dimension.BYTES_PER_TOKEN, Fraction(4000256)),
        ("85.3x", Dimension.RATIO, Fraction(853, 10)),
        ("~57×", Dimension.RATIO, Fraction(57)),
        ("8.6 s", Dimension.SECONDS, Fraction(86, 10)),
        ("35 ms", Dimension.SECONDS, Fraction(35, 1000)),
        ("1,234 tok/s", Dimension.TOKENS_PER_SECOND, Fraction(1234)),
        ("3.35 TB/s", Dimension.BYTES_PER_SECOND, Fraction(335 * 10**10)),
        ("50%", Dimension.RATIO, Fraction(1, 2)),
        ("8 req/s", Dimension.REQUESTS_PER_SECOND, Fraction(8)),
        ("2.5 requests/s", Dimension.REQUESTS_PER_SECOND, Fraction(5, 2)),
        ("1,234.5 samples/s", Dimension.REQUESTS_PER_SECOND, Fraction(12345, 10)),
        ("0.25 queries/s", Dimension.REQUESTS_PER_SECOND, Fraction(1, 4)),
        ("700 W", Dimension.WATTS, Fraction(700)),
        ("10.2 kW", Dimension.WATTS, Fraction(10200)),
        ("0.4 J/token", Dimension.JOULES_PER_TOKEN, Fraction(2, 5)),
        ("350 mJ/token", Dimension.JOULES_PER_TOKEN, Fraction(7, 20)),
        ("1 J/tok", Dimension.JOULES_PER_TOKEN, Fraction(1)),
        ("989 TFLOP/s", Dimension.FLOPS, Fraction(989 * 10**12)),
        ("4.5 PFLOP/s", Dimension.FLOPS, Fraction(45 * 10**14)),
        ("1,979 TFLOP/s", Dimension.FLOPS, Fraction(1979 * 10**12)),
        ("500 GFLOP/s", Dimension.FLOPS, Fraction(5 * 10**11)),
        ("3,958 TOPS", Dimension.FLOPS, Fraction(3958 * 10**12)),
        ("10 POPS", Dimension.FLOPS, Fraction(10**16)),
    ],
)
def test_dimensions(text: str, dimension: Dimension, value: Fraction) -> None:
    q = parse_quantity(text)
    assert (q.dimension, q.value) == (dimension, value)


@pytest.mark.parametrize(
    "text", ["", "B", "-5 B", "1e3 B", "5 parsecs", "5 B/s/token", "NaN GiB", "٣ B", "5 B\n"]
)
def test_unreadable_quantities(text: str) -> None:
    with pytest.raises(QuantityError):
        parse_quantity(text)


def test_context_lengths() -> None:
    assert parse_context("128K") == 131072
    assert parse_context("1M") == 1048576
    assert parse_context("131,072") == 131072
    assert parse_context(4096) == 4096
    for bad in ("0", "0K", "-1", "1.5K", "128 KB", ""):
        with pytest.raises(QuantityError):
            parse_context(bad)


def test_format_bytes() -> None:
    assert format_bytes(131072) == "128 KiB"
    assert format_bytes(70272) == "68.6 KiB"
    assert format_bytes(17179869184) == "16 GiB"
    assert format_bytes(512) == "512 B"


def test_energy_per_token_is_not_a_byte_unit_per_token() -> None:
    """``J/token`` is energy; ``/token`` after anything but a byte or joule unit stays refused."""
    assert parse_quantity("2 mJ/token").tolerance == Fraction(1, 2000)
    with pytest.raises(QuantityError, match="byte unit"):
        parse_quantity("2 kJ/token")
    with pytest.raises(QuantityError, match="unknown unit"):
        parse_quantity("8 req/min")


@pytest.mark.parametrize(
    ("dimension", "good", "bad"),
    [
        (Dimension.REQUESTS_PER_SECOND, ["8 req/s", "1,000 samples/s", "~3.5 queries/s"], ["8 tok/s", "8 W"]),
        (Dimension.WATTS, ["700 W", "10.2 kW"], ["700 J/token", "700"]),
        (Dimension.JOULES_PER_TOKEN, ["0.4 J/token", "350 mJ/tok"], ["0.4 J", "0.4 W"]),
        (
            Dimension.FLOPS,
            ["989 TFLOP/s", "4.5 PFLOP/s", "3,958 TOPS", "~2.3 POPS"],
            ["3.35 TB/s", "989 TFLOPS", "989 tflop/s", "989 TFLOP", "4 PFLOP/s/token"],
        ),
    ],
)
def test_new_dimensions_have_schema_patterns(dimension: Dimension, good: list[str], bad: list[str]) -> None:
    """The JSON Schema's pattern for each new dimension accepts what the parser reads in it, and no more."""
    pattern = re.compile(quantity_pattern(dimension))
    for text in good:
        assert pattern.search(text) and parse_quantity(text).dimension is dimension
    for text in bad:
        assert not pattern.search(text)


def test_flops_written_precision_is_the_tolerance() -> None:
    """A datasheet's '2.25 PFLOP/s' holds for anything that rounds to it, as any written figure does."""
    peak = parse_quantity("2.25 PFLOP/s")
    assert peak.admits(2_250 * 10**12) and peak.admits(2_254 * 10**12)
    assert not peak.admits(2_256 * 10**12)
    assert peak.in_unit(2_250 * 10**12) == Fraction(225, 100)


def test_flops_units_are_case_sensitive_and_named_when_unknown() -> None:
    """'tflop/s' is not read as TFLOP/s (as 'gb' is not GB); the message lists the FLOP/s units."""
    for text in ("989 tflop/s", "989 TFLOPS", "989 Tflops"):
        with pytest.raises(QuantityError, match="TFLOP/s"):
            parse_quantity(text)
