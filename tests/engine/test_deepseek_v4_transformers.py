"""DeepSeek-V4 read from its configs (the hub's ``compress_ratios`` and transformers 5's ``layer_types``),
and its CSA and HCA layers under the ``transformers`` layout against figures worked out by hand from
transformers 5.24.0's ``modeling_deepseek_v4.py``:

- ``DeepseekV4HCACache.update``: the last ``sliding_window − 1`` tokens of one ``head_dim`` vector that
  is both key and value (``self.values = self.keys``);
- ``store_compression_weights`` / ``update_compressor_states``: ``⌊t / rate⌋`` compressed entries of
  ``head_dim`` values, and the ``t mod rate`` open tokens' projected values and gates, ``coff × head_dim``
  each (``coff`` 2 for CSA's ``kv_proj`` / ``gate_proj``, 1 for HCA's);
- ``DeepseekV4CSACache.update_overlap_state``: once a window has closed, the last window's first series,
  ``rate × head_dim`` values and as many float32 gates (``chunk_gate`` plus the float32 ``position_bias``);
- ``DeepseekV4Indexer``: the same compressor state at ``index_head_dim`` on CSA layers.
"""

from __future__ import annotations

import json
from pathlib import Path

from registry.engine import CacheResult, LayerGroups, compute
from registry.engine.adapters import layer_groups_from_config
from registry.engine.layers import MLA, Compressed, SlidingWindow, uniform_layer_groups

CONFIGS = Path(__file__).parent / "configs"
LATENT = MLA(kv_lora_rank=448, qk_rope_head_dim=64)
CSA = Compressed("csa", 4, LATENT, window=128, index_head_dim=128)
HCA = Compressed("hca", 128, LATENT, window=128)


def _transformers(layout: LayerGroups, tokens: int, dtype: str = "bf16") -> CacheResult:
    return compute(layout, context_tokens=tokens, engine_layout="transformers", kv_dtype=dtype)


def test_the_pro_config_is_30_csa_and_31_hca_layers_as_the_model_record_says() -> None:
    config = json.loads((CONFIGS / "deepseek-v4-pro-nvfp4.json").read_text(encoding="utf-8"))
    layout = layer_groups_from_config(config)
    groups = {group.mechanism: group.layers for group in layout.groups}
    assert groups[CSA] == tuple(range(2, 61, 2))
    assert groups[HCA] == (0, 1, *range(3, 60, 2))
    assert layout.num_layers == 61
    # compress_ratios' 62nd entry, 0, is the multi-token-prediction layer: a sliding-window layer
    # (its one vector also stated as the latent, for the layouts that store it once)
    sliding = SlidingWindow(1, 512, 512, 128, latent=LATENT)
    assert [(g.mechanism, g.layers) for g in layout.mtp_groups] == [(sliding, (61,))]


def test_transformers_5_layer_types_and_rates_read_as_transformers_reads_them() -> None:
    config = {
        "model_type": "deepseek_v4",
        "num_hidden_layers": 3,
        "head_dim": 24,
        "partial_rotary_factor": 1 / 3,
        "sliding_window": 8,
        "index_head_dim": 12,
        "layer_types": ["sliding_attention", "compressed_sparse_attention", "heavily_compressed_attention"],
        "compress_rates": {"compressed_sparse_attention": 4, "heavily_compressed_attention": 8},
    }
    latent = MLA(kv_lora_rank=16, qk_rope_head_dim=8)
    assert [g.mechanism for g in layer_groups_from_config(config).groups] == [
        SlidingWindow(1, 24, 24, 8, latent=latent),
        Compressed("csa", 4, latent, window=8, index_head_dim=12),
        Compressed("hca", 8, latent, window=8),
    ]
    # the scalar overrides fold in over the dict, as DeepseekV4Config.__post_init__ does
    overridden = layer_groups_from_config({**config, "compress_rate_hca": 16}).groups[2].mechanism
    assert isinstance(overridden, Compressed) and overridden.ratio == 16


def test_without_kinds_the_class_default_pattern_applies() -> None:
    # two HCA layers, then "compressed_sparse_attention" if i % 2 else HCA for i in range(n - 2)
    layout = layer_groups_from_config({"model_type": "deepseek_v4", "num_hidden_layers": 5})
    assert [(g.mechanism, g.layers) for g in layout.groups] == [(HCA, (0, 1, 2, 4)), (CSA, (3,))]
    assert "default" in " ".join(layout.notes)


def test_a_csa_layer_at_1001_tokens_in_bf16() -> None:
    # local window: min(1001, 127) = 127 × 512 × 2 (one K = V tensor) = 130,048
    window = 127 * 512 * 2
    # compressed: ⌊1001 / 4⌋ = 250 entries × 512 × 2 = 256,000
    entries = 250 * 512 * 2
    # open window: 1001 mod 4 = 1 token × (values + gates) 2 × 2 × 512 × 2 = 4,096
    open_tokens = 1 * 2 * 2 * 512 * 2
    # overlap: 4 tokens × 512 × (2 + 4) = 12,288
    overlap = 4 * 512 * (2 + 4)
    # indexer: 250 × 128 × 2 = 64,000; 1 × 2 × 2 × 128 × 2 = 1,024; 4 × 128 × (2 + 4) = 3,072
    indexer = 250 * 128 * 2 + 1 * 2 * 2 * 128 * 2 + 4 * 128 * 6
    result = _transformers(uniform_layer_groups("deepseek_v4", CSA, 1), 1001)
    assert result.total_bytes == window + entries + open_tokens + overlap + indexer == 470_528
    # growth: 512 × 2 / 4 + 128 × 2 / 4 = 256 + 64
    assert result.bytes_per_token == 320


def test_an_hca_layer_at_1001_tokens_in_fp32() -> None:
    # window 127 × 512 × 4; ⌊1001 / 128⌋ = 7 entries × 512 × 4; 1001 mod 128 = 105 open tokens × 2 × 512 × 4
    expected = 127 * 512 * 4 + 7 * 512 * 4 + 105 * 2 * 512 * 4
    result = _transformers(uniform_layer_groups("deepseek_v4", HCA, 1), 1001, dtype="fp32")
    assert result.total_bytes == expected == 704_512
    assert result.bytes_per_token == 16


def test_before_a_window_closes_there_is_no_entry_and_no_overlap() -> None:
    # t = 3: 3 window tokens × 1,024; 3 open tokens × (2,048 + 512) B of compressor and indexer state
    result = _transformers(uniform_layer_groups("deepseek_v4", CSA, 1), 3)
    assert result.total_bytes == 3 * 1024 + 3 * (2 * 2 * 512 * 2 + 2 * 2 * 128 * 2)


def test_older_pins_and_other_shapes_are_refused_with_a_reason() -> None:
    layout = uniform_layer_groups("deepseek_v4", CSA, 1)
    old = compute(layout, context_tokens=10, engine_layout="transformers@5.14", kv_dtype="bf16")
    assert "read at 5.24.0" in old.unsupported[0]
    unnamed = uniform_layer_groups("x", Compressed("c8", 8, LATENT, window=128), 1)
    assert "csa or hca" in _transformers(unnamed, 10).unsupported[0]
    blind = uniform_layer_groups("x", Compressed("csa", 4, LATENT, window=128), 1)
    assert "index_head_dim" in _transformers(blind, 10).unsupported[0]
