"""Bytes per token at a context (what one more token adds there) and once every window is full.

A sliding window longer than the context is not full yet: each token still adds its entry. Phi-3.5-mini's
every layer has a 262,144-token window over a 131,072-token maximum, so at its own contexts the window
never binds, and a per-token figure of 0 ranked its 48 GiB cache among the smallest.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from registry.engine import (
    ENGINE_KEYS,
    Attention,
    Chunked,
    Compressed,
    SlidingWindow,
    compute,
    compute_ladder,
    layer_groups_from_layers,
    per_token_bytes,
)
from registry.engine.adapters import layer_groups_from_config
from registry.engine.layers import LayerGroups

MODELS = Path(__file__).resolve().parents[2] / "records" / "models"
PHI_PER_TOKEN = 32 * 2 * 32 * 96 * 2  # layers × (K, V) × KV heads × head size × bf16 bytes
PHI_WINDOW = 262_144


@cache
def layout_of(model: str) -> LayerGroups:
    record = YAML(typ="safe").load((MODELS / f"{model}.yaml").read_text(encoding="utf-8"))
    return layer_groups_from_config(dict(record["config"]))


def test_phi_3_5_mini_at_128k_costs_its_full_entry_per_token() -> None:
    result = compute(layout_of("phi-3.5-mini"), context_tokens=131_072)
    assert PHI_PER_TOKEN == 393_216
    assert result.bytes_per_token == PHI_PER_TOKEN
    assert result.steady_state_bytes_per_token == 0
    assert result.total_bytes == 131_072 * PHI_PER_TOKEN
    assert [g.bytes_per_token for g in result.groups] == [PHI_PER_TOKEN]
    assert [g.steady_state_bytes_per_token for g in result.groups] == [0]
    assert any("once every window is full (steady state) it adds 0 B" in line for line in result.trace)


@pytest.mark.parametrize(
    ("tokens", "marginal"),
    [
        (1, PHI_PER_TOKEN),
        (4_096, PHI_PER_TOKEN),
        (PHI_WINDOW - 1, PHI_PER_TOKEN),
        (PHI_WINDOW, 0),
        (300_000, 0),
    ],
)
def test_phi_3_5_mini_below_at_and_above_its_window(tokens: int, marginal: int) -> None:
    """Token ``t + 1`` is kept while ``t`` is below the window; from the window on it displaces one."""
    result = compute(layout_of("phi-3.5-mini"), context_tokens=tokens)
    assert result.bytes_per_token == marginal
    assert result.steady_state_bytes_per_token == 0
    assert result.total_bytes == min(tokens, PHI_WINDOW) * PHI_PER_TOKEN


def test_a_ladder_gives_the_per_token_figure_of_each_context() -> None:
    ladder = compute_ladder(layout_of("phi-3.5-mini"), (4_096, 131_072, 1_048_576))
    assert ladder.bytes_per_token == (PHI_PER_TOKEN, PHI_PER_TOKEN, 0)
    assert ladder.steady_state_bytes_per_token == 0
    assert per_token_bytes(layout_of("phi-3.5-mini")) == 0


def test_interleaved_windows_add_their_entry_until_full() -> None:
    """Gemma 3 27B: 52 sliding layers of 1,024 tokens beside 10 global layers."""
    layout = layout_of("gemma-3-27b")
    entry = 2 * 16 * 128 * 2
    below = compute(layout, context_tokens=512)
    assert below.bytes_per_token == 62 * entry
    assert below.steady_state_bytes_per_token == 10 * entry
    assert compute(layout, context_tokens=131_072).bytes_per_token == 10 * entry


def test_each_engine_fills_a_window_to_what_it_keeps() -> None:
    """transformers keeps ``window − 1`` tokens, llama.cpp ``window + n_ubatch`` cells; the others
    ``window``."""
    layout = layer_groups_from_layers("x", [SlidingWindow(8, 128, 128, 4096)])
    entry = 2 * 8 * 128 * 2
    full_at = {"transformers": 4095, "llama.cpp": 4096 + 512}
    for engine in ("ideal", "vllm", "sglang", "transformers", "llama.cpp"):
        edge = full_at.get(engine, 4096)
        assert compute(layout, context_tokens=edge - 1, engine_layout=engine).bytes_per_token == entry
        assert compute(layout, context_tokens=edge, engine_layout=engine).bytes_per_token == 0


def _exactly_differenced(layout: LayerGroups) -> bool:
    """Layouts whose ideal bytes grow by the per-token figure exactly at every token: no chunk resets
    and no compressed entries (those grow a whole entry every ``ratio`` tokens)."""
    return not any(isinstance(g.mechanism, Chunked | Compressed) for g in layout.groups)


def _registry_layouts() -> list[LayerGroups]:
    layouts = []
    for path in sorted(MODELS.glob("*.yaml")):
        try:
            layouts.append(layout_of(path.stem))
        except (ValueError, KeyError, TypeError):
            continue  # a model record with a stated layout or no config: covered elsewhere
    assert len(layouts) >= 40
    return layouts


def test_the_per_token_figure_is_the_difference_one_more_token_makes() -> None:
    """Under the architectural layout, ``bytes(t + 1) − bytes(t)`` is exactly ``bytes_per_token`` at
    ``t``, either side of every window, for every model of the registry that has no chunk or compressed
    layer; and under every engine layout it is never below the steady state."""
    compared = 0
    for layout in _registry_layouts():
        windows = {g.mechanism.window for g in layout.groups if isinstance(g.mechanism, SlidingWindow)}
        contexts = {1, 4_096, 131_072, *(w + d for w in windows if w for d in (-1, 0, 1))}
        for t in sorted(c for c in contexts if c >= 1):
            now, after = (compute(layout, context_tokens=n, traced=False) for n in (t, t + 1))
            if now.total_bytes is None or after.total_bytes is None:
                continue
            if _exactly_differenced(layout):
                assert after.total_bytes - now.total_bytes == now.bytes_per_token, (layout.model_type, t)
                compared += 1
            for engine in ENGINE_KEYS:
                other = compute(layout, context_tokens=t, engine_layout=engine, traced=False)
                if other.bytes_per_token is not None and other.steady_state_bytes_per_token is not None:
                    assert other.bytes_per_token >= other.steady_state_bytes_per_token
    assert compared > 100


def test_full_attention_has_one_per_token_figure() -> None:
    layout = layer_groups_from_layers("x", [Attention(8, 128, 128)] * 4)
    for t in (1, 4_096, 1_048_576):
        result = compute(layout, context_tokens=t)
        assert result.bytes_per_token == result.steady_state_bytes_per_token == 4 * 4096
        assert not any("steady state" in line for line in result.trace)
