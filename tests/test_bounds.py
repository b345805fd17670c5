"""The bounds on benchmark figures, pure: each bound's value from its inputs, a planted impossible
figure flagged with the slip that explains it, and a bound that cannot be computed saying why."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from registry.bounds import Bound, Figure, ModelFacts, Part, RunFacts, bounds_of
from registry.bounds.flops import decode_attention, prefill_attention
from registry.bounds.written import seconds, si, significant
from registry.engine.adapters import layer_groups_from_config
from registry.engine.layers import MLA, Attention, SlidingWindow, uniform_layer_groups

LLAMA_8B = ModelFacts(
    "models/llama-3.1-8b-instruct",
    Fraction(8 * 10**9),
    untied_embedding=128256 * 4096,
    layout=uniform_layer_groups("llama", Attention(8, 128, 128), 32),
    fields={"num_attention_heads": 32, "vocab_size": 128256, "hidden_size": 4096},
)
B200 = Part(
    "hardware/b200",
    "NVIDIA B200",
    8,
    {"fp4": Fraction(9 * 10**15), "fp8": Fraction(45 * 10**14), "bf16": Fraction(225 * 10**13)},
    Fraction(77 * 10**11),
)


def _run(*figures: Figure, **changes: object) -> RunFacts:
    run = RunFacts(
        id="benchmarks/x",
        model=LLAMA_8B,
        parts=(B200,),
        weights=("fp8",),
        activations=None,
        kv_dtype="fp8",
        scenario="offline",
        concurrency=None,
        input_tokens=None,
        output_tokens=None,
        lengths=None,
        prefix_cache="none",
        speculative=False,
        draft_tokens=None,
        kv_bytes=None,
        kv_reason="the workload states no input length",
        figures=figures,
    )
    return replace(run, **changes)  # type: ignore[arg-type]


def _figure(
    metric: str, value: Fraction | int, per: str = "system", statistic: str = "value", at: int = 0
) -> Figure:
    return Figure(at, metric, statistic, per, Fraction(value), f"{value}")


def _only(run: RunFacts, kind: str) -> Bound:
    found = [bound for bound in bounds_of(run) if bound.kind == kind]
    assert len(found) == 1, found
    return found[0]


def test_the_compute_roof_is_peak_over_two_flops_per_active_parameter() -> None:
    bound = _only(_run(_figure("output_throughput", 100_000)), "compute-roof")
    matmul = 8 * 10**9 - 128256 * 4096  # the untied input embedding is looked up, not multiplied
    assert bound.limit == Fraction(8 * 45 * 10**14, 2 * matmul)
    assert bound.reached == Fraction(100_000) / bound.limit
    assert not bound.exceeded
    assert "fp8" in bound.what and "8 x NVIDIA B200" in bound.what
    assert any(line.startswith("peak: 8 × 4.5 PFLOP/s") for line in bound.trace)


def test_an_offline_throughput_times_a_thousand_breaks_the_roof_and_names_the_k() -> None:
    real = _only(_run(_figure("output_throughput", 150_000)), "compute-roof")
    assert not real.exceeded
    bound = _only(_run(_figure("output_throughput", 150_000 * 1000)), "compute-roof")
    assert bound.exceeded
    assert bound.slip is not None and "'k' misread" in bound.slip.description


def test_a_large_systems_figure_written_per_accelerator_names_the_count() -> None:
    nvl72 = replace(B200, count=72)
    bound = _only(
        _run(_figure("output_throughput", 3_000_000, per="accelerator"), parts=(nvl72,)), "compute-roof"
    )
    assert bound.exceeded
    assert bound.slip is not None and "x72 accelerators" in bound.slip.description
    assert bound.slip.factor == 72


def test_a_ttft_below_the_prefill_floor() -> None:
    run = _run(_figure("ttft", Fraction(1, 1000), per="request"), input_tokens=32768, lengths="fixed")
    bound = _only(run, "prefill-floor")
    assert bound.limit is not None and bound.limit > Fraction(1, 1000)
    assert bound.exceeded and bound.slip is not None and "written as ms" in bound.slip.description
    real = _only(replace(run, figures=(_figure("ttft", 1, per="request"),)), "prefill-floor")
    assert not real.exceeded


def test_a_single_stream_tpot_below_the_bandwidth_floor() -> None:
    run = _run(
        _figure("tpot", Fraction(1, 10**5), per="request", statistic="mean"),
        parts=(replace(B200, count=1),),
        scenario="single-stream",
        concurrency=1,
        weights=("bf16",),
    )
    bound = _only(run, "bandwidth-roof")
    weights = (8 * 10**9 - 128256 * 4096) * 2
    assert bound.side == "floor" and bound.limit == Fraction(weights, 77 * 10**11)
    assert bound.exceeded and bound.slip is not None and "written as ms" in bound.slip.description


def test_speculative_decoding_divides_the_floor_by_the_tokens_per_step() -> None:
    figure = _figure("tpot", Fraction(1, 1000), per="request")
    plain = _only(_run(figure), "bandwidth-roof")
    drafted = _only(_run(figure, speculative=True, draft_tokens=3), "bandwidth-roof")
    assert plain.limit is not None and drafted.limit == plain.limit / 4
    unknown = _only(_run(figure, speculative=True), "bandwidth-roof")
    assert unknown.reason is not None and "draft_tokens" in unknown.reason


@pytest.mark.parametrize(
    ("changes", "kind", "reason"),
    [
        ({"parts": (replace(B200, peaks={}),)}, "compute-roof", "hardware/b200 states no dense peak at fp8"),
        ({"model": replace(LLAMA_8B, params_active=None)}, "compute-roof", "no active parameter count"),
        ({"parts": (replace(B200, bandwidth=None),)}, "bandwidth-roof", "states no memory bandwidth"),
        ({}, "bandwidth-roof", "states no concurrency"),
    ],
)
def test_a_bound_that_cannot_be_computed_says_why(changes: dict[str, object], kind: str, reason: str) -> None:
    bound = _only(_run(_figure("output_throughput", 1000), **changes), kind)
    assert not bound.computable and bound.reason is not None and reason in bound.reason
    assert not bound.exceeded and bound.reached is None


def test_the_prefill_floor_needs_the_prompts_length() -> None:
    ttft = _figure("ttft", 1, per="request", statistic="p99")
    assert "no input length" in (_only(_run(ttft), "prefill-floor").reason or "")
    capped = _only(_run(ttft, input_tokens=1000, lengths="max"), "prefill-floor")
    assert "cap" in (capped.reason or "")
    mean = _only(_run(ttft, input_tokens=1000, lengths="mean"), "prefill-floor")
    assert "mean TTFT only" in (mean.reason or "")
    warm = _only(_run(ttft, input_tokens=1000, prefix_cache="warm"), "prefill-floor")
    assert "warm prefix cache" in (warm.reason or "")
    cold = _only(_run(ttft, input_tokens=1000, prefix_cache="cold"), "prefill-floor")
    assert "cold prefix cache" in (cold.reason or "")


def test_the_compute_format_is_the_activations_when_stated() -> None:
    fp4 = _only(_run(_figure("output_throughput", 1000), weights=("nvfp4",)), "compute-roof")
    w4a8 = _only(
        _run(_figure("output_throughput", 1000), weights=("nvfp4",), activations="fp8"), "compute-roof"
    )
    assert fp4.limit is not None and w4a8.limit is not None and fp4.limit == 2 * w4a8.limit


def test_a_mixed_system_sums_its_parts() -> None:
    other = Part("hardware/h200", "NVIDIA H200", 8, {"fp8": Fraction(1979 * 10**12)}, Fraction(48 * 10**11))
    mixed = _only(_run(_figure("output_throughput", 1000), parts=(B200, other)), "compute-roof")
    alone = _only(_run(_figure("output_throughput", 1000)), "compute-roof")
    assert mixed.limit is not None and alone.limit is not None
    assert mixed.limit == alone.limit * (8 * 45 * 10**14 + 8 * 1979 * 10**12) / (8 * 45 * 10**14)


def test_consistency_per_accelerator_and_little_s_law() -> None:
    system, acc = (
        _figure("output_throughput", 80_000, at=0),
        _figure("output_throughput", 80_000, "accelerator", at=1),
    )
    bound = _only(_run(system, acc), "consistency")
    assert bound.position == 1 and bound.exceeded and bound.slip is not None and bound.slip.factor == 8
    assert not _only(_run(system, replace(acc, value=Fraction(10_000))), "consistency").exceeded
    requests = _figure("request_throughput", 100, at=0)
    latency = _figure("e2e_latency", 2, per="request", statistic="mean", at=1)
    little = _only(_run(requests, latency, concurrency=64), "consistency")
    assert little.limit == 32 and little.exceeded  # 100 req/s x 2 s = 200 in flight, not 64
    assert not _only(
        _run(replace(requests, value=Fraction(30)), latency, concurrency=64), "consistency"
    ).exceeded


def test_output_throughput_at_most_requests_times_output_length() -> None:
    output, requests = _figure("output_throughput", 10_000, at=0), _figure("request_throughput", 10, at=1)
    assert _only(_run(output, requests, output_tokens=1024), "consistency").exceeded is False
    assert _only(
        _run(replace(output, value=Fraction(10**7)), requests, output_tokens=1024), "consistency"
    ).exceeded


def test_causal_prefill_pairs_under_full_attention_windows_and_mla() -> None:
    full = replace(LLAMA_8B, layout=uniform_layer_groups("llama", Attention(8, 128, 128), 2))
    assert prefill_attention(full, 4).flops == 2 * (2 * 32 * 256) * 10  # 4 x 5 / 2 pairs a layer
    window = replace(full, layout=uniform_layer_groups("mistral", SlidingWindow(8, 128, 128, window=2), 1))
    assert prefill_attention(window, 4).flops == (2 * 32 * 256) * (3 + 2 * 2)  # 1 + 2 + 2 + 2
    mla = replace(full, layout=uniform_layer_groups("deepseek_v3", MLA(512, 64, 128, 128, 128), 1))
    assert prefill_attention(mla, 2).flops == 2 * 128 * (128 + 64 + 128) * 3


def test_an_mla_layer_with_a_window_attends_its_window_only() -> None:
    """Dots 3 Note: the three global MLA layers attend every token, the three sliding ones their 512."""
    layout = layer_groups_from_config({"model_type": "dots3_note", "num_hidden_layers": 6, "hidden_size": 64})
    dots3 = replace(LLAMA_8B, layout=layout)
    global_pair = 2 * 128 * (128 + 64 + 128)
    sliding_pair = 2 * 64 * (192 + 64 + 128)
    assert decode_attention(dots3, 10_000).flops == 3 * global_pair * 10_000 + 3 * sliding_pair * 512
    assert decode_attention(dots3, 100).flops == 3 * (global_pair + sliding_pair) * 100
    capped = 512 * 513 // 2 + (1_000 - 512) * 512
    assert (
        prefill_attention(dots3, 1_000).flops
        == 3 * global_pair * 1_000 * 1_001 // 2 + 3 * sliding_pair * capped
    )


def test_written_numbers() -> None:
    assert significant(Fraction(36384084, 1000)) == "36,400"
    assert significant(Fraction(7532, 100000)) == "0.0753"
    assert si(Fraction(45 * 10**14), "FLOP/s") == "4.5 PFLOP/s"
    assert seconds(Fraction(196, 100000)) == "1.96 ms"


def test_a_format_reads_its_family_s_peak() -> None:
    amd = Part(
        "hardware/mi355x", "AMD MI355X", 8, {"mxfp4": Fraction(10**16), "fp8": Fraction(5 * 10**15)}, None
    )
    plain = _only(_run(_figure("output_throughput", 1000), weights=("fp4",), parts=(amd,)), "compute-roof")
    e4m3 = _only(
        _run(_figure("output_throughput", 1000), weights=("fp8_e4m3",), parts=(amd,)), "compute-roof"
    )
    assert plain.limit is not None and e4m3.limit is not None and plain.limit == 2 * e4m3.limit
    assert any("dense mxfp4" in line for line in plain.trace)


def test_a_disaggregated_run_s_per_accelerator_figure_is_not_held_to_every_accelerator() -> None:
    system, acc = (
        _figure("output_throughput", 80_000, at=0),
        _figure("output_throughput", 20_000, "accelerator", at=1),
    )
    assert _only(_run(system, acc), "consistency").exceeded  # 80,000 over 8 is 10,000, not 20,000
    assert [b for b in bounds_of(_run(system, acc, disaggregated=True)) if b.kind == "consistency"] == []


def test_a_total_throughput_with_a_prefix_cache_has_no_compute_roof() -> None:
    total = _figure("total_throughput", 10**9)
    assert _only(_run(total), "compute-roof").exceeded
    cached = _only(_run(total, prefix_cache="cold"), "compute-roof")
    assert not cached.computable and "prefix cache" in (cached.reason or "")


def test_a_minimum_latency_and_a_maximum_rate_are_not_bounded() -> None:
    """MLPerf's log summaries give a Min TPOT far below any step (a real, audited result): one
    request's extreme, which its timing distorts; the central statistics stay bounded."""
    one = replace(B200, count=1)
    for statistic, computable in (("min", False), ("mean", True), ("p99", True), ("max", True)):
        figure = _figure("tpot", Fraction(1, 10**5), per="request", statistic=statistic)
        bound = _only(_run(figure, parts=(one,)), "bandwidth-roof")
        assert bound.computable is computable, statistic
    fastest = _only(_run(_figure("output_throughput", 10**12, statistic="max")), "compute-roof")
    assert not fastest.computable and "one request's extreme" in (fastest.reason or "")


