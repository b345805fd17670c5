"""registry migrate"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from registry.cli._common import registry_root

if TYPE_CHECKING:
    from registry.authoring.migrate import MigrateReport

DESCRIPTION = """\
Rewrite records of an earlier schema version in the current one. A benchmark record of schema_version 1
becomes version 2: each measured_* field becomes one entry of metrics, its text kept as written in
stated (measured_ttft and measured_tpot per request, measured_throughput as output_throughput and
measured_memory per system, each with statistic: value); every other field is kept as it is, and
scenario is not guessed. Comments are kept (a comment on a measured_* field moves to its metric), keys
are written in canonical order, and the result is loaded again and compared with the original: a file
that would lose a value or a comment is left untouched and reported. Records already current are left as
they are, so running it twice changes nothing. Files are written under a temporary name and renamed
into place.

With --check, write nothing: list each file that needs migrating and fail.
"""

EPILOG = """\
examples:
  registry migrate                                   every record under records/
  registry migrate records/benchmarks/my-run.yaml    one file (or a folder)
  registry migrate --check                           CI: fail when a record is of an earlier version

exit codes: 0 done (or, with --check, nothing to migrate), 1 a file to migrate (--check), or one that
could not be rewritten safely; 2 could not run.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: all of records/)"
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail (exit 1) when a file needs migrating"
    )


def run(args: argparse.Namespace) -> int:
    from registry.authoring.migrate import migrate  # lazy

    report = migrate(registry_root(args), [Path(p) for p in args.paths], check=args.check)
    for result in report.files:
        if result.status == "migrated":
            sys.stdout.write(
                f"{result.path}: of an earlier schema version; run 'registry migrate'\n"
                if report.check
                else f"migrated {result.path}\n"
            )
        elif result.status != "unchanged":
            sys.stdout.write(f"{result.path}: {result.message}\n")
    sys.stderr.write(summary(report) + "\n")
    return 0 if report.ok else 1


def summary(report: MigrateReport) -> str:
    """``4 files: 4 migrated.``, or ``12 files: nothing to migrate.``"""
    total = len(report.files)
    moved = len(report.with_status("migrated"))
    same = len(report.with_status("unchanged"))
    files = f"{total} file{'s' if total != 1 else ''}"
    if same == total:
        return f"{files}: nothing to migrate."
    counts = [
        (moved, "to migrate" if report.check else "migrated"),
        (same, "nothing to migrate"),
        (total - moved - same, "left untouched"),
    ]
    return f"{files}: {', '.join(f'{n} {what}' for n, what in counts if n)}."
