"""MLPerf Inference's own rules for each LLM benchmark of a round: the latency targets its server-style
scenarios had to meet and the accuracy it had to reach, as a table with its citation.

Read from ``mlcommons/inference`` at commit ``b66003e10e2db4b8c36a448b0545ec90fcc6e9e9``, file
``tools/submission/submission_checker/constants.py``, the submission checker that accepts a result:

- ``LLM_LATENCY_LIMITS``: TTFT and TPOT per benchmark and scenario (``Server``, ``Interactive``), which
  ``checks/performance_check.py`` compares with the run's 99th percentiles
  (``result_first_token_99.00_percentile_latency_ns``, ``result_time_per_output_token_99.00_percentile_ns``);
  ``loadgen/mlperf.conf`` at ``b0662794362bc2c22c33c3e4a0c66ef83411ecf0`` gives the same figures as
  ``ttft_latency`` and ``tpot_latency`` (its benchmarks named ``<model>-interactive`` for Interactive).
- ``MODEL_CONFIG["v6.1"]["latency-constraint"]`` for qwen3-vl-235b-a22b, which measures no token
  latencies: the end-to-end latency's 99th percentile (``result_99.00_percentile_latency_ns``) per
  scenario. The other benchmarks' entries there bound the early-stopping estimate LoadGen reports, not a
  figure of the run, and are left out.
- ``MODEL_CONFIG["v6.1"]["accuracy-target"]`` and ``["accuracy-upper-limit"]``: each score's reference
  and the fraction of it a result had to reach (the upper limit, where there is one, bounds the output
  length from above).
- ``MODEL_CONFIG["v6.1"]["model_mapping"]``: ``llama3_1-8b`` is the benchmark ``llama3.1-8b``.

A benchmark name keeps its accuracy suffix (``llama2-70b-99.9``): a ``-99`` and a ``-99.9`` benchmark are
different benchmarks with different targets, and are compared only with themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

CITATION = {
    "title": "MLPerf Inference submission checker: latency limits and accuracy targets",
    "url": (
        "https://github.com/mlcommons/inference/blob/b66003e10e2db4b8c36a448b0545ec90fcc6e9e9/"
        "tools/submission/submission_checker/constants.py"
    ),
    "publisher": "MLCommons",
    "file": "tools/submission/submission_checker/constants.py",
    "revision": "b66003e10e2db4b8c36a448b0545ec90fcc6e9e9",
    "section": "LLM_LATENCY_LIMITS; MODEL_CONFIG v6.1: accuracy-target, accuracy-upper-limit, latency-constraint",
}
"""The source of every figure in this module, cited by each record that carries one."""

BENCHMARK_NAMES = {"llama3_1-8b": "llama3.1-8b"}
"""A summary's ``Model`` spelling -> the benchmark it is (the checker's ``model_mapping``); every other
spelling is the benchmark's own name."""


@dataclass(frozen=True)
class Limit:
    """A latency target: the metric, the statistic it is checked at, and the limit in milliseconds."""

    metric: str
    statistic: str
    limit_ms: int


def _token_limits(ttft_ms: int, tpot_ms: int) -> tuple[Limit, Limit]:
    return (Limit("ttft", "p99", ttft_ms), Limit("tpot", "p99", tpot_ms))


LATENCY_LIMITS: dict[tuple[str, str], tuple[Limit, ...]] = {
    ("llama2-70b-99.9", "server"): _token_limits(2000, 200),
    ("llama2-70b-99.9", "interactive"): _token_limits(450, 40),
    ("llama3.1-8b", "server"): _token_limits(2000, 100),
    ("llama3.1-8b", "interactive"): _token_limits(500, 30),
    ("deepseek-r1", "server"): _token_limits(2000, 80),
    ("deepseek-r1", "interactive"): _token_limits(1500, 15),
    ("gpt-oss-120b", "server"): _token_limits(3000, 80),
    ("gpt-oss-120b", "interactive"): _token_limits(2000, 15),
    ("qwen3-vl-235b-a22b", "server"): (Limit("e2e_latency", "p99", 12000),),
    ("qwen3-vl-235b-a22b", "interactive"): (Limit("e2e_latency", "p99", 1500),),
}
"""(benchmark, scenario) -> the latency targets the run had to meet. Offline and single-stream runs have
none: offline measures throughput alone, single-stream reports its latency as the result."""


