"""A check of what changed since the last one: the files edited, added or removed, the records whose
findings depend on them, and nothing else.

A record file's findings depend on its own bytes and on the records it names: the existence, kind and
validity of its references and ``[[links]]``, and, for a run, the geometry of its model and the memory
of its hardware. They also depend on the records that share its id (which one is first). So after a
change the files re-checked are the changed ones and every file that names, or shares, an id the
change touched (an id a changed file held before or holds now, or the id its path gives). When the set
of ids itself changed, the files with a dangling reference or a broken link are re-checked too: the
"did you mean" of their findings is chosen among every id. A hardware record's findings also depend on
every other hardware record (a dense peak equal to another's sparse figure, F017), so a change that
touches a hardware id re-checks every hardware record, with each loaded. Every other file's findings
are the last check's, unchanged.

The files re-checked are loaded with the records they name, and go through the same stages as in a
whole check (:func:`registry.checker.pipeline.later_stages`), told which ids the rest of the registry
holds and which of its files are broken; only the findings about the files re-checked are kept. A tree
whose change discovery itself would report on (a new folder, a file that cannot be a record), or a
change to more than a tenth of the files (and more than a few), is checked whole instead.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from registry.checker.cache import FileFacts, Previous
from registry.checker.discover import placement_problem
from registry.checker.index import expected_id
from registry.checker.pipeline import Known, Loaded, file_facts, later_stages, load_files
from registry.codes import refs
from registry.diagnostics import Diagnostic, sort_diagnostics
from registry.files import is_temporary

_HINTED = frozenset({refs.DANGLING_REFERENCE.code, refs.BROKEN_LINK.code})
"""Findings whose hint is chosen among every id of the registry."""

_HARDWARE = "hardware/"
"""The collection whose records are checked against one another (:mod:`registry.checker.peaks`)."""

_MOST_CHANGED = 0.1
"""Past this share of the files changed, the whole registry is checked instead."""

_FEW = 16
"""So many changed files are always re-checked as a change, however small the registry."""


@dataclass(frozen=True)
class Rechecked:
    """The answer of a check of what changed: as a whole check's, for the cache to keep."""

    files: int
    diagnostics: list[Diagnostic]
    digests: dict[str, str]
    facts: dict[str, FileFacts]


def recheck(root: Path, previous: Previous) -> Rechecked | None:
    """The registry's findings, from ``previous`` and the files that changed since; None when the change
    is one to check whole (see the module's docstring)."""
    changed = previous.changed
    if len(changed) > max(_FEW, int(len(previous.facts) * _MOST_CHANGED)):
        return None
    if any(path.endswith("/") for path in changed):
        return None  # a folder added or removed
    present = {path for path in changed if _record_file(root, path)}
    if any(path not in present and os.path.lexists(root / path) for path in changed):
        return None  # discovery would report on it: it is not a record file (or not only one)
    edited = sorted(present)
    present.update(path for path in previous.facts if path not in changed)
    loaded = load_files(root, edited)
    facts = {path: f for path, f in previous.facts.items() if path in present}
    facts.update(file_facts(edited, loaded))
    touched = _touched(previous.facts, facts, changed)
    again = _again(previous, facts, touched)
    _load_more(root, loaded, _needed(facts, again) - set(edited))
    later = later_stages(root, loaded, known=_known(facts, set(loaded.digests) | set(loaded.failed)))
    fresh = [d for d in (*loaded.diagnostics, *later.diagnostics) if d.path in again]
    kept = [d for d in previous.diagnostics if d.path not in again and d.path not in changed]
    digests = {path: loaded.digests[path] for path in edited if path in loaded.digests}
    return Rechecked(len(present), sort_diagnostics([*kept, *fresh]), digests, facts)


def _record_file(root: Path, path: str) -> bool:
    """Whether discovery takes ``path`` as a record file (a regular file, named and placed as one)."""
    try:
        mode = os.lstat(root / path).st_mode
    except OSError:
        return False
    if is_temporary(path.rsplit("/", 1)[-1]):
        return False
    return not placement_problem(path, link=stat.S_ISLNK(mode), regular=stat.S_ISREG(mode))


def _touched(before: dict[str, FileFacts], after: dict[str, FileFacts], changed: frozenset[str]) -> set[str]:
    """The ids a change touched: those the changed files held before and hold now, and their paths' ids."""
    ids: set[str] = set()
    for path in changed:
        for facts in (before.get(path), after.get(path)):
            if facts is not None and facts.id is not None:
                ids.add(facts.id)
        ids.add(expected_id(path) or "")
    ids.discard("")
    return ids


def _again(previous: Previous, facts: dict[str, FileFacts], touched: set[str]) -> set[str]:
    """The files to re-check: the changed ones, those that name or share a touched id, when the set of
    ids changed those with a finding whose hint is chosen among every id, and when a hardware id was
    touched every hardware record."""
    again = {path for path in previous.changed if path in facts}
    for path, fact in facts.items():
        if fact.id in touched or not touched.isdisjoint(fact.depends):
            again.add(path)
    if _ids(previous.facts) != _ids(facts):
        again.update(d.path for d in previous.diagnostics if d.code in _HINTED and d.path in facts)
    if any(touched_id.startswith(_HARDWARE) for touched_id in touched):
        again.update(path for path, fact in facts.items() if _is_hardware(path, fact))
    return again


def _is_hardware(path: str, fact: FileFacts) -> bool:
    return (fact.id or expected_id(path) or "").startswith(_HARDWARE)


def _ids(facts: dict[str, FileFacts]) -> tuple[set[str], set[str]]:
    """The ids of the records, and the paths of the files that do not validate."""
    return {f.id for f in facts.values() if f.id}, {path for path, f in facts.items() if not f.valid}


def _needed(facts: dict[str, FileFacts], again: set[str]) -> set[str]:
    """The files to load: those re-checked, every file holding an id one of them names, and every
    hardware record when one of them is one."""
    by_id: dict[str, list[str]] = {}
    for path, fact in facts.items():
        if fact.id is not None:
            by_id.setdefault(fact.id, []).append(path)
    needed = set(again)
    if any(_is_hardware(path, facts[path]) for path in again):
        needed.update(path for path, fact in facts.items() if _is_hardware(path, fact))
    for path in again:
        for target in (facts[path].id, *facts[path].depends):  # its own id too: which file is first
            needed.update(by_id.get(target or "", ()))
    return needed


def _load_more(root: Path, loaded: Loaded, paths: set[str]) -> None:
    """Load ``paths`` into ``loaded``; a changed file is loaded already, and its facts read again."""
    more = load_files(root, sorted(paths))
    loaded.records.update(more.records)
    loaded.salvaged.update(more.salvaged)
    loaded.failed.update(more.failed)
    loaded.digests.update(more.digests)
    loaded.diagnostics.extend(more.diagnostics)


def _known(facts: dict[str, FileFacts], loaded: set[str]) -> Known:
    broken = {expected_id(path) for path, f in facts.items() if not f.valid and path not in loaded}
    return Known(frozenset(filter(None, broken)), frozenset(f.id for f in facts.values() if f.id))
