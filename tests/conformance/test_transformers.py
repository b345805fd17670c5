"""The engine's ``transformers`` layout, byte for byte against Hugging Face transformers on the CPU.

For every ``model_type`` an adapter exists for and transformers implements, a scaled-down config of
that type (:mod:`.configs`) is read twice: by ``layer_groups_from_config`` and the engine, and by transformers,
which builds the model with random weights, runs a forward pass with the cache on, and hands back its
cache object. Every tensor in that object is summed per layer (:mod:`.measure`) and must equal the
engine's bytes for the same config, dtype, batch and sequence length, per layer, per layer group and in
total: after a prefill at a length inside every window and at one beyond every window (bf16 and fp32),
and after each single-token decode step from the first length to the second (bf16).
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

import pytest
import torch
import transformers
from huggingface_hub import constants as hub_constants
from transformers import (
    CONFIG_MAPPING,
    AutoConfig,
    AutoModel,
    AutoModelForCausalLM,
    AutoModelForImageTextToText,
    DynamicCache,
    EncoderDecoderCache,
    __version__,
)
from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

from registry.engine import CacheResult, LayerGroups, compute
from registry.engine.adapters import SUPPORTED_MODEL_TYPES, layer_groups_from_config
from registry.engine.engines.transformers import REFERENCE_CONV_FP32, REFERENCE_STATE_FP32
from registry.engine.layers import (
    MLA,
    Attention,
    Chunked,
    Compressed,
    Mechanism,
    NoCache,
    Parallel,
    Recurrent,
    SlidingWindow,
)
from registry.reading import load_json
from tests.conformance.configs import BATCH, BELOW, LONG, SHORT, WINDOW, Case, all_cases
from tests.conformance.configs_a_l import cases_a_l
from tests.conformance.configs_m_z import cases_m_z
from tests.conformance.configs_outside import cases_outside
from tests.conformance.measure import (
    buckets_and_states_bytes,
    cache_bytes,
    halves_bytes,
    module_bytes,
    returned_mems_bytes,
    returned_state_bytes,
)

pytestmark = pytest.mark.slow

TRANSFORMERS_VERSION = "5.24.0"
"""The release pinned in the ``test`` extras; the engine's bare ``transformers`` layout describes it."""

NOT_IN_TRANSFORMERS = {
    "kimi_k2": (
        "Kimi K2 checkpoints name model_type kimi_k2 and ship their own modeling code (a DeepSeek-V3 "
        "architecture); transformers has no kimi_k2 configuration or model"
    ),
    "minimax_text_01": (
        "MiniMax-Text-01 checkpoints ship their own modeling code under model_type minimax_text_01; "
        "transformers implements the architecture as model_type minimax, which is tested"
    ),
}
"""Adapter model types transformers does not implement, and why; every other one has a case."""

CASES = [*all_cases(), *cases_a_l(), *cases_m_z(), *cases_outside()]
_BY_NAME = {case.name: case for case in CASES}
DTYPES = {"bf16": torch.bfloat16, "fp32": torch.float32}
AUTO_CLASSES = {
    "causal-lm": AutoModelForCausalLM,
    "image-text-to-text": AutoModelForImageTextToText,
    "base": AutoModel,
}


def _params(cases: list[Case], decoding: bool = False) -> list[Any]:
    """One pytest param per case; a case with a known divergence (while decoding, for the decode test) is
    a strict expected failure."""
    params = []
    for case in cases:
        divergence = case.divergence or (case.decode_divergence if decoding else "")
        marks = [pytest.mark.xfail(reason=divergence, strict=True)] if divergence else []
        params.append(pytest.param(case, id=case.name, marks=marks))
    return params


def _model(case: Case, dtype: str) -> torch.nn.Module:
    return _built(case.name, dtype)


@functools.cache
def _built(name: str, dtype: str) -> torch.nn.Module:
    """The named case's model (its causal LM where there is one) with random weights, in ``dtype``, built
    once per session."""
    case = _BY_NAME[name]
    config = AutoConfig.for_model(**case.config)
    if case.decoder_only:
        config = config.get_text_config(decoder=True)
    torch.manual_seed(0)
    if case.auto_class == "mapped-class":
        mapped = getattr(transformers, MODEL_FOR_CAUSAL_LM_MAPPING_NAMES[case.model_type])
        model: torch.nn.Module = mapped._from_config(config, dtype=DTYPES[dtype])
        return model.eval()
    auto = AUTO_CLASSES[case.auto_class]
    model = auto.from_config(config, dtype=DTYPES[dtype])  # type: ignore[no-untyped-call]
    if case.cast:
        model = model.to(DTYPES[dtype])
    return model.eval()