def test_the_compute_roof_counts_the_whole_request_prefill_and_attention() -> None:
    figure = _figure("output_throughput", 100_000)
    bare = _only(_run(figure), "compute-roof")
    whole = _only(_run(figure, input_tokens=1024, output_tokens=1024, lengths="fixed"), "compute-roof")
    matmul = 8 * 10**9 - 128256 * 4096
    # 2,047 tokens pass the weights (the last output token is sampled, never fed back)
    attention = 32 * 2 * 32 * (128 + 128) * (2047 * 2048 // 2)  # layers x heads x sizes x causal pairs
    per_output = Fraction(2 * matmul * 2047 + attention, 1024)
    assert whole.limit == Fraction(8 * 45 * 10**14) / per_output
    assert bare.limit is not None and whole.limit < bare.limit / 2  # the prompt's share halves the roof
    assert any("input tokens per request: 1,024" in line for line in whole.trace)


def test_a_mean_output_length_from_the_accuracy_report_counts_the_output_attention() -> None:
    figure = _figure("output_throughput", 100_000)
    run = _run(figure, mean_output_tokens=Fraction("272.6"), output_source="the accuracy report")
    bound = _only(run, "compute-roof")
    matmul = 8 * 10**9 - 128256 * 4096
    mean = Fraction("272.6")
    attention = 32 * 2 * 32 * (128 + 128) * mean * (mean + 1) / 2  # Jensen: the mean request's pairs
    assert bound.limit == Fraction(8 * 45 * 10**14) / (2 * matmul + attention / mean)
    assert any("272.6 (the accuracy report)" in line for line in bound.trace)


def test_a_dataset_s_mean_prompt_with_the_accuracy_report_s_mean_output_counts_both() -> None:
    """An MLPerf record states its dataset's mean input (lengths: mean) and no output length: the roof
    counts the mean prompt's prefill beside the accuracy report's mean output, tighter than the output
    alone by about (input + output) / output."""
    figure = _figure("output_throughput", 100_000)
    mean = Fraction("294.45")
    alone = _only(_run(figure, mean_output_tokens=mean, output_source="the accuracy report"), "compute-roof")
    run = _run(figure, input_tokens=222, lengths="mean", mean_output_tokens=mean, output_source="the report")
    bound = _only(run, "compute-roof")
    matmul = 8 * 10**9 - 128256 * 4096
    request = 222 + mean - 1
    attention = 32 * 2 * 32 * (128 + 128) * request * (request + 1) / 2  # Jensen: the mean request's pairs
    assert bound.limit == Fraction(8 * 45 * 10**14) / ((2 * matmul * request + attention) / mean)
    assert alone.limit is not None and bound.limit is not None
    assert alone.limit / bound.limit > Fraction(17, 10)  # (222 + 294.45 - 1) / 294.45 = 1.75
    assert any("mean input tokens per request: 222 (the workload)" in line for line in bound.trace)


def test_an_output_cap_with_a_mean_prompt_bounds_the_output_rate_without_the_mean_output() -> None:
    """MLPerf's llama3.1-8b reports no output token count, but its rules cap the output at 128 tokens:
    each output token carries at least (mean input + cap) / cap of the weights' work."""
    figure = _figure("output_throughput", 100_000)
    bare = _only(_run(figure, input_tokens=870, lengths="mean"), "compute-roof")
    capped = _only(_run(figure, input_tokens=870, lengths="mean", output_cap=128), "compute-roof")
    matmul = 8 * 10**9 - 128256 * 4096
    assert capped.limit == Fraction(8 * 45 * 10**14) / (Fraction(2 * matmul * (870 + 128 - 1), 128))
    assert bare.limit is not None and capped.limit is not None and bare.limit / capped.limit > 7
    assert any("at most 128 (the benchmark's cap)" in line for line in capped.trace)
    fixed = _only(_run(figure, input_tokens=870, lengths="fixed", output_cap=128), "compute-roof")
    assert fixed.limit == _only(_run(figure, input_tokens=870, lengths="fixed"), "compute-roof").limit


def test_capped_lengths_count_no_prompt_and_a_window_counts_its_convex_share() -> None:
    figure = _figure("output_throughput", 100_000)
    capped = _only(_run(figure, input_tokens=1024, output_tokens=1024, lengths="max"), "compute-roof")
    bare = _only(_run(figure), "compute-roof")
    assert capped.limit == bare.limit
    window = replace(LLAMA_8B, layout=uniform_layer_groups("w", SlidingWindow(8, 128, 128, window=128), 32))
    run = _run(figure, model=window, input_tokens=1000, output_tokens=24, lengths="mean")
    bound = _only(run, "compute-roof")
    pairs = 128 * 1023 - 128 * 129 // 2  # the convex lower bound w L - w (w + 1) / 2 at L = 1,023
    matmul = 8 * 10**9 - 128256 * 4096
    per_output = Fraction(2 * matmul * 1023 + 32 * 2 * 32 * 256 * pairs, 24)
    assert bound.limit == Fraction(8 * 45 * 10**14) / per_output


def _decode_run(*figures: Figure, **changes: object) -> RunFacts:
    """Llama 3.1 8B in bf16 on one 180 GB B200 at fixed 1,024 + 1,024 tokens, 128 KiB of cache a token."""
    part = replace(B200, count=1, memory=Fraction(180 * 10**9))
    per_token = 32 * 8 * 128 * 2 * 2
    run = _run(
        *figures,
        model=replace(LLAMA_8B, params_total=Fraction(8 * 10**9)),
        parts=(part,),
        weights=("bf16",),
        kv_dtype="bf16",
        input_tokens=1024,
        output_tokens=1024,
        lengths="fixed",
        kv_bytes=Fraction(per_token * 1024),
        end_kv_bytes=Fraction(per_token * 2047),
    )
    return replace(run, **changes)  # type: ignore[arg-type]


def test_the_decode_roof_is_the_sequences_memory_holds_over_the_step_bandwidth_allows() -> None:
    bound = _only(_decode_run(_figure("output_throughput", 10_000)), "decode-roof")
    per_token = 32 * 8 * 128 * 2 * 2
    read = Fraction(per_token * (1024 + 2047), 2)  # the mean of the prompt's and the last step's cache
    sequences = (Fraction(180 * 10**9) - 16 * 10**9) / read
    step = ((8 * 10**9 - 128256 * 4096) * 2 + sequences * read) / Fraction(77 * 10**11)
    assert bound.limit == sequences / step
    assert not bound.exceeded
    assert any(line.startswith("sequences a step holds") for line in bound.trace)
    assert any("every expert resident" in line for line in bound.trace)


def test_the_decode_roof_flags_a_figure_the_compute_roof_lets_pass() -> None:
    real = _decode_run(_figure("output_throughput", 30_000))
    decode = _only(real, "decode-roof")
    assert decode.limit is not None and not decode.exceeded
    doubled = _decode_run(_figure("output_throughput", 60_000))
    assert not _only(doubled, "compute-roof").exceeded
    assert _only(doubled, "decode-roof").exceeded
    tenfold = _only(_decode_run(_figure("output_throughput", 300_000)), "decode-roof")
    assert tenfold.exceeded and tenfold.slip is not None and tenfold.slip.factor == 10


def test_the_decode_roof_takes_the_stated_concurrency_when_fewer_and_counts_draft_tokens() -> None:
    few = _only(_decode_run(_figure("output_throughput", 100), concurrency=4), "decode-roof")
    many = _only(_decode_run(_figure("output_throughput", 100)), "decode-roof")
    assert few.limit is not None and many.limit is not None and few.limit < many.limit
    drafted = _only(
        _decode_run(_figure("output_throughput", 100), speculative=True, draft_tokens=3), "decode-roof"
    )
    assert drafted.limit is not None and drafted.limit > many.limit  # up to 4 tokens a step


def test_the_decode_roof_says_what_it_lacks() -> None:
    figure = _figure("output_throughput", 100)
    warm = _only(_decode_run(figure, prefix_cache="warm"), "decode-roof")
    assert warm.reason is not None and "share their cache" in warm.reason
    mean = _only(_decode_run(figure, lengths="mean"), "decode-roof")
    assert mean.reason is not None and "a mean" in mean.reason
    full = _only(
        _decode_run(figure, model=replace(LLAMA_8B, params_total=Fraction(400 * 10**9))), "decode-roof"
    )
    assert full.reason is not None and "weights alone fill the memory" in full.reason


def test_a_format_that_may_have_been_quantized_takes_the_fastest_peak_and_the_least_bytes() -> None:
    throughput = _figure("output_throughput", 1000)
    stated = _only(_run(throughput, weights=("bf16",)), "compute-roof")
    started = _only(
        _run(throughput, weights=("bf16",), weights_assumed="int4", weights_reason="it may be quantized"),
        "compute-roof",
    )
    assert stated.limit is not None and started.limit is not None and started.limit == 4 * stated.limit
    assert "compute format: it may be quantized" in started.trace
    tpot = _figure("tpot", Fraction(1, 10**6), per="request", statistic="mean")
    floor = _only(_run(tpot, weights=("bf16",), scenario="single-stream", concurrency=1), "bandwidth-roof")
    least = _only(
        _run(
            tpot,
            weights=("bf16",),
            scenario="single-stream",
            concurrency=1,
            weights_assumed="int4",
            weights_reason="it may be quantized",
        ),
        "bandwidth-roof",
    )
    assert floor.limit is not None and least.limit is not None and floor.limit == 4 * least.limit
    assert any("stated bf16, counted at int4: it may be quantized" in line for line in least.trace)


def test_a_part_reading_its_host_s_memory_has_no_bandwidth_bound_but_keeps_its_compute_roof() -> None:
    coherent = replace(B200, memory_unbound="hardware/b200 reads its host's memory coherently")
    tpot = _figure("tpot", Fraction(1, 10**6), per="request", statistic="mean")
    floor = _only(_run(tpot, parts=(coherent,), scenario="single-stream", concurrency=1), "bandwidth-roof")
    assert floor.limit is None and "reads its host's memory coherently" in (floor.reason or "")
    roof = _only(_run(_figure("output_throughput", 1000), parts=(coherent,)), "compute-roof")
    assert roof.limit is not None
