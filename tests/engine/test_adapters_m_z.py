"""Adapters for causal-LM model types m to z: class defaults for absent fields, each class's layer rule,
and the fields a class reads under its own names. (Byte-exactness against transformers is held by the
conformance tests; these hold the rules on configs that leave fields out, which those do not.)"""

from __future__ import annotations

from typing import Any

import pytest

from registry.engine.adapters import ConfigFieldError, ConfigValueError, layer_groups_from_config
from registry.engine.layers import (
    MLA,
    Attention,
    LayerGroups,
    Parallel,
    Recurrent,
    SlidingWindow,
    StateTensor,
)


def _config(model_type: str, **fields: Any) -> dict[str, Any]:
    return {
        "model_type": model_type,
        "num_hidden_layers": 4,
        "hidden_size": 64,
        "num_attention_heads": 4,
        **fields,
    }


def _mechanisms(layout: LayerGroups) -> list[object]:
    """One mechanism per layer, in layer order."""
    per_layer: dict[int, object] = {}
    for group in layout.groups:
        per_layer.update(dict.fromkeys(group.layers, group.mechanism))
    return [per_layer[i] for i in range(layout.num_layers)]


@pytest.mark.parametrize(
    ("model_type", "kv_heads", "size", "source"),
    [
        ("seed_oss", 8, 128, "SeedOssConfig"),
        ("solar_open", 8, 128, "SolarOpenConfig"),
        ("mellum", 4, 128, "MellumConfig"),
        ("ministral3", 8, 128, "Ministral3Config"),
    ],
)
def test_absent_head_fields_take_the_class_defaults_not_mha(
    model_type: str, kv_heads: int, size: int, source: str
) -> None:
    layout = layer_groups_from_config(_config(model_type))
    assert {g.mechanism for g in layout.groups} == {Attention(kv_heads, size, size)}
    assert any(source in note and "num_key_value_heads" in note for note in layout.notes)


def test_a_default_the_adapter_does_not_read_adds_no_note() -> None:
    layout = layer_groups_from_config(_config("mellum", num_key_value_heads=2, head_dim=16))
    assert not any("sliding_window" in note for note in layout.notes)


def test_null_kv_heads_is_mha_even_where_the_class_default_is_gqa() -> None:
    layout = layer_groups_from_config(_config("seed_oss", num_key_value_heads=None, head_dim=16))
    assert {g.mechanism for g in layout.groups} == {Attention(4, 16, 16)}


def test_ministral_without_the_key_slides_every_layer_at_the_class_default() -> None:
    layout = layer_groups_from_config(_config("ministral", num_key_value_heads=2))
    assert {g.mechanism for g in layout.groups} == {SlidingWindow(2, 16, 16, 4096)}
    layout = layer_groups_from_config(_config("ministral", num_key_value_heads=2, sliding_window=None))
    assert {g.mechanism for g in layout.groups} == {Attention(2, 16, 16)}


def test_olmo3_and_vaultgemma_rules() -> None:
    olmo3 = _mechanisms(layer_groups_from_config(_config("olmo3", num_hidden_layers=8)))
    assert [type(m).__name__ for m in olmo3] == [*["SlidingWindow"] * 3, "Attention"] * 2
    vault = _mechanisms(layer_groups_from_config(_config("vaultgemma")))
    assert vault == [SlidingWindow(4, 256, 256, 4096), Attention(4, 256, 256)] * 2


def test_smollm3_slides_only_the_nope_layers_and_only_when_switched_on() -> None:
    on = _config("smollm3", num_key_value_heads=2, use_sliding_window=True, sliding_window=512)
    kinds = [m.kind for m in _mechanisms(layer_groups_from_config(on))]  # type: ignore[attr-defined]
    assert kinds == ["attention", "attention", "attention", "sliding-window"]
    off = {**on, "use_sliding_window": False}
    assert {g.mechanism.kind for g in layer_groups_from_config(off).groups} == {"attention"}


def test_mimo_v2_flash_doubles_kv_heads_on_window_layers_and_reads_the_hub_window() -> None:
    config = _config("mimo_v2_flash", num_hidden_layers=7, num_key_value_heads=4, sliding_window_size=128)
    layers = _mechanisms(layer_groups_from_config(config))
    assert layers[0] == layers[5] == Attention(4, 192, 128)
    assert layers[1] == layers[6] == SlidingWindow(8, 192, 128, 129)


def test_modernbert_decoder_window_is_half_of_local_attention() -> None:
    layers = _mechanisms(layer_groups_from_config(_config("modernbert-decoder", local_attention=256)))
    full, window = Attention(4, 16, 16), SlidingWindow(4, 16, 16, 128)
    assert layers == [full, window, window, full]


def test_modernbert_decoder_reads_sliding_window_where_the_config_states_it() -> None:
    """transformers sets sliding_window to half of local_attention, then lets the config's own win."""
    config = _config("modernbert-decoder", local_attention=128, sliding_window=100)
    layers = _mechanisms(layer_groups_from_config(config))
    assert layers[1] == SlidingWindow(4, 16, 16, 100)


