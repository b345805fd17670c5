"""The registry's own records: they check clean, and the corpus does not shrink below what it promises."""

from __future__ import annotations

from collections import Counter

import pytest

from registry.checker.pipeline import CheckResult
from registry.engine.adapters import max_context_from_config
from registry.kinds.records import KvEfficiency, Model

MINIMUM = {"model": 40, "engine": 5, "hardware": 7, "benchmark": 4}


@pytest.fixture(scope="module")
def result(real_check: CheckResult) -> CheckResult:
    return real_check


def test_the_records_check_clean(result: CheckResult) -> None:
    # F016 is a note, not a fault: a record whose source states too little to bound it says what it lacks.
    problems = [
        f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}" for d in result.diagnostics if d.code != "F016"
    ]
    assert problems == []
    notes = [d for d in result.diagnostics if d.code == "F016"]
    assert all(d.severity.value == "info" and "can be computed: " in d.message for d in notes)


def test_the_corpus_keeps_its_size(result: CheckResult) -> None:
    counts = Counter(entry.record.kind for entry in result.index)
    for kind, minimum in MINIMUM.items():
        assert counts[kind] >= minimum, f"{kind}: {counts[kind]} records, at least {minimum} promised"
    assert counts["kv-efficiency"] >= counts["model"]


def test_every_model_has_a_sourced_geometry(result: CheckResult) -> None:
    for entry in result.index.of_kind("model"):
        model = entry.record
        assert isinstance(model, Model)
        if model.layout is not None:
            assert model.evidence == "source-reported", model.id
        else:
            assert model.config_source is not None and len(model.config_source.revision) >= 7, model.id


LEFT_OUT = "`max_context_tokens` is left out"


def test_every_model_whose_config_states_a_maximum_has_one(result: CheckResult) -> None:
    """Read as import-config reads it; a record may keep the shorter context its model card states, or
    leave the field out with its notes saying why."""
    for entry in result.index.of_kind("model"):
        model = entry.record
        assert isinstance(model, Model)
        if model.config is None or max_context_from_config(model.config) is None:
            continue
        assert model.max_context_tokens is not None or LEFT_OUT in (model.notes or ""), model.id


def test_every_model_has_a_kv_efficiency_record(result: CheckResult) -> None:
    covered = {
        entry.record.model
        for entry in result.index.of_kind("kv-efficiency")
        if isinstance(entry.record, KvEfficiency)
    }
    missing = [entry.id for entry in result.index.of_kind("model") if entry.id not in covered]
    assert missing == []


def test_every_run_record_states_numbers(result: CheckResult) -> None:
    empty = [
        entry.id
        for entry in result.index.of_kind("kv-efficiency")
        if isinstance(entry.record, KvEfficiency) and not entry.record.claims
    ]
    assert empty == []


FAMILIES = {
    "Llama 3.x 8B, 70B, 405B": ("llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"),
    "Llama 4": ("llama-4-scout",),
    "Mistral / Mixtral": ("mistral-7b-v0.3", "mixtral-8x7b"),
    "Qwen 2.5": ("qwen2.5-7b",),
    "Qwen 3 dense and MoE": ("qwen3-8b", "qwen3-30b-a3b"),
    "Qwen3-Next": ("qwen3-next-80b-a3b",),
    "Gemma 2 / 3 / 3n": ("gemma-2-9b", "gemma-3-27b", "gemma-3n-e4b"),
    "Phi": ("phi-4",),
    "OLMo": ("olmo-2-7b",),
    "Command R": ("command-r",),
    "StarCoder2": ("starcoder2-15b",),
    "Granite": ("granite-3.1-8b",),
    "Falcon (MQA)": ("falcon-7b",),
    "DeepSeek": ("deepseek-v2", "deepseek-v2-lite", "deepseek-v3", "deepseek-r1", "deepseek-v3.2"),
    "Kimi": ("kimi-k2", "kimi-linear-48b-a3b", "kimi-k3"),
    "gpt-oss": ("gpt-oss-20b", "gpt-oss-120b"),
    "a Mamba hybrid": ("jamba-v0.1",),
    "MiniMax": ("minimax-m2.5",),
    "GLM": ("glm-4.5",),
    "DeepSeek-V4": ("deepseek-v4",),
}
"""The families the registry promises to cover, each by at least the records named."""


@pytest.mark.parametrize("family", FAMILIES)
def test_every_promised_family_is_recorded(result: CheckResult, family: str) -> None:
    missing = [slug for slug in FAMILIES[family] if f"models/{slug}" not in result.index.entries]
    assert missing == [], f"{family}: no record for {missing}"
