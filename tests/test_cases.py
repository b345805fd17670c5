"""Cases of what one run of `registry check` tells a contributor, each a small registry beside the exact
output expected for it (tests/cases/<case>/records/ and expected.txt), as the codes' golden examples are:

- ``one-run-*``: a record with a schema finding and a wrong number shows both in one run;
- ``hint-*``: each hint names the fix for the value written (an http address, an upper-case id, a model
  named without its collection, a dtype's other name, a quoted number, digits grouped by spaces, ...).

Regenerate after an intended change with REGISTRY_UPDATE_GOLDEN=1, then read the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import render_check

CASES_DIR = Path(__file__).parent / "cases"
CASES = sorted(p.name for p in CASES_DIR.iterdir() if (p / "expected.txt").is_file())
"""The cases held to their whole output; one-run-sources-and-model-type is held by its own test, since
its F006 message lists every adapter there is."""


@pytest.mark.parametrize("case", CASES)
def test_case_output(case: str) -> None:
    expected_file = CASES_DIR / case / "expected.txt"
    actual = render_check(CASES_DIR / case)
    if os.environ.get("REGISTRY_UPDATE_GOLDEN"):
        expected_file.write_text(actual, encoding="utf-8")
    assert actual == expected_file.read_text(encoding="utf-8")


def _findings(case: str) -> list[tuple[str, str]]:
    """(code, hint) of each finding of ``case``."""
    lines = render_check(CASES_DIR / case).splitlines()
    out = []
    for at, line in enumerate(lines):
        if line.count(":") >= 3 and not line.startswith(" ") and at + 1 < len(lines):
            code = line.split(": ")[1].split()[0]
            hint = lines[at + 1].removeprefix("  hint: ") if lines[at + 1].startswith("  hint: ") else ""
            out.append((code, hint))
    return out


def test_a_typo_and_a_wrong_claim_show_in_one_run() -> None:
    codes = [code for code, _ in _findings("one-run-typo-and-claim")]
    assert "S002" in codes and "F001" in codes


def test_empty_sources_and_an_unknown_model_type_show_in_one_run() -> None:
    out = render_check(CASES_DIR / "one-run-sources-and-model-type")
    path = "records/models/step-3.7-flash.yaml"
    assert f"{path}:14:15: F006 unknown-model-type: model_type 'step3p7' has no config adapter" in out
    assert f"{path}:21:10: S004 invalid-value: 'sources': the list needs at least 1 item(s)" in out
    assert "R011" not in out and out.endswith("Checked 1 record file: 2 errors, 0 warnings.\n")


@pytest.mark.parametrize(
    ("case", "code", "wanted"),
    [
        ("hint-http-url", "S004", "'https://arxiv.org/abs/2412.19437'"),
        ("hint-upper-case-id", "S004", "'kv-efficiency/deepseek-v3-mha-equivalent'"),
        ("hint-model-without-collection", "S004", "did you mean 'models/deepseek-v3'?"),
        ("hint-dtype", "S004", "did you mean 'bf16'?"),
        ("hint-context-tokens", "S005", "128K"),
        ("hint-wrong-type", "S003", "quote the value"),
        ("hint-wrong-type", "S003", "without quotes"),
        ("hint-spaced-thousands", "S005", "'70,272 B'"),
        ("hint-dot-thousands", "F001", "state 70,272 B"),
        ("hint-unitless", "S005", "'70,272 B/token'"),
        ("hint-unit-case", "S005", "did you mean 'KiB'?"),
    ],
)
def test_each_hint_names_the_fix_for_the_value_written(case: str, code: str, wanted: str) -> None:
    hints = [hint for found, hint in _findings(case) if found == code]
    assert any(wanted in hint for hint in hints), hints


def test_a_unit_swap_is_explained_in_the_units_written() -> None:
    out = render_check(CASES_DIR / "hint-kb-unit-swap")
    assert "(KiB)" in out and "(KB)" in out and "GiB" not in out


def test_no_hint_says_what_the_value_already_does() -> None:
    out = render_check(CASES_DIR / "hint-wrong-type")
    assert "leave numbers bare" not in out
    for case in ("hint-http-url", "hint-upper-case-id", "hint-model-without-collection", "hint-dtype"):
        assert "allowed values named in the message" not in render_check(CASES_DIR / case)
