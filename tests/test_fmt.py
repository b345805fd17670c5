"""``registry fmt``: the canonical form, comments that travel with their keys, ``--check``, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from registry.authoring import fmt as _fmt
from registry.authoring.comments import find_comments
from registry.authoring.fmt import FmtLoadError, fmt, format_text
from registry.authoring.order import canonical_order
from registry.cli import main
from registry.kinds.records import MODEL_CLASSES, Claim, Source

SCRAMBLED = """\
# yaml-language-server: $schema=../../schemas/wrong.schema.json
# Written by hand, keys in no particular order.
claims:    # the numbers
    # the per-token figure
    -   stated: 70,272 B   # exact
        # what is claimed
        quantity: bytes_per_token
kind: kv-efficiency # the kind
sources:
- url: https://arxiv.org/abs/2412.19437
  # the report's title
  title: DeepSeek-V3 Technical Report
id: kv-efficiency/example
# the run
precision:
    kv_cache: bf16
schema_version: 1
title: 'Example: the MLA cache'
evidence: architectural
model: models/deepseek-v3
layout: ideal
context_tokens: 131072
mystery: kept last
# end of the record
"""

CANONICAL = """\
# yaml-language-server: $schema=../../schemas/kv-efficiency.schema.json
# Written by hand, keys in no particular order.
schema_version: 1
id: kv-efficiency/example
kind: kv-efficiency # the kind
title: 'Example: the MLA cache'
evidence: architectural
model: models/deepseek-v3
layout: ideal
# the run
precision:
  kv_cache: bf16
context_tokens: 131072
claims:    # the numbers
  # the per-token figure
  # what is claimed
  - quantity: bytes_per_token
    stated: 70,272 B   # exact
sources:
  # the report's title
  - title: DeepSeek-V3 Technical Report
    url: https://arxiv.org/abs/2412.19437
