"""Every diagnostic code, by family: Y syntax, S schema, R references, F formula.

Codes are permanent: a code once published keeps its meaning, and a retired code is never reused.
"""

from __future__ import annotations

from registry.codes import formula, refs, schema, syntax
from registry.codes.rule import Rule

FAMILIES = {
    "Y": "syntax: the file cannot be read as one YAML record",
    "S": "schema: the record's structure breaks the published schema",
    "R": "references: the record does not fit the registry around it",
    "F": "formula: a stated number does not follow from the model's geometry",
}


def all_rules() -> tuple[Rule, ...]:
    """Every rule, in code order."""
    rules = (*syntax.RULES, *schema.RULES, *refs.RULES, *formula.RULES)
    return tuple(sorted(rules, key=lambda rule: rule.code))


def find_rule(code_or_name: str) -> Rule | None:
    """The rule with this code (``R004``) or name (``dangling-reference``), case-insensitively."""
    wanted = code_or_name.strip().lower()
    for rule in all_rules():
        if wanted in (rule.code.lower(), rule.name):
            return rule
    return None


__all__ = ["FAMILIES", "Rule", "all_rules", "find_rule"]
