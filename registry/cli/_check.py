"""registry check"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from registry.cli._common import registry_root

DESCRIPTION = """\
Check records: every file under records/ (or the PATHS given) is parsed, validated against its kind's
JSON Schema and the record model, its references and [[links]] resolved against the whole registry, and
every stated number recomputed from the model's geometry. Every finding is reported, sorted by file,
line, column and code.
"""

EPILOG = """\
examples:
  registry check                                   the whole registry
  registry check records/models/deepseek-v3.yaml   one file (references still resolve everywhere)
  registry check --format github                   annotations for a GitHub pull request
  registry check --format json > findings.json     the versioned JSON shape, for scripts

exit codes: 0 no errors (warnings allowed), 1 errors found, 2 could not run.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders to report on (default: all of records/)"
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "github", "sarif"),
        default="text",
        help="output format (default: text)",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="check everything afresh; without it an unchanged registry is answered from .registry-cache/",
    )


def run(args: argparse.Namespace) -> int:
    from registry.checker.cache import CachedResult, CheckCache  # lazy
    from registry.report.reporters import REPORTERS, Reportable  # lazy

    root = registry_root(args)
    cache = None
    if not args.no_cache and all(os.path.lexists(p) for p in args.paths):
        selection = sorted(os.path.relpath(os.path.abspath(p), root) for p in args.paths)
        cache = CheckCache(root, {"paths": selection})
    result: Reportable | None = cache.lookup() if cache else None
    if result is None and cache is not None and cache.previous is not None:
        from registry.checker.incremental import recheck  # lazy

        rechecked = recheck(root, cache.previous)
        if rechecked is not None:
            cache.store(rechecked.files, rechecked.diagnostics, rechecked.digests, rechecked.facts)
            result = CachedResult(root, rechecked.files, rechecked.diagnostics)
    if result is None:
        from registry.checker.pipeline import check  # lazy

        fresh = check(root, [Path(p) for p in args.paths])
        if cache is not None:
            facts = None if args.paths else fresh.facts  # what changed is re-checked for the whole only
            cache.store(fresh.files, fresh.diagnostics, fresh.digests, facts)
        result = fresh
    REPORTERS[args.format](result, sys.stdout, sys.stderr)
    return 0 if result.ok else 1
