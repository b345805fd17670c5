"""Freed memory goes back to the system where the C library can be asked, and nothing fails where not."""

from __future__ import annotations

import ctypes
import platform
import sys
from collections.abc import Iterator

import pytest

from registry import memory as _memory


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    _memory._trim.cache_clear()
    yield
    _memory._trim.cache_clear()  # not the stand-in C library of a test below


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc only"
)
def test_glibc_is_asked() -> None:
    assert _memory.return_freed_memory() is True


def test_a_c_library_without_malloc_trim_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    class Musl:
        def __init__(self, name: object) -> None:
            pass

    monkeypatch.setattr(ctypes, "CDLL", Musl)
    monkeypatch.setattr(sys, "platform", "linux")
    assert _memory.return_freed_memory() is False


def test_other_systems_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert _memory.return_freed_memory() is False
