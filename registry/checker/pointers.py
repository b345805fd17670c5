"""JSON pointers and positions: how a finding names a node of a record, and where that node stands."""

from __future__ import annotations

from collections.abc import Iterable

Position = tuple[int, int]
"""A node's 1-based (line, column) in its file."""


def escape_pointer_part(part: str | int) -> str:
    """One step of a JSON pointer (RFC 6901): ``~`` and ``/`` escaped."""
    return str(part).replace("~", "~0").replace("/", "~1")


def pointer_of(parts: Iterable[str | int]) -> str:
    """The JSON pointer of a path of keys and indexes (``["claims", 2]`` -> ``"/claims/2"``)."""
    return "".join(f"/{escape_pointer_part(part)}" for part in parts)
