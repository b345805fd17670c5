"""The diagnostic-code reference: an index by family and one explain page per code.

Each page is what ``registry rule CODE`` prints, plus the example record tree that produces the code
(a golden test checks that it does) and its exact output.
"""

from __future__ import annotations

from registry.codes import FAMILIES, Rule, all_rules
from registry.codes.explain import example_files, expected_output
from registry.site import _paths
from registry.site._html import block, element, join, link, table
from registry.site._parts import badge, front_matter

EXAMPLE_LIMIT = 4000
"""Characters of an example file shown; a code about oversized files has an oversized example."""

CODES_INDEX = f"{_paths.REFERENCE}/codes/index.md"


def _example_files(rule: Rule) -> list[tuple[str, str]]:
    """The example tree's files as text; undecodable bytes (the encoding code's example) shown replaced."""
    files = []
    for name, content in example_files(rule):
        text = content[: EXAMPLE_LIMIT + 1].decode("utf-8", errors="replace")
        if len(text) > EXAMPLE_LIMIT:
            text = text[:EXAMPLE_LIMIT] + "\n… (cut here)"
        files.append((name, text))
    return files


def render_code_page(rule: Rule) -> str:
    """One code's explain page."""
    page = _paths.code_page(rule.code)
    parts: list[object] = [
        element(
            "p",
            join(
                [
                    badge(rule.severity.value, rule.severity.value),
                    " ",
                    element("code", rule.name),
                    f" · {rule.family}",
                ]
            ),
        ),
        element("h2", "What it finds"),
        element("p", rule.summary),
        element("h2", "Why it matters"),
        element("p", rule.why),
        element("h2", "What to do"),
        element("p", rule.fix),
    ]
    if rule.listed:
        rows = [
            [
                element("code", item.name),
                item.description,
                join([link(item.url, item.seen_in), ": ", item.wrote]) if item.url else "",
            ]
            for item in rule.listed
        ]
        parts += [element("h2", rule.listed_title), table(["Name", "The mistake", "Seen in"], rows)]
    files = _example_files(rule)
    if files:
        parts.append(element("h2", "Example"))
        for name, text in files:
            parts.append(element("p", element("code", name)))
            parts.append(element("pre", text))
    output = expected_output(rule)
    if output:
        parts += [element("p", "registry check prints:"), element("pre", output)]
    back = link(_paths.href(page, CODES_INDEX), "All diagnostic codes")
    parts.append(element("p", back))
    title = f"{rule.code} {rule.name}"
    return front_matter(title) + f"# {title}\n" + block(*parts, class_="rule")


def render_codes_index() -> str:
    """Every code by family, each linked to its page."""
    rules = all_rules()
    parts = [
        front_matter("Diagnostic codes"),
        "# Diagnostic codes\n\n",
        "Every finding `registry check` can report. Codes are permanent: a code keeps its meaning, "
        "and a retired code is never reused. `registry rule CODE` prints the same explanation.\n",
    ]
    for prefix, description in FAMILIES.items():
        rows = [
            [
                link(_paths.href(CODES_INDEX, _paths.code_page(r.code)), r.code),
                element("code", r.name),
                r.severity.value,
                r.summary,
            ]
            for r in rules
            if r.code.startswith(prefix)
        ]
        parts.append(
            f"## {prefix}: {description.split(':', 1)[0]}\n\n{description.split(': ', 1)[-1].capitalize()}.\n"
        )
        parts.append(block(table(["Code", "Name", "Severity", "What it finds"], rows)))
    return "".join(parts)
