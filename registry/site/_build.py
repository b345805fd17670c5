"""Building the site: check, generate the pages, run ``mkdocs build --strict``; and serving the result.

::

    records ──check──▶ index ──generate──▶ site/generated/*.md ──mkdocs build --strict──▶ build/site/

A page must never show a number the check rejects: the build refuses a registry whose check has errors.
With ``leave_out_drafts`` (``registry site`` without ``--strict``), records that do not validate yet, and
those pointing at one, are left out instead (:func:`~registry.checker.clean.without_drafts`), so that one
unfinished draft does not keep a reader from the rest; any other error still refuses the build.
MkDocs runs as a separate process with the registry root as its working folder (the snippets extension
resolves the home page's generated part from there), so its configuration is exactly ``mkdocs.yml``:
no hooks, no plugins beyond the theme's search, and the same sources build with Zensical.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from registry.checker.clean import left_out, without_drafts
from registry.checker.pipeline import CheckResult, check
from registry.diagnostics import Severity
from registry.errors import RegistryError, SiteRefused
from registry.files import own_folder
from registry.memory import return_freed_memory
from registry.site._generate import generate

DEFAULT_OUT = Path("build") / "site"
"""Where the built site goes, relative to the registry root (``site_dir`` in ``mkdocs.yml``)."""


@dataclass
class SiteReport:
    """What a build did: where the site is, how many pages, and the seconds each step took."""

    out: Path
    pages: int
    records: dict[str, int]
    seconds: dict[str, float] = field(default_factory=dict)
    left_out: tuple[str, ...] = ()
    """The record files left out as drafts (or for pointing at one), with ``leave_out_drafts``."""
    check: CheckResult | None = None
    """The whole check, when records were left out: its findings say why."""

    @property
    def home(self) -> Path:
        return self.out / "index.html"


def check_clean(root: Path, *, leave_out_drafts: bool = False) -> tuple[CheckResult, CheckResult]:
    """Run the whole check: the result to build from, and the whole check. With errors, raise
    :class:`SiteRefused`, unless ``leave_out_drafts`` and the errors are only drafts': then the result
    to build from is the registry without them."""

    whole = result = check(root)
    if not result.ok and leave_out_drafts:
        result = without_drafts(result).result
    if not result.ok:
        errors = whole.count(Severity.ERROR)
        raise SiteRefused(
            f"the registry has {errors} error{'s' if errors != 1 else ''}; the site is built only from "
            "records that check clean (run 'registry check' to see them)"
        )
    return result, whole


def run_mkdocs(root: Path, out: Path, *, tool: str = "mkdocs") -> None:
    """``mkdocs build --strict`` (or ``zensical build --strict``) of ``root/mkdocs.yml`` into ``out``."""
    config = root / "mkdocs.yml"
    if not config.is_file():
        raise RegistryError(f"{config} is missing; the site's configuration lives there")
    if tool == "mkdocs":
        command = [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--config-file",
            str(config),
            "--site-dir",
            str(out),
        ]
    else:
        # Zensical takes its output folder from the configuration only.
        command = [
            str(Path(sys.executable).with_name("zensical")),
            "build",
            "--strict",
            "--config-file",
            str(config),
        ]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-30:])
        raise RegistryError(f"{tool} build failed (exit {done.returncode}):\n{tail}")


def _make_folder(target: Path) -> None:
    """Make the output folder before any work, so a path that cannot be one (``build/`` a file, a
    read-only disk) is one line now rather than MkDocs' traceback after the pages are written."""
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        where = error.filename or target
        raise RegistryError(f"cannot make the site's folder {target}: {where}: {error.strerror}") from None


def build_site(
    root: Path,
    out: Path | None = None,
    *,
    progress: TextIO | None = None,
    downloads: bool = True,
    render: bool = True,
    leave_out_drafts: bool = False,
) -> SiteReport:
    """Check the registry at ``root``, generate its pages and build the site into ``out``.

    ``out`` defaults to ``build/site`` under ``root``. ``downloads`` false skips the database files (a
    quicker preview); ``render`` false stops after writing the Markdown pages. A registry with errors is
    refused, or with ``leave_out_drafts``, when its only errors are drafts', built without the drafts
    and the records pointing at one (see the report).
    """

    chosen = out if out is not None else root / DEFAULT_OUT
    # MkDocs empties its output folder: a link there (a committed ``build -> records``) would empty
    # whatever it points at, so the folder, and every one above it inside the registry, is checked
    # before it is resolved.
    own_folder(root.absolute(), chosen.absolute(), create=False)
    target = chosen.resolve()
    if target.is_relative_to((root / "site").resolve()):
        raise RegistryError(f"{target} is inside site/, the pages' source folder; choose another --out")
    if render:
        _make_folder(target)
    seconds: dict[str, float] = {}
    started = time.perf_counter()
    result, whole = check_clean(root, leave_out_drafts=leave_out_drafts)
    seconds["check"] = time.perf_counter() - started
    generated = generate(root, result, progress=progress, downloads=downloads)
    seconds.update(generated.seconds)
    if render:
        return_freed_memory()  # this process only waits while MkDocs runs: give back what it freed
        started = time.perf_counter()
        run_mkdocs(root, target)
        seconds["mkdocs"] = time.perf_counter() - started
    missing = left_out(result)
    return SiteReport(
        target, generated.pages, generated.records, seconds, missing, whole if missing else None
    )
