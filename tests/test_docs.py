"""Docs that cannot drift: the commands shown on the site's pages are run, and their output compared."""

from __future__ import annotations

import io
import re
import shlex
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from registry.cli import COMMANDS, build_parser, main
from tests.conftest import REPO

PAGES = ["contributing.md"]
_BLOCK = re.compile(r"```(?P<lang>yaml|console)(?: title=\"(?P<title>[^\"]+)\")?\n(?P<body>.*?)```", re.S)


def _run(argv: list[str], root: Path, cwd: Path) -> str:
    import os

    out, err = io.StringIO(), io.StringIO()
    old = Path.cwd()
    os.chdir(cwd)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main(argv)
    finally:
        os.chdir(old)
    return out.getvalue() + err.getvalue()


@pytest.mark.parametrize("page", PAGES)
def test_console_blocks_show_real_output(page: str, tmp_path: Path) -> None:
    text = (REPO / "site" / page).read_text(encoding="utf-8")
    (tmp_path / "records").mkdir()
    ran = 0
    for block in _BLOCK.finditer(text):
        if block["lang"] == "yaml" and block["title"]:
            target = tmp_path / block["title"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block["body"], encoding="utf-8")
        elif block["lang"] == "console":
            command, *expected = block["body"].splitlines()
            assert command.startswith("$ registry ")
            actual = _run(shlex.split(command)[2:], tmp_path, tmp_path)
            assert actual.rstrip("\n") == "\n".join(expected).rstrip("\n"), command
            ran += 1
    assert ran >= 2


def test_every_command_has_help_with_a_description() -> None:
    parser = build_parser()
    for name in COMMANDS:
        sub = parser._subparsers._group_actions[0].choices[name]  # type: ignore[union-attr]
        assert sub.description and len(sub.description) > 40, name
