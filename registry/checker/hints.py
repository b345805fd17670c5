"""Hints that name the fix for the value written, not for the rule in general.

A schema finding's hint is read by someone who has just written the value it quotes: an ``http://``
address is answered with its ``https://`` form, ``BF16`` with ``bf16``, ``model: qwen2.5-14b`` with
``models/qwen2.5-14b``, a quoted number with the number, ``24 gib`` with ``GiB``. Each function takes
the value and what the schema wanted, and returns the hint, or ``""`` where the rule's own fix is the
best that can be said.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

from registry.engine.units import Dimension, QuantityError, known_units, parse_context, parse_quantity
from registry.kinds.fields import DTYPE_PATTERN, ID_PATTERN

if TYPE_CHECKING:
    from jsonschema import ValidationError

DTYPE_NAMES = tuple(DTYPE_PATTERN.strip("^$()").split("|"))
"""The dtype names a record may use, as the schema's pattern lists them."""

DTYPE_ALIASES = {
    "bfloat16": "bf16",
    "float16": "fp16",
    "half": "fp16",
    "float32": "fp32",
    "float": "fp32",
    "float8": "fp8",
    "float8_e4m3fn": "fp8_e4m3",
    "fp8_e4m3fn": "fp8_e4m3",
    "e4m3": "fp8_e4m3",
    "float8_e5m2": "fp8_e5m2",
    "e5m2": "fp8_e5m2",
    "uint8": "int8",
}
"""Other names for the registry's dtypes, as configs and engines spell them (torch, vLLM)."""

_COLLECTION_OF_FIELD = {"model": "models", "engine": "engines", "hardware": "hardware"}
_COLLECTIONS = ("models", "kv-efficiency", "benchmarks", "engines", "hardware")
_SPACED_THOUSANDS = re.compile(
    r"^ *(?P<approx>[~≈] *)?(?P<int>[0-9]{1,3}(?: [0-9]{3})+)(?P<rest>(?:\.[0-9]+)? *\S.*)?$"
)


def pattern_hint(path: list[Any], value: str, pattern: str, record_path: str) -> str:
    """The fix for a text that does not have its field's form: a URL, an id, a dtype."""
    if pattern.startswith("^https://"):
        if value.lower().startswith("http://"):
            return f"records cite https addresses: write {'https://' + value[len('http://') :]!r}"
        return "write the whole address, starting with https://"
    if pattern == ID_PATTERN:
        return _id_hint(path, value, record_path)
    if pattern == DTYPE_PATTERN:
        return dtype_hint(value)
    return "write the value in the form the message describes"


def dtype_hint(value: str) -> str:
    """``BF16`` and ``bfloat16`` → ``did you mean 'bf16'?``."""
    lowered = value.strip().lower()
    name = lowered if lowered in DTYPE_NAMES else DTYPE_ALIASES.get(lowered)
    if name is None:
        close = difflib.get_close_matches(lowered, DTYPE_NAMES, n=1)
        name = close[0] if close else None
    if name is None:
        return f"write one of {', '.join(DTYPE_NAMES)}"
    return f"did you mean {name!r}? dtypes are written in lower case, by the registry's names"


def _id_hint(path: list[Any], value: str, record_path: str) -> str:
    lowered = value.strip().lower()
    field = str(path[0]) if path else ""
    if field == "id" and record_path.count("/") == 2 and record_path.endswith(".yaml"):
        wanted = record_path[len("records/") : -len(".yaml")]
        return f"the id is the file's path under records/ without .yaml: {wanted!r}"
    if re.fullmatch(ID_PATTERN, lowered):
        return f"ids are lower case: {lowered!r}"
    if "/" not in lowered:
        collection = _COLLECTION_OF_FIELD.get(field)
        if collection is not None:
            return f"did you mean {collection + '/' + lowered!r}? an id names its collection first"
        return f"an id names its collection first: one of {', '.join(c + '/' for c in _COLLECTIONS)}"
    return "an id is <collection>/<slug>: lower-case letters, digits, '.', '_' and '-'"


def type_hint(expected: Any, value: Any) -> str:
    """The fix for a value of the wrong type, from the value written: quote text, unquote a number."""
    wanted = set(expected) if isinstance(expected, list) else {expected}
    wanted.discard("null")
    if value is None:
        words = {
            "string": "text",
            "integer": "a whole number",
            "number": "a number",
            "boolean": "true or false",
            "array": "a list",
            "object": "a mapping",
        }
        what = " or ".join(words.get(name, f"a {name}") for name in sorted(wanted))
        return f"fill in the value ({what}), or remove the field if it is optional"
    if "string" in wanted and isinstance(value, bool | int | float):
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        return f"quote the value, which is text here: {shown!r}"
    if wanted & {"integer", "number"} and isinstance(value, str):
        bare = value.strip().replace(",", "")
        if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", bare):
            return f"write the number without quotes or thousands separators: {bare}"
        return "write a number (digits only, without a unit or quotes)"
    if "integer" in wanted and isinstance(value, float):
        return f"write a whole number: {int(value)}" if value.is_integer() else "write a whole number"
    if "boolean" in wanted:
        return "write true or false, without quotes"
    if "array" in wanted:
        return "write a list: one '- ' item per line below the field"
    if "object" in wanted:
        return "write a mapping: 'name: value' lines indented below the field"
    return ""