def test_modernbert_decoder_refuses_a_null_window_where_layers_slide() -> None:
    config = _config("modernbert-decoder", local_attention=128, sliding_window=None)
    with pytest.raises(ConfigValueError, match="'sliding_window' is null but layers slide"):
        layer_groups_from_config(config)


def _neo(**fields: Any) -> dict[str, Any]:
    return {
        "model_type": "gpt_neo",
        "num_layers": 2,
        "hidden_size": 64,
        "num_heads": 4,
        "window_size": 8,
        **fields,
    }


def test_gpt_neo_takes_attention_layers_as_written() -> None:
    """A scaled-down config keeps its parent's attention_types (24 layers): transformers reads the
    attention_layers, so does the adapter, and says it passed over the other."""
    config = _neo(attention_layers=["global", "local"], attention_types=[[["global", "local"], 12]])
    layout = layer_groups_from_config(config)
    assert _mechanisms(layout) == [Attention(4, 16, 16), SlidingWindow(4, 16, 16, 8, cached_whole=True)]
    assert any("expands to 24 layers" in note for note in layout.notes)


def test_gpt_neo_expands_attention_types_without_attention_layers() -> None:
    layout = layer_groups_from_config(_neo(attention_types=[[["local", "global"], 1]]))
    assert _mechanisms(layout) == [SlidingWindow(4, 16, 16, 8, cached_whole=True), Attention(4, 16, 16)]
    with pytest.raises(ConfigFieldError, match="'attention_types' expands to 24 layers, not 2"):
        layer_groups_from_config(_neo())


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"attention_layers": ["local", "global"], "attention_types": [[["global", "local"], 12]]},
            r"'attention_layers\[0\]' is 'local' but attention_types expands to 'global' for that layer",
        ),
        ({"attention_layers": ["global"]}, "'attention_layers' lists 1 layers but num_layers is 2"),
        ({"attention_layers": ["global", "sparse"]}, r"'attention_layers\[1\]' is 'sparse'"),
    ],
)
def test_gpt_neo_refuses_attention_layers_that_contradict(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigValueError, match=message) as raised:
        layer_groups_from_config(_neo(**fields))
    assert raised.value.path[0] == "attention_layers"


@pytest.mark.parametrize("model_type", ["persimmon", "opt", "stablelm"])
def test_classes_that_derive_the_head_size_ignore_an_explicit_head_dim(model_type: str) -> None:
    layout = layer_groups_from_config(_config(model_type, head_dim=128, num_key_value_heads=4))
    assert {g.mechanism for g in layout.groups} == {Attention(4, 16, 16)}
    assert any("head_dim is ignored" in note for note in layout.notes)


def test_xglm_and_mpt_read_their_own_field_names() -> None:
    xglm = {"model_type": "xglm", "num_layers": 3, "d_model": 64, "attention_heads": 8}
    assert layer_groups_from_config(xglm).groups[0].mechanism == Attention(8, 8, 8)
    mpt = {"model_type": "mpt", "n_layers": 3, "d_model": 64, "n_heads": 2}
    layout = layer_groups_from_config(mpt)
    assert (layout.num_layers, layout.groups[0].mechanism) == (3, Attention(2, 32, 32))
    with pytest.raises(ConfigFieldError, match="'n_layers'"):
        layer_groups_from_config({"model_type": "mpt", "d_model": 64, "n_heads": 2})


def test_minicpm3_is_mla_with_its_class_defaults() -> None:
    layout = layer_groups_from_config(_config("minicpm3"))
    assert layout.groups[0].mechanism == MLA(
        kv_lora_rank=256, qk_rope_head_dim=32, num_heads=4, qk_nope_head_dim=64, v_head_dim=16
    )


def test_mamba_reads_a_stated_intermediate_size_over_expand() -> None:
    stated = layer_groups_from_config(_config("mamba", intermediate_size=96, state_size=8, conv_kernel=4))
    derived = layer_groups_from_config(_config("mamba", expand=1.5, state_size=8, conv_kernel=4))
    assert stated.groups[0].mechanism == Recurrent(
        "mamba", (StateTensor("conv", (3, 96), role="conv"), StateTensor("ssm", (96, 8)))
    )
    assert isinstance(derived.groups[0].mechanism, Recurrent)
    assert derived.groups[0].mechanism.tensors[1].shape == (96, 8)


def test_mamba2_conv_covers_the_groups_state() -> None:
    config = _config("mamba2", num_heads=8, head_dim=16, n_groups=2, state_size=4, conv_kernel=4)
    state = layer_groups_from_config(config).groups[0].mechanism
    assert state == Recurrent(
        "mamba2", (StateTensor("conv", (3, 128 + 16), role="conv"), StateTensor("ssm", (8, 16, 4)))
    )


def test_a_bad_expand_is_a_value_error_naming_it() -> None:
    with pytest.raises(ConfigValueError, match="'expand'"):
        layer_groups_from_config(_config("mamba2", expand="two"))


