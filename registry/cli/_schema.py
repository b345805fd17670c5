"""registry schema"""

from __future__ import annotations

import argparse
import sys

from registry.cli._common import registry_root

DESCRIPTION = """\
Write schemas/<kind>.schema.json (JSON Schema, draft 2020-12) for every record kind, generated from the
record model. The committed files are the published contract that editors and other tools validate
against; 'registry check' validates with them too. With --check, write nothing and fail when a committed
file is missing or differs from what the code generates (use it in CI).
"""

EPILOG = """\
examples:
  registry schema              write schemas/*.schema.json and name each file it changed
  registry schema --check      in CI: name each stale file and write nothing

exit codes: 0 written (or, with --check, every schema current), 1 a schema is stale (--check),
2 could not run.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--check", action="store_true", help="fail (exit 1) when a committed schema is stale; write nothing"
    )


def run(args: argparse.Namespace) -> int:
    from registry.kinds import schema as _schema  # lazy

    root = registry_root(args)
    if args.check:
        stale = _schema.stale(root)
        for path in stale:
            sys.stdout.write(
                f"{path.relative_to(root)}: stale; run 'registry schema' and commit the result\n"
            )
        if not stale:
            sys.stderr.write("All schemas are current.\n")
        return 1 if stale else 0
    changed = _schema.write_all(root)
    for path in changed:
        sys.stdout.write(f"wrote {path.relative_to(root)}\n")
    if not changed:
        sys.stderr.write("All schemas were already current.\n")
    return 0
