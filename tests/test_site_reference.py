"""Reference pages generated from the code: a code, command, option, schema field, mechanism, engine
layout, dtype, variant or misapplication the pages leave out fails here."""

from __future__ import annotations

import argparse
import html
import re
import types
import typing
from collections.abc import Iterator

from pydantic import BaseModel

from registry.cli import COMMANDS, build_parser
from registry.codes import all_rules
from registry.engine.dtypes import DTYPES
from registry.engine.engines import ENGINE_KEYS
from registry.engine.layers import MECHANISM_TYPES
from registry.engine.misapply import CATALOGUE
from registry.engine.variants import VARIANTS
from registry.kinds.records import MODEL_CLASSES
from registry.site._reference_cli import render_cli_page
from registry.site._reference_codes import render_code_page, render_codes_index
from registry.site._reference_engine import render_mechanisms_page
from registry.site._reference_fields import render_fields_page


def test_every_code_has_an_explain_page_listed_in_the_index() -> None:
    index = render_codes_index()
    for rule in all_rules():
        assert f'href="{rule.code}.html">{rule.code}</a>' in index, rule.code
        page = render_code_page(rule)
        assert f"# {rule.code} {rule.name}" in page
        assert html.escape(rule.summary, quote=False) in page and html.escape(rule.fix, quote=False) in page


def test_code_pages_show_the_golden_example_and_its_output() -> None:
    page = render_code_page(next(r for r in all_rules() if r.code == "R004"))
    assert "records/" in page and "registry check prints:" in page and "R004 dangling-reference" in page


def test_every_command_and_option_is_on_the_cli_page() -> None:
    page = html.unescape(render_cli_page())
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in COMMANDS:
        assert f"## registry {name}\n" in page, name
        for action in subparsers.choices[name]._actions:
            for option in action.option_strings:
                assert option in page, (name, option)


def _pydantic_paths(model: type[BaseModel], prefix: str = "") -> Iterator[str]:
    """Every field path of a record class, walked through the pydantic model independently of the
    JSON Schema the page is made from."""
    for name, field in model.model_fields.items():
        path = prefix + name
        yield path
        for nested, step in _nested_models(field.annotation):
            yield from _pydantic_paths(nested, path + step)


def _nested_models(annotation: object, step: str = ".") -> Iterator[tuple[type[BaseModel], str]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation, step
        return
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is list:
        yield from _nested_models(arguments[0], "[].")
    elif origin is dict:
        yield from _nested_models(arguments[1], ".<key>.")
    elif origin in (typing.Union, types.UnionType, typing.Annotated):
        for argument in arguments:
            yield from _nested_models(argument, step)


def test_every_schema_field_is_on_the_fields_page() -> None:
    page = render_fields_page()
    for kind, model in MODEL_CLASSES.items():
        section = page.split(f"## {kind}\n", 1)[1].split("\n## ", 1)[0]
        for path in _pydantic_paths(model):
            assert f"<code>{html.escape(path)}</code>" in section, (kind, path)


def test_the_engine_page_names_every_mechanism_layout_format_variant_and_mistake() -> None:
    page = render_mechanisms_page()
    for mechanism in MECHANISM_TYPES:
        assert f"### {mechanism.kind}\n" in page  # type: ignore[attr-defined]
    for key in ENGINE_KEYS:
        assert f"<code>{key}</code>" in page
    for name in [*DTYPES, *VARIANTS, *(m.name for m in CATALOGUE)]:
        assert f"<code>{name}</code>" in page, name


def test_the_engine_page_reproduces_the_seeds_worked_figures() -> None:
    """The figures the source documents quote, recomputed by the engine when the page is made."""
    page = html.unescape(render_mechanisms_page())
    traces = " ".join(re.findall(r'<pre class="trace">(.*?)</pre>', page, re.S))
    for figure in (
        "131,072 B = 128 KiB",  # course: 32 layers x 8 KV heads x 128 x BF16, per token
        "536,870,912 B = 512 MiB",  # course: at 4,096 tokens
        "17,179,869,184 B = 16 GiB",  # course: at 131,072 tokens
        "32,768 B = 32 KiB",  # course: MLA latent 512, per token
        "1,048,576 B = 1 MiB",  # course: the fixed state
        "655,360 B",  # article: per token
        "2,621,440,000 B",  # article: 2.62 GB at 4,000 tokens
        "70,272 B = 68.6 KiB",  # the seed record: DeepSeek-V3 MLA per token
    ):
        assert figure in traces, figure
    assert "r* = d·m / (d + m) = 2,048" in page  # course: the low-rank break-even
