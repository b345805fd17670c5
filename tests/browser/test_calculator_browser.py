"""A model page's calculator in headless Chromium, opened from a folder on disk: for real models of each
kind of cache (dense GQA, MLA, sliding-window hybrid, chunked, recurrent hybrid, DeepSeek-V4's compressed
layers) and several engine layouts, formats, contexts and batches, the bytes it shows are ``registry calc
--format json``'s; for three models on two hardware choices each, its fit answer is ``registry fit``'s,
line for line; a context beyond the model's maximum is said to be, and 128K is read as 131,072 tokens; a
hostile model or hardware name runs nothing and breaks nothing; without JavaScript the page keeps its
tables and says what the calculator would need; the fields have labels, follow each other on the
keyboard and fit a 390 px screen."""

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
from registry.engine.units import format_bytes, parse_context
from registry.report.fit import FitQuestion, fit_model
from registry.site import build_site
from tests.browser.conftest import Watched
from tests.browser.site_registry import PAYLOAD, REPO, make_registry
from tests.test_calculator_fit import HYBRID

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MODELS = (
    "llama-3.1-8b",
    "deepseek-v3",
    "gemma-3-27b",
    "llama-4-scout",
    "qwen3-next-80b-a3b",
    "deepseek-v4",
    "deepseek-v4-flash",
    "qwen3-235b-a22b",
)
HARDWARE = ("h100-sxm", "b200", "gb200-nvl72")

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
HOSTILE_HARDWARE = f"""\
schema_version: 1
id: hardware/hostile-gpu
kind: hardware
title: Hostile hardware
evidence: source-reported
name: {json.dumps(HOSTILE_NAME)}
vendor: Example Corp
memory_per_device: 80 GB
sources:
  - title: Example datasheet
    url: https://example.com/hostile-gpu
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


def _standalone(record_id: str) -> str:
    """A record of the registry without its links to records this test registry does not hold."""
    text = (REPO / "records" / f"{record_id}.yaml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^related:\n(?:  - .*\n)*", "", text)
    return text.replace("[[", "").replace("]]", "")


@pytest.fixture(scope="module")
def registry_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ids = [f"models/{slug}" for slug in MODELS] + [f"hardware/{slug}" for slug in HARDWARE]
    records = {record_id: _standalone(record_id) for record_id in ids}
    records["models/hostile-name"] = HOSTILE
    records["hardware/hostile-gpu"] = HOSTILE_HARDWARE
    records["models/example-hybrid"] = HYBRID
    return make_registry(tmp_path_factory.mktemp("calculator-registry"), records)


@pytest.fixture(scope="module")
def site_folder(registry_root: Path) -> Iterator[Path]:
    yield build_site(registry_root, downloads=False).out


def _calc(
    root: Path, slug: str, layout: str, kv: str, t: int, batch: int, weights: str = ""
) -> dict[str, Any]:
    """``registry calc --format json``'s figures, run as the command line runs it."""
    out = io.StringIO()
    argv = ["--root", str(root), "calc", "--model", slug, "--layout", layout, "--kv-dtype", kv]
    argv += ["--weights", weights] if weights else []
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
    page.get_by_label("Context").fill(str(t))
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
    command = page.locator(".calculator-calc").inner_text()
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
    # the fit still answers what it can, and why it stops, in registry fit's words
    page.get_by_label("Hardware", exact=True).select_option("hardware/b200")
    expected, _ = _fit_lines(registry_root, "deepseek-v3", "b200", 1, 4096, 1, "", "fp8", "llama.cpp")
    assert _shown_fit(page) == expected and expected[-1].startswith("cache: not computable (")
    assert page.locator(".calculator-verdict").inner_text().startswith("No answer:")
    page.get_by_label("Context").fill("0")
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
    assert data["hardware"]["hardware/hostile-gpu"]["name"] == HOSTILE_NAME
    option = page.locator("#calculator-hardware option[value='hardware/hostile-gpu']")
    assert option.inner_text() == f"{HOSTILE_NAME} (80 GB)"
    page.get_by_label("Hardware", exact=True).select_option("hardware/hostile-gpu")
    assert f"on 1 × {HOSTILE_NAME};" in page.locator(".calculator-verdict").inner_text()
    assert page.evaluate("window.__pwned") is None
    assert watched.dialogs == []
    assert watched.errors == []


