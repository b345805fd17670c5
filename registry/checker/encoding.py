"""Bytes to text: a record file's size, its UTF-8, and the characters a reviewer would not see."""

from __future__ import annotations

import re
import unicodedata

from registry.checker.limits import MAX_FILE_BYTES
from registry.checker.pointers import Position
from registry.codes import syntax
from registry.diagnostics import Diagnostic
from registry.terminal import INVISIBLE_FORMAT

# What a reviewer would not see as it is read: C0 and C1 controls but tab and line breaks, DEL,
# the line and paragraph separators (line breaks to some editors, not to YAML 1.2), the bidirectional
# embeddings, overrides and isolates (the "Trojan Source" reordering, CVE-2021-42574), noncharacters, and
# every other invisible formatting character (Unicode's category Cf: the marks U+200E, U+200F and U+061C,
# zero-width characters, invisible operators such as U+2062, tag characters, a byte-order mark past the
# start) that shows nothing, or changes what neighbours show, where a reviewer reads the value.
_UNSEEN = f"\x7f-\x9f\u2028\u2029{INVISIBLE_FORMAT}\ufffe\uffff"
_FORBIDDEN = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f{_UNSEEN}]")
VALUE_FORBIDDEN = re.compile(f"[\x00-\x08\x0b-\x1f{_UNSEEN}]")
"""Inside a value, spelt as escapes: the same, and a carriage return too (a value may hold a line break)."""


def decode(path: str, raw: bytes) -> tuple[str | None, list[Diagnostic]]:
    """Bytes to text, refusing oversized, binary and non-UTF-8 files with a located diagnostic."""
    if len(raw) > MAX_FILE_BYTES:
        return None, [too_large(path, len(raw))]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        # the bytes before the first bad one are valid UTF-8: count columns in characters, as the parser does
        before = raw[: error.start].decode("utf-8")
        line, column = line_column(before, len(before))
        message = f"byte 0x{raw[error.start]:02x} is not valid UTF-8"
        return None, [syntax.ENCODING.diagnostic(path, line, column, message)]
    text = text.removeprefix("\ufeff")
    control = _FORBIDDEN.search(text)
    if control is not None:
        line, column = line_column(text, control.start())
        message = f"the file holds {describe_character(control.group())}"
        return None, [
            syntax.ENCODING.diagnostic(path, line, column, message, character_hint(control.group()))
        ]
    return text, []


def too_large(path: str, size: int) -> Diagnostic:
    """The finding for a file of ``size`` bytes, past :data:`MAX_FILE_BYTES`."""
    message = f"the file has {size:,} bytes; a record holds at most {MAX_FILE_BYTES:,}"
    return syntax.TOO_LARGE.diagnostic(path, 1, 1, message)


def line_column(text: str, index: int) -> Position:
    """The 1-based line and column of ``text[index]``, counting line breaks as YAML does: CR LF, LF or a
    lone CR (so that a CR-only file is located as the parser locates it)."""
    line = text.count("\n", 0, index) + text.count("\r", 0, index) - text.count("\r\n", 0, index) + 1
    start = max(text.rfind("\n", 0, index), text.rfind("\r", 0, index)) + 1
    return line, index - start + 1


def character_hint(char: str) -> str:
    """The hint for a refused character, naming its code point: what to delete, and where it hides."""
    return (
        f"delete U+{ord(char):04X} at that place (an editor may show nothing there: search for the code "
        "point), and save the file as UTF-8"
    )


def describe_character(char: str) -> str:
    """A forbidden character named for a person: what it is and why it is refused."""
    code = f"U+{ord(char):04X}"
    if char in "\u2028\u2029":
        return f"the separator {code} (a line break to some editors, not to YAML)"
    if "\u202a" <= char <= "\u202e" or "\u2066" <= char <= "\u2069":
        return f"the bidirectional control {code} (it shows text in another order than it is read)"
    if char in "\ufffe\uffff":
        return f"the noncharacter {code}"
    if re.fullmatch(f"[{INVISIBLE_FORMAT}]", char):
        name = unicodedata.name(char, "a formatting character")
        return f"the invisible formatting character {code} ({name}: a reviewer cannot see it)"
    return f"the control character {code}"
