"""MLPerf Inference's own rules for each LLM benchmark of a round: the latency targets its server-style
scenarios had to meet, the accuracy it had to reach and the unit its result is stated in, as tables with
their citation, one :class:`RoundRules` per round.

Each round's figures are read from the submission checker of ``mlcommons/inference`` at the commit that
checked that round (:mod:`registry.authoring.importers.mlperf_rounds` holds the rounds before v6.1).
For v6.1 the commit is ``b66003e10e2db4b8c36a448b0545ec90fcc6e9e9``, file
``tools/submission/submission_checker/constants.py``:

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
- ``RESULT_FIELD_BENCHMARK_OVERWRITE["v6.1"]``: the LoadGen field a benchmark's result is read from per
  LoadGen scenario (``result_tokens_per_second`` Offline, ``result_completed_tokens_per_second`` Server);
  a benchmark it does not name is read from ``RESULT_FIELD_NEW`` (samples per second). The checker runs
  the Interactive scenario as LoadGen's Server, so Interactive reads the Server field. This is the unit of
  the figure, whatever the summary's ``Units`` column says (:func:`known_unit`).
- ``MODEL_CONFIG["v6.1"]["model_mapping"]``: ``llama3_1-8b`` is the benchmark ``llama3.1-8b``.

A benchmark name keeps its accuracy suffix (``llama2-70b-99.9``): a ``-99`` and a ``-99.9`` benchmark are
different benchmarks with different targets, and are compared only with themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

BENCHMARK_NAMES = {"llama3_1-8b": "llama3.1-8b"}
"""A summary's ``Model`` spelling -> the benchmark it is (the checker's ``model_mapping``); every other
spelling is the benchmark's own name."""

TOKENS, SAMPLES, QUERIES, LATENCY_MS = "Tokens/s", "Samples/s", "Queries/s", "Latency (ms)"


@dataclass(frozen=True)
class Limit:
    """A latency target: the metric, the statistic it is checked at, and the limit in milliseconds."""

    metric: str
    statistic: str
    limit_ms: int


def token_limits(ttft_ms: int, tpot_ms: int) -> tuple[Limit, Limit]:
    return (Limit("ttft", "p99", ttft_ms), Limit("tpot", "p99", tpot_ms))


@dataclass(frozen=True)
class Target:
    """An accuracy score's target: the reference, the fraction of it to reach, and the fraction it may
    not exceed (``None``: no upper limit), of ``upper_reference`` where the checker bounds it from
    another reference than the lower one."""

    reference: str
    fraction: str
    upper: str | None = None
    upper_reference: str | None = None

    @property
    def value(self) -> float:
        """The least score that passes: reference x fraction, exactly as the checker multiplies it."""
        return float(Decimal(self.reference) * Decimal(self.fraction))

    @property
    def words(self) -> str:
        low = f"{_percent(self.fraction)} of the reference {self.reference}"
        if self.upper is None:
            return low
        if self.upper_reference is None:
            return f"{_percent(self.fraction)} to {_percent(self.upper)} of the reference {self.reference}"
        return f"{low}, at most {_percent(self.upper)} of {self.upper_reference}"


def _percent(fraction: str) -> str:
    return f"{format((Decimal(fraction) * 100).normalize(), 'f')}%"


def rouge(r1: str, r2: str, rl: str, fraction: str) -> dict[str, Target]:
    return {
        "rouge1": Target(r1, fraction),
        "rouge2": Target(r2, fraction),
        "rougel": Target(rl, fraction),
    }


@dataclass(frozen=True)
class RoundRules:
    """One round's submission-checker rules and where they were read."""

    commit: str
    file: str
    sections: str
    latency_limits: dict[tuple[str, str], tuple[Limit, ...]]
    """(benchmark, scenario) -> the latency targets the run had to meet. Offline and single-stream runs
    have none: offline measures throughput alone, single-stream reports its latency as the result."""
    accuracy_targets: dict[tuple[str, str | None], dict[str, Target]]
    """(benchmark, scenario or ``None`` for every scenario) -> each score's target, by the score's name
    in lower case."""
    token_results: frozenset[str]
    """The benchmarks whose Offline and Server results the checker reads from a tokens-per-second field."""
    notes: dict[str, str] = field(default_factory=dict)
    """benchmark -> what the checker's field for it is, where the name alone does not say."""

    @property
    def citation(self) -> dict[str, Any]:
        """The source of this round's figures, cited by each record that carries one."""
        return {
            "title": "MLPerf Inference submission checker: latency limits, accuracy targets, result units",
            "url": f"https://github.com/mlcommons/inference/blob/{self.commit}/{self.file}",
            "publisher": "MLCommons",
            "file": self.file,
            "revision": self.commit,
            "section": self.sections,
        }


