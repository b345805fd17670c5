"""What ``registry check PATHS`` reports: the part of the whole registry's answer about the files and
folders named. References still resolve against the whole registry, so the part is cut from the whole
answer (a fresh one, or the cache's, or a re-check of what changed), never checked on its own."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from registry.codes import refs
from registry.diagnostics import Diagnostic, sort_diagnostics
from registry.errors import UsageError


def selection_of(root: Path, paths: Sequence[Path]) -> frozenset[str]:
    """The files and folders named, relative to ``root`` (a folder ends with ``/``); a path that does
    not exist or lies outside the registry is a usage error."""
    chosen: set[str] = set()
    for given in paths:
        absolute = given if given.is_absolute() else Path.cwd() / given
        if not absolute.exists() and not absolute.is_symlink():
            raise UsageError(f"{given}: no such file or folder")
        try:
            relative = Path(os.path.normpath(absolute)).relative_to(root)
        except ValueError:
            raise UsageError(f"{given} is outside the registry at {root}") from None
        text = relative.as_posix()
        if absolute.is_dir() and not absolute.is_symlink():
            chosen.add(text.rstrip("/") + "/")
        else:
            chosen.add(text)
    return frozenset(chosen)


def is_selected(path: str, selection: frozenset[str] | None) -> bool:
    """Whether a finding about ``path`` is reported (every finding is, with no selection)."""
    if selection is None:
        return True
    return path in selection or any(
        (item.endswith("/") and (path + "/").startswith(item)) or item == "./" for item in selection
    )


def report_on(
    selection: frozenset[str] | None, files: Iterable[str], diagnostics: Iterable[Diagnostic]
) -> tuple[int, list[Diagnostic]]:
    """The number of record files selected and the findings about them, in their stable order, from
    the whole registry's record ``files`` and findings; a file named that is not a record file gets
    a finding saying so."""
    found = list(diagnostics)
    files = set(files)
    if selection is not None:
        reported = {d.path for d in found}
        for item in sorted(selection):
            if not item.endswith("/") and item not in files and item not in reported:
                found.append(
                    refs.OUTSIDE_RECORDS.diagnostic(
                        item, 1, 1, "not a record file: records are records/<collection>/<slug>.yaml"
                    )
                )
    count = sum(1 for path in files if is_selected(path, selection))
    return count, sort_diagnostics([d for d in found if is_selected(d.path, selection)])
