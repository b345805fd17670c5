"""A model page's calculator in headless Chromium, opened from a folder on disk: for real models of each
kind of cache (dense GQA, MLA, sliding-window hybrid, chunked, recurrent hybrid, DeepSeek-V4's compressed
layers) and several engine layouts, formats, contexts and batches, the bytes it shows are ``registry calc
--format json``'s; a hostile model name runs nothing and breaks nothing; without JavaScript the page keeps
its tables; the fields have labels, follow each other on the keyboard and fit a 390 px screen."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from registry.cli import main
from registry.site import build_site
from tests.browser.conftest import Watched
from tests.browser.site_registry import PAYLOAD, REPO, make_registry

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MODELS = (
    "llama-3.1-8b",
    "deepseek-v3",
    "gemma-3-27b",
    "llama-4-scout",
    "qwen3-next-80b-a3b",
    "deepseek-v4",
    "deepseek-v4-flash",
)

HOSTILE_NAME = f"Evil </script><script>{PAYLOAD}</script> \"quoted\" 'single' a href=javascript:x ]( <!--"
"""A name that would end the data element, run a script, break the JSON's quotes, or be rewritten by the
site's address guard. (U+2028 cannot reach a page: the check refuses it in a record, Y005; the JSON's
escaping of it is held in tests/test_hostile_site.py.)"""
HOSTILE = f"""\
schema_version: 1
id: models/hostile-name
kind: model
title: Hostile name model
evidence: source-reported
name: {json.dumps(HOSTILE_NAME)}
org: Example Corp
layout:
  - layers: 4
    mechanism: attention
    num_kv_heads: 2
    head_dim: 64
sources:
  - title: Example report
    url: https://example.com/hostile
"""

CASES = [
    ("llama-3.1-8b", "vllm", "bf16", 131_072, 1),
    ("llama-3.1-8b", "llama.cpp", "q8_0", 5_000, 3),
    ("llama-3.1-8b", "ideal", "fp8", 1, 1),
    ("deepseek-v3", "vllm", "bf16", 100_000, 2),
    ("deepseek-v3", "transformers@4", "bf16", 4_097, 1),
    ("deepseek-v3", "sglang", "fp8", 12_345, 4),
    ("gemma-3-27b", "vllm", "bf16", 1_048_576, 1),
    ("gemma-3-27b", "llama.cpp", "q4_0", 2_000, 8),
    ("gemma-3-27b", "transformers", "bf16", 1_025, 1),
    ("llama-4-scout", "vllm", "bf16", 3 * 8_192, 1),
    ("llama-4-scout", "ideal", "fp8", 8_193, 5),
    ("qwen3-next-80b-a3b", "vllm", "fp8", 262_144, 16),
    ("qwen3-next-80b-a3b", "transformers", "bf16", 7, 1),
    ("qwen3-next-80b-a3b", "sglang", "bf16", 65_537, 2),
    ("deepseek-v4-flash", "sglang", "fp8", 513, 2),
    ("deepseek-v4", "sglang", "fp8", 131_072, 1),
    ("deepseek-v4", "transformers", "bf16", 130, 3),
    ("deepseek-v4-flash", "transformers", "bf16", 1_000_003, 1),
]


def _standalone(slug: str) -> str:
    """A model record of the registry without its links to records this test registry does not hold."""
    text = (REPO / "records" / "models" / f"{slug}.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^related:\n(?:  - .*\n)*", "", text)
    return text.replace("[[", "").replace("]]", "")


@pytest.fixture(scope="module")
def registry_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = {f"models/{slug}": _standalone(slug) for slug in MODELS}
    records["models/hostile-name"] = HOSTILE
    return make_registry(tmp_path_factory.mktemp("calculator-registry"), records)


@pytest.fixture(scope="module")
def site_folder(registry_root: Path) -> Iterator[Path]:
    yield build_site(registry_root, downloads=False).out


def _calc(root: Path, slug: str, layout: str, kv: str, t: int, batch: int) -> dict[str, Any]:
    """``registry calc --format json``'s figures, run as the command line runs it."""
    out = io.StringIO()
    argv = ["--root", str(root), "calc", "--model", slug, "--layout", layout, "--kv-dtype", kv]
    with contextlib.redirect_stdout(out):
        assert main([*argv, "--context", str(t), "--batch", str(batch), "--format", "json"]) == 0
    result: dict[str, Any] = json.loads(out.getvalue())
    return result


def _page(watched: Watched, folder: Path, slug: str) -> Any:
    page = watched.page
    page.goto((folder / "generated" / "models" / f"{slug}.html").as_uri())
    page.wait_for_load_state("load")
    page.locator(".calculator-form").wait_for(state="visible")
    return page


