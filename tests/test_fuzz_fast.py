"""The importers' long fuzz campaign (``python -m fuzz.fast``), run briefly: its inputs are the
Hypothesis targets' mutations from a seeded source, every input is read and planned, and the new plans
are imported and checked. A few hundred inputs here; the campaign runs a million."""

from __future__ import annotations

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
