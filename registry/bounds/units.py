"""A figure's unit against its benchmark's own and its run log's: the check behind F018, as plain
functions an importer can call on the numbers it reads before it writes a record.

MLPerf Inference reports each benchmark's result in one unit per scenario: the submission checker's
``SPECIAL_UNIT_DICT`` gives tokens/s for its LLM benchmarks in Offline, Server and Interactive, and its
``UNIT_DICT`` samples/s (Offline) or queries/s (Server, Interactive) for the rest (mlcommons/inference,
tools/submission/submission_checker/constants.py at b66003e10e2db4b8c36a448b0545ec90fcc6e9e9). A run log
states both lines ("Completed samples per second", "Completed tokens per second"), whose ratio is the
run's mean output tokens per sample; a figure that equals the samples line where the benchmark's
figure is tokens (or the reverse) is the slip this catches.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

TOKEN_BENCHMARKS: dict[str, tuple[str, ...]] = {
    "llama3.1-8b": ("offline", "server", "interactive"),
    "llama3.1-8b-edge": ("offline",),
    "llama2-70b-99": ("offline", "server", "interactive"),
    "llama2-70b-99.9": ("offline", "server", "interactive"),
    "mixtral-8x7b": ("offline", "server", "interactive"),
    "llama3.1-405b": ("offline", "server", "interactive"),
    "deepseek-r1": ("offline", "server", "interactive"),
    "gpt-oss-120b": ("offline", "server", "interactive"),
    "gptj-99": ("offline", "server"),
    "gptj-99.9": ("offline", "server"),
}
"""MLPerf benchmarks whose result is tokens/s, by scenario: the submission checker's SPECIAL_UNIT_DICT
at b66003e (module docstring), and GPT-J, which rounds up to v4.1 ran: that round's checker
(mlcommons/inference c7db1c3f, "Fix units for LLM benchmarks") reads its Offline and Server results from
``result_inferred_tokens_per_second`` and labels them Tokens/s."""

RATE_METRICS = {
    "output_throughput": "tokens/s",
    "sample_throughput": "samples/s",
    "query_throughput": "queries/s",
}
"""The metrics a benchmark's headline rate may be filed under, and the unit each states."""

RATIO_TOLERANCE = Fraction(10, 100)
"""How far a tokens/s figure over a samples/s figure may stray from the mean output tokens per sample:
the accuracy run's mean stands for the performance run's, within MLPerf's own 10% window on it."""


@dataclass(frozen=True, slots=True)
class Contradiction:
    """What the figure's unit contradicts, and the likeliest slip."""

    message: str
    slip: str
    expected_unit: str


def benchmark_unit(benchmark: str | None, scenario: str | None) -> str | None:
    """The unit an MLPerf benchmark's result is in at ``scenario`` (``tokens/s``, ``samples/s``,
    ``queries/s``), or None for a benchmark or scenario it is not known for."""
    if benchmark is None or scenario is None:
        return None
    if scenario in TOKEN_BENCHMARKS.get(benchmark, ()):
        return "tokens/s"
    if benchmark in TOKEN_BENCHMARKS:
        return None
    return {"offline": "samples/s", "server": "queries/s", "interactive": "queries/s"}.get(scenario)


def unit_contradiction(benchmark: str | None, scenario: str | None, metric: str) -> Contradiction | None:
    """A headline rate filed under ``metric`` where the benchmark's result is in another unit: a tokens/s
    benchmark's figure as samples or queries per second (or the reverse), else None."""
    stated = RATE_METRICS.get(metric)
    expected = benchmark_unit(benchmark, scenario)
    if stated is None or expected is None or stated == expected:
        return None
    if expected == "tokens/s":
        return Contradiction(
            f"the figure is filed as {stated}, but {benchmark} {scenario} results are tokens/s",
            f"{stated} written for tokens/s: a samples line of the run log taken for the tokens line",
            expected,
        )
    if stated == "tokens/s":
        return Contradiction(
            f"the figure is filed as tokens/s, but {benchmark} {scenario} results are {expected}",
            f"tokens/s written for {expected}: the tokens line of the run log taken for the result",
            expected,
        )
    return None


def log_contradiction(
    stated: Fraction,
    stated_unit: str,
    tokens_per_second: Fraction | None,
    samples_per_second: Fraction | None,
) -> Contradiction | None:
    """A figure in ``stated_unit`` (``tokens/s`` or ``samples/s``) that matches the run log's *other*
    line within 1% and its own line not at all: the log's lines swapped. None when the log agrees or
    says too little."""
    if tokens_per_second is None or samples_per_second is None:
        return None
    own, other, other_unit = (
        (tokens_per_second, samples_per_second, "samples/s")
        if stated_unit == "tokens/s"
        else (samples_per_second, tokens_per_second, "tokens/s")
    )
    if other == 0 or abs(stated / other - 1) > Fraction(1, 100) or abs(stated / own - 1) <= Fraction(1, 100):
        return None
    return Contradiction(
        f"the figure {float(stated):,.6g} {stated_unit} is the run log's {other_unit} line, not its {stated_unit} line",
        f"{other_unit} written as {stated_unit}",
        stated_unit,
    )


def tokens_per_sample_contradiction(
    tokens_per_second: Fraction, samples_per_second: Fraction, tokens_per_sample: Fraction
) -> tuple[Fraction, Contradiction] | None:
    """A record's tokens/s and samples/s figures whose ratio is not its mean output tokens per sample
    (within :data:`RATIO_TOLERANCE`): the ratio and the contradiction, or None."""
    if samples_per_second == 0 or tokens_per_sample == 0:
        return None
    ratio = tokens_per_second / samples_per_second
    if abs(ratio / tokens_per_sample - 1) <= RATIO_TOLERANCE:
        return None
    slip = (
        "samples/s written as tokens/s (the tokens figure is the samples one)"
        if abs(ratio - 1) <= RATIO_TOLERANCE
        else "one of the two figures is in the other's unit, or off by a power of ten"
    )
    return ratio, Contradiction(
        f"tokens/s over samples/s is {float(ratio):,.4g} tokens per sample, but the accuracy report's "
        f"mean is {float(tokens_per_sample):,.4g}",
        slip,
        "tokens/s",
    )
