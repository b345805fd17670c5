"""The parts every record page has: front matter, header, sources, notes, links, errata, findings.

A page is Markdown whose headings are the generator's own words and whose record-derived content sits in
raw HTML blocks built by :mod:`registry.site._html` (escaped) or :mod:`registry.site._sanitize`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from registry.checker.index import Entry
from registry.diagnostics import Diagnostic
from registry.kinds.records import Erratum, Source
from registry.site import _paths
from registry.site._context import SiteContext, outgoing
from registry.site._html import Html, block, element, escape, escape_attr, join, link, table
from registry.site._html import badge as badge  # the pages call it _parts.badge; it lives with the HTML

EVIDENCE_WORDS = {
    "architectural": "follows from the published geometry",
    "measured": "observed in a run",
    "source-reported": "stated by a source, not verifiable here",
    "derived": "computed by the engine",
}


def front_matter(title: str, description: str = "", hide: tuple[str, ...] = ()) -> str:
    """YAML front matter. The title is HTML-escaped because the theme prints it unescaped; JSON quoting
    makes it a valid YAML string whatever characters it holds. ``hide`` names parts of the theme to
    leave out (``toc`` gives a wide table the whole width)."""
    lines = ["---", f"title: {json.dumps(str(escape(title)), ensure_ascii=False)}"]
    if hide:
        lines += ["hide:", *(f"  - {part}" for part in hide)]
    if description:
        # the theme prints the description inside an attribute
        lines.append(f"description: {json.dumps(escape_attr(description), ensure_ascii=False)}")
    return "\n".join([*lines, "---", ""]) + "\n"


def fact_table(rows: Iterable[tuple[str, object]]) -> Html:
    """Label and value pairs as a definition list laid out as two columns; a ``None`` value is left out,
    so a missing fact shows no empty line."""
    body = "".join(
        f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>"
        for label, value in rows
        if value is not None and value != ""
    )
    return Html(f'<dl class="facts">{body}</dl>')


def header(context: SiteContext, entry: Entry, page: str, headline: str | None = None) -> str:
    """The page's front matter, its title, and one line saying what kind of fact this is, its id, file
    and tags. Plain text where a tag would only decorate: every element costs the site build. A
    ``headline`` (a kv-efficiency record's result) is added to the page's title, so a browser tab and a
    search result state it."""
    record = entry.record
    evidence = record.evidence
    tags = f" · tags: {', '.join(record.tags)}" if record.tags else ""
    line = join(
        [
            badge(record.kind, "kind"),
            " ",
            badge(evidence, "evidence"),
            f" {EVIDENCE_WORDS.get(evidence, '')} · {record.id} · ",
            element("code", entry.path),
            tags,
        ]
    )
    title = record.title if headline is None else f"{record.title} — {headline}"
    return front_matter(title) + block(element("h1", record.title), element("p", line, class_="record-meta"))


def prose(context: SiteContext, entry: Entry, page: str) -> str:
    """The record's Notes and Methodology, rendered and sanitized."""
    parts: list[str] = []
    for name, heading in (("methodology", "Methodology"), ("notes", "Notes")):
        text = getattr(entry.record, name, None)
        if text:
            parts.append(f"## {heading}\n" + block(context.markdown(page, text), class_="record-prose"))
    return "".join(parts)


def sources(entry: Entry) -> str:
    """Every source: its title linked, and where in it the fact is (section, table, file at revision)."""
    items = "".join(f"<li>{_source(source)}</li>" for source in entry.record.sources)
    return "## Sources\n" + block(Html(f'<ol class="sources">{items}</ol>'))


def _source(source: Source) -> Html:
    where = [
        f"{label} {value}"
        for label, value in (
            ("section", source.section),
            ("table", source.table),
            ("file", source.file),
            ("at", source.revision),
            ("by", source.publisher),
            ("accessed", source.accessed),
        )
        if value
    ]
    parts: list[object] = [link(source.url, source.title, rel="noopener noreferrer")]
    if where:
        parts += [" — ", element("span", "; ".join(where), class_="source-where")]
    if source.quote:
        parts.append(element("blockquote", source.quote))
    return join(parts)


def links(context: SiteContext, entry: Entry, page: str) -> str:
    """Related records (what this record points at) and backlinks (what points at it), under one
    heading: a heading costs every page an entry in its table of contents. Left out of the search
    index: a search for a record's name should find that record's page, not every page that links
    to it."""
    related = _unique([target for target, how in _outgoing(entry) if how != "link"])
    incoming: dict[str, list[str]] = {}
    # A model's, a part's or an engine's benchmarks are summed up in its "Serving results" section.
    summed_up = entry.record.kind in ("model", "hardware", "engine")
    for source, how in context.backlinks.get(entry.id):
        if not (summed_up and source.startswith("benchmarks/")):
            incoming.setdefault(source, []).append(how)
    parts: list[object] = []
    if related:
        items = "".join(
            f"<li>{context.record_link(page, target)} ({escape(target)})</li>" for target in related
        )
        parts += [
            element("p", element("strong", "Related records")),
            Html(f'<ul class="related">{items}</ul>'),
        ]
    if incoming:
        items = "".join(
            f"<li>{context.record_link(page, source)} {escape(_how(hows))}</li>"
            for source, hows in incoming.items()
        )
        parts += [element("p", element("strong", "Linked from")), Html(f'<ul class="backlinks">{items}</ul>')]
    return "## Links\n" + block(*parts, searchable=False) if parts else ""


def _how(hows: list[str]) -> str:
    return "(" + ", ".join(hows) + ")"


def _outgoing(entry: Entry) -> list[tuple[str, str]]:

    return outgoing(entry)


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def errata(entry: Entry) -> str:
    """Corrections kept with the record: what changed, from what, to what, and why."""
    rows: list[Erratum] = list(entry.record.errata)
    if not rows:
        return ""
    body = table(
        ["Date", "Field", "Was", "Now", "Why"],
        ([e.date, element("code", e.field), e.old, e.new, e.reason] for e in rows),
    )
    return "## Errata\n" + block(body)


def findings(context: SiteContext, entry: Entry) -> str:
    """What ``registry check`` says about this record's file (warnings: errors stop the build)."""
    found: list[Diagnostic] = context.findings.get(entry.path, [])
    if not found:
        return ""
    items = "".join(
        f"<li>{badge(d.code, d.severity.value)} {escape(d.name)}: {escape(d.message)}"
        f'{_hint(d.hint)} <span class="where">line {d.line}</span></li>'
        for d in found
    )
    return "## Findings\n" + block(Html(f'<ul class="findings">{items}</ul>'))


def _hint(hint: str) -> str:
    return f'<br><span class="hint">{escape(hint)}</span>' if hint else ""


def code_link(page: str, code: str) -> Html:
    return link(_paths.href(page, _paths.code_page(code)), code)
