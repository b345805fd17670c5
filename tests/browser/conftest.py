"""Fixtures for the browser tests: the built test site served on localhost, and headless Chromium.

Chromium is Debian's ``chromium`` package (a README prerequisite), driven by Playwright through
``executable_path``; Playwright's own browser download is never used. Without Chromium or Playwright the
tests are skipped with the reason, except under ``CI=true``, where they fail: CI installs both.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from registry.site import build_site, serve_in_background
from tests.browser.site_registry import REPO, make_registry

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
ARTIFACTS = REPO / "tests" / "artifacts" / "browser"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason}; CI must run the browser tests (.ci/prerequisites installs chromium)")
    pytest.skip(reason)


def chromium_path() -> str:
    """Debian's chromium, or whatever ``chromium`` is on the PATH."""
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    _unavailable("chromium is not installed (Debian: apt-get install chromium)")
    raise AssertionError("unreachable")


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The test registry's site, built once per module and served on 127.0.0.1 at a free port (the
    server thread stops with the module, so later tests run in a single-threaded process)."""
    root = make_registry(tmp_path_factory.mktemp("browser-registry"))
    report = build_site(root, downloads=False)
    server, url = serve_in_background(report.out)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is not installed (pip install -e '.[test]')")
    executable = chromium_path()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Watched:
    """A page with its console errors, uncaught exceptions and dialogs recorded."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        page.on(
            "console", lambda message: self.errors.append(message.text) if message.type == "error" else None
        )
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on("dialog", self._dialog)

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.fixture
def watched(browser: Any) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield Watched(page)
    context.close()
