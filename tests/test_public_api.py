"""The library surface: ``registry.__all__`` is complete and every name in it resolves to what it
promises, and importing the package stays light.

``__all__`` is complete when it holds every name of the lazily exported table, every name the package's
docstring or the README shows imported from ``registry`` (``from registry import ...``,
``registry.name``), and every public name the package's namespace holds once all of them are loaded;
nothing else is in it."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys
import types
from typing import Any

import registry
from tests.conftest import REPO

_IMPORTED = re.compile(r"^\s*from registry import (?:\(([^)]*)\)|([^\n]*))", re.M)
_ATTRIBUTE = re.compile(r"\bregistry\.(\w+)\b(?!\.)")
"""``registry.name``, but not the first step of a module path such as ``registry.db.run_query``."""


def promised_names(text: str) -> set[str]:
    """The names ``text`` shows used from the top of the package: in ``from registry import ...``
    lines and as ``registry.name``."""
    names = {name.strip() for found in _IMPORTED.findall(text) for name in ",".join(found).split(",")}
    return {name for name in names | set(_ATTRIBUTE.findall(text)) if name}


def _python_blocks(markdown: str) -> str:
    return "\n".join(re.findall(r"```(?:python|py|pycon)\n(.*?)```", markdown, re.S))


def test_the_names_of_the_docstring_and_the_readme_are_exported() -> None:
    docstring = registry.__doc__ or ""
    readme = _python_blocks((REPO / "README.md").read_text(encoding="utf-8"))
    promised = promised_names(docstring) | promised_names(readme)
    assert {"calc_model", "check", "explain", "parse_quantity"} <= promised  # the rule reads the docstring
    assert sorted(promised - set(registry.__all__)) == []


def test_all_is_exactly_the_exported_table() -> None:
    table = registry._EXPORTS
    assert len(registry.__all__) == len(set(registry.__all__))
    assert sorted(registry.__all__) == sorted(table)


def _subpackages() -> set[str]:
    return {module.name for module in pkgutil.iter_modules(registry.__path__)}


def test_every_exported_name_resolves_to_its_definition() -> None:
    for module in set(registry._EXPORTS.values()):
        importlib.import_module(module)  # the subpackages loaded first, as any earlier import may have
    for name, module in registry._EXPORTS.items():
        if name in _subpackages():
            continue  # the next test
        assert getattr(registry, name) is getattr(importlib.import_module(module), name), name


def test_no_export_is_named_like_a_subpackage() -> None:
    """Importing ``registry.<name>`` binds ``registry.<name>`` to that subpackage, whatever the package
    exported under that name, so ``from registry import <name>`` would give the module."""
    assert sorted(set(registry.__all__) & _subpackages()) == []


def _is_public(name: str, value: object) -> bool:
    """A name of the package's own at its top: not private, not a subpackage, not a name it imported
    from outside the package for its own use (``typing.Any``)."""
    if name.startswith("_") or isinstance(value, types.ModuleType):
        return False
    return str(getattr(value, "__module__", "registry")).split(".")[0] == "registry"


def test_nothing_public_at_the_top_is_left_out() -> None:
    for name in registry.__all__:
        getattr(registry, name)
    public = {name for name, value in vars(registry).items() if _is_public(name, value)}
    assert public >= {"calc_model", "CheckResult"}  # loaded above, so the rule sees what it must
    assert sorted(public - set(registry.__all__)) == []


def test_the_completeness_rules_can_fail() -> None:
    assert promised_names("from registry import check, no_such_export\n") == {"check", "no_such_export"}
    assert promised_names("registry.db.run_query(path, sql)\nx = registry.calc_model(root)") == {"calc_model"}
    assert _is_public("forgotten", registry.find_rule) and _is_public("LIMIT", 3)
    assert not _is_public("Any", Any) and not _is_public("db", registry)


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

    result = registry.calc_model(Path(REPO), "deepseek-v3", context_tokens=131072, engine_layout="ideal")
    assert result.bytes_per_token == 70272
    assert registry.parse_quantity("68.6 KiB").admits(70272)
