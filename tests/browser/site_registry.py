"""A small registry for the site's tests: a model, two runs (one hostile), hardware and an engine.

The hostile record carries what a malicious pull request could put in record text (a script, event
handlers, ``javascript:`` links, raw HTML blocks); the site must show it as inert text. Every claim
agrees (a disagreement is an error, and the site is built only from a clean registry);
:data:`WRONG_CLAIM` adds one the engine explains as a catalogued mistake, for tests of the refusal
and of the page generator on its own.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PAYLOAD = "window.__pwned = (window.__pwned || 0) + 1"
"""What every hostile vector tries to run; a test reads ``window.__pwned`` afterwards."""

MODEL = """\
schema_version: 1
id: models/example-llama
kind: model
title: Example Llama-shaped model
evidence: architectural
name: Example Llama
org: Example Corp
params_total_b: 8.0
max_context_tokens: 131072
config_source:
  repository: example/example-model
  file: config.json
  revision: 0123456789abcdef0123456789abcdef01234567
config:
  model_type: llama
  num_hidden_layers: 32
  num_attention_heads: 32
  num_key_value_heads: 8
  hidden_size: 4096
  torch_dtype: bfloat16
sources:
  - title: Example model card
    url: https://example.com/card
notes: |
  A Llama-shaped geometry for the tests. Its runs: [[kv-efficiency/example-claims]].
"""

CLAIMS = """\
schema_version: 1
id: kv-efficiency/example-claims
kind: kv-efficiency
title: Example claims about the Llama-shaped model
evidence: architectural
model: models/example-llama
engine: engines/example-engine
layout: vllm
hardware: hardware/example-gpu
precision:
  weights: bf16
  kv_cache: bf16
context_tokens: 128K
claims:
  - quantity: bytes_per_token
    stated: 131,072 B
    formula: num_hidden_layers * 2 * num_key_value_heads * head_dim * bytes
  - quantity: bytes_per_sequence
    stated: ~16 GiB
sources:
  - title: Example article
    url: https://example.com/article
notes: |
  The model is [[models/example-llama]]; see also [[kv-efficiency/hostile-text]].
related:
  - models/example-llama
"""

HOSTILE = f"""\
schema_version: 1
id: kv-efficiency/hostile-text
kind: kv-efficiency
title: "Hostile <script>{PAYLOAD}</script> <img src=x onerror=\\"{PAYLOAD}\\"> title"
evidence: source-reported
model: models/example-llama
layout: ideal
precision:
  kv_cache: bf16
context_tokens: 4096
workload:
  description: "<b onmouseover=\\"{PAYLOAD}\\">workload</b><script>{PAYLOAD}</script>"
claims:
  - quantity: bytes_per_token
    stated: 131,072 B
    basis: "<svg onload=\\"{PAYLOAD}\\"></svg><script>{PAYLOAD}</script>"
sources:
  - title: "Source <img src=x onerror=\\"{PAYLOAD}\\">"
    url: https://example.com/source
    quote: "<script>{PAYLOAD}</script> quoted"
