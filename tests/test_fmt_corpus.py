"""``fmt`` on every record of the corpus, the fixtures and the hostile inputs changes no value and keeps
every comment beside the line it was written on (a round-trip test, checked independently of the guard
inside ``format_text``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from registry.authoring.comments import find_comments
from registry.authoring.fmt import FmtLoadError, format_file, format_text
from registry.checker.load import load_text
from registry.errors import FmtRefused
from tests.conftest import GOLDEN, REPO
from tests.corpus import record_files


def _files() -> list[Path]:
    roots = [REPO / "tests" / "fixtures", GOLDEN, REPO / "tests" / "hostile"]
    return sorted([*record_files(), *(p for root in roots for p in root.rglob("*.yaml") if p.is_file())])


def _strict(value: Any) -> Any:
    """A value with its type spelled out, so that 1, 1.0 and True compare unequal (and NaN equal to NaN)."""
    if isinstance(value, dict):
        return ("map", sorted((key, _strict(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("seq", [_strict(item) for item in value])
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def _next_content(lines: list[str], start: int) -> str:
    """The first line at or after ``start`` that holds more than a comment, stripped."""
    for line in lines[start:]:
        if line.strip() and not line.lstrip().startswith("#"):
            return line.strip()
    return ""


def _comment_places(text: str) -> list[tuple[str, str]]:
    """Each comment (the modeline aside) with what it is attached to: the code before it on its line,
    or for a full-line comment the next line of code (without a list dash, which fmt may add above it)."""
    lines = text.split("\n")
    places: list[tuple[str, str]] = []
    for comment in find_comments(text):
        if comment.text.startswith("# yaml-language-server:"):
            continue
        if comment.end_of_line:
            places.append((comment.text, lines[comment.line][: comment.column].strip().removeprefix("- ")))
        else:
            places.append((comment.text, _next_content(lines, comment.line + 1).removeprefix("- ")))
    return sorted(places)


FILES = _files()


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(REPO).as_posix() for p in FILES])
def test_fmt_changes_no_value_and_keeps_every_comment_in_place(path: Path) -> None:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        assert format_file(REPO, path).status == "unreadable"
        assert path.read_bytes() == raw
        return
    try:
        result = format_text(text, path.name)
    except FmtLoadError:
        assert load_text(path.name, text).document is None
        return
    except FmtRefused:  # a value fmt could not keep (a byte-order mark inside a key): it writes nothing
        return
    before, after = load_text(path.name, text).document, load_text(path.name, result).document
    assert before is not None and after is not None
    assert _strict(after.data) == _strict(before.data)
    assert _comment_places(result) == _comment_places(text)
    assert format_text(result, path.name) == result
    assert result.endswith("\n") and not result.endswith("\n\n")


def test_the_corpus_is_covered() -> None:
    assert len([p for p in FILES if "records" in p.relative_to(REPO).parts[:1]]) >= 20
