"""The index of a checked registry: each record by id with what the cross-record checks, the database and
the pages read of it (its references, its links, the document that locates a finding), duplicates
resolved in the order of the paths, and parts that still resolve against the whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from registry.checker.index import RegistryIndex
from registry.checker.pipeline import CheckResult, check, load_file
from registry.codes import refs
from registry.kinds.records import WIKI_LINK

REPO = Path(__file__).resolve().parents[1]

HARDWARE = """\
schema_version: 1
id: {id}
kind: hardware
title: {title}
evidence: source-reported
name: Example GPU
vendor: Example Corp
memory_per_device: 80 GB
sources:
  - title: Example datasheet
    url: https://example.com/datasheet
"""


@pytest.fixture(scope="module")
def index(real_check: CheckResult) -> RegistryIndex:
    return real_check.index


def _write(root: Path, path: str, text: str) -> None:
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def test_every_entry_gives_back_the_record_its_file_holds(index: RegistryIndex) -> None:
    for entry in index:
        loaded = load_file(REPO, entry.path)
        assert not isinstance(loaded, list)
        record = loaded[0]
        assert entry.record == record
        assert (entry.id, entry.kind, entry.title) == (record.id, record.kind, record.title)
        assert entry.path == f"records/{entry.id}.yaml"


def test_an_entry_knows_its_references_and_links_as_its_record_states_them(index: RegistryIndex) -> None:
    """The cross-record checks, the backlinks and the ``links`` table read these."""
    for entry in index:
        record = entry.record
        fields = [
            (f"/{name}", getattr(record, name), name)
            for name in ("model", "engine", "hardware")
            if isinstance(getattr(record, name, None), str)
        ]
        system = getattr(record, "system", None)
        parts = [
            (f"/system/accelerators/{n}/hardware", part.hardware, "hardware")
            for n, part in enumerate((system.accelerators or []) if system is not None else [])
        ]
        related = [(f"/related/{n}", target, "related") for n, target in enumerate(record.related)]
        assert [tuple(reference) for reference in entry.references] == fields + parts + related
        links = [
            (name, match.group(1).strip(), match.start())
            for name in ("notes", "methodology")
            for match in WIKI_LINK.finditer(getattr(record, name, None) or "")
        ]
        assert [tuple(link) for link in entry.links] == links


def test_a_registry_s_references_and_links_are_found(real_check: CheckResult) -> None:
    """Not every list above is empty: the real records reference and link one another."""
    entries = list(real_check.index)
    assert any(entry.references for entry in entries) and any(entry.links for entry in entries)


def test_one_record_is_one_entry_numbered_in_the_order_of_the_paths(index: RegistryIndex) -> None:
    entry = index.get("models/llama-3.1-8b")
    assert entry is not None and entry is index.entries["models/llama-3.1-8b"]
    assert (entry.kind, entry.path) == ("model", "records/models/llama-3.1-8b.yaml")
    assert entry != index.get("models/deepseek-v3")
    assert [e.number for e in index.numbered] == list(range(len(index.entries)))
    assert [e.path for e in index.numbered] == sorted(e.path for e in index)
    assert all(index.numbered[e.number] is e for e in index)
    assert [e.id for e in index] == sorted(index.entries)
    assert index.get("models/no-such-model") is None


def test_of_kind_gives_a_kind_s_records_in_id_order(index: RegistryIndex) -> None:
    models = index.of_kind("model")
    assert models and all(entry.kind == "model" for entry in models)
    assert [entry.id for entry in models] == sorted(i for i in index.entries if i.startswith("models/"))


def test_the_document_of_an_entry_locates_a_finding(tmp_path: Path) -> None:
    """A dangling reference is located on the line that names it."""
    chosen = sorted((REPO / "records" / "kv-efficiency").glob("*.yaml"))[0]
    text = chosen.read_text(encoding="utf-8")
    model_line = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith("model:"))
    _write(tmp_path, f"records/kv-efficiency/{chosen.name}", text)  # without its model
    found = [d for d in check(tmp_path).diagnostics if d.pointer == "/model"]
    assert [(d.code, d.line) for d in found] == [(refs.DANGLING_REFERENCE.code, model_line)]


def test_of_two_records_with_one_id_the_first_path_holds_it(tmp_path: Path) -> None:
    _write(tmp_path, "records/hardware/a.yaml", HARDWARE.format(id="hardware/a", title="First"))
    _write(tmp_path, "records/hardware/b.yaml", HARDWARE.format(id="hardware/a", title="Second"))
    result = check(tmp_path)
    entry = result.index.get("hardware/a")
    assert entry is not None and (entry.title, entry.path) == ("First", "records/hardware/a.yaml")
    assert list(result.index.entries) == ["hardware/a"] and len(result.index.numbered) == 1
    duplicates = [d for d in result.diagnostics if d.code == refs.DUPLICATE_ID.code]
    assert [(d.path, d.pointer) for d in duplicates] == [("records/hardware/b.yaml", "/id")]
    assert "already declared by records/hardware/a.yaml" in duplicates[0].message


def test_a_reference_to_a_record_that_did_not_load_is_not_reported_again(tmp_path: Path) -> None:
    """The broken file's own findings say what is wrong; the record naming it is not also dangling."""
    _write(tmp_path, "records/hardware/b.yaml", HARDWARE.format(id="hardware/b", title="B") + "nonsense: 1\n")
    _write(
        tmp_path,
        "records/hardware/a.yaml",
        HARDWARE.format(id="hardware/a", title="A") + "related:\n  - hardware/b\n  - hardware/c\n",
    )
    result = check(tmp_path)
    assert "hardware/b" in result.index.broken and result.index.get("hardware/b") is None
    dangling = [d for d in result.diagnostics if d.code == refs.DANGLING_REFERENCE.code]
    assert [(d.path, d.pointer) for d in dangling] == [("records/hardware/a.yaml", "/related/1")]


def test_a_part_iterates_its_records_and_resolves_against_the_whole(index: RegistryIndex) -> None:
    ids = ["models/llama-3.1-8b", "engines/vllm"]
    part = index.part(ids)
    assert [entry.id for entry in part] == sorted(ids)
    assert [entry.id for entry in part.of_kind("model")] == ["models/llama-3.1-8b"]
    assert part.get("models/deepseek-v3") is index.get("models/deepseek-v3")
    assert part.entries["engines/vllm"] is index.entries["engines/vllm"]
    assert part.numbered is index.numbered and part.broken is index.broken
