"""Record ids as people type them, resolved in one place: every command that takes an id (``calc
--model``, ``new``, ``import-config --id``, ``explain``) goes through :func:`record_id`, and every file
it reads or writes for one through :func:`record_path`.

An id is ``collection/slug`` (:data:`registry.kinds.records.ID_PATTERN`), so ``..``, an absolute path
or a second folder can never reach the file system. A path under ``records/`` is confined by its form,
and by refusing links: ``records/``, the collection folder and the file itself must be the registry's
own, or a write would land wherever a link points.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from registry.errors import RegistryError
from registry.kinds.records import ID_PATTERN, KINDS

_ID = re.compile(ID_PATTERN)


class BadId(RegistryError):
    """Text that does not name a record, or a record path that passes through a link."""


def record_id(text: str, collection: str | None = None) -> str:
    """The id ``text`` names: ``models/qwen3-8b``, ``records/models/qwen3-8b.yaml``, ``models/qwen3-8b.yaml``
    or, with a ``collection``, the bare slug ``qwen3-8b``. Anything else is refused, saying the form."""
    wanted = text.removeprefix("records/").removesuffix(".yaml")
    if collection is not None and "/" not in wanted:
        wanted = f"{collection}/{wanted}"
    if not _ID.fullmatch(wanted) or (collection is not None and not wanted.startswith(f"{collection}/")):
        where = f"{collection}/<slug>" if collection else "<collection>/<slug>"
        raise BadId(
            f"{text!r} is not a record id: {where}, the collection one of {', '.join(KINDS.values())} and "
            "the slug lower-case letters, digits, '.', '_' and '-'"
        )
    return wanted


def record_path(root: Path, record_id_: str, *, create: bool = False) -> Path:
    """``records/<id>.yaml`` under ``root``, refused when ``records/``, the collection folder or the file
    is a symbolic link. With ``create``, a missing collection folder is made (never through a link)."""
    if not _ID.fullmatch(record_id_):
        raise BadId(f"{record_id_!r} is not a record id")
    collection, slug = record_id_.split("/")
    records = root / "records"
    folder = records / collection
    for path in (records, folder, folder / f"{slug}.yaml"):
        if os.path.islink(path):
            raise BadId(
                f"{path} is a symbolic link; records are read and written only in the registry's own folders"
            )
    if create and not folder.exists():
        folder.mkdir(parents=True)
    return folder / f"{slug}.yaml"
