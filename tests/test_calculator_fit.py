"""The model page calculator's fit data: for every hardware record and every model of the registry it is
what ``registry fit`` counts (each unit's memory for any count, the weights in each format offered, the
model dtype each format computes in, the model's maximum), so that the fit worked out from the data
alone, as the page's script works it out, is ``registry fit``'s answer."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from registry.checker.pipeline import load_record
from registry.engine.units import MAX_CONTEXT_TOKENS
from registry.kinds.geometry import model_layer_groups
from registry.kinds.records import Hardware, Model
from registry.report.fit import FitQuestion, fit_model
from registry.results.calculator import Choice, as_data, choices, totals
from registry.results.calculator_fit import WEIGHTS_FORMATS, fit_data, hardware_units, weights_choices
from registry.results.fit import hardware_bytes, weight_bytes
from registry.results.geometry import model_dtype
from registry.results.weights import published_weights
from registry.site._calculator import script_json
from tests.browser.site_registry import make_registry
from tests.conftest import REPO

MODELS = sorted(path.stem for path in (REPO / "records" / "models").glob("*.yaml"))
HARDWARE = sorted(path.stem for path in (REPO / "records" / "hardware").glob("*.yaml"))


def _hardware() -> list[Hardware]:
    return [load_record(REPO, f"hardware/{slug}", Hardware) for slug in HARDWARE]


def test_every_units_memory_is_registry_fits_for_any_count() -> None:
    records = _hardware()
    units = hardware_units(records)
    assert [unit.id for unit in units] == [
        r.id for r in sorted(records, key=lambda r: (r.name.casefold(), r.id))
    ]
    data = fit_data(load_record(REPO, "models/llama-3.1-8b", Model), _layout("llama-3.1-8b"), units)
    for record in records:
        unit = next(u for u in units if u.id == record.id)
        shown = data["hardware"][record.id]
        device = Fraction(shown["device_bytes"])
        for count in (1, 3, 8, 72, 1000):
            memory = hardware_bytes(record, count)
            assert unit.memory(count) == memory, (record.id, count)
            assert math.floor(count * shown["devices"] * device) == memory, (record.id, count)
        assert shown["name"] == record.name


def _layout(slug: str) -> Any:
    return model_layer_groups(load_record(REPO, f"models/{slug}", Model))


def _choice(model: Model, option: str, kv: str, layout_key: str) -> Choice:
    """The terms the page counts under a weights option, from the data's own pointer to them."""
    layout = model_layer_groups(model)
    base = model_dtype(model.config or {}, None)
    data = fit_data(model, layout, ())
    variant = data["weights"][option]["variant"]
    if variant is not None:
        assert data["variants"][variant] == as_data(layout, variant)["layouts"]
    return next(
        c for c in choices(layout, variant or base) if (c.engine_layout, c.kv_dtype) == (layout_key, kv)
    )


def _fit_from_data(
    model: Model, unit: dict[str, Any], count: int, option: str, t: int, batch: int
) -> dict[str, Any]:
    """``registry fit``'s figures worked out from the page's data only, as the script does (vllm, bf16)."""
    data = fit_data(model, model_layer_groups(model), ())
    if option not in data["weights"]:  # the published format, offered once: the answer is the same
        option = ""
    memory = math.floor(count * unit["devices"] * Fraction(unit["device_bytes"]))
    weights = data["weights"][option]["bytes"]
    room = memory - int(weights or 0)
    choice = _choice(model, option, "bf16", "vllm")
    if choice.reason is not None:
        return {"room": room, "cache": None}
    one = totals(choice, t).total_bytes
    top = data["model_max"] or MAX_CONTEXT_TOKENS
    if totals(choice, top, batch).total_bytes <= room:
        longest = top
    elif totals(choice, 1, batch).total_bytes > room:
        longest = 0
    else:
        low, high = 1, top
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if totals(choice, middle, batch).total_bytes <= room else (low, middle)
        longest = low
    return {
        "room": room,
        "cache": one * batch,
        "largest": max(0, room) // one if one else None,
        "longest": longest,
        "fits": one * batch <= room,
    }


@pytest.mark.parametrize("slug", MODELS)
def test_the_fit_from_the_data_is_registry_fits(slug: str) -> None:
    model = load_record(REPO, f"models/{slug}", Model)
    for hardware, count, option, t, batch in (
        ("h100-sxm", 8, "", 128 * 1024, 1),
        ("b200", 1, "fp8", 32 * 1024, 16),
    ):
        record = load_record(REPO, f"hardware/{hardware}", Hardware)
        unit = fit_data(model, model_layer_groups(model), hardware_units([record]))["hardware"][record.id]
        question = FitQuestion(slug, hardware, count, t, batch, option or None)
        answer = fit_model(REPO, question).fit
        found = _fit_from_data(model, unit, count, option, t, batch)
        assert found["room"] == answer.room, (hardware, option)
        assert found["cache"] == answer.cache_bytes, (hardware, option)
        if answer.cache_bytes is not None:
            assert (found["largest"], found["longest"], found["fits"]) == (
                answer.largest_batch,
                answer.longest_context,
                answer.fits,
            ), (hardware, option)


