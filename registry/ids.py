"""Record ids as people type them, resolved in one place: every command that takes an id (``calc
--model``, ``new``, ``import-config --id``, ``explain``) goes through :func:`record_id` (or, to read a
record that exists, :func:`existing_record_id`), and every file it reads or writes for one through
:func:`record_path`. The forms are the same everywhere: ``models/qwen3-8b``, ``records/models/qwen3-8b.yaml``,
``models/qwen3-8b.yaml`` and the bare slug ``qwen3-8b``.

An id is ``collection/slug`` (:data:`registry.kinds.records.ID_PATTERN`), so ``..``, an absolute path
or a second folder can never reach the file system. A path under ``records/`` is confined by its form,
and by refusing links: ``records/``, the collection folder and the file itself must be the registry's
own, or a write would land wherever a link points.

One rule more holds every id, in the check (the file's name), ``new``, ``import-config`` and every
importer alike (:func:`id_problem`): no slug Windows reserves for a device (``aux``, ``con``, ``nul``,
``prn``, ``com0``-``com9``, ``lpt0``-``lpt9``, with any extension: ``nul.v2`` too), since Git for
Windows cannot check such a path out and one merged record would break every Windows clone; and no
id that differs only in case from a file already in its collection, which a case-insensitive file
system (macOS, Windows) would take for the same file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from registry.errors import RegistryError
from registry.kinds.fields import SLUG_PATTERN
from registry.kinds.records import ID_PATTERN, KINDS

_ID = re.compile(ID_PATTERN)
_SLUG = re.compile(SLUG_PATTERN)


WINDOWS_RESERVED = frozenset(
    {"aux", "con", "nul", "prn", *(f"com{n}" for n in range(10)), *(f"lpt{n}" for n in range(10))}
)
"""Names Windows gives to devices: a file so named, whatever its extension, cannot be made there."""


def reserved_problem(slug: str) -> str | None:
    """Why a slug (or file name) cannot name a file on Windows, or ``None``."""
    stem = slug.split(".", 1)[0].lower()
    if stem in WINDOWS_RESERVED:
        return f"{slug!r} is a name Windows reserves for a device ({stem.upper()}), with any extension"
    return None


def id_problem(root: Path, record_id_: str, listings: dict[Path, dict[str, str]] | None = None) -> str | None:
    """Why ``record_id_`` cannot be a record's id in the registry at ``root``, or ``None``: not the
    form of an id, a name Windows reserves, or another file in its collection of the same name but
    for case. ``listings`` keeps each folder's listing between calls of one import."""
    if not _ID.fullmatch(record_id_):
        return f"{record_id_!r} is not a record id"
    collection, slug = record_id_.split("/")
    if (reserved := reserved_problem(slug)) is not None:
        return reserved
    folder = root / "records" / collection
    listing = None if listings is None else listings.get(folder)
    if listing is None:
        try:
            listing = {name.casefold(): name for name in os.listdir(folder)}
        except OSError:
            listing = {}
        if listings is not None:
            listings[folder] = listing
    other = listing.get(f"{slug}.yaml".casefold())
    if other is not None and other != f"{slug}.yaml":
        return f"records/{collection}/{other} differs from {record_id_} only in case; they would be one file"
    return None


class BadId(RegistryError):
    """Text that does not name a record, or a record path that passes through a link."""


def record_id(text: str, collection: str | None = None) -> str:
    """The id ``text`` names: ``models/qwen3-8b``, ``records/models/qwen3-8b.yaml``, ``models/qwen3-8b.yaml``
    or, with a ``collection``, the bare slug ``qwen3-8b``. Anything else is refused, saying the form."""
    wanted = text.removeprefix("./").removeprefix("records/").removesuffix(".yaml")
    if collection is not None and "/" not in wanted:
        wanted = f"{collection}/{wanted}"
    if not _ID.fullmatch(wanted) or (collection is not None and not wanted.startswith(f"{collection}/")):
        where = f"{collection}/<slug>" if collection else "<collection>/<slug>"
        raise BadId(
            f"{text!r} is not a record id: {where}, the collection one of {', '.join(KINDS.values())} and "
            "the slug lower-case letters, digits, '.', '_' and '-'"
        )
    if (reserved := reserved_problem(wanted.split("/")[1])) is not None:
        raise BadId(f"{text!r} cannot be a record id: {reserved}; choose another slug")
    return wanted


def existing_record_id(root: Path, text: str, collection: str | None = None) -> str:
    """The id of an existing record that ``text`` names, in any of :func:`record_id`'s forms. A bare slug
    with no ``collection`` is the record of that slug in whichever collection holds one
    (``deepseek-v3`` is ``models/deepseek-v3``); a slug that several collections hold is refused, naming
    them. Raises :class:`BadId` for text that names no record."""
    bare = text.removeprefix("./").removesuffix(".yaml")
    if collection is not None or "/" in bare:
        return record_id(text, collection)
    if not _SLUG.fullmatch(bare):
        record_id(text)  # refused, saying the forms an id takes
    found = [
        f"{folder}/{bare}"
        for folder in sorted(KINDS.values())
        if (root / "records" / folder / f"{bare}.yaml").is_file()
    ]
    if len(found) == 1:
        return found[0]
    if found:
        raise BadId(f"{text!r} names several records: {', '.join(found)}; give the collection too")
    raise BadId(f"no record {text!r} in any collection of {root / 'records'}")


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
