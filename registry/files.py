"""Atomic writes: a temporary file beside the target, flushed, then renamed into place."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomic(path: Path, data: str | bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so that a reader sees the old file or the new one, never a torn one.

    ``durable`` also forces the bytes to disk before the rename, so that a crash of the machine cannot
    leave an empty file in place of a record. Output that is regenerated from the records anyway (the
    site's pages) passes ``durable=False``: still never torn, but without paying an fsync per page.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else data
    write_atomic_with(path, lambda handle: handle.write(raw), durable=durable)


def write_atomic_with(path: Path, fill: Callable[[BinaryIO], object], *, durable: bool = True) -> None:
    """As :func:`write_atomic`, for a file written in parts: ``fill`` writes them to the open handle,
    so a large file is never whole in memory."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(temporary, _mode_for(path))
        with os.fdopen(fd, "wb") as handle:
            fill(handle)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    """Keep an existing file's permissions; give a new one the usual 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
