"""Finding the registry: the folder holding ``records/``, as git finds its repository."""

from __future__ import annotations

from pathlib import Path

from registry.errors import RootNotFound

__all__ = ["RootNotFound", "find_root"]


def find_root(start: Path, explicit: Path | None = None) -> Path:
    """The registry root: ``explicit`` if given, else the nearest folder at or above ``start``
    that holds ``records/``."""
    if explicit is not None:
        if not (explicit / "records").is_dir():
            raise RootNotFound(f"{explicit} holds no records/ folder")
        return explicit.resolve()
    here = start.resolve()
    for folder in (here, *here.parents):
        if (folder / "records").is_dir():
            return folder
    raise RootNotFound(f"no records/ folder in {here} or any folder above it; pass --root DIR")
