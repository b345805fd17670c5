"""The normalized layout: groups built from per-layer lists, bad sizes refused."""

from __future__ import annotations

import pytest

from registry.engine import (
    MLA,
    Attention,
    Compressed,
    LayerGroup,
    LayerGroups,
    LayerGroupsError,
    NoCache,
    Recurrent,
    Shared,
    SlidingWindow,
    StateTensor,
    group_layers,
    layer_groups_from_layers,
    uniform_layer_groups,
)

FULL = Attention(8, 128, 128)
LOCAL = SlidingWindow(8, 128, 128, 4096)


def test_interleaved_layers_group_in_first_seen_order() -> None:
    groups = group_layers([LOCAL, FULL, LOCAL, FULL, LOCAL])
    assert [g.mechanism for g in groups] == [LOCAL, FULL]
    assert [g.layers for g in groups] == [(0, 2, 4), (1, 3)]


def test_same_type_with_different_dimensions_are_different_groups() -> None:
    groups = group_layers([Shared(0), Shared(1), Shared(0)])
    assert [g.layers for g in groups] == [(0, 2), (1,)]


def test_mtp_layers_are_numbered_after_the_stack_and_not_counted() -> None:
    mla = MLA(512, 64)
    layout = layer_groups_from_layers("deepseek_v3", [mla] * 3, mtp=[mla])
    assert layout.num_layers == 3
    assert layout.mtp_groups[0].layers == (3,)


def test_mechanisms_read_back_by_layer_index() -> None:
    layout = layer_groups_from_layers("gemma", [LOCAL, FULL, NoCache()])
    assert layout.mechanisms() == (LOCAL, FULL, NoCache())


@pytest.mark.parametrize(
    "build",
    [
        lambda: Attention(-1, 128, 128),
        lambda: Attention(8, True, 128),  # type: ignore[arg-type]
        lambda: SlidingWindow(8, 128, 128, 1.5),  # type: ignore[arg-type]
        lambda: StateTensor("s", ()),
        lambda: StateTensor("s", (128, -2)),
        lambda: Recurrent("mamba", ()),
        lambda: Compressed("csa", 0, MLA(512, 64)),
        lambda: LayerGroup(FULL, ()),
        lambda: LayerGroup(FULL, (0, 0)),
        lambda: LayerGroup("attention", (0,)),  # type: ignore[arg-type]
        lambda: uniform_layer_groups("x", FULL, 0),
    ],
)
def test_bad_layouts_are_refused(build: object) -> None:
    with pytest.raises(LayerGroupsError):
        build()  # type: ignore[operator]


def test_a_layer_in_two_groups_is_refused() -> None:
    with pytest.raises(LayerGroupsError, match="layer 1 appears in more than one group"):
        LayerGroups("x", (LayerGroup(FULL, (0, 1)), LayerGroup(LOCAL, (1, 2))))


def test_unknown_sizes_are_allowed_and_kept() -> None:
    mechanism = Attention(None, 128, None)
    assert mechanism.num_kv_heads is None
    assert uniform_layer_groups("x", mechanism, 2).num_layers == 2


def test_mechanisms_are_hashable_values() -> None:
    state = Recurrent("mamba2", (StateTensor("conv", (3, 8), role="conv"), StateTensor("ssm", (4, 64, 128))))
    assert state == Recurrent(
        "mamba2", (StateTensor("conv", (3, 8), role="conv"), StateTensor("ssm", (4, 64, 128)))
    )
    assert len({state, FULL, LOCAL}) == 3
