"""The registry's own records: they check clean, and the corpus does not shrink below what it promises."""

from __future__ import annotations

from collections import Counter

import pytest

from registry._check import CheckResult, check
from registry._records import KvEfficiency, Model
from tests.conftest import REPO

MINIMUM = {"model": 40, "engine": 5, "hardware": 7, "benchmark": 4}


@pytest.fixture(scope="module")
def result() -> CheckResult:
    return check(REPO)


def test_the_records_check_clean(result: CheckResult) -> None:
    problems = [f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}" for d in result.diagnostics]
    assert problems == []


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
