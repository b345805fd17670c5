"""The library surface: every exported name imports, and importing the package stays light."""

from __future__ import annotations

import subprocess
import sys

import registry


def test_every_exported_name_resolves() -> None:
    for name in registry.__all__:
        assert getattr(registry, name) is not None, name


def test_unknown_names_are_attribute_errors() -> None:
    try:
        registry.no_such_name  # noqa: B018
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:
        raise AssertionError("an unknown name resolved")


def test_importing_the_package_imports_no_validator() -> None:
    code = "import sys, registry, registry.cli; print(sorted(m for m in ('pydantic', 'jsonschema', 'duckdb') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_notebook_calculation() -> None:
    from pathlib import Path

    from tests.conftest import REPO

    result = registry.calc_model(Path(REPO), "deepseek-v3", context_tokens=131072, layout="ideal")
    assert result.bytes_per_token == 70272
    assert registry.parse_quantity("68.6 KiB").admits(70272)
