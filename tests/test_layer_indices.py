"""A stated layout whose groups interleave says which layers each group is, and every reader shows them
as they are: a group's layers keep their places in the stack, and the count stays the stack's."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from registry.cli import main
from registry.kinds.geometry import layer_groups_from_specs
from registry.kinds.records import LayerGroupSpec, Model
from tests.conftest import REPO


def _model(layout: list[dict[str, Any]]) -> Model:
    return Model.model_validate(
        {
            "schema_version": 1,
            "id": "models/x",
            "kind": "model",
            "title": "x",
            "evidence": "source-reported",
            "name": "x",
            "org": "x",
            "sources": [{"title": "x", "url": "https://example.org/x"}],
            "layout": layout,
        }
    )


ATTENTION = {"mechanism": "attention", "num_kv_heads": 1, "head_dim": 8}
STATE = {"mechanism": "recurrent", "variant": "kda", "state_heads": 2, "state_k_dim": 4, "state_v_dim": 4}


def test_interleaved_groups_keep_their_layers() -> None:
    model = _model(
        [
            {"layers": 3, **STATE, "layer_indices": [0, 1, 3]},
            {"layers": 2, **ATTENTION, "layer_indices": [4, 2]},
        ]
    )
    assert model.layout is not None
    layout = layer_groups_from_specs("x", model.layout)
    assert [group.layers for group in layout.groups] == [(0, 1, 3), (2, 4)]
    assert layout.num_layers == 5


def test_groups_without_indices_follow_one_another() -> None:
    specs = [LayerGroupSpec(layers=2, **STATE), LayerGroupSpec(layers=1, **ATTENTION)]  # type: ignore[arg-type]
    assert [g.layers for g in layer_groups_from_specs("x", specs).groups] == [(0, 1), (2,)]


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        (
            [{"layers": 2, **STATE, "layer_indices": [0, 2]}, {"layers": 1, **ATTENTION}],
            "every group or none",
        ),
        (
            [{"layers": 2, **STATE, "layer_indices": [0]}, {"layers": 1, **ATTENTION, "layer_indices": [1]}],
            "lists 1",
        ),
        (
            [
                {"layers": 2, **STATE, "layer_indices": [0, 1]},
                {"layers": 1, **ATTENTION, "layer_indices": [1]},
            ],
            "each of the 3 layers",
        ),
        (
            [
                {"layers": 2, **STATE, "layer_indices": [1, 2]},
                {"layers": 1, **ATTENTION, "layer_indices": [3]},
            ],
            "0 to 2 once",
        ),
    ],
)
def test_indices_that_do_not_place_each_layer_once_are_refused(
    layout: list[dict[str, Any]], message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        _model(layout)


def test_explain_shows_deepseek_v4_groups_interleaved(capsys: pytest.CaptureFixture[str]) -> None:
    """DeepSeek-V4-Pro alternates its CSA and HCA layers after two HCA layers (compress_ratios in its
    config); 30 + 31 layers, 61 in all, never 61 counted twice."""
    assert main(["explain", "--root", str(REPO), "models/deepseek-v4"]) == 0
    out = capsys.readouterr().out
    assert "30 × compressed (csa), layers 2, 4, 6, …, 60" in out
    assert "31 × compressed (hca), layers 0, 1, 3, …, 59" in out
