"""The fast parsing path gives exactly what the canonical loader gives: the same values, the same
diagnostics at the same places, on every record of the corpus, every fixture and hostile input, and
on arbitrary text."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from registry.checker.fastload import fast_load_bytes
from registry.checker.load import load_canonical
from tests.conftest import REPO
from tests.corpus import record_files


def _same(path: str, raw: bytes) -> None:
    fast, canonical = fast_load_bytes(path, raw), load_canonical(path, raw)
    assert (fast.document is None) == (canonical.document is None)
    if fast.document and canonical.document:
        assert fast.document.data == canonical.document.data
        assert _typed(fast.document.data) == _typed(canonical.document.data)
        for pointer, position in canonical.document.positions.items():
            assert fast.document.locate(pointer) == position
    assert [(d.code, d.line, d.column, d.message) for d in fast.diagnostics] == [
        (d.code, d.line, d.column, d.message) for d in canonical.diagnostics
    ]


def _typed(value: object) -> object:
    """Values with their types, so 1 and 1.0 and True are told apart."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value)


CORPUS = sorted([*record_files(), *(p for p in REPO.glob("tests/**/*.yaml") if p.is_file())])


@pytest.mark.parametrize("path", CORPUS, ids=[p.relative_to(REPO).as_posix() for p in CORPUS])
def test_corpus(path: object) -> None:
    from pathlib import Path

    assert isinstance(path, Path)
    _same(path.name, path.read_bytes())


@pytest.mark.parametrize(
    "text",
    [
        "a: yes\nb: no\nc: on\nd: off\ne: y\n",  # YAML 1.1 booleans are strings in 1.2
        "a: 0o10\nb: 010\nc: 0x1F\nd: 1_000\n",  # octal forms and 1.1's underscores
        "a: 1:20\nb: 1:20:30\n",  # sexagesimal in 1.1, strings in 1.2
        "a: 2024-12-26\nb: 2024-12-26T10:00:00Z\n",  # timestamps stay strings
        "a: .5\nb: +1\nc: -0\nd: 1e3\ne: 1.0e+3\nf: .Inf\n",
        "a: ~\nb: null\nc: Null\nd:\ne: NULL\n",
        "a: 'single'\nb: \"double \\\\ \\u00e9 \\/\"\n",
        "a: |\n  block\n  text\nb: >-\n  folded\n  text\n",
        "a: &x 1\nb: *x\nc: &y [1, 2]\nd: *y\n",
        "%YAML 1.2\n---\na: 1\n",
        "a: b\u2028c\n",
        "a: b\x85c\n",
        "a:\n\t- 1\n",
        "? a\n: 1\n",
        "a: !!str 12\nb: !!int '3'\nc: !!float 1\n",
        "[1, 2]\n",
        "a: 1\n---\nb: 2\n",
        "a: 1\na: 2\n",
        "{!,!",  # libyaml: two empty keys tagged '!'; ruamel.yaml: a tag it cannot scan
        "\ufeffa: 1\r\nb: 2\r\n",
    ],
)
def test_yaml_1_1_and_1_2_differences(text: str) -> None:
    _same("r.yaml", text.encode("utf-8"))


_ALPHABET = st.sampled_from(
    [
        *list("ab:-[]{},&*!|>'\"#%@?~ \n0123456789.eExyo+\\"),
        "\t",
        "\u2028",
        "\x85",
        "é",
        "!!str ",
        "yes",
        "no",
    ]
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_ALPHABET, max_size=120).map("".join))
def test_arbitrary_text(text: str) -> None:
    _same("r.yaml", text.encode("utf-8"))


@pytest.mark.parametrize("fast", [True, False], ids=["fast path", "canonical path"])
def test_a_released_document_locates_as_before_without_its_values(fast: bool) -> None:
    """The check keeps a released document for each record (the values are in the record by then):
    a finding made afterwards, a dangling reference or a formula disagreement, is placed exactly as it
    would have been."""
    path = REPO / "records" / "kv-efficiency" / "deepseek-v3-128k.yaml"
    raw = path.read_bytes()
    loaded = (fast_load_bytes if fast else load_canonical)("records/x.yaml", raw).document
    canonical = load_canonical("records/x.yaml", raw).document
    assert loaded is not None and canonical is not None
    released = loaded.released()
    assert released.data == {} and released.path == loaded.path
    for pointer, position in canonical.positions.items():
        assert released.locate(pointer) == position
        assert released.locate(pointer, key=True) == canonical.locate(pointer, key=True)


@pytest.mark.parametrize("text", ["&a:", "&a: x", "k: *a:", "key: &x! 1\n", "[?,"])
def test_an_anchor_name_yaml_versions_end_differently_is_read_canonically(text: str) -> None:
    """libyaml ends an anchor or alias name at a character YAML 1.2 takes into it (``&a:``): the fast
    path must not read such a file differently from the canonical loader (found by the fuzz test)."""
    _same("r.yaml", text.encode("utf-8"))
