"""The site's generator without MkDocs: sanitizing, escaping, charts, and the pages it writes."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from registry.checker.pipeline import CheckResult, check
from registry.engine.layers import (
    MLA,
    Attention,
    LayerGroup,
    LayerGroups,
    Recurrent,
    SlidingWindow,
    StateTensor,
)
from registry.site import SiteRefused, _paths, build_site, escape, generate, render_markdown
from registry.site._html import element, escape_attr
from registry.site._parts import front_matter
from registry.site._progress import Progress
from registry.site._results import mechanism_class
from registry.site._svg import BACKGROUND, Bar, Series, bar_chart, line_chart
from registry.site._writer import GeneratedFolder
from tests.browser.site_registry import CLAIMS, MODEL, PAYLOAD, RECORDS, WRONG_CLAIM, make_registry

HOSTILE_MARKDOWN = f"""\
<script>{PAYLOAD}</script> <img src=x onerror="{PAYLOAD}"> [js](javascript:{PAYLOAD})

<div onclick="{PAYLOAD}" class="badge badge-agrees" style="color:red">raw</div>

<iframe src="https://example.com"></iframe><svg onload="{PAYLOAD}"></svg><style>*{{}}</style>
<a href="data:text/html,x">data</a> <a href="vbscript:x">vb</a> <a href=" javascript:x">spaced</a>
<form><input></form><object data="x"></object><base href="https://evil.example/">

[js2](javascript:alert(1)) [data](data:text/html,x) <a href="javascript:x">inline</a> `<script>` in code

