"""The S family: a record whose structure breaks the published schema."""

from __future__ import annotations

from registry.codes.rule import Rule, family

_rule = family("schema")


MISSING_FIELD = _rule(
    "S001",
    "missing-field",
    "A required field is absent.",
    "Every record of a kind carries the same required fields, so that the database and the site can rely on them.",
    "add the field; the schema of the kind (schemas/<kind>.schema.json) lists what each field holds",
)
UNKNOWN_FIELD = _rule(
    "S002",
    "unknown-field",
    "A field that the record's kind does not define.",
    "Unknown fields are refused rather than ignored: a misspelt field name would otherwise silently lose its value.",
    "correct the field's name, or remove it",
)
WRONG_TYPE = _rule(
    "S003",
    "wrong-type",
    "A field holds a value of the wrong type.",
    "Types are strict: '5' is text, not a number, and 1.0 is not a whole number of layers.",
    "write the value with the type the schema gives: text, a number, true or false, a list or a mapping",
)
INVALID_VALUE = _rule(
    "S004",
    "invalid-value",
    "A value is outside what the field allows: not one of its choices, out of range, or not of its form.",
    "Fields such as evidence, layout and ids have a closed set of forms so that queries and links work.",
    "use a value the field allows: one of its choices, within its bounds, in its form, as the message says",
)
INVALID_QUANTITY = _rule(
    "S005",
    "invalid-quantity",
    "A stated quantity cannot be read, or is in the wrong dimension.",
    "Quantities are written as people write them ('70,272 B', '~8.6 GiB', '85.3x') and read exactly; a "
    "per-token figure where a total belongs, or seconds where bytes belong, is refused before any arithmetic.",
    "write a non-negative number and a unit of the right dimension, e.g. '70,272 B', '68.6 KiB', '8.6 s', '85.3x'",
)
INCONSISTENT_FIELDS = _rule(
    "S006",
    "inconsistent-fields",
    "Fields that depend on each other disagree.",
    "Some fields only make sense together: a config needs its config_source, a ratio claim needs 'versus'.",
    "add the companion field the message names, or remove the one that needs it",
)

TOO_MANY_FINDINGS = _rule(
    "S007",
    "too-many-findings",
    "The file breaks the schema in more places than are listed.",
    "A file of a megabyte can break the schema in a hundred thousand places; listing them all would take "
    "longer to compute and to read than fixing the first ones. The first hundred the validator finds are "
    "listed, and this finding says that more remain.",
    "fix the findings listed (usually one mistake repeated) and check again",
)
LINE_BREAK = _rule(
    "S008",
    "line-break",
    "A single-line field (a title, a name, a version, a source's title...) holds a line break.",
    "Single-line fields are shown inside headings, tables and links on the site, whose pages are Markdown: "
    "a line break there, followed by a line of three backticks, would open a code block that swallows the "
    "rest of the page, another record's table included. Only notes and methodology, which are Markdown, "
    "hold several lines.",
    "write the value on one line; longer text belongs in notes or methodology",
)
OUTDATED_SCHEMA_VERSION = _rule(
    "S009",
    "outdated-schema-version",
    "The record is written in an earlier version of its kind's format.",
    "A kind's format moves on when its fields change (benchmark records are at version 2: typed metrics "
    "replace the measured_* fields); an older record is refused as a whole rather than field by field, "
    "because the tool that rewrites it knows every change.",
    "run 'registry migrate' on the file: it rewrites the record in the current version, keeping every "
    "value and comment",
)

RULES: tuple[Rule, ...] = (
    MISSING_FIELD,
    UNKNOWN_FIELD,
    WRONG_TYPE,
    INVALID_VALUE,
    INVALID_QUANTITY,
    INCONSISTENT_FIELDS,
    TOO_MANY_FINDINGS,
    LINE_BREAK,
    OUTDATED_SCHEMA_VERSION,
)
