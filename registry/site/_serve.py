"""Serving a built site on localhost: the standard library's HTTP server, quiet, bound to 127.0.0.1."""

from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any


class _QuietHandler(SimpleHTTPRequestHandler):
    """Serves files without logging each request to stderr."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


def make_server(directory: Path, port: int = 8000, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """An HTTP server for ``directory``; port 0 picks a free one (read it from ``server_address``)."""
    handler = partial(_QuietHandler, directory=str(directory))
    return ThreadingHTTPServer((host, port), handler)


def serve_in_background(
    directory: Path, port: int = 0, host: str = "127.0.0.1"
) -> tuple[ThreadingHTTPServer, str]:
    """Start serving ``directory`` on a daemon thread; returns the server and its base address.

    Call ``server.shutdown()`` then ``server.server_close()`` to stop it.
    """
    server = make_server(directory, port, host)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    bound_host, bound_port = server.server_address[:2]
    return server, f"http://{bound_host!s}:{bound_port}/"
