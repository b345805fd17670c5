"""No per-token figure understated: for every model in the registry, every engine layout and every
component of its plans, what token ``t + 1`` is said to add (``bytes_per_token``) is never below what the
component's bytes grow by from ``t``, averaged over the component's own period (a block, a page, a
compression ratio, a chunk), at small contexts and either side of every window, chunk, ratio, page and
fill edge. Where a component steps one token at a time (its period is 1) that is the exact difference
``bytes(t + 1) − bytes(t)``.

Once every part is full, the steady-state figure is exact: a period's growth divided by the period.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from registry.engine import compute
from registry.engine.dtypes import get_dtype
from registry.engine.engines import ENGINE_KEYS, get_engine
from registry.engine.groups import plan_group
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    LayerGroups,
    SlidingWindow,
    parts_of,
    uniform_layer_groups,
)
from registry.engine.plan import Component, GroupPlan, Settings
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Model
from tests.conftest import REPO

MODELS = sorted((REPO / "records" / "models").glob("*.yaml"))
KV_DTYPES = ("bf16", "fp8", "q8_0")
SMALL = range(1, 301)
FAR = 1 << 24
"""A context past every window of the registry's models, where every part is in its steady state."""


@cache
def layer_groups(path: Path) -> LayerGroups:
    return model_layer_groups(Model.model_validate(YAML(typ="safe").load(path.read_text(encoding="utf-8"))))


def _spans(layout: LayerGroups) -> set[int]:
    spans: set[int] = set()
    for group in layout.groups:
        for part in parts_of(group.mechanism):
            if isinstance(part, SlidingWindow | MLA) and part.window:
                spans.add(part.window)
            elif isinstance(part, Chunked) and part.chunk:
                spans.add(part.chunk)
            elif isinstance(part, Compressed):
                spans.update(value for value in (part.ratio, part.window) if value)
    return spans


def _contexts(layout: LayerGroups, components: list[Component]) -> list[int]:
    """1 to 300, and one before, at and after each window, chunk, ratio, period, twice a period and
    fill edge."""
    edges = _spans(layout) | {c.period for c in components} | {2 * c.period for c in components}
    edges |= {c.full_at for c in components if c.full_at is not None}
    near = {e + d for e in edges for d in (-1, 0, 1)}
    return sorted({t for t in near if t >= 1} | set(SMALL))


def _plans(layout: LayerGroups, engine: str, kv_dtype: str) -> list[GroupPlan]:
    rules = get_engine(engine)
    settings = Settings(get_dtype(kv_dtype), get_dtype("bf16"), get_dtype("bf16"))
    plans = [plan_group(group, rules, settings) for group in (*layout.groups, *layout.mtp_groups)]
    return [plan for plan in plans if isinstance(plan, GroupPlan) and plan.supported]


def _bytes(component: Component, t: int) -> Fraction:
    """One layer's bytes of ``component`` for one sequence at ``t``."""
    if component.part == "fixed":
        return component.entry_bytes
    return component.entries(t)[0] * component.entry_bytes


def _understated(component: Component, contexts: list[int]) -> Iterator[str]:
    period = component.period
    for t in contexts:
        grows = _bytes(component, t + period) - _bytes(component, t)
        if component.marginal(t) * period < grows:
            yield (
                f"{component.label or 'entries'} at t = {t}: {component.marginal(t)} B per token, "
                f"but {grows} B over the {period} tokens from t"
            )


@pytest.mark.parametrize("path", MODELS, ids=lambda path: path.stem)
def test_no_component_adds_less_than_its_bytes_grow(path: Path) -> None:
    layout = layer_groups(path)
    problems: list[str] = []
    for engine in ENGINE_KEYS:
        for kv_dtype in KV_DTYPES:
            components = [c for plan in _plans(layout, engine, kv_dtype) for c in plan.components]
            contexts = _contexts(layout, components)
            for component in components:
                found = list(_understated(component, contexts))
                problems += [f"{engine} {kv_dtype}: {problem}" for problem in found[:3]]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("path", MODELS, ids=lambda path: path.stem)
