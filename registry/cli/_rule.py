"""registry rule"""

from __future__ import annotations

import argparse
import sys

DESCRIPTION = """\
Explain a diagnostic code: what it finds, why it matters, how to fix it, and the example record that
produces it. Without a code, list every code by family.
"""

EPILOG = """\
examples:
  registry rule R004
  registry rule dangling-reference
  registry rule              (the list)

exit codes: 0 explained (or listed), 2 no such code, or could not run.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", nargs="?", help="a code (R004) or a name (dangling-reference)")


def run(args: argparse.Namespace) -> int:
    from registry.codes import find_rule  # lazy
    from registry.codes.explain import render_list, render_rule  # lazy
    from registry.errors import RegistryError  # lazy

    if not args.code:
        sys.stdout.write(render_list())
        return 0
    rule = find_rule(args.code)
    if rule is None:
        raise RegistryError(f"no diagnostic code {args.code!r}; 'registry rule' lists them")
    sys.stdout.write(render_rule(rule))
    return 0
