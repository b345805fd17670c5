"""registry db"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from registry.cli._common import registry_root

if TYPE_CHECKING:
    from registry.db import BuildRefused, BuildReport

DESCRIPTION = """\
Build the registry database: an embedded DuckDB file with one table per view of the records (records,
models, layer_groups, runs, claims, kv_at_context, engines, hardware, links), made from the checked
records and the formula engine's results. The whole registry is checked first; a registry with errors
is refused and the previous file is left as it was. The file is written under a temporary name and
renamed into place, so readers never see half a file.
"""

EPILOG = """\
examples:
  registry db                         write build/registry.duckdb
  registry db --out /tmp/reg.duckdb   write another file
  registry query "SELECT id FROM models"

exit codes: 0 built, 1 refused (the registry has errors; they are listed), 2 could not run.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", metavar="PATH", help="the database file to write (default: build/registry.duckdb)"
    )


def run(args: argparse.Namespace) -> int:
    from registry.db import BuildRefused, build_database  # lazy

    root = registry_root(args)
    try:
        report = build_database(root, Path(args.out) if args.out else None)
    except BuildRefused as refused:
        return report_refusal(refused)
    sys.stderr.write(describe_build(report) + "\n")
    return 0


def current_database(args: argparse.Namespace, *, leave_out_drafts: bool = False) -> Path | None:
    """The ``--db`` file (default ``build/registry.duckdb``), built first when missing or stale and the
    build reported; None when the registry has errors, after listing them (the command exits 1).

    With ``leave_out_drafts``, records that do not validate yet (drafts) and those pointing at one are
    left out rather than refusing the build: the drafts' findings are listed on standard error, and each
    later use of the same file says again which records it lacks. Any other error still refuses."""
    from registry.db import BuildRefused, ensure_database, stored_left_out  # lazy
    from registry.report.reporters import text  # lazy

    try:
        path, report = ensure_database(
            registry_root(args), Path(args.db) if args.db else None, leave_out_drafts=leave_out_drafts
        )
    except BuildRefused as refused:
        report_refusal(refused)
        return None
    if report is not None and report.check is not None:
        text(report.check, sys.stderr, sys.stderr)
    if report is not None:
        sys.stderr.write(describe_build(report) + "\n")
    left_out = report.left_out if report is not None else stored_left_out(path)
    if left_out:
        sys.stderr.write(describe_left_out(left_out) + "\n")
    return path


def describe_left_out(left_out: tuple[str, ...]) -> str:
    """``note: built without 1 draft ...``: what a database or site built without drafts lacks."""
    shown = ", ".join(left_out[:5]) + (f" and {len(left_out) - 5:,} more" if len(left_out) > 5 else "")
    return (
        f"note: built without {len(left_out):,} record file{'s' if len(left_out) != 1 else ''}, drafts that "
        f"do not validate yet or records pointing at one ({shown}); the rest of the registry is in it, "
        "and 'registry check' lists what the drafts lack"
    )


def report_refusal(refused: BuildRefused) -> int:
    """List the findings that stopped the build, as ``registry check`` prints them; exit code 1."""
    from registry.report.reporters import text  # lazy

    text(refused.result, sys.stdout, sys.stderr)
    sys.stderr.write(f"registry: not building the database: {refused}\n")
    return 1


def describe_build(report: BuildReport) -> str:
    """``Wrote build/registry.duckdb: T tables, R rows (...)``, with the seconds each step took."""
    timings = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in report.seconds.items())
    return f"Wrote {_shown(report.path)}: {len(report.rows)} tables, {report.total_rows:,} rows ({timings})."


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
