"""Record text on the Querying page, in headless Chromium: an engine whose name and version are Markdown
link and image syntax (``[PoC](javascript:...)``, ``![](https://attacker.example/...)``) checks clean,
and its values reach the page's worked answers. Clicking every link of the page's answers runs nothing,
and opening the page fetches nothing from outside the site."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from registry.site import build_site, serve_in_background
from tests.browser.conftest import Watched
from tests.browser.site_registry import ENGINE, make_registry

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LINK = "[PoC engine](javascript:window.__pwned=1)"
IMAGE = "![](https://attacker.example/pixel.png)"


@pytest.fixture(scope="module")
def querying_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A registry whose engine is named with a javascript: link and versioned with a remote image, built
    with its database (the Querying page's answers come from it) and served on localhost."""
    root = make_registry(tmp_path_factory.mktemp("hostile-querying"))
    engine = root / "records" / "engines" / "example-engine.yaml"
    text = ENGINE.replace("name: Example engine", f'name: "{LINK} {IMAGE}"')
    engine.write_text(text.replace("version: 1.0.0", f'version: "{IMAGE} {LINK}"'), encoding="utf-8")
    report = build_site(root, downloads=True)
    server, url = serve_in_background(report.out)
    yield url + "generated/querying.html"
    server.shutdown()
    server.server_close()


def test_record_text_on_the_querying_page_runs_and_loads_nothing(watched: Watched, querying_url: str) -> None:
    outside: list[str] = []
    page: Any = watched.page
    origin = querying_url.split("/generated/", 1)[0]
    page.on(
        "request", lambda request: outside.append(request.url) if not request.url.startswith(origin) else None
    )
    page.goto(querying_url)
    page.wait_for_load_state("networkidle")
    content = page.locator("article")
    assert LINK in content.inner_text()  # shown as the text it is
    assert page.locator("article a[href^='javascript' i], article img[src^='http' i]").count() == 0
    for link in content.locator("table a").all():  # none is left; each would run here if one were
        link.click()
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None
    assert watched.dialogs == []
    assert outside == []
