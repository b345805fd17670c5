"""The R family: a record that does not fit the registry around it."""

from __future__ import annotations

from registry.codes.rule import Rule, family
from registry.diagnostics import Severity

_rule = family("references")


ID_MISMATCH = _rule(
    "R001",
    "id-mismatch",
    "The record's id is not its path under records/.",
    "The id is how every other record, the database and the site find a record; it must be the file's path "
    "without .yaml so that one can be found from the other.",
    "set 'id' to the path under records/ without .yaml, or move the file",
)
DUPLICATE_ID = _rule(
    "R002",
    "duplicate-id",
    "Two records declare the same id.",
    "References would be ambiguous.",
    "give each record the id of its own path",
)
WRONG_COLLECTION = _rule(
    "R003",
    "wrong-collection",
    "The record's kind does not belong in the folder that holds it.",
    "Each collection folder holds one kind (models/ holds model records, and so on).",
    "move the file to the collection of its kind, or correct 'kind'",
)
DANGLING_REFERENCE = _rule(
    "R004",
    "dangling-reference",
    "A reference names a record that does not exist.",
    "A run without its model, engine or hardware cannot be checked or shown; a related id that does not "
    "exist is a broken link on the site.",
    "correct the id, or add the record it names",
)
WRONG_REFERENCE_KIND = _rule(
    "R005",
    "wrong-reference-kind",
    "A reference names a record of the wrong kind.",
    "'model' must name a model record, 'engine' an engine record, 'hardware' a hardware record.",
    "point the field at a record of the kind it expects",
)
BROKEN_LINK = _rule(
    "R006",
    "broken-link",
    "A [[id]] link in Markdown names no record.",
    "Links in notes and methodology become real links on the site; one that names nothing is dead.",
    "correct the id inside [[...]], or remove the brackets",
)
OUTSIDE_RECORDS = _rule(
    "R007",
    "outside-records",
    "A file is not where a record can be: outside records/<collection>/, behind a link, or not .yaml.",
    "Ids are paths under records/; a file elsewhere, or a symbolic link pointing elsewhere, cannot have one "
    "and could make the tools read files they should not.",
    "put the record at records/<collection>/<slug>.yaml as a regular file",
)
SELF_REFERENCE = _rule(
    "R008",
    "self-reference",
    "A record lists or links itself.",
    "A link to the page you are on helps no reader; it is usually a copy-paste slip.",
    "remove the reference, or point it at the record that was meant",
    Severity.WARNING,
)
LEFTOVER_TEMPORARY = _rule(
    "R009",
    "leftover-temporary",
    "A temporary file the registry's own tools left beside a record (.<name>.yaml.<random>.registry.tmp).",
    "The tools write a record to a temporary file and rename it into place; a process killed in between "
    "leaves the temporary file, with the record whole beside it. It is the tool's own debris, not a record, "
    "so it is reported without failing the check.",
    "run 'registry fmt', which removes those older than a minute, or delete the file",
    Severity.WARNING,
)
NOT_CHECKED_FURTHER = _rule(
    "R011",
    "not-checked-further",
    "A record that breaks the schema in a way that stops it being built, so its references, links and "
    "numbers are not checked.",
    "One run shows every finding it can: a record that breaks the schema is still built from what can be "
    "read (an unknown field left out, a refused value left out where the record is whole without it) and "
    "goes through the later stages. Only a record that cannot be built at all (its kind or id is wrong, "
    "or a value the later stages need is refused) stops there, and this note says which field stopped "
    "it, so that new findings after the fix are not a surprise. A file that does not parse, or a record "
    "of an earlier schema version, gets no note: its Y or S009 finding already says it is refused whole.",
    "fix the finding it names (and the file's others); the next check reads the rest of the record",
    Severity.INFO,
)

REVISION_NOT_A_COMMIT = _rule(
    "R010",
    "revision-not-a-commit",
    "A model's config_source names a branch or tag (main, v1.0) where a commit belongs.",
    "The config is copied verbatim so that anyone can compare it with what was published; a branch or tag "
    "moves, so the file it names today may not be the one that was read, and the comparison proves nothing. "
    "A commit hash names one content for good.",
    "give the commit hash the config was read at (the file's history on Hugging Face or GitHub shows it)",
    Severity.WARNING,
)

BEYOND_MAX_CONTEXT = _rule(
    "R012",
    "beyond-max-context",
    "A kv-efficiency or benchmark record states a context, or a workload whose input and output tokens "
    "together are, longer than its model's max_context_tokens.",
    "A figure at a context the model does not take describes no way of using it, and a reader takes it for "
    "one: a 128K cache on a 32K model looks like a supported setting. Likewise a workload whose requests "
    "hold more tokens, input and output together, than the maximum is one a server started on the model's "
    "config refuses; its fixed lengths, its caps and even its means say so (a mean beyond the maximum has "
    "requests beyond it). A record may state one on purpose (a paper's extrapolation past the trained "
    "length): it then says why in 'beyond_max_context', which silences the warning and is shown beside "
    "the figure. A reason left on a record nothing of which is beyond the maximum is reported too, so that "
    "it cannot outlive the figure it explained.",
    "state the figure at a context, and the workload at lengths, within the model's maximum, or say why "
    "it is beyond it in 'beyond_max_context' (a reason, not a flag)",
    Severity.WARNING,
)

RULES: tuple[Rule, ...] = (
    ID_MISMATCH,
    DUPLICATE_ID,
    WRONG_COLLECTION,
    DANGLING_REFERENCE,
    WRONG_REFERENCE_KIND,
    BROKEN_LINK,
    OUTSIDE_RECORDS,
    SELF_REFERENCE,
    LEFTOVER_TEMPORARY,
    REVISION_NOT_A_COMMIT,
    NOT_CHECKED_FURTHER,
    BEYOND_MAX_CONTEXT,
)
