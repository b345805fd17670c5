"""The architectural (ideal) computation per mechanism, parts, batch, unknown dimensions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from registry.engine import (
    MLA,
    Attention,
    CacheResult,
    Chunked,
    Compressed,
    Ladder,
    NoCache,
    Recurrent,
    Shared,
    SlidingWindow,
    StateTensor,
    compute,
    compute_ladder,
    layer_groups_from_layers,
    uniform_layer_groups,
)

FULL = Attention(8, 128, 128)  # 4,096 B per token per layer in bf16


def test_unequal_k_and_v_head_sizes_are_summed_not_doubled() -> None:
    layout = uniform_layer_groups("x", Attention(num_kv_heads=4, head_dim=192, v_head_dim=128), 10)
    result = compute(layout, context_tokens=1)
    assert result.bytes_per_token == 10 * 4 * (192 + 128) * 2
    assert "per token = 10 × 4 × (192 + 128) × 2 = 25,600 B = 25 KiB" in result.trace


def test_mqa_keeps_one_head() -> None:
    assert (
        compute(uniform_layer_groups("x", Attention(1, 128, 128), 2), context_tokens=1).bytes_per_token
        == 1024
    )


def test_sliding_window_stops_growing_at_the_window() -> None:
    layout = uniform_layer_groups("x", SlidingWindow(8, 128, 128, 4096), 1)
    assert compute(layout, context_tokens=1000).total_bytes == 1000 * 4096
    at_window = compute(layout, context_tokens=4096)
    beyond = compute(layout, context_tokens=100_000)
    assert beyond.total_bytes == at_window.total_bytes == 4096 * 4096
    assert beyond.window_bytes == beyond.total_bytes
    assert beyond.bytes_per_token == 0


def test_chunked_attention_keeps_the_current_chunk() -> None:
    layout = uniform_layer_groups("x", Chunked(8, 128, 128, 8192), 1)
    assert compute(layout, context_tokens=8192).total_bytes == 8192 * 4096
    assert compute(layout, context_tokens=8193).total_bytes == 1 * 4096
    assert compute(layout, context_tokens=10_000).total_bytes == (10_000 - 8192) * 4096


def test_mla_indexer_keys_add_to_the_latent() -> None:
    layout = uniform_layer_groups("deepseek_v32", MLA(512, 64, index_head_dim=128, index_n_heads=64), 61)
    result = compute(layout, context_tokens=1)
    assert result.bytes_per_token == 61 * (576 + 128) * 2
    assert "indexer keys per token = 61 × 128 × 2 = 15,616 B = 15.2 KiB" in result.trace


def test_compressed_attention_grows_by_one_entry_per_ratio_tokens() -> None:
    entry = Attention(1, 512, 0)  # shared K=V, 1,024 B per entry in bf16
    layout = uniform_layer_groups("x", Compressed("hca", 128, entry), 2)
    result = compute(layout, context_tokens=1000)
    assert result.total_bytes == 2 * 8 * 1024  # ⌈1000 / 128⌉ = 8 entries
    assert result.bytes_per_token == Fraction(2 * 1024, 128)


def test_compressed_attention_with_local_window_and_indexer() -> None:
    csa = Compressed("csa", 4, Attention(1, 512, 0), window=128, index_head_dim=128)
    result = compute(uniform_layer_groups("x", csa, 1), context_tokens=1000)
    assert result.growing_bytes == 250 * 1024 + 250 * 256
    assert result.window_bytes == 128 * 1024
    assert result.bytes_per_token == Fraction(1024 + 256, 4)


def test_recurrent_state_sums_its_tensors_and_ignores_context() -> None:
    state = Recurrent(
        "mamba2", (StateTensor("conv", (3, 4096), role="conv"), StateTensor("ssm", (64, 64, 128)))
    )
    layout = uniform_layer_groups("x", state, 4)
    small, large = (compute(layout, context_tokens=t) for t in (1, 1_000_000))
    assert small.total_bytes == large.total_bytes == 4 * (3 * 4096 + 64 * 64 * 128) * 2
    assert "fixed state = 4 × (3 × 4,096 × 2 + 64 × 64 × 128 × 2) = 4,292,608 B = 4.1 MiB" in small.trace


def test_state_dtype_is_a_separate_control() -> None:
    layout = uniform_layer_groups("x", Recurrent("kda", (StateTensor("S", (128, 128)),)), 1)
    assert compute(layout, context_tokens=1, state_dtype="fp32").total_bytes == 128 * 128 * 4
    assert compute(layout, context_tokens=1, kv_dtype="bf16").total_bytes == 128 * 128 * 2


def test_shared_and_no_cache_layers_cost_nothing() -> None:
    layout = layer_groups_from_layers("x", [FULL, Shared(0), NoCache()])
    result = compute(layout, context_tokens=10)
    assert result.total_bytes == 10 * 4096
    assert [g.bytes_at_context for g in result.groups] == [10 * 4096, 0, 0]


def test_hybrid_splits_growing_window_and_fixed_parts() -> None:
    state = Recurrent("kda", (StateTensor("S", (128, 128)),))
    layout = layer_groups_from_layers("x", [state, state, state, SlidingWindow(8, 128, 128, 1024), FULL])
    result = compute(layout, context_tokens=2048)
    assert result.growing_bytes == 2048 * 4096
    assert result.window_bytes == 1024 * 4096
    assert result.fixed_bytes == 3 * 128 * 128 * 2
    assert result.total_bytes == result.growing_bytes + result.window_bytes + result.fixed_bytes
    assert result.bytes_per_token == 4096


def test_batch_multiplies_every_part() -> None:
    layout = layer_groups_from_layers("x", [FULL, Recurrent("kda", (StateTensor("S", (2, 2)),))])
    one = compute(layout, context_tokens=100)
    eight = compute(layout, context_tokens=100, batch=8)
    assert eight.total_bytes == 8 * (one.total_bytes or 0)
    assert eight.bytes_per_token == one.bytes_per_token


def test_sub_byte_totals_round_up_to_whole_bytes() -> None:
    layout = uniform_layer_groups("x", Attention(1, 3, 3), 1)  # 6 int4 values = 3 bytes per token
    assert compute(layout, context_tokens=3, kv_dtype="int4").total_bytes == 9
    odd = uniform_layer_groups("x", Attention(1, 1, 0), 1)  # half a byte per token
    assert compute(odd, context_tokens=3, kv_dtype="int4").total_bytes == 2
    assert compute(odd, context_tokens=3, kv_dtype="int4").bytes_per_token == Fraction(1, 2)


def test_unknown_dimension_makes_the_result_not_computable_and_says_which() -> None:
    layout = layer_groups_from_layers("x", [Attention(None, 128, 128), MLA(512, None)])
    result = compute(layout, context_tokens=10)
    assert result.total_bytes is None
    assert result.bytes_per_token is None
    assert not result.computable
    assert any("num_kv_heads is unknown" in m for m in result.not_computable)
    assert any("qk_rope_head_dim is unknown" in m for m in result.not_computable)


def test_unknown_state_size_is_not_computable() -> None:
    layout = uniform_layer_groups("k3", Recurrent("kda", (StateTensor("S", (None, 128)),)), 69)
    result = compute(layout, context_tokens=10)
    assert result.fixed_bytes is None
    assert "S shape" in result.not_computable[0]


def test_state_in_model_dtype_needs_the_model_dtype_when_kv_is_quantized() -> None:
    layout = uniform_layer_groups("x", Recurrent("kda", (StateTensor("S", (4, 4)),)), 1)
    result = compute(layout, context_tokens=10, kv_dtype="fp8")
    assert "model dtype is unknown" in result.not_computable[0]
    assert compute(layout, context_tokens=10, kv_dtype="fp8", model_dtype="bf16").total_bytes == 32


def test_mtp_layers_only_when_asked() -> None:
    layout = layer_groups_from_layers("x", [FULL], mtp=[FULL])
    assert compute(layout, context_tokens=1).total_bytes == 4096
    assert compute(layout, context_tokens=1, include_mtp=True).total_bytes == 8192


@pytest.mark.parametrize(("context", "batch"), [(0, 1), (-5, 1), (10, 0), (True, 1)])
def test_context_and_batch_are_positive_whole_numbers(context: int, batch: int) -> None:
    with pytest.raises(ValueError, match="whole number"):
        compute(uniform_layer_groups("x", FULL, 1), context_tokens=context, batch=batch)


def test_multi_group_trace_sums_groups() -> None:
    layout = layer_groups_from_layers("x", [FULL, MLA(512, 64)])
    trace = compute(layout, context_tokens=2).trace
    assert "per token (all groups) = 4,096 + 1,152 = 5,248 B = 5.1 KiB" in trace


def _registry_layouts() -> list[object]:
    """The cache layout of every model record of the registry: every mechanism the records use."""
    from registry.checker.pipeline import load_file
    from registry.kinds.geometry import model_layer_groups_or_error
    from registry.kinds.records import Model
    from tests.conftest import REPO

    layouts = []
    for path in sorted((REPO / "records" / "models").glob("*.yaml")):
        loaded = load_file(REPO, path.relative_to(REPO).as_posix())
        assert isinstance(loaded, tuple) and isinstance(loaded[0], Model), path
        layout, _ = model_layer_groups_or_error(loaded[0])
        if layout is not None:
            layouts.append(layout)
    assert len(layouts) >= 40
    return layouts


def test_an_untraced_result_has_the_traced_figures_and_reasons() -> None:
    """``traced=False`` (tables of figures) leaves out only the trace: every figure, part, group and
    reason equals the traced result's, under every engine layout, KV format, context and batch,
    refusals and unknown dimensions included."""
    from dataclasses import replace

    from registry.engine import ENGINE_KEYS

    compared = untraced_refusals = 0
    for layout in _registry_layouts():
        for engine in ENGINE_KEYS:
            for kv_dtype in ("bf16", "fp8", "q4_0"):
                for tokens, batch in ((1, 1), (4_097, 3), (1_048_576, 1)):
                    settings = {
                        "context_tokens": tokens,
                        "batch": batch,
                        "kv_dtype": kv_dtype,
                        "engine_layout": engine,
                    }
                    traced = compute(layout, **settings)  # type: ignore[arg-type]
                    untraced = compute(layout, traced=False, **settings)  # type: ignore[arg-type]
                    assert traced.trace and untraced.trace == ()
                    assert all(group.trace == () for group in untraced.groups)
                    expected = replace(
                        traced, trace=(), groups=tuple(replace(g, trace=()) for g in traced.groups)
                    )
                    assert untraced == expected, (layout, settings)
                    compared += 1
                    untraced_refusals += untraced.total_bytes is None
    assert compared > 1000 and untraced_refusals > 0  # the refusals' reasons were compared too


def _boundaries(layout: object) -> list[int]:
    """Contexts where figures turn: block and padding edges, and either side of every window and chunk."""
    contexts = {1, 16, 17, 63, 64, 65, 255, 256, 257, 4_096, 4_097, 131_072, 1_048_576}
    for group in (*layout.groups, *layout.mtp_groups):  # type: ignore[attr-defined]
        for name in ("window", "chunk"):
            size = getattr(group.mechanism, name, None)
            if isinstance(size, int):
                contexts |= {size - 1, size, size + 1, size + 512, 2 * size + 1}
    return sorted(c for c in contexts if c >= 1)


def test_a_ladder_gives_what_computing_each_context_gives() -> None:
    """:func:`compute_ladder` plans each group once for several contexts; its results are exactly
    :func:`compute`'s untraced ones at each context, in order, for every real layout under every engine
    layout and format, with batches, multi-token-prediction layers and refusals."""
    from registry.engine import ENGINE_KEYS

    # Entries of 19.125 B and 57.375 B in q4_0: each group's bytes are rounded up on their own.
    odd_sizes = [Attention(1, 17, 17), SlidingWindow(1, 17, 17, 64), Attention(3, 17, 17)]
    odd = layer_groups_from_layers("odd", odd_sizes)
    compared = refused = 0
    for layout in [*_registry_layouts(), odd]:
        contexts = _boundaries(layout)
        for engine in (*ENGINE_KEYS, "transformers@5.14"):
            for kv_dtype in ("bf16", "fp8", "q8_0", "q4_0"):
                for batch, include_mtp in ((1, False), (3, True)):
                    settings = {
                        "batch": batch,
                        "kv_dtype": kv_dtype,
                        "engine_layout": engine,
                        "include_mtp": include_mtp,
                    }
                    ladder = compute_ladder(layout, contexts, **settings)  # type: ignore[arg-type]
                    one_by_one = [
                        _figures(compute(layout, context_tokens=t, traced=False, **settings))  # type: ignore[arg-type]
                        for t in contexts
                    ]
                    assert ladder.contexts == tuple(contexts)
                    assert [_rung(ladder, i) for i in range(len(contexts))] == one_by_one, (
                        layout.model_type,  # type: ignore[attr-defined]
                        settings,
                    )
                    compared += len(contexts)
                    refused += ladder.total_bytes.count(None)
    assert compared > 50_000 and refused > 0


_PER_CONTEXT = ("total_bytes", "growing_bytes", "window_bytes", "fixed_bytes", "bytes_per_token")
_ONCE = ("model_type", "engine_layout", "batch", "kv_dtype", "state_dtype", "steady_state_bytes_per_token")
_ONCE += ("not_computable", "unsupported", "computable")


def _figures(result: CacheResult) -> dict[str, object]:
    """What a ladder holds of a single context's result: everything but the per-group split."""
    return {name: getattr(result, name) for name in (*_ONCE, *_PER_CONTEXT, "context_tokens")}


