"""Reporters: one check result, rendered for a person, a script, GitHub or code scanning.

Chosen by name from :data:`REPORTERS`; only this layer formats diagnostics.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from registry._check import CheckResult
from registry._diagnostics import Diagnostic, Severity

JSON_FORMAT_VERSION = 1


def summary(result: CheckResult) -> str:
    errors, warnings = result.count(Severity.ERROR), result.count(Severity.WARNING)
    files = f"{result.files} record file{'s' if result.files != 1 else ''}"
    if not errors and not warnings:
        return f"Checked {files}: all clean."
    return f"Checked {files}: {errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}."


def text(result: CheckResult, out: TextIO, err: TextIO) -> None:
    """``path:line:col: CODE name: message`` and an indented hint; the summary goes to stderr."""
    for d in result.diagnostics:
        level = "" if d.severity is Severity.ERROR else f"[{d.severity.value}] "
        out.write(f"{d.path}:{d.line}:{d.column}: {d.code} {d.name}: {level}{d.message}\n")
        if d.hint:
            out.write(f"  hint: {d.hint}\n")
    err.write(summary(result) + "\n")


def as_dict(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code,
        "name": d.name,
        "severity": d.severity.value,
        "path": d.path,
        "line": d.line,
        "column": d.column,
        "message": d.message,
        "hint": d.hint,
        "pointer": d.pointer,
    }


def json_report(result: CheckResult, out: TextIO, err: TextIO) -> None:
    """The pinned JSON shape, version 1 (documented on the site's check page)."""
    payload = {
        "version": JSON_FORMAT_VERSION,
        "files": result.files,
        "summary": {s.value: result.count(s) for s in Severity},
        "ok": result.ok,
        "diagnostics": [as_dict(d) for d in result.diagnostics],
    }
    out.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def github(result: CheckResult, out: TextIO, err: TextIO) -> None:
    """GitHub Actions workflow commands: one annotation per finding on the pull request's diff."""
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    for d in result.diagnostics:
        title = _escape_property(f"{d.code} {d.name}")
        message = _escape_data(d.message + (f"\nhint: {d.hint}" if d.hint else ""))
        out.write(f"::{level[d.severity]} file={_escape_property(d.path)},line={d.line},col={d.column},title={title}::{message}\n")
    err.write(summary(result) + "\n")


def sarif(result: CheckResult, out: TextIO, err: TextIO) -> None:
    """SARIF 2.1.0, for code scanning."""
    from registry.rules import all_rules

    rules = all_rules()
    positions = {rule.code: i for i, rule in enumerate(rules)}
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    payload = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "registry",
                        "rules": [
                            {
                                "id": rule.code,
                                "name": rule.name,
                                "shortDescription": {"text": rule.summary},
                                "fullDescription": {"text": rule.why},
                                "help": {"text": rule.fix},
                                "defaultConfiguration": {"level": level[rule.severity]},
                            }
                            for rule in rules
                        ],
                    }
                },
                "results": [
                    {
                        "ruleId": d.code,
                        **({"ruleIndex": positions[d.code]} if d.code in positions else {}),
                        "level": level[d.severity],
                        "message": {"text": d.message + (f" (hint: {d.hint})" if d.hint else "")},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": d.path},
                                    "region": {"startLine": max(d.line, 1), "startColumn": max(d.column, 1)},
                                }
                            }
                        ],
                    }
                    for d in result.diagnostics
                ],
            }
        ],
    }
    out.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")


REPORTERS: dict[str, Callable[[CheckResult, TextIO, TextIO], None]] = {
    "text": text,
    "json": json_report,
    "github": github,
    "sarif": sarif,
}
