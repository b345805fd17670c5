"""The fast path for the common case: a valid record, parsed by libyaml (PyYAML's C parser).

It builds the same values as the canonical loader (:mod:`registry.checker.load`) from libyaml's events with
the same scalar rules, but keeps no positions. Anything unusual goes to the canonical loader instead,
which then gives the located diagnostic: a file libyaml refuses, a refusal of any kind (duplicate key,
tag, alias limit, depth), and every file where a YAML 1.1 parser and a YAML 1.2 parser could read the
text differently (directives, tabs, backslash escapes, the line breaks YAML 1.1 knows and 1.2 does not).
A test holds the two paths to the same values on every record of the corpus and of the hostile inputs.
"""

from __future__ import annotations

import math
from typing import Any

from registry.checker import libyaml
from registry.checker.encoding import decode
from registry.checker.limits import MAX_ALIASES, MAX_DEPTH, MAX_NODES
from registry.checker.load import Document, LoadResult, load_text, located_load
from registry.checker.yaml_rules import ALLOWED_TAGS, STR_TAG, resolve_plain


class _Unusual(Exception):
    """Leave this file to the canonical loader."""


def _build(text: str) -> Any:
    """Values of the single document in ``text``, or :class:`_Unusual`."""
    events = libyaml.yaml_events
    parser = libyaml.CParser(text)
    scalar, alias = events.ScalarEvent, events.AliasEvent
    mapping_start, sequence_start = events.MappingStartEvent, events.SequenceStartEvent
    collection_end = (events.MappingEndEvent, events.SequenceEndEvent)
    document_start = events.DocumentStartEvent
    no_key = _NO_KEY
    # frames: [container, pending key, anchor]; plain lists, as a named class measurably slows this loop
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
                if tag is not None and tag not in ALLOWED_TAGS:
                    raise _Unusual
                if tag == STR_TAG or not (event.implicit[0] and not event.style):
                    value = resolve_plain(event.value) if tag not in (None, "!", STR_TAG) else event.value
                else:
                    value = resolve_plain(event.value)
                    if isinstance(value, float) and not math.isfinite(value):
                        raise _Unusual
                if event.anchor:
                    anchors[event.anchor] = value
            elif cls is mapping_start or cls is sequence_start:
                nodes += 1
                if event.tag is not None and event.tag not in ALLOWED_TAGS:
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
    if not libyaml.AVAILABLE or libyaml.risky(text):
        return load_text(path, text)
    try:
        root = _build(text)
    except _Unusual:
        return located_load(path, text)
    if not isinstance(root, dict):
        return located_load(path, text)
    return LoadResult(Document(path, root, text=text), [])
