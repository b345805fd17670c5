"""A check after a change re-checks only what the change can affect, and answers exactly as a whole check.

Each scenario edits the registry's own records, runs `registry check` (answered from the cache's last
answer and the files the change reaches) and compares it, byte for byte, with `registry check
--no-cache`. The whole check is forbidden during the incremental run, so a scenario cannot pass by
checking everything again.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import registry.checker.incremental
import registry.checker.pipeline
from registry.checker.pipeline import check
from registry.cli import main
from tests.conftest import REPO

MODEL = "records/models/deepseek-v3.yaml"
RUN = "records/kv-efficiency/deepseek-v3-128k.yaml"
HARDWARE = "records/hardware/gb300-nvl72.yaml"


SEEDS = (MODEL, RUN, HARDWARE, "records/benchmarks/sglang-gb300-deepseek-r1-ttft-128k.yaml")
_ID = re.compile(r"\b(?:models|kv-efficiency|benchmarks|engines|hardware)/[a-z0-9][a-z0-9._-]*[a-z0-9]")


def _closure() -> set[Path]:
    """The seed records and every record they name, and those name, ...: a part of the registry's own
    records that checks clean on its own, whatever else the registry holds."""
    found: set[Path] = set()
    todo = [REPO / seed for seed in SEEDS]
    while todo:
        path = todo.pop()
        if path in found or not path.is_file():
            continue
        found.add(path)
        todo.extend(
            REPO / "records" / f"{name}.yaml" for name in _ID.findall(path.read_text(encoding="utf-8"))
        )
    return found


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for path in _closure():
        target = tmp_path / path.relative_to(REPO)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    shutil.copytree(REPO / "schemas", tmp_path / "schemas")
    return tmp_path


def _run(root: Path, capsys: pytest.CaptureFixture[str], *options: str) -> tuple[int, str]:
    code = main(["check", "--root", str(root), *options])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _incremental_equals_whole(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    """Check incrementally (the whole check forbidden), then whole; both answers, which must be equal."""
    with monkeypatch.context() as patched:

        def refuse(*args: object, **kwargs: object) -> None:
            raise AssertionError("the whole registry was checked; only the change should have been")

        patched.setattr(registry.checker.pipeline, "check", refuse)
        incremental = _run(root, capsys)
    whole = _run(root, capsys, "--no-cache")
    assert incremental == whole
    return incremental[1]


def _edit(root: Path, path: str, old: str, new: str) -> None:
    file = root / path
    text = file.read_text(encoding="utf-8")
    assert old in text
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_an_edited_model_re_checks_the_records_that_reference_it(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _run(root, capsys)[0] == 0
    _edit(root, MODEL, "num_hidden_layers: 61", "num_hidden_layers: 62")
    out = _incremental_equals_whole(root, capsys, monkeypatch)
    assert f"{RUN}:" in out and "F001" in out  # the claims of the run on that model now disagree
    _edit(root, MODEL, "num_hidden_layers: 62", "num_hidden_layers: 61")
    assert _incremental_equals_whole(root, capsys, monkeypatch).startswith("Checked")


@pytest.mark.parametrize("how", ["delete", "rename"])
def test_a_referenced_record_deleted_or_renamed_is_caught(
    root: Path, how: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _run(root, capsys)[0] == 0
    model = root / MODEL
    if how == "delete":
        model.unlink()
    else:  # the file and its id renamed, the records that name it left as they were
        model.rename(model.with_name("deepseek-v3-renamed.yaml"))
        _edit(
            root,
            "records/models/deepseek-v3-renamed.yaml",
            "id: models/deepseek-v3",
            "id: models/deepseek-v3-renamed",
        )
    out = _incremental_equals_whole(root, capsys, monkeypatch)
    assert f"{RUN}:" in out and "R004 dangling-reference" in out


SCENARIOS: list[tuple[str, Callable[[Path], None]]] = [
    ("a broken file", lambda r: (r / RUN).write_text("kind: [\n", encoding="utf-8")),
    ("its fix", lambda r: shutil.copy(REPO / RUN, r / RUN)),
    ("a typo in the model", lambda r: _edit(r, MODEL, "params_total_b:", "params_totl_b:")),
    ("a new record", lambda r: shutil.copy(REPO / RUN, r / "records/kv-efficiency/copy.yaml")),
    ("nothing more", lambda r: None),
    ("the copy removed", lambda r: (r / "records/kv-efficiency/copy.yaml").unlink()),
    (
        "a typo in a reference",
        lambda r: _edit(r, RUN, "model: models/deepseek-v3", "model: models/deepseek-v4"),
    ),
    ("the record it meant added", lambda r: shutil.copy(r / MODEL, r / "records/models/deepseek-v4.yaml")),
    (
        "a hardware record's memory",
        lambda r: _edit(r, HARDWARE, "memory_per_device: 288 GB", "memory_per_device: 1 GB"),
    ),
]


def test_a_sequence_of_changes_answers_as_whole_checks(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each change in turn, each answered from the last: errors appear and go as in a whole check."""
    _run(root, capsys)
    seen = set()
    for _name, change in SCENARIOS:
        change(root)
        seen.add(_incremental_equals_whole(root, capsys, monkeypatch))
    assert len(seen) > 3  # the answers did change along the way


