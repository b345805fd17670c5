"""The importers' long fuzz campaign (``python -m fuzz.fast``), run briefly: its inputs are the
Hypothesis targets' mutations from a seeded source, every input is read and planned, and the new plans
are imported and checked. A few hundred inputs here; the campaign runs a million."""

from __future__ import annotations

import json
import random

import pytest

from fuzz import fast, importers
from fuzz.strategies import Seeded


def test_a_seeded_source_makes_the_same_inputs_again() -> None:
    one, two = Seeded(random.Random(3)), Seeded(random.Random(3))
    first = [importers.mutant(one, "vllm-bench") for _ in range(5)]
    again = [importers.mutant(two, "vllm-bench") for _ in range(5)]
    assert first == again and len(set(first)) > 1


@pytest.mark.parametrize("source", ["vllm-bench", "mlperf"])
def test_a_short_campaign_finds_nothing_and_checks_what_it_writes(source: str) -> None:
    try:
        tally = fast.campaign(source, 150, seed=11, full=4, tally=fast.Tally(), log=lambda line: None)
    finally:
        importers.close()
    assert tally.findings == []
    assert tally.inputs == 150 and tally.refused + tally.planned == 150
    assert 0 < tally.refused < 150 and tally.planned > 0  # hostile inputs refused, others planned
    assert tally.imported == min(4, len(tally.plans)) and tally.written > 0


def _written_and_read_back(choose: Seeded, source: str) -> bytes:
    """A JSON mutant made the long way: each hostile text written into the whole file and the file read
    back, the way a reader of the file would see the change."""
    data = importers._fixture(source)
    for _ in range(choose.integer(1, 2)):
        data = importers._set(data, choose.pick(importers._paths(data)), importers._MARK)
        text = importers._dumped(source, data)
        text = text.replace(json.dumps(importers._MARK), choose.pick(importers.HOSTILE_JSON), 1)
        try:
            data = (
                [json.loads(line) for line in text.splitlines()]
                if source == "sglang-bench"
                else json.loads(text)
            )
        except ValueError:
            return importers._maybe_edited(choose, text.encode("utf-8"))
    text = importers._dumped(source, data)
    if choose.integer(0, 1) and text.startswith("{"):
        key = choose.pick(sorted(data) if isinstance(data, dict) and data else ["x"])
        text = "{" + f"{json.dumps(key)}: 99999.0, " + text[1:]
    return importers._maybe_edited(choose, text.encode("utf-8"))


@pytest.mark.parametrize("source", ["guidellm", "sglang-bench", "llm-d"])
def test_a_mutant_is_what_its_file_would_read_back_as(source: str) -> None:
    """The campaign sets a hostile value in the parsed fixture instead of rewriting and re-reading the
    file; the inputs, and so a seed's campaign, are the same."""
    quick, slow = Seeded(random.Random(5)), Seeded(random.Random(5))
    for _ in range(60):
        assert importers.mutant(quick, source) == _written_and_read_back(slow, source)


def test_paths_lists_every_value_root_first_in_document_order() -> None:
    document = {"a": [1, {"b": 2}], "c": {"d": [], "e": 3}}
    assert importers._paths(document) == [
        (),
        ("a",),
        ("a", 0),
        ("a", 1),
        ("a", 1, "b"),
        ("c",),
        ("c", "d"),
        ("c", "e"),
    ]
