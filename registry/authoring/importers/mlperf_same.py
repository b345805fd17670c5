"""One measurement filed under two benchmarks of a model: MLPerf's ``-99`` and ``-99.9`` benchmarks
differ only in the accuracy a result must reach, and a submitter whose run reaches the stricter target
may file that same run under both. The round tables then hold two rows with the same system, scenario
and result (v4.1: 151 of 240 such pairs; v5.1: 95 of 127; v6.0: 30 of 34, as the tables' READMEs
count them). Counting both would count one run twice in a leaderboard or a history, so the two rows
are one record: the ``-99.9`` benchmark's (whose targets imply the ``-99`` ones), with
``provenance.also_filed_as`` naming the ``-99`` benchmark and its row. Rows whose results differ are
two runs and stay two records.
"""

from __future__ import annotations

from typing import Any

from registry.authoring.importers.mlperf_record import Mapped

STRICT, LOOSE = "-99.9", "-99"


def _family(mapped: Mapped) -> tuple[tuple[str, ...], str] | None:
    """The key a -99/-99.9 pair shares and this row's suffix, or None for any other benchmark."""
    benchmark = str(mapped.fields["provenance"]["benchmark"])
    suffix = STRICT if benchmark.endswith(STRICT) else LOOSE if benchmark.endswith(LOOSE) else None
    if suffix is None:
        return None
    row = mapped.row
    key = (
        row["version"],
        row["Division"],
        row["Organization"],
        row["Platform"],
        row["Scenario"],
        benchmark[: -len(suffix)],
        row["Result"],
    )
    return key, suffix


def merge_filed_twice(records: list[Mapped]) -> list[Mapped]:
    """The records with each -99 row that repeats a -99.9 row's result folded into that row's record."""
    strict: dict[tuple[str, ...], Mapped] = {}
    for mapped in records:
        found = _family(mapped)
        if found is not None and found[1] == STRICT:
            strict[found[0]] = mapped
    kept = []
    for mapped in records:
        found = _family(mapped)
        twin = strict.get(found[0]) if found is not None and found[1] == LOOSE else None
        if twin is None:
            kept.append(mapped)
            continue
        _fold(twin, mapped)
    return kept


def _fold(strict: Mapped, loose: Mapped) -> None:
    provenance: dict[str, Any] = strict.fields["provenance"]
    benchmark = loose.fields["provenance"]["benchmark"]
    provenance.setdefault("also_filed_as", []).append({"benchmark": benchmark, "row": loose.row.row})
    strict.fields["title"] = _title(strict.fields["title"], benchmark)
    strict.comments["provenance"] = (
        *strict.comments.get("provenance", ()),
        f"The table files this run under {benchmark} too (row {loose.row.row}, the same result): one",
        f"measurement, recorded once. It met {provenance['benchmark']}'s accuracy targets, which are",
        f"stricter than {benchmark}'s, so it meets both.",
    )


def _title(title: str, benchmark: str) -> str:
    added = f"{title} (also filed as {benchmark})"
    return added if len(added) <= 300 else title
