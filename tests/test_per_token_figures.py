"""Bytes per token where people read it: `registry calc` (text and JSON) and a model page's grid give
what one more token adds at the context, and the steady state (every window full) under its own name.

Phi-3.5-mini's every layer has a 262,144-token window over a 131,072-token maximum: at 128K each token
costs 393,216 B, and a per-token 0 (the steady state) misread it as the cheapest cache of all.
"""

from __future__ import annotations

import json

import pytest

from registry.cli import main
from registry.engine import Attention, SlidingWindow, layer_groups_from_layers
from registry.results.figures import Figures
from registry.site._model_figures import _grid


def _calc(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["calc", "--model", "phi-3.5-mini", "--layout", "ideal", *args]) == 0
    return capsys.readouterr().out


def test_calc_json_gives_the_figure_at_the_context_and_the_steady_state(
    capsys: pytest.CaptureFixture[str],
) -> None:
    at_128k = json.loads(_calc(capsys, "--format", "json"))
    assert at_128k["bytes_per_token"] == 393_216
    assert at_128k["steady_state_bytes_per_token"] == 0
    assert at_128k["groups"][0]["bytes_per_token"] == 393_216
    assert at_128k["groups"][0]["steady_state_bytes_per_token"] == 0
    beyond = json.loads(_calc(capsys, "--format", "json", "--context", "512K"))
    assert beyond["bytes_per_token"] == beyond["steady_state_bytes_per_token"] == 0


def test_calc_table_shows_the_per_token_cost_the_trace_derives(capsys: pytest.CaptureFixture[str]) -> None:
    text = _calc(capsys)
    assert "per token = 32 × 2 × 32 × 96 × 2 = 393,216 B = 384 KiB" in text
    assert "once every window is full (steady state) it adds 0 B" in text
    header, _, row, *_ = text.split("\n\n")[-1].splitlines()
    assert header.split() == ["group", "layers", "per", "token", "steady", "state", "at", "context"]
    assert row.split() == ["sliding-window", "32", "384", "KiB", "0", "B", "48", "GiB"]


def test_model_grid_gives_the_per_token_cost_at_128k_and_names_the_steady_state() -> None:
    window = layer_groups_from_layers("w", [SlidingWindow(32, 96, 96, 262_144)] * 32)
    grid = _grid(Figures().standard(window), 131_072)
    assert grid.splitlines()[0].split()[:3] == ["layout", "KV", "B/t"]
    assert any(line.split()[:3] == ["ideal", "bf16", "393,216"] for line in grid.splitlines())
    assert "B/t once every window is full (steady state), where it differs:\n  0 B: every line above" in grid
    full = layer_groups_from_layers("f", [Attention(8, 128, 128)] * 32)
    assert "steady state" not in _grid(Figures().standard(full), 131_072)
