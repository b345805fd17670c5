"""A kv-efficiency record states its headline result (page title and the line under it), the index shows
each record's cache as the engine computes it, and a memory chart labels an engine layout whose line is
the MHA-equivalent's instead of drawing one under the other."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from registry.checker.pipeline import check
from registry.engine.adapters import layer_groups_from_config
from registry.results import Figures
from registry.site import _paths, generate
from registry.site._model_figures import _lines
from tests.browser.site_registry import make_registry
from tests.conftest import REPO


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_registry(tmp_path_factory.mktemp("registry"))
    result = check(root)
    assert result.ok, result.diagnostics
    generate(root, result, downloads=False)
    return root / "site"


def test_a_kv_efficiency_page_states_its_headline(generated: Path) -> None:
    text = (generated / _paths.record_page("kv-efficiency/example-claims")).read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---\n")[1])
    assert re.search(
        r" — [\d.]+ [KMG]iB for one sequence of [\d,]+ tokens, \w+ KV, \w+ layout$", meta["title"]
    )
    line = re.search(r'<p class="headline"><strong>Headline: </strong>([^<]+)</p>', text)
    assert line is not None and "as the engine computes it. Claims: " in line.group(1)
    assert meta["title"].split(" — ", 1)[1] in line.group(1)


def test_the_kv_efficiency_index_shows_the_engines_cache(generated: Path) -> None:
    text = (generated / _paths.collection_page("kv-efficiency")).read_text(encoding="utf-8")
    header = re.search(r"<thead>.*?</thead>", text, re.S)
    assert header is not None and ">Cache<" in header.group(0) and "LayerGroups" not in header.group(0)
    row = re.search(r"<tr>(?:(?!</tr>).)*example-claims(?:(?!</tr>).)*</tr>", text, re.S)
    assert row is not None and ">16 GiB</td>" in row.group(0)  # 131,072 B a token × 128K


def test_a_layout_that_is_the_mha_equivalent_is_labelled_so() -> None:
    """transformers@4 caches DeepSeek-V3's MLA as every head's K and V: exactly the MHA-equivalent."""
    config = json.loads(
        (REPO / "tests" / "engine" / "configs" / "deepseek-v3.json").read_text(encoding="utf-8")
    )
    layout = layer_groups_from_config(config)
    lines = _lines(Figures().chart(layout, config))
    names = [line.name for line in lines]
    assert any(name.endswith("transformers@4 = MHA-equivalent (ideal)") for name in names), names
    assert "MHA-equivalent (ideal)" not in names  # no dashed line drawn over it
    points = [line.points for line in lines]
    assert len(points) == len(set(points))  # no two lines coincide
