"""The model page's calculator data: counted as the page's script counts it, every choice of every model
in the registry gives exactly what the engine gives (``registry calc``'s figures), at contexts around
every window, chunk, block and ratio, and a rule no form reproduces is left out with its reason."""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import pytest

from registry.checker.pipeline import load_record
from registry.engine.compute import compute
from registry.engine.layers import Attention, LayerGroup, LayerGroups
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Model
from registry.results.calculator import (
    NOT_MIRRORED,
    Choice,
    as_data,
    choices,
    describe,
    entries,
    offered,
    probe_contexts,
    totals,
)
from registry.results.figures import ENGINE_LAYOUTS, reasons
from registry.results.geometry import model_dtype
from registry.site._calculator import section as calculator_section
from tests.conftest import REPO

MODELS = sorted(path.stem for path in (REPO / "records" / "models").glob("*.yaml"))


def _model(slug: str) -> tuple[LayerGroups, str | None]:
    record = load_record(REPO, f"models/{slug}", Model)
    return model_layer_groups(record), model_dtype(record.config or {}, None)


def _contexts(layout: LayerGroups) -> list[int]:
    sizes = {16, 64, 256, 512}
    for mechanism in layout.mechanisms():
        for name in ("window", "chunk", "ratio"):
            value = getattr(mechanism, name, None)
            if isinstance(value, int):
                sizes.add(value)
    picked = {1, 2, 15, 17, 1000, 4096, 131_072, 1_000_003}
    for size in sizes:
        picked.update({size - 1, size, size + 1, 2 * size + 511, 3 * size - 7})
    picked.update({257, 258, 512, 513, 514})  # where SGLang's DeepSeek-V4 SWA pages stop growing
    return sorted(t for t in picked if t >= 1)


def _exact(choice: Choice, layout: LayerGroups, model_dtype: str | None, t: int, batch: int) -> None:
    expected = compute(
        layout,
        context_tokens=t,
        batch=batch,
        kv_dtype=choice.kv_dtype,
        engine_layout=choice.engine_layout,
        model_dtype=model_dtype,
        traced=False,
    )
    found = totals(choice, t, batch)
    where = f"{choice.engine_layout} {choice.kv_dtype} t={t} batch={batch}"
    assert found.total_bytes == expected.total_bytes, where
    assert (found.growing_bytes, found.window_bytes, found.fixed_bytes) == (
        expected.growing_bytes,
        expected.window_bytes,
        expected.fixed_bytes,
    ), where
    assert found.group_bytes == tuple(g.bytes_at_context for g in expected.groups), where
    assert found.steady_state_bytes_per_token == Fraction(expected.steady_state_bytes_per_token or 0), where


@pytest.mark.parametrize("slug", MODELS)
def test_every_choice_of_every_model_counts_as_the_engine(slug: str) -> None:
    layout, dtype = _model(slug)
    found = choices(layout, dtype)
    # every rule of every model's layouts is one of the script's forms (DeepSeek-V4's compressed
    # layers under sglang and transformers included)
    assert [c.engine_layout for c in found if c.reason == NOT_MIRRORED] == []
    for choice in found:
        if choice.reason == NOT_MIRRORED:  # left out of the calculator, never out of registry calc
            assert compute(
                layout,
                context_tokens=1,
                kv_dtype=choice.kv_dtype,
                engine_layout=choice.engine_layout,
                model_dtype=dtype,
            ).computable
            continue
        if choice.reason is not None:
            refused = compute(
                layout,
                context_tokens=1,
                kv_dtype=choice.kv_dtype,
                engine_layout=choice.engine_layout,
                model_dtype=dtype,
            )
            assert choice.reason == reasons(refused)  # the engine's own words, as calc gives them
            continue
        for i, t in enumerate(_contexts(layout)):
            _exact(choice, layout, dtype, t, 1 + 2 * (i % 2))  # batch 1 and 3 in turn


def test_the_offered_layouts_have_figures_under_some_format() -> None:
    layout, dtype = _model("deepseek-v3.2")
    data = as_data(layout, dtype)
    assert "llama.cpp" not in offered(data)  # its DSA indexer cache is not modelled
    assert isinstance(data["layouts"]["llama.cpp"]["kv"]["bf16"], str)
    assert offered(data)[:2] == ["ideal", "vllm"]


