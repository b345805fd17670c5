"""registry import"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from registry.cli._common import registry_root

DESCRIPTION = """\
Turn published benchmark results into benchmark records (schema version 2) under records/benchmarks/.

SOURCE mlperf reads MLPerf Inference results summaries (the round's summary.csv, 31 columns). Each LLM
row (deepseek-r1, gpt-oss-120b, llama2-70b-99.9, llama3.1-8b, qwen3-vl-235b-a22b, ...) becomes one
record whose id is made of the round, submitter, system, model and scenario, so it is stable: importing
the same file again changes nothing, a later round adds records, and a changed value rewrites its
record. The model, hardware and engine come from explicit tables of MLPerf's spellings; a row whose
spelling is in no table, or whose record the registry lacks, is listed with the reason and not written.
Rows of other benchmarks (vision, speech, recommendation, ...) are skipped and counted.

Where the file was published (repository, path, commit) goes into each record's provenance: give it with
the options, or keep a README.md beside the file with the lines '- Source repository: `owner/name`',
'- Source path: `summary.csv`' and '- Commit read: `<sha>`'.

Every file is read and checked before anything is written: a malformed row, a wrong header, a Result
that is not a number or a file of another tool is reported as FILE:LINE and nothing changes.
"""

EPILOG = """\
examples:
  registry import mlperf data/mlperf-inference-v6.1/summary.csv
  registry import mlperf summary.csv --repository mlcommons/inference_results_v6.1 \\
      --commit 7bf15fd8089655a71fb75c81a744d7ba5a632424

exit codes: 0 every LLM row imported, 1 some rows could not be mapped (listed; the others are written),
2 could not run (a bad file, with FILE:LINE; nothing is written).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", choices=("mlperf",), metavar="SOURCE", help="the kind of file: mlperf")
    parser.add_argument("files", nargs="+", metavar="FILE", type=Path, help="the files to import")
    parser.add_argument(
        "--repository",
        metavar="OWNER/NAME",
        help="the repository that publishes the files (default: README.md)",
    )
    parser.add_argument(
        "--commit", metavar="SHA", help="the commit the files were read at (default: README.md)"
    )
    parser.add_argument(
        "--file", metavar="PATH", help="the files' path in that repository (default: README.md)"
    )


def run(args: argparse.Namespace) -> int:
    from registry.authoring.importers.mlperf import SourceOptions, import_mlperf  # lazy

    options = SourceOptions(args.repository, args.commit, args.file)
    result = import_mlperf(registry_root(args), list(args.files), options)
    llm = len(result.new) + len(result.changed) + len(result.unchanged) + len(result.unmapped)
    skipped = ", ".join(f"{model} {count}" for model, count in sorted(result.skipped.items()))
    lines = [
        f"read {result.rows} rows: {llm} LLM rows, {result.skipped.total()} skipped (not LLM: {skipped or 'none'})"
    ]
    lines.append(
        f"records: {len(result.new)} new, {len(result.changed)} changed, {len(result.unchanged)} unchanged"
    )
    lines += [f"  new      records/{record_id}.yaml" for record_id in result.new]
    lines += [f"  changed  records/{record_id}.yaml" for record_id in result.changed]
    if result.unmapped:
        lines.append(f"not imported, {len(result.unmapped)} LLM rows that cannot be mapped:")
        lines += [f"{item.where}: {item.reason}" for item in result.unmapped]
    sys.stdout.write("\n".join(lines) + "\n")
    return 1 if result.unmapped else 0