def _tokens(count: int, seed: int) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(3, 64, (BATCH, count), generator=generator)


def _forward(case: Case, model: torch.nn.Module, ids: torch.Tensor, held: Any = None) -> Any:
    """One forward pass from ``held`` (None: a fresh start), and what then holds the state: the cache
    object, RWKV's returned ``state``, XLNet's returned ``mems`` or Reformer's ``past_buckets_states``. A
    model keeping state on its modules builds a cache it does not return (RecurrentGemma), so it is handed
    one, as ``generate`` hands it one; a model that cannot build its cache (BLT) is handed an
    ``EncoderDecoderCache`` of two empty ``DynamicCache`` objects."""
    with torch.no_grad():
        if case.held == "returned state":
            return model(input_ids=ids, state=held, use_cache=True).state
        if case.held == "returned mems":
            return model(input_ids=ids, mems=held, use_mems=True).mems
        if case.held == "buckets and states":
            return model(input_ids=ids, past_buckets_states=held, use_cache=True).past_buckets_states
        if case.held == "modules":
            cache = DynamicCache(config=model.config) if held is None else held
            model(input_ids=ids, cache=cache, use_cache=True)
            return cache
        if case.held == "handed in" and held is None:
            held = EncoderDecoderCache(DynamicCache(), DynamicCache())
        return model(input_ids=ids, cache=held, use_cache=True).cache


def _layout(case: Case) -> LayerGroups:
    """The engine's layout of the case's config as ``calc --config`` reads it: from its JSON text, as
    ``json.dumps`` writes it (a ``time_step_limit`` of ``[0.0, Infinity]`` included)."""
    text = json.dumps(case.config).encode()
    return layer_groups_from_config(load_json(text, Path(f"{case.name}.json"), non_finite=True))


def _cached_layers(layout: LayerGroups) -> list[int]:
    """The layers of ``layout`` that keep a cache, in order."""
    return [i for i, mechanism in enumerate(layout.mechanisms()) if not isinstance(mechanism, NoCache)]


def _measure(case: Case, model: torch.nn.Module, held: Any, layout: LayerGroups) -> list[int]:
    """Bytes per layer of everything that holds the state (:func:`_forward`)."""
    num_layers = layout.num_layers
    if case.held == "handed in":
        return halves_bytes(held, _cached_layers(layout), num_layers)
    if case.held == "returned state":
        return returned_state_bytes(held, num_layers)
    if case.held == "returned mems":
        return returned_mems_bytes(held, num_layers)
    if case.held == "buckets and states":
        return buckets_and_states_bytes(held, num_layers)
    measured = cache_bytes(held, num_layers)
    if case.held == "modules":
        measured = [a + b for a, b in zip(measured, module_bytes(model, num_layers), strict=True)]
    return measured


def _engine(case: Case, layout: LayerGroups, tokens: int, dtype: str) -> CacheResult:
    """The engine's ``transformers`` layout for the same config, dtype, batch and length, with no state
    dtype asked: the engine's default must be what transformers' reference path stores."""
    return compute(
        layout,
        context_tokens=tokens,
        batch=BATCH,
        kv_dtype=dtype,
        model_dtype=dtype,
        engine_layout="transformers",
    )


def assert_conforms(measured: list[int], result: CacheResult, where: str) -> None:
    """Measured bytes equal the engine's, layer by layer, group by group and in total."""
    assert result.computable, (
        f"{where}: engine could not compute: {result.not_computable or result.unsupported}"
    )
    for group in result.groups:
        name = f"{where}: {group.mechanism} layers {group.layers}"
        assert group.bytes_at_context is not None
        per_layer, rest = divmod(group.bytes_at_context, group.layer_count)
        assert rest == 0, f"{name}: {group.bytes_at_context} B do not split evenly over the group"
        assert [measured[i] for i in group.layers] == [per_layer] * group.layer_count, name
        assert sum(measured[i] for i in group.layers) == group.bytes_at_context, name
    assert sum(measured) == result.total_bytes, f"{where}: total"


@pytest.fixture(scope="module", autouse=True)
def _offline_and_pinned() -> None:
    assert hub_constants.HF_HUB_OFFLINE, "HF_HUB_OFFLINE must be set before huggingface_hub is imported"
    assert __version__ == TRANSFORMERS_VERSION, (
        "the test extras pin the transformers these rules were read at"
    )


