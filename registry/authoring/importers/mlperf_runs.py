"""What a run's own ``mlperf_log_summary.txt`` gives an MLPerf record: its latency statistics (metrics
after the summary's result), its VALID/INVALID verdict and the citation of the file.

An import owns the fields its inputs give. The summary gives every field but these; a run's log gives
these only when the import is given the results tree that holds it. So an import of the summary alone
keeps the log figures an earlier import wrote into a record of the same run (its ``run_path`` is still
the row's ``Location``), and an import that reads the run's log replaces them: a log whose figures differ
from the record's shows as a change to that record, and a summary re-imported alone reproduces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from registry.authoring.importers.mlperf_log import FILE_NAME, RunLog, log_metrics
from registry.checker.load import load_text
from registry.ids import record_path


@dataclass(frozen=True)
class RunFile:
    """A run's own log summary, read, and where it is published (repository, commit, path in it)."""

    log: RunLog
    repository: str
    commit: str
    path: str


@dataclass(frozen=True)
class LogFigures:
    """The fields of a record that come from its run's log summary."""

    metrics: list[dict[str, Any]]
    """The log's latency statistics, the record's metrics after the summary's one result."""
    valid: bool | None
    """The run's verdict, ``provenance.valid``."""
    citation: dict[str, Any]
    """The log summary's entry in ``sources``."""


def read_figures(run: RunFile, round_name: str, scenario: str) -> LogFigures:
    """The figures of a log summary read by this import."""
    citation = {
        "title": f"MLPerf Inference {round_name} run log summary",
        "url": f"https://github.com/{run.repository}/blob/{run.commit}/{run.path}",
        "publisher": "MLCommons",
        "file": run.path,
        "revision": run.commit,
    }
    return LogFigures(log_metrics(run.log, scenario), run.log.valid, citation)


def kept_figures(root: Path, record_id: str, run_path: str) -> LogFigures | None:
    """The log figures an earlier import wrote into the record ``record_id``, when it holds some and is
    of the run at ``run_path``; None otherwise (no record, no log cited, another run)."""
    path = record_path(root, record_id)
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    if FILE_NAME not in text:  # most records cite no log: they need not be parsed
        return None
    document = load_text(str(path), text).document
    if document is None:
        return None
    data = document.data
    provenance, sources, metrics = data.get("provenance"), data.get("sources"), data.get("metrics")
    if not (isinstance(provenance, dict) and isinstance(sources, list) and isinstance(metrics, list)):
        return None
    citation = next((s for s in sources if _cites_log(s)), None)
    if citation is None or provenance.get("run_path") != run_path or not metrics:
        return None
    valid = provenance.get("valid")
    return LogFigures(metrics[1:], valid if isinstance(valid, bool) else None, citation)


def _cites_log(source: object) -> bool:
    return isinstance(source, dict) and PurePosixPath(str(source.get("file", ""))).name == FILE_NAME
