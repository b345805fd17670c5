"""``registry fmt``: rewrite records in one canonical form, keeping every comment and every value.

The canonical form:

- the modeline ``# yaml-language-server: $schema=../../schemas/<kind>.schema.json`` first (added when
  missing, corrected when it names another schema);
- keys in the record model's order (:func:`registry.authoring.order.canonical_order`): ``schema_version,
  id, kind, title, evidence``, then the kind's own fields in the order the pydantic class declares them,
  then the envelope's ``sources, notes, methodology, related, tags, errata``; nested mappings (claims,
  sources, precision, workload, errata, layer groups, config_source, capabilities) follow their own class;
  ``config`` keeps the published order; a key the model does not know goes last, in its own order;
- 2-space mapping indent, sequences written ``  - `` under their key, no line re-wrapping, quotes and
  block scalars as written, one final newline (:mod:`registry.authoring.emit`);
- a comment travels with the key or item it is written above, or on the line of
  (:mod:`registry.authoring.comments` says which).

Round-trip parsing (ruamel.yaml ``rt``) belongs here and nowhere on the check's hot path: the text is
loaded, its comments stripped, its keys reordered, the comments put back in their places, and the tree
dumped once.

Nothing is written on trust: the result is loaded again with the registry's own loader and must give
exactly the same data (types included) and the same comments, or the file is left untouched and the
reason reported. Writes are atomic (:func:`registry.files.write_atomic`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from registry.authoring.comments import anchors_of, find_comments, place, strip_comments, with_blank_lines
from registry.authoring.emit import dump, round_trip_yaml, same_value
from registry.authoring.order import reorder
from registry.checker.limits import MAX_FILE_BYTES
from registry.checker.load import load_text
from registry.diagnostics import Diagnostic
from registry.errors import FmtRefused, RegistryError
from registry.files import write_atomic
from registry.kinds.records import KINDS, MODEL_CLASSES

_MODELINE_PREFIX = re.compile(r"^#\s*yaml-language-server:")

Status = Literal["unchanged", "reformatted", "unreadable", "refused"]


class FmtLoadError(Exception):
    """The file does not load; the diagnostics say where and why."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(diagnostics[0].message if diagnostics else "the file does not load")
        self.diagnostics = diagnostics


# ---------------------------------------------------------------- formatting one text


def _kind_of(data: Any) -> str | None:
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) and kind in KINDS else None


def _render(text: str) -> str:
    """The canonical text of ``text`` (which loads), before verification."""
    yaml = round_trip_yaml()
    data = yaml.load(text)
    kind = _kind_of(data)
    comments = find_comments(text)
    if kind is not None:
        comments = [c for c in comments if c.end_of_line or not _MODELINE_PREFIX.match(c.text)]
    placement = place(with_blank_lines(text, comments), list(anchors_of(data)))
    strip_comments(data)
    reorder(data, MODEL_CLASSES[kind] if kind else None)
    return dump(yaml, data, placement, kind)


def _comment_texts(text: str, kind: str | None) -> list[str]:
    texts = [c.text for c in find_comments(text)]
    if kind is not None:
        texts = [t for t in texts if not _MODELINE_PREFIX.match(t)]
    return sorted(texts)


def format_text(text: str, path: str = "<text>") -> str:
    """The canonical form of one record's text.

    Raises :class:`FmtLoadError` when the text does not load with the registry's loader (nothing can be
    promised about a file that does not parse) and :class:`FmtRefused` when the canonical form would
    change a value or lose a comment.
    """
    before = load_text(path, text)
    if before.document is None:
        raise FmtLoadError(before.diagnostics)
    try:
        result = _render(text)
    except Exception as error:  # ruamel.yaml's own refusals (its rt loader is stricter in places)
        raise FmtRefused(f"ruamel.yaml could not round-trip the file: {error}") from error
    after = load_text(path, result)
    if after.document is None or not same_value(before.document.data, after.document.data):
        raise FmtRefused("the canonical form would change a value")
    kind = _kind_of(before.document.data)
    if _comment_texts(text, kind) != _comment_texts(result, kind):
        raise FmtRefused("the canonical form would lose or alter a comment")
    return result


# ---------------------------------------------------------------- files


@dataclass(frozen=True)
class FileResult:
    """What fmt did (or, with ``check``, would do) to one file."""

    path: str
    status: Status
    message: str = ""
    diagnostics: tuple[Diagnostic, ...] = ()


class Outcome(Protocol):
    """What a command that rewrites records did (or would do) to one file."""

    @property
    def status(self) -> str: ...


R = TypeVar("R", bound=Outcome)


@dataclass
class FileReport(Generic[R]):
    """Every file a rewriting command (``fmt``, ``migrate``) looked at, in path order. :attr:`changed`
    is the status of a file it rewrote, which with ``check`` is a failure."""

    files: list[R]
    check: bool
    changed: ClassVar[str]

    def with_status(self, status: str) -> list[R]:
        return [f for f in self.files if f.status == status]

    @property
    def ok(self) -> bool:
        """True when no file failed and (with ``check``) none is left to rewrite."""
        bad = ("unreadable", "refused", self.changed) if self.check else ("unreadable", "refused")
        return not any(f.status in bad for f in self.files)


class FmtReport(FileReport[FileResult]):
    """Every file fmt looked at: ``ok`` when every file loaded and was (or already is) canonical."""

    changed = "reformatted"


def record_files(root: Path, paths: Sequence[Path] = ()) -> list[Path]:
    """The ``.yaml`` files to format: every file under ``records/``, or those under ``paths``."""
    if not paths:
        return sorted(p for p in (root / "records").rglob("*.yaml") if p.is_file() and not p.is_symlink())
    chosen: set[Path] = set()
    for given in paths:
        if given.is_dir():
            chosen.update(p for p in given.rglob("*.yaml") if p.is_file() and not p.is_symlink())
        elif given.is_file():
            chosen.add(given)
        else:
            raise RegistryError(f"{given}: no such file or folder")
    return sorted(chosen)


def _shown(root: Path, path: Path) -> str:
    """``path`` relative to the registry root when it is inside it, as a posix path."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def format_file(root: Path, path: Path, *, check: bool = False) -> FileResult:
    """Format one file in place (atomically), or with ``check`` only say whether it would change."""
    shown = _shown(root, path)
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:  # the check refuses it by size too; parsing it would take far too long
        return FileResult(shown, "unreadable", f"{size:,} bytes, more than a record may hold; left untouched")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return FileResult(shown, "unreadable", "not UTF-8 text; left untouched")
    try:
        result = format_text(text, shown)
    except FmtLoadError as error:
        return FileResult(shown, "unreadable", "does not load; left untouched", tuple(error.diagnostics))
    except FmtRefused as error:
        return FileResult(shown, "refused", f"{error}; left untouched")
    if result == text:
        return FileResult(shown, "unchanged")
    if not check:
        write_atomic(path, result)
    return FileResult(shown, "reformatted")


def fmt(root: Path, paths: Sequence[Path] = (), *, check: bool = False) -> FmtReport:
    """Format every record under ``root/records`` (or ``paths``); with ``check``, write nothing."""
    files = record_files(root, paths)
    return FmtReport([format_file(root, path, check=check) for path in files], check)
