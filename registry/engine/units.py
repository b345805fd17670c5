"""Units and quantities, exact.

A quantity is written the way people write it: ``"70,272 B"``, ``"68.6 KiB"``, ``"~8.6 GiB"``,
``"85.3x"``, ``"8.6 s"``, ``"3.35 TB/s"``, ``"8 req/s"``, ``"700 W"``, ``"0.4 J/token"``,
``"989 TFLOP/s"``. Parsing keeps
the exact value (a :class:`~fractions.Fraction` in the base unit of its dimension) and the precision it
was written with: the tolerance is half a unit
of the last written digit, so ``"8.6 GiB"`` holds for anything that rounds to 8.6 GiB while ``"70,272 B"``
must be exact. Binary (KiB, MiB, GiB, TiB) and decimal (kB, MB, GB, TB) units are distinct units and are
never mixed silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache


class Dimension(str, Enum):
    """What a quantity measures; the base unit is in the value's name."""

    BYTES = "bytes"
    BYTES_PER_TOKEN = "bytes/token"
    SECONDS = "seconds"
    TOKENS_PER_SECOND = "tokens/second"
    REQUESTS_PER_SECOND = "requests/second"
    WATTS = "watts"
    JOULES_PER_TOKEN = "joules/token"
    BYTES_PER_SECOND = "bytes/second"
    FLOPS = "FLOP/s"
    RATIO = "ratio"
    TOKENS = "tokens"
    COUNT = "count"


class QuantityError(ValueError):
    """A stated value that cannot be read as a quantity; the message says why."""


_BYTE_UNITS: dict[str, int] = {
    "B": 1,
    "byte": 1,
    "bytes": 1,
    "kB": 10**3,
    "KB": 10**3,
    "MB": 10**6,
    "GB": 10**9,
    "TB": 10**12,
    "PB": 10**15,
    "KiB": 2**10,
    "MiB": 2**20,
    "GiB": 2**30,
    "TiB": 2**40,
    "PiB": 2**50,
}
BINARY_BYTE_UNITS = ("KiB", "MiB", "GiB", "TiB", "PiB")
DECIMAL_BYTE_UNITS = ("kB", "KB", "MB", "GB", "TB", "PB")

_TIME_UNITS: dict[str, Fraction] = {
    "s": Fraction(1),
    "sec": Fraction(1),
    "ms": Fraction(1, 1000),
    "us": Fraction(1, 10**6),
    "µs": Fraction(1, 10**6),
    "min": Fraction(60),
}
_RATE_UNITS: dict[str, Fraction] = {
    "tok/s": Fraction(1),
    "tokens/s": Fraction(1),
    "k tok/s": Fraction(1000),
}
_REQUEST_RATE_UNITS: dict[str, Fraction] = {
    "req/s": Fraction(1),
    "requests/s": Fraction(1),
    "samples/s": Fraction(1),
    "queries/s": Fraction(1),
}
"""Requests (MLPerf's samples and queries are requests) per second."""
_POWER_UNITS: dict[str, Fraction] = {"W": Fraction(1), "kW": Fraction(1000)}
_ENERGY_PER_TOKEN_UNITS: dict[str, Fraction] = {
    "J/token": Fraction(1),
    "J/tok": Fraction(1),
    "mJ/token": Fraction(1, 1000),
    "mJ/tok": Fraction(1, 1000),
}
"""Read before the byte units' ``/token``, which would otherwise take ``J`` for an unknown byte unit."""
_FLOPS_UNITS: dict[str, Fraction] = {
    "FLOP/s": Fraction(1),
    "GFLOP/s": Fraction(10**9),
    "TFLOP/s": Fraction(10**12),
    "PFLOP/s": Fraction(10**15),
    "TOPS": Fraction(10**12),
    "POPS": Fraction(10**15),
}
"""Arithmetic operations per second. Datasheets give integer formats' peaks in TOPS (tera operations per
second) and floating ones in TFLOP/s; both count a multiply-add as two operations, so an int8 peak and
an fp8 peak are the same quantity to a compute roof, and an int8 figure is written as its source writes
it."""
_RATIO_UNITS: dict[str, Fraction] = {"x": Fraction(1), "×": Fraction(1), "%": Fraction(1, 100)}
_PER_TOKEN = re.compile(r" *(?:/ *(?:token|tok)|per +token)$")

_NUMBER = re.compile(
    r"^ *(?P<approx>[~≈] *)?(?P<int>[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.(?P<frac>[0-9]+))? *(?P<unit>.*?) *$"
)


