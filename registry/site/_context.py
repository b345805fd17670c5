"""What every page generator shares: the checked index, the engine's results, the findings, links and
backlinks.

Built once per site from the result of ``registry check``; nothing in it re-reads a file.
"""

from __future__ import annotations

from array import array
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from registry.checker.index import Entry, RegistryIndex
from registry.checker.pipeline import CheckResult
from registry.diagnostics import Diagnostic
from registry.errors import RegistryError
from registry.kinds.records import Benchmark, Hardware, Model
from registry.results import Results
from registry.results.calculator_fit import HardwareUnit, hardware_units
from registry.site import _paths
from registry.site._html import Html, escape, link
from registry.site._leaderboard_rows import Boards
from registry.site._results import hardware_bytes
from registry.site._sanitize import LinkResolver, render_markdown

PROSE_CACHE = 2048
"""Rendered Markdown fields (and record links) kept for reuse; past this many the cache starts again."""


@dataclass
class SiteContext:
    """The registry as the pages see it."""

    index: RegistryIndex
    results: Results
    """The engine's results for the registry: every figure a page shows."""
    findings: dict[str, list[Diagnostic]] = field(default_factory=dict)
    _prose: dict[tuple[str, str], Html] = field(default_factory=dict, repr=False, compare=False)
    _links: dict[tuple[str, str, str | None], Html] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_check(cls, result: CheckResult) -> SiteContext:
        findings: dict[str, list[Diagnostic]] = defaultdict(list)
        for diagnostic in result.diagnostics:
            findings[diagnostic.path].append(diagnostic)
        if result.results is None:
            raise RegistryError("the registry was checked without its formulas; the pages need their results")
        return cls(result.index, result.results, dict(findings))

    @cached_property
    def backlinks(self) -> Backlinks:
        """For each record id, the records that point at it and how (``model``, ``related``, ``link``)."""
        return Backlinks(self.index)

    @cached_property
    def boards(self) -> Boards:
        """Every benchmark record's row (its figures, bounds and source), grouped by leaderboard and by
        accelerator: made once, for the leaderboards, the benchmarks index and the summaries of results
        on model, hardware and engine pages."""
        records = [e.record for e in self.index.of_kind("benchmark") if isinstance(e.record, Benchmark)]
        return Boards.of(records, self.results)

    @cached_property
    def hardware_by_memory(self) -> list[tuple[int, str, list[str]]]:
        """The hardware records grouped by the memory of one unit: (bytes, as the datasheet writes it,
        record names), largest first."""
        groups: dict[int, tuple[str, list[str]]] = {}
        for entry in self.index.of_kind("hardware"):
            hardware = entry.record
            if isinstance(hardware, Hardware):
                written = hardware.memory_per_device
                label = written if hardware.devices == 1 else f"{hardware.devices} × {written}"
                groups.setdefault(hardware_bytes(hardware), (label, []))[1].append(hardware.name)
        return [(memory, label, names) for memory, (label, names) in sorted(groups.items(), reverse=True)]

    @cached_property
    def calculator_hardware(self) -> tuple[HardwareUnit, ...]:
        """Every hardware record's unit as the model pages' calculator offers it (name, devices, exact
        bytes of a device), by name: worked out once for all the model pages."""
        return hardware_units(
            entry.record for entry in self.index.of_kind("hardware") if isinstance(entry.record, Hardware)
        )

    def beyond_max_context(self, model_id: str, context_tokens: int | None) -> str:
        """The words a context shown against the model ``model_id`` carries when it is longer than the
        model's ``max_context_tokens`` (R012), or "": text, not only a colour, so every reader sees it."""
        entry = self.index.get(model_id)
        model = entry.record if entry is not None else None
        if not isinstance(model, Model) or not model.exceeds_max_context(context_tokens):
            return ""
        return f"beyond the model's maximum of {model.max_context_tokens:,} tokens"

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


HOWS = ("model", "engine", "hardware", "related", "link")
"""How one record points at another."""


class Backlinks:
    """For each record, the records that point at it and how, as :meth:`get` gives them.

    Kept as numbers: for every link, the number of the record it comes from and how, in two arrays
    ordered by the record it points at, and where each record's part starts in a third. A dict of lists
    of pairs would make objects for every link, held for as long as the site is made."""

    def __init__(self, index: RegistryIndex) -> None:
        self._index = index
        targets, sources, hows = array("i"), array("i"), bytearray()
        for entry in index:  # in id order, so each record's sources are in id order too
            for target, how in outgoing(entry):
                found = index.get(target) if target != entry.id else None
                if found is not None:
                    targets.append(found.number)
                    sources.append(entry.number)
                    hows.append(HOWS.index(how))
        starts = array("i", bytes(4 * (len(index.numbered) + 1)))
        for pointed in targets:
            starts[pointed + 1] += 1
        for number in range(len(index.numbered)):
            starts[number + 1] += starts[number]
        self._starts, self._sources, self._hows = starts, array("i", sources), bytearray(hows)
        free = array("i", starts)  # where each record's next source goes: sources keep their order
        for at, pointed in enumerate(targets):
            self._sources[free[pointed]], self._hows[free[pointed]] = sources[at], hows[at]
            free[pointed] += 1

    def get(self, record_id: str) -> list[tuple[str, str]]:
        """The (id, how) of each record that points at ``record_id``, in order, each pair once."""
        entry = self._index.get(record_id)
        if entry is None:
            return []
        start, end = self._starts[entry.number], self._starts[entry.number + 1]
        numbered = self._index.numbered
        return sorted({(numbered[self._sources[n]].id, HOWS[self._hows[n]]) for n in range(start, end)})


def outgoing(entry: Entry) -> list[tuple[str, str]]:
    """Every record id ``entry`` refers to, with how: a reference field, ``related`` or a ``[[link]]``."""
    return [(reference.target, reference.how) for reference in entry.references] + [
        (link.target, "link") for link in entry.links
    ]
