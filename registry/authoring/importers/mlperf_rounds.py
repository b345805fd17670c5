"""The submission-checker rules of the MLPerf Inference rounds before v6.1, each read at the commit of
``mlcommons/inference`` that checked that round: the last change to the checker before the round's
results were published.

- v4.1 (published 2024-08-28): ``c7db1c3f9a0ae0623200e05580d77a8759644812`` (2024-08-16, "Fix units for
  LLM benchmarks"), ``tools/submission/submission_checker.py``: ``MODEL_CONFIG["v4.1"]``'s
  accuracy-target and accuracy-upper-limit, ``LLM_LATENCY_LIMITS`` (its ``conversational`` entries, the
  Server scenario) and ``RESULT_FIELD_BENCHMARK_OVERWRITE["v4.1"]``. That commit's unit table is keyed
  by the folder's model name, not the benchmark: an open-division run of another checkpoint (a folder
  such as ``neuralmagic_Llama-2-7b-chat-hf-FP8``) got the default ``Samples/s``/``Queries/s`` label for
  a result read from ``result_tokens_per_second``. gptj's results are read from
  ``result_inferred_tokens_per_second``.
- v5.1 (published 2025-09-09): ``e20506b2293e82564e1183817a889ed6258bb7dd`` (2025-08-20), the same
  file, ``MODEL_CONFIG["v5.1"]``, ``LLM_LATENCY_LIMITS`` and ``RESULT_FIELD_BENCHMARK_OVERWRITE["v5.1"]``.
  Its unit table has no Interactive entry for llama3.1-8b, so those rows are labelled ``Queries/s``
  although the result is read from the Server field ``result_completed_tokens_per_second`` (LoadGen
  runs Interactive as Server); ``6d0cf9dcb1b470e1fed4c7cd913e6a345b1b658a`` ("Update Llama3.1b
  interactive unit") later added the missing ``Tokens/s`` entry.
- v6.0 (published 2026-03-26): ``6d0cf9dcb1b470e1fed4c7cd913e6a345b1b658a`` (2026-03-17),
  ``tools/submission/submission_checker/constants.py``: ``MODEL_CONFIG["v6.0"]``,
  ``LLM_LATENCY_LIMITS`` and ``RESULT_FIELD_BENCHMARK_OVERWRITE["v6.0"]``. Its qwen3-vl-235b-a22b
  accuracy target is a commented-out placeholder there, so no target is stated for it; its
  ``latency-constraint`` entries bound LoadGen's early-stopping estimate and are left out.
"""

from __future__ import annotations

from registry.authoring.importers.mlperf_rules import V6_1, Limit, RoundRules, Target, rouge, token_limits

Targets = dict[tuple[str, str | None], dict[str, Target]]
Limits = dict[tuple[str, str], tuple[Limit, ...]]

_CHECKER = "tools/submission/submission_checker.py"

_LLAMA2: Targets = {
    ("llama2-70b-99", None): rouge("44.4312", "22.0352", "28.6162", "0.99")
    | {"tokens_per_sample": Target("294.45", "0.9", "1.1")},
    ("llama2-70b-99.9", None): rouge("44.4312", "22.0352", "28.6162", "0.999")
    | {"tokens_per_sample": Target("294.45", "0.9", "1.1")},
}
_LLAMA2_SERVER: Limits = {
    ("llama2-70b-99", "server"): token_limits(2000, 200),
    ("llama2-70b-99.9", "server"): token_limits(2000, 200),
}
_LLAMA2_INTERACTIVE: Limits = {
    ("llama2-70b-99", "interactive"): token_limits(450, 40),
    ("llama2-70b-99.9", "interactive"): token_limits(450, 40),
}

V4_1 = RoundRules(
    commit="c7db1c3f9a0ae0623200e05580d77a8759644812",
    file=_CHECKER,
    sections=(
        "MODEL_CONFIG v4.1: accuracy-target, accuracy-upper-limit; LLM_LATENCY_LIMITS; "
        "RESULT_FIELD_BENCHMARK_OVERWRITE v4.1"
    ),
    latency_limits=_LLAMA2_SERVER | {("mixtral-8x7b", "server"): token_limits(2000, 200)},
    accuracy_targets=_LLAMA2
    | {
        ("gptj-99", None): rouge("42.9865", "20.1235", "29.9881", "0.99")
        | {"gen_len": Target("4016878", "0.9")},
        ("gptj-99.9", None): rouge("42.9865", "20.1235", "29.9881", "0.999")
        | {"gen_len": Target("4016878", "0.9")},
        ("mixtral-8x7b", None): rouge("45.4911", "23.2829", "30.3615", "0.99")
        | {
            "tokens_per_sample": Target("145.9", "0.9", "1.1"),
            "gsm8k_accuracy": Target("73.78", "0.99"),
            "mbxp_accuracy": Target("60.12", "0.99"),
        },
    },
    token_results=frozenset({"llama2-70b-99", "llama2-70b-99.9", "gptj-99", "gptj-99.9", "mixtral-8x7b"}),
)

