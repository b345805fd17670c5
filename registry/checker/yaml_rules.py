"""What a record's YAML may hold, shared by both loaders (:mod:`registry.checker.load`, the canonical one,
and :mod:`registry.checker.fastload`): the tags it may carry, and the one rule set that gives a plain
scalar its value (the YAML 1.2 core schema: ``yes`` stays a string, dates stay strings,
``0o10`` is 8)."""

from __future__ import annotations

import math
import re
from typing import Any

STR_TAG = "tag:yaml.org,2002:str"
ALLOWED_TAGS = {
    None,
    "!",
    STR_TAG,
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}

# YAML 1.2 core schema, https://yaml.org/spec/1.2.2/#1023-core-schema
_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_TRUE = re.compile(r"^(?:true|True|TRUE)$")
_FALSE = re.compile(r"^(?:false|False|FALSE)$")
_INT10 = re.compile(r"^[-+]?[0-9]+$")
_INT8 = re.compile(r"^0o[0-7]+$")
_INT16 = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_INF = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$")
_NAN = re.compile(r"^\.(?:nan|NaN|NAN)$")
_MAX_INT_DIGITS = 100
_SPECIAL_STARTS = frozenset("~nNtTfF0123456789+-.")


def resolve_plain(text: str) -> Any:
    """The value of a plain (unquoted) scalar under the YAML 1.2 core schema."""
    first = text[:1]
    if first and first not in _SPECIAL_STARTS:
        return text  # most scalars are words: no core-schema type starts with their first letter
    if _NULL.match(text):
        return None
    if _TRUE.match(text):
        return True
    if _FALSE.match(text):
        return False
    if _INT10.match(text):
        if len(text) > _MAX_INT_DIGITS:
            raise ValueError(f"integer with more than {_MAX_INT_DIGITS} digits")
        return int(text)
    if _INT8.match(text) or _INT16.match(text):
        # bounded like decimals: a 5,000-digit 0x... is too large even to print (int-to-text limit)
        if len(text) - 2 > _MAX_INT_DIGITS:
            raise ValueError(f"integer with more than {_MAX_INT_DIGITS} digits")
        return int(text[2:], 8 if text[1] == "o" else 16)
    if _FLOAT.match(text) and any(ch.isdigit() for ch in text):
        return float(text)
    if _INF.match(text):
        return -math.inf if text.startswith("-") else math.inf
    if _NAN.match(text):
        return math.nan
    return text
