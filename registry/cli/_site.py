"""registry site"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from registry.cli._common import registry_root

DESCRIPTION = """\
Build the static site: check the registry, write the generated pages into site/generated/ (git-ignored;
the hand-written pages beside them are committed), then run 'mkdocs build --strict' into build/site/.
A draft (a record that does not validate yet, such as one 'registry new' wrote with fields left to
fill) is left out, with the records pointing at it: its findings are listed and the rest of the registry
is built. Any other error refuses the build, and --strict refuses drafts too (for publishing). Record
pages are reached through the collection indexes and the search box, not the navigation, so the build
stays linear in the number of records.
"""

EPILOG = """\
examples:
  registry site                       build into build/site/ and say where it is
  registry site --out /tmp/site       build somewhere else
  registry site --serve               build, then serve it on http://127.0.0.1:8000/
  registry site --no-downloads        skip the database and Parquet files (a quicker preview)
  registry site --strict              refuse drafts too (for publishing)

exit codes: 0 built (drafts left out are listed on standard error), 2 could not build (errors in the
records other than drafts', any with --strict, or the mkdocs build failed).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", metavar="DIR", help="where to write the built site (default: build/site under the registry)"
    )
    parser.add_argument(
        "--serve", action="store_true", help="after building, serve the site on localhost until interrupted"
    )
    parser.add_argument("--port", type=int, default=8000, help="the port for --serve (default: 8000)")
    parser.add_argument(
        "--no-downloads", action="store_true", help="leave out the DuckDB and Parquet downloads"
    )
    parser.add_argument(
        "--pages-only", action="store_true", help="write the generated Markdown pages, do not run mkdocs"
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="refuse a registry with drafts instead of building without them",
    )


def run(args: argparse.Namespace) -> int:
    from registry.cli._db import describe_left_out  # lazy
    from registry.report.reporters import text  # lazy
    from registry.site import build_site, make_server  # lazy

    root = registry_root(args)
    out = Path(args.out).resolve() if args.out else None
    report = build_site(
        root,
        out,
        progress=sys.stderr,
        downloads=not args.no_downloads,
        render=not args.pages_only,
        leave_out_drafts=not args.strict,
    )
    if report.check is not None:
        text(report.check, sys.stderr, sys.stderr)
    if report.left_out:
        sys.stderr.write(describe_left_out(report.left_out) + "\n")
    timing = ", ".join(f"{step} {seconds:.1f} s" for step, seconds in report.seconds.items())
    if args.pages_only:
        sys.stdout.write(f"Wrote {report.pages:,} pages into {root / 'site' / 'generated'} ({timing}).\n")
        return 0
    sys.stdout.write(f"Site built: {report.home} ({report.pages:,} generated pages; {timing}).\n")
    if not args.serve:
        sys.stdout.write("Open it in a browser, or run 'registry site --serve' to serve it on localhost.\n")
        return 0
    server = make_server(report.out, args.port)
    sys.stdout.write(f"Serving on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop).\n")
    sys.stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
