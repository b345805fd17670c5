"""The model a result file names, matched to the registry's model records.

Serving tools name the model they ran as it was given to the server: a Hugging Face Hub repository
(``meta-llama/Llama-3.1-8B-Instruct``), a local folder, or a folder of the Hub's cache
(``.../models--openai--gpt-oss-120b/snapshots/<revision>/``, which names the repository
``openai/gpt-oss-120b``). A record matches a Hub repository when its ``hub_repositories`` or its
``config_source.repository`` (a config read on the Hub, its ``url`` at huggingface.co) is that
repository (letter case aside, as the Hub resolves names); a local folder matches when its last
component is the name part of exactly one record's repository. Nothing else is matched: a name no
record holds is reported with what would make it import.

``--model`` names the record itself and wins; a file whose Hub repository is not one of that record's is
refused, naming both, unless the file's repository name begins with the record's (a quantized or
re-published checkpoint of it, ``...-Instruct-FP8``), which the record's comment says.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from registry.authoring.importers.mlperf_table import SourceError
from registry.checker.encoding import VALUE_FORBIDDEN
from registry.checker.load import located_load
from registry.ids import record_id

_HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}")
_CACHE = re.compile(r"(?:^|/)models--([A-Za-z0-9][A-Za-z0-9._-]*)--([A-Za-z0-9][A-Za-z0-9._-]*)(?:/|$)")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def plain(text: str, limit: int = 200) -> str:
    """File text made safe for a one-line comment or message: control characters, line breaks and the
    characters a record may not hold (bidirectional overrides, ...) shown as ``?``."""
    cleaned = VALUE_FORBIDDEN.sub("?", _CONTROL.sub("?", text))
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


@dataclass(frozen=True)
class FileModel:
    """What a file names as its model, and where (``model_id``, ``/server_info/model_path``)."""

    text: str
    key: str

    @property
    def hub(self) -> str | None:
        """The Hub repository the text names: itself, or the one a Hub cache folder holds."""
        cached = _CACHE.search(self.text)
        if cached:
            return f"{cached.group(1)}/{cached.group(2)}"
        return self.text if _HUB_ID.fullmatch(self.text) else None

    @property
    def folder_name(self) -> str | None:
        """The last component of a local folder (``/data/models/DeepSeek-R1`` -> ``DeepSeek-R1``)."""
        if self.hub is not None or "/" not in self.text:
            return None
        last = self.text.rstrip("/").rsplit("/", 1)[-1]
        return last or None


@dataclass
class ModelCatalog:
    """Every model record's Hub repositories, read once per import."""

    repositories: dict[str, list[str]] = field(default_factory=dict)
    """Record id -> its ``hub_repositories`` and ``config_source.repository``."""
    names: dict[str, str] = field(default_factory=dict)
    """Record id -> its ``name``."""

    @classmethod
    def read(cls, root: Path) -> ModelCatalog:
        catalog = cls()
        folder = root / "records" / "models"
        for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
            loaded = located_load(str(path), path.read_text(encoding="utf-8"))
            data = loaded.document.data if loaded.document is not None else None
            if isinstance(data, dict) and isinstance(data.get("id"), str):
                catalog.repositories[data["id"]] = _repositories(data)
                catalog.names[data["id"]] = str(data.get("name") or "")
        return catalog

    def by_hub(self, hub: str) -> list[str]:
        wanted = hub.lower()
        return [rid for rid, repos in self.repositories.items() if wanted in (r.lower() for r in repos)]

    def by_folder(self, name: str) -> list[str]:
        wanted = name.lower()
        return [
            rid
            for rid, repos in self.repositories.items()
            if wanted in (r.split("/")[-1].lower() for r in repos)
        ]


