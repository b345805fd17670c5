"""What a contributor is promised around the records: pre-commit hooks that exist and run the commands
the contributing page names, a root CONTRIBUTING.md and a pull request template that point at it, a CI
workflow that runs what the page says it runs, and a page that shows how to write a model's layout by
hand, every field of which the fields page describes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from registry.checker.pipeline import check
from registry.cli import COMMANDS
from registry.kinds.model import LayerGroupSpec
from registry.report.calc import calc_model
from registry.site._reference_fields import render_fields_page
from tests.conftest import REPO

PAGE = REPO / "site" / "contributing.md"
_YAML = re.compile(r"```yaml(?: title=\"(?P<title>[^\"]+)\")?\n(?P<body>.*?)```", re.S)


def _load(text: str) -> Any:
    return YAML(typ="safe").load(text)


def _page_yaml() -> list[tuple[str | None, str]]:
    return [(m["title"], m["body"]) for m in _YAML.finditer(PAGE.read_text(encoding="utf-8"))]


def _hooks() -> dict[str, dict[str, Any]]:
    return {hook["id"]: hook for hook in _load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}


def test_the_hooks_run_check_and_fmt_on_record_files() -> None:
    hooks = _hooks()
    assert hooks["registry-check"]["entry"] == "registry check"
    assert hooks["registry-fmt"]["entry"] == "registry fmt"
    for hook in hooks.values():
        pattern = re.compile(hook["files"])
        assert pattern.search("records/models/qwen3-8b.yaml")
        assert not pattern.search("registry/cli/__init__.py")


def test_the_pages_sample_pre_commit_config_matches_the_hooks() -> None:
    samples = [_load(body) for title, body in _page_yaml() if title is None and "repos:" in body]
    assert len(samples) == 1
    hooks = _hooks()
    sampled = {hook["id"]: hook for repo in samples[0]["repos"] for hook in repo["hooks"]}
    assert sampled.keys() == hooks.keys()
    for hook_id, hook in sampled.items():
        assert hook["entry"].endswith(hooks[hook_id]["entry"])  # .venv/bin/registry check
        assert hook["files"] == hooks[hook_id]["files"]


def test_contributing_md_and_the_pull_request_template_point_at_the_page() -> None:
    contributing = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "](site/contributing.md)" in contributing and ".pre-commit-config.yaml" in contributing
    template = (REPO / ".github" / "pull_request_template.md").read_text(encoding="utf-8")
    assert (
        "contributing.md" in template and "registry check" in template and "registry fmt --check" in template
    )


def test_ci_runs_what_the_contributing_page_says_it_runs() -> None:
    page = PAGE.read_text(encoding="utf-8")
    runs = [
        step["run"]
        for workflow in (REPO / ".github" / "workflows").glob("*.yml")
        for job in _load(workflow.read_text(encoding="utf-8"))["jobs"].values()
        for step in job["steps"]
        if "run" in step
    ]
    for command in ("registry schema --check", "registry check --format github", "registry fmt --check"):
        assert command in runs, command
        assert f"`{command}`" in page, command
    assert "CI runs it" in page  # said of registry fmt --check


def test_the_pages_hand_written_layout_is_a_hybrid_that_checks_clean(tmp_path: Path) -> None:
    (title, body), *_ = [(t, b) for t, b in _page_yaml() if t and "\nlayout:\n" in b]
    target = tmp_path / title
    target.parent.mkdir(parents=True)
    target.write_text(body, encoding="utf-8")
    record = _load(body)
    assert "config" not in record
    assert {group["mechanism"] for group in record["layout"]} == {"recurrent", "mla"}
    result = check(tmp_path)
    assert result.diagnostics == [] and result.files == 1


@pytest.mark.parametrize("layout", ["ideal", "vllm"])
def test_the_pages_layout_gives_the_cache_the_registry_derives_from_the_config(
    tmp_path: Path, layout: str
) -> None:
    """The hand-written example is Kimi K3, whose record in the registry holds its verbatim config: the
    layout written by hand and the one the adapter derives give the same bytes."""
    (title, body), *_ = [(t, b) for t, b in _page_yaml() if t and "\nlayout:\n" in b]
    target = tmp_path / title
    target.parent.mkdir(parents=True)
    target.write_text(body, encoding="utf-8")
    options = dict(context_tokens=131072, engine_layout=layout)
    by_hand = calc_model(tmp_path, "models/kimi-k3", **options)  # type: ignore[arg-type]
    from_config = calc_model(REPO, "models/kimi-k3", **options)  # type: ignore[arg-type]
    assert by_hand.total_bytes is not None
    assert (by_hand.total_bytes, by_hand.fixed_bytes) == (from_config.total_bytes, from_config.fixed_bytes)


def test_the_fields_page_describes_every_layout_field() -> None:
    page = render_fields_page()
    for name, field in LayerGroupSpec.model_fields.items():
        assert field.description, name
        row = next(line for line in page.splitlines() if f"<code>layout[].{name}</code>" in line)
        assert field.description.split(" (")[0][:40] in row.replace("&#x27;", "'"), name


@pytest.mark.parametrize("hook", ["registry-check", "registry-fmt"])
def test_the_hook_entries_are_commands_that_exist(hook: str) -> None:
    entry = _hooks()[hook]["entry"].split()
    assert entry[0] == "registry" and entry[1] in COMMANDS
