"""Run a fuzzing campaign: ``python -m fuzz.run --minutes 10``.

Each target (``fuzz/targets.py``) is fed by a Hypothesis strategy (``fuzz/strategies.py``) in rounds of a
few hundred inputs with a fresh seed each, round-robin, until the time is up. An input that breaks a
promise or crashes the tool is shrunk by Hypothesis to a minimal one, written to ``build/fuzz/findings/``
and reported; the campaign goes on. The counts (inputs per target, diagnostic codes and distinct messages
seen, crashes, the slowest input) are written to ``build/fuzz/stats.json`` for ``fuzz.report``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from fuzz import importers, site, strategies, targets

OUT = Path(__file__).resolve().parent.parent / "build" / "fuzz"

TARGETS: dict[str, tuple[Callable[[Any], targets.Outcome], st.SearchStrategy[Any], int]] = {
    "loader": (
        targets.loader,
        st.one_of(
            st.binary(max_size=600),
            strategies.yaml_like_text.map(str.encode),
            strategies.byte_mutated_record().map(lambda item: item[1]),
        ),
        300,
    ),
    "check": (targets.check, strategies.hostile_record(), 60),
    "expr": (targets.expr, strategies.expression_text, 500),
    "quantity": (targets.quantity, strategies.quantity_text, 500),
    "fmt": (targets.fmt, strategies.hostile_record(), 60),
    "site": (site.site, site.field_texts(), 10),
    **{
        f"import-{source}": (importers.target(source), importers.inputs(source), 20)
        for source in importers.SOURCES
    },
}
"""Each target, the strategy that feeds it, and how many inputs make one round."""


@dataclass
class Stats:
    """What a campaign saw, per target."""

    inputs: Counter[str] = field(default_factory=Counter)
    codes: dict[str, Counter[str]] = field(default_factory=dict)
    shapes: dict[str, set[str]] = field(default_factory=dict)
    slowest: dict[str, float] = field(default_factory=dict)
    findings: list[dict[str, str]] = field(default_factory=list)

    def record(self, name: str, outcome: targets.Outcome) -> None:
        self.inputs[name] += 1
        self.codes.setdefault(name, Counter()).update(outcome.codes)
        self.shapes.setdefault(name, set()).update(shape(m) for m in outcome.messages)
        self.slowest[name] = max(self.slowest.get(name, 0.0), outcome.seconds)

    def as_json(self, seconds: float, seed: int) -> dict[str, Any]:
        return {
            "seconds": round(seconds, 1),
            "seed": seed,
            "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "targets": {
                name: {
                    "inputs": self.inputs[name],
                    "codes": dict(sorted(self.codes.get(name, Counter()).items())),
                    "distinct_messages": len(self.shapes.get(name, set())),
                    "slowest_seconds": round(self.slowest.get(name, 0.0), 3),
                }
                for name in TARGETS
                if self.inputs[name]
            },
            "findings": self.findings,
        }


def shape(message: str) -> str:
    """A message with its quoted values and numbers blanked: one shape per kind of finding."""
    return re.sub(r"\d[\d,._]*", "N", re.sub(r"'[^']*'|\"[^\"]*\"", "'...'", message))


def run_round(name: str, seed: int, stats: Stats) -> dict[str, str] | None:
    """One round of a target; the minimal failing input when one breaks a promise or crashes."""
    target, strategy, examples = TARGETS[name]
    failure: dict[str, str] = {}

    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @hypothesis_seed(seed)
    @given(strategy)
    def round_(value: Any) -> None:
        try:
            stats.record(name, target(value))
        except BaseException as error:  # the last one recorded is the shrunk, minimal input
            failure.update(
                target=name,
                input=repr(value),
                error=f"{type(error).__name__}: {error}",
                traceback=traceback.format_exc(limit=-6),
            )
            raise

    try:
        round_()
    except Exception as error:  # a target's failure, or one in the strategy that feeds it
        return dict(failure) or {
            "target": name,
            "input": "(none: the strategy itself failed)",
            "error": f"{type(error).__name__}: {error}",
            "traceback": traceback.format_exc(limit=-6),
        }
    return None


def _save(finding: dict[str, str]) -> Path:
    digest = hashlib.sha256(finding["input"].encode()).hexdigest()[:12]
    path = OUT / "findings" / f"{finding['target']}-{digest}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(finding, indent=2) + "\n", encoding="utf-8")
    return path


def campaign(
    minutes: float, names: list[str], seed: int, log: Callable[[str], None] = print, command: str = ""
) -> dict[str, Any]:
    """Fuzz ``names`` round-robin for ``minutes``; returns the stats (also written to stats.json)."""
    stats = Stats()
    chooser = random.Random(seed)
    started = time.monotonic()
    deadline = started + minutes * 60
    try:
        while time.monotonic() < deadline:
            for name in names:
                if time.monotonic() >= deadline:
                    break
                finding = run_round(name, chooser.getrandbits(32), stats)
                if finding is not None:
                    stats.findings.append(finding)
                    log(
                        f"FINDING in {name}: {finding['error']}\n  input: {finding['input'][:300]}\n"
                        f"  saved to {_save(finding)}"
                    )
            total = sum(stats.inputs.values())
            log(f"{time.monotonic() - started:6.0f} s  {total:,} inputs  {len(stats.findings)} findings")
    finally:
        targets.close_registry()
        importers.close()
    result = {
        "command": command or f"python -m fuzz.run --minutes {minutes:g} --seed {seed}",
        **stats.as_json(time.monotonic() - started, seed),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "stats.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fuzz.run", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to run (default: 10)")
    parser.add_argument(
        "--target",
        action="append",
        choices=list(TARGETS),
        help="fuzz only this target (repeatable; default: all)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for the rounds' seeds (default: random)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    chosen = "".join(f" --target {name}" for name in args.target or [])
    command = f"python -m fuzz.run --minutes {args.minutes:g} --seed {seed}{chosen}"
    result = campaign(args.minutes, args.target or list(TARGETS), seed, command=command)
    print(json.dumps({name: data["inputs"] for name, data in result["targets"].items()}))
    print(f"{len(result['findings'])} findings; stats in {OUT / 'stats.json'}")
    return 1 if result["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
