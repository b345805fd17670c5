"""Golden failures: one deliberately broken registry per diagnostic code, with its exact output.

Each tests/golden/<CODE>/ holds a small registry (records/...) and expected.txt, the exact text
`registry check` prints for it. These trees are also the examples on each code's explain page.
Regenerate after an intended change with REGISTRY_UPDATE_GOLDEN=1, then read the diff.
"""

from __future__ import annotations

import os

import pytest

from registry.codes import all_rules
from tests.conftest import GOLDEN, render_check

CASES = sorted(p.name for p in GOLDEN.iterdir() if (p / "records").is_dir())


@pytest.mark.parametrize("code", CASES)
def test_golden_output(code: str) -> None:
    expected_file = GOLDEN / code / "expected.txt"
    actual = render_check(GOLDEN / code)
    if os.environ.get("REGISTRY_UPDATE_GOLDEN"):
        expected_file.write_text(actual, encoding="utf-8")
    assert actual == expected_file.read_text(encoding="utf-8")


@pytest.mark.parametrize("code", CASES)
def test_golden_case_produces_its_own_code(code: str) -> None:
    codes = {
        line.split(": ")[1].split()[0]
        for line in render_check(GOLDEN / code).splitlines()
        if line.count(":") >= 3 and not line.startswith(" ")
    }
    assert code in codes


def test_every_code_has_a_golden_case() -> None:
    missing = [rule.code for rule in all_rules() if rule.code not in CASES]
    assert missing == []


def test_every_rule_example_points_at_its_case() -> None:
    for rule in all_rules():
        assert rule.example == f"tests/golden/{rule.code}"
