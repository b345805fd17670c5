"""The explain page of a diagnostic code, as text (``registry rule``) and Markdown (the site)."""

from __future__ import annotations

from pathlib import Path

from registry.codes import FAMILIES, Rule, all_rules


def example_files(rule: Rule, base: Path | None = None) -> list[tuple[str, str]]:
    """The example's record files (path under the example's root, text), if the example tree is present."""
    root = (base or Path(__file__).resolve().parents[2]) / rule.example / "records"
    if not root.is_dir():
        return []
    return [
        (path.relative_to(root.parent).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(root.rglob("*"))
        if path.is_file()
    ]


def expected_output(rule: Rule, base: Path | None = None) -> str:
    path = (base or Path(__file__).resolve().parents[2]) / rule.example / "expected.txt"
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def render_rule(rule: Rule) -> str:
    lines = [
        f"{rule.code} {rule.name} ({rule.family}, {rule.severity.value})",
        "",
        f"What it finds: {rule.summary}",
        "",
        f"Why it matters: {rule.why}",
        "",
        f"What to do: {rule.fix}",
    ]
    output = expected_output(rule)
    if output:
        lines += ["", "Example output:", *[f"  {line}" for line in output.splitlines()]]
    return "\n".join(lines) + "\n"


def render_list() -> str:
    lines = []
    rules = all_rules()
    for prefix, description in FAMILIES.items():
        lines.append(f"{prefix}: {description}")
        for rule in rules:
            if rule.code.startswith(prefix):
                lines.append(f"  {rule.code} {rule.name:<28} {rule.summary}")
        lines.append("")
    return "\n".join(lines)