def test_moshi_without_the_key_slides_every_layer_at_3000() -> None:
    layout = layer_groups_from_config(_config("moshi"))
    assert {g.mechanism for g in layout.groups} == {SlidingWindow(4, 16, 16, 3000)}
    assert any("MoshiConfig default 3000" in note for note in layout.notes)


def test_mllama_cross_attention_layers_keep_no_per_token_cache_and_say_why() -> None:
    text = {
        "model_type": "mllama_text_model",
        "num_hidden_layers": 6,
        "hidden_size": 64,
        "num_attention_heads": 4,
    }
    layout = layer_groups_from_config(
        {"model_type": "mllama", "text_config": {**text, "cross_attention_layers": [3]}}
    )
    assert [m.kind for m in _mechanisms(layout)] == ["attention"] * 3 + ["no-cache"] + ["attention"] * 2  # type: ignore[attr-defined]
    assert layout.groups[0].mechanism == Attention(8, 16, 16)
    assert any("cross-attention" in note for note in layout.notes)


def test_moss_transcribe_diarize_reads_only_its_qwen3_decoder() -> None:
    text = {"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "num_key_value_heads": 2}
    layout = layer_groups_from_config({"model_type": "moss_transcribe_diarize", "text_config": text})
    assert {g.mechanism for g in layout.groups} == {Attention(2, 16, 16)}
    other = {"model_type": "moss_transcribe_diarize", "text_config": {**text, "model_type": "llama"}}
    with pytest.raises(ConfigFieldError, match=r"text_config\.model_type"):
        layer_groups_from_config(other)


def test_mimo_v2_flash_notes_a_hub_pattern_transformers_does_not_read() -> None:
    base = _config("mimo_v2_flash", num_hidden_layers=7, num_key_value_heads=4)
    same = layer_groups_from_config({**base, "hybrid_layer_pattern": [0, 1, 1, 1, 1, 0, 1]})
    other = layer_groups_from_config({**base, "hybrid_layer_pattern": [0, 1, 1, 0, 1, 1, 0]})
    assert not any("hybrid_layer_pattern" in note for note in same.notes)
    assert any("hybrid_layer_pattern" in note for note in other.notes)


def test_zamba2_hybrid_layers_hold_attention_beside_the_mamba2_state() -> None:
    config = _config(
        "zamba2",
        hidden_size=64,
        num_attention_heads=4,
        num_key_value_heads=2,
        layers_block_type=["mamba", "hybrid", "mamba", "hybrid"],
        n_mamba_heads=4,
        mamba_ngroups=1,
        mamba_d_state=8,
        mamba_d_conv=4,
    )
    layers = _mechanisms(layer_groups_from_config(config))
    mamba = Recurrent(
        "mamba2", (StateTensor("conv", (3, 128 + 16), role="conv"), StateTensor("ssm", (4, 32, 8)))
    )
    assert layers[0] == layers[2] == mamba
    assert layers[1] == layers[3] == Parallel((Attention(2, 32, 32), mamba))


def test_zamba2_without_a_list_needs_the_class_pattern_length() -> None:
    with pytest.raises(ConfigFieldError, match="54 layers"):
        layer_groups_from_config(_config("zamba2"))
    layout = layer_groups_from_config(_config("zamba2", num_hidden_layers=54))
    assert sum(g.count for g in layout.groups if isinstance(g.mechanism, Parallel)) == 9


def test_zamba_default_pattern_puts_the_shared_block_on_layer_2_then_every_sixth() -> None:
    layout = layer_groups_from_config(_config("zamba", num_hidden_layers=14))
    hybrid = [g.layers for g in layout.groups if isinstance(g.mechanism, Parallel)]
    assert hybrid == [(2, 7, 13)]


def test_zaya_every_layer_is_attention_beside_the_cca_states() -> None:
    config = _config("zaya", layer_types=["hybrid", "hybrid_sliding"], num_hidden_layers=2, sliding_window=64)
    full, sliding = _mechanisms(layer_groups_from_config(config))
    state = Recurrent("cca", (StateTensor("qk-conv", (2, 6 * 128)), StateTensor("delayed-v", (128,))))
    assert full == Parallel((Attention(2, 128, 128), state))
    assert sliding == Parallel((SlidingWindow(2, 128, 128, 64), state))


def test_musicgen_melody_reads_the_composite_configs_decoder() -> None:
    decoder = {"num_hidden_layers": 3, "hidden_size": 64, "num_attention_heads": 8, "num_codebooks": 4}
    layout = layer_groups_from_config(
        {
            "model_type": "musicgen_melody",
            "decoder": decoder,
            "text_encoder": {"model_type": "t5", "d_model": 16},
        }
    )
    assert (layout.model_type, layout.num_layers) == ("musicgen_melody", 3)
    assert {g.mechanism for g in layout.groups} == {Attention(8, 8, 8)}
    assert any("decoder config" in note for note in layout.notes)
