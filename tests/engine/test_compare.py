"""A stated layout held against its config's layer groups: layer count, mechanism, heads and sizes."""

from __future__ import annotations

from registry.engine.compare import layout_differences
from registry.engine.layers import (
    MLA,
    Attention,
    LayerGroup,
    LayerGroups,
    SlidingWindow,
    uniform_layer_groups,
)


def groups(*parts: tuple[object, int]) -> LayerGroups:
    built, start = [], 0
    for mechanism, count in parts:
        built.append(LayerGroup(mechanism, tuple(range(start, start + count))))  # type: ignore[arg-type]
        start += count
    return LayerGroups("x", tuple(built))


CONFIG = uniform_layer_groups("x", Attention(8, 128, 128), 64)


def test_the_same_layers_agree_and_unknown_sizes_are_not_compared() -> None:
    assert layout_differences(groups((Attention(8, 128, 128), 64)), CONFIG) == []
    assert (
        layout_differences(groups((Attention(8, None, None), 40), (Attention(8, 128, 128), 24)), CONFIG) == []
    )


def test_a_layer_count_that_differs_is_named() -> None:
    stated = groups((Attention(8, 128, 128), 47), (Attention(8, 128, 128), 16))
    assert layout_differences(stated, CONFIG) == ["the layout has 63 layers (47 + 16), the config 64"]


def test_heads_sizes_and_mechanisms_that_differ_are_named() -> None:
    stated = groups((Attention(8, 128, 128), 48), (Attention(4, 128, 128), 16))
    [difference] = layout_differences(stated, CONFIG)
    assert difference.startswith("layout group 2, 16 x attention (num_kv_heads 4, head_dim 128")
    assert "16 of its layers match no layer of the config" in difference
    assert "the config's others: 16 x attention (num_kv_heads 8" in difference
    assert layout_differences(groups((MLA(512, 64), 64)), CONFIG)[0].startswith("layout group 1, 64 x mla")
    windowed = groups((SlidingWindow(8, 128, 128, 4096), 32), (Attention(8, 128, 128), 32))
    assert len(layout_differences(windowed, CONFIG)) == 1