V6_1 = RoundRules(
    commit="b66003e10e2db4b8c36a448b0545ec90fcc6e9e9",
    file="tools/submission/submission_checker/constants.py",
    sections=(
        "LLM_LATENCY_LIMITS; MODEL_CONFIG v6.1: accuracy-target, accuracy-upper-limit, latency-constraint; "
        "RESULT_FIELD_BENCHMARK_OVERWRITE v6.1"
    ),
    latency_limits={
        ("llama2-70b-99.9", "server"): token_limits(2000, 200),
        ("llama2-70b-99.9", "interactive"): token_limits(450, 40),
        ("llama3.1-8b", "server"): token_limits(2000, 100),
        ("llama3.1-8b", "interactive"): token_limits(500, 30),
        ("deepseek-r1", "server"): token_limits(2000, 80),
        ("deepseek-r1", "interactive"): token_limits(1500, 15),
        ("gpt-oss-120b", "server"): token_limits(3000, 80),
        ("gpt-oss-120b", "interactive"): token_limits(2000, 15),
        ("qwen3-vl-235b-a22b", "server"): (Limit("e2e_latency", "p99", 12000),),
        ("qwen3-vl-235b-a22b", "interactive"): (Limit("e2e_latency", "p99", 1500),),
    },
    accuracy_targets={
        ("llama2-70b-99.9", None): rouge("44.4312", "22.0352", "28.6162", "0.999")
        | {"tokens_per_sample": Target("294.45", "0.9", "1.1")},
        ("llama3.1-8b", None): rouge("38.7792", "15.9075", "24.4957", "0.99")
        | {"rougelsum": Target("35.793", "0.99"), "gen_len": Target("8167644", "0.9", "1.1")},
        ("llama3.1-8b-edge", None): rouge("39.06", "16.1147", "24.6375", "0.99")
        | {"rougelsum": Target("36.124", "0.99"), "gen_len": Target("3051113", "0.9", "1.1")},
        ("deepseek-r1", None): {
            "exact_match": Target("81.3582", "0.99"),
            "tokens_per_sample": Target("3886.2274", "0.9", "1.1"),
        },
        ("gpt-oss-120b", None): {"exact_match": Target("83.13", "0.99")},
        ("qwen3-vl-235b-a22b", None): {"f1_hierarchical": Target("0.7903", "0.99")},
        ("qwen3-vl-235b-a22b", "interactive"): {"f1_hierarchical": Target("0.7878", "0.99")},
        ("qwen3.6-27b", None): {"map": Target("86.23", "0.99")},
    },
    token_results=frozenset(
        {
            "gpt-oss-120b",
            "llama2-70b-99",
            "llama2-70b-99.9",
            "llama3.1-8b",
            "llama3.1-8b-edge",
            "mixtral-8x7b",
            "llama3.1-405b",
            "deepseek-r1",
        }
    ),
)
"""v6.1's rules; qwen3-vl-235b-a22b's Interactive scenario is scored on a subset with its own reference."""


def benchmark_of(model: str) -> str:
    """The benchmark a summary's ``Model`` spelling names."""
    return BENCHMARK_NAMES.get(model, model)


def limits(rules: RoundRules, benchmark: str, scenario: str) -> tuple[Limit, ...]:
    return rules.latency_limits.get((benchmark, scenario), ())


def targets(rules: RoundRules, benchmark: str, scenario: str) -> dict[str, Target]:
    """The accuracy targets of a benchmark in a scenario (the scenario's own, else the benchmark's)."""
    found = rules.accuracy_targets.get((benchmark, scenario))
    return found if found is not None else rules.accuracy_targets.get((benchmark, None), {})


def known_unit(rules: RoundRules, benchmark: str, scenario: str) -> str | None:
    """The unit the checker states the benchmark's result in, from the field it reads (None: a scenario
    whose unit this table does not know)."""
    if scenario in ("single-stream", "multi-stream"):
        return LATENCY_MS
    if scenario not in ("offline", "server", "interactive"):
        return None
    if benchmark in rules.token_results:
        return TOKENS
    return SAMPLES if scenario == "offline" else QUERIES


def with_targets(scores: list[dict[str, Any]], table: dict[str, Target]) -> tuple[list[dict[str, Any]], bool]:
    """The scores with their targets, and whether a score the source left unnamed was named here: a lone
    unnamed score takes the name of the benchmark's only target (qwen3-vl-235b-a22b's F1_HIERARCHICAL)."""
    named = len(scores) == 1 and scores[0]["metric"] == "unnamed" and len(table) == 1
    if named:
        scores = [scores[0] | {"metric": next(iter(table))}]
    found = []
    for score in scores:
        target = table.get(score["metric"])
        found.append(score | ({"target": target.words, "target_value": target.value} if target else {}))
    return found, named
