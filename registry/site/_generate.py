"""Generating every page of the site from a checked registry, one record at a time.

Pages are written as they are made, each from its record in the checked index, and each record's index
row (its HTML) goes to a temporary file until its index page is written, so the generator holds no page
longer than it takes to make it. Order: the record pages, rendered by forked workers, while this process
builds the database file when it is stale (a chunk of records at a time) and writes the download files;
then the collection indexes and the home summary, and the reference pages."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from registry.checker.pipeline import CheckResult
from registry.codes import all_rules
from registry.kinds.records import KINDS
from registry.site import _leaderboards, _paths, _serving, _summaries
from registry.site._collections import render_collection, render_home_summary
from registry.site._context import SiteContext
from registry.site._downloads import stage_database, write_downloads
from registry.site._progress import Progress
from registry.site._record_pages import render_records
from registry.site._reference_adapters import render_adapters_page
from registry.site._reference_cli import render_cli_page
from registry.site._reference_codes import CODES_INDEX, render_code_page, render_codes_index
from registry.site._reference_engine import render_mechanisms_page
from registry.site._reference_fields import render_fields_page
from registry.site._writer import GeneratedFolder

HOME_SNIPPET = f"{_paths.GENERATED}/snippets/home.txt"
"""The generated part of the home page, pulled into ``site/index.md`` by the snippets extension; not
named ``.md`` so it is not also built as a page of its own."""


@dataclass
class Generated:
    """What the generation step wrote: pages, files changed and removed, record pages by kind, and
    the seconds spent on the pages, and on the database and the download files made alongside them
    (both overlap ``pages``, which waits for them)."""

    pages: int
    changed: int
    removed: int
    records: dict[str, int]
    seconds: dict[str, float] = field(default_factory=dict)


def _reference_pages(root: Path) -> dict[str, Callable[[], str]]:

    pages: dict[str, Callable[[], str]] = {
        f"{_paths.REFERENCE}/mechanisms.md": render_mechanisms_page,
        f"{_paths.REFERENCE}/architectures.md": render_adapters_page,
        f"{_paths.REFERENCE}/fields.md": render_fields_page,
        f"{_paths.REFERENCE}/cli.md": render_cli_page,
        CODES_INDEX: render_codes_index,
    }
    for rule in all_rules():
        pages[_paths.code_page(rule.code)] = lambda rule=rule: render_code_page(rule)  # type: ignore[misc]
    return pages


def generate(
    root: Path,
    result: CheckResult,
    *,
    progress: TextIO | None = None,
    downloads: bool = True,
    workers: int | None = None,
) -> Generated:
    """Write every generated page of the registry at ``root`` into ``site/generated/``.

    ``workers`` is how many processes render the record pages (default: one per core for a large
    registry, see :func:`registry.site._record_pages.workers_for`).
    """

    context = SiteContext.from_check(result)
    # Every geometry's figures, made once here: the page workers fork after this and share them, and
    # the database built beside the pages reads the same ones.
    context.results.prepare_figures()
    folder = GeneratedFolder(root / "site", _paths.GENERATED)
    downloads_folder = GeneratedFolder(root / "site", _paths.GENERATED)
    references = _reference_pages(root)
    database, build = stage_database(root, result) if downloads else (None, None)
    started = time.perf_counter()
    seconds = {"pages": 0.0}

    def download_files() -> None:  # alongside the pages, in this process while the workers render
        alongside = time.perf_counter()
        if build is not None:
            build()
            seconds["database (alongside the pages)"] = time.perf_counter() - alongside
        write_downloads(root, result, downloads_folder, enabled=downloads, database=database)
        seconds["downloads (alongside the pages)"] = time.perf_counter() - alongside

    bar = Progress(progress, len(context.index.entries), label="record pages")
    records = render_records(
        context, folder.docs_dir, workers=workers, advance=bar.advance, alongside=download_files
    )
    bar.close()
    for done in (records, downloads_folder):
        folder.written |= done.written
        folder.changed += done.changed
    collected = records.collected
    for kind_folder in KINDS.values():
        if kind_folder == "benchmarks":
            continue  # written from the leaderboards' rows (registry.site._summaries)
        count, rows = collected.counts[kind_folder], collected.text(kind_folder)
        folder.write_parts(_paths.collection_page(kind_folder), render_collection(kind_folder, count, rows))
    folder.write(HOME_SNIPPET, render_home_summary(collected))
    for page, text in _leaderboards.pages(context):
        folder.write(page, text)
    for page, text in _serving.pages(context):
        folder.write(page, text)
    folder.write(_summaries.BENCHMARKS_INDEX, _summaries.benchmarks_index(context))
    for page, render in references.items():
        folder.write(page, render())
    removed = folder.prune()
    seconds["pages"] = time.perf_counter() - started
    pages = sum(1 for p in folder.written if p.endswith(".md"))
    counts = {kind: records.counts.get(kind, 0) for kind in KINDS}
    return Generated(pages, folder.changed, removed, counts, seconds)
