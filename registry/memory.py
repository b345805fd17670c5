"""Giving freed memory back to the system between the long stages of a command."""

from __future__ import annotations

import sys
from functools import cache
from typing import Any


@cache
def _trim() -> Any:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS, Windows). ``ctypes``
    is imported on first use: every command that checks imports this module."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # lazy

    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def return_freed_memory() -> bool:
    """Ask the C allocator to give back the pages its freed blocks leave wholly unused; True when it
    could be asked.

    glibc keeps freed memory in its heap for reuse, and gives back on its own only what is freed at
    the heap's top. The check makes and drops a record's worth of parsing at a time, for every record,
    among the few blocks it keeps, so what it freed stays resident after it ends, through the database
    build or the site that follows it; so does what the site generator freed while MkDocs runs. Asking
    is cheap.
    """
    trim = _trim()
    if trim is None:
        return False
    trim(0)
    return True
