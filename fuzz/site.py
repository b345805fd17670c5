"""The ``site`` target: every registry that checks clean builds a correct site.

An input is one text field of one valid fixture (a hardware record's name, an engine's version, a title,
a run's notes) set to text built from Markdown's and HTML's syntax and known attacks: lines of backticks,
``--8<--`` includes, ``javascript:`` links, images from the network, raw HTML, line breaks. When the
registry still checks clean, its pages and its database are made, and each record and index page and
the Querying page (whose worked answers show engine and hardware names) are rendered as MkDocs renders
them (Python-Markdown with the extensions ``mkdocs.yml`` names). The promises:

- rendering never fails (an include of a missing file, a fence left open);
- every link on a page goes to ``https:`` or within the site, and nothing is fetched from elsewhere;
- the record's text cannot change the page's structure: each page has as many tables and preformatted
  blocks after rendering as the generator wrote (a fence opened by a record's text would turn the rest
  of the page, or another record's claims table, into a code listing).
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from fuzz.strategies import FIXTURES
from fuzz.targets import Outcome, _promise, _timed

REPO = Path(__file__).resolve().parent.parent

FIELDS: tuple[tuple[str, str], ...] = (
    ("hardware", "name"),
    ("hardware", "title"),
    ("hardware", "vendor"),
    ("engine", "name"),
    ("engine", "version"),
    ("model-config", "title"),
    ("model-config", "notes"),
    ("run", "title"),
    ("run", "notes"),
    ("run", "methodology"),
)
"""(fixture, field) pairs whose text reaches the site; each is a top-level key of its record."""

PAYLOADS = (
    "```", "~~~", "```python", '--8<-- "missing.md"', "--8<--", "[PoC](javascript:alert(1))",
    "![](https://attacker.example/pixel.png)", "[x]: javascript:alert(1)", "<javascript:alert(1)>",
    "<https://example.com>", "<ftp://example.com>", "[a](jav&#x09;ascript:alert(1))", "<script>alert(1)</script>",
    '<img src="https://attacker.example/x.png">', "<a href='javascript:alert(1)'>a</a>", "|", "\\", "&amp;",
    "[[models/example-llama]]", "\n", "\n\n", "\n    ", "# ", "> ", "!!! note", "    code", "`", "*", "_",
    "<div>", "</div>", "</table>", "<pre>", "{: .x}",
)  # fmt: skip
"""Pieces the fuzzed text is made from, with short random text between them."""

_EXTENSIONS = ["admonition", "tables", "toc", "pymdownx.superfences", "pymdownx.snippets"]


def field_texts() -> st.SearchStrategy[tuple[str, str, str]]:
    """(fixture, field, text) inputs for :func:`site`."""
    piece = st.one_of(st.sampled_from(PAYLOADS), st.text(min_size=1, max_size=6))
    text = st.lists(piece, min_size=1, max_size=8).map("".join)
    return st.tuples(st.sampled_from(FIELDS), text).map(lambda pair: (*pair[0], pair[1]))


def _with_field(source: str, field: str, value: str) -> str:
    """The fixture's YAML with the top-level ``field`` set to ``value`` (a JSON string is YAML too)."""
    line = f"{field}: {json.dumps(value, ensure_ascii=False)}"
    pattern = re.compile(rf"(?m)^{re.escape(field)}:.*(?:\n[ \t]+.*)*$")
    if pattern.search(source):
        return pattern.sub(lambda _: line, source, count=1)
    return source.rstrip("\n") + "\n" + line + "\n"


class _Addresses(HTMLParser):
    """Every link and every fetched address of a rendered page, and its tables and preformatted blocks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.fetched: list[str] = []
        self.counts = {"table": 0, "pre": 0}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.counts:
            self.counts[tag] += 1
        for name, value in attrs:
            if name in ("href", "xlink:href", "action", "formaction"):
                self.links.append(value or "")
            elif name in ("src", "srcset", "poster", "data", "background"):
                self.fetched.append(value or "")


def _render(page: Path, root: Path) -> str:
    import markdown

    text = page.read_text(encoding="utf-8")
    body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
    configs: dict[str, dict[str, Any]] = {
        "pymdownx.snippets": {"base_path": [str(root / "site")], "check_paths": True}
    }
    return str(markdown.Markdown(extensions=_EXTENSIONS, extension_configs=configs).convert(body))


def _counts(text: str) -> dict[str, int]:
    parser = _Addresses()
    parser.feed(text)
    return parser.counts


def site(item: tuple[str, str, str]) -> Outcome:
    from registry.checker.pipeline import check
    from registry.db import build_database
    from registry.site._db_docs import _INTRO, EXAMPLES, render_querying_page
    from registry.site._generate import generate
    from registry.site._guard import allowed
    from registry.site._paths import GENERATED
    from registry.site._writer import GeneratedFolder

    fixture, field, value = item
    folder = Path(tempfile.mkdtemp(prefix="registry-fuzz-site-"))

    def run() -> Outcome:
        for name, record_id in FIXTURES.items():
            source = (REPO / "tests/fixtures/valid" / f"{name}.yaml").read_text(encoding="utf-8")
            target = folder / "records" / f"{record_id}.yaml"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(
                _with_field(source, field, value) if name == fixture else source, encoding="utf-8"
            )
        result = check(folder)
        if not result.ok:
            return Outcome(tuple(sorted({d.code for d in result.diagnostics})))
        generate(folder, result, downloads=False, workers=1)
        database = folder / "build" / "registry.duckdb"
        build_database(folder, database)
        pages = GeneratedFolder(folder / "site", GENERATED)
        pages.write(f"{GENERATED}/querying.md", render_querying_page(folder, database, current=True))
        rendered = sorted((folder / "site" / GENERATED).glob("*/*.md"))
        _promise(bool(rendered), "no record page was generated")
        for page in [*rendered, folder / "site" / GENERATED / "querying.md"]:
            if page.parent.name == "reference":
                continue
            html = _render(page, folder)
            addresses = _Addresses()
            addresses.feed(html)
            shown = page.relative_to(folder).as_posix()
            bad = [a for a in addresses.links if not allowed(a)] + [
                a for a in addresses.fetched if not allowed(a, fetched=True)
            ]
            _promise(not bad, f"{shown}: addresses the site may not hold: {bad[:3]}")
            written = _counts(page.read_text(encoding="utf-8"))
            if page.name == "querying.md":  # its SQL and console examples are the generator's own fences
                written["pre"] += len(EXAMPLES) + _INTRO.count("```console")
            _promise(addresses.counts == written, f"{shown}: {written} written, {addresses.counts} rendered")
        return Outcome(("clean",))

    try:
        return _timed(run)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
