"""``registry fmt``: rewrite records in one canonical form, keeping every comment and every value.

The canonical form:

- the modeline ``# yaml-language-server: $schema=../../schemas/<kind>.schema.json`` first (added when
  missing, corrected when it names another schema);
- keys in the record model's order (:func:`canonical_order`): ``schema_version, id, kind, title,
  evidence``, then the kind's own fields in the order the pydantic class declares them, then the
  envelope's ``sources, notes, methodology, related, tags, errata``; nested mappings (claims, sources,
  precision, workload, errata, layer groups, config_source, capabilities) follow their own class;
  ``config`` keeps the published order; a key the model does not know goes last, in its own order;
- 2-space mapping indent, sequences written ``  - `` under their key, no line re-wrapping, quotes and
  block scalars as written, one final newline;
- a comment travels with the key or item it is written above, or on the line of: a full-line comment
  belongs to the next key or item (an item rather than the first key inside it), an end-of-line comment to
  the innermost key or item on its line. Blank lines survive only between two comment lines of one block.
  An end-of-line comment on a key whose value is a block scalar moves to the line above that key (YAML
  puts nothing after the ``|`` line that ruamel.yaml can write back in place).

Round-trip parsing (ruamel.yaml ``rt``) belongs here and nowhere on the check's hot path. Comments are
found by scanning the text around the YAML tokens, not through ruamel's comment attachment, which
depends on where a comment happens to sit; they are stripped and put back in the places above.

Nothing is written on trust: the result is loaded again with the registry's own loader and must give
exactly the same data (types included) and the same comments, or the file is left untouched and the
reason reported. Writes are atomic (:func:`registry.files.write_atomic`).
"""

from __future__ import annotations

import bisect
import io
import os
import re
import types
import typing
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Union

from pydantic import BaseModel

from registry.check.load import MAX_FILE_BYTES, load_text
from registry.diagnostics import Diagnostic
from registry.files import write_atomic
from registry.kinds.records import KINDS, MODEL_CLASSES

MODELINE = "# yaml-language-server: $schema=../../schemas/{kind}.schema.json"
"""The first line of every record: it points editors at the kind's JSON Schema."""

_MODELINE_PREFIX = re.compile(r"^#\s*yaml-language-server:")
_HEAD = ("schema_version", "id", "kind", "title", "evidence")
_WIDTH = 1_000_000_000  # never re-wrap a line

Status = Literal["unchanged", "reformatted", "unreadable", "refused"]


class FmtRefused(Exception):
    """The file cannot be rewritten without changing a value or losing a comment; it stays as it is."""


# ---------------------------------------------------------------- the canonical key order


@dataclass(frozen=True)
class _DictOf:
    """A mapping field whose keys are data (``capabilities``): key order from a Literal, values typed."""

    keys: tuple[str, ...]
    value: type[BaseModel] | None


Spec = type[BaseModel] | _DictOf | None
"""What a YAML node holds: a record class, a typed mapping, or free data (kept as written)."""


def canonical_order(cls: type[BaseModel]) -> list[str]:
    """The key order of ``cls``: its declared field order, except that a whole record starts with the
    identity fields (:data:`_HEAD`) and ends with the fields every kind shares (citations and prose),
    in their declared order. pydantic declares inherited fields first and ``kind`` last, which would
    put ``sources`` above ``name`` and ``kind`` at the bottom of a run."""
    fields = list(cls.model_fields)
    if cls not in MODEL_CLASSES.values():
        return fields
    shared = [name for name in fields if all(name in other.model_fields for other in MODEL_CLASSES.values())]
    tail = [name for name in shared if name not in _HEAD]
    return [*_HEAD, *(name for name in fields if name not in _HEAD and name not in tail), *tail]


def _spec_of(annotation: Any) -> Spec:
    """The :data:`Spec` a field's annotation gives its value (lists give their items' spec)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _spec_of(typing.get_args(annotation)[0])
    if origin in (Union, types.UnionType, list):
        for argument in typing.get_args(annotation):
            found = _spec_of(argument)
            if found is not None:
                return found
        return None
    if origin is dict:
        key, value = typing.get_args(annotation)
        if typing.get_origin(key) is Literal:
            return _DictOf(tuple(str(k) for k in typing.get_args(key)), _model_class(_spec_of(value)))
        return None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _model_class(spec: Spec) -> type[BaseModel] | None:
    return spec if isinstance(spec, type) else None


def _child_spec(spec: Spec, key: Any) -> Spec:
    if isinstance(spec, _DictOf):
        return spec.value
    if spec is None or not isinstance(key, str) or key not in spec.model_fields:
        return None
    return _spec_of(spec.model_fields[key].annotation)


def _reorder(node: Any, spec: Spec) -> None:
    """Put the keys of every mapping under ``node`` in canonical order, in place."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap):
        if spec is not None:
            order = list(spec.keys) if isinstance(spec, _DictOf) else canonical_order(spec)
            rank = {name: position for position, name in enumerate(order)}
            # sorted() is stable: keys the model does not know keep their own order, after the known ones
            for key in sorted(node, key=lambda k: rank.get(k, len(rank))):
                node.move_to_end(key)
        for key, value in node.items():
            _reorder(value, _child_spec(spec, key))
    elif isinstance(node, CommentedSeq):
        for item in node:
            _reorder(item, spec)


