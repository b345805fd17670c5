"""A model page's "128K sequences per hardware" table on a model whose maximum context is shorter than
128K says so in words above the table, and which length counts at the model's maximum, with every record
value on the page escaped as everywhere else."""

from __future__ import annotations

import re
from pathlib import Path

from registry.checker.pipeline import check
from registry.site import _paths, generate
from tests.browser.site_registry import MODEL, PAYLOAD, RECORDS, make_registry

HOSTILE_NAME = f'name: Example <script>{PAYLOAD}</script> "Llama" & <b>co</b>'


def _hardware_section(docs: Path, model_id: str) -> tuple[str, str]:
    text = (docs / _paths.record_page(model_id)).read_text(encoding="utf-8")
    return text, text.split("## 128K sequences per hardware", 1)[1].split("\n## ", 1)[0]


def test_a_model_shorter_than_128k_says_so_above_its_hardware_table(tmp_path: Path) -> None:
    short = MODEL.replace("max_context_tokens: 131072", "max_context_tokens: 32768").replace(
        "name: Example Llama", HOSTILE_NAME
    )
    root = make_registry(tmp_path, {**RECORDS, "models/example-llama": short})
    generate(root, check(root), downloads=False)
    docs = root / "site"
    text, section = _hardware_section(docs, "models/example-llama")
    words = re.search(r'<p class="beyond-max-context">(.*?)</p>', section)
    assert words is not None
    assert words.group(1) == (
        "131,072 tokens is beyond the model's maximum of 32,768 tokens: no sequence this long runs on it, "
        "so this table compares what such a cache would cost on each device, not a setting of the model. "
        "<code>registry fit --model models/example-llama --hardware ID --context 32768</code> counts the "
        "sequences at its maximum."
    )
    assert section.index("beyond-max-context") < section.index("<table")
    lowered = text.lower()
    # the one script element is the calculator's JSON data, which no record value can break out of
    assert lowered.count("<script") == lowered.count('<script type="application/json"') == 1
    assert f"<script>{PAYLOAD}" not in text and "<b>co</b>" not in lowered
    assert "&lt;script&gt;" in text
    _, within = _hardware_section(docs, "models/example-sliding")
    assert "<table" in within and "beyond-max-context" not in within


def test_a_model_of_128k_or_more_has_no_such_words(tmp_path: Path) -> None:
    root = make_registry(tmp_path, {**RECORDS})
    generate(root, check(root), downloads=False)
    _, section = _hardware_section(root / "site", "models/example-llama")
    assert "<table" in section and "beyond" not in section
