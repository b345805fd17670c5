"""Run changes: the right layout under the wrong conditions (another dtype, the ideal layout where an
engine keeps scales or rounds to blocks, 128K read as 128,000 tokens)."""

from __future__ import annotations

from dataclasses import replace

from registry.engine.dtypes import get_dtype
from registry.engine.layers import MLA, Recurrent
from registry.engine.misapply.situation import Change, Side, mechanism_kinds, with_run


def at_kv_dtype(name: str) -> Change:
    """The same cache at ``name``'s bytes per value; skipped when the run's dtype has the same width."""

    def change(side: Side) -> Side | None:
        if get_dtype(side.run.kv_dtype).bytes_per_element == get_dtype(name).bytes_per_element:
            return None
        return with_run(side, replace(side.run, kv_dtype=name))

    return change


def at_state_dtype(name: str) -> Change:
    """The recurrent state stored in ``name`` instead of the run's (or the engine's default) dtype."""

    def change(side: Side) -> Side | None:
        if Recurrent not in mechanism_kinds(side.layout):
            return None
        return with_run(side, replace(side.run, state_dtype=name))

    return change


def fp8_mla_one_byte(side: Side) -> Side | None:
    """An fp8 MLA cache under the ideal layout (1 byte a value) where the engine keeps a wider record."""
    if MLA not in mechanism_kinds(side.layout) or not side.run.kv_dtype.startswith("fp8"):
        return None
    return with_run(side, replace(side.run, engine_layout="ideal"))


def engine_ignored(side: Side) -> Side | None:
    """The architectural minimum where the engine rounds to blocks, pads or keeps extra."""
    return with_run(side, replace(side.run, engine_layout="ideal"))


_PAYLOAD = {"q8_0": "int8", "q4_0": "int4", "q4_k": "int4", "nvfp4": "fp4", "mxfp4": "fp4"}
"""Block formats and the plain format of their values alone, without the shared scales."""


def scales_ignored(side: Side) -> Side | None:
    """A block format counted at its payload width alone (``q8_0`` as 1 byte a value, not 34/32)."""
    payload = _PAYLOAD.get(side.run.kv_dtype)
    return (
        None
        if payload is None
        else with_run(side, replace(side.run, kv_dtype=payload, engine_layout="ideal"))
    )


def context_k_as_thousand(side: Side) -> Side | None:
    """The context ``nK`` = ``n x 1,024`` tokens computed as ``n x 1,000``."""
    t = side.run.context_tokens
    return None if t % 1024 else with_run(side, replace(side.run, context_tokens=t // 1024 * 1000))