_LATER: Targets = {
    ("llama3.1-8b", None): rouge("38.7792", "15.9075", "24.4957", "0.99")
    | {"rougelsum": Target("35.793", "0.99"), "gen_len": Target("8167644", "0.9", "1.1")},
    ("llama3.1-8b-edge", None): rouge("39.06", "16.1147", "24.6375", "0.99")
    | {"rougelsum": Target("36.124", "0.99"), "gen_len": Target("3051113", "0.9", "1.1")},
    ("mixtral-8x7b", None): rouge("45.5989", "23.3526", "30.4608", "0.99")
    | {
        "tokens_per_sample": Target("144.84", "0.9", "1.1", upper_reference="145.9"),
        "gsm8k_accuracy": Target("73.66", "0.99"),
        "mbxp_accuracy": Target("60.16", "0.99"),
    },
    ("llama3.1-405b", None): {
        "rougel": Target("21.6666", "0.99"),
        "exact_match": Target("90.1335", "0.99"),
        "tokens_per_sample": Target("684.68", "0.9", "1.1"),
    },
    ("deepseek-r1", None): {
        "exact_match": Target("81.3582", "0.99"),
        "tokens_per_sample": Target("3886.2274", "0.9", "1.1"),
    },
}
_LATER_LIMITS: Limits = {
    ("mixtral-8x7b", "server"): token_limits(2000, 200),
    ("llama3.1-405b", "server"): token_limits(6000, 175),
    ("llama3.1-405b", "interactive"): token_limits(4500, 80),
    ("llama3.1-8b", "server"): token_limits(2000, 100),
    ("llama3.1-8b", "interactive"): token_limits(500, 30),
    ("deepseek-r1", "server"): token_limits(2000, 80),
}
_LATER_TOKENS = frozenset(
    {"llama2-70b-99", "llama2-70b-99.9", "llama3.1-8b", "llama3.1-8b-edge", "mixtral-8x7b"}
    | {"llama3.1-405b", "deepseek-r1"}
)

V5_1 = RoundRules(
    commit="e20506b2293e82564e1183817a889ed6258bb7dd",
    file=_CHECKER,
    sections=(
        "MODEL_CONFIG v5.1: accuracy-target, accuracy-upper-limit; LLM_LATENCY_LIMITS; "
        "RESULT_FIELD_BENCHMARK_OVERWRITE v5.1"
    ),
    latency_limits=_LLAMA2_SERVER | _LLAMA2_INTERACTIVE | _LATER_LIMITS,
    accuracy_targets=_LLAMA2 | _LATER,
    token_results=_LATER_TOKENS,
)

V6_0 = RoundRules(
    commit="6d0cf9dcb1b470e1fed4c7cd913e6a345b1b658a",
    file="tools/submission/submission_checker/constants.py",
    sections=(
        "MODEL_CONFIG v6.0: accuracy-target, accuracy-upper-limit; LLM_LATENCY_LIMITS; "
        "RESULT_FIELD_BENCHMARK_OVERWRITE v6.0"
    ),
    latency_limits=_LLAMA2_SERVER
    | _LLAMA2_INTERACTIVE
    | _LATER_LIMITS
    | {
        ("deepseek-r1", "interactive"): token_limits(1500, 15),
        ("gpt-oss-120b", "server"): token_limits(3000, 80),
        ("gpt-oss-120b", "interactive"): token_limits(2000, 15),
    },
    accuracy_targets=_LLAMA2 | _LATER | {("gpt-oss-120b", None): {"exact_match": Target("83.13", "0.99")}},
    token_results=_LATER_TOKENS | {"gpt-oss-120b"},
)

ROUNDS = {"v4.1": V4_1, "v5.1": V5_1, "v6.0": V6_0, "v6.1": V6_1}
"""Each round's rules, by the summary's ``version``."""


def rules_of(round_name: str) -> RoundRules | None:
    """The rules of a round (None: a round whose checker this table has not read)."""
    return ROUNDS.get(round_name)
