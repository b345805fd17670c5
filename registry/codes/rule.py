"""What a diagnostic code is: a stable code, a name that reads after "ignore", and an explain page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from registry.diagnostics import Diagnostic, Severity

MAX_MESSAGE = 2_000
"""The longest message or hint a finding carries. Messages quote what they are about, and a record can
hold a 900 KB value; the longest real message is under 1,000 characters."""


def bounded(text: str) -> str:
    """``text``, or its first :data:`MAX_MESSAGE` characters and how many more there were."""
    if len(text) <= MAX_MESSAGE:
        return text
    return f"{text[:MAX_MESSAGE]}... ({len(text) - MAX_MESSAGE:,} more characters)"


@dataclass(frozen=True)
class Listed:
    """One item a rule's page lists beside its explanation (F001 lists every catalogued mistake it can
    name): its name, what it is, and where it was made in public, when that is known."""

    name: str
    description: str
    seen_in: str = ""
    url: str = ""
    wrote: str = ""


@dataclass(frozen=True)
class Rule:
    """One diagnostic code and its explain page (``registry rule CODE``).

    ``example`` names the code's example inside this package's data (``examples/<CODE>``): a small
    registry that produces exactly this code and what ``registry check`` prints for it. The golden tests
    check it, so every explain page's example is a test. ``listed`` is what the page lists under
    ``listed_title``, generated from the code the rule reports on, so the page cannot drift from it.
    """

    code: str
    name: str
    family: str
    severity: Severity
    summary: str
    why: str
    fix: str
    example: str
    listed_title: str = ""
    listed: tuple[Listed, ...] = ()

    def diagnostic(
        self, path: str, line: int, column: int, message: str, hint: str = "", pointer: str = ""
    ) -> Diagnostic:
        """A finding of this rule at a place; ``hint`` defaults to the rule's fix. Message and hint are cut
        at :data:`MAX_MESSAGE` characters."""
        return Diagnostic(
            code=self.code,
            severity=self.severity,
            path=path,
            line=line,
            column=column,
            message=bounded(message),
            hint=bounded(hint or self.fix),
            pointer=pointer,
            name=self.name,
        )


class RuleFactory(Protocol):
    def __call__(
        self, code: str, name: str, summary: str, why: str, fix: str, severity: Severity = ...
    ) -> Rule: ...


def family(family_name: str) -> RuleFactory:
    """The constructor a family module declares its rules with: the family's name, error severity
    unless said otherwise, and the example at ``examples/<CODE>``."""

    def rule(
        code: str, name: str, summary: str, why: str, fix: str, severity: Severity = Severity.ERROR
    ) -> Rule:
        return Rule(code, name, family_name, severity, summary, why, fix, f"examples/{code}")

    return rule