@pytest.mark.parametrize("slug", MODELS)
def test_the_weights_offered_are_registry_fits(slug: str) -> None:
    """The published format is fit's default, in its words; every other format offered gives fit's
    weights for ``--weights`` and the model dtype fit computes the cache in."""
    model = load_record(REPO, f"models/{slug}", Model)
    offered = weights_choices(model)
    published = published_weights(model.config)
    first = offered[0]
    assert (first.option, first.dtype) == ("", published.dtype)
    report = fit_model(REPO, FitQuestion(slug, "h100-sxm"))
    assert first.weight_bytes == report.fit.weight_bytes
    if model.params_total_b is not None:
        assert report.header[2] == f"weights: {first.says[:-1]}; name another with --weights)"
    assert [c.option for c in offered[1:]] == [
        d for d in WEIGHTS_FORMATS if _differs(model, d, first.dtype, first.model_dtype)
    ]
    for choice in offered[1:]:
        assert choice.weight_bytes == weight_bytes(model.params_total_b, choice.dtype)
        assert choice.model_dtype == model_dtype(model.config or {}, choice.option)
    layout = model_layer_groups(model)
    data = fit_data(model, layout, ())
    assert list(data["weights"]) == [c.option for c in offered]
    assert data["model_max"] == model.max_context_tokens
    base = as_data(layout, first.model_dtype)["layouts"]
    for choice in offered:  # the cache each option points at is the one fit computes under it
        variant = data["weights"][choice.option]["variant"]
        layouts = data["variants"][variant] if variant else base
        assert layouts == as_data(layout, choice.model_dtype)["layouts"], choice.option


def _differs(model: Model, dtype: str, first: str, first_model_dtype: str | None) -> bool:
    return (dtype, model_dtype(model.config or {}, dtype)) != (first, first_model_dtype)


HYBRID = """\
schema_version: 1
id: models/example-hybrid
kind: model
title: Example hybrid with no published config
evidence: source-reported
name: Example Hybrid
org: Example Corp
params_total_b: 3
layout:
  - layers: 2
    mechanism: attention
    num_kv_heads: 2
    head_dim: 64
  - layers: 6
    mechanism: recurrent
    state_heads: 4
    state_k_dim: 64
    state_v_dim: 64
sources:
  - title: Example report
    url: https://example.com/hybrid
"""


def test_a_weights_format_that_names_the_model_dtype_brings_its_cache(tmp_path: Path) -> None:
    """With no config, the state's dtype is not known beside an fp8 KV cache; bf16 or fp16 weights name
    it (registry fit --weights bf16 computes the cache), so the data carries that cache once, under
    the first format giving it, and the quantized formats keep the page's own."""
    root = make_registry(tmp_path, {"models/example-hybrid": HYBRID, "hardware/example-gpu": EXAMPLE_GPU})
    model = load_record(root, "models/example-hybrid", Model)
    data = fit_data(model, model_layer_groups(model), ())
    assert list(data["variants"]) == ["bf16"]
    assert data["weights"][""]["variant"] is None and data["weights"][""]["dtype"] == "bf16"
    assert data["weights"]["bf16"]["variant"] == "bf16" and data["weights"]["fp16"]["variant"] == "bf16"
    assert data["weights"]["fp8"]["variant"] is None
    assert isinstance(as_data(model_layer_groups(model), None)["layouts"]["ideal"]["kv"]["fp8"], str)
    assert not isinstance(data["variants"]["bf16"]["ideal"]["kv"]["fp8"], str)
    question = FitQuestion("example-hybrid", "example-gpu", kv_dtype="fp8", engine_layout="ideal")
    assert fit_model(root, question).fit.cache_bytes is None
    with_weights = fit_model(root, FitQuestion(**{**question.__dict__, "weights": "bf16"})).fit
    choice = _choice(model, "bf16", "fp8", "ideal")
    assert with_weights.cache_bytes == totals(choice, 128 * 1024).total_bytes


EXAMPLE_GPU = """\
schema_version: 1
id: hardware/example-gpu
kind: hardware
title: Example GPU
evidence: source-reported
name: Example GPU
vendor: Example Corp
memory_per_device: 80 GB
sources:
  - title: Example datasheet
    url: https://example.com/datasheet
"""


def test_hostile_hardware_names_stay_inside_the_json() -> None:
    """A name that would end the script element reaches the data as the same string, escaped."""
    name = "</script><script>alert(1)</script> a=b\u2028"
    record = load_record(REPO, "hardware/h100-sxm", Hardware).model_copy(update={"name": name})
    data = fit_data(
        load_record(REPO, "models/llama-3.1-8b", Model), _layout("llama-3.1-8b"), hardware_units([record])
    )
    text = script_json(data)
    assert "</script" not in text and "<" not in text and "=" not in text and "\u2028" not in text
    assert json.loads(text)["hardware"]["hardware/h100-sxm"]["name"] == name
