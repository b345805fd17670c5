"""ARCHITECTURE.md draws the package as it is: every package it names exists, every package is named,
and the layout's rules (no private imports across packages, no cycle-dodging imports, short modules)
hold in the code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "registry"
_NAMED = re.compile(r"^\| `registry/(?P<name>[a-z_]+)/` \|", re.M)
_NAMED_MODULE = re.compile(r"^\| `registry/(?P<name>[a-z_]+)\.py` \|", re.M)
MAX_LINES = 450


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _dotted(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(package: str, name: str) -> bool:
    """``from package import name`` imports a module (not a function or a constant)."""
    folder = REPO.joinpath(*package.split("."))
    return (folder / f"{name}.py").is_file() or (folder / name / "__init__.py").is_file()


def _top_package(dotted: str) -> str:
    """The package a module belongs to for the private-import rule: ``registry.site._html`` →
    ``registry.site``; a module at the top (``registry.errors``) is its own."""
    parts = dotted.split(".")
    return ".".join(parts[:2])


def test_every_package_named_exists_and_every_package_is_named() -> None:
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(_NAMED.findall(text))
    actual = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert named, "ARCHITECTURE.md names no package"
    assert named - actual == set(), "named in ARCHITECTURE.md but not a package"
    assert actual - named == set(), "a package ARCHITECTURE.md does not draw"


def test_every_top_level_module_is_named() -> None:
    text = (REPO / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(_NAMED_MODULE.findall(text))
    actual = {path.stem for path in PACKAGE.glob("*.py") if not path.stem.startswith("_")}
    assert named == actual


def test_no_module_imports_another_packages_private_module() -> None:
    found = []
    for path in _modules():
        mine = _top_package(_dotted(path))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [
                    f"{node.module}.{alias.name}"
                    for alias in node.names
                    if _is_module(node.module, alias.name)
                ]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            for target in targets:
                parts = target.split(".")
                private = any(part.startswith("_") and not part.startswith("__") for part in parts[1:])
                if target.startswith("registry.") and private and _top_package(target) != mine:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} imports {target}")
    assert found == []


def test_function_level_imports_only_keep_start_up_fast() -> None:
    """An import inside a function is allowed only to keep start-up fast, and then says so (``# lazy``)."""
    found = []
    for path in _modules():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom) and "# lazy" not in lines[inner.lineno - 1]:
                    found.append(f"{path.relative_to(REPO)}:{inner.lineno}")
    assert sorted(set(found)) == []


def test_no_module_is_longer_than_the_limit() -> None:
    long = {
        str(path.relative_to(REPO)): count
        for path in _modules()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_engine_imports_nothing_else_of_the_package() -> None:
    found = []
    for path in sorted((PACKAGE / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.startswith("registry.") and not node.module.startswith("registry.engine"):
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} imports {node.module}")
                if node.module.split(".")[0] in {"pydantic", "duckdb", "ruamel", "yaml"}:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} imports {node.module}")
    assert found == []


def test_the_bounds_import_only_the_engine() -> None:
    found = []
    for path in sorted((PACKAGE / "bounds").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                inside = node.module.startswith(("registry.engine", "registry.bounds"))
                if node.module.startswith("registry.") and not inside:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} imports {node.module}")
                if node.module.split(".")[0] in {"pydantic", "duckdb", "ruamel", "yaml"}:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} imports {node.module}")
    assert found == []