def test_every_adapter_type_is_tested_or_excused() -> None:
    tested = {case.model_type for case in CASES}
    assert not tested & NOT_IN_TRANSFORMERS.keys()
    assert tested | NOT_IN_TRANSFORMERS.keys() == set(SUPPORTED_MODEL_TYPES)


def test_excused_types_really_are_missing_from_transformers() -> None:
    assert not [name for name in NOT_IN_TRANSFORMERS if name in CONFIG_MAPPING]


def test_cases_reach_past_every_window() -> None:
    """The long sequence overruns every window and chunk, the short one none."""
    assert SHORT < WINDOW < LONG
    for case in CASES:
        fields = {**case.config, **case.config.get("text_config", {})}
        bounds = [fields.get(name) for name in ("sliding_window", "attention_chunk_size")]
        assert all(bound is None or SHORT < bound < LONG for bound in bounds), case.name


def test_cases_state_their_reference_dtype_as_the_engine_does() -> None:
    """Each case's documented state dtype (and the transformers code it names) is the engine's default:
    fp32 for the families whose torch path computes in float32 (their state, or for a family of
    conv windows alone its windows), the model dtype for the rest."""
    for case in CASES:
        layout = layer_groups_from_config(case.config)
        variants = {g.mechanism.variant for g in layout.groups if isinstance(g.mechanism, Recurrent)}
        for variant in variants:
            fp32 = variant in REFERENCE_STATE_FP32 or variant in REFERENCE_CONV_FP32
            engine = "fp32" if fp32 else "model"
            stated = case.state or ("fp32" if variant == "kda" else None)
            assert stated == engine, f"{case.name}: {variant} state is {engine} in the engine, {stated} here"


WRITTEN_BY_TRANSFORMERS_5 = ("kimi_linear", "nemotron_h")
"""Types whose configs transformers 5 writes in another shape than the hub's: ``linear_attn_config``
flattened into ``layer_types`` and ``linear_*`` fields (kimi_linear), ``hybrid_override_pattern`` as
``layers_block_type`` names (nemotron_h)."""


@pytest.mark.parametrize("name", WRITTEN_BY_TRANSFORMERS_5)
def test_configs_written_by_transformers_5_read_as_the_hubs(name: str) -> None:
    """A config as transformers 5 writes it (``to_dict()``, what ``save_pretrained`` saves) of a model
    built from its own fields alone, without the hub's ``linear_attn_config`` or
    ``hybrid_override_pattern``, gives the same layout as the hub-shaped config the byte-exact cases
    hold."""
    case = _BY_NAME[name]
    hub_only = {"linear_attn_config", "hybrid_override_pattern"}
    own = {k: v for k, v in AutoConfig.for_model(**case.config).to_dict().items() if k not in hub_only}
    written = AutoConfig.for_model(**own).to_dict()
    assert not hub_only & written.keys(), "not the transformers 5 shape"
    read, hub = layer_groups_from_config(written), layer_groups_from_config(case.config)
    assert (read.groups, read.mtp_groups) == (hub.groups, hub.mtp_groups)


@pytest.mark.parametrize("tokens", [SHORT, LONG])
@pytest.mark.parametrize("dtype", list(DTYPES))
@pytest.mark.parametrize("case", _params(CASES))
def test_prefill_cache_matches_the_engine(case: Case, dtype: str, tokens: int) -> None:
    layout = _layout(case)
    model = _model(case, dtype)
    if case.no_bf16 and dtype == "bf16":
        with pytest.raises(RuntimeError, match="expected scalar type"):
            _forward(case, model, _tokens(tokens, seed=tokens))
        return
    measured = _measure(case, model, _forward(case, model, _tokens(tokens, seed=tokens)), layout)
    assert_conforms(measured, _engine(case, layout, tokens, dtype), f"{case.name} {dtype} t={tokens}")


def _edge_params() -> list[Any]:
    """One param per case and prefill length under :data:`SHORT` or of its own ``lengths``; a case whose
    one-token prompt transformers cannot prefill starts at two."""
    params = []
    for param in _params(CASES):
        case = param.values[0]
        for tokens in (*BELOW, *case.lengths):
            if tokens == 1 and case.no_single_token:
                continue
            params.append(pytest.param(case, tokens, id=f"{case.name}-t{tokens}", marks=param.marks))
    return params


