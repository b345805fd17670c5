"""Helpers shared by subcommands."""

from __future__ import annotations

import argparse
from pathlib import Path


def registry_root(args: argparse.Namespace) -> Path:
    """The registry root for this invocation: ``--root`` or the nearest folder holding records/."""
    from registry.root import find_root  # lazy

    explicit = Path(args.root) if getattr(args, "root", None) else None
    return find_root(Path.cwd(), explicit)
