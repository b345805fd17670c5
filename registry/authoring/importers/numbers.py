"""A number as a source writes it, read by the rules a record's numbers keep, before any parsing.

Python's ``float()`` and ``int()`` take far more than a number: ``1_000``, Arabic-Indic or full-width
digits, ``-0``, ``1e308``, ``1e1200000`` (a 0.8 KB file that becomes a 1.18 MB record of digits once
written out), a 5,000-digit integer (past Python's own 4,300-digit limit, an internal error). Every
importer reads a number from its text through :func:`source_number` (the JSON reader's hooks, the MLPerf
table's cells, an accuracy score), which takes only JSON's grammar in ASCII digits, at most
:data:`MAX_DIGITS` digits and an exponent of at most :data:`MAX_EXPONENT`, all checked on the text before
it is turned into a value.
"""

from __future__ import annotations

import re
from decimal import Decimal

MAX_DIGITS = 40
"""Digits of a number's significand, as a formula's numbers (a measured figure has a handful)."""
MAX_EXPONENT = 40
"""The largest power of ten a number may write: ``1e40`` is past any figure a serving run measures,
and a number written out in full stays under a record's 100-digit bound."""

_NUMBER = re.compile(r"(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?")


class NumberRefused(ValueError):
    """Text that is not a number a record may hold; the message says why, quoting it (cut short)."""


def source_number(text: str) -> int | Decimal:
    """``text`` as an ``int`` (no fraction, no exponent) or an exact ``Decimal``, by the rules above;
    :class:`NumberRefused` otherwise. A negative zero is refused: no source measures one, and a record
    cannot tell it from zero."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        raise NumberRefused(f"{_shown(text)} is not a number (JSON's form, ASCII digits, no '_' or spaces)")
    sign, whole, fraction, exponent = match.groups()
    if len(whole) + len(fraction or "") > MAX_DIGITS:
        raise NumberRefused(f"{_shown(text)} has more than {MAX_DIGITS} digits")
    if exponent is not None and (len(exponent.lstrip("+-")) > 3 or abs(int(exponent)) > MAX_EXPONENT):
        raise NumberRefused(f"{_shown(text)}: an exponent beyond {MAX_EXPONENT} is past any measured figure")
    if sign and not whole.strip("0") and not (fraction or "").strip("0"):
        raise NumberRefused(f"{_shown(text)} is a negative zero")
    if fraction is None and exponent is None:
        return int(text)
    return Decimal(text)


def _shown(text: str) -> str:
    """``text`` quoted for a refusal, cut short."""
    return repr(text if len(text) <= 40 else f"{text[:37]}...")
