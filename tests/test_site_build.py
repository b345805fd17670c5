"""The site built with MkDocs (strict): links resolve, hostile record text stays inert, the real
registry builds, and the command line refuses a registry with errors. Zensical, when installed, builds
the same sources (slow)."""

from __future__ import annotations

import importlib.util
import json
import os
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from registry.cli import main
from registry.site import build_site, run_mkdocs
from tests.browser.site_registry import REPO, WRONG_CLAIM, make_registry
from tests.conftest import RealSite


class _Page(HTMLParser):
    """The links, ids, scripts and event-handler attributes of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.scripts: list[str] = []
        self.handlers: list[tuple[str, str]] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append((tag, name))
            if name in ("href", "src") and value:
                self.links.append(value)
            if name in ("id", "name") and value:
                self.ids.add(value)
        if tag == "script":
            self._in_script = True
            self.scripts.append(f"src={values['src']}" if values.get("src") else "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script and self.scripts:
            self.scripts[-1] += data


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def broken_links(out: Path) -> list[str]:
    """Every relative link of every built page whose file (or in-page anchor) does not exist."""
    pages = {path: _parse(path) for path in out.rglob("*.html")}
    broken = []
    for path, page in pages.items():
        for href in page.links:
            parts = urlsplit(href)
            if parts.scheme or href.startswith("//"):
                continue
            base = out if parts.path.startswith("/") else path.parent  # 404.html links from the site root
            target = (base / unquote(parts.path).lstrip("/")).resolve() if parts.path else path
            if not target.exists():
                broken.append(f"{path.relative_to(out)} → {href}")
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in pages[target].ids:
                broken.append(f"{path.relative_to(out)} → {href} (no such anchor)")
    return broken


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_registry(tmp_path_factory.mktemp("registry"))
    report = build_site(root)
    assert report.home.is_file()
    return report.out


def test_every_internal_link_resolves(built: Path) -> None:
    assert broken_links(built) == []


def test_hostile_record_builds_into_an_inert_page(built: Path) -> None:
    hostile = _parse(built / "generated/kv-efficiency/hostile-text.html")
    benign = _parse(built / "generated/kv-efficiency/example-claims.html")
    assert hostile.scripts == benign.scripts  # only the theme's and the site's own scripts
    assert hostile.handlers == []
    assert not [
        link for link in hostile.links if urlsplit(link.strip()).scheme in ("javascript", "data", "vbscript")
    ]
    text = (built / "generated/kv-efficiency/hostile-text.html").read_text(encoding="utf-8")
    assert "<title>Hostile &lt;script&gt;" in text


def test_record_pages_are_searchable_but_not_in_the_navigation(built: Path) -> None:
    index = json.loads((built / "search/search_index.json").read_text(encoding="utf-8"))
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert "generated/models/example-llama.html" in locations
    record_text = " ".join(
        d["text"] for d in index["docs"] if d["location"].startswith("generated/kv-efficiency/ex")
    )
    assert "Example article" in record_text and "per token =" not in record_text  # traces are not indexed
    home = (built / "index.html").read_text(encoding="utf-8")
    assert "generated/models/index.html" in home and "example-llama.html" not in home.split("md-content")[0]
    # A record page carries the top-level tabs, not every section's pages: the navigation is pruned.
    record = (built / "generated/models/example-llama.html").read_text(encoding="utf-8")
    navigation = record.split("md-content")[0]
    assert "md-tabs" in navigation and "reference/fields.html" not in navigation
    assert 'href="fields.html"' in (built / "generated/reference/cli.html").read_text(encoding="utf-8")


def test_search_finds_a_record_by_its_own_page_not_by_the_pages_that_list_it(built: Path) -> None:
    """Link lists, the hardware-fit table, the cache grid's explanation (the same on every model page),
    the collection tables' rows and the home page's chart are left out of the search index; a record's
    title, facts, sources and prose stay in."""
    index = json.loads((built / "search/search_index.json").read_text(encoding="utf-8"))
    text = {doc["location"]: doc["text"] for doc in index["docs"]}
    model = "generated/models/example-llama.html"
    assert "Example model card" in text[f"{model}#sources"]
    assert "llama" in text[f"{model}#model"]  # the model_type fact
    for section in ("links", "128k-sequences-per-hardware", "cache-per-token-and-per-sequence"):
        assert text[f"{model}#{section}"] == ""
    on_model_pages = [body for location, body in text.items() if location.startswith("generated/models/")]
    assert on_model_pages and not [body for body in on_model_pages if "Example GPU" in body]
    assert "Example GPU" in text["generated/hardware/example-gpu.html#hardware"]
    # An index page's rows and the home page's chart name every record: their pages are indexed instead.
    assert "records." in text["generated/models/index.html"]  # the introduction stays
    assert not [
        body for location, body in text.items() if "index.html" in location and "Example Llama" in body
    ]


def test_downloads_are_published(built: Path) -> None:
    downloads = built / "generated/downloads"
    records = json.loads((downloads / "records.json").read_text(encoding="utf-8"))
    assert {r["id"] for r in records["records"]} >= {"models/example-llama", "kv-efficiency/hostile-text"}
    assert (downloads / "registry.duckdb").stat().st_size > 0
    assert (downloads / "parquet/models.parquet").stat().st_size > 0
    assert (downloads / "schemas/model.schema.json").is_file()


@pytest.mark.xdist_group("real-site")  # with the real site's browser tests
def test_the_real_registry_builds(real_site_build: RealSite) -> None:
    assert real_site_build.records["model"] == len(list((REPO / "records/models").glob("*.yaml")))
    assert broken_links(real_site_build.out) == []
    page = (real_site_build.out / "generated/kv-efficiency/deepseek-v3-mla-vs-mha-128k.html").read_text(
        encoding="utf-8"
    )
    assert "70,272 B" in page and "badge-agrees" in page


@pytest.mark.xdist_group("real-site")  # with the real site's browser tests
def test_reading_page_example_is_the_engines_trace(real_site_build: RealSite) -> None:
    """The derivation shown on the hand-written 'Reading a record page' is what the engine prints for
    the seed record."""
    page = (real_site_build.root / "site/generated/kv-efficiency/deepseek-v3-mla-vs-mha-128k.md").read_text(
        encoding="utf-8"
    )
    reading = (REPO / "site/reading.md").read_text(encoding="utf-8")
    example = reading.split("```text\n", 1)[1].split("```", 1)[0]
    for line in example.strip().splitlines():
        assert line in page, line


def test_command_line_builds_and_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_registry(tmp_path)
    assert main(["site", "--root", str(root), "--pages-only"]) == 0
    assert "Wrote " in capsys.readouterr().out
    (root / "records/kv-efficiency/example-claims.yaml").write_text(WRONG_CLAIM, encoding="utf-8")
    assert main(["site", "--root", str(root)]) == 2
    assert (
        "the registry has 1 error; the site is built only from records that check clean"
        in capsys.readouterr().err
    )


@pytest.mark.slow
def test_zensical_builds_the_same_sources(tmp_path: Path) -> None:
    """Material for MkDocs is in maintenance mode; Zensical reads the same mkdocs.yml. The generated
    pages are plain files, so it builds them unchanged. Zensical is a test extra: CI must have it."""
    if importlib.util.find_spec("zensical") is None:
        if os.environ.get("CI"):
            pytest.fail("zensical is a test extra and is missing")
        pytest.skip("zensical is not installed")
    root = make_registry(tmp_path)
    build_site(root, downloads=False, render=False)
    run_mkdocs(root, root / "build" / "site", tool="zensical")
    out = root / "build" / "site"
    hostile = _parse(out / "generated/kv-efficiency/hostile-text.html")
    assert hostile.handlers == []
    assert (out / "generated/models/example-llama.html").is_file()
    assert "badge-agrees" in (out / "generated/kv-efficiency/example-claims.html").read_text(encoding="utf-8")