# ---------------------------------------------------------------- comments


@dataclass(frozen=True)
class Comment:
    """One comment as written: 0-based line and column, its text from ``#``, and whether code precedes it."""

    line: int
    column: int
    text: str
    end_of_line: bool
    gap: int = 0


def find_comments(text: str) -> list[Comment]:
    """Every comment of ``text``: a ``#`` outside every YAML token, at a line start or after a space.

    The tokens come from ruamel.yaml's scanner, so a ``#`` inside a quoted, plain or block scalar is
    never taken for a comment. ``text`` must scan (call this on text that loaded).
    """
    from ruamel.yaml import YAML

    covered = bytearray(len(text) + 1)
    for token in YAML(typ="safe", pure=True).scan(text):
        start, end = token.start_mark.index, token.end_mark.index
        covered[start:end] = b"\x01" * (end - start)
    comments: list[Comment] = []
    offset = 0
    for number, line in enumerate(text.split("\n")):
        for column, char in enumerate(line):
            if char == "#" and not covered[offset + column] and (column == 0 or line[column - 1] in " \t"):
                before = any(covered[offset : offset + column]) or line[:column].strip() != ""
                gap = column - len(line[:column].rstrip())
                comments.append(Comment(number, column, line[column:].rstrip(), before, gap))
                break
        offset += len(line) + 1
    return comments


@dataclass(frozen=True)
class _Anchor:
    """A place a comment can belong to: a key of a mapping or an item of a sequence."""

    line: int
    container: Any
    key: Any


def _anchors(node: Any) -> Iterator[_Anchor]:
    """Every key and item under ``node`` in document order; flow collections are leaves."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap) and not node.fa.flow_style():
        for key, value in node.items():
            yield _Anchor(node.lc.key(key)[0], node, key)
            yield from _anchors(value)
    elif isinstance(node, CommentedSeq) and not node.fa.flow_style():
        for position, value in enumerate(node):
            yield _Anchor(node.lc.item(position)[0], node, position)
            yield from _anchors(value)


@dataclass
class _Placement:
    """Where each comment goes: lines above an anchor, one comment at its line's end, or the file's end."""

    before: dict[tuple[int, Any], list[str]] = field(default_factory=dict)
    end_of_line: dict[tuple[int, Any], Comment] = field(default_factory=dict)
    head: list[str] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)
    written: list[Comment] = field(default_factory=list)
    marker: str = field(default_factory=lambda: f"#fmt-{uuid.uuid4().hex}-")

    def restore(self, text: str) -> str:
        """Put each end-of-line comment, written as a marker, back with the spaces it had before it:
        ruamel.yaml would keep its old column, which drifts when the line's indentation changes."""

        def original(match: re.Match[str]) -> str:
            comment = self.written[int(match.group(1))]
            return " " * max(comment.gap, 1) + comment.text

        return re.sub(r"[ \t]*" + re.escape(self.marker) + r"(\d+)$", original, text, flags=re.M)


def _place(comments: Sequence[Comment], anchors: Sequence[_Anchor]) -> _Placement:
    """Assign each comment to the anchor it belongs to (see the module docstring for the rules).

    Anchors come in document order, so their lines never decrease and a parent precedes its first
    child: the last anchor at or before a line is the innermost one on it, and the first anchor after a
    line is the outermost one there. Bisection keeps this linear-logarithmic on large hostile files.
    """
    placement = _Placement()
    lines = [anchor.line for anchor in anchors]
    for comment in comments:
        here = bisect.bisect_right(lines, comment.line)
        if comment.end_of_line and here > 0:
            target = anchors[here - 1]
            slot = (id(target.container), target.key)
            if slot not in placement.end_of_line:
                placement.end_of_line[slot] = comment
                continue
        if here == len(anchors):
            placement.tail.append(comment.text)
        elif here == 0:
            placement.head.append(comment.text)
        else:
            first = anchors[here]
            placement.before.setdefault((id(first.container), first.key), []).append(comment.text)
    return placement


def _with_blank_lines(text: str, comments: list[Comment]) -> list[Comment]:
    """Comments plus the blank lines that sit between two full-line comments (as empty comments)."""
    lines = text.split("\n")
    full = {c.line for c in comments if not c.end_of_line}
    blanks: list[Comment] = []
    for number in sorted(full):
        following = number + 1
        while following < len(lines) and not lines[following].strip():
            following += 1
        if following in full and following > number + 1:
            blanks.append(Comment(number + 1, 0, "", False))
    return sorted([*comments, *blanks], key=lambda c: (c.line, c.column))


