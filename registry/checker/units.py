"""The units stage of ``registry check`` (F018): a figure whose unit contradicts its benchmark's own, or
a tokens/s and a samples/s figure of one run whose ratio is not the run's mean output per sample.

The rules themselves are plain functions of :mod:`registry.bounds.units`, which an importer calls on
the numbers it reads; here they are applied to the records as written.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from registry.bounds.units import tokens_per_sample_contradiction, unit_contradiction
from registry.checker.index import Entry, RegistryIndex
from registry.codes import formula as rules
from registry.diagnostics import Diagnostic
from registry.engine.units import QuantityError, parse_quantity
from registry.kinds.records import Benchmark
from registry.results.bounds import mean_output_tokens


def unit_findings(index: RegistryIndex) -> list[Diagnostic]:
    """Every figure of every benchmark whose unit contradicts what the record and its benchmark say."""
    found: list[Diagnostic] = []
    for entry in index:
        if entry.kind == "benchmark" and isinstance(entry.record, Benchmark):
            found.extend(_findings(entry, entry.record))
    return found


def _at(entry: Entry, position: int, message: str, hint: str) -> Diagnostic:
    pointer = f"/metrics/{position}/stated"
    line, column = entry.document.locate(pointer)
    return rules.UNIT_CONTRADICTS.diagnostic(entry.path, line, column, message, hint=hint, pointer=pointer)


def _findings(entry: Entry, record: Benchmark) -> Iterator[Diagnostic]:
    benchmark = record.provenance.benchmark if record.provenance else None
    rates: dict[str, tuple[int, Fraction]] = {}
    for position, metric in enumerate(record.metrics):
        if metric.per != "system" or metric.statistic != "value":
            continue
        found = unit_contradiction(benchmark, record.scenario, metric.metric)
        if found is not None:
            yield _at(
                entry,
                position,
                f"{metric.metric} {metric.stated}: {found.message}",
                f"likeliest slip: {found.slip}; restate it as {found.expected_unit}",
            )
        try:
            rates[metric.metric] = (position, parse_quantity(metric.stated).value)
        except QuantityError:  # the schema stage has reported it
            continue
    yield from _ratio(entry, record, rates)


def _ratio(entry: Entry, record: Benchmark, rates: dict[str, tuple[int, Fraction]]) -> Iterator[Diagnostic]:
    per_sample = mean_output_tokens(record)
    tokens = rates.get("output_throughput")
    samples = rates.get("sample_throughput") or rates.get("query_throughput")
    if per_sample is None or tokens is None or samples is None:
        return
    found = tokens_per_sample_contradiction(tokens[1], samples[1], per_sample)
    if found is not None:
        ratio, contradiction = found
        yield _at(
            entry,
            tokens[0],
            f"output_throughput {record.metrics[tokens[0]].stated}: {contradiction.message}",
            f"likeliest slip: {contradiction.slip}; tokens/s = samples/s x {float(per_sample):,.4g} tokens "
            f"per sample = {float(samples[1] * per_sample):,.6g} tokens/s (the figures give {float(ratio):,.4g})",
        )
