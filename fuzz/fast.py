"""A long campaign against the importers: ``python -m fuzz.fast --inputs 1000000 --target vllm-bench``.

Each input is one :func:`fuzz.importers.mutant` (the same mutations as the Hypothesis targets of
``fuzz.run``), its choices taken from a seeded random source instead of Hypothesis, which costs about as
much as the import itself. Two tiers:

- **every input** is read and planned by the importer in memory: the source's reader turns its bytes
  into runs and rows, and the importer maps them to the records it would write (nothing is made into
  text or written). That is where a file is parsed and refused: the promise is a plan or a
  ``RegistryError``, never another exception;
- **each plan no earlier input made** (a new set of records, by their fields and comments) is then
  imported for real into the small registry of ``fuzz.importers`` and the records written are checked
  (:func:`fuzz.importers.import_target`: they pass ``registry check``, a refusal writes nothing, no
  temporary file is left), up to ``--full`` of them; two inputs with one plan write the same records.

An exception, a broken promise or an input past its time bound is a finding, saved under
``build/fuzz/findings/`` with the input; the counts go to ``build/fuzz/fast-stats.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuzz import importers
from fuzz.run import OUT, _save
from fuzz.strategies import Seeded

SECONDS_PER_PLAN = 5.0
"""The time bound for reading and planning one input."""


@dataclass
class Tally:
    """What a campaign on one importer saw."""

    inputs: int = 0
    refused: int = 0
    planned: int = 0
    plans: set[str] = field(default_factory=set)
    imported: int = 0
    written: int = 0
    slowest: float = 0.0
    findings: list[dict[str, str]] = field(default_factory=list)


def _planner(source: str) -> Any:
    """``raw bytes -> (id, fields, comments, draft) of each record planned``, for ``source``."""
    from registry.authoring.importers.imported import BenchOptions
    from registry.authoring.importers.mlperf import SourceOptions, plan_import
    from registry.authoring.importers.model_match import ModelCatalog
    from registry.authoring.importers.runs import RunsResult, plan_runs
    from registry.authoring.importers.sources import READERS

    place = importers.fuzz_registry()
    path = place.inputs / ("summary.csv" if source == "mlperf" else importers.SOURCES[source].name)
    models = ModelCatalog.read(place.root)
    given = {
        "model": importers.MODELS.get(source),
        **importers.OPTIONS,
        **importers.SOURCE_OPTIONS.get(source, {}),
    }
    options = BenchOptions(**given)

    def plan(raw: bytes) -> list[tuple[Any, ...]]:
        path.write_bytes(raw)
        if source == "mlperf":
            _, mapped = plan_import(place.root, [path], SourceOptions())
            return [(record.id, record.fields, record.comments, False) for record in mapped]
        runs = READERS[source](source, [path])
        planned = plan_runs(place.root, runs, options, RunsResult(), models)
        return [(record.id, record.fields, record.comments, record.draft) for record in planned]

    return plan


def _finding(source: str, raw: bytes, error: BaseException) -> dict[str, str]:
    return {
        "target": f"fast-import-{source}",
        "input": repr(raw),
        "error": f"{type(error).__name__}: {error}",
        "traceback": traceback.format_exc(limit=-6),
    }


def campaign(source: str, inputs: int, seed: int, full: int, tally: Tally, log: Any = print) -> Tally:
    """Run ``inputs`` inputs of ``source`` (module docstring); ``tally`` counts them."""
    from registry.errors import RegistryError

    choose = Seeded(random.Random(seed))
    plan = _planner(source)
    started = time.monotonic()
    for count in range(1, inputs + 1):
        if count % 50_000 == 0:
            rate = count / (time.monotonic() - started)
            log(
                f"{source}: {count:,} inputs, {len(tally.plans):,} plans, {tally.imported:,} imported, {rate:,.0f}/s"
            )
        raw = importers.mutant(choose, source)
        tally.inputs += 1
        began = time.perf_counter()
        try:
            records = plan(raw)
        except RegistryError:
            tally.refused += 1
            continue
        except Exception as error:  # a traceback: the finding this campaign looks for
            tally.findings.append(_finding(source, raw, error))
            log(
                f"FINDING in {source}: {type(error).__name__}: {error} (saved to {_save(tally.findings[-1])})"
            )
            continue
        finally:
            seconds = time.perf_counter() - began
            tally.slowest = max(tally.slowest, seconds)
        tally.planned += 1
        if seconds > SECONDS_PER_PLAN:
            tally.findings.append(
                {"target": f"fast-import-{source}", "input": repr(raw), "error": f"{seconds:.1f} s"}
            )
        key = hashlib.sha256(repr(records).encode("utf-8", "backslashreplace")).hexdigest()
        if key in tally.plans:
            continue
        tally.plans.add(key)
        if tally.imported < full:
            tally.imported += 1
            try:
                outcome = importers.import_target(source, raw)
                tally.written += outcome.codes.count("written")
            except Exception as error:  # a broken promise (a record the check refuses) or a traceback
                tally.findings.append(_finding(source, raw, error))
                log(f"FINDING in {source} (imported): {error} (saved to {_save(tally.findings[-1])})")
    return tally


def stats(source: str, tally: Tally, seconds: float, seed: int, command: str) -> dict[str, Any]:
    return {
        "command": command,
        "seed": seed,
        "seconds": round(seconds, 1),
        "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "inputs": tally.inputs,
        "refused": tally.refused,
        "planned": tally.planned,
        "distinct_plans": len(tally.plans),
        "imported_and_checked": tally.imported,
        "records_written_and_checked": tally.written,
        "slowest_plan_seconds": round(tally.slowest, 3),
        "findings": tally.findings,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fuzz.fast", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--target", required=True, choices=list(importers.SOURCES), help="the importer")
    parser.add_argument("--inputs", type=int, default=100_000, help="how many inputs (default: 100,000)")
    parser.add_argument(
        "--full",
        type=int,
        default=1_000,
        help="at most this many new plans imported and checked (default: 1,000)",
    )
    parser.add_argument("--seed", type=int, default=None, help="the random source's seed (default: random)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    command = (
        f"python -m fuzz.fast --target {args.target} --inputs {args.inputs} --full {args.full} --seed {seed}"
    )
    started = time.monotonic()
    try:
        tally = campaign(args.target, args.inputs, seed, args.full, Tally())
    finally:
        importers.close()
    result = stats(args.target, tally, time.monotonic() - started, seed, command)
    OUT.mkdir(parents=True, exist_ok=True)
    written = OUT / "fast-stats.json"
    previous = json.loads(written.read_text(encoding="utf-8")) if written.is_file() else {}
    written.write_text(json.dumps({**previous, args.target: result}, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({key: value for key, value in result.items() if key != "findings"}))
    print(f"{len(result['findings'])} findings; stats in {Path(written)}")
    return 1 if result["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
