"""The list of architectures: every ``model_type`` the engine reads a config of, with its adapter and the
mechanisms it lays out, and every causal-LM ``model_type`` of transformers it does not read, with the
reason. Printed from the adapter table and its coverage module, so it cannot say what the engine does
not do."""

from __future__ import annotations

from registry.engine.adapters import NO_ADAPTER, Coverage, coverage
from registry.site._html import Html, block, element, join, table
from registry.site._parts import badge, front_matter

PAGE_TITLE = "Architectures"


def _row(row: Coverage) -> list[object]:
    name = element("code", row.model_type)
    if row.reason is None:
        mechanisms = join(sorted(row.mechanisms), ", ")
        if row.note:
            mechanisms = join([element("div", mechanisms), element("small", row.note)])
        return [name, badge("adapter", "agrees"), element("code", row.adapter or ""), mechanisms]
    return [name, badge(row.reason.name, "neutral"), "", ""]


def _reasons() -> Html:
    reasons = {reason.name: reason.text for reason in NO_ADAPTER.values()}
    rows = [[element("code", name), text] for name, text in sorted(reasons.items())]
    return table(["Reason", "What it means"], rows)


def render_adapters_page() -> str:
    """The whole page: one table row per ``model_type``, then what each reason means."""
    rows = coverage()
    adapted = sum(1 for row in rows if row.reason is None)
    intro = element(
        "p",
        f"{len(rows):,} model types: {adapted:,} read by a config adapter, whose layout the conformance "
        "tests hold byte for byte against transformers' own cache wherever transformers implements the "
        f"type, and {len(rows) - adapted:,} causal-LM model types of transformers that have none, each "
        "with the reason. A config of a model type without an adapter is refused, never guessed at.",
    )
    body = table(
        ["model_type", "Status", "Adapter", "Mechanisms"], (_row(row) for row in rows), sortable=True
    )
    return "".join(
        [
            front_matter(
                PAGE_TITLE, "Every model_type the engine reads, its adapter and mechanisms", ("toc",)
            ),
            f"# {PAGE_TITLE}\n",
            block(intro),
            "## Model types\n" + block(body),
            "## Why a model type has no adapter\n" + block(_reasons()),
        ]
    )
