"""One source for every model's maximum context: a model record's ``max_context_tokens`` is the length its
``config`` states, read as ``registry import-config`` reads it (what a serving engine accepts), unless the
record says in ``max_context_not_from_config`` why not. A model card's shorter, quality-tested length
belongs in the record's notes, so that DeepSeek's README 128K and Qwen3's card 32,768 do not make two
models with the same kind of config state their maximum two different ways."""

from __future__ import annotations

import pytest

from registry.checker.pipeline import check
from registry.engine.adapters import max_context_from_config
from registry.kinds.records import Model
from tests.conftest import REPO


@pytest.fixture(scope="module")
def models() -> list[Model]:
    result = check(REPO, [REPO / "records" / "models"])
    return [entry.record for entry in result.index if isinstance(entry.record, Model)]


def _departures(models: list[Model]) -> list[str]:
    """Each model whose maximum differs from its config's without a reason, or gives a reason where the
    two agree (or where there is no config to differ from)."""
    found = []
    for model in models:
        reason = model.max_context_not_from_config
        if model.config is None:
            if reason is not None:
                found.append(f"{model.id}: a reason, but no config to differ from")
            continue
        stated = max_context_from_config(model.config)
        derived = None if stated is None else stated.tokens
        agrees = model.max_context_tokens == derived
        if not agrees and reason is None:
            found.append(f"{model.id}: max_context_tokens {model.max_context_tokens}, the config's {derived}")
        if agrees and reason is not None:
            found.append(f"{model.id}: a reason, but max_context_tokens is the config's {derived}")
    return found


def test_every_model_s_maximum_is_its_config_s_unless_it_says_why(models: list[Model]) -> None:
    assert _departures(models) == []


def test_the_real_records_hold_both_cases(models: list[Model]) -> None:
    with_config = [model for model in models if model.config is not None]
    assert len(with_config) >= 50
    assert any(model.max_context_not_from_config for model in with_config)
    by_id = {model.id: model for model in models}
    assert by_id["models/deepseek-v3"].max_context_tokens == 163_840
    assert by_id["models/qwen3-32b"].max_context_tokens == 40_960


def _model(max_context: int | None, reason: str | None, config: dict[str, object] | None) -> Model:
    fields: dict[str, object] = {
        "schema_version": 1,
        "id": "models/m",
        "kind": "model",
        "title": "M",
        "evidence": "architectural",
        "name": "M",
        "org": "O",
        "max_context_tokens": max_context,
        "max_context_not_from_config": reason,
        "sources": [{"title": "config.json", "url": "https://x.org/c"}],
    }
    if config is None:
        fields["layout"] = [{"layers": 2, "mechanism": "attention", "num_kv_heads": 1, "head_dim": 64}]
    else:
        source = {"repository": "o/m", "revision": "0123456789abcdef0123456789abcdef01234567"}
        fields |= {"config": config, "config_source": source}
    return Model.model_validate(fields)


YARN = {
    "max_position_embeddings": 163_840,
    "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096},
}
REASON = "The config names its length in a field no server reads."


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        (_model(163_840, None, YARN), []),
        (_model(131_072, None, YARN), ["models/m: max_context_tokens 131072, the config's 163840"]),
        (_model(131_072, REASON, YARN), []),
        (
            _model(163_840, REASON, YARN),
            ["models/m: a reason, but max_context_tokens is the config's 163840"],
        ),
        (_model(None, None, {"n_ctx": 2048}), []),
        (_model(2048, None, {"n_ctx": 2048}), ["models/m: max_context_tokens 2048, the config's None"]),
        (_model(4096, REASON, None), ["models/m: a reason, but no config to differ from"]),
        (_model(4096, None, None), []),
    ],
)
def test_a_departure_is_found(model: Model, expected: list[str]) -> None:
    assert _departures([model]) == expected