def _set(page: Any, layout: str, kv: str, t: int, batch: int) -> None:
    page.get_by_label("Engine layout").select_option(layout)
    page.get_by_label("KV format").select_option(kv)
    page.get_by_label("Context (tokens)").fill(str(t))
    page.get_by_label("Batch (sequences)").fill(str(batch))


def _shown(page: Any, name: str) -> str:
    return str(page.locator(f".calculator-figures dd[data-figure='{name}']").get_attribute("data-bytes"))


@pytest.mark.parametrize(("slug", "layout", "kv", "t", "batch"), CASES)
def test_the_shown_bytes_are_registry_calcs(
    watched: Watched,
    site_folder: Path,
    registry_root: Path,
    slug: str,
    layout: str,
    kv: str,
    t: int,
    batch: int,
) -> None:
    expected = _calc(registry_root, slug, layout, kv, t, batch)
    assert expected["total_bytes"] is not None
    page = _page(watched, site_folder, slug)
    _set(page, layout, kv, t, batch)
    assert _shown(page, "total") == str(expected["total_bytes"])
    for part in ("growing", "window", "fixed"):
        assert _shown(page, part) == str(expected[f"{part}_bytes"]), part
    assert _shown(page, "per-token") == str(expected["steady_state_bytes_per_token"])
    rows = page.locator(".calculator-result tbody td[data-bytes]")
    assert [rows.nth(i).get_attribute("data-bytes") for i in range(rows.count())] == [
        str(group["bytes"]) for group in expected["groups"]
    ]
    total = page.locator(".calculator-figures dd[data-figure='total']").inner_text()
    assert total.startswith(f"{expected['total_bytes']:,} B")
    command = page.locator(".calculator-result code").inner_text()
    assert (
        command
        == f"registry calc --model models/{slug} --context {t} --batch {batch} --kv-dtype {kv} --layout {layout}"
    )
    assert watched.errors == []


def test_a_setting_with_no_figure_says_why(watched: Watched, site_folder: Path, registry_root: Path) -> None:
    expected = _calc(registry_root, "deepseek-v3", "llama.cpp", "fp8", 4096, 1)
    assert expected["total_bytes"] is None
    page = _page(watched, site_folder, "deepseek-v3")
    _set(page, "llama.cpp", "fp8", 4096, 1)
    problem = page.locator(".calculator-problem")
    assert problem.is_visible() and "no fp8 layout" in problem.inner_text()
    assert not page.locator(".calculator-figures").is_visible()
    page.get_by_label("Context (tokens)").fill("0")
    page.get_by_label("KV format").select_option("bf16")
    assert "whole numbers from 1" in problem.inner_text()
    assert watched.errors == []


def test_a_hostile_name_runs_nothing_and_breaks_nothing(watched: Watched, site_folder: Path) -> None:
    page = _page(watched, site_folder, "hostile-name")
    assert page.evaluate("window.__pwned") is None
    assert watched.dialogs == []
    summary = page.locator(".calculator-summary").inner_text()
    assert summary.startswith("Evil </script><script>")  # the name as text, whole
    assert "\"quoted\" 'single'" in summary and "javascript:x ](" in summary
    assert _shown(page, "total") == str(4 * 2 * 2 * 64 * 2 * 131_072)
    data = json.loads(page.locator("#registry-calculator-data").text_content())
    assert data["name"] == HOSTILE_NAME
    assert watched.errors == []


def test_without_javascript_the_page_keeps_its_tables(browser: Any, site_folder: Path) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto((site_folder / "generated" / "models" / "gemma-3-27b.html").as_uri())
        assert page.locator(".calculator-static").is_visible()
        assert not page.locator(".calculator-form").is_visible()
        assert not page.locator(".calculator-result").is_visible()
        assert page.locator("h2#cache-per-token-and-per-sequence").is_visible()
    finally:
        context.close()


def test_keyboard_and_a_narrow_screen(watched: Watched, site_folder: Path) -> None:
    page = _page(watched, site_folder, "qwen3-next-80b-a3b")
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_label("Context (tokens)").focus()
    order = []
    for _ in range(3):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.id"))
    assert order == ["calculator-batch", "calculator-kv", "calculator-layout"]
    page.keyboard.press("ArrowDown")  # the next engine layout, chosen from the keyboard alone
    assert page.get_by_label("Engine layout").input_value() == "sglang"
    box = page.locator(".calculator").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    form = page.locator(".calculator-form").bounding_box()
    assert form is not None and form["width"] <= 390
    page.locator(".calculator").scroll_into_view_if_needed()
    watched.shot("calculator-390")
    assert watched.errors == []