notes: |
  Plain words, then a script: <script>{PAYLOAD}</script>

  An image with a handler: <img src="x" onerror="{PAYLOAD}"> and [a javascript link](javascript:{PAYLOAD}).

  <div onclick="{PAYLOAD}" style="position:fixed;inset:0" class="badge badge-agrees">raw block</div>

  <iframe src="javascript:{PAYLOAD}"></iframe><svg onload="{PAYLOAD}"><circle r="9"/></svg>

  <a href="javascript:{PAYLOAD}">anchor</a> <a href="data:text/html,<script>{PAYLOAD}</script>">data</a>
  <form action="https://example.com"><input name="x"></form><style>body {{display:none}}</style>

  A real link to [[models/example-llama]] and a [safe link](https://example.com/safe).
methodology: |
  <details open ontoggle="{PAYLOAD}"><summary>x</summary></details>
  <meta http-equiv="refresh" content="0;url=javascript:{PAYLOAD}"><base href="javascript:/">
errata:
  - date: "2026-01-01"
    field: title
    old: "<script>{PAYLOAD}</script>"
    new: plain
    reason: "<img src=x onerror=\\"{PAYLOAD}\\">"
"""

SLIDING = """\
schema_version: 1
id: models/example-sliding
kind: model
title: Example sliding-window model
evidence: architectural
name: Example Sliding
org: Example Corp
config_source:
  repository: example/sliding-model
  revision: 0123456789abcdef0123456789abcdef01234567
config:
  model_type: mistral
  num_hidden_layers: 32
  num_attention_heads: 32
  num_key_value_heads: 8
  hidden_size: 4096
  sliding_window: 4096
sources:
  - title: Example model card
    url: https://example.com/sliding
"""

LATENT = """\
schema_version: 1
id: models/example-latent
kind: model
title: Example latent-attention model
evidence: source-reported
name: Example Latent
org: Example Corp
layout:
  - layers: 61
    mechanism: mla
    kv_lora_rank: 512
    qk_rope_head_dim: 64
sources:
  - title: Example report
    url: https://example.com/latent
"""

HARDWARE = """\
schema_version: 1
id: hardware/example-gpu
kind: hardware
title: Example GPU (80 GB)
evidence: source-reported
name: Example GPU
vendor: Example Corp
memory_per_device: 80 GB
sources:
  - title: Example datasheet
    url: https://example.com/datasheet
"""

ENGINE = """\
schema_version: 1
id: engines/example-engine
kind: engine
title: Example engine
evidence: architectural
name: Example engine
repository: example/engine
version: 1.0.0
layout: vllm
capabilities:
  mla_decode:
    supported: false
  fp8_kv:
    supported: true
    detail: "<script>window.__pwned = 1</script>fp8"
sources:
  - title: Example engine source
    url: https://example.com/engine
"""

HOSTILE_GPU = f"""\
schema_version: 1
id: hardware/hostile-gpu
kind: hardware
title: Example GPU with markup in its name
evidence: source-reported
name: "</script><script>{PAYLOAD}</script><img src=x onerror=\\"{PAYLOAD}\\"> GPU"
vendor: Example Corp
memory_per_device: 96 GB
sources:
  - title: Example datasheet
    url: https://example.com/hostile-datasheet
"""

HOSTILE_SYSTEM = f'</title><script>{PAYLOAD}</script><img src=x onerror="{PAYLOAD}"> Rack & "Co"'


def serving(
    name: str,
    metrics: str,
    *,
    scenario: str = "server",
    weights: str = "fp8",
    hardware: str = "hardware/example-gpu",
    system: str = "Example system",
    source: str = "manual",
) -> str:
    """A benchmark record of the example model for the serving results pages, 8 accelerators."""
    mlperf = "\n  round: v6.1\n  division: closed\n  availability: available" if source == "mlperf" else ""
    return f"""\
schema_version: 2
id: benchmarks/{name}
kind: benchmark
title: Serving result {name}
evidence: measured
model: models/example-llama
engine: engines/example-engine
engine_version: "1.0.0"
layout: vllm
hardware: {hardware}
hardware_count: 8
precision:
  weights: {weights}
  kv_cache: {weights}
prefix_cache: none
workload:
  description: An example workload.
scenario: {scenario}
system:
  name: {json.dumps(system)}
metrics:
{metrics}provenance:
  source: {source}{mlperf}
sources:
  - title: Example results {name}
    url: https://example.com/results/{name}
"""


def _figure(metric: str, per: str, stated: str, statistic: str = "value", limit: str = "") -> str:
    constraint = (
        f"    constraints:\n      - metric: tpot\n        statistic: p99\n        limit: {limit}\n"
        if limit
        else ""
    )
    return f"  - metric: {metric}\n    statistic: {statistic}\n    per: {per}\n    stated: {stated}\n{constraint}"


SERVING = {
    "hardware/hostile-gpu": HOSTILE_GPU,
    # MLPerf Server under a 40 ms TPOT limit: 2,000 per accelerator, at least 25 tok/s per user.
    "benchmarks/s-server": serving(
        "s-server", _figure("output_throughput", "system", "16,000 tok/s", limit="40 ms"), source="mlperf"
    ),
    # A community run with a measured mean TPOT of 20 ms: 50 tok/s per user, 1,200 per accelerator.
    "benchmarks/s-measured": serving(
        "s-measured",
        _figure("output_throughput", "accelerator", "1,200 tok/s")
        + _figure("tpot", "request", "20 ms", "mean"),
        hardware="hardware/hostile-gpu",
        system=HOSTILE_SYSTEM,
        source="vllm-bench",
    ),
    # Dominated by s-server (less interactive and slower): on no front.
    "benchmarks/s-dominated": serving(
        "s-dominated",
        _figure("output_throughput", "system", "7,200 tok/s") + _figure("tpot", "request", "50 ms", "mean"),
    ),
    # A published per-user rate, bf16: the only bf16 point, so its precision's whole front.
    "benchmarks/s-rate": serving(
        "s-rate",
        _figure("output_throughput", "system", "4,800 tok/s")
        + _figure("output_throughput", "request", "80 tok/s", "mean"),
        weights="bf16",
    ),
    # MLPerf Offline: no per-user rate, in the band at the edge.
    "benchmarks/s-offline": serving(
        "s-offline",
        _figure("output_throughput", "system", "24,000 tok/s"),
        scenario="offline",
        source="mlperf",
    ),
}
"""Serving results of the example model: one point of each kind the results page's chart draws."""
SERVING_FRONT = {"benchmarks/s-server", "benchmarks/s-measured", "benchmarks/s-rate"}
"""The points of :data:`SERVING` no other of their precision dominates."""

WRONG_CLAIM = CLAIMS.replace(
    "  - quantity: bytes_per_sequence\n",
    "  - quantity: bytes_per_token\n    stated: 65,536 B\n    basis: K and V counted once\n"
    "  - quantity: bytes_per_sequence\n",
)
"""The claims record with a per-token figure that counts K but not V."""

RECORDS = {
    "models/example-llama": MODEL,
    "models/example-sliding": SLIDING,
    "models/example-latent": LATENT,
    "kv-efficiency/example-claims": CLAIMS,
    "kv-efficiency/hostile-text": HOSTILE,
    "hardware/example-gpu": HARDWARE,
    "engines/example-engine": ENGINE,
    **SERVING,
}


def make_registry(root: Path, records: dict[str, str] | None = None) -> Path:
    """A registry at ``root``: the records, the schemas, and the site's configuration and pages."""
    for record_id, text in (RECORDS if records is None else records).items():
        path = root / "records" / f"{record_id}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in ("benchmarks", "engines", "hardware", "kv-efficiency", "models"):
        (root / "records" / folder).mkdir(parents=True, exist_ok=True)
    shutil.copytree(REPO / "schemas", root / "schemas")
    shutil.copy(REPO / "mkdocs.yml", root / "mkdocs.yml")
    shutil.copytree(REPO / "site", root / "site", ignore=shutil.ignore_patterns("generated"))
    return root


def copy_real_registry(target: Path) -> Path:
    """A copy of this repository's registry at ``target`` (records, schemas, the site's sources and
    configuration, without generated pages), to build without touching the working tree."""
    for folder in ("records", "schemas", "site"):
        shutil.copytree(REPO / folder, target / folder, ignore=shutil.ignore_patterns("generated"))
    shutil.copy(REPO / "mkdocs.yml", target / "mkdocs.yml")
    return target
