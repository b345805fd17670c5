"""Without Chromium the browser tests skip on a workstation and fail in CI (CI=true), never pass."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.browser import conftest


@pytest.fixture
def no_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    real_is_file = Path.is_file
    monkeypatch.setattr(
        Path, "is_file", lambda self: False if "chromium" in str(self) else real_is_file(self)
    )


def test_missing_chromium_fails_under_ci(no_chromium: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="chromium is not installed"):
        conftest.chromium_path()


def test_missing_chromium_skips_elsewhere(no_chromium: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        conftest.chromium_path()