def _strip_comments(node: Any) -> None:
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(node, CommentedMap | CommentedSeq):
        node.ca.comment = None
        node.ca.items.clear()
        node.ca.end = []
        for value in node.values() if isinstance(node, CommentedMap) else node:
            _strip_comments(value)


def _token(text: str, column: int) -> Any:
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    return CommentToken(text + "\n", CommentMark(column), None)


def _attach(node: Any, placement: _Placement, column: int = 0) -> None:
    """Put the placed comments back on the (reordered) tree; ``column`` is where ``node``'s keys (or its
    items' dashes) start, which is where a comment above one of them is written."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

    if not isinstance(node, CommentedMap | CommentedSeq) or node.fa.flow_style():
        return
    is_seq = isinstance(node, CommentedSeq)
    pairs: list[tuple[Any, Any]] = list(enumerate(node) if isinstance(node, CommentedSeq) else node.items())
    for key, value in pairs:
        above = list(placement.before.get((id(node), key), []))
        if is_seq and isinstance(value, CommentedMap) and value:
            # ruamel.yaml cannot write a comment between "- " and the item's first key: lift it above.
            above.extend(placement.before.pop((id(value), next(iter(value))), []))
        eol = placement.end_of_line.get((id(node), key))
        if eol is not None and isinstance(value, LiteralScalarString | FoldedScalarString):
            above.append(eol.text)  # nothing can follow a block scalar's header that ruamel.yaml writes back
            eol = None
        if above or eol is not None:
            entry = node.ca.items.setdefault(key, [None, None, None, None])
            if above:
                entry[1] = [_token(line, column if line else 0) for line in above]
            if eol is not None:
                entry[0 if is_seq else 2] = _token(f"{placement.marker}{len(placement.written)}", 0)
                placement.written.append(eol)
        _attach(value, placement, column + 2)


# ---------------------------------------------------------------- formatting one text


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = _WIDTH
    yaml.allow_unicode = True
    yaml.representer.add_representer(type(None), _represent_null)
    return yaml


def _represent_null(representer: Any, value: None) -> Any:
    """``null`` spelled out: ruamel.yaml would write nothing after the colon, which reads as a forgotten
    value (and JSON-born ``config`` fields are ``null``)."""
    return representer.represent_scalar("tag:yaml.org,2002:null", "null")


def _kind_of(data: Any) -> str | None:
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) and kind in KINDS else None


def _render(text: str) -> str:
    """The canonical text of ``text`` (which loads), before verification."""
    yaml = _yaml()
    data = yaml.load(text)
    kind = _kind_of(data)
    comments = find_comments(text)
    if kind is not None:
        comments = [c for c in comments if c.end_of_line or not _MODELINE_PREFIX.match(c.text)]
    placement = _place(_with_blank_lines(text, comments), list(_anchors(data)))
    _strip_comments(data)
    _reorder(data, MODEL_CLASSES[kind] if kind else None)
    _attach(data, placement)
    out = io.StringIO()
    yaml.dump(data, out)
    body = placement.restore(out.getvalue()).rstrip("\n") + "\n"
    head = [MODELINE.format(kind=kind)] if kind else []
    head += placement.head
    return "".join(line + "\n" for line in head) + body + "".join(line + "\n" for line in placement.tail)


def same_value(a: Any, b: Any) -> bool:
    """Equal values of equal types, all the way down (``1``, ``1.0`` and ``True`` differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return set(a) == set(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


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


class FmtLoadError(Exception):
    """The file does not load; the diagnostics say where and why."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__(diagnostics[0].message if diagnostics else "the file does not load")
        self.diagnostics = diagnostics


# ---------------------------------------------------------------- files


@dataclass(frozen=True)
class FileResult:
    """What fmt did (or, with ``check``, would do) to one file."""

    path: str
    status: Status
    message: str = ""
    diagnostics: tuple[Diagnostic, ...] = ()


@dataclass
class FmtReport:
    """Every file fmt looked at, in path order."""

    files: list[FileResult]
    check: bool

    def with_status(self, status: Status) -> list[FileResult]:
        return [f for f in self.files if f.status == status]

    @property
    def ok(self) -> bool:
        """True when every file loaded and was (or, with ``check``, already is) canonical."""
        bad: tuple[Status, ...] = (
            ("unreadable", "refused", "reformatted") if self.check else ("unreadable", "refused")
        )
        return not any(f.status in bad for f in self.files)


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
            from registry.errors import RegistryError

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
    if size > MAX_FILE_BYTES:  # the check refuses it by size too; parsing 50 MB would take minutes
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
