"""The explain page of a diagnostic code, as text (``registry rule``) and Markdown (the site)."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

from registry.codes import FAMILIES, Rule, all_rules


def example_folder(rule: Rule) -> Traversable:
    """The rule's example (``records/`` and ``expected.txt``), read from the installed package's data
    rather than from a checkout, so an installed wheel explains every code with its example."""
    return files("registry.codes").joinpath(rule.example)


def example_files(rule: Rule) -> list[tuple[str, bytes]]:
    """The example's record files, in path order: each one's path under the example (``records/...``)
    and its bytes as committed (an example about encodings is not valid UTF-8)."""
    found: list[tuple[str, bytes]] = []
    pending = [("records", example_folder(rule).joinpath("records"))]
    while pending:
        path, entry = pending.pop()
        if entry.is_file():
            found.append((path, entry.read_bytes()))
        elif entry.is_dir():
            pending.extend((f"{path}/{child.name}", child) for child in entry.iterdir())
    return sorted(found, key=lambda item: item[0].split("/"))


def expected_output(rule: Rule) -> str:
    """What ``registry check`` prints for the rule's example, or ``""`` when the example has none."""
    expected = example_folder(rule).joinpath("expected.txt")
    return expected.read_text(encoding="utf-8") if expected.is_file() else ""


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
    if rule.listed:
        lines += ["", f"{rule.listed_title}:"]
        for item in rule.listed:
            lines.append(f"  {item.name}: {item.description}")
            if item.url:
                lines.append(f"    seen in {item.seen_in} ({item.url}): {item.wrote}")
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
