"""The command-line reference, rendered from the parser itself: every command's help as ``--help``
prints it, at a fixed width so the page does not depend on the terminal it was built in."""

from __future__ import annotations

import argparse

from registry.cli import COMMANDS, build_parser
from registry.site._html import block, element
from registry.site._parts import front_matter

WIDTH = 100


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, width=WIDTH)


def command_help() -> dict[str, str]:
    """``registry --help`` under ``registry``, and each command's ``--help`` under its name."""

    parser = build_parser()
    parser.formatter_class = _formatter
    found = {"registry": parser.format_help()}
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in COMMANDS:
        sub = subparsers.choices[name]
        sub.formatter_class = _formatter
        found[name] = sub.format_help()
    return found


def render_cli_page() -> str:
    """Every command and option of ``registry``."""
    parts = [
        front_matter("Command line"),
        "# Command line\n\n",
        "Every command of `registry` and every option, exactly as `--help` prints them.\n",
    ]
    for name, text in command_help().items():
        heading = name if name == "registry" else f"registry {name}"
        parts.append(f"## {heading}\n" + block(element("pre", text.rstrip()), class_="cli-help"))
    return "".join(parts)