def test_each_form_is_the_formula_it_names() -> None:
    assert [entries(("blocks", 16, 16), t) for t in (1, 16, 17)] == [16, 16, 32]
    assert [entries(("window", 16, 4096, 16), t) for t in (4096, 4097, 4112)] == [4096, 4112, 4096]
    assert [entries(("window", 16, 4096, 16), t) for t in (4111, 4113)] == [4096, 4112]
    assert [entries(("chunk", 8192), t) for t in (8192, 8193)] == [8192, 1]
    assert [entries(("pad", 256, 0), t) for t in (1, 257)] == [256, 512]
    assert entries(("pad", 256, 4608), 10**9) == 4608
    assert entries(("min", 4095), 10**6) == 4095
    assert [entries(("floor", 128), t) for t in (127, 128, 300)] == [0, 1, 2]
    assert [entries(("mod", 4), t) for t in (3, 4, 7)] == [3, 0, 3]
    assert [entries(("from", 4, 4), t) for t in (3, 4, 10**6)] == [0, 4, 4]
    with pytest.raises(ValueError, match="unknown rule"):
        entries(("sqrt",), 4)


def _odd(t: int, *, step: int) -> tuple[int, str]:
    """A rule none of the forms gives: whole blocks plus one slot on every odd context."""
    return -(-t // step) * step + t % 2, ""


def test_a_rule_no_form_gives_is_left_out_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    assert describe(partial(_odd, step=16)) is None
    plain = LayerGroups("example-unmatched", (LayerGroup(Attention(8, 96, 96), (0, 1)),))
    monkeypatch.setattr("registry.results.calculator.describe", lambda rule: None)
    try:
        data = as_data(plain, "bf16")
    finally:
        choices.cache_clear()
    assert offered(data) == []
    assert data["layouts"]["vllm"]["kv"]["bf16"] == NOT_MIRRORED
    assert "no fp8" in data["layouts"]["llama.cpp"]["kv"]["fp8"]  # the engine's own reason comes first


def test_the_probe_reaches_the_longest_context_and_each_size() -> None:
    contexts = probe_contexts([4096])
    assert {1, 1100, 4095, 4096, 4097, 16384, 16387}.issubset(contexts)
    assert max(contexts) == 2**40


def test_the_pages_script_stays_a_few_kilobytes() -> None:
    """The calculator's script is loaded by every page of the site (it does nothing without a model
    page's data): it stays small. It answers two commands, ``registry calc`` and ``registry fit`` (the
    fit's derivation line by line, its bisection for the longest context, exact byte formatting), in
    under 12 KiB as written, about 4 KiB compressed: an eighth of the theme's own script."""
    assert (REPO / "site" / "assets" / "calculator.js").stat().st_size < 12 * 1024


def test_the_page_names_the_layouts_it_leaves_out_and_why() -> None:
    record = load_record(REPO, "models/deepseek-v3.2", Model)
    text = calculator_section(record, model_layer_groups(record), ())
    assert (
        "gives no figure for this model under them (the tables above say why): trtllm, llama.cpp, transformers@4."
        in text
    )
    assert '<option value="vllm" selected>' in text and '<option value="llama.cpp"' not in text
    for slug in ("deepseek-v4", "deepseek-v4-flash"):
        record = load_record(REPO, f"models/{slug}", Model)
        layout, dtype = model_layer_groups(record), model_dtype(record.config or {}, None)
        unmirrored = sorted({c.engine_layout for c in choices(layout, dtype) if c.reason == NOT_MIRRORED})
        text = calculator_section(record, layout, ())
        if unmirrored:
            assert f"give their figures): {', '.join(offered_order(unmirrored))}." in text


def test_deepseek_v4_is_offered_under_sglang_and_transformers() -> None:
    """SGLang's DeepSeek-V4 pool (its SWA pages freed a page past the window: the paged-window form with
    a window of 258 tokens) and transformers' compressors (windows closed, open, overlapped) are forms
    the script evaluates, so both layouts are offered, with fp8 and bf16 respectively."""
    for slug in ("deepseek-v4", "deepseek-v4-flash"):
        layout, dtype = _model(slug)
        data = as_data(layout, dtype)
        assert {"sglang", "transformers"} <= set(offered(data)), slug
        assert not isinstance(data["layouts"]["sglang"]["kv"]["fp8"], str)
        assert not isinstance(data["layouts"]["transformers"]["kv"]["bf16"], str)
    pro = _model("deepseek-v4")[0]
    sglang = next(c for c in choices(pro, None) if (c.engine_layout, c.kv_dtype) == ("sglang", "fp8"))
    # the SWA pages held (their 576-byte rounding is one term a page), found from where freeing starts
    assert ("window", 256, 258, 1) in {term.rule for group in sglang.groups for term in group.terms}


def offered_order(keys: list[str]) -> list[str]:
    """``keys`` in the order of the engine layouts of the figures."""
    return [key for key in ENGINE_LAYOUTS if key in keys]