def _rung(ladder: Ladder, index: int) -> dict[str, object]:
    figures = {name: getattr(ladder, name) for name in _ONCE}
    figures |= {name: getattr(ladder, name)[index] for name in _PER_CONTEXT}
    return figures | {"context_tokens": ladder.contexts[index]}


@pytest.mark.parametrize(("contexts", "batch"), [((4096, 0), 1), ((-5,), 1), ((10,), 0), ((True,), 1)])
def test_a_ladder_takes_positive_whole_numbers(contexts: tuple[int, ...], batch: int) -> None:
    with pytest.raises(ValueError, match="whole number"):
        compute_ladder(uniform_layer_groups("x", FULL, 1), contexts, batch=batch)


def test_a_ladder_of_a_state_in_the_model_dtype_takes_it() -> None:
    """The formats reach every context's plan: a recurrent state stored in the model dtype is not
    computable from a quantized KV format alone, and is once the model dtype is given."""
    layout = uniform_layer_groups("x", Recurrent("mamba2", (StateTensor("ssm", (8, 64, 128)),)), 2)
    assert compute_ladder(layout, (1, 1000), kv_dtype="fp8").total_bytes == (None, None)
    given = compute_ladder(layout, (1, 1000), kv_dtype="fp8", model_dtype="bf16")
    assert given.total_bytes == (2 * 8 * 64 * 128 * 2,) * 2
