"""No engine layout keeps less than the architecture needs: for every model in the registry, at contexts
around each window, chunk and compression ratio, every engine layout's cache is at least ``ideal``'s, as a
whole and layer group by layer group (so that no layer type can sit under the minimum while other layers
outweigh it).

``ideal`` is the architectural minimum; an engine rounds up to blocks, pads or keeps extra, never less. A
layout under it has misread the context (vLLM's chunked layers once held nothing at an exact multiple of
the chunk, though vLLM always holds the block of the token being decoded).

Two readings are not context mistakes and are compared as they are meant:

- an engine may keep a part in its own narrower format whatever the KV dtype (SGLang's and vLLM's fp8
  indexer keys), so a layout is below the minimum only when it is below it at every KV dtype it accepts
  (bf16 and fp8);
- transformers stores ``sliding_window - 1`` tokens of a window or chunk (``DynamicSlidingWindowLayer``:
  the current token's K and V join the cache at attention time and are not kept), and of a compressed
  layer's local window (DeepSeek-V4's ``DeepseekV4HCACache`` is such a layer), so its floor is the
  minimum of windows one token shorter.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from registry.engine import compute
from registry.engine.engines import ENGINE_KEYS
from registry.engine.layers import Chunked, Compressed, LayerGroups, Mechanism, SlidingWindow, parts_of
from registry.engine.variants import Run, map_layer_groups, measure
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Model
from tests.conftest import REPO

MODELS = sorted((REPO / "records" / "models").glob("*.yaml"))
BASE_CONTEXTS = (1, 2, 4095, 4096, 4097, 8192, 131072)


@cache
def layer_groups(path: Path) -> LayerGroups:
    return model_layer_groups(Model.model_validate(YAML(typ="safe").load(path.read_text(encoding="utf-8"))))


def contexts(layout: LayerGroups) -> list[int]:
    """The base contexts, and each window, chunk and ratio one before, at, one after and at twice."""
    spans = set()
    for group in layout.groups:
        for part in parts_of(group.mechanism):
            if isinstance(part, SlidingWindow) and part.window:
                spans.add(part.window)
            elif isinstance(part, Chunked) and part.chunk:
                spans.add(part.chunk)
            elif isinstance(part, Compressed):
                spans.update(value for value in (part.ratio, part.window) if value)
    edges = {t for span in spans for t in (span - 1, span, span + 1, 2 * span) if t > 0}
    return sorted(edges | set(BASE_CONTEXTS))


KV_DTYPES = ("bf16", "fp8")


def total(layout: LayerGroups, engine_layout: str, t: int, kv_dtype: str = "bf16") -> int | None:
    run = Run(t, engine_layout=engine_layout, kv_dtype=kv_dtype, state_dtype="bf16", model_dtype="bf16")
    try:
        value = measure(layout, run, "bytes_per_sequence").value
    except ValueError:  # a dtype the engine layout does not offer
        return None
    return None if value is None else int(value)


def _one_token_shorter(mechanism: Mechanism) -> Mechanism:
    if isinstance(mechanism, SlidingWindow) and mechanism.window and not mechanism.cached_whole:
        return replace(mechanism, window=mechanism.window - 1)
    if isinstance(mechanism, Chunked) and mechanism.chunk:
        return replace(mechanism, chunk=mechanism.chunk - 1)
    if isinstance(mechanism, Compressed) and mechanism.window:
        return replace(mechanism, window=mechanism.window - 1)
    return mechanism


def floor_for(layout: LayerGroups, engine_layout: str) -> LayerGroups:
    """The layout whose ``ideal`` cache ``engine_layout`` must not go under."""
    if engine_layout.startswith("transformers"):
        return map_layer_groups(layout, _one_token_shorter)
    return layout


def below_minimum(layout: LayerGroups, engine_layout: str, t: int) -> str:
    """What ``engine_layout`` keeps under the minimum at ``t`` at every KV dtype it accepts, or ``""``."""
    found = []
    for kv_dtype in KV_DTYPES:
        kept = total(layout, engine_layout, t, kv_dtype)
        floor = total(floor_for(layout, engine_layout), "ideal", t, kv_dtype)
        if kept is None or floor is None:
            continue
        if kept >= floor:
            return ""
        found.append(f"{kv_dtype}: {kept:,} B < ideal {floor:,} B")
    return f"{engine_layout} at t = {t:,}: {'; '.join(found)}" if found else ""


def group_bytes(layout: LayerGroups, engine_layout: str, t: int, kv_dtype: str) -> tuple[int | None, ...]:
    """Each layer group's bytes at ``t`` (``None`` where the group is not computed), or ``()`` when the
    engine layout does not offer ``kv_dtype``."""
    try:
        result = compute(
            layout,
            context_tokens=t,
            engine_layout=engine_layout,
            kv_dtype=kv_dtype,
            state_dtype="bf16",
            model_dtype="bf16",
            traced=False,
        )
    except ValueError:  # a dtype the engine layout does not offer
        return ()
    return tuple(group.bytes_at_context for group in result.groups)


def describe(layout: LayerGroups, index: int) -> str:
    """A layer group in words: its mechanism and first layer."""
    group = layout.groups[index]
    return f"{group.mechanism.kind} group from layer {group.layers[0]}"


def groups_below_minimum(layout: LayerGroups, engine_layout: str, t: int) -> list[str]:
    """The layer groups ``engine_layout`` keeps under ``ideal``'s at ``t``, at every KV dtype at which
    both compute the group."""
    floor_layout = floor_for(layout, engine_layout)
    found: dict[int, list[str]] = {}
    fine: set[int] = set()
    for kv_dtype in KV_DTYPES:
        kept = group_bytes(layout, engine_layout, t, kv_dtype)
        floor = group_bytes(floor_layout, "ideal", t, kv_dtype)
        for index, (held, minimum) in enumerate(zip(kept, floor, strict=False)):
            if held is None or minimum is None:
                continue
            if held >= minimum:
                fine.add(index)
            else:
                found.setdefault(index, []).append(f"{kv_dtype}: {held:,} B < ideal {minimum:,} B")
    return [
        f"{engine_layout} at t = {t:,}, {describe(layout, index)}: {'; '.join(why)}"
        for index, why in found.items()
        if index not in fine
    ]


@pytest.mark.parametrize("path", MODELS, ids=[p.stem for p in MODELS])
def test_every_layer_group_keeps_at_least_its_architectural_minimum(path: Path) -> None:
    layout = layer_groups(path)
    below = [
        finding
        for t in contexts(layout)
        for engine_layout in ENGINE_KEYS[1:]
        for finding in groups_below_minimum(layout, engine_layout, t)
    ]
    assert below == []


@pytest.mark.parametrize("path", MODELS, ids=[p.stem for p in MODELS])
def test_every_engine_layout_keeps_at_least_the_architectural_minimum(path: Path) -> None:
    layout = layer_groups(path)
    below = [
        finding
        for t in contexts(layout)
        for engine_layout in ENGINE_KEYS[1:]
        if (finding := below_minimum(layout, engine_layout, t))
    ]
    assert below == []


def test_vllm_holds_the_chunk_of_the_token_being_decoded() -> None:
    layout = layer_groups(REPO / "records" / "models" / "llama-4-scout.yaml")
    chunked = [g for g in layout.groups if isinstance(g.mechanism, Chunked)]
    assert chunked
    chunk = chunked[0].mechanism.chunk
    assert chunk is not None
    for t in (chunk, 2 * chunk):
        assert total(layout, "vllm", t) == total(layout, "ideal", t)
