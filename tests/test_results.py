"""The engine's results are one value, worked out once per command: the check computes every claim's
verdict and every run's figures once, and the database, the site and ``explain`` read them without
calling the engine themselves."""

from __future__ import annotations

import importlib
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import registry.checker.pipeline
import registry.db
import registry.report.explain
import registry.results
import registry.site._generate
from registry.checker.pipeline import check
from registry.db import build_database, run_query
from registry.kinds.records import Benchmark, KvEfficiency
from registry.report.explain import explain
from registry.results import MemoryFit, compute_results
from registry.results.values import CONTEXT_NOT_STATED
from registry.site._generate import generate
from registry.site._reference_engine import worked_examples
from tests.test_db import make_registry

ENTRY_POINTS: dict[str, Callable[..., Any]] = {
    "check_claim": importlib.import_module("registry.engine.claims").check_claim,
    "compute": importlib.import_module("registry.engine.compute").compute,
    "compute_ladder": importlib.import_module("registry.engine.compute").compute_ladder,
    "measure": importlib.import_module("registry.engine.variants").measure,
}
"""The engine's entry points: a claim's verdict, a cache at one context, a ladder of contexts, a
variant's quantity."""


def _frozen(value: Any) -> Any:
    """``value`` as a dictionary key (a claim's geometry fields come as a dict)."""
    if isinstance(value, dict):
        return tuple(sorted((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    return value


class Calls:
    """Every call of an engine entry point: which one, from which module, with which arguments."""

    def __init__(self) -> None:
        self.made: list[tuple[str, str, Any]] = []

    def wrap(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1).f_globals.get("__name__", "")
            self.made.append((name, caller, _frozen((args, kwargs))))
            return original(*args, **kwargs)

        return counted

    def clear(self) -> None:
        self.made.clear()

    def of(self, name: str) -> list[tuple[str, Any]]:
        return [(caller, key) for called, caller, key in self.made if called == name]

    def callers(self) -> set[str]:
        """The modules outside the engine that called it about the registry: the engine's reference
        page computes its worked examples, whose geometries are the page's own, not a record's."""
        examples = {example.layout for example in worked_examples()}
        return {
            caller
            for _, caller, (args, _) in self.made
            if not caller.startswith("registry.engine")
            and not (caller == "registry.site._reference_engine" and args[0] in examples)
        }

    def repeated(self) -> list[tuple[str, Any]]:
        """Calls the results package made more than once with the same arguments."""
        made = Counter(
            (name, key) for name, caller, key in self.made if caller.startswith("registry.results")
        )
        return [call for call, count in made.items() if count > 1]


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    """The engine's entry points counted wherever a module of the package holds them."""
    counter = Calls()
    wrappers = {id(original): counter.wrap(name, original) for name, original in ENTRY_POINTS.items()}
    for module in [m for name, m in sys.modules.items() if name.startswith("registry")]:
        for attribute, value in list(vars(module).items()):
            if id(value) in wrappers and callable(value):
                monkeypatch.setattr(module, attribute, wrappers[id(value)])
    yield counter


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The database tests' small registry, its Llama with a parameter count, so that its benchmark's
    memory fit in the GPU it names is weighed too."""
    made = make_registry(tmp_path / "registry")
    model = made / "records" / "models" / "llama-3.1-8b.yaml"
    record = json.loads(model.read_text(encoding="utf-8"))
    model.write_text(json.dumps({**record, "params_total_b": 8.03}, indent=1) + "\n", encoding="utf-8")
    return made


def _claims(root: Path) -> int:
    """How many claims the registry's runs state."""
    index = check(root, formulas=False).index
    return sum(
        len(entry.record.claims) for entry in index if isinstance(entry.record, KvEfficiency | Benchmark)
    )


def _assert_once(calls: Calls, claims: int) -> None:
    verdicts = calls.of("check_claim")
    assert len(verdicts) == claims, verdicts
    assert len({key for _, key in verdicts}) == claims  # each claim once, none twice
    assert calls.callers() <= {"registry.results.values", "registry.results.figures"}, calls.callers()
    assert not calls.repeated(), calls.repeated()


def test_the_fixture_states_claims_and_a_run_on_hardware(root: Path) -> None:
    results = check(root).results
    assert results is not None and _claims(root) == 2
    assert any(run.fit is not None for run in results.runs.values())


def test_the_check_computes_each_claim_once(root: Path, calls: Calls) -> None:
    claims = _claims(root)
    calls.clear()
    result = check(root)
    assert result.ok and result.results is not None
    _assert_once(calls, claims)
    # each run's own setting (its trace, bytes and memory fit), and the benchmark's one sequence at its
    # input length under the ideal layout (what its bandwidth bound reads) and under its own engine
    # layout (what its memory holds for the decode roof)
    assert len(calls.of("compute")) == 4


def test_the_database_reads_the_check_s_results(root: Path, calls: Calls, tmp_path: Path) -> None:
    claims = _claims(root)
    calls.clear()
    build_database(root, tmp_path / "registry.duckdb")
    _assert_once(calls, claims)
    assert calls.of("compute_ladder")  # the figures per geometry, made by the results package


def test_the_database_made_from_a_check_calls_no_verdict_again(
    root: Path, calls: Calls, tmp_path: Path
) -> None:
    result = check(root)
    calls.clear()
    registry.db.build_index(result, tmp_path / "registry.duckdb", "fingerprint")
    assert not calls.of("check_claim") and not calls.of("measure")
    assert calls.callers() <= {"registry.results.figures"}, calls.callers()


def test_the_site_reads_the_check_s_results(root: Path, calls: Calls) -> None:
    claims = _claims(root)
    calls.clear()
    generate(root, check(root), downloads=True, workers=1)  # the database is built beside the pages
    _assert_once(calls, claims)
    assert (root / "build" / "registry.duckdb").is_file()


def test_explain_reads_the_check_s_results(root: Path, calls: Calls) -> None:
    claims = _claims(root)
    calls.clear()
    text = explain(root, "kv-efficiency/dsv3-128k")
    assert "claim 2: bytes_per_sequence" in text
    _assert_once(calls, claims)
    calls.clear()
    assert "at the standard point" in explain(root, "models/deepseek-v3")
    _assert_once(calls, claims)


def test_a_figure_is_made_once_for_every_model_of_a_geometry(root: Path) -> None:
    result = check(root)
    assert result.results is not None
    results = compute_results(result.index)
    layouts = [geometry.layout for geometry in results.models.values() if geometry.layout is not None]
    first = results.figures.standard(layouts[0])
    assert results.figures.standard(layouts[0]) is first
    assert results.figures.standard(layouts[1]) is not first


def test_a_benchmark_with_no_context_says_why_it_has_no_cache_or_fit(root: Path, tmp_path: Path) -> None:
    """No context stated, no stand-in: the cache figure and the memory fit name the missing field, the
    check stays clean, and the database, the explanation and the site show the context as not stated."""
    path = root / "records" / "benchmarks" / "llama-fp8-cold.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(' "context_tokens": 32768,\n', ""), encoding="utf-8")
    result = check(root)
    assert result.ok and result.results is not None
    run = result.results.runs["benchmarks/llama-fp8-cold"]
    assert run.run is None
    assert run.result == CONTEXT_NOT_STATED
    # the weights alone still bound the run: the fit counts them, and says why the cache is not
    assert isinstance(run.fit, MemoryFit) and run.fit.cache_not_counted == CONTEXT_NOT_STATED
    assert "context not stated" in explain(root, "benchmarks/llama-fp8-cold")
    build_database(root, tmp_path / "registry.duckdb")
    for table in ("runs", "benchmarks"):
        sql = f"SELECT context_tokens FROM {table} WHERE id = 'benchmarks/llama-fp8-cold'"
        assert run_query(tmp_path / "registry.duckdb", sql).rows == [(None,)]
