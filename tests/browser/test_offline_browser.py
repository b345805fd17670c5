"""The site opened from a folder on disk (file://), where a browser starts no search worker and loads no
index: the search box says how to serve the site, and the page logs no error."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from registry.site import build_site
from tests.browser.conftest import Watched
from tests.browser.site_registry import make_registry

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def site_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = make_registry(tmp_path_factory.mktemp("offline-registry"))
    yield build_site(root, downloads=False).out


def test_search_from_disk_says_how_to_serve(watched: Watched, site_folder: Path) -> None:
    page = watched.page
    page.goto((site_folder / "index.html").as_uri())
    page.wait_for_load_state("load")
    note = page.locator(".registry-search-offline")
    assert note.is_visible() and "python -m http.server" in note.inner_text()
    assert "python -m http.server" in (note.get_attribute("title") or "")
    assert page.locator("form[name=search]").count() == 0  # the theme's search starts nothing
    watched.shot("home-from-disk")
    assert watched.errors == []


def test_a_record_page_from_disk_logs_no_error(watched: Watched, site_folder: Path) -> None:
    page = watched.page
    page.goto((site_folder / "generated" / "models" / "example-llama.html").as_uri())
    page.wait_for_load_state("load")
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.locator(".registry-search-offline").is_visible()
    watched.shot("model-from-disk-390")
    assert watched.errors == []
