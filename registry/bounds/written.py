"""Numbers in a bound's trace: large rates and FLOP counts with an SI prefix and three significant
digits, times in s, ms or µs. The bound itself is exact; only what a reader sees is rounded."""

from __future__ import annotations

from fractions import Fraction
from math import floor, log10

from registry.engine.trace import number

_PREFIXES = ((10**18, "E"), (10**15, "P"), (10**12, "T"), (10**9, "G"), (10**6, "M"), (10**3, "k"))


def significant(value: Fraction | float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, thousands separated: ``36384.08`` → ``36,400``;
    ``0.07532`` → ``0.0753``. Display only, so in floating point: the bound itself stays exact."""
    number = float(value)
    if number == 0:
        return "0"
    decimals = digits - (floor(log10(abs(number))) + 1)
    if decimals <= 0:
        return f"{round(number, decimals):,.0f}"
    return f"{number:,.{decimals}f}".rstrip("0").rstrip(".")


def si(value: Fraction | float, unit: str) -> str:
    """``4.5e15`` FLOP/s → ``4.5 PFLOP/s``; values under 1,000 keep no prefix."""
    number = float(value)
    for scale, prefix in _PREFIXES:
        if abs(number) >= scale:
            return f"{significant(number / scale)} {prefix}{unit}"
    return f"{significant(number)} {unit}"


def seconds(value: Fraction | int) -> str:
    """A time in s, ms or µs, three significant digits."""
    exact = Fraction(value)
    if exact >= 1 or exact == 0:
        return f"{significant(exact)} s"
    if exact >= Fraction(1, 1000):
        return f"{significant(exact * 1000)} ms"
    return f"{significant(exact * 10**6)} µs"


def rate(value: Fraction | int, unit: str = "tok/s") -> str:
    """A throughput with thousands separated: ``36,400 tok/s``."""
    return f"{significant(value)} {unit}"


def count(value: Fraction | int) -> str:
    """An exact count: ``37,000,000,000``."""
    return number(Fraction(value) if not isinstance(value, int) else value)


def percent(value: Fraction) -> str:
    """A fraction as a percentage, three significant digits: ``0.0753`` → ``7.53%``."""
    return f"{significant(value * 100)}%"


def times(value: Fraction) -> str:
    """A ratio as a multiple: ``3.2x``."""
    return f"{significant(value, 2 if value < 100 else 3)}x"
