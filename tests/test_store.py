"""The record store: the check keeps each record's id in memory; its entry's fields and the record itself
wait in a file."""

from __future__ import annotations

import gc
import multiprocessing
import os
from pathlib import Path

import pytest

from registry.check.pipeline import check, load_file
from registry.check.store import RecordStore
from registry.kinds.records import WIKI_LINK

REPO = Path(__file__).resolve().parents[1]


def test_every_entry_gives_back_the_record_its_file_holds() -> None:
    for entry in check(REPO).index:
        loaded = load_file(REPO, entry.path)
        assert not isinstance(loaded, list)
        record = loaded[0]
        assert entry.record == record
        assert (entry.id, entry.kind, entry.title) == (record.id, record.kind, record.title)


def test_an_entry_knows_its_references_and_links_as_its_record_states_them() -> None:
    """The cross-record checks, the backlinks and the ``links`` table read these, not the record."""
    for entry in check(REPO).index:
        record = entry.record
        fields = [
            (f"/{name}", getattr(record, name), name)
            for name in ("model", "engine", "hardware")
            if isinstance(getattr(record, name, None), str)
        ]
        related = [(f"/related/{n}", target, "related") for n, target in enumerate(record.related)]
        assert [tuple(reference) for reference in entry.references] == fields + related
        links = [
            (name, match.group(1).strip(), match.start())
            for name in ("notes", "methodology")
            for match in WIKI_LINK.finditer(getattr(record, name, None) or "")
        ]
        assert [tuple(link) for link in entry.links] == links


@pytest.fixture
def stored() -> tuple[RecordStore, list[int]]:
    store = RecordStore(recent=2)
    index = check(REPO).index
    entries = list(index)[:3]
    return store, [store.put(entry.record, entry.document, (entry.path,)) for entry in entries]


def test_a_record_is_the_same_object_while_recently_used_and_an_equal_one_after(
    stored: tuple[RecordStore, list[int]],
) -> None:
    store, numbers = stored
    first = store.record(numbers[0])
    assert store.record(numbers[0]) is first
    store.record(numbers[1])
    store.record(numbers[2])  # two are kept: the first is forgotten
    again = store.record(numbers[0])
    assert again == first and again is not first


def test_a_document_from_the_store_locates_a_finding(tmp_path: Path) -> None:
    """A dangling reference is located on the line that names it, from the stored document."""
    chosen = sorted((REPO / "records" / "kv-efficiency").glob("*.yaml"))[0]
    text = chosen.read_text(encoding="utf-8")
    model_line = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith("model:"))
    root = tmp_path / "registry"
    (root / "records" / "kv-efficiency").mkdir(parents=True)
    (root / "records" / "kv-efficiency" / chosen.name).write_text(text, encoding="utf-8")  # no model
    found = [d for d in check(root).diagnostics if d.pointer == "/model"]
    assert found and found[0].line == model_line


_INHERITED: list[RecordStore] = []


def _read_in_child(number: int) -> str:
    return _INHERITED[0].record(number).id


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_a_forked_worker_reads_the_records_its_parent_stored(
    stored: tuple[RecordStore, list[int]],
) -> None:
    """As the site's page workers do: the store is inherited, not sent."""
    store, numbers = stored
    expected = [store.record(number).id for number in numbers]
    _INHERITED[:] = [store]
    try:
        with multiprocessing.get_context("fork").Pool(2) as pool:
            read = pool.map(_read_in_child, numbers)
    finally:
        _INHERITED.clear()
    assert read == expected


def test_checks_leave_no_file_open() -> None:
    """Each check's store is a temporary file; it must go when the check's result does."""
    folder = Path("/proc/self/fd")
    if not folder.is_dir():
        pytest.skip("counts open files through /proc")
    check(REPO)
    gc.collect()
    before = len(os.listdir(folder))
    for _ in range(5):
        check(REPO)
    gc.collect()
    assert len(os.listdir(folder)) <= before


def test_without_pread_the_store_reads_the_same_records(
    stored: tuple[RecordStore, list[int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the system has no ``pread`` (Windows), the store moves its file's position instead."""
    from registry.check import store as _store

    store, numbers = stored
    expected = [store.json(number) for number in numbers]
    monkeypatch.setattr(_store, "_PREAD", None)
    assert [store.json(number) for number in numbers] == expected
    fresh = RecordStore(recent=1)
    again = [
        fresh.put(store.record(number), store.document(number), store.fields(number)) for number in numbers
    ]
    assert [fresh.record(number) for number in again] == [store.record(number) for number in numbers]


def test_an_entry_is_a_view_equal_to_every_other_view_of_its_record() -> None:
    """The index makes an entry on each lookup; code that compares or collects entries still sees one
    record as one entry."""
    index = check(REPO).index
    first, again = index.get("models/llama-3.1-8b"), index.entries["models/llama-3.1-8b"]
    assert first is not None and first == again and hash(first) == hash(again)
    assert len({entry for entry in index} | {entry for entry in index}) == len(index.entries)
    assert first != index.get("models/deepseek-v3")
    assert (first.kind, first.path) == ("model", "records/models/llama-3.1-8b.yaml")


def test_the_index_keeps_ids_alone_in_memory() -> None:
    """What an entry shows besides its id is read back from the store, so no entry outlives its use."""
    from registry.check.index import Entry

    def entries_alive() -> int:
        gc.collect()
        return sum(1 for item in gc.get_objects() if type(item) is Entry)

    before = entries_alive()
    index = check(REPO).index
    assert len(index.entries) > 10 and entries_alive() == before
    assert [entry.title for entry in index] == [entry.record.title for entry in index]


def test_the_digests_are_each_file_s_content_digest_in_the_order_read() -> None:
    from registry.check.cache import content_digest
    from registry.check.pipeline import discover

    result = check(REPO)
    paths = list(result.digests)
    assert paths == discover(REPO)[0]
    for path, digest in result.digests.items():
        assert digest == content_digest((REPO / path).read_bytes()) == result.digests[path]
    assert len(result.digests) == len(paths)
