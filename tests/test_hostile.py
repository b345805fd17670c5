"""The hostile corpus: every kind of bad input a pull request can bring gets exactly its located findings.

Each ``tests/hostile/<case>/`` is a small registry and ``expected.txt`` the findings (``path:line:col:
CODE``) and exit code that ``registry check`` must give for it (format: ``tests/hostile/README.md``).
Besides the findings themselves, the tests hold every case to a time bound per file and to output that
the input cannot forge: no control character reaches the terminal, and every text line is a finding, a
hint or the summary.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from registry.checker.pipeline import CheckResult, check
from registry.cli import main
from registry.codes import all_rules
from registry.report.reporters import REPORTERS

REPO = Path(__file__).resolve().parent.parent
HOSTILE = REPO / "tests" / "hostile"
CASES = sorted(p.name for p in HOSTILE.iterdir() if (p / "records").is_dir())
SECONDS_PER_FILE = 5.0
"""The bound per record file on the CPU time a check spends in this process (not wall time, which a busy
machine stretches): it catches a quadratic or unbounded path, which overshoots it by far, while the
corpus's small files take a fraction of it."""

_FINDING_LINE = re.compile(r"^[^\s:][^:]*:\d+:\d+: [A-Z]\d{3} [a-z-]+: ")
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True)
class Expected:
    description: str
    findings: list[str]
    exit: int


def read_expected(case: str) -> Expected:
    """A case's ``expected.txt``: a ``#`` description line, finding lines, and ``exit: N``."""
    lines = (HOSTILE / case / "expected.txt").read_text(encoding="utf-8").splitlines()
    description = lines[0].removeprefix("# ")
    exit_line = lines[-1]
    assert lines[0].startswith("# ") and exit_line.startswith("exit: "), f"{case}/expected.txt is malformed"
    return Expected(description, lines[1:-1], int(exit_line.removeprefix("exit: ")))


def run_cli(*argv: str) -> tuple[int, str, str]:
    """``registry ARGV`` in this process: exit code, standard output, standard error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def check_json(root: Path) -> tuple[int, dict[str, object], float]:
    """``registry check --format json`` on ``root`` (no cache): exit code, the report, CPU seconds taken."""
    started = time.process_time()
    code, out, err = run_cli("check", "--root", str(root), "--format", "json", "--no-cache")
    elapsed = time.process_time() - started
    assert code in (0, 1), f"could not run: {err}"
    report: dict[str, object] = json.loads(out)
    return code, report, elapsed


def finding_lines(report: dict[str, object]) -> list[str]:
    diagnostics = report["diagnostics"]
    assert isinstance(diagnostics, list)
    return [f"{d['path']}:{d['line']}:{d['column']}: {d['code']}" for d in diagnostics]


@pytest.mark.parametrize("case", CASES)
def test_case_gives_exactly_its_findings_in_time(case: str) -> None:
    expected = read_expected(case)
    code, report, elapsed = check_json(HOSTILE / case)
    assert finding_lines(report) == expected.findings, expected.description
    assert code == expected.exit, expected.description
    files = max(1, sum(1 for p in (HOSTILE / case / "records").rglob("*") if not p.is_dir()))
    assert elapsed < SECONDS_PER_FILE * files, f"{case}: {elapsed:.1f} s for {files} file(s)"
    diagnostics = report["diagnostics"]
    assert isinstance(diagnostics, list)
    for d in diagnostics:
        assert_on_a_real_line(HOSTILE / case, d)


def assert_on_a_real_line(root: Path, d: dict[str, Any]) -> None:
    """Line and column are 1-based and the line is inside the file (1:1 is the file as a whole)."""
    assert d["line"] >= 1 and d["column"] >= 1
    target = root / d["path"]
    if target.is_file() and not target.is_symlink():
        text = target.read_bytes().decode("utf-8", errors="replace")
        breaks = len(re.findall(r"\r\n|\r|\n", text))
        assert d["line"] <= breaks + 1, f"{d['path']}:{d['line']} is past the end of the file"


@pytest.mark.parametrize("case", CASES)
def test_no_report_format_can_be_forged_or_garbled(case: str) -> None:
    """In text, every line is a finding, a hint or the summary; no control character, line separator or
    bidirectional override from the input reaches a terminal or a log; the GitHub annotations and the
    SARIF results hold every finding once."""
    expected = read_expected(case)
    result = check(HOSTILE / case)
    out, err = render("text", result)
    assert not _CONTROL.search(out + err)
    for line in out.splitlines():
        assert _FINDING_LINE.match(line) or line.startswith("  hint: "), line
    assert err.startswith("Checked ") and err.count("\n") == 1
    out, _ = render("github", result)
    assert not _CONTROL.search(out)
    assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in out.splitlines())
    assert len(out.splitlines()) == len(expected.findings)
    results = json.loads(render("sarif", result)[0])["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == [line.rsplit(" ", 1)[1] for line in expected.findings]


def render(format_name: str, result: CheckResult) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    REPORTERS[format_name](result, out, err)
    return out.getvalue(), err.getvalue()


def test_bad_input_exits_1_and_accepted_input_says_why() -> None:
    """A case the check accepts (exit 0) is there on purpose and its description says so; every other
    case gives at least one finding of error severity."""
    for case in CASES:
        expected = read_expected(case)
        if expected.exit == 0:
            assert re.search(r"accepted|allowed", expected.description), case
        else:
            assert expected.findings, case


def test_the_corpus_reaches_every_syntax_and_schema_code() -> None:
    """Every refusal the loader and the schema stage can give is met by some hostile input. Y006 (a file
    past the size limit) cannot be committed; tests/test_hostile_generated.py builds it at run time."""
    met = {line.rsplit(" ", 1)[1] for case in CASES for line in read_expected(case).findings}
    wanted = {rule.code for rule in all_rules() if rule.code[0] in "YS"}
    assert wanted - met == {"Y006"}