def _repositories(data: dict[str, object]) -> list[str]:
    found = [r for r in data.get("hub_repositories") or [] if isinstance(r, str)]  # type: ignore[attr-defined]
    source = data.get("config_source")
    if not isinstance(source, dict):
        return found
    url, repository = source.get("url"), source.get("repository")
    if isinstance(url, str) and url.startswith("https://huggingface.co/") and isinstance(repository, str):
        found.append(repository)
    return found


def _named(model: FileModel) -> str:
    return f"the file's {model.key} {plain(model.text)!r}"


def _match(where: str, model: FileModel, catalog: ModelCatalog) -> tuple[str | None, str]:
    """The record the file's model names, and why (or why none)."""
    hub = model.hub
    if hub is not None:
        found = catalog.by_hub(hub)
        via = "" if hub == model.text else f" (the Hub cache folder of {hub})"
        if len(found) == 1:
            return found[0], f"{_named(model)}{via} is a Hub repository of {found[0]}"
        if found:
            return None, f"{_named(model)}{via} is a repository of several records: {', '.join(found)}"
        return None, f"{_named(model)}{via} is no model record's Hub repository"
    name = model.folder_name
    if name is not None:
        found = catalog.by_folder(name)
        if len(found) == 1:
            return found[0], f"{_named(model)} ends in {plain(name)!r}, the name of {found[0]}'s repository"
        if found:
            return (
                None,
                f"{_named(model)} ends in a name several records' repositories share: {', '.join(found)}",
            )
    return None, f"{_named(model)} names no model record's repository"


def _squeezed(text: str) -> str:
    return re.sub(r"[^a-z0-9.]", "", text.lower())


def _contradicts(model: FileModel, chosen: str, catalog: ModelCatalog) -> str | None:
    """Why the file's model cannot be the chosen record's, or None: it is another record's repository;
    or its name neither begins with one of the chosen record's repository names (a checkpoint of it is
    ``...-Instruct-FP8``) nor, where the record states no repository, holds the record's name or is
    held in it (letter case, spaces and dashes aside)."""
    hub = model.hub
    repos = catalog.repositories.get(chosen, [])
    if hub is not None and hub.lower() in (r.lower() for r in repos):
        return None
    others = [rid for rid in catalog.by_hub(hub) if rid != chosen] if hub else []
    if others:
        return f"{_named(model)} is a Hub repository of {', '.join(others)}"
    name = (hub.split("/")[-1] if hub else model.folder_name) or ""
    if not name:
        return None
    if repos:
        if any(name.lower().startswith(r.split("/")[-1].lower()) for r in repos):
            return None
        return f"{_named(model)} is not a repository of {chosen} ({', '.join(repos)})"
    own, theirs = _squeezed(catalog.names.get(chosen, "")), _squeezed(name)
    if not own or own in theirs or theirs in own:
        return None
    return f"{_named(model)} is not {chosen}, whose name is {catalog.names[chosen]!r} (and which states no Hub repository)"


def resolve_model(
    where: str, model: FileModel | None, option: str | None, catalog: ModelCatalog
) -> tuple[str, str]:
    """The model record of a run, and the comment that says how it was chosen."""
    if option is not None:
        chosen = record_id(option, "models")
        if chosen not in catalog.repositories:
            raise SourceError(f"{chosen}: no such model record in this registry (--model)")
        if model is None:
            return chosen, "Model from --model (the file names none)."
        why = _contradicts(model, chosen, catalog)
        if why is not None:
            raise SourceError(f"{where}: --model {chosen}, but {why}; one of them is wrong")
        matched, reason = _match(where, model, catalog)
        if matched == chosen:
            return chosen, f"Model from --model, as the file says: {reason}."
        return chosen, f"Model from --model; {reason}."
    if model is None:
        raise SourceError(f"{where}: the file does not name its model; give the model record with --model")
    matched, reason = _match(where, model, catalog)
    if matched is None:
        raise SourceError(
            f"{where}: {reason}; give the model record with --model, or add the repository to a model "
            "record's hub_repositories"
        )
    return matched, f"Model read from the file: {reason}."
