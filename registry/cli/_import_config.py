"""registry import-config"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from registry.cli._common import registry_root
from registry.terminal import terminal_lines

DESCRIPTION = """\
Write a model record from a published config.json: the config copied verbatim under 'config' (same keys
in the same order, same value types), 'config_source' from the options, and the cache layout the engine
derives from the config (per layer group: how many layers, which mechanism, its dimensions) as a comment
above it. A model_type no adapter knows is still imported, with the finding 'registry check' will report
(F006, an error until the record states a 'layout'; the contributing page shows how to write one).
--repository takes owner/name or the repository's page (https://huggingface.co/owner/name), written as
owner/name; anything else is refused. --revision is the commit the config was read at: a branch or tag
(main, v1.0) is written but warned about (R010), as the check warns. 'name' defaults to the id's slug and
'org' to the repository's owner. Without --url, 'sources' is left empty for you to fill. An existing
file is never overwritten.
"""

EPILOG = """\
examples:
  registry import-config config.json --id models/llama-3.1-8b \\
      --repository meta-llama/Llama-3.1-8B --revision 0e9e39f249a16976918f6564b8830bc894c89659 \\
      --url https://huggingface.co/meta-llama/Llama-3.1-8B/blob/0e9e39f249a16976918f6564b8830bc894c89659/config.json

exit codes: 0 written (findings it reports included), 2 could not run (the file exists, the config is
not JSON, a repository that is not owner/name, a bad option).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", metavar="CONFIG.json", help="the config.json file to import")
    parser.add_argument("--id", required=True, metavar="models/SLUG", help="the record's id")
    parser.add_argument(
        "--repository",
        required=True,
        metavar="R",
        help="owner/name of the repository that publishes it, or its https://huggingface.co/owner/name page",
    )
    parser.add_argument(
        "--revision", required=True, metavar="REV", help="the commit it was read at (a git hash)"
    )
    parser.add_argument(
        "--file", default="config.json", metavar="F", help="its path in the repository (default config.json)"
    )
    parser.add_argument(
        "--url", metavar="URL", help="an https link to the file at that revision (becomes the source)"
    )
    parser.add_argument("--name", metavar="NAME", help="the model's name (default: the id's slug)")
    parser.add_argument(
        "--org", metavar="ORG", help="who publishes the model (default: the repository's owner)"
    )


def run(args: argparse.Namespace) -> int:
    from registry.authoring.import_config import ImportOptions, write_import  # lazy

    options = ImportOptions(
        Path(args.config), args.id, args.repository, args.revision, args.file, args.url, args.name, args.org
    )
    result = write_import(registry_root(args), options)
    lines = [f"wrote records/{result.id}.yaml"]
    lines += [f"  {group}" for group in result.groups]
    lines += [f"derived: {item}; pass --name or --org to set it" for item in result.derived]
    if result.to_fill:
        todo = ", ".join(result.to_fill)
        lines.append(f"to fill in (marked TODO; 'registry check' reports them until they are): {todo}")
    sys.stdout.write(terminal_lines("\n".join(lines)) + "\n")
    for finding in result.findings:
        sys.stderr.write(f"{finding.severity.value}: {finding.code} {finding.name}: {finding.message}\n")
        sys.stderr.write(f"  hint: {finding.hint}\n")
    return 0
