"""The ``registry`` command: a thin layer that parses options and calls the library.

Each subcommand is a module with ``add_arguments(parser)`` and ``run(args) -> int``; it imports what it
needs inside ``run`` so that ``registry --help`` stays fast. Exit codes: 0 clean, 1 findings, 2 could not
run (bad arguments, a registry that cannot be found, an internal error).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from registry.terminal import terminal_lines

COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("registry.cli._check", "check records: structure, references and every stated number"),
    "calc": ("registry.cli._calc", "compute the KV cache and state memory of a model, with the derivation"),
    "fit": (
        "registry.cli._fit",
        "does a model fit on hardware: weights, KV cache and state against its memory, with the derivation",
    ),
    "db": ("registry.cli._db", "build the DuckDB database of the checked records and the engine's results"),
    "query": ("registry.cli._query", "run read-only SQL on the registry database, built first if stale"),
    "export": ("registry.cli._export", "export every database table as a Parquet file"),
    "new": (
        "registry.cli._new",
        "write a new record to start from, with the engine's figures filled in and checked",
    ),
    "import-config": (
        "registry.cli._import_config",
        "write a model record from a config.json, copied verbatim",
    ),
    "import": (
        "registry.cli._import",
        "turn published benchmark results (MLPerf Inference summaries) into benchmark records",
    ),
    "fmt": ("registry.cli._fmt", "rewrite records in canonical form, keeping every comment and value"),
    "migrate": (
        "registry.cli._migrate",
        "rewrite records of an earlier schema version in the current one, keeping every value and comment",
    ),
    "explain": ("registry.cli._explain", "print a record's full derivation and the verdict on each claim"),
    "rule": ("registry.cli._rule", "explain a diagnostic code, or list them all"),
    "schema": (
        "registry.cli._schema",
        "write the JSON Schemas from the record model, or check they are current",
    ),
    "site": ("registry.cli._site", "build the static site from the checked records and the engine's results"),
}

DESCRIPTION = """\
The Inference Efficiency Registry: YAML records about LLM inference efficiency, checked against the
model's geometry.

Every command works on the registry in the current folder or the nearest folder above it that holds
records/ (as git finds its repository), or on the one named by --root DIR.
"""

EPILOG = """\
exit codes: 0 clean, 1 findings of error severity, 2 could not run.
Run 'registry COMMAND --help' for a command's options and examples.
"""


ROOT_HELP = "the registry's folder (default: the nearest folder holding records/)"
"""``--root``, taken before the command (``registry --root DIR check``) or after it alike."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="registry",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, help="show the version and exit")
    parser.add_argument("--root", metavar="DIR", help=ROOT_HELP)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module_name, summary) in COMMANDS.items():
        module = importlib.import_module(module_name)
        sub = subparsers.add_parser(
            name,
            help=summary,
            description=getattr(module, "DESCRIPTION", summary),
            epilog=getattr(module, "EPILOG", None),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        # SUPPRESS: a --root after the command sets the value; without one, the value given before the
        # command (or None) stays, rather than the subcommand's default replacing it.
        sub.add_argument("--root", metavar="DIR", default=argparse.SUPPRESS, help=ROOT_HELP)
        module.add_arguments(sub)
        sub.set_defaults(_module=module_name)
    return parser


class _Version(argparse.Action):
    """``--version``, which reads the package's metadata only when asked: argparse's own action wants
    the text when the parser is built, and reading it (``importlib.metadata``) would cost every command
    a noticeable share of a re-check with nothing changed."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        sys.stdout.write(f"registry {_version()}\n")  # on standard output, as argparse's own action
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # lazy

    try:
        return version("inference-efficiency-registry")
    except PackageNotFoundError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    module = importlib.import_module(args._module)
    try:
        code: int = module.run(args)
        return code
    except KeyboardInterrupt:
        sys.stderr.write("registry: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # "could not run": a short message, never a bare traceback
        from registry.errors import describe  # lazy

        if os.environ.get("REGISTRY_DEBUG"):
            raise
        sys.stderr.write(terminal_lines(f"registry {args.command}: error: {describe(error)}") + "\n")
        return 2