def quantity_problem(value: str) -> tuple[str, str] | None:
    """A message and a hint for a quantity written in a form people use but the registry does not read
    (digits grouped by spaces, a unit in the wrong case, no unit); None for anything else."""
    spaced = _SPACED_THOUSANDS.fullmatch(value)
    if spaced is not None:
        fixed = f"{spaced['approx'] or ''}{spaced['int'].replace(' ', ',')}{spaced['rest'] or ''}"
        return (
            f"{value!r} groups its digits with spaces, so the number would end at the first space",
            f"separate thousands with commas: {fixed!r}",
        )
    try:
        parse_quantity(value)
    except QuantityError:
        return _unit_case(value)
    return None


def _unit_case(value: str) -> tuple[str, str] | None:
    match = re.fullmatch(r" *(?P<number>[~≈]? *[0-9][0-9,]*(?:\.[0-9]+)?) *(?P<unit>\S.*?) *", value)
    if match is None:
        return None
    unit = match["unit"]
    same = [known for known in known_units() if known.lower() == unit.lower()]
    if not same:
        return None
    return (
        f"unknown unit {unit!r} in {value!r}; units are written in their own case",
        f"did you mean {same[0]!r}? write {match['number'] + ' ' + same[0]!r}",
    )


def unitless_hint(value: str, dimensions: list[str]) -> str:
    """A number with no unit where a quantity belongs: the number with the unit its dimension uses."""
    units = {
        "bytes": " B",
        "bytes/token": " B/token",
        "seconds": " s",
        "ratio": "x",
        "tokens/second": " tok/s",
    }
    suggestions = [f"'{value.strip()}{units[d]}'" for d in dimensions if d in units]
    return f"add the unit: {' or '.join(suggestions)}" if suggestions else "add the unit"


CONTEXT_HINT = "write a number of tokens: 131072, 131,072, 128K (131,072) or 1M (1,048,576)"


def quantity_finding(where: str, value: str, dimensions: list[str]) -> tuple[str, str]:
    """The message and hint for a stated quantity that cannot be read, or is in the wrong dimension."""
    problem = quantity_problem(value)
    if problem is not None:
        return f"{where}: {problem[0]}", problem[1]
    try:
        quantity = parse_quantity(value)
    except QuantityError as error:
        return f"{where}: {error}", ""
    wanted = " or ".join(dimensions)
    if quantity.dimension is Dimension.BYTES_PER_TOKEN and "bytes" in dimensions:
        message = f"{where} {value!r} is a per-token figure, but this quantity is a total in bytes"
        return message, "state the total (bytes per token x the context), or use a per-token quantity"
    if quantity.dimension is Dimension.COUNT:
        return f"{where} {value!r} has no unit; it is measured in {wanted}", unitless_hint(value, dimensions)
    message = f"{where} is measured in {wanted}, but {value!r} is in {quantity.dimension.value}"
    return message, f"state the figure in {wanted}"


def context_finding(where: str, value: str) -> tuple[str, str]:
    """The message and hint for a context length that cannot be read."""
    try:
        parse_context(value)
    except QuantityError as error:
        return f"{where}: {error}", CONTEXT_HINT
    return f"{where}: {value!r} is not a context length", CONTEXT_HINT


def limit_finding(error: ValidationError) -> tuple[str, str]:
    """The message and hint for a bound broken (minimum, maxLength, ...), in words, or jsonschema's own."""
    bound: Any = error.validator_value
    value = error.instance
    found = {
        "minimum": (f"{value!r} is less than the minimum {bound}", f"use a value of at least {bound}"),
        "maximum": (f"{value!r} is more than the maximum {bound}", f"use a value of at most {bound}"),
        "exclusiveMinimum": (f"{value!r} must be more than {bound}", f"use a value above {bound}"),
        "exclusiveMaximum": (f"{value!r} must be less than {bound}", f"use a value below {bound}"),
        "minLength": (f"the text is shorter than {bound} characters", "write the text out in full"),
        "maxLength": (
            f"the text is longer than {bound} characters",
            f"shorten it to {bound} characters; longer text belongs in notes",
        ),
        "minItems": (
            f"the list needs at least {bound} item(s)",
            f"add at least {bound} item(s) to the list, or remove the field if it is optional",
        ),
        "maxItems": (f"the list holds more than {bound} items", f"keep at most {bound} items"),
    }
    return found.get(str(error.validator), (str(error.message), ""))
