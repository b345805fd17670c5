"""A model's ``config.json``, read for ``calc --config`` and ``import-config``: with a record's bounds
(:mod:`registry.reading`) and its attention geometry checked, so that no number is computed from heads
that cannot exist; and an adapter's error about one of its fields located at the field's line and column
(:func:`located_error`)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from json.decoder import scanstring  # type: ignore[attr-defined]
from pathlib import Path
from typing import Any

from registry.checker.limits import MAX_FILE_BYTES
from registry.engine.adapters import ConfigFieldError
from registry.reading import UnsafeFile, load_json, read_regular


def read_config(path: Path) -> dict[str, Any]:
    """The JSON object in the config file at ``path``, in its published key order.

    Refused (:class:`registry.reading.UnsafeFile`, one line): anything but a regular file of at most
    :data:`registry.checker.limits.MAX_FILE_BYTES`, JSON that is not an object, nests past 64 levels, names
    a key twice or holds an integer of more than 100 digits, and a geometry whose key-value heads do not
    divide its attention heads. A number that is not finite (Mamba-2 configs' ``"time_step_limit": [0.0,
    Infinity]``) is kept as transformers 5 writes it, ``{"__float__": "Infinity"}``
    (:func:`registry.reading.load_json`): the engine refuses it only in a field a layout reads."""
    data = load_json(read_regular(path, MAX_FILE_BYTES), path, non_finite=True)
    if not isinstance(data, dict):
        raise UnsafeFile(f"{path} holds a JSON {type(data).__name__}; a config.json holds an object")
    problem = geometry_problem(data)
    if problem:
        raise UnsafeFile(f"{path}: {problem}")
    return data


def geometry_problem(config: dict[str, Any]) -> str | None:
    """Why the attention heads of ``config`` (or of a config nested in it, such as ``text_config``)
    cannot exist, or ``None``: grouped-query attention shares each key-value head among a whole number of
    query heads, so ``num_key_value_heads`` is positive and divides ``num_attention_heads``."""
    stack: list[Any] = [config]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(value)
        if not isinstance(value, dict):
            continue
        stack.extend(value.values())
        heads, kv_heads = value.get("num_attention_heads"), value.get("num_key_value_heads")
        if (
            not (isinstance(heads, int) and isinstance(kv_heads, int))
            or isinstance(heads, bool)
            or isinstance(kv_heads, bool)
        ):
            continue
        if heads < 1 or kv_heads < 1:
            return f"num_attention_heads {heads} and num_key_value_heads {kv_heads} must be at least 1"
        if kv_heads > heads or heads % kv_heads:
            return (
                f"num_key_value_heads {kv_heads} does not divide num_attention_heads {heads}; each key-value "
                "head serves a whole number of attention heads"
            )
    return None


_SCALAR = re.compile(r"-?(?:Infinity|NaN|[0-9][0-9.eE+-]*)|true|false|null")
_SPACE = re.compile(r"[ \t\r\n]*")


@dataclass
class _Open:
    """A container being scanned: its path, whether it is an object, and where its next value goes."""

    path: tuple[str | int, ...]
    is_object: bool
    key: str | int = 0


def value_positions(text: str) -> dict[tuple[str | int, ...], tuple[int, int]]:
    """The 1-based line and column where each value of the JSON ``text`` starts, by its path (object
    keys, list indices): what an error about a config's field points at. ``text`` is JSON that
    :func:`read_config` has read (Python's spellings of non-finite numbers included); scanning stops at
    anything else."""
    positions: dict[tuple[str | int, ...], tuple[int, int]] = {}
    lines = [0, *(found.end() for found in re.finditer("\n", text))]
    stack: list[_Open] = []
    index, size = 0, len(text)
    while (index := _SPACE.match(text, index).end()) < size:  # type: ignore[union-attr]
        char = text[index]
        if char == ",":
            index += 1
            if stack and not stack[-1].is_object:
                stack[-1].key = int(stack[-1].key) + 1
            continue
        if char in "]}":
            stack.pop()
            index += 1
            continue
        if stack and stack[-1].is_object:
            key, index = scanstring(text, index + 1)
            stack[-1].key = key
            index = _SPACE.match(text, index).end() + 1  # type: ignore[union-attr]  # the colon
            index = _SPACE.match(text, index).end()  # type: ignore[union-attr]
            char = text[index : index + 1]
        path = (*stack[-1].path, stack[-1].key) if stack else ()
        line = bisect_right(lines, index)
        positions[path] = (line, index - lines[line - 1] + 1)
        if char in ("[", "{"):
            stack.append(_Open(path, char == "{"))
            index += 1
        elif char == '"':
            index = scanstring(text, index + 1)[1]
        elif (match := _SCALAR.match(text, index)) is not None:
            index = match.end()
        else:
            break
    return positions


def error_position(text: str, error: ConfigFieldError) -> tuple[int, int]:
    """Where in the config's JSON ``text`` the field ``error`` names is written (a decoder's field may sit
    in ``text_config``), or its nearest enclosing value that is; 1:1 when none is."""
    positions = value_positions(text)
    path = error.path
    for exact in (path, ("text_config", *path)):
        if exact in positions:
            return positions[exact]
    for end in range(len(path) - 1, 0, -1):
        if path[:end] in positions:
            return positions[path[:end]]
    return 1, 1


def located_error(path: Path, error: ConfigFieldError) -> str:
    """``error`` as ``PATH:LINE:COLUMN: message``, at the field it names in the config file at ``path``."""
    try:
        text = read_regular(path, MAX_FILE_BYTES).decode("utf-8")
    except (UnsafeFile, UnicodeDecodeError):
        return f"{path}: {error}"
    line, column = error_position(text, error)
    return f"{path}:{line}:{column}: {error}"
