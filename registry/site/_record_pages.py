"""Rendering and writing every record's page, on every core when the registry is large.

Each record page depends only on the checked index, which does not change while pages are made, so the
records are cut into contiguous batches and rendered by forked workers that share the index with the
parent (copy on write); each worker writes its pages and sends back only the small rows the index pages
and the home page need. Batches come back in order, so the rows stay sorted by id. Where ``fork`` is not
available, or the registry is small, the same batches run in the parent.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from registry.checker.index import Entry
from registry.site import _model_page, _other_pages, _paths, _run_page
from registry.site._collections import Collected, SpooledRows
from registry.site._context import SiteContext
from registry.site._sanitize import prepare
from registry.site._writer import GeneratedFolder

BATCH = 250
"""Records per batch: large enough to keep the workers busy, small enough for a lively progress bar."""

PARALLEL_FROM = 1000
"""Below this many records, forking costs more than it saves."""

_SHARED: list[SiteContext] = []
"""The context the workers render from, set in the parent just before they fork."""


@dataclass
class Batch:
    """What rendering a batch produced: index rows, the files written, how many changed, and counts."""

    collected: Collected = field(default_factory=Collected)
    written: set[str] = field(default_factory=set)
    changed: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    records: int = 0

    def merge(self, other: Batch) -> None:
        self.collected.take(other.collected)
        self.written |= other.written
        self.changed += other.changed
        self.counts.update(other.counts)
        self.records += other.records


@dataclass(frozen=True)
class RecordPage:
    """A record's page, the verdict word of each of its claims, and the files the page shows (charts),
    by their path under the docs folder."""

    text: str
    verdicts: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)


def render_record(context: SiteContext, entry: Entry) -> RecordPage:
    """A record's page, with its claims' verdicts and its files."""

    kind = entry.kind
    if kind == "model":
        text, files = _model_page.render(context, entry)
        return RecordPage(text, files=files)
    if kind in ("kv-efficiency", "benchmark"):
        return RecordPage(*_run_page.render_with_verdicts(context, entry))
    if kind == "engine":
        return RecordPage(_other_pages.render_engine(context, entry))
    return RecordPage(_other_pages.render_hardware(context, entry))


def _prepare_renderers() -> None:
    """Import the page modules and make the Markdown converter once, before forking, so no worker
    repeats it."""

    prepare()


def _render_batch(context: SiteContext, docs_dir: Path, ids: list[str]) -> Batch:
    folder = GeneratedFolder(docs_dir, _paths.GENERATED)
    batch = Batch()
    for record_id in ids:
        entry = context.index.entries[record_id]
        rendered = render_record(context, entry)
        batch.collected.add(context, entry, rendered.verdicts)
        folder.write(_paths.record_page(record_id), rendered.text)
        for path, content in rendered.files.items():
            folder.write(path, content)
        batch.counts[entry.kind] += 1
    batch.written, batch.changed, batch.records = folder.written, folder.changed, len(ids)
    return batch


def _in_worker(docs_dir: Path, ids: list[str]) -> Batch:
    return _render_batch(_SHARED[0], docs_dir, ids)


def workers_for(records: int) -> int:
    """How many processes to render ``records`` pages with: one per core, or one for a small registry."""
    if records < PARALLEL_FROM or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(os.cpu_count() or 1, 8))


def _batches(
    context: SiteContext, docs_dir: Path, workers: int, forked: Callable[[], None]
) -> Iterator[Batch]:
    """The rendered batches, in order; ``forked`` is called once no more processes will be forked
    (after the workers start, or at once when the pages are made in this process)."""
    ids = sorted(context.index.entries)
    chunks = [ids[start : start + BATCH] for start in range(0, len(ids), BATCH)]
    # Forking a process that runs other threads can copy a lock mid-use; render in this process then.
    if workers <= 1 or threading.active_count() > 1:
        forked()
        yield from (_render_batch(context, docs_dir, chunk) for chunk in chunks)
        return
    _ = context.backlinks, context.hardware_by_memory, context.boards  # once, before the workers share them
    _prepare_renderers()
    _SHARED[:] = [context]
    # Out of the collector's sight while the workers run: a worker's collection would otherwise walk,
    # and so copy page by page, the whole inherited index, records and all.
    gc.freeze()
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.imap(partial(_in_worker, docs_dir), chunks)
            forked()
            yield from results
    finally:
        gc.unfreeze()
        _SHARED.clear()


def render_records(
    context: SiteContext,
    docs_dir: Path,
    *,
    workers: int | None = None,
    advance: Callable[[int], None] | None = None,
    alongside: Callable[[], object] | None = None,
) -> Batch:
    """Render and write every record's page; ``advance`` is told how many records each batch held.

    ``alongside`` is other work to run in this process while the pages are made (the database and the
    download files): it starts once the page workers have forked, in a thread, and any error it raises
    is raised here.
    """
    count = len(context.index.entries)
    total = Batch(collected=Collected(spooled=SpooledRows()))  # the index rows wait in a file
    with ThreadPoolExecutor(max_workers=1) as side:
        running: list[Future[object]] = []

        def start() -> None:
            if alongside is not None:
                running.append(side.submit(alongside))

        chosen = workers if workers is not None else workers_for(count)
        for batch in _batches(context, docs_dir, chosen, start):
            total.merge(batch)
            if advance is not None:
                advance(batch.records)
        for work in running:
            work.result()
    return total
