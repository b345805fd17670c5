"""Generate a synthetic registry of N realistic records of every kind, for benchmarks.

Models clone the real model records' verbatim configs (so every adapter is exercised); kv-efficiency and
benchmark records carry claims whose stated values the engine computes, so the generated registry
checks clean, the common case in CI. Records are about 3 KB, with comments, as real ones are.

The clones share their template's geometry, so however large the registry, it has only as many cache
geometries as the registry has model records (about 50). ``--distinct-geometries`` gives each clone a
geometry of its own where it can (one more layer per copy of a template, when the config still lays
out): what a registry of many different models costs, since the engine's figures are worked out once
per geometry.

    python benchmarks/generate.py OUT_DIR --records 10000 [--distinct-geometries]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from registry.checker.pipeline import load_file  # noqa: E402
from registry.engine.compute import compute  # noqa: E402
from registry.engine.units import format_int  # noqa: E402
from registry.kinds.geometry import model_layer_groups  # noqa: E402
from registry.kinds.records import Model  # noqa: E402

SHARES = {"models": 0.2, "kv-efficiency": 0.5, "benchmarks": 0.2, "engines": 0.05, "hardware": 0.05}
LAYOUTS = ("ideal", "vllm", "sglang")
CONTEXTS = (4096, 32768, 131072)

_PROSE = (
    "The cache figure follows from the published geometry: every layer keeps its entries per token, "
    "and the engine layout decides how the sequence is rounded into blocks. [[{model}]] gives the "
    "config; the comparison point is the registry's standard one. "
)


def _yaml_scalar(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
_YAML_WORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})


def _yaml_key(key: object) -> str:
    """A mapping key as YAML reads it back as the same string: quoted unless plainly a name (a config's
    ``id2label`` has keys such as "0", which unquoted would read as a number)."""
    text = str(key)
    plain = _PLAIN_KEY.match(text) and text.lower() not in _YAML_WORDS
    return text if plain else json.dumps(text, ensure_ascii=False)


def _dump(value: object, indent: int = 0) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, dict):
        for name, item in value.items():
            key = _yaml_key(name)
            if isinstance(item, dict) and item:
                lines.append(f"{pad}{key}:")
                lines += _dump(item, indent + 2)
            elif isinstance(item, list) and item and isinstance(item[0], dict):
                lines.append(f"{pad}{key}:")
                for element in item:
                    sub = _dump(element, indent + 4)
                    lines.append(f"{pad}  - {sub[0].lstrip()}")
                    lines += sub[1:]
            else:
                lines.append(f"{pad}{key}: {_yaml_scalar(item)}")
    return lines


def _real_models() -> list[Model]:
    models = []
    for path in sorted((REPO / "records" / "models").glob("*.yaml")):
        loaded = load_file(REPO, path.relative_to(REPO).as_posix())
        if isinstance(loaded, tuple) and isinstance(loaded[0], Model) and loaded[0].config is not None:
            try:
                model_layer_groups(loaded[0])
            except ValueError:
                continue
            models.append(loaded[0])
    return models


def _own_geometry(template: Model, copy: int) -> Model:
    """``template`` with ``copy`` more layers, when its config has a plain layer count and still lays
    out with it (a config listing each layer's type keeps the template's geometry)."""
    config = template.config
    if copy == 0 or config is None or not isinstance(config.get("num_hidden_layers"), int):
        return template
    layers = config["num_hidden_layers"]
    if any(isinstance(value, list) and len(value) == layers for value in config.values()):
        return template
    variant = template.model_copy(update={"config": {**config, "num_hidden_layers": layers + copy}})
    try:
        model_layer_groups(variant)
    except ValueError:
        return template
    return variant


def _source(i: int) -> list[dict[str, object]]:
    return [
        {
            "title": f"Synthetic source {i}",
            "url": f"https://example.com/source/{i}",
            "section": "2.1",
            "revision": f"{i:040x}"[-40:],
        }
    ]


def generate(out: Path, count: int, seed: int = 7, distinct_geometries: bool = False) -> dict[str, int]:
    rng = random.Random(seed)
    templates = _real_models()
    if out.exists():
        shutil.rmtree(out)
    for folder in SHARES:
        (out / "records" / folder).mkdir(parents=True)
    shutil.copytree(REPO / "schemas", out / "schemas")
    counts = {folder: max(1, int(count * share)) for folder, share in SHARES.items()}
    counts["kv-efficiency"] += count - sum(counts.values())
    model_ids: list[tuple[str, Model]] = []
    for i in range(counts["models"]):
        template = templates[i % len(templates)]
        if distinct_geometries:
            template = _own_geometry(template, i // len(templates))
        slug = f"synthetic-{i:05d}"
        body = {
            "schema_version": 1,
            "id": f"models/{slug}",
            "kind": "model",
            "title": f"{template.name} (synthetic {i})",
            "evidence": "architectural",
            "name": f"{template.name} S{i}",
            "org": template.org,
            "params_total_b": template.params_total_b,
            "config_source": template.config_source.model_dump(exclude_none=True)
            if template.config_source
            else None,
            "config": template.config,
            "sources": _source(i),
            "notes": _PROSE.format(model=f"models/{slug}").replace(f"[[models/{slug}]]", "this record"),
        }
        lines = [
            "# yaml-language-server: $schema=../../schemas/model.schema.json",
            f"# synthetic copy of {template.id}",
            *_dump({k: v for k, v in body.items() if v is not None}),
        ]
        (out / "records" / "models" / f"{slug}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        model_ids.append((f"models/{slug}", template))
    for i in range(counts["engines"]):
        body = {
            "schema_version": 1,
            "id": f"engines/engine-{i:05d}",
            "kind": "engine",
            "title": f"Engine {i}",
            "evidence": "source-reported",
            "name": f"Engine {i}",
            "repository": f"example/engine-{i}",
            "version": "1.0",
            "capabilities": {"mla_decode": {"supported": True, "source": "https://example.com/mla"}},
            "sources": _source(i),
        }
        (out / "records" / "engines" / f"engine-{i:05d}.yaml").write_text(
            "\n".join(_dump(body)) + "\n", encoding="utf-8"
        )
    for i in range(counts["hardware"]):
        body = {
            "schema_version": 1,
            "id": f"hardware/gpu-{i:05d}",
            "kind": "hardware",
            "title": f"GPU {i}",
            "evidence": "source-reported",
            "name": f"GPU {i}",
            "vendor": "Example",
            "devices": 8,
            "memory_per_device": "192 GB",
            "bandwidth_per_device": "8 TB/s",
            "sources": _source(i),
        }
        (out / "records" / "hardware" / f"gpu-{i:05d}.yaml").write_text(
            "\n".join(_dump(body)) + "\n", encoding="utf-8"
        )
    cache: dict[tuple[int, str, int], tuple[int | None, object]] = {}
    for folder, kind in (("kv-efficiency", "kv-efficiency"), ("benchmarks", "benchmark")):
        for i in range(counts[folder]):
            model_id, template = model_ids[rng.randrange(len(model_ids))]
            layout = rng.choice(LAYOUTS)
            context = rng.choice(CONTEXTS)
            key = (id(template), layout, context)  # the clones of one geometry share their figures
            if key not in cache:
                result = compute(model_layer_groups(template), context_tokens=context, engine_layout=layout)
                cache[key] = (result.total_bytes, result.bytes_per_token)
            total, per_token = cache[key]
            claims = []
            if per_token is not None and int(per_token) == per_token:
                claims.append({"quantity": "bytes_per_token", "stated": f"{format_int(int(per_token))} B"})
            if total is not None:
                claims.append(
                    {
                        "quantity": "bytes_per_sequence",
                        "stated": f"{format_int(total)} B",
                        "basis": "computed from the config at the record's context",
                    }
                )
            slug = f"run-{i:05d}"
            body = {
                "schema_version": 2 if kind == "benchmark" else 1,
                "id": f"{folder}/{slug}",
                "kind": kind,
                "title": f"Run {i} of {model_id}",
                "evidence": "architectural" if kind == "kv-efficiency" else "measured",
                "model": model_id,
                "layout": layout,
                "precision": {"weights": "bf16", "kv_cache": "bf16"},
                "context_tokens": context,
                "batch": 1,
                "prefix_cache": rng.choice(("none", "cold", "warm")),
                "claims": claims,
                "sources": _source(i),
                "methodology": _PROSE.format(model=model_id) * 2,
                "related": [model_id],
                "tags": ["synthetic"],
            }
            if kind == "benchmark":
                body["precision"] = {"weights": "bf16", "kv_cache": "bf16"}
                body["engine"] = f"engines/engine-{rng.randrange(counts['engines']):05d}"
                body["engine_version"] = "1.0"
                body["hardware"] = f"hardware/gpu-{rng.randrange(counts['hardware']):05d}"
                body["hardware_count"] = 8
                body["workload"] = {
                    "description": "synthetic long-context prompts",
                    "input_tokens": context,
                    "output_tokens": 256,
                    "concurrency": 1,
                }
                body["scenario"] = rng.choice(("offline", "server", "interactive"))
                body["system"] = {"nodes": 1, "accelerators_per_node": 8, "parallelism": {"tensor": 8}}
                body["metrics"] = [
                    {
                        "metric": "ttft",
                        "statistic": "p99",
                        "per": "request",
                        "stated": f"{rng.randint(1, 90) / 10} s",
                        "constraints": [{"metric": "ttft", "statistic": "p99", "limit": "10 s"}],
                    },
                    {
                        "metric": "output_throughput",
                        "statistic": "value",
                        "per": "system",
                        # one stream (concurrency 1): within what reading the weights allows
                        "stated": f"{rng.randint(20, 300):,} tok/s",
                    },
                ]
            lines = [
                f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json",
                "# generated for the benchmark",
                *_dump(body),
            ]
            (out / "records" / folder / f"{slug}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument(
        "--distinct-geometries",
        action="store_true",
        help="give each model a geometry of its own where it can",
    )
    args = parser.parse_args()
    counts = generate(args.out, args.records, distinct_geometries=args.distinct_geometries)
    print(f"wrote {sum(counts.values())} records to {args.out}: {counts}")


if __name__ == "__main__":
    main()
