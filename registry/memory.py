"""Giving freed memory back to the system between the long stages of a command."""

from __future__ import annotations

import sys
from functools import cache
from typing import Any


@cache
def _trim() -> Any:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS, Windows)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # here, not at the top: every command that checks imports this module (2 ms)

    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def return_freed_memory() -> bool:
    """Ask the C allocator to give back the pages its freed blocks leave wholly unused; True when it
    could be asked.

    glibc keeps freed memory in its heap for reuse, and gives back on its own only what is freed at
    the heap's top. The check makes and drops a record's worth of parsing at a time, for every record,
    among the few blocks it keeps, so what it freed stays resident after it ends: about 6 MiB at
    30,000 records, for the database build or the site that follows it; the site generator's leaves
    12 MiB at 10,000 records while MkDocs runs. Asking takes about a millisecond.
    """
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