mystery: kept last
# end of the record
"""


def test_keys_are_put_in_canonical_order_and_comments_travel_with_them() -> None:
    assert format_text(SCRAMBLED) == CANONICAL


def test_formatting_twice_is_formatting_once() -> None:
    assert format_text(CANONICAL) == CANONICAL


def test_a_comment_above_a_key_stays_above_it_when_the_key_moves() -> None:
    text = "kind: hardware\n# about the vendor\nvendor: Example Corp\n# about the name\nname: Example GPU\n"
    lines = format_text(text).splitlines()
    assert lines[lines.index("name: Example GPU") - 1] == "# about the name"
    assert lines[lines.index("vendor: Example Corp") - 1] == "# about the vendor"


def test_an_end_of_line_comment_stays_on_its_key_s_line() -> None:
    text = "vendor: Example Corp  # maker\nkind: hardware\nname: Example GPU # product\n"
    out = format_text(text)
    assert "vendor: Example Corp  # maker\n" in out
    assert "name: Example GPU # product\n" in out


def test_config_keeps_its_published_order() -> None:
    text = "kind: model\nconfig:\n  zeta: 1\n  alpha: 2\nid: models/x\n"
    out = format_text(text)
    assert out.index("zeta") < out.index("alpha")
    assert out.index("id: models/x") < out.index("config:")


def test_nested_records_follow_their_class() -> None:
    text = (
        "kind: kv-efficiency\nclaims:\n  - stated: 1 B\n    variant: actual\n    quantity: bytes_per_token\n"
    )
    out = format_text(text)
    assert out.index("quantity") < out.index("variant") < out.index("stated")


def test_modeline_is_added_when_missing() -> None:
    assert format_text("kind: engine\nid: engines/x\n").startswith(
        "# yaml-language-server: $schema=../../schemas/engine.schema.json\nid: engines/x\n"
    )


def test_values_and_their_styles_are_kept() -> None:
    text = (
        "kind: hardware\nname: 'single'\nvendor: \"double\"\ntitle: plain\n"
        "notes: |\n  line one # not a comment\n  # not a comment either\n"
        "tags: [a, b]\nrelated: null\n"
    )
    out = format_text(text)
    for piece in (
        "name: 'single'",
        'vendor: "double"',
        "  line one # not a comment",
        "tags: [a, b]",
        "related: null",
    ):
        assert piece in out


def test_canonical_order_names_every_field_once_identity_first_prose_last() -> None:
    for cls in MODEL_CLASSES.values():
        order = canonical_order(cls)
        assert sorted(order) == sorted(cls.model_fields)
        assert order[:5] == ["schema_version", "id", "kind", "title", "evidence"]
        assert order[-6:] == ["sources", "notes", "methodology", "related", "tags", "errata"]
    assert canonical_order(Claim)[:3] == ["quantity", "variant", "versus"]
    assert canonical_order(Source)[:2] == ["title", "url"]


def test_find_comments_skips_hashes_inside_scalars() -> None:
    text = "a: 'x # y'\nb: |\n  # inside\nc: d#e  # real\n# full line\n"
    found = [(c.line, c.text, c.end_of_line) for c in find_comments(text)]
    assert found == [(3, "# real", True), (4, "# full line", False)]


def test_a_file_that_does_not_load_is_refused() -> None:
    with pytest.raises(FmtLoadError) as error:
        format_text("kind: hardware\nname: [unclosed\n")
    assert error.value.diagnostics[0].code == "Y001"


# ---------------------------------------------------------------- files and the command


def _registry(tmp_path: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = tmp_path / "records" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_fmt_rewrites_what_is_not_canonical_and_leaves_the_rest(tmp_path: Path) -> None:
    root = _registry(tmp_path, {"kv-efficiency/a.yaml": SCRAMBLED, "kv-efficiency/b.yaml": CANONICAL})
    report = fmt(root)
    assert [(f.path, f.status) for f in report.files] == [
        ("records/kv-efficiency/a.yaml", "reformatted"),
        ("records/kv-efficiency/b.yaml", "unchanged"),
    ]
    assert (root / "records/kv-efficiency/a.yaml").read_text(encoding="utf-8") == CANONICAL
    assert report.ok


def test_check_lists_each_non_canonical_file_writes_nothing_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _registry(tmp_path, {"kv-efficiency/a.yaml": SCRAMBLED, "kv-efficiency/b.yaml": CANONICAL})
    assert main(["fmt", "--check", "--root", str(root)]) == 1
    out, err = capsys.readouterr()
    assert out == "records/kv-efficiency/a.yaml: not in canonical form; run 'registry fmt'\n"
    assert err == "2 files: 1 not in canonical form, 1 already canonical.\n"
    assert (root / "records/kv-efficiency/a.yaml").read_text(encoding="utf-8") == SCRAMBLED


def test_check_passes_once_formatted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _registry(tmp_path, {"kv-efficiency/a.yaml": SCRAMBLED})
    assert main(["fmt", "--root", str(root)]) == 0
    assert capsys.readouterr().out == "reformatted records/kv-efficiency/a.yaml\n"
    assert main(["fmt", "--check", "--root", str(root)]) == 0
    assert capsys.readouterr().err == "1 file: all in canonical form.\n"


def test_a_syntax_error_is_reported_and_the_file_left_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = "kind: hardware\nname: [unclosed\n"
    root = _registry(tmp_path, {"hardware/bad.yaml": broken, "kv-efficiency/a.yaml": SCRAMBLED})
    assert main(["fmt", "--root", str(root)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith(
        "records/hardware/bad.yaml: does not load; left untouched\nrecords/hardware/bad.yaml:3:1: Y001"
    )
    assert "reformatted records/kv-efficiency/a.yaml" in out
    assert err == "2 files: 1 reformatted, 1 left untouched.\n"
    assert (root / "records/hardware/bad.yaml").read_text(encoding="utf-8") == broken


def test_paths_limit_fmt_to_the_files_named(tmp_path: Path) -> None:
    root = _registry(tmp_path, {"kv-efficiency/a.yaml": SCRAMBLED, "kv-efficiency/b.yaml": SCRAMBLED})
    report = fmt(root, [root / "records/kv-efficiency/b.yaml"])
    assert [f.path for f in report.files] == ["records/kv-efficiency/b.yaml"]
    assert (root / "records/kv-efficiency/a.yaml").read_text(encoding="utf-8") == SCRAMBLED


def test_a_missing_path_cannot_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _registry(tmp_path, {"kv-efficiency/a.yaml": CANONICAL})
    assert main(["fmt", "--root", str(root), str(root / "records/nope.yaml")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_a_result_that_would_change_a_value_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _registry(tmp_path, {"kv-efficiency/a.yaml": SCRAMBLED})
    monkeypatch.setattr(_fmt, "_render", lambda text: text.replace("70,272 B", "70,273 B"))
    assert main(["fmt", "--root", str(root)]) == 1
    assert capsys.readouterr().out == (
        "records/kv-efficiency/a.yaml: the canonical form would change a value; left untouched\n"
    )
    assert (root / "records/kv-efficiency/a.yaml").read_text(encoding="utf-8") == SCRAMBLED


def test_a_result_that_would_lose_a_comment_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _registry(tmp_path, {"kv-efficiency/a.yaml": SCRAMBLED})
    monkeypatch.setattr(_fmt, "_render", lambda text: text.replace("   # exact", ""))
    [result] = fmt(root).files
    assert (result.status, result.message) == (
        "refused",
        "the canonical form would lose or alter a comment; left untouched",
    )
    assert (root / "records/kv-efficiency/a.yaml").read_text(encoding="utf-8") == SCRAMBLED
