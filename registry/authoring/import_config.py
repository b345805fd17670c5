"""``registry import-config``: a model record from a published ``config.json``.

The config is copied verbatim under ``config`` (same keys in the same order, same value types; checked
by loading the written record back; a number JSON cannot write, such as Mamba-2's ``time_step_limit``
``Infinity``, as transformers 5 writes it, ``{"__float__": "Infinity"}``, with a note saying so);
``config_source`` says where it was read (repository, file, revision, and the URL when given), and the
cache layout the engine derives from it through the adapters is written as a comment above ``config``:
per layer group, how many layers, which mechanism, and its dimensions. A ``model_type`` no adapter knows
is still imported, config kept, with the finding ``registry check`` will report for it (F006, an error
until the record states a ``layout``); a revision that is not a commit gets the check's R010 warning.
``--repository`` takes ``org/name`` or the repository's page (``https://huggingface.co/org/name``),
written as ``org/name``; anything else is refused.

``max_context_tokens`` is the longest context the config states, read by
:func:`registry.engine.adapters.max_context_from_config` (``model_max_length``, else the smallest position
field, YaRN's ``original_max_position_embeddings x factor`` where the config scales by YaRN, the decoder's
``text_config`` inside a multimodal wrapper), with a comment naming the fields it came from; a config that
states no length gets none, since a class default is not what the publisher said of the model.

``name`` defaults to the id's slug and ``org`` to the repository's owner; both are said to be derived so
a person can correct them. Without ``--url`` there is no source to cite, so ``sources`` is left empty
with a TODO and ``registry check`` reports it until it is filled. An existing file is never overwritten.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from registry.authoring.writer import Todo, record_text
from registry.checker.formulas import problem_finding
from registry.checker.revisions import POINTER as REVISION_POINTER
from registry.codes import refs
from registry.config_file import read_config
from registry.diagnostics import Diagnostic
from registry.engine.adapters import ContextMaximum, layer_groups_from_config, max_context_from_config
from registry.engine.trace import group_line
from registry.errors import RegistryError
from registry.files import write_atomic
from registry.ids import record_id as resolve_id
from registry.ids import record_path
from registry.kinds.fields import REPOSITORY_PATTERN
from registry.kinds.model import revision_problem
from registry.reading import FLOAT_TAG
from registry.results import config_problem

_REPOSITORY = re.compile(REPOSITORY_PATTERN)
REPOSITORY_HOSTS = ("huggingface.co", "www.huggingface.co", "hf.co", "github.com", "www.github.com")
"""The hosts whose repository URLs (``https://huggingface.co/org/name``) ``--repository`` accepts for
``org/name``."""


@dataclass(frozen=True)
class ImportOptions:
    """Where the config is, which record to write, and where the config was published."""

    config_path: Path
    record_id: str
    repository: str
    revision: str
    file: str = "config.json"
    url: str | None = None
    name: str | None = None
    org: str | None = None


@dataclass
class Imported:
    """The model record made from a config: its text, the layer groups found, what ``registry check``
    will say of it (with the same code and severity), and what to fill."""

    id: str
    path: Path
    text: str = ""
    groups: list[str] = field(default_factory=list)
    findings: list[Diagnostic] = field(default_factory=list)
    derived: list[str] = field(default_factory=list)
    max_context: ContextMaximum | None = None
    to_fill: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- reading the config


def read_config_json(path: Path) -> dict[str, Any]:
    """A config.json as a dict in its published key order, read with a record's bounds (duplicate keys,
    deep nesting, huge integers, anything but a regular file refused) and its geometry checked:
    :func:`registry.config_file.read_config`. A number that is not finite (``Infinity``, ``NaN``) is kept
    as transformers 5 writes it, ``{"__float__": "Infinity"}``, which YAML and JSON Schema can hold."""
    return read_config(path)


# ---------------------------------------------------------------- the layout, as a comment


def describe_layer_groups(config: dict[str, Any]) -> tuple[list[str], list[str]]:
    """What the adapters find in ``config``: one line per layer group and the adapter's notes; nothing
    when the engine cannot lay it out (:func:`registry.results.config_problem` says why)."""
    try:
        layout = layer_groups_from_config(config)
    except ValueError:
        return [], []
    lines = [group_line(group) for group in layout.groups]
    lines += [f"multi-token prediction, not counted: {group_line(group)}" for group in layout.mtp_groups]
    return lines, list(layout.notes)


def _path(result: Imported) -> str:
    return f"records/{result.id}.yaml"


def _layout_comment(config: dict[str, Any], result: Imported) -> tuple[str, ...]:
    """The layer groups as a comment above ``config``; for a config the engine cannot lay out, the
    finding ``registry check`` will report (same code, same severity) and what to do."""
    problem = config_problem(config)
    if problem is not None:
        rule, _, message = problem_finding(problem)
        finding = rule.diagnostic(_path(result), 1, 1, message)
        result.findings.append(finding)
        return (
            f"{finding.severity.value}: {finding.code} {finding.name}: {message}",
            f"hint: {finding.hint}",
        )
    groups, notes = describe_layer_groups(config)
    result.groups = groups
    notes += [
        f"{name} is {text}, kept as {{{FLOAT_TAG}: {text}}} (transformers 5's spelling); no layout reads it"
        for name, text in non_finite_values(config)
    ]
    model_type = config.get("model_type")
    head = f"The cache layout the engine derives from this config (model_type {model_type}):"
    return (head, *(f"  {line}" for line in groups), *(f"  note: {note}" for note in notes))


def non_finite_values(value: Any, name: str = "") -> list[tuple[str, str]]:
    """Each number of ``value`` that is not finite, as :func:`read_config_json` keeps it
    (``{"__float__": "Infinity"}``), with the field's name (``time_step_limit[1]``) and its spelling."""
    if isinstance(value, dict):
        if set(value) == {FLOAT_TAG} and isinstance(value[FLOAT_TAG], str):
            return [(name, value[FLOAT_TAG])]
        return [
            found
            for key, inner in value.items()
            for found in non_finite_values(inner, f"{name}.{key}" if name else str(key))
        ]
    if isinstance(value, list):
        return [found for i, item in enumerate(value) for found in non_finite_values(item, f"{name}[{i}]")]
    return []


