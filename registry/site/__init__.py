"""The static site: pages generated from the checked registry and the engine's results, built with
mkdocs-material (and buildable with Zensical from the same ``mkdocs.yml``).

::

    build_site(root)            check, generate site/generated/, mkdocs build --strict → build/site/
    generate(root, result)      only write the generated Markdown pages and download files
    render_markdown(text)       a record's Markdown field as sanitized HTML
    escape(text)                any other record text as HTML

Errors: :class:`SiteRefused`, and :class:`~registry.errors.RegistryError` itself when mkdocs.yml is
missing or the mkdocs build failed (its last lines in the message); the tree is in :mod:`registry.errors`.
"""

from registry.errors import SiteRefused
from registry.site._build import DEFAULT_OUT, SiteReport, build_site, run_mkdocs
from registry.site._generate import Generated, generate
from registry.site._html import Html, escape
from registry.site._sanitize import render_markdown
from registry.site._serve import make_server, serve_in_background

__all__ = [
    "DEFAULT_OUT",
    "Generated",
    "Html",
    "SiteRefused",
    "SiteReport",
    "build_site",
    "escape",
    "generate",
    "make_server",
    "render_markdown",
    "run_mkdocs",
    "serve_in_background",
]
