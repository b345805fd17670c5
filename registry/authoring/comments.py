"""The comments of a record: found in its text, tied to the key or item they belong to, and put back on
a tree of ruamel.yaml nodes, so that they travel with their keys when ``registry fmt`` reorders them.

A full-line comment belongs to the next key or item (an item rather than the first key inside it), an
end-of-line comment to the innermost key or item on its line. Blank lines survive only between two
comment lines of one block. An end-of-line comment on a key whose value is a block scalar moves to the
line above that key (YAML puts nothing after the ``|`` line that ruamel.yaml can write back in place).

Comments are found by scanning the text around the YAML tokens, not through ruamel's comment attachment,
which depends on where a comment happens to sit.
"""

from __future__ import annotations

import bisect
import re
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString
from ruamel.yaml.tokens import CommentToken


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
class Anchor:
    """A place a comment can belong to: a key of a mapping or an item of a sequence."""

    line: int
    container: Any
    key: Any


def anchors_of(node: Any) -> Iterator[Anchor]:
    """Every key and item under ``node`` in document order; flow collections are leaves."""
    if isinstance(node, CommentedMap) and not node.fa.flow_style():
        for key, value in node.items():
            yield Anchor(node.lc.key(key)[0], node, key)
            yield from anchors_of(value)
    elif isinstance(node, CommentedSeq) and not node.fa.flow_style():
        for position, value in enumerate(node):
            yield Anchor(node.lc.item(position)[0], node, position)
            yield from anchors_of(value)


@dataclass
class Placement:
    """Where each comment goes: lines above a key or item, one comment at its line's end, or the file's
    start or end. A key or item is named by ``(id(container), key)``."""

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


def place(comments: Sequence[Comment], anchors: Sequence[Anchor]) -> Placement:
    """Assign each comment to the anchor it belongs to (see the module docstring for the rules).

    Anchors come in document order, so their lines never decrease and a parent precedes its first
    child: the last anchor at or before a line is the innermost one on it, and the first anchor after a
    line is the outermost one there. Bisection keeps this linear-logarithmic on large hostile files.
    """
    placement = Placement()
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


def with_blank_lines(text: str, comments: list[Comment]) -> list[Comment]:
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


def strip_comments(node: Any) -> None:
    """Drop the comments ruamel.yaml attached to ``node`` and everything under it."""
    if isinstance(node, CommentedMap | CommentedSeq):
        node.ca.comment = None
        node.ca.items.clear()
        node.ca.end = []
        for value in node.values() if isinstance(node, CommentedMap) else node:
            strip_comments(value)


def _token(text: str, column: int) -> Any:
    return CommentToken(text + "\n", CommentMark(column), None)


def attach(node: Any, placement: Placement, column: int = 0) -> None:
    """Put the placed comments on the tree; ``column`` is where ``node``'s keys (or its items' dashes)
    start, which is where a comment above one of them is written."""
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
        attach(value, placement, column + 2)
