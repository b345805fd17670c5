"""registry fmt"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from registry.cli._common import registry_root

if TYPE_CHECKING:
    from registry.authoring.fmt import FileResult, FmtReport

DESCRIPTION = """\
Rewrite records in one canonical form: the modeline first, keys in the record model's order (identity,
then the kind's fields, then sources and prose), 2-space indentation, quotes and block scalars as
written, no re-wrapping, one final newline. Every comment is kept with the key or item it sits above or
beside, and every value is kept: the result is loaded again and compared with the original, and a file
that would change is left untouched and reported. A file that does not load is reported and left as it
is. Files are written under a temporary name and renamed into place; temporary files an interrupted
run left under records/ (.<name>.yaml.<random>.registry.tmp, which 'registry check' reports as R009)
are removed once they are a minute old.

With --check, write nothing: list each file that is not in canonical form and fail (use it in CI).
"""

EPILOG = """\
examples:
  registry fmt                                  every record under records/
  registry fmt records/models/llama-3.1-8b.yaml one file (or a folder)
  registry fmt --check                          CI: fail when a record is not canonical

exit codes: 0 done (or, with --check, all canonical), 1 a file not canonical (--check), a file that
does not load, or one that could not be rewritten safely; 2 could not run.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: all of records/)"
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail (exit 1) when a file is not canonical"
    )


def run(args: argparse.Namespace) -> int:
    from registry.authoring.fmt import fmt  # lazy
    from registry.files import remove_stale_temporaries  # lazy

    root = registry_root(args)
    if not args.check:
        for removed in remove_stale_temporaries(root / "records"):
            sys.stderr.write(
                f"removed {removed.relative_to(root).as_posix()}, left by an interrupted write\n"
            )
    report = fmt(root, [Path(p) for p in args.paths], check=args.check)
    for result in report.files:
        line = _line(result, report.check)
        if line:
            sys.stdout.write(line)
    sys.stderr.write(summary(report) + "\n")
    return 0 if report.ok else 1


def _line(result: FileResult, check: bool) -> str:
    if result.status == "reformatted":
        return (
            f"{result.path}: not in canonical form; run 'registry fmt'\n"
            if check
            else f"reformatted {result.path}\n"
        )
    if result.status == "unchanged":
        return ""
    text = f"{result.path}: {result.message}\n"
    for d in result.diagnostics:
        text += f"{d.path}:{d.line}:{d.column}: {d.code} {d.name}: {d.message}\n"
    return text


def summary(report: FmtReport) -> str:
    """``3 files: 1 reformatted, 2 already canonical.``, or ``5 files: all in canonical form.``"""
    total = len(report.files)
    changed = len(report.with_status("reformatted"))
    same = len(report.with_status("unchanged"))
    failed = total - changed - same
    files = f"{total} file{'s' if total != 1 else ''}"
    if report.check and same == total:
        return f"{files}: all in canonical form."
    counts = [
        (changed, "not in canonical form" if report.check else "reformatted"),
        (same, "already canonical"),
        (failed, "left untouched"),
    ]
    return f"{files}: {', '.join(f'{n} {what}' for n, what in counts if n) or 'nothing to do'}."
