"""The loader: values as the YAML 1.2 core schema reads them, every node located, bad files refused."""

from __future__ import annotations

import pytest

from registry.checker.limits import MAX_ALIASES, MAX_DEPTH, MAX_FILE_BYTES
from registry.checker.load import load_canonical


def load(text: str | bytes) -> tuple[object, list[str]]:
    raw = text.encode("utf-8") if isinstance(text, str) else text
    result = load_canonical("r.yaml", raw)
    data = result.document.data if result.document else None
    return data, [d.code for d in result.diagnostics]


def test_yaml_1_2_core_schema_values() -> None:
    data, codes = load(
        "a: yes\nb: no\nc: 0o10\nd: 1:20\ne: 2024-12-26\nf: 010\ng: 0x1F\nh: 1.5e3\ni: ~\nj: True\nk: '12'\n"
    )
    assert codes == []
    assert data == {
        "a": "yes",
        "b": "no",
        "c": 8,
        "d": "1:20",
        "e": "2024-12-26",
        "f": 10,
        "g": 31,
        "h": 1500.0,
        "i": None,
        "j": True,
        "k": "12",
    }


def test_every_node_is_located_one_based() -> None:
    result = load_canonical(
        "r.yaml", b"# comment\na: 1\nclaims:\n  - stated: 70,272 B\n    basis: |\n      text\n"
    )
    document = result.document
    assert document is not None
    assert document.locate("/a") == (2, 4)
    assert document.locate("/claims/0/stated") == (4, 13)
    assert document.locate("/claims/0/stated", key=True) == (4, 5)
    assert document.locate("/claims/0/missing") == (4, 5)
    assert "/claims/0/basis" in document.block_scalars


@pytest.mark.parametrize(
    ("text", "code", "line", "column"),
    [
        ("a: 1\nb: 2\na: 3\n", "Y002", 3, 1),
        ("a: 1\n---\nb: 2\n", "Y003", 2, 1),
        ("- a\n", "Y004", 1, 1),
        ("", "Y010", 1, 1),
        ("# nothing\n\n", "Y010", 1, 1),
        ("a:\n\tb: 1\n", "Y001", 2, 1),
        ("a: !!python/object:os.system x\n", "Y009", 1, 4),
        ("a: !custom 1\n", "Y009", 1, 4),
        ("a: .inf\n", "Y012", 1, 4),
        ("a: 1" + "0" * 200 + "\n", "Y012", 1, 4),
        ("1: a\n", "Y011", 1, 1),
        ("? [a]\n: b\n", "Y011", 1, 3),
        ("a: *missing\n", "Y001", 1, 4),
    ],
)
def test_refusals_are_located(text: str, code: str, line: int, column: int) -> None:
    result = load_canonical("r.yaml", text.encode())
    assert result.document is None
    [diagnostic] = result.diagnostics
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == (code, line, column)


def test_non_utf8_is_located_at_the_byte() -> None:
    result = load_canonical("r.yaml", b"a: 1\nb: caf\xe9\n")
    [diagnostic] = result.diagnostics
    assert (diagnostic.code, diagnostic.line, diagnostic.column) == ("Y005", 2, 7)


def test_bom_and_crlf_are_read() -> None:
    data, codes = load(b"\xef\xbb\xbfa: 1\r\nb: two\r\n")
    assert codes == [] and data == {"a": 1, "b": "two"}


def test_size_limit() -> None:
    _, codes = load(b"a: " + b"x" * MAX_FILE_BYTES + b"\n")
    assert codes == ["Y006"]


def test_alias_bomb_is_refused_quickly() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 9)]
    _, codes = load("\n".join(lines) + "\n")
    assert codes == ["Y007"]


def test_too_many_aliases() -> None:
    text = "a: &a x\nb: [" + ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"
    _, codes = load(text)
    assert codes == ["Y007"]


def test_small_aliases_are_fine() -> None:
    data, codes = load("a: &x [1, 2]\nb: *x\n")
    assert codes == [] and data == {"a": [1, 2], "b": [1, 2]}


def test_nesting_limit_without_recursion() -> None:
    _, codes = load("a: " + "[" * 10_000 + "]" * 10_000 + "\n")
    assert codes == ["Y008"]
    _data, codes = load("a: " + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2) + "\n")
    assert codes == []


def test_control_characters_are_refused() -> None:
    _, codes = load("a: b\x00c\n")
    assert codes == ["Y005"]


def test_every_invisible_formatting_character_is_refused_with_its_code_point() -> None:
    """Unicode's category Cf (U+200E, U+061C, tag characters, U+2062, ...): a reviewer sees none of
    them, so a record holds none, raw or as an escape, and the hint names the code point."""
    import re
    import sys
    import unicodedata

    from registry.checker.encoding import decode
    from registry.terminal import INVISIBLE_FORMAT

    pattern = re.compile(f"[{INVISIBLE_FORMAT}]")
    format_characters = [chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"]
    assert [c for c in format_characters if not pattern.fullmatch(c)] == []
    for char in ("\u200e", "\u061c", "\U000e0041", "\u2062"):
        text, found = decode("records/x/y.yaml", f"title: a{char}b\n".encode())
        assert text is None and found[0].code == "Y005" and f"U+{ord(char):04X}" in found[0].hint
