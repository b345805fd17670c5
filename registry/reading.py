"""Reading a file someone else chose, with bounds: the check's cache, a ``config.json`` given to ``calc
--config`` or ``import-config``.

A path can name anything: a link to ``/dev/zero`` (a read that never ends), a named pipe (a read that
never starts), a 300 MB file, JSON nested 100,000 deep. :func:`read_regular` opens the file without
blocking, and reads it only if it is a regular file under a size limit (and, when asked, not a link);
:func:`load_json` parses it with the same bounds as a record: nesting, duplicate keys, integer digits,
finite numbers. Both raise :class:`UnsafeFile`, one line naming the path.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from registry.errors import RegistryError

MAX_DEPTH = 64
"""Nesting of objects and arrays, as for a record (``registry.checker.limits.MAX_DEPTH``)."""
MAX_INT_DIGITS = 100
"""Digits of an integer, as for a record."""
MAX_SCHEMA_BYTES = 4 * 1024 * 1024
"""A committed JSON Schema is tens of kilobytes; a file far larger (a link to ``/dev/zero``) is not one."""


class UnsafeFile(RegistryError):
    """A file that is not read: not a regular file, a link where none is allowed, too large, not the
    JSON it should be. The message names the path."""


def read_regular(path: Path, limit: int, *, follow_links: bool = True) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Opened with ``O_NONBLOCK``, so a named pipe opens at once and is then refused, as is a device; with
    ``follow_links`` false, a link is refused without being followed (``O_NOFOLLOW``). The size is
    known before reading, and no more than ``limit + 1`` bytes are ever read (a file that grows meanwhile
    is refused too)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= os.O_NOFOLLOW
        if os.path.islink(path):
            raise UnsafeFile(f"{path}: a symbolic link; it is not followed")
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise UnsafeFile(f"{path}: {error.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(f"{path}: not a regular file (a pipe, a device or a folder is not read)")
        if info.st_size > limit:
            raise UnsafeFile(f"{path}: {info.st_size:,} bytes, over the limit of {limit:,}")
        os.set_blocking(fd, True)
        raw = handle.read(limit + 1)
    if len(raw) > limit:
        raise UnsafeFile(f"{path}: over the limit of {limit:,} bytes")
    return raw


FLOAT_TAG = "__float__"
"""transformers 5's spelling of a number JSON cannot write: ``{"__float__": "Infinity"}``
(``PreTrainedConfig._encode_special_floats``, which ``_decode_special_floats`` reads back as the float)."""


def load_json(raw: bytes, path: Path, what: str = "JSON", *, non_finite: bool = False) -> Any:
    """``raw`` parsed as JSON with a record's bounds: nesting at most :data:`MAX_DEPTH`, no key named
    twice in an object, integers of at most :data:`MAX_INT_DIGITS` digits, finite numbers only.

    With ``non_finite``, a number that is not finite (``Infinity``, ``-Infinity``, ``NaN`` as Python's
    ``json`` writes them, or a literal too large for a float) is read as transformers 5 writes it,
    ``{"__float__": "Infinity"}``: an object a record (YAML, JSON Schema) can hold, which a config's
    reader takes for the float (a published ``config.json`` may carry them where no layout looks)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnsafeFile(f"{path} is not UTF-8 text") from None
    try:
        return bounded_json(
            text,
            parse_int=_bounded_int,
            parse_float=_tagged_float if non_finite else _finite_float,
            parse_constant=_tagged_constant if non_finite else _refuse_constant,
        )
    except json.JSONDecodeError as error:
        raise UnsafeFile(
            f"{path} is not {what}: line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except JsonRefused as error:
        raise UnsafeFile(f"{path}: {error}") from None


class JsonRefused(ValueError):
    """A value the JSON holds that no record may hold, or JSON a record's bounds refuse."""


def bounded_json(
    text: str,
    *,
    parse_int: Callable[[str], Any],
    parse_float: Callable[[str], Any],
    parse_constant: Callable[[str], Any],
) -> Any:
    """``text`` parsed as JSON with a record's bounds on its shape: nesting at most :data:`MAX_DEPTH`
    (checked without recursion, and a parse that recurses too deep refused as such), no key named twice
    in an object; numbers as the hooks read them (a hook refuses with :class:`JsonRefused` or
    ``ValueError``). The one JSON parse of every file someone else wrote: a config, the cache, a
    schema, every importer's result file. Raises :class:`JsonRefused`, or ``json.JSONDecodeError``
    with its line and column."""
    try:
        data = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_int=parse_int,
            parse_float=parse_float,
            parse_constant=parse_constant,
        )
    except RecursionError:
        raise JsonRefused(f"nested deeper than {MAX_DEPTH} levels") from None
    if _depth(data) > MAX_DEPTH:
        raise JsonRefused(f"nested deeper than {MAX_DEPTH} levels")
    return data


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonRefused(
                    f"the JSON names the key {key!r} twice; which value is meant cannot be known"
                )
            seen.add(key)
    return data


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonRefused(
            f"an integer of {len(digits.lstrip('-')):,} digits; at most {MAX_INT_DIGITS} are read"
        )
    return int(digits)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonRefused(f"{text[:40]} is not a finite number; records hold finite numbers only")
    return value


def _tagged_float(text: str) -> float | dict[str, str]:
    value = float(text)
    if math.isfinite(value):
        return value
    return _tagged_constant("-Infinity" if value < 0 else "Infinity")


def _tagged_constant(name: str) -> dict[str, str]:
    return {FLOAT_TAG: name}


def _refuse_constant(name: str) -> Any:
    raise JsonRefused(f"{name} is not a finite number; records hold finite numbers only")


def _depth(data: Any) -> int:
    """How deeply objects and arrays nest in ``data``, counted without recursion."""
    deepest = 0
    stack = [(data, 1)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, level)
            if level <= MAX_DEPTH:
                children = value.values() if isinstance(value, dict) else value
                stack.extend((child, level + 1) for child in children)
    return deepest
