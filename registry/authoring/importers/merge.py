"""A re-import merged into the record already on disk, so that an import never destroys a person's work.

An imported record is made from its source alone; the file it would replace may hold more: the
hardware, engine version and sources a person filled into a draft, notes, a comment. The merge keeps
all of it:

- a top-level field the source does not state (absent from the importer's fields, or a
  :class:`~registry.authoring.writer.Todo` left for a person) keeps the file's value;
- a field the source states is the source's, whole (an importer states a field in full: the figures
  of a run it no longer reads go with it), and each value that changed is listed as
  ``/pointer: old -> new`` (``(none)`` for a key one side lacks), so a re-import says what it changed;
- the comment lines above each top-level field are the importer's, then every other line the file had
  there (a comment inside a field, or at the end of a line, is kept as a line above that field); a
  ``TODO`` line the importer writes is dropped once the field it names has a value.

``registry import --force`` skips the merge: the source's record replaces the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from registry.authoring.comments import find_comments
from registry.authoring.emit import MODELINE, same_value
from registry.authoring.writer import Todo, plain_value
from registry.checker.load import load_text
from registry.errors import RegistryError

SHOWN = 60
"""Characters of a value shown in an ``old -> new`` line; a longer one is cut with ``...``."""
_TODO_FIELD = re.compile(r"TODO: ([a-z_]+)")
_MODELINE = re.compile(r"#\s*yaml-language-server:")


@dataclass
class Merged:
    """A record's fields and comments after the merge, and what the source changed."""

    fields: dict[str, Any]
    comments: dict[str, tuple[str, ...]]
    changes: list[str] = field(default_factory=list)

    @property
    def draft(self) -> bool:
        """Whether a person still has something to fill: a ``Todo`` value or a ``TODO`` line."""
        return any(isinstance(v, Todo) for v in self.fields.values()) or any(
            line.startswith("TODO:") for lines in self.comments.values() for line in lines
        )


def merge(path: str, old_text: str, fields: dict[str, Any], comments: dict[str, tuple[str, ...]]) -> Merged:
    """The record at ``path`` (its text ``old_text``) with the importer's ``fields`` and ``comments``
    merged in. A file that does not load is refused: what a person meant in it cannot be known."""
    loaded = load_text(path, old_text)
    if loaded.document is None:
        problem = loaded.diagnostics[0].message if loaded.diagnostics else "it does not load"
        raise RegistryError(
            f"{path}: the record to merge the import into does not load ({problem}); fix it, or pass "
            "--force to replace it with the source's record"
        )
    old = loaded.document.data
    changes: list[str] = []
    merged = _merge(old, fields, "", changes)
    lines = _merge_comments(old_text, loaded.document.key_positions, merged, fields, comments)
    return Merged(merged, lines, changes)


def _merge(old: dict[str, Any], new: dict[str, Any], pointer: str, changes: list[str]) -> dict[str, Any]:
    """The importer's fields over the file's, a top-level field at a time: a field the importer states
    is the source's, whole; one it does not state (or leaves to a person) is the file's."""
    merged: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            merged[key] = value
        elif isinstance(value, Todo):  # left for a person: theirs once they filled it
            merged[key] = value if same_value(old[key], value.empty) else old[key]
        else:
            _differences(old[key], plain_value(value), f"{pointer}/{key}", changes)
            merged[key] = value
    merged |= {key: value for key, value in old.items() if key not in new}
    return merged


_GONE = object()


def _differences(old: Any, new: Any, pointer: str, changes: list[str]) -> None:
    """Each leaf that differs between ``old`` and ``new``, as ``/pointer: old -> new``."""
    if same_value(old, new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*new, *(k for k in old if k not in new)]:
            _differences(old.get(key, _GONE), new.get(key, _GONE), f"{pointer}/{key}", changes)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            _differences(a, b, f"{pointer}/{index}", changes)
    else:
        changes.append(f"{pointer}: {_shown(old)} -> {_shown(new)}")


def _shown(value: Any) -> str:
    text = "(none)" if value is _GONE else repr(value)
    return text if len(text) <= SHOWN else f"{text[: SHOWN - 3]}..."


def _merge_comments(
    old_text: str,
    key_lines: dict[str, tuple[int, int]],
    merged: dict[str, Any],
    fields: dict[str, Any],
    comments: dict[str, tuple[str, ...]],
) -> dict[str, tuple[str, ...]]:
    """The importer's lines above each field, less a ``TODO`` for a field that has a value, then the
    file's other lines there (the importer's own ``TODO`` lines from an earlier import excepted)."""
    importers = {line for lines in comments.values() for line in lines}
    importers |= {f"TODO: {value.what}" for value in fields.values() if isinstance(value, Todo)}
    result: dict[str, list[str]] = {
        key: [line for line in lines if not _done(line, merged)] for key, lines in comments.items()
    }
    for key, line in _file_comments(old_text, key_lines):
        if key in merged and line not in importers and not _done(line, merged):
            if line in result.setdefault(key, []):
                continue
            result[key].append(line)
    return {key: tuple(lines) for key, lines in result.items() if lines}


def _done(line: str, merged: dict[str, Any]) -> bool:
    """A ``TODO: field ...`` line whose field now has a value."""
    match = _TODO_FIELD.match(line)
    if match is None:
        return False
    value = merged.get(match.group(1))
    return value not in (None, [], {}) and not isinstance(value, Todo)


def _file_comments(text: str, key_lines: dict[str, tuple[int, int]]) -> list[tuple[str, str]]:
    """Every comment of the file (the modeline excepted) as ``(top-level field, line)``: a full-line
    comment at the left margin belongs to the next field, any other to the field whose block holds it."""
    starts = sorted(
        (line - 1, pointer[1:]) for pointer, (line, _) in key_lines.items() if pointer.count("/") == 1
    )
    if not starts:
        return []
    found = []
    for comment in find_comments(text):
        if _MODELINE.match(comment.text) or comment.text == MODELINE:
            continue
        if comment.end_of_line or comment.column > 0:
            owner = next((key for line, key in reversed(starts) if line <= comment.line), starts[0][1])
        else:
            owner = next((key for line, key in starts if line > comment.line), starts[-1][1])
        found.append((owner.replace("~1", "/").replace("~0", "~"), comment.text[1:].strip()))
    return found
