"""registry explain"""

from __future__ import annotations

import argparse
import sys

from registry.cli._common import registry_root

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
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", help="a record id (its path under records/ without .yaml)")


def run(args: argparse.Namespace) -> int:
    from registry.report.explain import explain  # lazy

    sys.stdout.write(explain(registry_root(args), args.id))
    return 0
