"""Findings as values.

Every check in the registry yields :class:`Diagnostic` values; nothing raises for bad input.
Exceptions mean "could not run" and end in exit code 2 at the command line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, order=False)
class Diagnostic:
    """One finding, located in one file.

    ``line`` and ``column`` are 1-based; 0 means "the whole file" (for a file that could not be read).
    ``pointer`` is the JSON pointer of the node the finding is about, when there is one.
    """

    code: str
    severity: Severity
    path: str
    line: int
    column: int
    message: str
    hint: str = ""
    pointer: str = ""
    name: str = field(default="")

    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.path, self.line, self.column, self.code, self.message)


def sort_diagnostics(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Return the diagnostics in the stable report order: file, line, column, code."""
    unique = {(d.sort_key(), d.pointer, d.hint): d for d in diagnostics}
    return [unique[k] for k in sorted(unique)]
