"""Golden failures: one deliberately broken registry per diagnostic code, with its exact output.

Each code's example, registry/codes/examples/<CODE>/, holds a small registry (records/...) and
expected.txt, the exact text `registry check` prints for it. The examples are package data, shown on each
code's explain page. Regenerate after an intended change with REGISTRY_UPDATE_GOLDEN=1, then read the
diff.
"""

from __future__ import annotations

import glob
import os
import tomllib
from pathlib import Path

import pytest

from registry.codes import all_rules, find_rule
from registry.codes.explain import example_files, expected_output
from tests.conftest import GOLDEN, REPO, render_check

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
        assert rule.example == f"examples/{rule.code}"


@pytest.mark.parametrize("code", CASES)
def test_the_package_reads_each_example_as_committed(code: str) -> None:
    """The explain pages read the examples through the package's resources, not from a checkout: what
    they read is the golden case, file for file and byte for byte."""
    rule = find_rule(code)
    assert rule is not None
    records = GOLDEN / code / "records"
    on_disk = sorted(
        (path.relative_to(records.parent).as_posix(), path.read_bytes())
        for path in records.rglob("*")
        if path.is_file()
    )
    assert sorted(example_files(rule)) == on_disk
    assert expected_output(rule) == (GOLDEN / code / "expected.txt").read_text(encoding="utf-8")


def test_every_example_file_is_package_data() -> None:
    """pyproject.toml's package-data globs, matched as setuptools matches them (recursive ``glob``
    from the package's folder), take in every file of every example, so a wheel carries them all."""
    settings = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    package = REPO / "registry" / "codes"
    declared = {
        Path(found)
        for pattern in settings["package-data"]["registry.codes"]
        for found in glob.glob(str(package / pattern), recursive=True)
        if Path(found).is_file()
    }
    assert declared == {path for path in GOLDEN.rglob("*") if path.is_file()}
    assert "registry.codes.examples*" in settings["packages"]["find"]["exclude"]  # data, not packages