@dataclass(frozen=True)
class Target:
    """An accuracy score's target: the reference, the fraction of it to reach, and the fraction it may
    not exceed (``None``: no upper limit)."""

    reference: str
    fraction: str
    upper: str | None = None

    @property
    def value(self) -> float:
        """The least score that passes: reference x fraction, exactly as the checker multiplies it."""
        return float(Decimal(self.reference) * Decimal(self.fraction))

    @property
    def words(self) -> str:
        low = _percent(self.fraction)
        span = low if self.upper is None else f"{low} to {_percent(self.upper)}"
        return f"{span} of the reference {self.reference}"


def _percent(fraction: str) -> str:
    return f"{format((Decimal(fraction) * 100).normalize(), 'f')}%"


def _rouge(r1: str, r2: str, rl: str, fraction: str) -> dict[str, Target]:
    return {
        "rouge1": Target(r1, fraction),
        "rouge2": Target(r2, fraction),
        "rougel": Target(rl, fraction),
    }


ACCURACY_TARGETS: dict[tuple[str, str | None], dict[str, Target]] = {
    ("llama2-70b-99.9", None): _rouge("44.4312", "22.0352", "28.6162", "0.999")
    | {"tokens_per_sample": Target("294.45", "0.9", "1.1")},
    ("llama3.1-8b", None): _rouge("38.7792", "15.9075", "24.4957", "0.99")
    | {"rougelsum": Target("35.793", "0.99"), "gen_len": Target("8167644", "0.9", "1.1")},
    ("llama3.1-8b-edge", None): _rouge("39.06", "16.1147", "24.6375", "0.99")
    | {"rougelsum": Target("36.124", "0.99"), "gen_len": Target("3051113", "0.9", "1.1")},
    ("deepseek-r1", None): {
        "exact_match": Target("81.3582", "0.99"),
        "tokens_per_sample": Target("3886.2274", "0.9", "1.1"),
    },
    ("gpt-oss-120b", None): {"exact_match": Target("83.13", "0.99")},
    ("qwen3-vl-235b-a22b", None): {"f1_hierarchical": Target("0.7903", "0.99")},
    ("qwen3-vl-235b-a22b", "interactive"): {"f1_hierarchical": Target("0.7878", "0.99")},
    ("qwen3.6-27b", None): {"map": Target("86.23", "0.99")},
}
"""(benchmark, scenario or ``None`` for every scenario) -> each score's target, by the score's name in
lower case. qwen3-vl-235b-a22b's Interactive scenario is scored on a subset with its own reference."""


def benchmark_of(model: str) -> str:
    """The benchmark a summary's ``Model`` spelling names."""
    return BENCHMARK_NAMES.get(model, model)


def limits(benchmark: str, scenario: str) -> tuple[Limit, ...]:
    return LATENCY_LIMITS.get((benchmark, scenario), ())


def targets(benchmark: str, scenario: str) -> dict[str, Target]:
    """The accuracy targets of a benchmark in a scenario (the scenario's own, else the benchmark's)."""
    found = ACCURACY_TARGETS.get((benchmark, scenario))
    return found if found is not None else ACCURACY_TARGETS.get((benchmark, None), {})


def with_targets(
    scores: list[dict[str, Any]], benchmark: str, scenario: str
) -> tuple[list[dict[str, Any]], bool]:
    """The scores with their targets, and whether a score the source left unnamed was named here: a lone
    unnamed score takes the name of the benchmark's only target (qwen3-vl-235b-a22b's F1_HIERARCHICAL)."""
    table = targets(benchmark, scenario)
    named = len(scores) == 1 and scores[0]["metric"] == "unnamed" and len(table) == 1
    if named:
        scores = [scores[0] | {"metric": next(iter(table))}]
    found = []
    for score in scores:
        target = table.get(score["metric"])
        found.append(score | ({"target": target.words, "target_value": target.value} if target else {}))
    return found, named
