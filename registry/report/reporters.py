"""Reporters: one check result, rendered for a person, a script, GitHub or code scanning.

Chosen by name from :data:`REPORTERS`; only this layer formats diagnostics.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol, TextIO
from urllib.parse import quote

from registry.codes import all_rules
from registry.diagnostics import Diagnostic, Severity
from registry.terminal import terminal_safe


class Reportable(Protocol):
    """What a reporter needs of a check's answer (fresh, or read back from the cache)."""

    files: int
    diagnostics: list[Diagnostic]

    def count(self, severity: Severity) -> int: ...

    @property
    def ok(self) -> bool: ...


JSON_FORMAT_VERSION = 1


def summary(result: Reportable) -> str:
    errors, warnings = result.count(Severity.ERROR), result.count(Severity.WARNING)
    files = f"{result.files} record file{'s' if result.files != 1 else ''}"
    if not errors and not warnings:
        return f"Checked {files}: all clean."
    return f"Checked {files}: {errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}."


# A file name can hold characters that act on a terminal (git allows any byte but NUL and '/'), so a
# finding about it could otherwise clear the screen or print a line that looks like another finding:
# every path, message and hint goes through the one escaping function, registry.terminal.terminal_safe.
printable = terminal_safe


def text(result: Reportable, out: TextIO, err: TextIO) -> None:
    """``path:line:col: CODE name: message`` and an indented hint; the summary goes to stderr."""
    for d in result.diagnostics:
        level = "" if d.severity is Severity.ERROR else f"[{d.severity.value}] "
        where = f"{printable(d.path)}:{d.line}:{d.column}"
        out.write(f"{where}: {d.code} {d.name}: {level}{printable(d.message)}\n")
        if d.hint:
            out.write(f"  hint: {printable(d.hint)}\n")
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


def json_report(result: Reportable, out: TextIO, err: TextIO) -> None:
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


def github(result: Reportable, out: TextIO, err: TextIO) -> None:
    """GitHub Actions workflow commands: one annotation per finding on the pull request's diff."""
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    for d in result.diagnostics:
        title = _escape_property(f"{d.code} {d.name}")
        message = _escape_data(printable(d.message) + (f"\nhint: {printable(d.hint)}" if d.hint else ""))
        where = f"file={_escape_property(printable(d.path))},line={d.line},col={d.column}"
        out.write(f"::{level[d.severity]} {where},title={title}::{message}\n")
    err.write(summary(result) + "\n")


def sarif_uri(path: str) -> str:
    """A finding's path as SARIF's ``artifactLocation.uri``: a relative reference with every character
    a URI may not hold raw percent-encoded (UTF-8), ``%`` included, so ``a b ü%20.yaml`` is
    ``a%20b%20%C3%BC%2520.yaml``, which decodes to the one file it names (SARIF 2.1.0, 3.10.2: a
    ``uri-reference``)."""
    return quote(path, safe="/")


def sarif(result: Reportable, out: TextIO, err: TextIO) -> None:
    """SARIF 2.1.0, for code scanning."""

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
                                    "artifactLocation": {"uri": sarif_uri(d.path)},
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


REPORTERS: dict[str, Callable[[Reportable, TextIO, TextIO], None]] = {
    "text": text,
    "json": json_report,
    "github": github,
    "sarif": sarif,
}