def test_without_javascript_the_page_keeps_its_tables(browser: Any, site_folder: Path) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto((site_folder / "generated" / "models" / "gemma-3-27b.html").as_uri())
        static = page.locator(".calculator-static")
        assert static.is_visible()
        assert "registry fit --model models/gemma-3-27b --hardware ID --count N --context 128K" in (
            static.inner_text()
        )
        assert not page.locator(".calculator-form").is_visible()
        assert not page.locator(".calculator-result").is_visible()
        assert page.locator("h2#cache-per-token-and-per-sequence").is_visible()
    finally:
        context.close()


def test_keyboard_and_a_narrow_screen(watched: Watched, site_folder: Path) -> None:
    page = _page(watched, site_folder, "qwen3-next-80b-a3b")
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_label("Context").focus()
    order = []
    for _ in range(6):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.id"))
    assert order == [
        "calculator-batch",
        "calculator-kv",
        "calculator-layout",
        "calculator-hardware",
        "calculator-count",
        "calculator-weights",
    ]
    page.get_by_label("Engine layout").focus()
    page.keyboard.press("ArrowDown")  # the next engine layout, chosen from the keyboard alone
    assert page.get_by_label("Engine layout").input_value() == "sglang"
    page.get_by_label("Hardware", exact=True).select_option("hardware/gb200-nvl72")
    assert page.locator(".calculator-fit").is_visible()
    box = page.locator(".calculator").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    form = page.locator(".calculator-form").bounding_box()
    assert form is not None and form["width"] <= 390
    page.locator(".calculator").scroll_into_view_if_needed()
    watched.shot("calculator-390")
    assert watched.errors == []


FIT_CASES = [
    # the question the calculator could not answer: Qwen3-235B on 8 × H100 at 128K (beyond its maximum)
    ("qwen3-235b-a22b", "h100-sxm", 8, "128K", 1, "", "bf16", "vllm"),
    ("qwen3-235b-a22b", "gb200-nvl72", 1, "32,768", 64, "fp8", "fp8", "sglang"),
    # weights published in fp8, an MLA cache; nvfp4 weights that alone exceed one B200
    ("deepseek-v3", "h100-sxm", 8, "128k", 4, "", "bf16", "vllm"),
    ("deepseek-v3", "b200", 1, "131072", 1, "nvfp4", "fp8", "sglang"),
    # a recurrent hybrid: its state counted in the cache, weights that alone fill one H100
    ("qwen3-next-80b-a3b", "h100-sxm", 1, "1M", 2, "", "bf16", "vllm"),
    ("qwen3-next-80b-a3b", "b200", 2, "262144", 8, "fp16", "fp8", "vllm"),
    # no config: only bf16 weights name the dtype its state is kept in beside an fp8 KV cache
    ("example-hybrid", "h100-sxm", 1, "4K", 2, "bf16", "fp8", "ideal"),
]


def _fit_lines(
    root: Path, slug: str, hardware: str, count: int, t: int, batch: int, weights: str, kv: str, layout: str
) -> tuple[list[str], bool]:
    """``registry fit``'s derivation as the page shows it: its own lines, with the engine's lines of one
    sequence's cache (``registry calc``'s, shown by the calculator above) said in one line."""
    question = FitQuestion(
        model=slug,
        hardware=hardware,
        count=count,
        context_tokens=t,
        batch=batch,
        weights=weights or None,
        kv_dtype=kv,
        engine_layout=layout,
    )
    answer = fit_model(root, question).fit
    trace = list(answer.trace)
    if answer.cache_bytes is None:
        return [*trace, f"cache: not computable ({answer.problem})"], False
    one = answer.cache_bytes // batch
    own = [*trace[: trace.index("")], f"one sequence of {t:,} tokens: {one:,} B = {format_bytes(one)}"]
    return own + trace[-3:], answer.fits


