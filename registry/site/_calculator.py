"""A model page's calculator: the reader picks a context, a batch, a KV format and an engine layout and
sees the cache, recomputed in the browser exactly as ``registry calc`` computes it; with a hardware
record, a count of its units and a weights format, whether the weights and the cache fit and how many
sequences of the context do, exactly as ``registry fit`` answers.

The page carries the figures the script needs (:mod:`registry.results.calculator`: each layer group's
terms under every engine layout and KV format; :mod:`registry.results.calculator_fit`: each hardware
record's memory, the weights in each format, the model's maximum context) as JSON in a
``<script type="application/json">`` element, which a browser never runs. The script that reads it is
a static file of the site (``site/assets/calculator.js``), loaded like the tables' script, so no page
holds inline script. With JavaScript off the form stays hidden and a note says what the calculator would
need and where the page's tables and the two commands give the same figures.

Record text (the model's id and name, hardware names, the config's quantization method) reaches the
JSON, so it is written so that nothing in a value can end the element or be read as anything but JSON
(:func:`script_json`); in the form's options it is escaped as any text of a page.
"""

from __future__ import annotations

import json
from typing import Any

from registry.engine.layers import LayerGroups
from registry.engine.units import MAX_CONTEXT_TOKENS
from registry.kinds.records import Model
from registry.report.fit import NOT_SUBTRACTED
from registry.results.calculator import NOT_MIRRORED, as_data, offered
from registry.results.calculator_fit import HardwareUnit, fit_data, weights_choices
from registry.results.geometry import model_dtype
from registry.site._html import Html, block, element, escape, join, table
from registry.site._results import CHART_LAYOUT, KV_DTYPES

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


def section(model: Model, layout: LayerGroups, units: tuple[HardwareUnit, ...]) -> str:
    """The calculator's heading and block for a model with a cache layout, offering the hardware
    ``units``, or "" when no engine layout has a figure the script reproduces."""
    data = as_data(layout, model_dtype(model.config or {}, None))
    shown = offered(data)
    if not shown:
        return ""
    data.update(fit_data(model, layout, units), model=model.id, name=model.name)
    left_out = [key for key in data["layouts"] if key not in shown]
    parts: list[object] = [
        Html(f'<script type="application/json" id="{DATA_ID}">{script_json(data)}</script>'),
        _static(model),
        _form(data, shown, model, units),
        _result(),
        _note(data, left_out),
    ]
    return "## Cache and fit for your settings\n" + block(*parts, class_="calculator", searchable=False)


def _static(model: Model) -> Html:
    """What the page says with JavaScript off: what the calculator would need, and where the same
    figures are without it."""
    return element(
        "p",
        join(
            [
                "The calculator needs JavaScript: it counts the cache for a context, batch, KV format and "
                "engine layout, and whether the weights and the cache fit on a hardware record's memory. "
                "Without it, the tables above give the cache at 4K, 32K, 128K and 1M tokens, the table of "
                "128K sequences per hardware below how many fit on each record, and ",
                element("code", f"registry calc --model {model.id} --context 128K"),
                " and ",
                element("code", f"registry fit --model {model.id} --hardware ID --count N --context 128K"),
                " answer for any settings.",
            ]
        ),
        class_="calculator-static",
    )


def _field(name: str, label: str, control: Html) -> Html:
    return element("div", join([element("label", label, for_=f"calculator-{name}"), control]))


def _number(name: str, value: int, maximum: int) -> Html:
    return Html(
        f'<input id="calculator-{name}" name="{name}" type="number" min="1" max="{maximum}" step="1" '
        f'value="{value}" inputmode="numeric" required>'
    )


def _context_input() -> Html:
    """A text field, so that 128K and 131,072 are written as ``registry`` reads them (a number field
    would refuse both)."""
    return Html(
        '<input id="calculator-context" name="context" type="text" value="128K" required '
        'autocomplete="off" spellcheck="false">'
    )


def _select(name: str, options: list[tuple[str, str]], selected: str) -> Html:
    body = join(
        element("option", _inert(text), value=value, selected=value == selected) for value, text in options
    )
    return element("select", body, id=f"calculator-{name}", name=name)


def _inert(text: str) -> Html:
    """``text`` escaped, with ``=`` and ``(`` as their entities: the site's address guard reads
    ``name=value:`` as an attribute and ``](`` as a Markdown link wherever they stand, and would rewrite
    them inside a hardware name (``href=javascript:x``); written so, the name shows whole and the guard
    has nothing to read."""
    return Html(escape(text).replace("=", "&#61;").replace("(", "&#40;"))


def _form(data: dict[str, Any], shown: list[str], model: Model, units: tuple[HardwareUnit, ...]) -> Html:
    layouts = [(key, f"{key}: {data['layouts'][key]['title']}") for key in shown]
    default = CHART_LAYOUT if CHART_LAYOUT in shown else shown[0]
    hardware = [("", "none: the cache alone")] + [(u.id, f"{u.name} ({u.label})") for u in units]
    weights = [
        (choice.option, f"{choice.dtype}, as published" if not choice.option else choice.dtype)
        for choice in weights_choices(model)
    ]
    fields = [
        _field("context", "Context (tokens, 128K, 1M)", _context_input()),
        _field("batch", "Batch (sequences)", _number("batch", 1, MAX_CONTEXT_TOKENS)),
        _field("kv", "KV format", _select("kv", [(d, d) for d in KV_DTYPES], "bf16")),
        _field("layout", "Engine layout", _select("layout", layouts, default)),
        _field("hardware", "Hardware", _select("hardware", hardware, "")),
        _field("count", "Units of the hardware", _number("count", 1, MAX_CONTEXT_TOKENS)),
        _field("weights", "Weights format", _select("weights", weights, "")),
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
                element("p", "", class_="calculator-beyond", hidden=True),
                element("p", "", class_="calculator-summary"),
                element("dl", facts, class_="facts calculator-figures"),
                groups,
                element(
                    "p",
                    join(["The same with its derivation: ", element("code", "", class_="calculator-calc")]),
                    class_="table-note",
                ),
                _fit(),
            ]
        ),
        class_="calculator-result",
        aria_live="polite",
        hidden=True,
    )


def _fit() -> Html:
    """Where the script writes ``registry fit``'s answer for the chosen hardware: the verdict in a
    sentence, then the lines of the command's derivation (label, then value), the command itself and
    what is not subtracted. Hidden while no hardware is chosen."""
    return element(
        "div",
        join(
            [
                element("h3", "Does it fit?"),
                element("p", "", class_="calculator-verdict"),
                element("p", "", class_="calculator-weights"),
                element("dl", "", class_="facts calculator-fit-lines"),
                element(
                    "p",
                    join(
                        [
                            "The same with its derivation: ",
                            element("code", "", class_="calculator-fit-command"),
                        ]
                    ),
                    class_="table-note",
                ),
                element("p", NOT_SUBTRACTED, class_="table-note"),
            ]
        ),
        class_="calculator-fit",
        hidden=True,
    )


def _note(data: dict[str, Any], left_out: list[str]) -> Html:
    text = (
        "Counted in the browser from this page's figures, exactly as registry calc counts them (blocks, "
        "pages and padding of each engine layout included; the model dtype from the config, or from the "
        "weights format when it is an unquantized one), and the fit as registry fit answers it: the "
        "memory of the units, less the weights (the parameters in the weights format), holds the cache of "
        "the batch."
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
