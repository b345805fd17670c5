"""Discovery, the check's first stage: every file under ``records/`` that can be a record, and a finding
for every one that cannot (a link, a special file, a file outside a collection, a name no id can have).
Links are never followed."""

from __future__ import annotations

import os
import re
from pathlib import Path

from registry.checker.index import COLLECTIONS, expected_id
from registry.codes import refs
from registry.diagnostics import Diagnostic
from registry.files import is_temporary
from registry.ids import reserved_problem
from registry.kinds.records import SLUG_PATTERN


def discover(root: Path) -> tuple[list[str], list[Diagnostic]]:
    """Every record file under ``records/`` (posix paths relative to ``root``), and the files that
    cannot be records. Links are never followed.

    Read with :func:`os.scandir`, whose entries know their own type (a link, a folder, a regular file)
    without a ``stat`` of every file: on a large registry that shortens the walk, which the check and
    the database's fingerprint both make."""
    records_dir = root / "records"
    found: list[str] = []
    diagnostics: list[Diagnostic] = []
    if records_dir.is_symlink():  # os.walk would follow it: every file read would be outside the registry
        message = "records/ is a symbolic link; it must be the registry's own folder (a link points anywhere)"
        return found, [refs.OUTSIDE_RECORDS.diagnostic("records", 1, 1, message)]
    if not records_dir.is_dir():
        return found, diagnostics
    folders = [(records_dir, "records")]
    while folders:
        folder, relative_folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            continue  # a folder that cannot be listed holds nothing this walk can read (as os.walk)
        subfolders, files = [], []
        for entry in entries:
            relative = f"{relative_folder}/{entry.name}"
            if entry.is_symlink() and _links_to_folder(entry):
                message = "a symbolic link to a folder inside records/; links are not followed"
                diagnostics.append(refs.OUTSIDE_RECORDS.diagnostic(relative, 1, 1, message))
            elif entry.is_dir(follow_symlinks=False):
                subfolders.append((Path(entry.path), relative))
            else:
                files.append(entry)
        for entry in files:
            relative = f"{relative_folder}/{entry.name}"
            problem = _placement_problem(entry, relative)
            if problem and is_temporary(entry.name) and entry.is_file(follow_symlinks=False):
                message = "a temporary file left by an interrupted write of the registry's tools"
                diagnostics.append(refs.LEFTOVER_TEMPORARY.diagnostic(relative, 1, 1, message))
            elif problem:
                diagnostics.append(refs.OUTSIDE_RECORDS.diagnostic(relative, 1, 1, problem))
            else:
                found.append(relative)
        folders.extend(reversed(subfolders))  # depth first, in name order, as os.walk goes
    return found, diagnostics


def _links_to_folder(entry: os.DirEntry[str]) -> bool:
    """A link whose target is a folder; a loop or a dangling link is not one (it is reported as a
    link in place of a file)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _placement_problem(entry: os.DirEntry[str], relative: str) -> str:
    return placement_problem(relative, link=entry.is_symlink(), regular=entry.is_file(follow_symlinks=False))


def placement_problem(relative: str, *, link: bool, regular: bool) -> str:
    """Why the entry at ``relative`` (a link, a regular file or neither) cannot be a record; ``""``
    when it can."""
    name = relative.rsplit("/", 1)[-1]
    if link:
        return "a symbolic link; records are regular files (a link could point outside records/)"
    if not regular:  # a pipe or a device would block the read, or never end
        return "not a regular file; records are regular files"
    if not name.endswith(".yaml"):
        return f"{name!r} is not a .yaml file; records are records/<collection>/<slug>.yaml"
    if expected_id(relative) is None:
        return "records sit exactly one folder below records/: records/<collection>/<slug>.yaml"
    folder = relative.split("/")[1]
    if folder not in COLLECTIONS:
        return f"records/{folder}/ is not a collection; the collections are {', '.join(sorted(COLLECTIONS))}"
    if not re.fullmatch(SLUG_PATTERN, name[: -len(".yaml")]):  # else the id it needs could not be written
        return (
            f"{name!r} cannot name a record: a file name is lowercase letters, digits, '.', '_' and '-', "
            "starting with a letter or digit, then .yaml"
        )
    reserved = reserved_problem(name[: -len(".yaml")])
    if reserved is not None:  # Git for Windows cannot check the path out: every Windows clone breaks
        return f"{reserved}; Git for Windows cannot check such a path out"
    return ""