def test_a_large_change_is_checked_whole(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _run(root, capsys)
    for number in range(40):  # more than a tenth of the files, and more than a few
        shutil.copyfile(root / HARDWARE, root / "records" / "hardware" / f"copy-{number}.yaml")
    calls: list[object] = []
    real = registry.checker.pipeline.check

    def counted(*args: object, **kwargs: object) -> registry.checker.pipeline.CheckResult:
        calls.append(args)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(registry.checker.pipeline, "check", counted)
    assert _run(root, capsys)[0] == 1  # the copies' ids are not their paths
    assert len(calls) == 1


def test_only_the_change_and_what_it_reaches_is_loaded(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _run(root, capsys)
    _edit(root, MODEL, "num_hidden_layers: 61", "num_hidden_layers: 62")
    loaded: list[str] = []
    real = registry.checker.incremental.load_files

    def counted(where: Path, files: list[str]) -> registry.checker.pipeline.Loaded:
        loaded.extend(files)
        return real(where, files)

    monkeypatch.setattr(registry.checker.incremental, "load_files", counted)
    _run(root, capsys)
    total = len(list((root / "records").rglob("*.yaml")))
    assert MODEL in loaded and RUN in loaded
    assert len(loaded) < total / 2
    assert "records/kv-efficiency/deepseek-v2-128k.yaml" not in loaded  # names another model


def test_the_results_db_and_site_read_stay_whole(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The database and the site take the library's check, never the cache's partial answer: after an
    incremental check its results still hold every record's."""
    _run(root, capsys)
    _edit(root, MODEL, "num_hidden_layers: 61", "num_hidden_layers: 62")
    _run(root, capsys)
    result = check(root)
    assert result.results is not None
    runs = {entry.id for entry in result.index if entry.kind in ("kv-efficiency", "benchmark")}
    models = {entry.id for entry in result.index if entry.kind == "model"}
    assert set(result.results.runs) == runs and set(result.results.models) == models


@pytest.mark.parametrize(
    "paths",
    [
        [MODEL],
        [RUN],
        ["records/kv-efficiency"],
        [HARDWARE, "records/engines"],
        ["schemas/model.schema.json"],  # a file that is not a record: said so, as in a whole check
    ],
    ids=["edited", "referencing", "folder", "file-and-folder", "not-a-record"],
)
def test_a_check_of_paths_after_an_edit_re_checks_only_the_change(
    root: Path, paths: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`registry check PATHS` reports from the whole answer, so after an edit it re-checks what the edit
    reaches (the whole check forbidden) and answers as `registry check --no-cache PATHS`."""
    named = [str(root / path) for path in paths]
    _run(root, capsys, *named)  # fills the cache with the whole answer
    _edit(root, MODEL, "num_hidden_layers: 61", "num_hidden_layers: 62")
    with monkeypatch.context() as patched:

        def refuse(*args: object, **kwargs: object) -> None:
            raise AssertionError("the whole registry was checked; only the change should have been")

        patched.setattr(registry.checker.pipeline, "check", refuse)
        incremental = _run(root, capsys, *named)
        unchanged = _run(root, capsys, *named)  # answered from the cache
        whole_after = _run(root, capsys)  # the same cache answers the whole registry too
    assert incremental == unchanged == _run(root, capsys, "--no-cache", *named)
    assert whole_after == _run(root, capsys, "--no-cache")
    assert f"{RUN}:" in whole_after[1] and "F001" in whole_after[1]  # the edit reached the run


def test_a_sparse_figure_added_to_another_hardware_record_re_checks_every_hardware_record(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hardware record's dense peak is weighed against every other's sparse figures (F017), so a new
    record that names nothing still changes the findings of one it never names."""
    assert _run(root, capsys)[0] == 0
    text = (root / HARDWARE).read_text(encoding="utf-8")
    dtype, figure = text.split("peak_dense_flops_per_device:\n  ", 1)[1].split("\n", 1)[0].split(": ", 1)
    other = root / "records" / "hardware" / "copied-gpu.yaml"
    other.write_text(
        "schema_version: 1\nid: hardware/copied-gpu\nkind: hardware\ntitle: A GPU\nevidence: source-reported\n"
        "name: A GPU\nvendor: Example Corp\nmemory_per_device: 80 GB\n"
        f"peak_sparse_flops_per_device:\n  {dtype}: {figure}\n"
        "sources:\n  - title: Example datasheet\n    url: https://example.com/datasheet\n",
        encoding="utf-8",
    )
    out = _incremental_equals_whole(root, capsys, monkeypatch)
    assert f"{HARDWARE}:" in out and f"equals the sparse {dtype} figure of hardware/copied-gpu" in out
    other.unlink()
    assert _incremental_equals_whole(root, capsys, monkeypatch).startswith("Checked")
