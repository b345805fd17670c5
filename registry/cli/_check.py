"""registry check"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from registry.cli._common import registry_root

if TYPE_CHECKING:
    from registry.diagnostics import Diagnostic

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
    from registry.checker.cache import CachedResult  # lazy
    from registry.checker.selection import report_on, selection_of  # lazy
    from registry.report.reporters import REPORTERS  # lazy

    root = registry_root(args)
    selection = selection_of(root, [Path(p) for p in args.paths]) if args.paths else None
    files, diagnostics = _whole(root, fresh=args.no_cache)
    count, reported = report_on(selection, files, diagnostics)
    result = CachedResult(root, count, reported)
    REPORTERS[args.format](result, sys.stdout, sys.stderr)
    return 0 if result.ok else 1


def _whole(root: Path, *, fresh: bool) -> tuple[list[str], list[Diagnostic]]:
    """Every record file of the registry and every finding: the cache's when nothing changed, a
    re-check of what changed, or a whole check. PATHS are reported from the whole answer, so a check of
    one file after an edit is a re-check of what the edit reaches too."""
    from registry.checker.cache import CheckCache  # lazy

    cache = None if fresh else CheckCache(root, {"paths": []})
    if cache is not None:
        hit = cache.lookup()
        files = cache.record_files()
        if hit is not None and files is not None:
            return files, hit.diagnostics
        if hit is None and cache.previous is not None:
            from registry.checker.incremental import recheck  # lazy

            rechecked = recheck(root, cache.previous)
            if rechecked is not None:
                cache.store(rechecked.files, rechecked.diagnostics, rechecked.digests, rechecked.facts)
                return list(rechecked.facts), rechecked.diagnostics
    from registry.checker.pipeline import check  # lazy

    checked = check(root)
    if cache is not None:
        cache.store(checked.files, checked.diagnostics, checked.digests, checked.facts)
    return list(checked.facts), checked.diagnostics
