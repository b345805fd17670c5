"""A model's stated layer groups held against the layer groups its config gives.

A model record may state its ``layout`` beside its ``config``; the stated layout then wins, so a layout
that disagrees with the config (47 + 16 layers for a 64-layer config, 8 KV heads where the config has 4)
would silently change every figure about the model. :func:`layout_differences` says where they part:
the layer count first, then each stated group whose mechanism and dimensions no layer of the config has,
or has fewer times. A dimension the layout leaves unknown (``None``) is not compared: the config may
know what the stated layout does not.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields, is_dataclass

from registry.engine.layers import LayerGroups, Mechanism


def _agrees(stated: Mechanism, derived: Mechanism) -> bool:
    """Same mechanism, and every dimension the stated one knows equal to the derived one's."""
    if type(stated) is not type(derived) or not is_dataclass(stated):
        return False
    for field in fields(stated):
        mine, theirs = getattr(stated, field.name), getattr(derived, field.name)
        if mine is None:
            continue
        if isinstance(mine, tuple) and mine and is_dataclass(mine[0]):
            if len(mine) != len(theirs) or not all(map(_agrees, mine, theirs)):
                return False
        elif mine != theirs:
            return False
    return True


def describe(mechanism: Mechanism) -> str:
    """``attention (num_kv_heads 8, head_dim 128, v_head_dim 128)``: the kind and its known sizes."""
    sizes = [
        f"{field.name} {value}"
        for field in fields(mechanism)
        if isinstance(value := getattr(mechanism, field.name), int) and not isinstance(value, bool)
    ]
    return f"{mechanism.kind} ({', '.join(sizes)})" if sizes else mechanism.kind


def layout_differences(stated: LayerGroups, derived: LayerGroups) -> list[str]:
    """Where ``stated`` and the config's ``derived`` layer groups disagree, one sentence each; ``[]``
    when every stated layer has a layer of the config with the same mechanism and dimensions."""
    stated_layers = sum(group.count for group in stated.groups)
    derived_layers = sum(group.count for group in derived.groups)
    if stated_layers != derived_layers:
        counts = " + ".join(str(group.count) for group in stated.groups)
        return [f"the layout has {stated_layers} layers ({counts}), the config {derived_layers}"]
    left: Counter[Mechanism] = Counter()
    for group in derived.groups:
        left[group.mechanism] += group.count
    found = []
    for position, group in enumerate(stated.groups):
        needed = group.count
        for mechanism in list(left):
            if needed and _agrees(group.mechanism, mechanism):
                taken = min(needed, left[mechanism])
                left[mechanism] -= taken
                needed -= taken
        if needed:
            config_side = "; ".join(f"{count} x {describe(m)}" for m, count in left.items() if count)
            found.append(
                f"layout group {position + 1}, {group.count} x {describe(group.mechanism)}: "
                f"{needed} of its layers match no layer of the config"
                + (f" (the config's others: {config_side})" if config_side else "")
            )
    return found
