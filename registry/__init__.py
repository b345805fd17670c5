"""The Inference Efficiency Registry as a library.

Everything a command does is callable from Python, for notebooks and scripts::

    from registry import calc_model, check, explain, parse_quantity
    result = calc_model(Path("."), "deepseek-v3", context_tokens=131072, engine_layout="vllm")
    print(result.total_bytes, result.bytes_per_token)

Names are imported on first use (PEP 562), so ``registry --help`` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS: dict[str, str] = {
    # checking
    "check": "registry.checker.pipeline",
    "CheckResult": "registry.checker.pipeline",
    "Diagnostic": "registry.diagnostics",
    "Severity": "registry.diagnostics",
    "find_root": "registry.root",
    "all_rules": "registry.codes",
    "find_rule": "registry.codes",
    # the engine
    "calc_config": "registry.report.calc",
    "calc_model": "registry.report.calc",
    "explain": "registry.report.explain",
    "compute": "registry.engine.compute",
    "CacheResult": "registry.engine.compute",
    "layer_groups_from_config": "registry.engine.adapters",
    "model_layer_groups": "registry.kinds.geometry",
    "check_claim": "registry.engine.claims",
    "ClaimSpec": "registry.engine.claims",
    "parse_quantity": "registry.engine.units",
    "parse_context": "registry.engine.units",
    "format_bytes": "registry.engine.units",
    # records, database, site
    "Model": "registry.kinds.records",
    "KvEfficiency": "registry.kinds.records",
    "Benchmark": "registry.kinds.records",
    "Engine": "registry.kinds.records",
    "Hardware": "registry.kinds.records",
    "build_database": "registry.db",
    "run_query": "registry.db",
    "export_parquet": "registry.db",
    "build_site": "registry.site",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'registry' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
