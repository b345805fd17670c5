"""Where each page lives, and the relative address from one page to another.

Pages are named by their path under the docs folder (``site/``), as MkDocs names them:
``generated/models/llama-3.1-8b.md`` for the record ``models/llama-3.1-8b``. The site is built with
``use_directory_urls: false``, so that page is served as ``generated/models/llama-3.1-8b.html`` and a
link is a plain relative file address that works over HTTP and from a folder on disk alike.

Links inside raw HTML are not rewritten by MkDocs, so every ``href`` the generator writes is made here.
"""

from __future__ import annotations

GENERATED = "generated"
"""The git-ignored folder under ``site/`` that holds every generated page."""

HOME = "index.md"
REFERENCE = f"{GENERATED}/reference"
DOWNLOADS = f"{GENERATED}/downloads"


def record_page(record_id: str) -> str:
    """``models/x`` → ``generated/models/x.md``."""
    return f"{GENERATED}/{record_id}.md"


def chart_file(page: str, name: str) -> str:
    """``generated/models/x.md`` and ``memory`` → ``generated/models/x.memory.svg``: a chart drawn for
    a page, beside it (MkDocs copies it as it is)."""
    return f"{page[: -len('.md')]}.{name}.svg"


def collection_page(folder: str) -> str:
    """``models`` → ``generated/models/index.md``: the collection's index page."""
    return f"{GENERATED}/{folder}/index.md"


def code_page(code: str) -> str:
    """The explain page of a diagnostic code."""
    return f"{REFERENCE}/codes/{code}.md"


def served(page: str) -> str:
    """The address a page is served at: ``.md`` becomes ``.html``; other files keep their name."""
    return page[: -len(".md")] + ".html" if page.endswith(".md") else page


def href(from_page: str, to_page: str, anchor: str = "") -> str:
    """The relative address of ``to_page`` (a page or file under the docs folder) from ``from_page``.

    Both are plain ``a/b/c.md`` paths under the docs folder, so this is a common-prefix walk (about ten
    times quicker than :func:`posixpath.relpath`, which resolves against the working folder; the
    generator makes one address per link, tens of thousands per site).
    """
    here = from_page.split("/")[:-1]
    there = served(to_page).split("/")
    common = 0
    while common < len(here) and common < len(there) - 1 and here[common] == there[common]:
        common += 1
    relative = "../" * (len(here) - common) + "/".join(there[common:])
    return f"{relative}#{anchor}" if anchor else relative


RESULTS = f"{GENERATED}/results"
RESULTS_INDEX = f"{RESULTS}/index.md"
"""The serving results pages: one per model (and per model and benchmark), and their index."""


def results_page(model_id: str, benchmark: str = "") -> str:
    """``models/x`` → ``generated/results/x.md``; with the benchmark ``b`` named,
    ``generated/results/x/b.md``: the serving results of a model (of one of its benchmarks)."""
    slug = model_id.split("/", 1)[1]
    return f"{RESULTS}/{slug}/{benchmark}.md" if benchmark else f"{RESULTS}/{slug}.md"