def test_the_steady_state_is_a_period_s_growth(path: Path) -> None:
    """Far past every edge, a period adds ``growth × period`` exactly, so the period a component names is
    the one its entries repeat over."""
    layout = layer_groups(path)
    for engine in ENGINE_KEYS:
        for kv_dtype in KV_DTYPES:
            for plan in _plans(layout, engine, kv_dtype):
                for component in plan.components:
                    period = component.period
                    for t in (FAR, FAR + 1, FAR + period // 2 + 1):
                        grows = _bytes(component, t + period) - _bytes(component, t)
                        assert grows == component.growth * period, (engine, kv_dtype, component.label, t)


def test_the_layout_figure_is_the_sum_of_the_components() -> None:
    """``bytes_per_token`` of a whole layout is what its components' :meth:`~Component.marginal` add up
    to: the property above holds for the figure the table, JSON, SQL and site show."""
    layout = layer_groups(REPO / "records" / "models" / "deepseek-v4-flash.yaml")
    plans = _plans(layout, "sglang", "fp8")
    assert len(plans) == len(layout.groups)
    for t in (1, 100, 127, 128, 200, 256, 257, 1000):
        expected = sum(
            group.count * component.marginal(t)
            for group, plan in zip(layout.groups, plans, strict=True)
            for component in plan.components
        )
        result = compute(
            layout,
            context_tokens=t,
            kv_dtype="fp8",
            state_dtype="bf16",
            model_dtype="bf16",
            engine_layout="sglang",
        )
        assert result.bytes_per_token == expected


LATENT = MLA(kv_lora_rank=448, qk_rope_head_dim=64)
CSA = uniform_layer_groups("deepseek_v4", Compressed("csa", 4, LATENT, window=128, index_head_dim=128), 1)
HCA = uniform_layer_groups("deepseek_v4", Compressed("hca", 128, LATENT, window=128), 1)
MECHANISMS = {
    "mla-window": MLA(kv_lora_rank=512, qk_rope_head_dim=64, window=100),
    "mla-indexer": MLA(kv_lora_rank=512, qk_rope_head_dim=64, index_head_dim=128),
    "sliding-odd": SlidingWindow(4, 64, 64, 77),
    "chunked-odd": Chunked(4, 64, 64, 40),
    "compressed-attention": Compressed("c", 3, Attention(2, 64, 64), window=10),
    "csa": CSA.groups[0].mechanism,
    "hca": HCA.groups[0].mechanism,
}
"""Mechanisms no model of the registry has in this shape (an MLA window, odd windows and ratios), held
to the same property."""


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_no_mechanism_adds_less_than_its_bytes_grow(name: str) -> None:
    layout = uniform_layer_groups("x", MECHANISMS[name], 2)
    problems: list[str] = []
    checked = 0
    for engine in ENGINE_KEYS:
        for kv_dtype in KV_DTYPES:
            components = [c for plan in _plans(layout, engine, kv_dtype) for c in plan.components]
            checked += len(components)
            contexts = _contexts(layout, components)
            problems += [f"{engine} {kv_dtype}: {p}" for c in components for p in _understated(c, contexts)]
    assert checked and not problems, "\n".join(problems[:20])


def _differences(layout: LayerGroups, engine: str, kv_dtype: str, t: int) -> tuple[object, int]:
    now, after = (
        compute(layout, context_tokens=n, engine_layout=engine, kv_dtype=kv_dtype, traced=False)
        for n in (t, t + 1)
    )
    assert now.total_bytes is not None and after.total_bytes is not None
    return now.bytes_per_token, after.total_bytes - now.total_bytes


@pytest.mark.parametrize("t", [1, 2, 50, 125])
def test_transformers_hca_below_its_window_adds_what_one_token_adds(t: int) -> None:
    """transformers' HCA layer before its window and its first compressed entry close: one more token
    adds its window entry and its open-window values and gates, exactly (``2 × 1 × 512 × 2`` plus
    ``512 × 2``), and the steady state's 8 B (``512 × 2 / 128``) for its compressed entry."""
    marginal, grows = _differences(HCA, "transformers", "bf16", t)
    assert grows == 512 * 2 + 2 * 512 * 2
    assert marginal == grows + Fraction(512 * 2, 128)


def test_transformers_csa_over_its_first_ratio_adds_what_its_bytes_grow() -> None:
    """transformers' CSA layer: over its first four tokens, its overlap's four tokens arrive at once;
    averaged, a token's worth each. From t = 127 its window is full."""
    window = 512 * 2
    buffers = 2 * 2 * 512 * 2 + 2 * 2 * 128 * 2
    overlap = 512 * (2 + 4) + 128 * (2 + 4)
    steady = Fraction(512 * 2 + 128 * 2, 4)
    assert _differences(CSA, "transformers", "bf16", 1)[0] == window + buffers + overlap + steady
    assert _differences(CSA, "transformers", "bf16", 3)[0] == window + overlap + steady
    assert _differences(CSA, "transformers", "bf16", 126)[0] == window + steady
    assert _differences(CSA, "transformers", "bf16", 127)[0] == steady


def test_sglang_swa_pages_fill_until_a_page_past_the_window() -> None:
    """SGLang frees SWA pages only below ``t − 257``: at 128 < t ≤ 256 the window's pages (and the
    ratio-4 state rows that follow them) still grow by a page every 256 tokens, and from t = 257 the
    count repeats every page. The figure before: a page's records and rows over its 256 tokens."""
    page = 256 * 584 + 256  # a 256-token page of 584-byte records, rounded up to 576 B
    rows = 8 * 2 * 2 * 512 * 4 + 8 * 2 * 2 * 128 * 4  # the 8 state rows per page, and the indexer's
    compressed = Fraction(584, 4) + Fraction(64, 256) + Fraction(132, 4)
    for t in (1, 128, 200, 256):
        assert _differences(CSA, "sglang", "fp8", t)[0] == Fraction(page + rows, 256) + compressed
    assert _differences(CSA, "sglang", "fp8", 257)[0] == compressed
