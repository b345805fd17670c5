"""R012 beyond-max-context for a run's workload: a benchmark or kv-efficiency record whose requests hold
more tokens, input and output together, than its model's ``max_context_tokens`` is warned about, with
words naming the workload's lengths; the record's ``beyond_max_context`` reason silences it as it does
for a context."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from registry.checker.pipeline import check
from registry.diagnostics import Diagnostic, Severity
from tests.conftest import GOLDEN, REPO

RUN = "records/benchmarks/mistral-7b-v0.3-long-requests.yaml"
FIXTURE = REPO / "tests" / "fixtures" / "workload" / "mistral-7b-v0.3-long-requests.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(GOLDEN / "R012" / "records" / "models", tmp_path / "records" / "models")
    (tmp_path / "records" / "benchmarks").mkdir()
    shutil.copy(FIXTURE, tmp_path / RUN)
    return tmp_path


def _edit(root: Path, old: str, new: str) -> None:
    file = root / RUN
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new), encoding="utf-8")


def _found(root: Path) -> list[Diagnostic]:
    return list(check(root).diagnostics)


def test_a_workload_beyond_the_maximum_is_warned_at_its_input_tokens(root: Path) -> None:
    found = _found(root)
    assert [(d.code, d.severity, d.path, d.line, d.pointer) for d in found] == [
        ("R012", Severity.WARNING, RUN, 12, "/workload/input_tokens")
    ]
    assert found[0].message == (
        "the workload's input_tokens + output_tokens (every request's), 30,000 + 4,000 = 34,000 tokens, "
        "is beyond models/mistral-7b-v0.3's maximum of 32,768 (its max_context_tokens)"
    )


@pytest.mark.parametrize(
    ("lengths", "words"),
    [("max", "(caps, which let a request hold that many)"), ("mean", "(means, so some requests hold more)")],
)
def test_the_message_says_what_the_lengths_are(root: Path, lengths: str, words: str) -> None:
    _edit(root, "lengths: fixed", f"lengths: {lengths}")
    assert f"input_tokens + output_tokens {words}, 30,000 + 4,000" in _found(root)[0].message


def test_one_length_alone_is_compared_too(root: Path) -> None:
    _edit(root, "  output_tokens: 4000\n  lengths: fixed\n", "")
    _edit(root, "input_tokens: 30000", "input_tokens: 40000")
    found = _found(root)
    assert [d.pointer for d in found] == ["/workload/input_tokens"]
    assert found[0].message.startswith("the workload's input_tokens, 40,000 tokens, is beyond")


def test_output_tokens_alone_are_pointed_at(root: Path) -> None:
    _edit(root, "  input_tokens: 30000\n", "")
    _edit(root, "output_tokens: 4000", "output_tokens: 40000")
    assert [(d.line, d.pointer) for d in _found(root)] == [(12, "/workload/output_tokens")]


def test_a_workload_within_the_maximum_is_clean(root: Path) -> None:
    _edit(root, "input_tokens: 30000", "input_tokens: 28768")
    assert _found(root) == []


def test_the_reason_silences_the_workload_and_a_stale_one_is_warned(root: Path) -> None:
    reason = "beyond_max_context: The source served these requests past the card's length.\n"
    _edit(root, "workload:\n", f"{reason}workload:\n")
    assert _found(root) == []
    _edit(root, "input_tokens: 30000", "input_tokens: 3000")
    found = _found(root)
    assert [(d.code, d.pointer) for d in found] == [("R012", "/beyond_max_context")]
    assert "neither a context nor the workload" in found[0].message


def test_a_context_and_a_workload_beyond_are_both_warned(root: Path) -> None:
    _edit(root, "context_tokens: 16384", "context_tokens: 65536")
    assert [d.pointer for d in _found(root)] == ["/context_tokens", "/workload/input_tokens"]