[[models/a_b]] and [[models/missing]] and a [fine](https://example.com/ok) link.
"""
"""Raw HTML blocks run to the next blank line (CommonMark), so the well-formed paragraph after one is
where the links that must survive are."""

_DANGEROUS_ADDRESS = re.compile(
    r"""\s(?:href|src|action|formaction|data)\s*=\s*["']?\s*(?:javascript|data|vbscript):"""
)
"""An attribute that would load or run something: a mention of ``javascript:`` in text is harmless."""


def _resolve(target: str) -> tuple[str, str] | None:
    return ("../models/a_b.html", target) if target == "models/a_b" else None


def test_markdown_fields_render_inert() -> None:
    html = render_markdown(HOSTILE_MARKDOWN, _resolve)
    lowered = html.lower()
    for forbidden in (
        "<script",
        "<iframe",
        "<svg",
        "<style",
        "<form",
        "<input",
        "<object",
        "<base",
        "<img",
        "<div",
    ):
        assert forbidden not in lowered, forbidden
    assert not re.search(r"\son\w+\s*=", lowered)
    assert not _DANGEROUS_ADDRESS.search(lowered)
    assert "class=" not in lowered and "style=" not in lowered  # nothing can pose as a badge
    assert 'href="https://example.com/ok"' in html
    assert "<code>&lt;script&gt;</code>" in html  # markup in code is shown, as text


def test_wiki_links_become_links_and_unknown_ones_stay_text() -> None:
    html = render_markdown("See [[models/a_b]] and [[models/missing]].", _resolve)
    assert '<a href="../models/a_b.html"' in html and ">models/a_b</a>" in html
    assert "[[models/missing]]" in html


def test_markdown_formatting_survives() -> None:
    html = render_markdown(
        "Some *emphasis*, `code` and a list:\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    assert "<em>emphasis</em>" in html and "<code>code</code>" in html
    assert "<li>one</li>" in html and "<td>1</td>" in html


def test_escape_covers_markup_in_text_and_quotes_in_attributes() -> None:
    assert escape("<a href=\"x\" title='y'>&") == "&lt;a href=\"x\" title='y'&gt;&amp;"
    assert escape_attr("\"><script>'") == "&quot;&gt;&lt;script&gt;&#x27;"
    assert element("a", "<b>", href='x" onclick="y') == '<a href="x&quot; onclick=&quot;y">&lt;b&gt;</a>'


def test_front_matter_is_valid_yaml_whatever_the_title() -> None:
    title = 'Title\n---\nx: "y" <script>'
    text = front_matter(title)
    meta = yaml.safe_load(text.split("---\n")[1])
    assert meta == {"title": str(escape(title))}
    assert "<script>" not in text


def test_relative_addresses_between_pages() -> None:
    record = _paths.record_page("models/x")
    assert _paths.href(record, _paths.record_page("kv-efficiency/y")) == "../kv-efficiency/y.html"
    assert _paths.href(_paths.HOME, record) == "generated/models/x.html"
    assert _paths.href(record, _paths.HOME) == "../../index.html"
    assert _paths.href(record, record, "claims") == "x.html#claims"


def test_bar_chart_is_accessible_well_formed_svg() -> None:
    bars = [
        Bar("<b>big</b>", 2**34, "full attention", "a.html"),
        Bar("small", 2**20, "MLA"),
        Bar("none", None, "MLA"),
    ]
    svg = bar_chart(
        "c", bars, title="T <x>", description="D", colours={"full attention": "#000", "MLA": "#111"}
    )
    root = ET.fromstring(svg)
    namespace = "{http://www.w3.org/2000/svg}"
    assert root.get("role") == "img" and root.find(f"{namespace}title").text == "T <x>"
    rects = root.findall(f".//{namespace}rect")
    assert len(rects) == 2 and all(r.find(f"{namespace}title") is not None for r in rects)
    widths = [float(r.get("width")) for r in rects]
    assert widths[0] > widths[1] > 0  # log scale, longest bar for the largest value
    assert "<b>" not in svg and "not computable" in svg


def test_line_chart_breaks_at_missing_points_and_dashes_counterfactuals() -> None:
    series = [
        Series("vllm", ((1024, 2**20), (4096, 2**22), (32768, None), (131072, 2**27))),
        Series("MHA-equivalent", ((1024, 2**22), (131072, 2**29)), dashed=True),
    ]
    svg = line_chart("m", series, title="t", description="d", x_label="x", y_label="y")
    root = ET.fromstring(svg)
    lines = root.findall(".//{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 2  # the vllm line stops at the gap; its last point stands alone
    assert lines[1].get("stroke-dasharray")
    assert len(root.findall(".//{http://www.w3.org/2000/svg}circle")) == 1
    title = lines[0].find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == "vllm: 1K: 1 MiB, 4K: 4 MiB, 128K: 128 MiB"


@pytest.mark.parametrize(
    ("groups", "expected"),
    [
        ([Attention(8, 128, 128)], "full attention"),
        ([SlidingWindow(8, 128, 128, 4096), Attention(8, 128, 128)], "local + global attention"),
        ([MLA(512, 64)], "MLA"),
        ([Recurrent("kda", (StateTensor("s", (1, 2)),)), MLA(512, 64)], "recurrent hybrid"),
        ([Recurrent("mamba", (StateTensor("s", (1, 2)),))], "recurrent"),
    ],
)
def test_mechanism_class(groups: list[object], expected: str) -> None:
    layout = LayerGroups("t", tuple(LayerGroup(m, (i,)) for i, m in enumerate(groups)))  # type: ignore[arg-type]
    assert mechanism_class(layout) == expected


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_registry(tmp_path_factory.mktemp("registry"))
    result = check(root)
    assert result.ok, result.diagnostics
    generate(root, result, downloads=False)
    return root / "site"


def _page(docs: Path, page: str) -> str:
    return (docs / page).read_text(encoding="utf-8")


def test_run_page_shows_each_claim_checked(generated: Path) -> None:
    text = _page(generated, _paths.record_page("kv-efficiency/example-claims"))
    claims = text.split('<div class="claims">', 1)[1].split("</div>", 1)[0]
    assert claims.count('class="badge badge-agrees">agrees<') == 2
    assert '<td class="engine-value">131,072 B</td>' in claims
    assert "16 GiB (17,179,869,184 B)" in claims
    assert "per token = 32 × 2 × 8 × 128 × 2 = 131,072 B = 128 KiB" in text
    assert "32 × 2 × 8 × 128 × 2 = 131,072 (the stated value)" in text
    assert 'href="../models/example-llama.html"' in text


def test_hostile_record_reaches_the_page_inert(generated: Path) -> None:
    text = _page(generated, _paths.record_page("kv-efficiency/hostile-text"))
    lowered = text.lower()
    assert "<script" not in lowered and "<img" not in lowered and "<iframe" not in lowered
    assert not re.search(r"<[^>]*\son\w+\s*=", lowered)
    assert not _DANGEROUS_ADDRESS.search(lowered)
    assert "&lt;script&gt;" in text  # shown as text, not dropped
    meta = yaml.safe_load(text.split("---\n")[1])
    assert meta["title"].startswith("Hostile &lt;script&gt;")


def test_model_page_has_cache_tables_chart_and_hardware(generated: Path) -> None:
    text = _page(generated, _paths.record_page("models/example-llama"))
    grid = re.split(r'<pre class="grid"[^>]*>', text, maxsplit=1)[1].split("</pre>", 1)[0]
    # vllm, bf16: exactly 131,072 B a token, 16 GiB at 128K; the 1M point is beyond the model's maximum
    assert re.search(r"\nvllm +bf16 +131,072 +512 MiB +4 GiB +16 GiB +128 GiB †\n", grid)
    assert re.search(r"\nvllm +fp8 +65,536 +256 MiB +2 GiB +8 GiB +64 GiB †\n", grid)
    assert re.search(r"\nllama\.cpp +q8_0 +69,632 +272 MiB", grid)  # 34 bytes per 32 values: scales count
    assert "vllm, q8_0: vLLM's kv_cache_dtype has no q8_0 layout" in grid
    assert "<table><caption>" not in text.split("## 128K sequences", 1)[0]  # figures as text, not cells
    # The chart is a file beside the page, shown as an image (and never inline: no SVG to parse).
    assert "<svg" not in text
    image = re.search(r'<img src="(example-llama\.memory\.svg)" alt="([^"]+)"', text)
    assert image is not None and image.group(2).startswith("Example Llama: KV cache of one sequence")
    chart = (generated / _paths.GENERATED / "models" / image.group(1)).read_text(encoding="utf-8")
    root = ET.fromstring(chart)
    assert root.find("{http://www.w3.org/2000/svg}title") is not None
    assert 'stroke-dasharray="7 4"' in chart  # the MHA-equivalent line
    assert f'fill="{BACKGROUND}"' in chart  # its own ground: an image does not take the site's colours
    hardware = text.split("## 128K sequences per hardware", 1)[1].split("##", 1)[0]
    # Beside 8 B parameters in bf16 (16 GB), 80 GB leaves 64 GB: 3 sequences of 16 GiB (bf16 KV), 7 of
    # 8 GiB (fp8 KV); without the weights it would be 4 and 9.
    assert re.search(r">80 GB</td><td>Example GPU</td><td[^>]*>3</td><td[^>]*>7</td>", hardware)
    assert "8 B parameters × 2 B = 16,000,000,000 B (14.9 GiB)" in hardware


def test_models_sharing_a_geometry_each_get_their_own_title_and_limit(tmp_path: Path) -> None:
    """A model's grid and chart are drawn once per geometry; a fine-tune with the base's config still
    gets its own name on its chart and its own maximum context in its grid."""
    tune = (
        MODEL.replace("models/example-llama", "models/example-tune")
        .replace("name: Example Llama", "name: Example Tune")
        .replace("max_context_tokens: 131072", "max_context_tokens: 32768")
    )
    root = make_registry(tmp_path, {"models/example-llama": MODEL, "models/example-tune": tune})
    generate(root, check(root), downloads=False)
    docs = root / "site"
    charts, grids = {}, {}
    for name in ("example-llama", "example-tune"):
        text = _page(docs, _paths.record_page(f"models/{name}"))
        grids[name] = re.split(r'<pre class="grid"[^>]*>', text, maxsplit=1)[1].split("</pre>", 1)[0]
        charts[name] = (docs / _paths.GENERATED / "models" / f"{name}.memory.svg").read_text(encoding="utf-8")
    assert (
        "Example Llama: KV cache" in charts["example-llama"] and "Example Tune" not in charts["example-llama"]
    )
    assert "Example Tune: KV cache" in charts["example-tune"]
    assert charts["example-llama"].split("</desc>", 1)[1] == charts["example-tune"].split("</desc>", 1)[1]
    assert re.search(r"\nvllm +bf16 +131,072 +512 MiB +4 GiB +16 GiB +128 GiB †\n", grids["example-llama"])
    assert re.search(r"\nvllm +bf16 +131,072 +512 MiB +4 GiB +16 GiB † +128 GiB †\n", grids["example-tune"])


def test_collection_indexes_list_every_record_and_the_nav_lists_none(generated: Path) -> None:
    models = _page(generated, _paths.collection_page("models"))
    for name in ("example-llama", "example-sliding", "example-latent"):
        assert f'href="{name}.html"' in models
    assert "<table data-sortable>" in models
    config = yaml.safe_load((generated.parent / "mkdocs.yml").read_text(encoding="utf-8"))
    listed = json.dumps(config["nav"])
    assert "generated/models/index.md" in listed and "example-llama" not in listed


def test_home_summary_has_counts_and_the_headline_chart(generated: Path) -> None:
    text = _page(generated, "generated/snippets/home.txt")
    assert "KV cache of one 131,072-token sequence, bf16, vllm layout" in text
    assert text.count("<rect ") == 3
    assert 'href="generated/models/example-latent.html"' in text


def test_a_disagreeing_claim_is_named_on_its_page_but_refuses_the_build(tmp_path: Path) -> None:
    root = make_registry(tmp_path)
    (root / "records" / "kv-efficiency" / "example-claims.yaml").write_text(WRONG_CLAIM, encoding="utf-8")
    result = check(root)
    assert not result.ok
    with pytest.raises(SiteRefused, match="1 error"):
        build_site(root, downloads=False)
    assert not (root / "site" / "generated").exists()
    generate(root, result, downloads=False)
    text = _page(root / "site", _paths.record_page("kv-efficiency/example-claims"))
    assert 'class="badge badge-disagrees">disagrees<' in text
    assert '<code class="misapplication">kv-factor-missing</code>' in text


def test_writer_keeps_unchanged_files_and_removes_stale_ones(tmp_path: Path) -> None:
    folder = GeneratedFolder(tmp_path, "generated")
    kept = folder.write("generated/a.md", "same")
    stale = folder.write("generated/old/b.md", "gone soon")
    folder.prune()  # the end of a build: its manifest lists what it wrote
    before = kept.stat().st_mtime_ns
    again = GeneratedFolder(tmp_path, "generated")
    again.write("generated/a.md", "same")
    assert again.changed == 0 and kept.stat().st_mtime_ns == before
    assert again.prune() == 1 and not stale.exists() and not stale.parent.exists()
    with pytest.raises(ValueError, match="outside"):
        again.write("../escape.md", "x")


def test_a_changed_page_replaces_the_old_one_whole(tmp_path: Path) -> None:
    folder = GeneratedFolder(tmp_path, "generated")
    page = folder.write("generated/a.md", "first")
    held = page.open("rb")  # a reader (mkdocs serve) with the old page open keeps the old page whole
    try:
        GeneratedFolder(tmp_path, "generated").write("generated/a.md", "second, longer")
        assert held.read() == b"first"
    finally:
        held.close()
    assert page.read_text(encoding="utf-8") == "second, longer"
    assert sorted(p.name for p in page.parent.iterdir()) == ["a.md"]  # no temporary left behind


def test_large_files_written_in_parts_or_copied_are_kept_when_unchanged_and_replaced_whole(
    tmp_path: Path,
) -> None:
    """The download files (the records as JSON, the database) are written from parts or copied from a
    file, never held whole; they keep the writer's promises: unchanged stays untouched, changed is
    replaced by rename, nothing temporary is left."""
    source = tmp_path / "registry.duckdb"
    source.write_bytes(b"database bytes")
    folder = GeneratedFolder(tmp_path / "docs", "generated")
    parts = folder.write_parts("generated/records.json", iter(["[", "1", ",2", "]\n"]))
    copied = folder.copy("generated/registry.duckdb", source)
    assert parts.read_text(encoding="utf-8") == "[1,2]\n" and copied.read_bytes() == b"database bytes"
    assert folder.changed == 2 and folder.written == {str(parts), str(copied)}
    stamps = parts.stat().st_mtime_ns, copied.stat().st_mtime_ns

    again = GeneratedFolder(tmp_path / "docs", "generated")
    again.write_parts("generated/records.json", iter(["[1,", "2]\n"]))
    again.copy("generated/registry.duckdb", source)
    assert again.changed == 0 and (parts.stat().st_mtime_ns, copied.stat().st_mtime_ns) == stamps
    assert again.written == {str(parts), str(copied)}

    source.write_bytes(b"database byteZ")  # same size, other bytes
    held = copied.open("rb")
    try:
        third = GeneratedFolder(tmp_path / "docs", "generated")
        third.copy("generated/registry.duckdb", source)
        third.write_parts("generated/records.json", iter(["[3]\n"]))
        assert held.read() == b"database bytes"  # a reader of the old file keeps it whole
    finally:
        held.close()
    assert third.changed == 2
    assert copied.read_bytes() == b"database byteZ" and parts.read_text(encoding="utf-8") == "[3]\n"
    assert sorted(p.name for p in parts.parent.iterdir()) == ["records.json", "registry.duckdb"]


class _Terminal:
    def __init__(self, tty: bool) -> None:
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def test_progress_draws_a_bar_on_a_terminal_and_one_line_elsewhere() -> None:
    terminal, log = _Terminal(True), _Terminal(False)
    for stream in (terminal, log):
        bar = Progress(stream, 3)  # type: ignore[arg-type]
        for _ in range(3):
            bar.advance()
        bar.close()
    assert "generating [" in terminal.text and "3/3 pages" in terminal.text
    assert log.text.startswith("generated 3 pages in ") and log.text.count("\n") == 1


class _Spy:
    """A multiprocessing context whose Pool records how many workers it was asked for."""

    def __init__(self, pool: object, used: list[int]) -> None:
        self.pool, self.used = pool, used

    def Pool(self, workers: int) -> object:  # the name multiprocessing gives it
        self.used.append(workers)
        return self.pool(workers)  # type: ignore[operator]


def test_pages_rendered_in_parallel_equal_the_serial_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from registry.site import _record_pages

    serial, parallel = make_registry(tmp_path / "serial"), make_registry(tmp_path / "parallel")
    generate(serial, check(serial), downloads=False, workers=1)
    monkeypatch.setattr(_record_pages, "BATCH", 2)  # several batches, merged back in order
    used: list[int] = []
    real_pool = _record_pages.multiprocessing.get_context("fork").Pool
    monkeypatch.setattr(_record_pages.multiprocessing, "get_context", lambda method: _Spy(real_pool, used))
    generate(parallel, check(parallel), downloads=False, workers=2)
    assert used == [2]  # the pages really were rendered by two forked workers
    files = sorted(p.relative_to(serial) for p in (serial / "site/generated").rglob("*") if p.is_file())
    assert files == sorted(
        p.relative_to(parallel) for p in (parallel / "site/generated").rglob("*") if p.is_file()
    )
    for path in files:
        assert (serial / path).read_bytes() == (parallel / path).read_bytes(), path


@pytest.mark.parametrize("workers", [1, 2])
def test_work_alongside_the_pages_runs_once_and_its_error_is_raised(tmp_path: Path, workers: int) -> None:
    from registry.site._context import SiteContext
    from registry.site._record_pages import render_records

    root = make_registry(tmp_path)
    context = SiteContext.from_check(check(root))
    calls: list[int] = []
    done = render_records(context, root / "site", workers=workers, alongside=lambda: calls.append(1))
    assert calls == [1] and done.records == len(context.index.entries)

    def failing() -> None:
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        render_records(context, root / "site", workers=workers, alongside=failing)


def test_backlinks_name_every_record_that_points_at_each_record_and_how(real_check: CheckResult) -> None:
    """Kept as numbers, the backlinks still give, for each record, each record that names it (in a
    reference field, ``related`` or a ``[[link]]``), sorted, each way once."""
    from registry.site._context import SiteContext

    result = real_check
    expected: dict[str, set[tuple[str, str]]] = {}
    for entry in result.index:
        record = entry.record
        pointed = [(getattr(record, name, None), name) for name in ("model", "engine", "hardware")]
        system = getattr(record, "system", None)  # a mixed system names each part's hardware
        parts = (system.accelerators or []) if system is not None else []
        pointed += [(part.hardware, "hardware") for part in parts]
        pointed += [(target, "related") for target in record.related]
        pointed += [(link.target, "link") for link in entry.links]
        for target, how in pointed:
            if isinstance(target, str) and target != entry.id:
                expected.setdefault(target, set()).add((entry.id, how))
    backlinks = SiteContext.from_check(result).backlinks
    assert any(len(sources) > 1 for sources in expected.values())
    for entry in result.index:
        assert backlinks.get(entry.id) == sorted(expected.get(entry.id, ()))
    assert backlinks.get("models/no-such-record") == []


def test_a_record_page_links_back_to_the_records_that_name_it(generated: Path) -> None:
    text = _page(generated, _paths.record_page("models/example-llama"))
    listed = text.split('<ul class="backlinks">', 1)[1].split("</ul>", 1)[0]
    assert '<a href="../kv-efficiency/example-claims.html">' in listed
    assert re.search(r"</a> \([a-z, ]*model[a-z, ]*\)</li>", listed)


def test_a_context_beyond_the_models_maximum_is_said_in_words(tmp_path: Path) -> None:
    """The run's context, a claim's own context and the index's Context column say "beyond the model's
    maximum" in text, and the record's reason is shown beside them."""
    short = MODEL.replace("max_context_tokens: 131072", "max_context_tokens: 32768")
    claims = CLAIMS.replace(
        "context_tokens: 128K\n",
        "context_tokens: 128K\nbeyond_max_context: The source extrapolates the cache past the trained length.\n",
    ).replace(
        "    stated: ~16 GiB\n",
        "    stated: ~16 GiB\n  - quantity: bytes_per_sequence\n"
        "    context_tokens: 256K\n    stated: 32 GiB\n",
    )
    records = {**RECORDS, "models/example-llama": short, "kv-efficiency/example-claims": claims}
    root = make_registry(tmp_path, records)
    result = check(root)
    assert [d.code for d in result.diagnostics if d.path.endswith("example-claims.yaml")] == []
    generate(root, result, downloads=False)
    docs = root / "site"
    page = _page(docs, _paths.record_page("kv-efficiency/example-claims"))
    assert "128K = 131,072 tokens (beyond the model's maximum of 32,768 tokens)" in page
    assert "The source extrapolates the cache past the trained length." in page
    assert "at 262,144 tokens (beyond the model's maximum of 32,768 tokens)" in page
    index = _page(docs, _paths.collection_page("kv-efficiency"))
    assert "131,072 (beyond the model's maximum of 32,768 tokens)" in index
