"""Record text on the site, round two: a value that reaches a page's Markdown can neither make a link
that runs script nor an image that loads from the network, and record text can neither open nor close
a Markdown construct (a code fence across the page, a file include).

The last step of every generated page (:func:`registry.site._guard.guard_page`) is tested on its own;
the whole path, from a check-clean registry to pages rendered as MkDocs renders them, runs through the
fuzz campaign's ``site`` target on the inputs that broke it.
"""

from __future__ import annotations

import html
import json
from fractions import Fraction

import pytest
import yaml

from fuzz.site import site
from fuzz.targets import Broken
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Model
from registry.results.calculator_fit import HardwareUnit
from registry.site import _calculator as calculator
from registry.site._calculator import script_json
from registry.site._guard import guard_page
from registry.site._sanitize import render_markdown
from tests.browser.site_registry import MODEL

POC = "[PoC GPU](javascript:alert(document.domain)) ![](https://attacker.example/pixel.png)"


@pytest.mark.parametrize(
    ("page", "inert"),
    [
        ("[x](javascript:alert(1))", "[x]&#40;javascript:alert(1))"),
        ("[x]( JaVaScRiPt:alert(1))", "[x]&#40; JaVaScRiPt:alert(1))"),
        ("[x](jav&#x09;ascript&colon;alert(1))", "[x]&#40;jav&#x09;ascript&colon;alert(1))"),
        ("![](https://attacker.example/p.png)", "![]&#40;https://attacker.example/p.png)"),
        ("![](data:image/png;base64,AAAA)", "![]&#40;data:image/png;base64,AAAA)"),
        ("[a]: javascript:alert(1)", "[a]&#58; javascript:alert(1)"),
        ("<javascript:alert(1)>", "&lt;javascript:alert(1)>"),
        ("<ftp://example.com/x>", "&lt;ftp://example.com/x>"),
        ('<a href="javascript:alert(1)">a</a>', '<a href="#">a</a>'),
        ("<a href='java\tscript:alert(1)'>a</a>", '<a href="#">a</a>'),
        ('<img src="https://attacker.example/p.png">', '<img src="#">'),
        ('<img srcset="a.png 1x, https://attacker.example/p.png 2x">', '<img srcset="#">'),
        ('<a href="mailto:x@example.com">m</a>', '<a href="#">m</a>'),
    ],
)
def test_every_address_a_page_may_not_hold_is_made_inert(page: str, inert: str) -> None:
    assert guard_page(page) == inert


@pytest.mark.parametrize(
    "page",
    [
        "[a link](https://example.com/x) and [a page](../models/x.html#y) and [top](#top)",
        '<a href="https://example.com">x</a> <a href="../index.html">y</a> <img src="../assets/x.svg">',
        "![chart](assets/chart.svg)",
        "<https://example.com/x>",
        "no address at all: a = b, c: d",
    ],
)
def test_addresses_within_the_site_and_https_links_are_kept(page: str) -> None:
    assert guard_page(page) == page


def test_markdown_text_is_rendered_on_one_line() -> None:
    """A fence, a ``--8<--`` include or an indented line inside notes never starts a line of the page."""
    html = render_markdown('```\nx\n```\n\n    ```\n\n--8<-- "missing.md"\n\ntext\n~~~\n')
    assert "\n" not in html and "&#10;" in html


@pytest.mark.parametrize(
    "item",
    [
        ("engine", "name", POC),
        ("engine", "version", POC),
        ("hardware", "name", POC),
        ("run", "notes", 'Qwen3 8B\n```\nx\n\n    ```\n\n--8<-- "missing.md"\n\n~~~\n'),
        ("run", "methodology", "````\n```\n````\n\n[a]: javascript:alert(1)\n\n[b][a] <javascript:alert(1)>"),
        (
            "model-config",
            "notes",
            "![](https://attacker.example/p.png)\n\n<img src=https://attacker.example/q.png>",
        ),
    ],
)
def test_a_check_clean_registry_builds_a_correct_site(item: tuple[str, str, str]) -> None:
    try:
        outcome = site(item)
    except Broken as broken:
        pytest.fail(str(broken))
    assert outcome.codes == ("clean",)


@pytest.mark.parametrize(
    "item",
    [
        ("model-config", "title", "Qwen3 8B\n```\nx"),
        ("hardware", "name", 'GPU\n--8<-- "missing.md"'),
        ("engine", "version", "1.0\n~~~"),
    ],
)
def test_a_line_break_in_a_single_line_field_is_refused(item: tuple[str, str, str]) -> None:
    assert "S008" in site(item).codes


def test_the_guard_judges_an_attribute_after_an_equals_sign_with_no_name() -> None:
    """The guard's scan starts at each ``=``: a first ``=`` with no attribute name before it must not hide
    the attribute that follows inside the same run of text."""
    assert guard_page("=HREF=javascript:alert(1)>") == '=HREF="#">'
    assert guard_page("x]:cite=data:text/html,x") == 'x]:cite="#"'
    assert guard_page('<a href="../models/x.md">x</a>') == '<a href="../models/x.md">x</a>'


SCRIPT_BREAKERS = [
    "</script><script>alert(1)</script>",
    "</SCRIPT >",
    "<!--<script>",
    "\"quoted\" 'single' \\ back",
    "line\u2028separator\u2029paragraph",
    "a href=javascript:alert(1) [x](javascript:alert(1)) <javascript:alert(1)>",
    "&lt;/script&gt; &amp;",
]


@pytest.mark.parametrize("value", SCRIPT_BREAKERS)
def test_a_value_in_the_calculators_json_cannot_end_the_element_or_be_rewritten(value: str) -> None:
    data = {"name": value, "model": value, "layouts": {value: [value]}}
    text = script_json(data)
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029", "\n", "="}
    assert json.loads(text) == data  # the same values to JSON.parse
    assert guard_page(text) == text  # the address guard finds nothing to rewrite


def test_a_hostile_model_name_reaches_the_calculator_as_data_only() -> None:
    record = MODEL.replace(
        "name: Example Llama", f"name: {json.dumps(SCRIPT_BREAKERS[0] + SCRIPT_BREAKERS[4])}"
    )
    model = Model.model_validate(yaml.safe_load(record))
    hostile = " ".join(SCRIPT_BREAKERS[:2] + SCRIPT_BREAKERS[3:4] + SCRIPT_BREAKERS[5:])
    unit = HardwareUnit("hardware/x", hostile, "80 GB", 1, Fraction(80 * 10**9))
    part = calculator.section(model, model_layer_groups(model), (unit,))
    assert part.count("<script") == 1 and part.count("</script>") == 1  # its own data element, closed once
    assert guard_page(part) == part  # nothing for the guard to rewrite, in the data or the options
    data = part.split(f'id="{calculator.DATA_ID}">', 1)[1].split("</script>", 1)[0]
    assert json.loads(data)["name"] == model.name
    assert json.loads(data)["hardware"]["hardware/x"]["name"] == hostile
    option = part.split('<option value="hardware/x">', 1)[1].split("</option>", 1)[0]
    assert html.unescape(option) == f"{hostile} (80 GB)"  # the name whole, as text