@pytest.mark.parametrize(("case", "tokens"), _edge_params())
def test_prefill_at_every_edge_matches_the_engine(case: Case, tokens: int) -> None:
    """A prefill of each length under the decode steps' first and of the case's own lengths, in the
    dtype the decode steps run in."""
    dtype = "fp32" if case.no_bf16 else "bf16"
    layout = _layout(case)
    model = _model(case, dtype)
    measured = _measure(case, model, _forward(case, model, _tokens(tokens, seed=tokens)), layout)
    assert_conforms(measured, _engine(case, layout, tokens, dtype), f"{case.name} {dtype} t={tokens}")


def edges(mechanism: Mechanism) -> set[int]:
    """The lengths at which a layer's cache starts or stops doing something: its window (and the one
    before it, the last a transformers window keeps), its chunk, its compression ratio and twice it
    (the first window closing, then the next, with its overlap), where its hash buckets start, and the
    inputs its conv or token window keeps."""
    if isinstance(mechanism, Parallel):
        return set().union(*(edges(part) for part in mechanism.parts))
    found: set[int] = set()
    if isinstance(mechanism, SlidingWindow | MLA | Compressed) and mechanism.window:
        found |= {mechanism.window - 1, mechanism.window}
    if isinstance(mechanism, Chunked) and mechanism.chunk:
        found.add(mechanism.chunk)
    if isinstance(mechanism, Compressed) and mechanism.ratio:
        found |= {mechanism.ratio, 2 * mechanism.ratio}
    if isinstance(mechanism, Attention) and mechanism.buckets_from:
        found.add(mechanism.buckets_from)
    if isinstance(mechanism, Recurrent):
        found |= {t.shape[0] for t in mechanism.tensors if t.role in ("conv", "tokens") and t.shape[0]}
    return found


def test_every_edge_is_measured_on_both_sides() -> None:
    """For every case, each edge of its layout (:func:`edges`) is measured one token before, at and one
    token after: by a prefill (:data:`BELOW`, its own ``lengths``, :data:`SHORT` and :data:`LONG`) or
    a decode step (every length from :data:`SHORT` to :data:`LONG`); from two tokens on where
    transformers cannot prefill one."""
    for case in CASES:
        shortest = 2 if case.no_single_token else 1
        measured = {*BELOW, *case.lengths, *range(SHORT, LONG + 1)}
        layout = _layout(case)
        found = set().union(*(edges(group.mechanism) for group in layout.groups))
        missing = sorted(e for e in found for t in (e - 1, e, e + 1) if t >= shortest and t not in measured)
        assert not missing, f"{case.name}: edges {sorted(found)} are not measured around {missing}"


@pytest.mark.parametrize("case", _params(CASES, decoding=True))
def test_decode_steps_match_the_engine(case: Case) -> None:
    """After each generated token, across the window boundary: the cache ``generate`` would hold, and
    beyond every window, growing by the engine's bytes per token over each period of the layout's
    compression (every token where nothing is compressed). In fp32 where transformers cannot run bf16."""
    dtype = "fp32" if case.no_bf16 else "bf16"
    layout = _layout(case)
    model = _model(case, dtype)
    ids = _tokens(SHORT, seed=1)
    state = _forward(case, model, ids)
    held = {SHORT: sum(_measure(case, model, state, layout))}
    period = _period(layout)
    for tokens in range(SHORT + 1, LONG + 1):
        new = _tokens(1, seed=tokens)
        ids = torch.cat([ids, new], dim=1)
        state = _forward(case, model, ids if case.whole_input else new, state)
        measured = _measure(case, model, state, layout)
        result = _engine(case, layout, tokens, dtype)
        assert_conforms(measured, result, f"{case.name} decode t={tokens}")
        held[tokens] = sum(measured)
        if tokens - period >= WINDOW:
            assert result.bytes_per_token is not None
            assert held[tokens] - held[tokens - period] == BATCH * period * result.bytes_per_token, (
                f"{case.name} growth t={tokens}"
            )


def _period(layout: LayerGroups) -> int:
    """Tokens over which a layout's growth repeats: 1, or the least common multiple of its compression
    ratios (a compressed layer adds one entry per ``ratio`` tokens and buffers the tokens between)."""
    ratios = [g.mechanism.ratio for g in layout.groups if isinstance(g.mechanism, Compressed)]
    return math.lcm(1, *(ratio for ratio in ratios if ratio))
