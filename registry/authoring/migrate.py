"""``registry migrate``: rewrite records of an earlier schema version in the current one, losslessly.

Benchmark records move from version 1 to 2 (:data:`V1_METRICS`): each ``measured_*`` field becomes one
entry of ``metrics`` with its text kept as written in ``stated``, ``schema_version`` becomes 2, and every
other field is kept as it is. Nothing is guessed: ``scenario`` stays unset (null), ``statistic`` is
``value`` (a single figure), ``per`` is what the v1 field meant (the request's latency, the system's
throughput and memory).

The rewrite is fmt's machinery (:mod:`registry.authoring.comments`, :mod:`~registry.authoring.order`,
:mod:`~registry.authoring.emit`): the text is read in ruamel.yaml's round-trip mode, its comments found
and tied to their keys, the tree changed, put in canonical order and dumped once. A comment above or
beside a ``measured_*`` field travels to its metric. Nothing is written on trust: the result is loaded
again and must hold every value of the original (less the moved fields, which must reappear as their
metrics) and every comment, or the file is left untouched and the reason reported. Writes are atomic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from registry.authoring.comments import (
    Placement,
    anchors_of,
    find_comments,
    place,
    strip_comments,
    with_blank_lines,
)
from registry.authoring.emit import dump, round_trip_yaml, same_value
from registry.authoring.fmt import FileReport, record_files
from registry.authoring.order import reorder
from registry.checker.limits import MAX_FILE_BYTES
from registry.checker.load import load_text
from registry.errors import FmtRefused
from registry.files import write_atomic
from registry.kinds.records import SCHEMA_VERSIONS, Benchmark

V1_METRICS: dict[str, tuple[str, str]] = {
    "measured_ttft": ("ttft", "request"),
    "measured_tpot": ("tpot", "request"),
    "measured_throughput": ("output_throughput", "system"),
    "measured_memory": ("memory", "system"),
}
"""Each v1 ``measured_*`` field of a benchmark and the v2 metric it becomes: ``(metric, per)``, with
``statistic: value``, in this order."""

_MODELINE = re.compile(r"^#\s*yaml-language-server:")

Status = Literal["unchanged", "migrated", "unreadable", "refused"]


@dataclass(frozen=True)
class MigrateResult:
    """What migrate did (or, with ``check``, would do) to one file."""

    path: str
    status: Status
    message: str = ""


class MigrateReport(FileReport[MigrateResult]):
    """Every file migrate looked at: ``ok`` when nothing failed and (with ``check``) nothing is left to
    migrate."""

    changed = "migrated"


def needs_migration(data: Any) -> bool:
    """True for a benchmark record of schema version 1."""
    return isinstance(data, dict) and data.get("kind") == "benchmark" and _version(data) == 1


def _version(data: dict[str, Any]) -> int | None:
    version = data.get("schema_version")
    return version if type(version) is int else None


def migrate_text(text: str, path: str = "<text>") -> str:
    """The current version of one record's text; the text itself when it needs no migration.

    Raises :class:`FmtRefused` when the text does not load, or when the rewrite would lose a value or a
    comment.
    """
    before = load_text(path, text)
    if before.document is None:
        raise FmtRefused("the file does not load; run 'registry check' on it")
    if not needs_migration(before.document.data):
        return text
    if any(key in before.document.data for key in ("metrics", "scenario")):
        raise FmtRefused("a version 1 record that already has v2 fields ('metrics' or 'scenario')")
    try:
        result = _render(text)
    except Exception as error:  # ruamel.yaml's own refusals (its rt loader is stricter in places)
        raise FmtRefused(f"ruamel.yaml could not round-trip the file: {error}") from error
    after = load_text(path, result)
    if after.document is None or not same_value(_as_v2(before.document.data), after.document.data):
        raise FmtRefused("the migrated record would change a value")
    if _comments(text) != _comments(result):
        raise FmtRefused("the migrated record would lose or alter a comment")
    return result


def _render(text: str) -> str:
    yaml = round_trip_yaml()
    data = yaml.load(text)
    comments = [c for c in find_comments(text) if c.end_of_line or not _MODELINE.match(c.text)]
    placement = place(with_blank_lines(text, comments), list(anchors_of(data)))
    strip_comments(data)
    _to_v2(data, placement)
    reorder(data, Benchmark)
    return dump(yaml, data, placement, "benchmark")


def _to_v2(data: CommentedMap, placement: Placement) -> None:
    """Version 2 in place: the measured fields become metrics, their comments move with them."""
    metrics = CommentedSeq()
    for field, (metric, per) in V1_METRICS.items():
        if field not in data:
            continue
        entry = CommentedMap(
            [("metric", metric), ("statistic", "value"), ("per", per), ("stated", data[field])]
        )
        slot = (id(data), field)
        above = placement.before.pop(slot, None)
        if above:
            placement.before[(id(metrics), len(metrics))] = above
        beside = placement.end_of_line.pop(slot, None)
        if beside is not None:
            placement.end_of_line[(id(entry), "stated")] = beside
        metrics.append(entry)
        del data[field]
    data["schema_version"] = SCHEMA_VERSIONS["benchmark"]
    if metrics:
        data["metrics"] = metrics


def _as_v2(data: dict[str, Any]) -> dict[str, Any]:
    """The plain data a migrated record must load as: what :func:`_to_v2` promises, on plain values."""
    out = {key: value for key, value in data.items() if key not in V1_METRICS}
    out["schema_version"] = SCHEMA_VERSIONS["benchmark"]
    metrics = [
        {"metric": metric, "statistic": "value", "per": per, "stated": data[field]}
        for field, (metric, per) in V1_METRICS.items()
        if field in data
    ]
    if metrics:
        out["metrics"] = metrics
    return out


def _comments(text: str) -> list[str]:
    return sorted(c.text for c in find_comments(text) if not _MODELINE.match(c.text))


# ---------------------------------------------------------------- files


def migrate_file(root: Path, path: Path, *, check: bool = False) -> MigrateResult:
    """Migrate one file in place (atomically), or with ``check`` only say whether it would change."""
    shown = _shown(root, path)
    if path.stat().st_size > MAX_FILE_BYTES:
        return MigrateResult(shown, "unreadable", "more bytes than a record may hold; left untouched")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return MigrateResult(shown, "unreadable", "not UTF-8 text; left untouched")
    try:
        result = migrate_text(text, shown)
    except FmtRefused as error:
        return MigrateResult(shown, "refused", f"{error}; left untouched")
    if result == text:
        return MigrateResult(shown, "unchanged")
    if not check:
        write_atomic(path, result)
    return MigrateResult(shown, "migrated")


def migrate(root: Path, paths: Sequence[Path] = (), *, check: bool = False) -> MigrateReport:
    """Migrate every record under ``root/records`` (or ``paths``); with ``check``, write nothing."""
    return MigrateReport([migrate_file(root, path, check=check) for path in record_files(root, paths)], check)


def _shown(root: Path, path: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()
