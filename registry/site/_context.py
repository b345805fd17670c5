"""What every page generator shares: the checked index, the findings, links and backlinks.

Built once per site from the result of ``registry check``; nothing in it re-reads a file.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from registry._check import CheckResult
from registry._diagnostics import Diagnostic
from registry._index import Entry, RegistryIndex
from registry._records import Hardware
from registry.site import _paths
from registry.site._html import Html, escape, link
from registry.site._sanitize import LinkResolver, render_markdown

PROSE_CACHE = 2048
"""Rendered Markdown fields (and record links) kept for reuse; past this many the cache starts again."""


@dataclass
class SiteContext:
    """The registry as the pages see it."""

    index: RegistryIndex
    findings: dict[str, list[Diagnostic]] = field(default_factory=dict)
    _prose: dict[tuple[str, str], Html] = field(default_factory=dict, repr=False, compare=False)
    _links: dict[tuple[str, str, str | None], Html] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_check(cls, result: CheckResult) -> SiteContext:
        findings: dict[str, list[Diagnostic]] = defaultdict(list)
        for diagnostic in result.diagnostics:
            findings[diagnostic.path].append(diagnostic)
        return cls(result.index, dict(findings))

    @cached_property
    def backlinks(self) -> dict[str, list[tuple[str, str]]]:
        """For each record id, the records that point at it and how (``model``, ``related``, ``link``)."""
        found: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for entry in self.index:
            for target, how in outgoing(entry):
                if target != entry.id:
                    found[target].add((entry.id, how))
        return {target: sorted(sources) for target, sources in found.items()}

    @cached_property
    def hardware_by_memory(self) -> list[tuple[int, str, list[str]]]:
        """The hardware records grouped by the memory of one unit: (bytes, as the datasheet writes it,
        record names), largest first."""
        from registry.site._results import hardware_bytes

        groups: dict[int, tuple[str, list[str]]] = {}
        for entry in self.index.of_kind("hardware"):
            hardware = entry.record
            if isinstance(hardware, Hardware):
                written = hardware.memory_per_device
                label = written if hardware.devices == 1 else f"{hardware.devices} × {written}"
                groups.setdefault(hardware_bytes(hardware), (label, []))[1].append(hardware.name)
        return [(memory, label, names) for memory, (label, names) in sorted(groups.items(), reverse=True)]

    def title_of(self, record_id: str) -> str:
        entry = self.index.get(record_id)
        return entry.title if entry else record_id

    def record_link(self, from_page: str, record_id: str, text: str | None = None) -> Html:
        """A link to a record's page, labelled with its title (escaped); plain text if it is missing.

        Made once per folder, record and label: the address depends only on the page's folder, and
        a registry's many runs link the same few models, engines and hardware."""
        key = (from_page.rpartition("/")[0], record_id, text)
        found = self._links.get(key)
        if found is None:
            if len(self._links) >= PROSE_CACHE:
                self._links.clear()  # bounded, as the prose cache
            entry = self.index.get(record_id)
            if entry is None:
                found = escape(record_id)
            else:
                label = text if text is not None else entry.title
                found = link(_paths.href(from_page, _paths.record_page(record_id)), label)
            self._links[key] = found
        return found

    def resolver(self, from_page: str) -> LinkResolver:
        """Resolves ``[[id]]`` in a Markdown field on ``from_page`` to the record page's address."""

        def resolve(target: str) -> tuple[str, str] | None:
            if self.index.get(target) is None:
                return None
            return _paths.href(from_page, _paths.record_page(target)), target

        return resolve

    def markdown(self, from_page: str, text: str | None) -> Html:
        """A record's Markdown field, sanitized, with its ``[[id]]`` links made real.

        Rendered once per text and folder: a link's address depends only on the page's folder, and many
        records of one kind share their wording (Markdown and the sanitizer cost more than the page).
        """
        folder = from_page.rpartition("/")[0]
        key = (folder, text or "")
        found = self._prose.get(key)
        if found is None:
            if len(self._prose) >= PROSE_CACHE:
                self._prose.clear()  # bounded, so memory stays flat however many records there are
            found = self._prose[key] = render_markdown(key[1], self.resolver(from_page))
        return found


def outgoing(entry: Entry) -> list[tuple[str, str]]:
    """Every record id ``entry`` refers to, with how: a reference field, ``related`` or a ``[[link]]``."""
    return [(reference.target, reference.how) for reference in entry.references] + [
        (link.target, "link") for link in entry.links
    ]
