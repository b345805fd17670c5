"""Every causal-LM architecture transformers ships has an adapter or a stated reason, each adapter's listed
mechanisms are the ones it lays out, and the site's list of architectures prints them all."""

from __future__ import annotations

import html
from collections import defaultdict

from transformers import __version__ as transformers_version
from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

from registry.engine.adapters import (
    NO_ADAPTER,
    SUPPORTED_MODEL_TYPES,
    adapter_of,
    coverage,
    layer_groups_from_config,
)
from registry.engine.adapters.coverage import ADAPTER_MECHANISMS, mechanism_labels
from registry.engine.layers import Attention, Parallel, Recurrent, StateTensor
from registry.site._reference_adapters import render_adapters_page
from tests.conformance.configs import all_cases
from tests.conformance.configs_a_l import cases_a_l
from tests.conformance.configs_m_z import cases_m_z
from tests.conformance.configs_outside import cases_outside

CASES = [*all_cases(), *cases_a_l(), *cases_m_z(), *cases_outside()]


def test_the_mapping_is_the_release_the_rules_were_read_at() -> None:
    assert transformers_version == "5.24.0"


def test_every_causal_lm_model_type_has_an_adapter_or_a_reason() -> None:
    missing = [
        name
        for name in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
        if name not in SUPPORTED_MODEL_TYPES and name not in NO_ADAPTER
    ]
    assert missing == []


def test_a_reason_is_given_only_where_there_is_no_adapter_and_only_for_a_real_entry() -> None:
    assert set(NO_ADAPTER) & set(SUPPORTED_MODEL_TYPES) == set()
    assert [name for name in NO_ADAPTER if name not in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES] == []


def test_every_adapter_lists_the_mechanisms_its_configs_lay_out() -> None:
    """Each adapter's listed mechanisms are exactly those its conformance configs produce together."""
    seen: dict[object, set[str]] = defaultdict(set)
    for case in CASES:
        adapter = adapter_of(case.model_type) or adapter_of(case.config["text_config"]["model_type"])
        seen[adapter] |= mechanism_labels(layer_groups_from_config(case.config))
    assert set(ADAPTER_MECHANISMS) == {adapter_of(name) for name in SUPPORTED_MODEL_TYPES}
    for adapter, listed in ADAPTER_MECHANISMS.items():
        assert seen[adapter] == listed, adapter.__qualname__


def test_a_layer_running_two_mechanisms_is_labelled_as_both() -> None:
    mamba = Recurrent("mamba2", (StateTensor("ssm", (2, 3, 4)),))
    layout = layer_groups_from_config(next(c for c in CASES if c.name == "falcon_h1").config)
    assert layout.num_layers == 2
    assert all(isinstance(group.mechanism, Parallel) for group in layout.groups)
    assert mechanism_labels(layout) == {"full attention ∥ mamba2 state"}
    assert isinstance(Parallel((Attention(1, 2, 2), mamba)).parts[1], Recurrent)


def test_the_architectures_page_lists_every_model_type_with_its_adapter_or_reason() -> None:
    page = html.unescape(render_adapters_page())
    for row in coverage():
        assert f"<code>{row.model_type}</code>" in page, row.model_type
        if row.reason is None:
            assert f"<code>{row.adapter}</code>" in page
            assert all(label in page for label in row.mechanisms)
            assert row.note in page
        else:
            assert row.reason.text in page


def test_a_cache_transformers_cannot_build_is_said_beside_its_adapter() -> None:
    """BLT is read by an adapter, and the list says its cache had to be handed to transformers."""
    (row,) = [row for row in coverage() if row.model_type == "blt"]
    assert row.reason is None and row.adapter == "blt.blt"
    assert "cannot build" in row.note and "EncoderDecoderCache" in row.note
    assert row.note in html.unescape(render_adapters_page())


def test_state_returned_outside_a_cache_is_said_beside_its_adapter() -> None:
    """XLNet is read by an adapter, and the list says transformers returns its state as ``mems``."""
    (row,) = [row for row in coverage() if row.model_type == "xlnet"]
    assert row.reason is None and row.adapter == "xlnet.xlnet"
    assert "mems" in row.note and row.mechanisms == {"hidden states", "hidden states, sliding window"}
    assert row.note in html.unescape(render_adapters_page())
