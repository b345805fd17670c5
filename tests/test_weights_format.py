"""The weights' format the memory fit assumes: the one the model's config publishes, said with its source.

DeepSeek-V3 is published in fp8 (``quantization_config.quant_method: fp8``): counted in bf16 its 671 B
parameters took 1,342 GB, and its hardware table read 0 sequences everywhere, 8 × H200 included.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from registry.checker.pipeline import check
from registry.cli import main
from registry.results.weights import WEIGHTS_DTYPE, published_weights
from registry.site import _paths, generate
from tests.browser.site_registry import MODEL, RECORDS, make_registry
from tests.conftest import REPO


@cache
def config(model: str) -> dict[str, Any]:
    path = REPO / "records" / "models" / f"{model}.yaml"
    return dict(YAML(typ="safe").load(path.read_text(encoding="utf-8"))["config"])


@pytest.mark.parametrize(
    ("model", "dtype", "source"),
    [
        ("deepseek-v3", "fp8", "config.json quantization_config (quant_method fp8)"),
        ("llama-3.1-8b", "bf16", "config.json torch_dtype bfloat16"),
        ("gpt-oss-120b", "mxfp4", "quant_method mxfp4); the modules it leaves unquantized are counted"),
        ("kimi-k3", "mxfp4", "quant_method compressed-tensors"),
        ("qwen3.6-27b", "nvfp4", "mixed nvfp4 and fp8, counted at the narrowest"),
    ],
)
def test_the_published_format_is_read_from_the_config(model: str, dtype: str, source: str) -> None:
    found = published_weights(config(model))
    assert found.dtype == dtype
    assert source in found.source


@pytest.mark.parametrize(
    ("quantization", "dtype"),
    [
        ({"quant_method": "awq", "bits": 4}, "int4"),
        ({"quant_method": "gptq", "bits": 8}, "int8"),
        ({"quant_method": "nvfp4"}, "nvfp4"),
        ({"quant_method": "modelopt", "quant_algo": "FP8"}, "fp8"),
        (
            {
                "quant_method": "compressed-tensors",
                "config_groups": {"g": {"weights": {"num_bits": 8, "type": "float"}}},
            },
            "fp8",
        ),
    ],
)
def test_quantization_configs(quantization: dict[str, Any], dtype: str) -> None:
    assert published_weights({"torch_dtype": "bfloat16", "quantization_config": quantization}).dtype == dtype


def test_a_config_that_states_nothing_is_counted_in_bf16_and_says_so() -> None:
    for stated in ({}, {"torch_dtype": "float8_e4m3fn"}, {"quantization_config": {"quant_method": "hqq"}}):
        found = published_weights(stated)
        assert found.dtype == WEIGHTS_DTYPE == "bf16"
        assert "states no weights format" in found.source
    assert published_weights(None).source == "no config: bf16 assumed"
    assert published_weights({"dtype": "float32"}).source == "config.json dtype float32"


def _fit(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    argv = ["fit", "--root", str(REPO), "--model", "deepseek-v3", "--hardware", "h200", "--count", "8"]
    main([*argv, *args, "--format", "json"])
    answer: dict[str, Any] = json.loads(capsys.readouterr().out)
    return answer


def test_fit_without_weights_uses_the_published_format(capsys: pytest.CaptureFixture[str]) -> None:
    published = _fit(capsys)
    assert published["weights_dtype"] == "fp8"
    assert published["weight_bytes"] == 671 * 10**9
    assert "quant_method fp8" in published["weights_source"]
    assert published["largest_batch"] > 0  # 1,128 GB less 671 GB of weights holds 128K sequences
    in_bf16 = _fit(capsys, "--weights", "bf16")
    assert in_bf16["weight_bytes"] == 2 * 671 * 10**9 and in_bf16["largest_batch"] == 0
    assert in_bf16["weights_source"] == "asked with --weights"


def test_fit_text_names_the_format_and_its_source(capsys: pytest.CaptureFixture[str]) -> None:
    main(["fit", "--root", str(REPO), "--model", "llama-3.1-8b", "--hardware", "h200"])
    text = capsys.readouterr().out
    assert (
        "weights: 8 B parameters × bf16 (config.json torch_dtype bfloat16; name another with --weights)"
        in text
    )


FP8_MODEL = MODEL.replace(
    "  torch_dtype: bfloat16\n", "  torch_dtype: bfloat16\n  quantization_config:\n    quant_method: fp8\n"
)


def test_the_hardware_table_counts_the_published_weights_and_says_which(tmp_path: Path) -> None:
    """8 B parameters in fp8 are 8 GB: 80 GB leaves 72 GB, 4 sequences of 16 GiB (bf16 KV) and 8 of
    8 GiB (fp8 KV), where bf16 weights left 3 and 7."""
    root = make_registry(tmp_path, {**RECORDS, "models/example-llama": FP8_MODEL})
    generate(root, check(root), downloads=False)
    page = (root / "site" / _paths.record_page("models/example-llama")).read_text(encoding="utf-8")
    hardware = page.split("## 128K sequences per hardware", 1)[1]
    assert (
        "Beside the weights in fp8 (config.json quantization_config (quant_method fp8)): 8 B parameters × 1 B "
        "= 8,000,000,000 B" in hardware
    )
    assert re.search(r">80 GB</td><td>Example GPU</td><td[^>]*>4</td><td[^>]*>8</td>", hardware)