# ---------------------------------------------------------------- where the config is published


def repository_name(text: str) -> str:
    """``org/name`` from what a person pastes: ``org/name`` itself, or the repository's page on Hugging
    Face or GitHub (``https://huggingface.co/org/name``, a trailing ``/`` or ``.git`` dropped). Anything
    else (a URL into the repository, another host, a bare name) is refused, saying the form: written as
    it came, ``https://huggingface.co/org/name`` would read as the org ``https:``."""
    given = text.strip()
    candidate = given
    if "://" in given or given.split("/", 1)[0] in REPOSITORY_HOSTS:
        parts = urlsplit(given if "://" in given else f"https://{given}")
        path = parts.path.strip("/").removesuffix(".git")
        if parts.scheme in ("http", "https") and parts.hostname in REPOSITORY_HOSTS and not parts.query:
            candidate = path
    if not _REPOSITORY.fullmatch(candidate):
        raise RegistryError(
            f"--repository {text!r} is not a repository: give owner/name (meta-llama/Llama-3.1-8B) or its "
            "page's URL (https://huggingface.co/meta-llama/Llama-3.1-8B)"
        )
    return candidate


# ---------------------------------------------------------------- the record


def _record_id(text: str) -> tuple[str, str]:
    wanted = resolve_id(text, "models")
    return wanted, wanted.split("/", 1)[1]


def _fields(options: ImportOptions, config: dict[str, Any], result: Imported, slug: str) -> dict[str, Any]:
    owner = options.repository.split("/", 1)[0] if "/" in options.repository else None
    name = options.name or slug
    org = options.org or owner
    if options.name is None:
        result.derived.append(f"name {name!r} (from the id)")
    if options.org is None and owner is not None:
        result.derived.append(f"org {owner!r} (the repository's owner)")
    source = {"repository": options.repository, "file": options.file, "revision": options.revision}
    if options.url:
        source["url"] = options.url
    sources: Any = Todo("where the config is published: title, url, file, revision", [])
    if options.url:
        sources = [
            {
                "title": f"{options.file} of {options.repository}",
                "url": options.url,
                "file": options.file,
                "revision": options.revision,
            }
        ]
    fields: dict[str, Any] = {
        "schema_version": 1,
        "id": result.id,
        "kind": "model",
        "title": name,
        "evidence": "architectural",
        "name": name,
        "org": org if org else Todo("who publishes the model"),
        "config_source": source,
        "config": config,
        "sources": sources,
    }
    if result.max_context is not None:
        fields["max_context_tokens"] = result.max_context.tokens
    return fields


def _max_context_comment(result: Imported) -> tuple[str, ...]:
    """Where ``max_context_tokens`` was read in the config, so a person can weigh it against the model
    card (which may state a shorter context the model was trained or evaluated for)."""
    if result.max_context is None:
        return ()
    return (f"the longest context the config states ({result.max_context.basis})",)


def import_config(root: Path, options: ImportOptions) -> Imported:
    """The model record for ``options`` (nothing is written)."""
    record_id, slug = _record_id(options.record_id)
    options = dataclasses.replace(options, repository=repository_name(options.repository))
    result = Imported(record_id, record_path(root, record_id))
    config = read_config_json(options.config_path)
    result.max_context = max_context_from_config(config)
    fields = _fields(options, config, result, slug)
    result.to_fill = [key for key, value in fields.items() if isinstance(value, Todo)]
    comments = {"config": _layout_comment(config, result), "max_context_tokens": _max_context_comment(result)}
    result.text = record_text(fields, comments, flow=("config",))
    revision = revision_problem(options.revision)
    if revision is not None:
        finding = refs.REVISION_NOT_A_COMMIT.diagnostic(
            _path(result), 1, 1, revision, pointer=REVISION_POINTER
        )
        result.findings.append(finding)
    return result


def write_import(root: Path, options: ImportOptions) -> Imported:
    """Make the model record and write it atomically, refusing to overwrite an existing file."""
    result = import_config(root, options)
    if result.path.exists():
        raise RegistryError(
            f"records/{result.id}.yaml already exists; 'registry import-config' never overwrites a record"
        )
    write_atomic(result.path, result.text)
    return result
