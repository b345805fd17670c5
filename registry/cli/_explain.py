"""registry explain"""

from __future__ import annotations

import argparse
import sys

from registry.cli._common import registry_root
from registry.terminal import terminal_lines

DESCRIPTION = """\
Print a record's full derivation: for a kv-efficiency or benchmark record, every claim recomputed from
the model's geometry factor by factor, with the verdict on each (and, for a wrong number, the mistake
that explains it); for a model, its cache layout and the cache at the registry's standard point
(131,072 tokens, bf16, the vllm layout).
"""

EPILOG = """\
examples:
  registry explain kv-efficiency/deepseek-v3-mla-vs-mha-128k
  registry explain models/gemma-3-27b
  registry explain deepseek-v3       (a bare slug: the record of that name in any collection)

exit codes: 0 explained, 2 could not run (no such record, a record that does not load, a bad id).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "id",
        help="a record: models/deepseek-v3, records/models/deepseek-v3.yaml or the bare slug deepseek-v3",
    )


def run(args: argparse.Namespace) -> int:
    from registry.report.explain import explain  # lazy

    sys.stdout.write(terminal_lines(explain(registry_root(args), args.id)))
    return 0