@dataclass(frozen=True)
class Quantity:
    """An exact quantity with the precision it was written with.

    ``value`` and ``tolerance`` are in the base unit of ``dimension`` (bytes, seconds, a plain ratio).
    """

    text: str
    value: Fraction
    dimension: Dimension
    unit: str
    scale: Fraction
    tolerance: Fraction
    approximate: bool

    def admits(self, exact: Fraction | int) -> bool:
        """True when ``exact`` rounds to the value as written."""
        return abs(Fraction(exact) - self.value) <= self.tolerance

    def in_unit(self, exact: Fraction | int) -> Fraction:
        """``exact`` (base unit) expressed in this quantity's written unit."""
        return Fraction(exact) / self.scale

    @property
    def decimals(self) -> int:
        """How many digits were written after the decimal point."""
        frac = self.text.split(".", 1)
        if len(frac) == 1:
            return 0
        return len(re.match(r"\d*", frac[1]).group(0))  # type: ignore[union-attr]

    @property
    def is_binary(self) -> bool:
        return self.unit in BINARY_BYTE_UNITS

    @property
    def is_decimal(self) -> bool:
        return self.unit in DECIMAL_BYTE_UNITS


def _unit_of(unit_text: str) -> tuple[Dimension, Fraction, str]:
    text = unit_text.strip()
    if text in _ENERGY_PER_TOKEN_UNITS:
        return Dimension.JOULES_PER_TOKEN, _ENERGY_PER_TOKEN_UNITS[text], text
    per_token = False
    match = _PER_TOKEN.search(text)
    if match:
        per_token = True
        text = text[: match.start()].strip()
    if text in _BYTE_UNITS:
        dimension = Dimension.BYTES_PER_TOKEN if per_token else Dimension.BYTES
        return dimension, Fraction(_BYTE_UNITS[text]), text
    if per_token:
        raise QuantityError(f"'/token' needs a byte unit before it, found {text!r}")
    if text.endswith("/s") and text[:-2] in _BYTE_UNITS:
        return Dimension.BYTES_PER_SECOND, Fraction(_BYTE_UNITS[text[:-2]]), text
    if text in _TIME_UNITS:
        return Dimension.SECONDS, _TIME_UNITS[text], text
    if text in _RATE_UNITS:
        return Dimension.TOKENS_PER_SECOND, _RATE_UNITS[text], text
    if text in _REQUEST_RATE_UNITS:
        return Dimension.REQUESTS_PER_SECOND, _REQUEST_RATE_UNITS[text], text
    if text in _POWER_UNITS:
        return Dimension.WATTS, _POWER_UNITS[text], text
    if text in _FLOPS_UNITS:
        return Dimension.FLOPS, _FLOPS_UNITS[text], text
    if text in _RATIO_UNITS:
        return Dimension.RATIO, _RATIO_UNITS[text], text
    if text in ("tokens", "token"):
        return Dimension.TOKENS, Fraction(1), text
    if text == "":
        return Dimension.COUNT, Fraction(1), ""
    raise QuantityError(f"unknown unit {text!r}; known units: {', '.join(known_units())}")


def known_units() -> list[str]:
    """Every unit a quantity may be written in (per-token and per-second forms aside), sorted."""
    return sorted(
        [
            *_BYTE_UNITS,
            *_TIME_UNITS,
            *_RATE_UNITS,
            *_REQUEST_RATE_UNITS,
            *_POWER_UNITS,
            *_ENERGY_PER_TOKEN_UNITS,
            *_FLOPS_UNITS,
            *_RATIO_UNITS,
            "tokens",
        ]
    )


def parse_quantity(text: str) -> Quantity:
    """Parse a quantity as written, keeping its exact value and written precision.

    >>> parse_quantity("70,272 B").value
    Fraction(70272, 1)
    >>> parse_quantity("~8.6 GiB").tolerance == Fraction(2**30, 20)
    True
    """
    if not isinstance(text, str):
        raise QuantityError(f"a quantity is written as text such as '70,272 B', not {type(text).__name__}")
    return _parse_quantity(text)


