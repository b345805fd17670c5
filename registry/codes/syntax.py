"""The Y family: a file that cannot be read as one YAML record."""

from __future__ import annotations

from registry.codes.rule import Rule, family

_rule = family("syntax")


YAML_SYNTAX = _rule(
    "Y001",
    "yaml-syntax",
    "The file is not valid YAML.",
    "Nothing else can be checked until the file parses; the parser's own message says where it stopped.",
    "fix the YAML at the position given; indent with spaces and quote values that contain ': ' or start with a special character",
)
DUPLICATE_KEY = _rule(
    "Y002",
    "duplicate-key",
    "A mapping names the same key twice.",
    "YAML loaders disagree on which value wins (most keep the last silently), so a duplicate hides a value.",
    "remove one of the two keys, or merge their values",
)
MULTIPLE_DOCUMENTS = _rule(
    "Y003",
    "multiple-documents",
    "The file holds more than one YAML document.",
    "One file is one record: its id is its path, so a second document would have no id of its own.",
    "move the second document into a file of its own, or delete the '---' line that starts it",
)
ROOT_NOT_MAPPING = _rule(
    "Y004",
    "root-not-mapping",
    "The document's root is not a mapping.",
    "A record is a mapping of field names to values; a list or a scalar at the root holds no record.",
    "write the record as 'field: value' lines at the top level",
)
ENCODING = _rule(
    "Y005",
    "invalid-encoding",
    "The file is not UTF-8 text.",
    "Records are text in UTF-8; other encodings, control characters and binary data are refused so that "
    "what a reviewer sees is what the tools read.",
    "save the file as UTF-8 and remove control characters",
)
TOO_LARGE = _rule(
    "Y006",
    "file-too-large",
    "The file is larger than a record may be.",
    "A bounded size keeps a hostile pull request from exhausting memory or time in CI.",
    "split the content into several records, or shorten the prose",
)
ALIAS_LIMIT = _rule(
    "Y007",
    "alias-limit",
    "The file uses too many aliases, or aliases that expand too far.",
    "Aliases that refer to aliases expand exponentially (the 'billion laughs' attack); records have no "
    "need for more than a few.",
    "write the values out instead of aliasing them",
)
TOO_DEEP = _rule(
    "Y008",
    "nesting-too-deep",
    "Mappings and lists nest deeper than a record may.",
    "Deep nesting is a way to exhaust a parser's stack; real records nest a few levels.",
    "flatten the structure",
)
FORBIDDEN_TAG = _rule(
    "Y009",
    "forbidden-tag",
    "A node carries a YAML tag such as '!!python/object'.",
    "Tags ask a loader to build objects of a given type, which is how unsafe loaders run code; records "
    "are plain data, so every tag but the core ones is refused.",
    "remove the tag and write the value as plain YAML",
)
EMPTY = _rule(
    "Y010",
    "empty-file",
    "The file holds no YAML document.",
    "An empty record file is almost always an accident of a pull request.",
    "write the record, or delete the file",
)
NON_STRING_KEY = _rule(
    "Y011",
    "non-string-key",
    "A mapping key is not a string.",
    "Field names are strings; a key such as 1, null or a list cannot name a field and does not survive "
    "conversion to JSON.",
    "write the key as a plain name, quoting it if it looks like a number",
)
BAD_NUMBER = _rule(
    "Y012",
    "bad-number",
    "A number is not finite or is too large to be meant.",
    "NaN, infinities and integers of hundreds of digits are never real geometry; they are refused before "
    "they reach arithmetic.",
    "write the real figure, or null when it is unknown",
)

RULES: tuple[Rule, ...] = (
    YAML_SYNTAX,
    DUPLICATE_KEY,
    MULTIPLE_DOCUMENTS,
    ROOT_NOT_MAPPING,
    ENCODING,
    TOO_LARGE,
    ALIAS_LIMIT,
    TOO_DEEP,
    FORBIDDEN_TAG,
    EMPTY,
    NON_STRING_KEY,
    BAD_NUMBER,
)
