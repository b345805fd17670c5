"""A model page's calculator: the reader picks a context, a batch, a KV format and an engine layout and
sees the cache, recomputed in the browser exactly as ``registry calc`` computes it.

The page carries the figures the script needs (:mod:`registry.results.calculator`: each layer group's
terms under every engine layout and KV format) as JSON in a ``<script type="application/json">``
element, which a browser never runs. The script that reads it is a static file of the site
(``site/assets/calculator.js``), loaded like the tables' script, so no page holds inline script. With
JavaScript off the form stays hidden and a note points at the static tables above it.

Record text (the model's id and name) reaches the JSON, so it is written so that nothing in a value can
end the element or be read as anything but JSON (:func:`script_json`).
"""

from __future__ import annotations

import json
from typing import Any

from registry.engine.layers import LayerGroups
from registry.engine.units import MAX_CONTEXT_TOKENS
from registry.kinds.records import Model
from registry.results.calculator import NOT_MIRRORED, as_data, offered
from registry.results.geometry import model_dtype
from registry.site._html import Html, block, element, join, table
from registry.site._results import CHART_LAYOUT, HEADLINE_CONTEXT, KV_DTYPES

DATA_ID = "registry-calculator-data"
"""The id of the JSON element the script reads."""

_SCRIPT_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "=": "\\u003d",
    "(": "\\u0028",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
"""Characters a JSON text may hold only inside its strings, written as JSON escapes (the same string to
``JSON.parse``). ``<`` could end the element (``</script>``) or open a comment; ``>`` and ``&`` are
escaped with it as HTML's own advice for script data has them; ``=`` and ``(`` are what the site's
address guard (:mod:`registry.site._guard`) reads as an attribute value or a Markdown link, which it
would rewrite inside a string; U+2028 and U+2029 end a line for older JavaScript parsers and for the
Markdown renderer's line handling."""
_ESCAPE_TABLE = str.maketrans(_SCRIPT_ESCAPES)


def script_json(value: Any) -> Html:
    """``value`` as JSON safe to place inside ``<script type="application/json">``: on one line, every
    character of :data:`_SCRIPT_ESCAPES` escaped (none of them occurs outside a string in JSON, so
    the escaping never touches the JSON's own syntax)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return Html(text.translate(_ESCAPE_TABLE))


def section(model: Model, layout: LayerGroups) -> str:
    """The calculator's heading and block for a model with a cache layout, or "" when no engine layout
    has a figure the script reproduces."""
    data = as_data(layout, model_dtype(model.config or {}, None))
    shown = offered(data)
    if not shown:
        return ""
    data.update(model=model.id, name=model.name)
    left_out = [key for key in data["layouts"] if key not in shown]
    parts: list[object] = [
        Html(f'<script type="application/json" id="{DATA_ID}">{script_json(data)}</script>'),
        element(
            "p",
            "The calculator needs JavaScript; the tables above give the same figures at 4K, 32K, 128K "
            "and 1M tokens.",
            class_="calculator-static",
        ),
        _form(data, shown),
        _result(),
        _note(data, left_out),
    ]
    return "## Cache for your settings\n" + block(*parts, class_="calculator", searchable=False)


def _field(name: str, label: str, control: Html) -> Html:
    return element("div", join([element("label", label, for_=f"calculator-{name}"), control]))


def _number(name: str, value: int, maximum: int) -> Html:
    return Html(
        f'<input id="calculator-{name}" name="{name}" type="number" min="1" max="{maximum}" step="1" '
        f'value="{value}" inputmode="numeric" required>'
    )


def _select(name: str, options: list[tuple[str, str]], selected: str) -> Html:
    body = join(element("option", text, value=value, selected=value == selected) for value, text in options)
    return element("select", body, id=f"calculator-{name}", name=name)


def _form(data: dict[str, Any], shown: list[str]) -> Html:
    layouts = [(key, f"{key}: {data['layouts'][key]['title']}") for key in shown]
    default = CHART_LAYOUT if CHART_LAYOUT in shown else shown[0]
    fields = [
        _field("context", "Context (tokens)", _number("context", HEADLINE_CONTEXT, MAX_CONTEXT_TOKENS)),
        _field("batch", "Batch (sequences)", _number("batch", 1, MAX_CONTEXT_TOKENS)),
        _field("kv", "KV format", _select("kv", [(d, d) for d in KV_DTYPES], "bf16")),
        _field("layout", "Engine layout", _select("layout", layouts, default)),
    ]
    return element("form", join(fields), class_="calculator-form", hidden=True, aria_label="Cache settings")


def _result() -> Html:
    """The place the script writes into: the figures as a fact list, each group's bytes, the command
    that gives the same figures with their derivation, and a line for a setting with no figure."""
    facts = join(
        join([element("dt", label), element("dd", "", data_figure=name)])
        for name, label in (
            ("total", "Cache"),
            ("growing", "Growing with the context"),
            ("window", "Held by windows and chunks"),
            ("fixed", "Fixed state"),
            ("per-token", "Per extra token, every window full"),
        )
    )
    # No class on the table: the theme styles exactly the tables without one.
    groups = table(["Layer group", "Layers", "Bytes"], [], numeric=(1, 2))
    return element(
        "div",
        join(
            [
                element("p", "", class_="calculator-problem", role="status", hidden=True),
                element("p", "", class_="calculator-summary"),
                element("dl", facts, class_="facts calculator-figures"),
                groups,
                element(
                    "p", join(["The same with its derivation: ", element("code", "")]), class_="table-note"
                ),
            ]
        ),
        class_="calculator-result",
        aria_live="polite",
        hidden=True,
    )


def _note(data: dict[str, Any], left_out: list[str]) -> Html:
    text = (
        "Counted in the browser from this page's figures, exactly as registry calc counts them (blocks, "
        "pages and padding of each engine layout included; the model dtype from the config)."
    )
    unmirrored = [key for key in left_out if NOT_MIRRORED in data["layouts"][key]["kv"].values()]
    refused = [key for key in left_out if key not in unmirrored]
    if refused:
        text += (
            " Not offered, as the engine gives no figure for this model under them (the tables above say "
            f"why): {', '.join(refused)}."
        )
    if unmirrored:
        text += (
            " Not offered, as the script does not reproduce their rules for this model's cache exactly "
            f"(the tables above and registry calc give their figures): {', '.join(unmirrored)}."
        )
    return element("p", text, class_="table-note")


__all__ = ["DATA_ID", "script_json", "section"]