@lru_cache(maxsize=1 << 14)
def _parse_quantity(text: str) -> Quantity:
    """Memoised: a quantity is immutable, and one build reads the same stated value in the check, the
    database and the record's page."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        raise QuantityError(
            f"{text!r} is not a quantity: write a non-negative number and a unit, e.g. '70,272 B', "
            "'68.6 KiB', '~8.6 GiB', '85.3x'"
        )
    digits = match["int"].replace(",", "")
    frac = match["frac"] or ""
    dimension, scale, unit = _unit_of(match["unit"])
    number = Fraction(int(digits + frac), 10 ** len(frac))
    half_digit = Fraction(1, 2 * 10 ** len(frac))
    return Quantity(
        text=text,
        value=number * scale,
        dimension=dimension,
        unit=unit,
        scale=scale,
        tolerance=half_digit * scale,
        approximate=match["approx"] is not None,
    )


_CONTEXT = re.compile(r"^ *(?P<num>[1-9][0-9]{0,2}(?:,[0-9]{3})+|[1-9][0-9]*) *(?P<suffix>[kKmM]?) *$")


def parse_context(text: str | int) -> int:
    """Read a context length the way it is written: ``131072``, ``"131,072"``, ``"128K"``, ``"1M"``.

    ``K`` is 1,024 tokens and ``M`` is 1,048,576, as context lengths are conventionally counted. At most
    :data:`MAX_CONTEXT_TOKENS`, written either way (``"100000000000000000000K"`` is refused as ``2**70``
    would be).
    """
    if isinstance(text, bool):
        raise QuantityError("a context length is a whole number of tokens, not a boolean")
    if isinstance(text, int):
        if text < 1:
            raise QuantityError(f"a context length is at least 1 token, not {text}")
        return _at_most_max_context(text, str(text))
    match = _CONTEXT.fullmatch(text)
    if match is None:
        raise QuantityError(f"{text!r} is not a context length: write 131072, 131,072, 128K or 1M")
    number = int(match["num"].replace(",", ""))
    factor = {"": 1, "k": 1024, "m": 1024 * 1024}[match["suffix"].lower()]
    value = number * factor
    if value < 1:
        raise QuantityError(f"a context length is at least 1 token, not {text!r}")
    return _at_most_max_context(value, repr(text))


MAX_CONTEXT_TOKENS = 2**40
"""The longest context a record may state (the record model bounds whole numbers the same way)."""


def _at_most_max_context(value: int, written: str) -> int:
    if value > MAX_CONTEXT_TOKENS:
        limit = f"{MAX_CONTEXT_TOKENS:,} (2^40)"
        raise QuantityError(f"a context length is at most {limit} tokens, not {written}")
    return value


def format_int(value: int) -> str:
    """``70272`` → ``"70,272"``."""
    return f"{value:,}"


def format_bytes(value: Fraction | int, unit: str | None = None, digits: int = 1) -> str:
    """Render bytes in a binary unit (the largest that keeps the number at least 1, or ``unit``).

    Exact values print without decimals: 131,072 B is ``"128 KiB"``, 70,272 B is ``"68.6 KiB"``.
    """
    exact = Fraction(value)
    if unit is None:
        unit = "B"
        for candidate in ("KiB", "MiB", "GiB", "TiB", "PiB"):
            if exact >= _BYTE_UNITS[candidate]:
                unit = candidate
    scaled = exact / _BYTE_UNITS[unit]
    if scaled.denominator == 1:
        return f"{format_int(int(scaled))} {unit}"
    return f"{float(scaled):,.{digits}f} {unit}"


def _units_of(dimension: Dimension) -> list[str]:
    if dimension in (Dimension.BYTES, Dimension.BYTES_PER_TOKEN):
        return list(_BYTE_UNITS)
    if dimension is Dimension.BYTES_PER_SECOND:
        return [f"{unit}/s" for unit in _BYTE_UNITS]
    if dimension is Dimension.SECONDS:
        return list(_TIME_UNITS)
    if dimension is Dimension.TOKENS_PER_SECOND:
        return list(_RATE_UNITS)
    if dimension is Dimension.REQUESTS_PER_SECOND:
        return list(_REQUEST_RATE_UNITS)
    if dimension is Dimension.WATTS:
        return list(_POWER_UNITS)
    if dimension is Dimension.JOULES_PER_TOKEN:
        return list(_ENERGY_PER_TOKEN_UNITS)
    if dimension is Dimension.FLOPS:
        return list(_FLOPS_UNITS)
    if dimension is Dimension.RATIO:
        return list(_RATIO_UNITS)
    if dimension is Dimension.TOKENS:
        return ["tokens", "token"]
    return [""]


def quantity_pattern(*dimensions: Dimension) -> str:
    """A regular expression (JSON Schema dialect) accepting exactly what :func:`parse_quantity` reads
    with one of ``dimensions``, so the published schema and the parser agree."""
    alternatives: list[str] = []
    for dimension in dimensions:
        for unit in _units_of(dimension):
            escaped = re.escape(unit).replace("\\ ", " ")
            if dimension is Dimension.BYTES_PER_TOKEN:
                alternatives.append(f"{escaped} *(/ *(token|tok)|per +token)")
            else:
                alternatives.append(escaped)
    units = "|".join(sorted(set(alternatives), key=lambda unit: (-len(unit), unit)))
    return f"^ *([~≈] *)?([0-9]{{1,3}}(,[0-9]{{3}})+|[0-9]+)(\\.[0-9]+)? *({units}) *$"


CONTEXT_PATTERN = _CONTEXT.pattern.replace("?P<num>", "").replace("?P<suffix>", "").replace("?:", "")
"""What :func:`parse_context` reads from text, for the JSON Schema."""