def _shown_fit(page: Any) -> list[str]:
    terms = page.locator(".calculator-fit-lines dt").all_inner_texts()
    values = page.locator(".calculator-fit-lines dd").all_inner_texts()
    return [f"{term}: {value}" for term, value in zip(terms, values, strict=True)]


def _set_fit(
    page: Any, hardware: str, count: int, written: str, batch: int, weights: str, kv: str, layout: str
) -> None:
    _set(page, layout, kv, 1, batch)
    page.get_by_label("Context").fill(written)
    page.get_by_label("Hardware", exact=True).select_option(value=f"hardware/{hardware}")
    page.get_by_label("Units of the hardware").fill(str(count))
    page.get_by_label("Weights format").select_option(value=weights)


@pytest.mark.parametrize(
    ("slug", "hardware", "count", "written", "batch", "weights", "kv", "layout"), FIT_CASES
)
def test_the_fit_answer_is_registry_fits(
    watched: Watched,
    site_folder: Path,
    registry_root: Path,
    slug: str,
    hardware: str,
    count: int,
    written: str,
    batch: int,
    weights: str,
    kv: str,
    layout: str,
) -> None:
    t = parse_context(written)  # as registry fit reads --context
    expected, fits = _fit_lines(registry_root, slug, hardware, count, t, batch, weights, kv, layout)
    page = _page(watched, site_folder, slug)
    _set_fit(page, hardware, count, written, batch, weights, kv, layout)
    assert page.locator(".calculator-fit").is_visible()
    assert _shown_fit(page) == expected
    verdict = page.locator(".calculator-verdict")
    assert verdict.get_attribute("data-fits") == str(fits).lower()
    assert verdict.inner_text().startswith("Fits:" if fits else "Does not fit:")
    command = page.locator(".calculator-fit-command").inner_text()
    option = f" --weights {weights}" if weights else ""
    assert command == (
        f"registry fit --model models/{slug} --hardware hardware/{hardware} --count {count} --context {t} "
        f"--batch {batch}{option} --kv-dtype {kv} --layout {layout}"
    )
    # the cache above the fit follows the weights format too, as registry calc --weights does
    calc = _calc(registry_root, slug, layout, kv, t, batch, weights)
    assert _shown(page, "total") == str(calc["total_bytes"])
    assert page.locator(".calculator-calc").inner_text().startswith(f"registry calc --model models/{slug}")
    assert watched.errors == []


def test_beyond_the_maximum_and_128k(watched: Watched, site_folder: Path) -> None:
    """128K is 131,072 tokens, beyond Qwen3-235B's 40,960: the page says so above the figures and in
    the fit, as registry fit's derivation does; within the maximum it says nothing of the kind."""
    page = _page(watched, site_folder, "qwen3-235b-a22b")
    assert page.get_by_label("Context").input_value() == "128K"  # the default, as registry fit's
    beyond = page.locator(".calculator-beyond")
    assert beyond.is_visible()
    assert beyond.inner_text().startswith("131,072 tokens is beyond the model's maximum of 40,960 tokens")
    assert "131,072 tokens" in page.locator(".calculator-summary").inner_text()
    page.get_by_label("Hardware", exact=True).select_option("hardware/h100-sxm")
    page.get_by_label("Units of the hardware").fill("8")
    lines = _shown_fit(page)
    assert "context: 131,072 tokens, beyond the model's maximum of 40,960 tokens" in lines
    assert lines[-1].startswith("longest context at batch 1: 40,960 tokens, the model's maximum context")
    page.get_by_label("Context").fill("40,960")
    assert not beyond.is_visible()
    assert not any(line.startswith("context:") for line in _shown_fit(page))
    page.get_by_label("Context").fill("128 Q")
    assert "131072, 131,072, 128K or 1M" in page.locator(".calculator-problem").inner_text()
    assert not page.locator(".calculator-fit").is_visible()
    assert watched.errors == []
