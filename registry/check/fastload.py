"""The fast path for the common case: a valid record, parsed by libyaml (PyYAML's C parser).

It builds the same values as the canonical loader (:mod:`registry.check.load`) from libyaml's events with
the same scalar rules, but keeps no positions. Anything unusual goes to the canonical loader instead,
which then gives the located diagnostic: a file libyaml refuses, a refusal of any kind (duplicate key,
tag, alias limit, depth), and every file where a YAML 1.1 parser and a YAML 1.2 parser could read the
text differently (directives, tabs, backslash escapes, the line breaks YAML 1.1 knows and 1.2 does not).
A test holds the two paths to the same values on every record of the corpus and of the hostile inputs.
"""

from __future__ import annotations

import math
from typing import Any

from registry.check.load import (
    _ALLOWED_TAGS,
    _STR_TAG,
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_NODES,
    Document,
    LoadResult,
    decode,
    load_text,
    resolve_plain,
)

_CParser: Any
try:
    from yaml import events as _events
    from yaml._yaml import CParser as _CParser
except ImportError:  # pragma: no cover - PyYAML without libyaml: everything takes the canonical path
    _CParser = None

_RISKY = ("\t", "\\", "\x85", "\u2028", "\u2029", "\ufeff")


class _Unusual(Exception):
    """Leave this file to the canonical loader."""


def _risky(text: str) -> bool:
    return text.startswith("%") or "\n%" in text or any(mark in text for mark in _RISKY)


def _build(text: str) -> Any:
    """Values of the single document in ``text``, or :class:`_Unusual`."""
    assert _CParser is not None
    parser = _CParser(text)
    scalar, alias = _events.ScalarEvent, _events.AliasEvent
    mapping_start, sequence_start = _events.MappingStartEvent, _events.SequenceStartEvent
    collection_end = (_events.MappingEndEvent, _events.SequenceEndEvent)
    document_start = _events.DocumentStartEvent
    no_key = _NO_KEY
    # frames: [container, pending key, anchor]
    stack: list[list[Any]] = []
    anchors: dict[str, Any] = {}
    documents = 0
    nodes = 0
    aliases = 0
    root: Any = None
    try:
        while True:
            event: Any = parser.get_event()
            if event is None:
                break
            cls = type(event)
            if cls is scalar:
                nodes += 1
                tag = event.tag
                if tag is not None and tag not in _ALLOWED_TAGS:
                    raise _Unusual
                if tag == _STR_TAG or not (event.implicit[0] and not event.style):
                    value = resolve_plain(event.value) if tag not in (None, "!", _STR_TAG) else event.value
                else:
                    value = resolve_plain(event.value)
                    if isinstance(value, float) and not math.isfinite(value):
                        raise _Unusual
                if event.anchor:
                    anchors[event.anchor] = value
            elif cls is mapping_start or cls is sequence_start:
                nodes += 1
                if event.tag is not None and event.tag not in _ALLOWED_TAGS:
                    raise _Unusual
                if len(stack) >= MAX_DEPTH:
                    raise _Unusual
                if stack and type(stack[-1][0]) is dict and stack[-1][1] is no_key:
                    raise _Unusual
                stack.append([{} if cls is mapping_start else [], no_key, event.anchor])
                continue
            elif cls in collection_end:
                container, _, anchor = stack.pop()
                if anchor:
                    anchors[anchor] = container
                if not stack:
                    root = container
                    continue
                value = container
            elif cls is alias:
                aliases += 1
                if aliases > MAX_ALIASES or event.anchor not in anchors:
                    raise _Unusual
                value = anchors[event.anchor]
                if isinstance(value, dict | list):
                    raise _Unusual  # expansion sizes are the canonical loader's to count
            elif cls is document_start:
                documents += 1
                if documents > 1:
                    raise _Unusual
                continue
            else:
                continue
            if not stack:
                root = value
                continue
            frame = stack[-1]
            container = frame[0]
            if type(container) is dict:
                if frame[1] is no_key:
                    if type(value) is not str or value in container:
                        raise _Unusual
                    frame[1] = value
                else:
                    container[frame[1]] = value
                    frame[1] = no_key
            else:
                container.append(value)
        if nodes > MAX_NODES:
            raise _Unusual
    except _Unusual:
        raise
    except Exception:
        raise _Unusual from None
    finally:
        parser.dispose()
    return root


_NO_KEY = object()


def fast_load_bytes(path: str, raw: bytes) -> LoadResult:
    """Load a record: libyaml when the file is ordinary, the canonical loader otherwise.

    The result is the canonical loader's wherever anything is amiss, so diagnostics never depend on
    which path ran; a valid document from the fast path locates its nodes on demand.
    """
    text, diagnostics = decode(path, raw)
    if text is None:
        return LoadResult(None, diagnostics)
    if _CParser is None or _risky(text):
        return load_text(path, text)
    try:
        root = _build(text)
    except _Unusual:
        return located_load(path, text)
    if not isinstance(root, dict):
        return located_load(path, text)
    return LoadResult(Document(path, root, text=text), [])


def _c_events(text: str) -> Any:
    parser = _CParser(text)
    try:
        while (event := parser.get_event()) is not None:
            yield event
    finally:
        parser.dispose()


def located_load(path: str, text: str) -> LoadResult:
    """The canonical loader's result, with positions: a document that loads takes its positions from
    libyaml's events (the same builder, so the same values and marks, a test holds them equal); a file
    refused for what the parser made of its text is read by ruamel.yaml, whose findings are the ones the
    registry reports."""
    if _CParser is None or _risky(text):
        return load_text(path, text)
    result = load_text(path, text, events=_c_events)
    if result.document is None and (not {d.code for d in result.diagnostics} <= _STRUCTURAL or "!" in text):
        return load_text(path, text)  # the parsers may word, or even see, this refusal differently
    return result


_STRUCTURAL = frozenset({"Y002", "Y003", "Y007", "Y008", "Y011", "Y012"})
"""Refusals the builder makes from the events' structure (duplicate keys, a second document, alias and
size limits, depth, key types, numbers), which both parsers' events present alike; a test holds them so.
Not where the text has a tag: libyaml reads ``{!,!`` as two empty keys tagged ``!`` (a duplicate key),
ruamel.yaml refuses to scan its second tag, and the registry reports what ruamel.yaml finds."""
