"""R012 beyond-max-context: a run's context longer than its model's max_context_tokens is warned about,
unless the record says why; a reason left where nothing is beyond the maximum is warned about too."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from registry.checker.pipeline import check
from registry.diagnostics import Diagnostic, Severity
from tests.conftest import GOLDEN

EXAMPLE = GOLDEN / "R012"
BEYOND = "records/kv-efficiency/mistral-7b-v0.3-2m.yaml"
SLOPE = "records/kv-efficiency/mistral-7b-v0.3-slope.yaml"
MODEL = "records/models/mistral-7b-v0.3.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLE / "records", tmp_path / "records")
    return tmp_path


def _edit(root: Path, path: str, old: str, new: str) -> None:
    file = root / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new), encoding="utf-8")


def _found(root: Path) -> list[Diagnostic]:
    return list(check(root).diagnostics)


def test_a_run_beyond_the_maximum_is_warned_at_its_context(root: Path) -> None:
    found = _found(root)
    assert [(d.code, d.severity, d.path, d.line, d.pointer) for d in found] == [
        ("R012", Severity.WARNING, BEYOND, 11, "/context_tokens")
    ]
    assert "2,097,152 tokens is beyond models/mistral-7b-v0.3's maximum of 32,768" in found[0].message


def test_the_stated_reason_silences_a_claim_beyond_the_maximum(root: Path) -> None:
    _edit(root, SLOPE, "beyond_max_context: ", "# beyond_max_context: ")
    found = [d for d in _found(root) if d.path == SLOPE]
    assert [(d.code, d.line, d.pointer) for d in found] == [("R012", 15, "/claims/0/context_tokens")]


def test_a_reason_where_nothing_is_beyond_is_warned_at_the_reason(root: Path) -> None:
    _edit(root, SLOPE, "context_tokens: 128K", "context_tokens: 32K")
    _edit(root, SLOPE, "stated: 16 GiB", "stated: 4 GiB")
    found = [d for d in _found(root) if d.path == SLOPE]
    assert [(d.code, d.line, d.pointer) for d in found] == [("R012", 12, "/beyond_max_context")]
    assert "remove beyond_max_context" in found[0].hint


def test_a_model_that_states_no_maximum_gives_nothing_to_compare(root: Path) -> None:
    _edit(root, MODEL, "max_context_tokens: 32768\n", "")
    assert _found(root) == []


def test_a_larger_maximum_clears_the_warning(root: Path) -> None:
    _edit(root, MODEL, "max_context_tokens: 32768", "max_context_tokens: 2097152")
    found = _found(root)
    assert [(d.code, d.path, d.pointer) for d in found] == [("R012", SLOPE, "/beyond_max_context")]


@pytest.mark.parametrize("reason", ['""', '"          "', "yes", "true"])
def test_a_reason_is_words_not_a_flag(root: Path, reason: str) -> None:
    _edit(
        root,
        SLOPE,
        "beyond_max_context: The 128K claim",
        f"beyond_max_context: {reason}\nnotes: The 128K claim",
    )
    found = [d for d in _found(root) if d.path == SLOPE and d.severity is Severity.ERROR]
    assert found and all(d.code.startswith("S") for d in found)
    assert any(d.pointer == "/beyond_max_context" for d in found)
